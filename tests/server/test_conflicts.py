"""Events of one table that came twice with different content (issue 27, item 6): kept for
the director, who keeps the stored ones or takes the later ones; what the replaced events
made is undone and made again from the new ones."""

from __future__ import annotations

from sqlalchemy import select

from server.link.conflicts import conflicts_of, keep_stored, take_later
from server.link.ingest import Ingest
from server.storage import schema as s
from server.storage.db import Database
from tests.server.test_ingest import EVENT, clock, db, ingest, payload, result, topic  # noqa: F401


def _results(database: Database) -> list[tuple[int, int, str | None, int]]:
    with database.read() as conn:
        return [(r.board, r.source_seq, r.contract, r.score_ns) for r in conn.execute(
            select(s.results).where(s.results.c.event == EVENT))]


def _calls(database: Database) -> list[int]:
    with database.read() as conn:
        return [r.seq for r in conn.execute(select(s.director_calls))]


def test_the_later_ones_replace_the_stored_and_what_they_made(
        db: Database, ingest: Ingest) -> None:  # noqa: F811
    # An impostor's: a result for board 1 at 2, a director call at 3.
    ingest(topic(), payload(1, "player", None, seat="N", number=901))
    ingest(topic(), result(2, 1, contract="7NT", declarer="N", tricks=13, score_ns=1520))
    ingest(topic(), payload(3, "director", 1, seat="N", reason="insufficient"))
    assert _results(db) == [(1, 2, "7NT", 1520)] and _calls(db) == [3]
    # The table's own, with the same numbers: refused, kept aside.
    for outcome in (ingest(topic(), payload(1, "player", None, seat="N", number=5)),
                    ingest(topic(), result(2, 1, contract="4H", declarer="S", tricks=10)),
                    ingest(topic(), payload(3, "call", 1, seat="E", call="Pass"))):
        assert outcome.rejected is not None and "other content" in outcome.rejected
    [found] = conflicts_of(db, EVENT)
    assert (found.table, found.count, found.first, found.last) == (1, 3, 1, 3)
    assert take_later(ingest, 1) == 3
    assert _results(db) == [(1, 2, "4H", 420)] and _calls(db) == []
    assert conflicts_of(db, EVENT) == []
    with db.read() as conn:
        kinds = [r.type for r in conn.execute(select(s.events).order_by(s.events.c.seq))]
    assert kinds == ["player", "result", "call"]


def test_keeping_the_stored_ones_drops_the_others(db: Database, ingest: Ingest) -> None:  # noqa: F811
    ingest(topic(), result(1, 1, contract="4H", declarer="S", tricks=10))
    ingest(topic(), result(1, 1, contract="7NT", declarer="N", tricks=13, score_ns=1520))
    assert [c.count for c in conflicts_of(db, EVENT)] == [1]
    assert keep_stored(db, EVENT, 1) == 1
    assert conflicts_of(db, EVENT) == [] and _results(db) == [(1, 1, "4H", 420)]


def test_the_same_event_twice_is_no_conflict(db: Database, ingest: Ingest) -> None:  # noqa: F811
    ingest(topic(), result(1, 1))
    assert ingest(topic(), result(1, 1)).duplicate
    assert conflicts_of(db, EVENT) == []
