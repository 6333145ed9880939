"""Ingest: every payload checked, each event stored once, gaps asked again, scores ours."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from server.link.ingest import RESEND_AGAIN_AFTER, Ingest, Seated
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.wire import MAX_PAYLOAD, Event, table_topic
from tests.clock import Clock

EVENT = "test"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(str(tmp_path / "ingest.db"))
    database.upgrade()
    yield database
    database.dispose()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def ingest(db: Database, clock: Clock) -> Ingest:
    return Ingest(db, EVENT, clock=clock)


def topic(table: int = 1, kind: str = "events", event: str = EVENT) -> str:
    return table_topic(event, table, kind)


def payload(seq: int, type_: str, board: int | None = None, ts: float = 500.0,
            **data: Any) -> bytes:
    return Event(seq, type_, ts + seq, board, data).to_payload()


def result(seq: int, board: int, contract: str = "4H", declarer: str = "S", tricks: int = 10,
           score_ns: int = 420, **more: Any) -> bytes:
    return payload(seq, "result", board, contract=contract, declarer=declarer, tricks=tricks,
                   score_ns=score_ns, **more)


def count(db: Database, table: Any) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def status(db: Database, table_no: int = 1) -> Any:
    with db.read() as conn:
        return conn.execute(select(s.table_status).where(
            s.table_status.c.table_no == table_no)).one()


def stored_result(db: Database, table_no: int = 1, board: int = 1) -> Any:
    with db.read() as conn:
        return conn.execute(select(s.results).where(s.results.c.table_no == table_no,
                                                    s.results.c.board == board)).one()


# -- each event once -------------------------------------------------------------------------

def test_an_event_is_stored_once(ingest: Ingest, db: Database) -> None:
    first = ingest(topic(), payload(1, "player", seat="N", number=7))
    again = ingest(topic(), payload(1, "player", seat="N", number=7))
    assert (first.stored, first.duplicate) == (1, False)
    assert (again.stored, again.duplicate, again.rejected) == (0, True, None)
    assert count(db, s.events) == 1
    assert status(db).contiguous_seq == 1


def test_a_replay_with_other_content_is_rejected_and_changes_nothing(
        ingest: Ingest, db: Database) -> None:
    ingest(topic(), payload(1, "player", seat="N", number=7))
    forged = ingest(topic(), payload(1, "player", seat="N", number=99))
    assert forged.rejected is not None and "other content" in forged.rejected
    with db.read() as conn:
        data = conn.execute(select(s.events.c.data)).scalar_one()
    assert json.loads(data)["number"] == 7
    assert count(db, s.rejections) == 1


def test_tables_are_kept_apart(ingest: Ingest, db: Database) -> None:
    ingest(topic(1), payload(1, "player", seat="N", number=7))
    outcome = ingest(topic(2), payload(1, "player", seat="N", number=8))
    assert outcome.stored == 1
    assert count(db, s.events) == 2


# -- bad input -------------------------------------------------------------------------------

BAD: list[tuple[str, str, bytes | str, str]] = [
    ("not json", topic(), b"{oops", "not JSON"),
    ("not an object", topic(), b"[1, 2]", "not a JSON object"),
    ("wrong version", topic(), b'{"v":2,"seq":1,"type":"player","ts":1,"board":null,"data":{}}',
     "version"),
    ("unknown type", topic(), b'{"v":1,"seq":1,"type":"teleport","ts":1,"board":null,"data":{}}',
     "unknown type"),
    ("seq zero", topic(), b'{"v":1,"seq":0,"type":"confirm","ts":1,"board":1,"data":{"seat":"N"}}',
     "between"),
    ("type confusion", topic(),
     b'{"v":1,"seq":1,"type":"card","ts":1,"board":1,"data":{"seat":"N","card":7}}', "text"),
    ("a card that is not one", topic(),
     b'{"v":1,"seq":1,"type":"card","ts":1,"board":1,"data":{"seat":"N","card":"S1"}}', "card"),
    ("nan time", topic(),
     b'{"v":1,"seq":1,"type":"confirm","ts":NaN,"board":1,"data":{"seat":"N"}}', "time"),
    ("oversized", topic(), b"{" + b" " * MAX_PAYLOAD + b"}", "limit"),
    ("not utf-8", topic(), b"\xff\xfe\x00", "not JSON"),
    ("another event", topic(event="other"), payload(1, "confirm", 1, seat="N"), "not this"),
    ("not a table topic", "bidbox/v1/test/table/x/events", payload(1, "confirm", 1, seat="N"),
     "not a number"),
    ("a command topic", topic(kind="cmd"), b"{}", "does not read"),
    ("garbage status", topic(kind="status"), b"maybe", "neither"),
    ("garbage state", topic(kind="state"), b'{"v":1,"seq":"x","phase":"auction"}', "seq"),
    ("unknown phase", topic(kind="state"), b'{"v":1,"seq":3,"phase":"dancing"}', "phase"),
    # the wire's own decoder (tablemodel.wire.state_from_payload): what the table never sends
    ("hands in the state", topic(kind="state"),
     b'{"v":1,"seq":3,"phase":"play","hands":{"N":"SAKQ"}}', "unknown fields"),
    ("a state's time", topic(kind="state"), b'{"v":1,"seq":3,"phase":"play","ts":"x"}', "time"),
]


@pytest.mark.parametrize(("name", "where", "body", "reason"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_logged_and_dropped(ingest: Ingest, db: Database, name: str, where: str,
                                         body: bytes | str, reason: str) -> None:
    outcome = ingest(where, body)
    assert outcome.rejected is not None and reason in outcome.rejected, outcome.rejected
    assert outcome.stored == 0
    assert count(db, s.events) == 0
    with db.read() as conn:
        row = conn.execute(select(s.rejections)).one()
    assert reason in row.reason and row.topic == where[:200]
    # ... and the next good message is stored as if nothing happened.
    assert ingest(topic(), payload(1, "player", seat="N", number=1)).stored == 1


def test_rejections_are_bounded(ingest: Ingest, db: Database, monkeypatch: Any) -> None:
    monkeypatch.setattr("server.link.ingest.store.KEEP_REJECTIONS", 5)
    ingest.many([(topic(), b"junk")] * 12)
    assert count(db, s.rejections) == 5
    assert ingest.rejected == 12


# -- gaps ------------------------------------------------------------------------------------

def test_a_gap_asks_the_table_to_resend(ingest: Ingest, db: Database) -> None:
    ingest(topic(), payload(1, "player", seat="N", number=1))
    outcome = ingest(topic(), payload(4, "player", seat="E", number=2))
    [(table, command)] = outcome.commands
    assert table == 1 and command.type == "resend"
    assert dict(command.data) == {"since": 2, "until": 3}
    assert (status(db).contiguous_seq, status(db).highest_seq) == (1, 4)
    ingest(topic(), payload(3, "player", seat="S", number=3))
    assert status(db).contiguous_seq == 1
    ingest(topic(), payload(2, "player", seat="W", number=4))
    assert status(db).contiguous_seq == 4  # the resent events close the gap


def test_the_same_gap_is_asked_again_only_after_a_while(ingest: Ingest, clock: Clock) -> None:
    ingest(topic(), payload(1, "player", seat="N", number=1))
    assert ingest(topic(), payload(3, "player", seat="E", number=2)).commands
    clock.now += RESEND_AGAIN_AFTER / 2
    assert not ingest(topic(), payload(4, "player", seat="S", number=3)).commands
    clock.now += RESEND_AGAIN_AFTER
    [(_, command)] = ingest(topic(), payload(5, "player", seat="W", number=4)).commands
    assert dict(command.data) == {"since": 2, "until": 4}


def test_a_state_ahead_of_the_stored_events_asks_for_them(ingest: Ingest, db: Database) -> None:
    ingest(topic(), payload(1, "player", seat="N", number=1))
    outcome = ingest(topic(kind="state"), b'{"v":1,"seq":6,"phase":"auction","round":1,'
                                          b'"board":3,"ts":1.0}')
    [(_, command)] = outcome.commands
    assert dict(command.data) == {"since": 2, "until": 6}
    row = status(db)
    assert (row.phase, row.round, row.board) == ("auction", 1, 3)


def test_a_state_in_step_asks_nothing(ingest: Ingest) -> None:
    ingest(topic(), payload(1, "player", seat="N", number=1))
    assert not ingest(topic(kind="state"), b'{"v":1,"seq":1,"phase":"players"}').commands


def test_presence(ingest: Ingest, db: Database) -> None:
    ingest(topic(kind="status"), b"online")
    assert status(db).online
    ingest(topic(kind="status"), b"offline")
    assert not status(db).online


# -- results ---------------------------------------------------------------------------------

def test_the_score_is_recomputed_not_trusted(ingest: Ingest, db: Database) -> None:
    ingest(topic(), result(1, board=1, contract="4H", declarer="S", tricks=10, score_ns=9999))
    row = stored_result(db)
    assert row.score_ns == 420  # board 1: nobody vulnerable, 4H made
    assert row.table_score_ns == 9999


@pytest.mark.parametrize(("board", "contract", "declarer", "tricks", "expected"), [
    (1, "4H", "S", 10, 420),
    (2, "4H", "S", 10, 620),  # board 2: NS vulnerable
    (2, "4HX", "E", 8, 300),  # Law 77: EW not vulnerable, doubled two down
    (3, "3NT", "W", 9, -600),  # board 3: EW vulnerable
    (4, "Pass", None, None, 0),
    (7, "6NTXX", "N", 13, 2510),  # board 7: both vulnerable; 760 + 500 + 750 + 100 + 400
])
def test_results_score_under_law_77(ingest: Ingest, db: Database, board: int, contract: str,
                                    declarer: str | None, tricks: int | None,
                                    expected: int) -> None:
    ingest(topic(), payload(1, "result", board, contract=contract, declarer=declarer,
                            tricks=tricks, score_ns=0))
    assert stored_result(db, board=board).score_ns == expected


def test_a_result_knows_who_sat_there_and_the_lead(ingest: Ingest, db: Database) -> None:
    ingest(topic(3), payload(1, "assign", cmd="a", round=2, ns=3, ew=7, boards=[5, 6]))
    ingest(topic(3), payload(2, "card", 5, seat="W", card="SQ"))
    ingest(topic(3), payload(3, "card", 5, seat="N", card="S2"))
    ingest(topic(3), result(4, board=5))
    row = stored_result(db, table_no=3, board=5)
    assert (row.round, row.ns, row.ew, row.lead) == (2, 3, 7, "SQ")


def test_a_late_lead_fills_in(ingest: Ingest, db: Database) -> None:
    ingest(topic(), result(3, board=1))
    assert stored_result(db).lead is None
    ingest(topic(), payload(2, "card", 1, seat="W", card="HA"))
    assert stored_result(db).lead == "HA"


def test_the_lead_that_stood_is_the_tables_not_the_first_card_scanned(
        ingest: Ingest, db: Database) -> None:
    """Law 41A with 25A: West's face-down SQ went back to the hand when South changed his
    call, and West led the HA. The table's result names the lead that stood; the SQ's event,
    arriving late (a resent gap), does not replace it."""
    ingest(topic(), payload(3, "card", 1, seat="W", card="HA", face_down=True))
    ingest(topic(), payload(5, "result", 1, contract="4H", declarer="S", tricks=10,
                            score_ns=420, lead="HA"))
    assert stored_result(db).lead == "HA"
    ingest(topic(), payload(1, "card", 1, seat="W", card="SQ", face_down=True))
    assert stored_result(db).lead == "HA"


def test_the_movement_says_who_sat_there_without_an_assignment(db: Database,
                                                               clock: Clock) -> None:
    ingest = Ingest(db, EVENT, clock=clock, seating=lambda t, b: Seated(1, t, t + 10))
    ingest(topic(4), result(1, board=2))
    row = stored_result(db, table_no=4, board=2)
    assert (row.round, row.ns, row.ew) == (1, 4, 14)


def test_a_later_result_supersedes_an_earlier_one(ingest: Ingest, db: Database) -> None:
    ingest(topic(), result(5, board=1, tricks=10))
    ingest(topic(), result(9, board=1, tricks=9, score_ns=-50))
    assert stored_result(db).score_ns == -50
    ingest(topic(), result(7, board=1, tricks=11, score_ns=450))  # resent, older
    assert stored_result(db).score_ns == -50


@pytest.mark.parametrize("adjusted", ["A60/40", "assigned"])
def test_a_table_cannot_adjust_its_own_score(ingest: Ingest, db: Database,
                                             adjusted: str) -> None:
    """Adjusted and assigned scores (Law 12C) come only from the director's rulings."""
    ingest(topic(), payload(1, "result", 1, contract="4H", declarer="S", tricks=10,
                            score_ns=-100, adjusted=adjusted))
    row = stored_result(db)
    assert (row.score_ns, row.adjusted, row.table_score_ns) == (420, None, -100)


def sent(db: Database, ident: str, type_: str, data: dict[str, Any], table: int = 1) -> None:
    """A command the server sent: what a table's answer is checked against."""
    with db.write() as conn:
        conn.execute(s.commands.insert().values(id=ident, event=EVENT, table_no=table,
                                                type=type_, data=json.dumps(data),
                                                created_at=1.0, sent_at=1.0))


# -- the director ----------------------------------------------------------------------------

def test_director_calls_are_queued_and_acknowledged_by_the_table(ingest: Ingest,
                                                                 db: Database) -> None:
    outcome = ingest(topic(2), payload(1, "director", 3, seat="E", reason="revoke", law="64"))
    assert "calls" in outcome.changed
    with db.read() as conn:
        call = conn.execute(select(s.director_calls)).one()
    assert (call.table_no, call.seat, call.reason, call.law, call.acknowledged_at) == (
        2, "E", "revoke", "64", None)
    ingest(topic(2), payload(2, "ruling", 3, cmd="c1", kind="director_ack", call=1))
    with db.read() as conn:
        assert conn.execute(select(s.director_calls.c.acknowledged_by)).scalar() == "table"


def test_a_command_is_marked_with_its_answer(ingest: Ingest, db: Database) -> None:
    with db.write() as conn:
        conn.execute(s.commands.insert().values(id="r1", event=EVENT, table_no=1, type="ruling",
                                                data="{}", created_at=1.0))
    ingest(topic(), payload(1, "refused", cmd="r1", reason="no auction to take back"))
    with db.read() as conn:
        row = conn.execute(select(s.commands)).one()
    assert (row.answer, row.answer_seq, row.answer_reason) == (
        "refused", 1, "no auction to take back")


def test_a_batch_is_one_transaction_and_reports_each(ingest: Ingest, db: Database) -> None:
    outcomes = ingest.many([(topic(), payload(n, "confirm", 1, seat="N")) for n in (1, 2, 2, 3)]
                           + [(topic(), b"junk")])
    assert [o.stored for o in outcomes] == [1, 1, 0, 1, 0]
    assert outcomes[2].duplicate and outcomes[4].rejected
    assert count(db, s.events) == 3 and status(db).contiguous_seq == 3


def test_ingest_on_both_databases(database: str) -> None:
    db = Database(database)
    db.upgrade()
    try:
        ingest = Ingest(db, EVENT)
        ingest(topic(), payload(1, "assign", cmd="a", round=1, ns=1, ew=2, boards=[1]))
        assert ingest(topic(), payload(3, "card", 1, seat="W", card="D2")).commands
        ingest(topic(), payload(2, "card", 1, seat="W", card="C2"))
        ingest(topic(), result(4, board=1))
        assert ingest(topic(), result(4, board=1)).duplicate
        assert status(db).contiguous_seq == 4
        row = stored_result(db)
        assert (row.score_ns, row.lead, row.ns, row.ew) == (420, "C2", 1, 2)
    finally:
        db.dispose()


def test_a_score_ruling_replaces_the_result(ingest: Ingest, db: Database) -> None:
    ingest(topic(), payload(1, "assign", cmd="a", round=1, ns=1, ew=2, boards=[1]))
    ingest(topic(), result(2, board=1))
    sent(db, "r", "ruling", {"kind": "score", "adjusted": "A60/40"})
    ingest(topic(), payload(3, "ruling", 1, cmd="r", kind="score", adjusted="A60/40"))
    row = stored_result(db)
    assert (row.score_ns, row.adjusted, row.contract, row.ns) == (None, "A60/40", "4H", 1)
    sent(db, "r2", "ruling", {"kind": "score", "score_ns": -200, "adjusted": "assigned"})
    ingest(topic(), payload(4, "ruling", 1, cmd="r2", kind="score", score_ns=-200,
                            adjusted="assigned"))
    assert (stored_result(db).score_ns, stored_result(db).adjusted) == (-200, "assigned")


def test_a_score_ruling_without_a_result_makes_one(ingest: Ingest, db: Database) -> None:
    ingest(topic(), payload(1, "assign", cmd="a", round=1, ns=5, ew=6, boards=[2]))
    sent(db, "r", "ruling", {"kind": "score", "adjusted": "A50/50"})
    ingest(topic(), payload(2, "ruling", 2, cmd="r", kind="score", adjusted="A50/50"))
    row = stored_result(db, board=2)
    assert (row.ns, row.ew, row.score_ns, row.adjusted) == (5, 6, None, "A50/50")


def test_a_directors_correction_stands_against_a_later_table_result(
        ingest: Ingest, db: Database) -> None:
    ingest(topic(), result(1, board=1))
    with db.write() as conn:
        conn.execute(s.results.update().values(score_ns=-50, corrected_by="director"))
    ingest(topic(), result(2, board=1, tricks=11, score_ns=450))
    assert stored_result(db).score_ns == -50
    sent(db, "r", "ruling", {"kind": "score", "adjusted": "A40/60"})
    ingest(topic(), payload(3, "ruling", 1, cmd="r", kind="score", adjusted="A40/60"))
    row = stored_result(db)
    assert (row.adjusted, row.corrected_by) == ("A40/60", None)


def test_the_grid_counts_only_the_numbers_really_missing(ingest: Ingest, db: Database) -> None:
    from server.link.tables import table_grid
    for seq in (1, 3, 6):
        ingest(topic(), payload(seq, "confirm", 1, seat="N"))
    [row] = table_grid(db, EVENT)
    assert (row.events, row.missing) == (1, 3)  # 2, 4 and 5


def test_a_score_ruling_the_server_never_sent_is_rejected(ingest: Ingest, db: Database) -> None:
    ingest(topic(), result(1, board=1))
    forged = ingest(topic(), payload(2, "ruling", 1, cmd="made-up", kind="score",
                                     score_ns=2000, adjusted="assigned"))
    assert forged.rejected is not None and "never sent" in forged.rejected
    assert (stored_result(db).score_ns, stored_result(db).adjusted) == (420, None)


def test_the_server_says_who_sat_there_not_the_tables_own_assign(ingest: Ingest,
                                                                 db: Database) -> None:
    sent(db, "a1", "assign", {"round": 1, "ns": 3, "ew": 4, "boards": [1, 2]})
    ingest(topic(), payload(1, "assign", cmd="a1", round=1, ns=9, ew=8, boards=[1, 2]))
    ingest(topic(), result(2, board=1))
    assert (stored_result(db).ns, stored_result(db).ew) == (3, 4)


def test_a_table_cannot_answer_another_tables_command(ingest: Ingest, db: Database) -> None:
    sent(db, "assign-t1", "assign", {"round": 1, "ns": 1, "ew": 2, "boards": [1]}, table=1)
    ingest(topic(2), payload(1, "refused", cmd="assign-t1", reason="forged"))
    with db.read() as conn:
        assert conn.execute(select(s.commands.c.answer)).scalar() is None


@pytest.mark.parametrize(("body", "reason"), [
    (b'{"v":1,"seq":1,"type":"confirm","ts":1,"board":1,"data":' + b"[" * 3000 + b"]" * 3000
     + b"}", "RecursionError"),
    (b'{"v":1,"seq":2147483648,"type":"confirm","ts":1,"board":1,"data":{"seat":"N"}}',
     "between"),
    (b'{"v":1,"seq":1,"type":"confirm","ts":1e300,"board":1,"data":{"seat":"N"}}', "time"),
    (b'{"v":1,"seq":1,"type":"director","ts":1,"board":1,"data":{"seat":"N",'
     rb'"reason":"x\u0000y"}}', "control character"),
])
def test_what_no_store_could_take_is_rejected_first(ingest: Ingest, body: bytes,
                                                    reason: str) -> None:
    outcome = ingest(topic(), body)
    assert outcome.rejected is not None and reason in outcome.rejected, outcome.rejected


def test_seats_and_cards_are_stored_as_the_engine_spells_them(ingest: Ingest,
                                                              db: Database) -> None:
    ingest(topic(), payload(1, "card", 1, seat="west", card="s10"))
    with db.read() as conn:
        assert json.loads(conn.execute(select(s.events.c.data)).scalar_one()) == {
            "seat": "W", "card": "ST"}


def test_a_message_no_store_takes_is_rejected_and_the_rest_stored(
        ingest: Ingest, db: Database, monkeypatch: Any) -> None:
    """If a batch fails for a reason other than the database being away, the bus stores its
    messages one by one and records the one that fails, so it is acknowledged, not kept
    unacknowledged forever in front of everyone else's."""
    from mqttlink import BrokerSettings, close_sockets
    from server.link.bus import Bus
    from server.link.live import Hub

    real = ingest.many

    def fragile(messages: Any) -> Any:
        messages = list(messages)
        if any(b"poison" in bytes(payload) for _, payload in messages):
            raise RuntimeError("the store refused it")
        return real(messages)

    monkeypatch.setattr(ingest, "many", fragile)
    bus = Bus(ingest, Hub(), BrokerSettings())
    try:
        poison = payload(2, "director", 1, seat="N", reason="poison")
        outcomes = bus._store([(topic(), payload(1, "confirm", 1, seat="N")), (topic(), poison),
                               (topic(), payload(3, "confirm", 1, seat="E"))])
    finally:
        close_sockets(bus.client)
    assert [o.stored for o in outcomes] == [1, 0, 1]
    assert outcomes[1].rejected is not None and "RuntimeError" in outcomes[1].rejected
    with db.read() as conn:
        assert "cannot be stored" in conn.execute(select(s.rejections.c.reason)).scalar_one()


def test_workers_sharing_the_stream_wait_before_asking(db: Database, clock: Clock) -> None:
    """Two ingest workers on one shared subscription each see part of a table's stream: a gap
    that the other worker fills within the grace is never asked for; one still open after it
    is asked for at the table's next event."""
    from server.link.ingest import SHARED_GAP_GRACE

    first, second = Ingest(db, EVENT, clock=clock), Ingest(db, EVENT, clock=clock)
    first.gap_grace = second.gap_grace = SHARED_GAP_GRACE
    first(topic(), payload(1, "player", seat="N", number=1))
    assert not first(topic(), payload(3, "player", seat="E", number=2)).commands
    assert not second(topic(), payload(2, "player", seat="S", number=3)).commands
    clock.now += SHARED_GAP_GRACE
    assert not first(topic(), payload(4, "player", seat="W", number=4)).commands
    assert status(db).contiguous_seq == 4
    # A real loss: 6 never comes. Nothing during the grace, then the ask.
    assert not first(topic(), payload(5, "player", seat="E", number=2)).commands
    assert not second(topic(), payload(7, "player", seat="N", number=1)).commands
    clock.now += SHARED_GAP_GRACE / 2
    assert not first(topic(), payload(8, "player", seat="N", number=1)).commands
    clock.now += SHARED_GAP_GRACE / 2
    [(_, command)] = second(topic(), payload(9, "player", seat="N", number=1)).commands
    assert dict(command.data) == {"since": 6, "until": 8}  # from the mark to the newest


def test_a_revoke_transfer_is_stored_apart_from_the_tricks(ingest: Ingest, db: Database) -> None:
    """Law 64A: the result's count includes the transfer; the row keeps it apart."""
    ingest(topic(), result(1, board=1, contract="4H", declarer="S", tricks=10, score_ns=420,
                           transferred=1))
    row = stored_result(db, board=1)
    assert (row.tricks, row.transferred, row.score_ns) == (10, 1, 420)
    ingest(topic(), result(2, board=2, contract="4H", declarer="S", tricks=10, score_ns=420))
    assert stored_result(db, board=2).transferred is None
