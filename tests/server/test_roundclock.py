"""The round clock on the server (server/link/round_times.py) through the console and the API, on an
injected clock: the director sets the lengths, starting a round starts its clock and sends
it in the assignment, the director extends it, the live page and /api/v1/progress count it
down, and the tables still playing at the end are marked late on the console."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from laws import Board, Seat, parse_contract
from laws.scoring import score_ns
from server.link import round_times as roundclock
from server.setup.session import current
from server.storage import schema as s
from tablemodel.roundclock import RoundClock
from tablemodel.wire import Command, Event, table_topic
from tests.clock import Clock
from tests.server.conftest import EVENT, login, make_app, services
from tests.server.test_display import Room

START = 1_700_000_000.0


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
def app(tmp_path: Any, clock: Clock) -> Iterator[Flask]:
    made = make_app(str(tmp_path / "bidbox.db"), CLOCK=clock)
    yield made
    services(made).close()


@pytest.fixture
def room(app: Flask) -> Room:
    return Room(app)


@pytest.fixture
def director(client: FlaskClient) -> tuple[FlaskClient, str]:
    return client, login(client)


def post(director: tuple[FlaskClient, str], path: str, **form: Any) -> str:
    client, token = director
    response = client.post(path, data={"csrf": token, **form}, follow_redirects=True)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def assignments(app: Flask, round_: int) -> list[dict[str, Any]]:
    with services(app).db.read() as conn:
        rows = conn.execute(select(s.commands).where(s.commands.c.type == "assign")).all()
    found = [json.loads(row.data) for row in rows]
    return [data for data in found if data["round"] == round_]


def test_the_director_sets_every_rounds_length_and_starting_a_round_starts_it(
        app: Flask, room: Room, director: tuple[FlaskClient, str], clock: Clock) -> None:
    page = post(director, "/console/clock?lang=en", round="", round_minutes="20",
                warning_minutes="5")
    assert "Length saved." in page
    assert "Every round: 20 min, warning 5 min before the end." in page
    post(director, "/console/round", round="1")
    sent = assignments(app, 1)
    assert sent and all(data["clock"] == {"ends_at": START + 1200, "warning": 5}
                        for data in sent)
    # What is queued is what a table reads: the wire takes it.
    for data in sent:
        Command.from_payload(Command("a", "assign", data).to_payload())
    # Pressing "Start round" again later keeps the first start.
    clock.now += 300
    post(director, "/console/round", round="1")
    session = current(services(app).db, EVENT)
    assert session is not None
    assert roundclock.round_clock(services(app).db, session) == RoundClock(1, START + 1200, 5)


def test_a_round_of_its_own_length_and_none_without_a_length(
        app: Flask, room: Room, director: tuple[FlaskClient, str], clock: Clock) -> None:
    post(director, "/console/round", round="1")
    assert all("clock" not in data for data in assignments(app, 1))  # old tables' format
    assert client_json(director, "/api/v1/progress")["clock"] is None
    post(director, "/console/clock", round="2", round_minutes="30", warning_minutes="0")
    clock.now += 1000
    post(director, "/console/round", round="2")
    assert all(data["clock"] == {"ends_at": START + 1000 + 1800, "warning": 0}
               for data in assignments(app, 2))


def test_the_setup_form_takes_the_length(app: Flask, director: tuple[FlaskClient, str]) -> None:
    post(director, "/console/setup", title="Martes", movement="mitchell", participants="6",
         boards_per_round="2", round_minutes="14", warning_minutes="3", seed="1")
    session = current(services(app).db, EVENT)
    assert session is not None
    assert roundclock.session_setting(services(app).db, session) == roundclock.Setting(14, 3)


@pytest.mark.parametrize(("form", "reason"), [
    ({"round": "", "round_minutes": "20", "warning_minutes": "20"}, "would come at its start"),
    ({"round": "", "round_minutes": "0", "warning_minutes": "0"}, "1 to 300 minutes"),
    ({"round": "", "round_minutes": "20", "warning_minutes": "61"}, "0 to 60 minutes"),
    ({"round": "9", "round_minutes": "20", "warning_minutes": "0"}, "round 9 is not"),
    ({"round": "", "round_minutes": "veinte", "warning_minutes": "0"}, "veinte"),
])
def test_a_bad_length_is_refused_with_the_reason_and_changes_nothing(
        app: Flask, room: Room, director: tuple[FlaskClient, str], form: dict[str, str],
        reason: str) -> None:
    post(director, "/console/clock", round="", round_minutes="25", warning_minutes="4")
    page = post(director, "/console/clock", **form)
    assert reason in page
    assert roundclock.session_setting(services(app).db, room.session) == roundclock.Setting(25, 4)


def client_json(director: tuple[FlaskClient, str], path: str) -> dict[str, Any]:
    data: dict[str, Any] = director[0].get(path).get_json()
    return data


def test_the_progress_api_and_the_live_page_count_down_on_the_servers_clock(
        app: Flask, room: Room, director: tuple[FlaskClient, str], clock: Clock) -> None:
    post(director, "/console/clock", round="", round_minutes="20", warning_minutes="5")
    post(director, "/console/round", round="1")
    client = director[0]
    clock.now = START + 61.5
    shown = client_json(director, "/api/v1/progress")["clock"]
    assert shown == {"round": 1, "ends_at": START + 1200, "now": START + 61.5,
                     "left": 1138.5, "minutes_left": 19, "warning": 5, "stage": "running"}
    page = client.get("/").get_data(as_text=True)
    assert 'data-left="1138.5"' in page and "Ronda 1: quedan 18:59" in page
    assert "Round 1: 18:59 left" in client.get("/?lang=en").get_data(as_text=True)
    clock.now = START + 1200 - 300
    assert client_json(director, "/api/v1/progress")["clock"]["stage"] == "warning"
    assert "Ronda 1: ¡solo quedan 5:00!" in client.get("/?lang=es").get_data(as_text=True)
    clock.now = START + 1300
    shown = client_json(director, "/api/v1/progress")["clock"]
    assert (shown["left"], shown["stage"]) == (0, "over")
    assert "Round 1: time is up" in client.get("/?lang=en").get_data(as_text=True)
    console = client.get("/console/?lang=en").get_data(as_text=True)
    assert "Round 1: time is up" in console and 'id="clock-texts"' in console


def test_the_director_extends_the_round(app: Flask, room: Room,
                                        director: tuple[FlaskClient, str],
                                        clock: Clock) -> None:
    page = post(director, "/console/clock/extend?lang=en", extend_minutes="5")
    assert "has no clock running" in page
    post(director, "/console/clock", round="", round_minutes="20", warning_minutes="5")
    post(director, "/console/round", round="1")
    clock.now = START + 1250  # over: extended from its end, not from now
    page = post(director, "/console/clock/extend?lang=en", extend_minutes="5")
    assert "Round 1 extended" in page
    shown = client_json(director, "/api/v1/progress")["clock"]
    assert shown["ends_at"] == START + 1500 and shown["left"] == 250
    assert shown["stage"] == "warning"
    for bad in ("0", "61", "x"):
        post(director, "/console/clock/extend", extend_minutes=bad)
    assert client_json(director, "/api/v1/progress")["clock"]["ends_at"] == START + 1500
    # A length changed during the round keeps its start and its extensions.
    post(director, "/console/clock", round="1", round_minutes="30", warning_minutes="5")
    assert client_json(director, "/api/v1/progress")["clock"]["ends_at"] == START + 2100


def result(app: Flask, room: Room, table: int, board: int, ts: float) -> None:
    room.seq[table] += 1
    score = score_ns(parse_contract("3NT"), Seat.N, 9, Board(board).vulnerability)
    event = Event(room.seq[table], "result", ts, board,
                  {"contract": "3NT", "declarer": "N", "tricks": 9, "score_ns": score})
    outcome = services(app).ingest(table_topic(EVENT, table, "events"), event.to_payload())
    assert outcome.rejected is None, outcome.rejected


def test_tables_still_playing_at_the_end_are_marked_late(
        app: Flask, room: Room, director: tuple[FlaskClient, str], clock: Clock) -> None:
    post(director, "/console/clock", round="", round_minutes="20", warning_minutes="5")
    post(director, "/console/round", round="1")
    end = START + 1200
    seatings = [seat for seat in room.session.plan.round(1) if 0 not in (seat.ns, seat.ew)]
    on_time, after, playing = seatings[0], seatings[1], seatings[2]
    for seating in (on_time, after, playing):
        room.play(seating.table, seating.boards[0], "3NT", "N", 9)  # assign + a first board
    result(app, room, on_time.table, on_time.boards[1], end - 60)
    result(app, room, after.table, after.boards[1], end + 130)
    session = current(services(app).db, EVENT)
    assert session is not None
    clock.now = end - 1
    assert roundclock.late_tables(services(app).db, session, clock.now) == []
    clock.now = end + 400
    late = {row.table: row for row in roundclock.late_tables(services(app).db, session,
                                                              clock.now)}
    assert on_time.table not in late
    assert late[after.table] == roundclock.Late(after.table, 1, 0, end + 130, 2)
    assert late[playing.table] == roundclock.Late(playing.table, 1, 1, None, 6)
    english = director[0].get("/console/fragment/clock?lang=en").get_data(as_text=True)
    assert f"Table {after.table}: finished 2 min after the end" in english
    assert f"Table {playing.table}: still playing, 1 board(s) to finish, 6 min" in english
    assert "Law 90" in english
    spanish = director[0].get("/console/fragment/clock?lang=es").get_data(as_text=True)
    assert f"Mesa {playing.table}: sigue jugando" in spanish and "Ley 90" in spanish
    assert f"data-late-table=\"{on_time.table}\"" not in spanish
    # The public sees the clock, never who is late.
    public = director[0].get("/api/v1/progress").get_data(as_text=True)
    assert "late" not in public
