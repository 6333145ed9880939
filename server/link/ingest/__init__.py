"""Ingest: what a table published, checked, stored once, and made into results.

``Ingest(db, event)(topic, payload)`` is a plain function of one MQTT message: the worker calls
it for every message, and tests call it directly. It never raises for bad input: a malformed,
oversized or foreign payload is logged, kept in ``rejections`` with the reason, and dropped.

A batch goes through three phases, each a module of plain functions over one explicit
:class:`~.context.Context` (the store, the session's name, the clock, the gap grace, and the
server's answers about the session's movement), each handing to the next:
- :mod:`.decode` (decode and check): the topic and payload made into typed values
  (``tablemodel.wire`` decodes and checks every payload), or the reason they are refused;
- :mod:`.store`: each event stored once (a replay with other content kept apart), the
  table's numbers kept contiguous, a gap asked for again (``resend``), each table's status
  row read and written once per batch;
- :mod:`.project`: the rows derived from each new event, by a table keyed by event type
  (results, with the score recomputed by ``laws``; director calls; command answers;
  the director's scores).

:class:`Ingest` keeps the public methods (a call, ``many``, ``reproject``, ``reject``): it
makes the context once from what its constructor is given, and runs the phases in order.
Nothing is set on it after it is made: the server's services give it their answers when
they make it (server/services.py), and a worker sharing the stream runs its own, with the
grace (:meth:`Ingest.sharing_the_stream`).
"""

from __future__ import annotations

import copy
import dataclasses
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, insert

from laws import Vulnerability
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.wire import ONLINE, Event, WireError

from .context import Context, Seated, law_2_vulnerability
from .decode import decode, rejection_row
from .outcome import Outcome
from .project import project
from .store import (
    RESEND_AGAIN_AFTER,
    SHARED_GAP_GRACE,
    Statuses,
    advance,
    keep_rejections,
    retained_state,
    store_events,
)

__all__ = ["RESEND_AGAIN_AFTER", "SHARED_GAP_GRACE", "Context", "Ingest", "Outcome", "Seated"]

log = logging.getLogger(__name__)


class Ingest:
    """Ingest for one event (one session's MQTT namespace): see the module's docstring for
    what each argument is (:class:`~.context.Context`)."""

    def __init__(self, db: Database, event: str, *, clock: Callable[[], float] = time.time,
                 seating: Callable[[int, int], Seated | None] | None = None,
                 allowed: Callable[[int, int], str | None] | None = None,
                 vulnerability: Callable[[int], Vulnerability] | None = None,
                 gap_grace: float = 0.0) -> None:
        self.context = Context(db, event, clock, seating, allowed,
                               vulnerability or law_2_vulnerability, gap_grace)
        self.rejected = 0  # messages refused since it was made (the tools count them)

    @property
    def db(self) -> Database:
        return self.context.db

    @property
    def event(self) -> str:
        return self.context.event

    def sharing_the_stream(self) -> Ingest:
        """This ingest for a worker that shares the stream with others (an MQTT v5 shared
        subscription): another worker holds part of each table's stream, so a gap is often
        no gap, and is asked for only after ``SHARED_GAP_GRACE``."""
        shared = copy.copy(self)
        shared.context = dataclasses.replace(
            self.context, gap_grace=max(self.context.gap_grace, SHARED_GAP_GRACE))
        return shared

    def __call__(self, topic: str, payload: bytes | str) -> Outcome:
        return self.many([(topic, payload)])[0]

    def many(self, messages: Iterable[tuple[str, bytes | str]]) -> list[Outcome]:
        """A batch in one write transaction: one commit, one insert of its events, one read
        and one write of each table's status, whatever the batch's size."""
        messages = list(messages)
        outcomes = ingest_batch(self.context, messages)
        self.rejected += sum(outcome.rejected is not None for outcome in outcomes)
        return outcomes

    def reproject(self, conn: Connection, table: int, events: Iterable[Event]) -> Outcome:
        """Project ``events``, stored already (replacing others of their numbers, as the
        director chose: server/link/conflicts.py), as if each had just arrived."""
        batch = Statuses(conn, self.event, {table})
        outcome = Outcome(table=table)
        for event in sorted(events, key=lambda e: e.seq):
            project(self.context, conn, table, event, outcome, batch)
        batch.flush()
        return outcome

    def reject(self, topic: str, payload: bytes | str, reason: str) -> Outcome:
        """Record a message that can never be stored (the bus calls this when storing it
        failed), so it is acknowledged and its reason kept instead of coming back forever."""
        with self.db.write() as conn:
            conn.execute(insert(s.rejections).values(
                **_rejection(self.context, topic, payload, reason)))
        self.rejected += 1
        return Outcome(rejected=reason)


def ingest_batch(ctx: Context, messages: list[tuple[str, bytes | str]]) -> list[Outcome]:
    """The phases over one batch: decode each message, store the new events (in one write
    transaction), advance each table's numbers, project each new event in order, note the
    retained states, keep the rejections."""
    outcomes = [Outcome() for _ in messages]
    parsed: list[tuple[int, int, str, Any]] = []  # (index, table, kind, decoded)
    for index, (topic, payload) in enumerate(messages):
        try:
            parsed.append((index, *decode(ctx.event, topic, payload)))
        except WireError as error:
            outcomes[index].rejected = str(error)
        else:
            outcomes[index].table = parsed[-1][1]
    with ctx.db.write() as conn:
        batch = Statuses(conn, ctx.event, {table for _, table, _, _ in parsed})
        events = [(i, t, e) for i, t, kind, e in parsed if kind == "events"]
        stored = store_events(ctx, conn, events, outcomes)
        by_table: dict[int, list[tuple[int, Event]]] = {}
        for index, table, event in stored:
            by_table.setdefault(table, []).append((index, event))
        for table, new in by_table.items():
            new.sort(key=lambda item: item[1].seq)
            advance(ctx, conn, batch, table, new, outcomes)
            for index, event in new:
                project(ctx, conn, table, event, outcomes[index], batch)
        latest_state: dict[int, tuple[int, Mapping[str, Any]]] = {}
        for index, table, kind, value in parsed:
            if kind == "status":
                batch.set(table, online=value == ONLINE, seen_at=ctx.clock())
                outcomes[index].changed.add("tables")
                if value == ONLINE:
                    outcomes[index].online.add(table)
            elif kind == "state":
                outcomes[index].changed.add("tables")
                if table not in latest_state or value["seq"] >= latest_state[table][1]["seq"]:
                    latest_state[table] = (index, value)
        for table, (index, snapshot) in latest_state.items():
            retained_state(ctx, batch, table, snapshot, outcomes[index])
        batch.flush()
        rejections = [_rejection(ctx, *messages[i], o.rejected)
                      for i, o in enumerate(outcomes) if o.rejected is not None]
        if rejections:
            keep_rejections(conn, rejections)
    return outcomes


def _rejection(ctx: Context, topic: str, payload: bytes | str, reason: str) -> dict[str, Any]:
    row = rejection_row(ctx.clock(), topic, payload, reason)
    log.warning("rejected %d bytes on %r: %s", row["size"], topic[:200], reason)
    return row
