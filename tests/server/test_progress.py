"""The session's progress on the live page and in the API (server/pages/progress.py): where each
table is and how many boards are finished, so the room's screen is never blank, and nothing
that the release rule hides."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from flask.testing import FlaskClient

from server.link.rounds import start_round
from server.pages.progress import STAGES
from tablemodel.wire import state_payload, table_topic
from tests.server.test_display import EVENT, Room, services


def state(app: Flask, table: int, phase: str, board: int | None, round_: int | None,
          seq: int = 0) -> None:
    """The table's retained state, as its uplink publishes it."""
    outcome = services(app).ingest(table_topic(EVENT, table, "state"), state_payload(
        {"seq": seq, "ts": 1_700_000_000.0, "phase": phase, "round": round_, "board": board}))
    assert outcome.rejected is None, outcome.rejected


def online(app: Flask, table: int) -> None:
    outcome = services(app).ingest(table_topic(EVENT, table, "status"), b"online")
    assert outcome.rejected is None, outcome.rejected


@pytest.mark.parametrize(("phase", "stage"), [
    ("waiting", "waiting"), ("players", "seating"), ("board", "between"),
    ("setup", "playing"), ("auction", "playing"), ("lead", "playing"), ("play", "playing"),
    ("result", "playing"), ("round_end", "done")])
def test_a_tables_phase_shows_as_a_coarse_stage(phase: str, stage: str) -> None:
    # The auction, the play and the result are one stage: watching the screen must not tell
    # a passed-out board (auction, then result) from a played one.
    assert STAGES[phase] == stage


def test_before_the_first_round_every_table_waits(client: FlaskClient, app: Flask) -> None:
    room = Room(app)
    data = client.get("/api/v1/progress").get_json()
    assert data["round"] == 0 and data["finished"] == 0
    assert data["scheduled"] == sum(len(seat.boards) for seat in room.session.plan.seatings
                                    if 0 not in (seat.ns, seat.ew))
    assert [row["stage"] for row in data["tables"]] == ["waiting"] * room.session.tables
    page = client.get("/").get_data(as_text=True)
    assert "La sesión aún no ha empezado" in page


def test_the_round_each_tables_board_and_the_boards_finished(client: FlaskClient,
                                                              app: Flask) -> None:
    room = Room(app)
    session = room.session
    start_round(services(app).db, session, 1, by="test")
    for table in (1, 2, 3):
        online(app, table)
    first = next(seat for seat in session.plan.round(1) if seat.table == 1)
    room.play(1, first.boards[0], "6CX", "W", 12, lead="SA")  # finished, not released
    state(app, 1, "auction", first.boards[1], 1, seq=room.seq[1])
    state(app, 2, "players", None, 1)
    state(app, 3, "round_end", None, 1)
    services(app).ingest(table_topic(EVENT, 3, "status"), b"offline")

    data = client.get("/api/v1/progress").get_json()
    assert (data["round"], data["rounds"]) == (1, session.rounds)
    assert data["finished"] == 1 and data["round_finished"] == 1
    assert data["round_scheduled"] == sum(len(seat.boards) for seat in session.plan.round(1)
                                          if 0 not in (seat.ns, seat.ew))
    assert data["released"] == 0
    rows = {row["table"]: row for row in data["tables"]}
    assert rows[1] == {"table": 1, "name": "1", "online": True, "stage": "playing",
                       "board": first.boards[1], "finished": 1,
                       "scheduled": len(first.boards)}
    assert rows[2]["stage"] == "seating" and rows[2]["board"] is None
    assert rows[3]["stage"] == "offline"

    # The page says the same, in Spanish and in English, and nothing of the result.
    page = client.get("/").get_data(as_text=True)
    assert "Ronda 1 de" in page and f"Jugando el tablero {first.boards[1]}" in page
    assert "1 de " in page and "Sentándose" in page and "Sin conexión" in page
    assert 'class="live nothing-released"' in page
    english = client.get("/?lang=en").get_data(as_text=True)
    assert f"Playing board {first.boards[1]}" in english and "Taking their seats" in english
    for text in (page, json.dumps(data)):
        assert "6C" not in text and "6♣" not in text and "SA" not in text


def test_once_a_board_is_released_the_page_says_so(client: FlaskClient, app: Flask) -> None:
    room = Room(app)
    for number in range(1, room.session.rounds + 1):  # board 1 is played in every round
        start_round(services(app).db, room.session, number, by="test")
    for seat in room.tables(1):
        room.play(seat.table, 1, "3NT", "N", 9)
    data = client.get("/api/v1/progress").get_json()
    assert data["released"] == 1 and data["finished"] == len(room.tables(1))
    assert 'class="live"' in client.get("/").get_data(as_text=True)


def test_without_a_session_the_progress_is_a_clear_404(client: FlaskClient) -> None:
    response = client.get("/api/v1/progress")
    assert response.status_code == 404
