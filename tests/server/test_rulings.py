"""The console's service layer: rulings checked against the wire before they are queued,
director calls acknowledged and resolved, results corrected with the laws' score, and the
record of all of it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from server.link import director_calls as rulings
from server.link.rounds import create_session
from server.services import Services
from server.setup.session import Session
from server.storage import schema as s
from tablemodel.wire import Command, Event, table_topic

EVENT = "test"


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


def make_session(app: Flask) -> Session:
    return create_session(services(app).db, event=EVENT, title="Martes", kind="mitchell",
                          participants=8, boards_per_round=2, seed=7)


def send(app: Flask, table: int, seq: int, kind: str, board: int | None, /,
         **data: Any) -> None:
    outcome = services(app).ingest(table_topic(EVENT, table, "events"),
                                   Event(seq, kind, 1_000.0 + seq, board, data).to_payload())
    assert outcome.rejected is None, outcome.rejected


def rows(app: Flask, table: Any) -> list[Any]:
    with services(app).db.read() as conn:
        return list(conn.execute(select(table)).all())


# -- each ruling kind, as the wire reads it --------------------------------------------------

@pytest.mark.parametrize(("kind", "fields", "expected"), [
    # Laws 39A, 82A: the auction goes back to the calls that stay.
    ("take_back", {"calls": "3", "seat": "N"}, {"calls": 3}),
    ("take_back", {"calls": 0}, {"calls": 0}),
    # Laws 27B, 30, 31, 32: a seat silenced for the auction or for its next turn.
    ("require_pass", {"seat": "s", "law": "31A2", "scope": "next_turn"},
     {"seat": "S", "law": "31A2", "scope": "next_turn"}),
    ("require_pass", {"seat": "E", "law": "27B2"},
     {"seat": "E", "law": "27B2", "scope": "auction"}),
    # Laws 26, 50D: a suit the offender's partner must, or must not, lead.
    ("lead_restriction", {"seat": "W", "suit": "h", "required": "forbidden", "law": "26B"},
     {"seat": "W", "suit": "H", "required": False, "law": "26B"}),
    ("lead_restriction", {"seat": "N", "suit": "C", "required": "required", "law": "50D2"},
     {"seat": "N", "suit": "C", "required": True, "law": "50D2"}),
    # Laws 45C4(b), 47: cards taken back.
    ("undo_cards", {"cards": "2"}, {"cards": 2}),
    # Law 70: the tricks of a disputed claim, or play on.
    ("claim", {"tricks": "9"}, {"tricks": 9}),
    ("claim", {"tricks": ""}, {"tricks": None}),
    # Law 12C2: an artificial score; Law 12C1: an assigned one, in points.
    ("score", {"adjusted": "A60/40"}, {"adjusted": "A60/40"}),
    ("score", {"adjusted": "A+", "score_ns": ""}, {"adjusted": "A+"}),
    ("score", {"score_ns": "-100", "adjusted": ""}, {"score_ns": -100, "adjusted": "assigned"}),
    ("score", {"score_ns": 420, "adjusted": "assigned"}, {"score_ns": 420, "adjusted": "assigned"}),
    ("end_round", {"calls": "2"}, {}),
    ("director_ack", {"call": 5}, {"call": 5}),
    ("director_ack", {}, {}),
])
def test_each_ruling_is_built_as_the_wire_reads_it(kind: str, fields: dict[str, Any],
                                                    expected: dict[str, Any]) -> None:
    data = rulings.ruling_data(kind, fields)
    assert data == {"kind": kind, **expected}
    command = Command.from_payload(Command("x", "ruling", data).to_payload())
    assert dict(command.data) == data


@pytest.mark.parametrize(("kind", "fields", "reason"), [
    ("require_pass", {"seat": "Q", "law": "31"}, "not a seat"),
    ("require_pass", {"seat": "N"}, "law is required"),
    ("require_pass", {"seat": "N", "law": "31", "scope": "forever"}, "scope"),
    ("require_pass", {"seat": "N", "law": "1234567890ABCDEFG"}, "16 characters"),
    ("lead_restriction", {"seat": "N", "suit": "X", "required": "required", "law": "26"},
     "suit"),
    ("lead_restriction", {"seat": "N", "suit": "S", "required": "maybe", "law": "26"},
     "required"),
    ("lead_restriction", {"seat": "N", "suit": "S", "law": "26"}, "required is required"),
    ("take_back", {}, "calls is required"),
    ("take_back", {"calls": "three"}, "not a number"),
    ("take_back", {"calls": "-1"}, "between 0 and 400"),
    ("undo_cards", {"cards": "0"}, "at least one"),
    ("undo_cards", {"cards": "53"}, "between 0 and 52"),
    ("claim", {"tricks": "14"}, "between 0 and 13"),
    ("score", {}, "adjusted score"),
    ("score", {"adjusted": "A60/40", "score_ns": "100"}, "no NS points"),
    ("score", {"adjusted": "assigned"}, "NS points"),
    ("score", {"adjusted": "B7"}, "not an adjusted score"),
    ("score", {"score_ns": "20000"}, "between -10000 and 10000"),
    ("teleport", {}, "unknown ruling"),
])
def test_a_bad_ruling_is_refused_with_the_reason(kind: str, fields: dict[str, Any],
                                                 reason: str) -> None:
    with pytest.raises(rulings.RulingError, match=reason):
        rulings.ruling_data(kind, fields)


def test_every_ruling_names_its_laws() -> None:
    assert set(rulings.LAWS) == set(rulings.KINDS)
    assert all(rulings.LAWS[kind] for kind in rulings.LAWS)


# -- queued for a table ----------------------------------------------------------------------

def test_a_ruling_is_queued_with_who_why_and_the_tables_board(app: Flask) -> None:
    session = make_session(app)
    send(app, 3, 1, "board", 5, board=5, dealer="N", vul="NS")
    ident = rulings.queue_ruling(services(app).db, session, 3, "take_back", {"calls": "2"},
                                 by="ana", note="insufficient bid not accepted", clock=lambda: 50.0)
    [row] = rows(app, s.commands)
    assert (row.id, row.event, row.table_no, row.type) == (ident, EVENT, 3, "ruling")
    assert (row.created_by, row.note, row.board, row.created_at) == (
        "ana", "insufficient bid not accepted", 5, 50.0)
    assert json.loads(row.data) == {"kind": "take_back", "calls": 2}
    assert row.sent_at is None
    other = rulings.queue_ruling(services(app).db, session, 3, "end_round", {}, by="ana",
                                 note="time", board=None)
    assert other != ident and len(other) == 32


@pytest.mark.parametrize(("table", "note", "reason"), [
    (0, "why", "table 0"), (5, "why", "table 5"), (1, "  ", "say why"),
])
def test_a_ruling_for_no_table_or_without_a_reason_is_not_queued(app: Flask, table: int,
                                                                 note: str, reason: str) -> None:
    session = make_session(app)
    with pytest.raises(rulings.RulingError, match=reason):
        rulings.queue_ruling(services(app).db, session, table, "end_round", {}, by="ana",
                             note=note)
    assert rows(app, s.commands) == []


# -- director calls --------------------------------------------------------------------------

def test_acknowledging_a_call_marks_it_and_tells_the_table_once(app: Flask) -> None:
    db = services(app).db
    send(app, 2, 1, "board", 4, board=4, dealer="W", vul="All")
    send(app, 2, 2, "director", 4, seat="E", reason="lead_out_of_turn", law="54")
    [call] = rulings.calls(db, EVENT)
    assert (call.table, call.seq, call.seat, call.reason, call.law) == (
        2, 2, "E", "lead_out_of_turn", "54")
    ident = rulings.acknowledge(db, EVENT, call.id, by="ana", clock=lambda: 77.0)
    assert rulings.acknowledge(db, EVENT, call.id, by="ana") == ident
    [command] = rows(app, s.commands)
    assert (command.id, command.table_no, command.created_by, command.board) == (
        ident, 2, "ana", 4)
    assert json.loads(command.data) == {"kind": "director_ack", "call": 2}
    [call] = rulings.calls(db, EVENT)
    assert (call.acknowledged_at, call.acknowledged_by) == (77.0, "ana")
    send(app, 2, 3, "ruling", None, cmd=ident, kind="director_ack", call=2)
    [command] = rows(app, s.commands)
    assert command.answer == "ruling"
    assert rulings.calls(db, EVENT)[0].acknowledged_by == "ana"  # the table did not overwrite
    rulings.resolve(db, EVENT, call.id, by="ana", clock=lambda: 90.0)
    assert rulings.calls(db, EVENT) == []
    [done] = rulings.calls(db, EVENT, open_only=False)
    assert (done.resolved_at, done.resolved_by) == (90.0, "ana")


def test_resolving_an_unacknowledged_call_tells_the_table(app: Flask) -> None:
    db = services(app).db
    send(app, 3, 1, "director", 2, seat="S", reason="call", law=None)
    [call] = rulings.calls(db, EVENT)
    rulings.resolve(db, EVENT, call.id, by="ana", clock=lambda: 50.0)
    [command] = rows(app, s.commands)
    assert (command.table_no, json.loads(command.data)) == (
        3, {"kind": "director_ack", "call": 1})
    [done] = rulings.calls(db, EVENT, open_only=False)
    assert (done.acknowledged_by, done.resolved_by, done.resolved_at) == ("ana", "ana", 50.0)


def test_an_unknown_call_is_refused(app: Flask) -> None:
    with pytest.raises(rulings.RulingError, match="no director call 9"):
        rulings.acknowledge(services(app).db, EVENT, 9, by="ana")
    with pytest.raises(rulings.RulingError, match="no director call 9"):
        rulings.resolve(services(app).db, EVENT, 9, by="ana")
    assert rows(app, s.commands) == []


# -- corrections -----------------------------------------------------------------------------

def table_result(app: Flask, board: int, seq: int = 1) -> int:
    """Table 1 reports a result on ``board`` (4S by N making 10 tricks); the table number."""
    session = services(app).session
    assert session is not None
    table = next(seat.table for seat in session.plan.schedule(board))
    send(app, table, seq, "result", board, contract="4S", declarer="N", tricks=10,
         score_ns=420 if board == 1 else 620)
    return table


@pytest.mark.parametrize(("board", "given", "expected"), [
    # Law 77 from the contract and the board's vulnerability; a typed total is ignored.
    (1, dict(contract="4S", declarer="N", tricks=11, score_ns=9999),
     dict(contract="4S", declarer="N", tricks=11, score_ns=450, adjusted=None)),
    (2, dict(contract="4s", declarer="n", tricks=10), dict(score_ns=620)),
    (2, dict(contract="3NTX", declarer="E", tricks=7), dict(contract="3NTX", score_ns=300)),
    (1, dict(contract="Pass", declarer="N", tricks=8),
     dict(contract="Pass", declarer=None, tricks=None, score_ns=0)),
    # Law 12C2: artificial, no points; Law 12C1: assigned, kept as given.
    (1, dict(adjusted="A60/40", score_ns=100), dict(score_ns=None, adjusted="A60/40")),
    (2, dict(contract="4S", declarer="N", adjusted="assigned", score_ns=-100),
     dict(score_ns=-100, adjusted="assigned", contract="4S")),
])
def test_a_correction_recomputes_the_score_and_is_recorded(any_app: Flask, board: int,
                                                           given: dict[str, Any],
                                                           expected: dict[str, Any]) -> None:
    session = make_session(any_app)
    table = table_result(any_app, board)
    fields = dict(contract=None, declarer=None, tricks=None, adjusted=None, score_ns=None)
    after = rulings.correct_result(services(any_app).db, session, table, board,
                                   **{**fields, **given}, by="ana", note="revoke",
                                   clock=lambda: 60.0)
    [row] = rows(any_app, s.results)
    for name, value in expected.items():
        assert getattr(row, name) == value, name
        assert after[name] == value
    assert (row.corrected_by, row.source_seq) == ("ana", 1)
    [correction] = rows(any_app, s.corrections)
    assert (correction.table_no, correction.board, correction.kind) == (table, board, "result")
    assert (correction.made_by, correction.made_at, correction.note) == ("ana", 60.0, "revoke")
    detail = json.loads(correction.detail)
    assert detail["before"] == {"contract": "4S", "declarer": "N", "tricks": 10,
                                "score_ns": 420 if board == 1 else 620, "adjusted": None,
                                "corrected_by": None}
    assert detail["after"]["score_ns"] == expected["score_ns"]


def test_a_result_that_never_arrived_can_be_entered(app: Flask) -> None:
    session = make_session(app)
    seating = session.plan.schedule(3)[0]
    rulings.correct_result(services(app).db, session, seating.table, 3, contract="2H",
                           declarer="W", tricks=8, adjusted=None, score_ns=None, by="ana",
                           note="slip")
    [row] = rows(app, s.results)
    assert (row.table_no, row.board, row.ns, row.ew, row.round) == (
        seating.table, 3, seating.ns, seating.ew, seating.round)
    assert row.score_ns == -110  # board 3: EW vulnerable, 2H by W making
    assert json.loads(rows(app, s.corrections)[0].detail)["before"] is None


@pytest.mark.parametrize(("board", "given", "reason"), [
    (1, dict(contract="5Z", declarer="N", tricks=10), "not a contract"),
    (1, dict(contract="4S", declarer="N"), "tricks"),
    (1, dict(contract="4S", tricks=10), "declarer"),
    (1, dict(declarer="N", tricks=10), "give the contract"),
    (1, dict(contract="4S", declarer="N", tricks=14), "14"),
    (1, dict(adjusted="assigned"), "NS points"),
    (1, dict(adjusted="B7"), "not an adjusted score"),
    (99, dict(contract="4S", declarer="N", tricks=10), "board 99"),
])
def test_a_bad_correction_changes_nothing(app: Flask, board: int, given: dict[str, Any],
                                          reason: str) -> None:
    session = make_session(app)
    table = table_result(app, 1)
    before = rows(app, s.results)
    fields = dict(contract=None, declarer=None, tricks=None, adjusted=None, score_ns=None)
    with pytest.raises(rulings.RulingError, match=reason):
        rulings.correct_result(services(app).db, session, table, board,
                               **{**fields, **given}, by="ana", note=None)
    assert rows(app, s.results) == before
    assert rows(app, s.corrections) == []


# -- the record ------------------------------------------------------------------------------

def test_the_record_holds_rulings_with_their_answers_and_corrections_newest_first(
        app: Flask) -> None:
    session = make_session(app)
    db = services(app).db
    table = table_result(app, 1)
    first = rulings.queue_ruling(db, session, table, "undo_cards", {"cards": 1}, by="ana",
                                 note="card played by mistake", clock=lambda: 10.0)
    rulings.correct_result(db, session, table, 1, contract="4S", declarer="N", tricks=9,
                           adjusted=None, score_ns=None, by="luis", note="miscount",
                           clock=lambda: 30.0)
    rulings.queue_ruling(db, session, table, "end_round", {}, by="ana", note="time",
                         clock=lambda: 20.0)
    send(app, table, 2, "refused", None, cmd=first, reason="no board on the table")
    entries = rulings.history(db, EVENT)
    assert [(e.at, e.source, e.kind, e.by) for e in entries] == [
        (30.0, "correction", "result", "luis"), (20.0, "ruling", "end_round", "ana"),
        (10.0, "ruling", "undo_cards", "ana")]
    assert (entries[2].answer, entries[2].answer_reason) == ("refused", "no board on the table")
    assert entries[2].detail == {"kind": "undo_cards", "cards": 1}
    assert entries[0].detail["after"]["score_ns"] == -50
    assert entries[1].answer is None and not entries[1].sent
    assert entries[2].answer_message is None  # an old table's refusal: its English alone


def test_the_record_keeps_a_refusals_message_for_the_consoles_language(app: Flask) -> None:
    session = make_session(app)
    db = services(app).db
    table = table_result(app, 1)
    ruling = rulings.queue_ruling(db, session, table, "take_back", {"calls": 2}, by="ana",
                                  note="a call out of turn", clock=lambda: 10.0)
    params = {"length": 2, "count": 1, "ruling": "take_back"}
    send(app, table, 2, "refused", None, cmd=ruling,
         reason="take_back: event 9: cannot take the auction back to call 2 of 1",
         code="auction_back_out_of_range", params=params)
    entry = rulings.history(db, EVENT)[0]
    assert entry.answer_message == ("auction_back_out_of_range", params)


def test_the_record_holds_what_the_players_chose_on_their_keypads(app: Flask) -> None:
    """A penalty card seen at the reader, declarer's 57A option, a 16B reservation: the
    director sees them with the rulings (kinds of tablemodel.rulings), by the seat that chose."""
    make_session(app)
    send(app, 1, 1, "option", 3, kind="penalty_card", seat="E", card="S5", major="major",
         law="57A", by="E")
    send(app, 1, 2, "option", 3, kind="premature_option", premature="highest", by="N")
    send(app, 1, 3, "option", 3, kind="unauthorised_information", side="NS", law="16B2",
         by="W")
    entries = rulings.history(services(app).db, EVENT)
    assert sorted((e.source, e.kind, e.by, e.board) for e in entries) == [
        ("table", "penalty_card", "E", 3), ("table", "premature_option", "N", 3),
        ("table", "unauthorised_information", "W", 3)]
    reserved = next(e for e in entries if e.kind == "unauthorised_information")
    assert reserved.detail == {"kind": "unauthorised_information", "side": "NS",
                               "law": "16B2"}
