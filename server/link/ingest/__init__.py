"""Ingest: what a table published, checked, stored once, and made into results.

``Ingest(db, event)(topic, payload)`` is a plain function of one MQTT message: the worker calls
it for every message, and tests call it directly. It never raises for bad input: a malformed,
oversized or foreign payload is logged, kept in ``rejections`` with the reason, and dropped.

A batch goes through three rooms, each its own module:
- :mod:`.decode`: the topic and payload made into typed values (``tablemodel.wire`` decodes every
  payload), or the reason they are refused;
- :mod:`.store`: each event stored once, the table's numbers kept contiguous, a gap asked
  for again (``resend``), each table's status row read and written once per batch;
- :mod:`.project`: the rows derived from each new event (results, with the score recomputed
  by ``laws``; director calls; command answers; the director's scores).

``Ingest`` composes the last two as mixins rather than as collaborators: both read the
session's settings that callers set on the one ``Ingest`` after making it (``gap_grace``,
``seating``, ``allowed``, ``vulnerability``), and a collaborator would have to be handed each
change; decoding needs none of them and is plain functions.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, insert

from laws import Board, Vulnerability
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.wire import ONLINE, Event, WireError

from .decode import decode, rejection_row
from .outcome import Outcome
from .project import Projections, Seated
from .store import RESEND_AGAIN_AFTER, SHARED_GAP_GRACE, Statuses, Storage

__all__ = ["RESEND_AGAIN_AFTER", "SHARED_GAP_GRACE", "Ingest", "Outcome", "Seated"]

log = logging.getLogger(__name__)


class Ingest(Storage, Projections):
    """Ingest for one event (one session's MQTT namespace)."""

    def __init__(self, db: Database, event: str, *, clock: Callable[[], float] = time.time,
                 seating: Callable[[int, int], Seated | None] | None = None,
                 vulnerability: Callable[[int], Vulnerability] | None = None) -> None:
        self.db = db
        self.event = event
        self.clock = clock
        self.gap_grace = 0.0  # seconds before a new gap is asked for (SHARED_GAP_GRACE)
        self.seating = seating  # (table, board) -> who the movement put there, a fallback
        # (table, board) -> why the table may not have a result on the board now, or None
        self.allowed: Callable[[int, int], str | None] | None = None
        # board -> who is vulnerable, as the session says (Law 2's cycle unless it says else)
        self.vulnerability = vulnerability or (lambda board: Board(board).vulnerability)
        self.rejected = 0

    def __call__(self, topic: str, payload: bytes | str) -> Outcome:
        return self.many([(topic, payload)])[0]

    def many(self, messages: Iterable[tuple[str, bytes | str]]) -> list[Outcome]:
        """A batch in one write transaction: one commit, one insert of its events, one read
        and one write of each table's status, whatever the batch's size."""
        messages = list(messages)
        outcomes = [Outcome() for _ in messages]
        parsed: list[tuple[int, int, str, Any]] = []  # (index, table, kind, decoded)
        for index, (topic, payload) in enumerate(messages):
            try:
                parsed.append((index, *decode(self.event, topic, payload)))
            except WireError as error:
                outcomes[index].rejected = str(error)
            else:
                outcomes[index].table = parsed[-1][1]
        with self.db.write() as conn:
            batch = Statuses(conn, self.event, {table for _, table, _, _ in parsed})
            events = [(i, t, e) for i, t, kind, e in parsed if kind == "events"]
            stored = self._insert(conn, events, outcomes)
            by_table: dict[int, list[tuple[int, Event]]] = {}
            for index, table, event in stored:
                by_table.setdefault(table, []).append((index, event))
            for table, new in by_table.items():
                new.sort(key=lambda item: item[1].seq)
                self._advance(conn, batch, table, new, outcomes)
                for index, event in new:
                    self._project(conn, table, event, outcomes[index], batch)
            latest_state: dict[int, tuple[int, Mapping[str, Any]]] = {}
            for index, table, kind, value in parsed:
                if kind == "status":
                    batch.set(table, online=value == ONLINE, seen_at=self.clock())
                    outcomes[index].changed.add("tables")
                    if value == ONLINE:
                        outcomes[index].online.add(table)
                elif kind == "state":
                    outcomes[index].changed.add("tables")
                    if table not in latest_state or value["seq"] >= latest_state[table][1]["seq"]:
                        latest_state[table] = (index, value)
            for table, (index, snapshot) in latest_state.items():
                self._state(batch, table, snapshot, outcomes[index])
            batch.flush()
            rejections = [self._rejection(*messages[i], o.rejected)
                          for i, o in enumerate(outcomes) if o.rejected is not None]
            if rejections:
                self._keep_rejections(conn, rejections)
        return outcomes

    def reproject(self, conn: Connection, table: int, events: Iterable[Event]) -> Outcome:
        """Project ``events``, stored already (replacing others of their numbers, as the
        director chose: server/link/conflicts.py), as if each had just arrived."""
        batch = Statuses(conn, self.event, {table})
        outcome = Outcome(table=table)
        for event in sorted(events, key=lambda e: e.seq):
            self._project(conn, table, event, outcome, batch)
        batch.flush()
        return outcome

    def reject(self, topic: str, payload: bytes | str, reason: str) -> Outcome:
        """Record a message that can never be stored (the bus calls this when storing it
        failed), so it is acknowledged and its reason kept instead of coming back forever."""
        with self.db.write() as conn:
            conn.execute(insert(s.rejections).values(**self._rejection(topic, payload, reason)))
        return Outcome(rejected=reason)

    def _rejection(self, topic: str, payload: bytes | str, reason: str) -> dict[str, Any]:
        self.rejected += 1
        row = rejection_row(self.clock(), topic, payload, reason)
        log.warning("rejected %d bytes on %r: %s", row["size"], topic[:200], reason)
        return row
