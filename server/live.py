"""Live fan-out: ingest says what changed, every open page stream hears it.

One in-process hub per server: a version number and the kinds of change since each version.
A stream waits on a condition for a version newer than the one it sent last; it never polls
the database on a timer. The page then fetches what it shows, through the same release rule
as any request.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator

HEARTBEAT = 15.0
"""Seconds between comments on an idle stream, so proxies and browsers keep it open."""


class Hub:
    def __init__(self, history: int = 256, max_streams: int = 64) -> None:
        self.version = 0
        # Each open stream holds a web thread: a cap keeps threads for the console and the
        # pages' own requests however many phones in the room open the results.
        self._slots = threading.BoundedSemaphore(max_streams)
        self._kinds: dict[int, frozenset[str]] = {}
        self._history = history
        self._changed = threading.Condition()
        self.closed = False

    def notify(self, kinds: Iterable[str]) -> int:
        kinds = frozenset(kinds)
        if not kinds:
            return self.version
        with self._changed:
            self.version += 1
            self._kinds[self.version] = kinds
            self._kinds.pop(self.version - self._history, None)
            self._changed.notify_all()
            return self.version

    def wait(self, after: int, timeout: float) -> tuple[int, frozenset[str]]:
        """The newest version and every kind changed after ``after`` (empty on timeout)."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > after or self.closed, timeout)
            if self.version <= after:
                return after, frozenset()
            oldest = self.version - self._history + 1
            if after < oldest:  # too far behind to know: everything may have changed
                return self.version, frozenset().union(*self._kinds.values())
            # after == -1 asks "everything since the start": version 0 has no kinds.
            kinds = frozenset().union(*(self._kinds.get(v, frozenset())
                                        for v in range(after + 1, self.version + 1)))
            return self.version, kinds

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def stream(self, wanted: frozenset[str], *, heartbeat: float = HEARTBEAT) -> Iterator[str]:
        """Server-sent events: one ``change`` message per burst of changes that matter. When
        every slot is taken the browser is told to come back in 30 s."""
        if not self._slots.acquire(blocking=False):
            yield "retry: 30000\n: busy\n\n"
            return
        try:
            yield from self._stream(wanted, heartbeat)
        finally:
            self._slots.release()

    def _stream(self, wanted: frozenset[str], heartbeat: float) -> Iterator[str]:
        seen = self.version
        yield f"retry: 2000\nevent: hello\ndata: {json.dumps({'version': seen})}\n\n"
        while not self.closed:
            seen, kinds = self.wait(seen, heartbeat)
            relevant = sorted(kinds & wanted)
            if relevant:
                data = json.dumps({"version": seen, "kinds": relevant})
                yield f"event: change\ndata: {data}\n\n"
            else:
                yield ": idle\n\n"
