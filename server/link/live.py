"""Live fan-out: ingest says what changed, every open page stream hears it.

One in-process hub per server: a version number, and the kinds of change since each version,
with the tables whose rows changed when ingest knows them. A stream waits on a condition for a
version newer than the one it sent last; it never polls the database on a timer. The page then
fetches what it shows, through the same release rule as any request: the console only the
rows of the tables named, when they are named.

Several processes on one database (ingest workers sharing the stream) each have a hub; a
change made here is handed to ``Hub.forward`` (``server.link.relay`` sends it to the others), and
one made elsewhere comes back through ``Hub.record``, which never forwards it again.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

HEARTBEAT = 15.0
"""Seconds between comments on an idle stream, so proxies and browsers keep it open."""
MAX_TABLES = 800
"""The most tables a ``change`` message names, and a page asks for by number: past it, "all of
them" (null) keeps the message and the request short. The rows cost in proportion to their
number (1,000 tables, 2026-11-26: one row 2.6 ms, 200 rows 16.6, 500 rows 34.0, the whole
grid 66.9), so up to about 800 rows are cheaper than the whole grid. At 200, during the scan
of 1,000 tables a change named more than that often enough that the page fetched the whole
grid 38 times in five minutes, each holding up the fetches after it."""
KINDS = frozenset({"tables", "results", "calls", "commands", "analysis", "session", "status",
                   "conflicts", "seated"})
"""Every kind a page streams: a hub that may have missed changes says all of these changed.
"status" is the ingest's storage line (a refusal began or ended), "conflicts" a table's events
that came twice with different content, "seated" a table's assignment or a player sitting
down (always with "tables", for the same table): the console fetches those parts on their own
kind, not on every change of a table (at thousands of tables, every few milliseconds)."""


class Change(NamedTuple):
    """What a waiter learns: the newest version, every kind changed since its own, and for
    the ``tables`` kind the tables whose rows changed; ``tables`` None when any may have (a
    change that did not say which, or a waiter too far behind to know)."""

    version: int
    kinds: frozenset[str]
    tables: frozenset[int] | None


_NOTHING: frozenset[int] = frozenset()

Forward = Callable[[frozenset[str], frozenset[int] | None], None]
"""Where a hub hands the changes made in this process, to tell other processes' hubs."""


class Hub:
    def __init__(self, history: int = 256, max_streams: int = 64) -> None:
        self.version = 0
        # When the last change was recorded here (the server's clock): a page built before it
        # fetches its live parts again when its stream says hello (console.js).
        self.changed_at = 0.0
        # Each open stream holds a web thread: a cap keeps threads for the console and the
        # pages' own requests however many phones in the room open the results.
        self._slots = threading.BoundedSemaphore(max_streams)
        self._kinds: dict[int, frozenset[str]] = {}
        self._tables: dict[int, frozenset[int] | None] = {}  # for each version with "tables"
        self._last: dict[str, int] = {}  # each kind's newest version (kept past the history)
        self._history = history
        self._changed = threading.Condition()
        self.closed = False
        self.forward: Forward | None = None  # set before any thread notifies; must not block

    def notify(self, kinds: Iterable[str], tables: Iterable[int] | None = None) -> int:
        """A change of ``kinds`` made in this process; ``tables``, the tables whose rows
        changed, when the change is of the ``tables`` kind and the caller knows them (None:
        any may have). Recorded here and handed to ``forward``."""
        kinds = frozenset(kinds)
        rows = None if tables is None else frozenset(tables)
        version = self.record(kinds, rows)
        if kinds and self.forward is not None:
            self.forward(kinds, rows)
        return version

    def record(self, kinds: Iterable[str], tables: Iterable[int] | None = None) -> int:
        """A change recorded and woken here only: one another process made and relayed."""
        kinds = frozenset(kinds)
        if not kinds:
            return self.version
        with self._changed:
            self.version += 1
            self.changed_at = time.time()
            self._kinds[self.version] = kinds
            for kind in kinds:
                self._last[kind] = self.version
            if "tables" in kinds:
                self._tables[self.version] = None if tables is None else frozenset(tables)
            gone = self.version - self._history
            self._kinds.pop(gone, None)
            self._tables.pop(gone, None)
            self._changed.notify_all()
            return self.version

    def version_of(self, kinds: Iterable[str]) -> int:
        """The version of the newest change of any of ``kinds`` recorded here, made in this
        process or relayed from another (0: none yet). What is kept by it (the field's scores,
        server/services.py) is current while this stays the same."""
        with self._changed:
            return max((self._last.get(kind, 0) for kind in kinds), default=0)

    def wait(self, after: int, timeout: float) -> Change:
        """The newest version and every change after ``after`` (no kinds on timeout)."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > after or self.closed, timeout)
            if self.version <= after:
                return Change(after, frozenset(), _NOTHING)
            oldest = self.version - self._history + 1
            if after < oldest:  # too far behind to know: everything may have changed
                return Change(self.version, frozenset().union(*self._kinds.values()), None)
            # after == -1 asks "everything since the start": version 0 has no kinds.
            versions = range(max(after + 1, 1), self.version + 1)
            kinds = frozenset().union(*(self._kinds[v] for v in versions))
            return Change(self.version, kinds, self._rows(versions))

    def _rows(self, versions: range) -> frozenset[int] | None:
        """The tables changed over ``versions``; None as soon as one change did not say."""
        rows: set[int] = set()
        for version in versions:
            if version in self._tables:
                tables = self._tables[version]
                if tables is None:
                    return None
                rows |= tables
        return frozenset(rows)

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
        hello = {"version": seen, "changed_at": self.changed_at}
        yield f"retry: 2000\nevent: hello\ndata: {json.dumps(hello)}\n\n"
        while not self.closed:
            change = self.wait(seen, heartbeat)
            seen = change.version
            message = change_message(change, wanted)
            if message is not None:
                yield f"event: change\ndata: {json.dumps(message)}\n\n"
            else:
                yield ": idle\n\n"


def change_message(change: Change, wanted: frozenset[str]) -> dict[str, object] | None:
    """The ``change`` message for a stream that wants ``wanted``, or None if nothing it
    wants changed. With the ``tables`` kind, ``tables`` lists the tables to fetch again, or
    is null: fetch them all."""
    relevant = sorted(change.kinds & wanted)
    if not relevant:
        return None
    message: dict[str, object] = {"version": change.version, "kinds": relevant}
    if "tables" in relevant:
        tables = change.tables
        message["tables"] = (sorted(tables) if tables is not None and len(tables) <= MAX_TABLES
                             else None)
    return message
