"""Ingest's statements handed to the driver (server/link/ingest/sql.py) on SQLite and PostgreSQL:
a batch's events inserted once, a replay met as a duplicate, a replay with other content
rejected, a gap asked for, a result projected with its lead and seats."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from server.link.ingest import Ingest
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.wire import Event, table_topic

EVENT = "dialects"


def message(table: int, seq: int, kind: str, board: int | None, **data: Any) -> tuple[str, bytes]:
    return (table_topic(EVENT, table, "events"),
            Event(seq, kind, 1_000.0 + seq, board, data).to_payload())


def test_a_batch_is_stored_once_and_its_replays_told_apart(db: Database) -> None:
    ingest = Ingest(db, EVENT)
    batch = [message(1, 1, "assign", None, cmd="r1", round=1, ns=1, ew=2, boards=[1]),
             message(1, 2, "card", 1, seat="E", card="SA"),
             message(1, 3, "result", 1, contract="3NT", declarer="S", tricks=9, score_ns=400),
             message(2, 1, "confirm", 1, seat="N"),
             message(2, 1, "confirm", 1, seat="N")]  # the same again, in the same batch
    outcomes = ingest.many(batch)
    assert [o.stored for o in outcomes] == [1, 1, 1, 1, 0]
    assert outcomes[4].duplicate
    again = ingest.many([message(1, 2, "card", 1, seat="E", card="SA"),
                         message(1, 3, "result", 1, contract="4S", declarer="S", tricks=10,
                                 score_ns=420),
                         message(2, 3, "confirm", 1, seat="E")])  # 2 is missing
    assert again[0].duplicate and again[0].rejected is None
    assert again[1].rejected is not None and "other content" in again[1].rejected
    assert again[2].stored == 1
    assert [(t, c.type, dict(c.data)) for t, c in again[2].commands] == [
        (2, "resend", {"since": 2, "until": 2})]
    with db.read() as conn:
        assert conn.execute(select(func.count()).select_from(s.events)).scalar_one() == 5
        marks = dict(conn.execute(select(s.table_status.c.table_no,
                                         s.table_status.c.contiguous_seq)).all())
        result = conn.execute(select(s.results)).one()
    assert marks == {1: 3, 2: 1}
    # The lead from the stored card, the seats from the table's own assignment, our score.
    assert (result.table_no, result.board, result.contract, result.lead) == (1, 1, "3NT", "SA")
    assert (result.round, result.ns, result.ew, result.score_ns) == (1, 1, 2, 400)
