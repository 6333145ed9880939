"""The table's screens and alert events through ingest and the exports: question, answer,
tray, faced, a late alert and a face-down lead are stored once as sent, the first card is
the lead whether or not it lay face down, and the PBN export marks the alerts and gives each
explanation as the call's note, in the words of the answering side's card."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from laws import Board
from laws.pbn import loads as load_pbn
from server.link.ingest import Ingest
from server.link.rounds import create_session, start_round
from server.outputs import exports
from server.services import Services
from server.setup import pair_cards as syscards
from server.setup.session import Session
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.syscard import example
from tablemodel.wire import Event, table_topic
from tests.server.conftest import EVENT, make_app

ONE_CLUB = example().by_code(10)
AUCTION = [("N", "1C"), ("E", "Pass"), ("S", "1H"), ("W", "Pass"), ("N", "1NT"), ("E", "Pass"),
           ("S", "3NT"), ("W", "Pass"), ("N", "Pass"), ("E", "Pass")]
TRICK = [("E", "C9"), ("S", "C2"), ("W", "C3"), ("N", "C4")]  # seed 7's board 1


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


class Journal:
    def __init__(self, ingest: Ingest, table: int = 1) -> None:
        self.ingest = ingest
        self.table = table
        self.seq = 0

    def event(self, kind: str, on: int | None, /, **data: Any) -> Event:
        self.seq += 1
        return Event(self.seq, kind, 1_000.0 + self.seq, on, data)

    def send(self, kind: str, on: int | None, /, **data: Any) -> int:
        event = self.event(kind, on, **data)
        self.publish(event)
        return event.seq

    def publish(self, event: Event) -> None:
        outcome = self.ingest(table_topic(EVENT, self.table, "events"), event.to_payload())
        assert outcome.rejected is None and outcome.stored == 1, outcome


def play_board(table: Journal, assign: dict[str, Any], *, hold_lead: bool = False) -> Event:
    """Board 1 under screens with a late alert, a question and its answer, and a face-down
    lead; the lead itself is returned unsent when ``hold_lead`` (it comes after the result)."""
    table.send("assign", None, **assign)
    board = Board(1)
    table.send("board", 1, board=1, dealer=str(board.dealer), vul=str(board.vulnerability))
    held: Event | None = None
    for index, (seat, call) in enumerate(AUCTION):
        table.send("call", 1, seat=seat, call=call)
        if index == 1:
            table.send("alert", 1, seat="N", index=0, late=True)  # after the next call
            table.send("tray", 1, calls=2)
            asked = table.send("question", 1, seat="W", index=0, to="S")
            table.send("answer", 1, seat="S", question=asked, code=10)
        elif index % 2:
            table.send("tray", 1, calls=index + 1)
    for number, (seat, card) in enumerate(TRICK):
        data: dict[str, Any] = {"seat": seat, "card": card}
        if number == 0:
            data["face_down"] = True
            lead = table.event("card", 1, **data)
            if hold_lead:
                held = lead
            else:
                table.publish(lead)
            table.send("faced", 1, seat="N")
        else:
            table.send("card", 1, **data)
    table.send("result", 1, contract="3NT", declarer="N", tricks=9, score_ns=400)
    assert held is not None or not hold_lead
    return held if held is not None else lead


@dataclass
class Setup:
    app: Flask
    db: Database
    session: Session
    assign: dict[str, Any]


@pytest.fixture
def setup(database: str) -> Iterator[Setup]:
    """A screens session on SQLite and PostgreSQL; pair 1 (NS at table 1) has the example
    card; round 1 started, table 1's assignment as the table echoes it."""
    app = make_app(database)
    db = services(app).db
    session = create_session(db, event=EVENT, title="Pantallas", kind="mitchell",
                             participants=6, boards_per_round=2, seed=7, screens="NE-SW")
    syscards.store(db, session, 1, example())
    start_round(db, session, 1)
    with db.read() as conn:
        command = conn.execute(select(s.commands).where(s.commands.c.table_no == 1)).one()
    try:
        yield Setup(app, db, session, {"cmd": command.id, **json.loads(command.data)})
    finally:
        services(app).close()


def stored(db: Database) -> list[Any]:
    with db.read() as conn:
        return list(conn.execute(select(s.events).where(s.events.c.table_no == 1).order_by(
            s.events.c.seq)).all())


def test_the_new_events_are_stored_once_as_sent(setup: Setup) -> None:
    table = Journal(services(setup.app).ingest)
    play_board(table, setup.assign)
    rows = stored(setup.db)
    assert [row.seq for row in rows] == list(range(1, table.seq + 1))
    kinds = {row.type for row in rows}
    assert {"question", "answer", "tray", "faced", "alert", "card"} <= kinds
    late = next(row for row in rows if row.type == "alert")
    assert json.loads(late.data) == {"seat": "N", "index": 0, "late": True}
    lead = next(row for row in rows if row.type == "card")
    assert json.loads(lead.data) == {"seat": "E", "card": "C9", "face_down": True}
    answer = next(row for row in rows if row.type == "answer")
    question = next(row for row in rows if row.type == "question")
    assert json.loads(answer.data) == {"seat": "S", "question": question.seq, "code": 10}
    # Sent again (a resend), nothing is doubled.
    again = Event(lead.seq, "card", lead.ts, 1, json.loads(lead.data))
    outcome = services(setup.app).ingest(table_topic(EVENT, 1, "events"), again.to_payload())
    assert outcome.duplicate and outcome.rejected is None
    with setup.db.read() as conn:
        row = conn.execute(select(s.table_status.c.contiguous_seq)).scalar_one()
    assert row == table.seq


def test_the_face_down_lead_is_the_lead(setup: Setup) -> None:
    play_board(Journal(services(setup.app).ingest), setup.assign)
    with setup.db.read() as conn:
        row = conn.execute(select(s.results)).one()
    assert (row.contract, row.declarer, row.tricks, row.lead, row.score_ns) == (
        "3NT", "N", 9, "C9", 400)


def test_a_face_down_lead_resent_after_the_result_fills_in(setup: Setup) -> None:
    table = Journal(services(setup.app).ingest)
    lead = play_board(table, setup.assign, hold_lead=True)
    with setup.db.read() as conn:  # the first card stored so far, until the gap fills
        assert conn.execute(select(s.results.c.lead)).scalar_one() == "C2"
    table.publish(lead)  # the gap filled: it was the first card of the board
    with setup.db.read() as conn:
        assert conn.execute(select(s.results.c.lead)).scalar_one() == "C9"


def test_the_pbn_marks_the_alert_and_notes_the_explanation(setup: Setup) -> None:
    play_board(Journal(services(setup.app).ingest), setup.assign)
    text = exports.pbn(setup.db, setup.session)
    (record,) = load_pbn(text)
    assert not record.problems
    first = record.auction[0]
    # The alert is the call's note (PBN 3.5.4), the explanation after it.
    assert str(first.call) == "1C" and not first.alert
    assert ONE_CLUB is not None and first.note == f"Alert: {ONE_CLUB.en}"
    assert not any(item.alert or item.note for item in record.auction[1:])
    assert [str(c) for c in record.auction] != []
    assert record.play and str(record.play[0][record.play_leader]) == "C9"
    csv_text = exports.csv_text(setup.db, setup.session)
    assert ",C9," in csv_text
