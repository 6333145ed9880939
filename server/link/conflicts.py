"""Events of one table that came twice with different content: the director chooses.

A table's events are numbered; the server stores the first it receives under each number. If
another device publishes with that table's login (a stolen password; a second Pi given the
same config), the two sets of events collide: whichever reached the server first holds the
numbers, and the other's are refused as "replayed or forged". The server cannot tell which
one is the table: both logged in with its password. So it keeps each refused version
(``event_conflicts``, the latest of each number), the console says which table and which
numbers, and the director, having looked at the table, chooses:

- **keep what is stored**: the other versions are dropped;
- **take the ones that came later**: they replace the stored ones, and what the replaced
  events had made (a result, a director call, a command's answer, a lead) is undone and made
  again from the new ones, as ingest makes it (``Ingest.reproject``).

Neither is automatic: an impostor that publishes first and one that publishes later look
alike, and a wrong guess would put an impostor's results into the standings.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Row, delete, func, select, update

from server.link.ingest import Ingest
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.wire import Event

#: Event types whose projection answers a command (``commands.answer_seq``).
_ANSWERS = ("assign", "ruling", "roster", "refused")


@dataclass(frozen=True)
class TableConflict:
    """One table's events that came again with other content."""

    table: int
    count: int
    first: int  # the lowest and highest numbers among them
    last: int
    latest_at: float  # when the last of them came (the server's clock)


def conflicts_of(db: Database, event: str) -> list[TableConflict]:
    c = s.event_conflicts.c
    with db.read() as conn:
        rows = conn.execute(select(c.table_no, func.count(), func.min(c.seq), func.max(c.seq),
                                   func.max(c.received_at)).where(c.event == event)
                            .group_by(c.table_no).order_by(c.table_no)).all()
    return [TableConflict(row[0], row[1], row[2], row[3], row[4]) for row in rows]


def keep_stored(db: Database, event: str, table: int) -> int:
    """The director keeps what is stored: the other versions are dropped. How many."""
    with db.write() as conn:
        done = conn.execute(delete(s.event_conflicts).where(
            s.event_conflicts.c.event == event, s.event_conflicts.c.table_no == table))
    return int(done.rowcount or 0)


def take_later(ingest: Ingest, table: int) -> int:
    """The director takes the versions that came later: each replaces the stored event of
    its number, what the replaced one made is undone, and the new one is projected. How many
    were replaced."""
    event = ingest.event
    c = s.event_conflicts.c
    with ingest.db.write() as conn:
        later = conn.execute(select(s.event_conflicts).where(
            c.event == event, c.table_no == table).order_by(c.seq)).all()
        if not later:
            return 0
        seqs = [row.seq for row in later]
        stored = {row.seq: row for row in conn.execute(select(s.events).where(
            s.events.c.event == event, s.events.c.table_no == table,
            s.events.c.seq.in_(seqs))).all()}
        for row in later:
            old = stored.get(row.seq)
            if old is not None:
                _undo(conn, event, table, old)
            conn.execute(update(s.events).where(
                s.events.c.event == event, s.events.c.table_no == table,
                s.events.c.seq == row.seq).values(type=row.type, board=row.board, ts=row.ts,
                                                  data=row.data))
        conn.execute(delete(s.event_conflicts).where(c.event == event, c.table_no == table))
        ingest.reproject(conn, table, [
            Event(row.seq, row.type, row.ts, row.board, json.loads(row.data)) for row in later])
    return len(later)


def _undo(conn: Connection, event: str, table: int, old: Row[Any]) -> None:
    """Undo what the stored event ``old`` made: its result or director's score (unless the
    director corrected it since), its director call, its answer to a command."""
    seq, kind = old.seq, old.type
    results = s.results.c
    conn.execute(delete(s.results).where(
        results.event == event, results.table_no == table, results.source_seq == seq,
        results.corrected_by.is_(None)))
    if kind == "director":
        conn.execute(delete(s.director_calls).where(
            s.director_calls.c.event == event, s.director_calls.c.table_no == table,
            s.director_calls.c.seq == seq))
    if kind in _ANSWERS:
        conn.execute(update(s.commands).where(
            s.commands.c.event == event, s.commands.c.table_no == table,
            s.commands.c.answer_seq == seq).values(answer_seq=None, answer=None,
                                                   answer_reason=None))
