"""Boards dealt at the table (issue 32), through a real Mosquitto and the real server: the
director chooses it in the console's set-up; the first table to play board 1 scans the four
hands it dealt and the server keeps them as the board's hand record (the hand records' PBN
carries them); the table that plays board 1 next gets that deal in its assignment, and a
fouled copy there calls the director (Law 87) on the table and on the console. A table that
scanned other hands at the same time as the first (a barometer) is called by the server."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from bidbox.broker import Broker, BrokerUsers
from bidbox.demo import player_numbers
from laws import Deal, Seat
from mqttlink import BrokerSettings
from server.services import Services
from server.setup.session import Session
from server.storage import schema as s
from sim.players import SimulatedPlayers
from sim.players.deals import deal
from sim.simtable import SimulatedTable
from tablemodel.wire import Event, table_topic
from tests.fixtures.broker import EVENT, TIMEOUT, MqttConnect
from tests.server_system.conftest import ServerFactory, director, services, wait_until

pytestmark = pytest.mark.broker



def set_up(client: FlaskClient, token: str, **form: str) -> None:
    response = client.post("/console/setup", data={
        "csrf": token, "title": "Martes", "boards_per_round": "1", "dealing": "table",
        **form})
    assert response.status_code == 302, response.get_data(as_text=True)


def start_round(client: FlaskClient, token: str, number: int) -> None:
    response = client.post("/console/round", data={"csrf": token, "round": str(number)})
    assert response.status_code == 302


def captured(found: Services, session: Session) -> dict[int, Any]:
    with found.db.read() as conn:
        return {row.board: row for row in conn.execute(select(s.deals).where(
            s.deals.c.session_id == session.id)).all()}


def calls(found: Services, table: int) -> list[Any]:
    with found.db.read() as conn:
        return list(conn.execute(select(s.director_calls).where(
            s.director_calls.c.event == EVENT, s.director_calls.c.table_no == table)).all())


def simulated(broker: Broker, users: BrokerUsers, tmp: Any, number: int) -> SimulatedTable:
    creds = users.table(number)
    return SimulatedTable(tmp / f"table-{number}.db", event=EVENT, number=number,
                          broker=BrokerSettings(broker.host, broker.port, creds.username,
                                                creds.password), timeout=TIMEOUT)


def assigned(table: SimulatedTable, round_: int) -> None:
    assert table.daemon.wait_for(lambda state: state.assignment is not None
                                 and state.assignment.round == round_, TIMEOUT), \
        f"table {table.number} got no round {round_}"


def test_board_one_is_captured_at_its_first_table_and_a_fouled_copy_refused_at_the_next(
        start_server: ServerFactory, broker: Broker, broker_users: BrokerUsers,
        tmp_path: Any) -> None:
    app = start_server()
    found = services(app)
    client, token = director(app)
    set_up(client, token, movement="mitchell", participants="6", rounds="2")
    session = found.session
    assert session is not None and session.dealt_at_table and captured(found, session) == {}
    page = client.get("/console/session?lang=en").get_data(as_text=True)
    assert 'id="dealt-at-table"' in page and "0 of 3 boards have a deal" in page
    first = next(seat for seat in session.plan.round(1) if 1 in seat.boards)
    later = next(seat for seat in session.plan.round(2) if 1 in seat.boards)
    assert first.table != later.table
    dealt = deal(32, 1)  # the first table's shuffle
    with simulated(broker, broker_users, tmp_path, first.table) as table, \
            simulated(broker, broker_users, tmp_path, later.table) as next_table:
        start_round(client, token, 1)
        assigned(table, 1)
        assigned(next_table, 1)  # it plays board 3 meanwhile (not here)
        assignment = table.state.assignment
        assert assignment.dealt_at_table and 1 not in assignment.deals
        players = SimulatedPlayers(table, seed=1, speed=0.0, director_rate=0.0)
        players.enter_players(player_numbers(assignment.ns, assignment.ew))
        players.play_board(1, dealt)
        sent = [e for e in table.journal.events(0) if e.type == "deal"]
        assert len(sent) == 1 and Deal.from_pbn(sent[0].data["deal"]).hands == dealt.hands
        wait_until(found, lambda: 1 in captured(found, session))
        record = captured(found, session)[1]
        assert Deal.from_pbn(record.pbn).hands == dealt.hands
        assert record.captured_table == first.table and record.captured_at is not None
        page = client.get("/console/session?lang=en").get_data(as_text=True)
        assert "1 of 3 boards have a deal" in page
        # The hand records the console prints and exports are the captured deal.
        pbn = client.get("/console/hand-records.pbn")
        assert pbn.status_code == 200 and dealt.to_pbn() in pbn.get_data(as_text=True)

        table = next_table
        start_round(client, token, 2)
        assigned(table, 2)
        assignment = table.state.assignment
        assert assignment.deals[1].hands == dealt.hands
        players = SimulatedPlayers(table, seed=2, speed=0.0, director_rate=0.0)
        players.enter_players(player_numbers(assignment.ns, assignment.ew))
        table.press(Seat.N, "1", "OK")  # board 1 on the table
        north = sorted(dealt[Seat.N], key=lambda c: c.index)
        for card in north[:12]:
            table.scan(card, Seat.N)
        table.press(Seat.N, "1", "NT", "OK")  # no call before every hand is scanned
        board = table.state.board
        assert board is not None and not len(board.auction), table.state.phase
        assert table.daemon.notices[Seat.N].key == "scan_hands"
        table.scan(min(dealt[Seat.E], key=lambda c: c.index), Seat.N)  # a fouled copy
        assert table.daemon.notices[Seat.N].key == "fouled"
        assert 13 > len(board.scans[Seat.N])
        wait_until(found, lambda: [c.reason for c in calls(found, later.table)]
                   == ["fouled_board"])
    call = calls(found, later.table)[0]
    assert call.law == "87" and call.board == 1 and call.seat == "N"
    assert Deal.from_pbn(captured(found, session)[1].pbn).hands == dealt.hands  # unchanged
    assert "fouled_board" not in [c.reason for c in calls(found, first.table)]


def test_a_table_that_scanned_other_hands_at_the_same_time_is_called_by_the_server(
        start_server: ServerFactory, broker: Broker, broker_users: BrokerUsers,
        mqtt_connect: MqttConnect) -> None:
    """A barometer: both tables deal board 1 in round 1; the first deal to arrive is the hand
    record, the other table's differs: the server calls the director there (Law 87)."""
    app = start_server()
    found = services(app)
    client, token = director(app)
    set_up(client, token, movement="barometer", participants="4", rounds="1")
    session = found.session
    assert session is not None and session.dealt_at_table
    start_round(client, token, 1)
    wait_until(found, lambda: _queued(found) == 2)
    ident = {row.table_no: row for row in _commands(found)}
    for number, seed in ((1, 7), (2, 8)):
        client_ = mqtt_connect(broker_users.table(number))
        data = {"cmd": ident[number].id, **json.loads(ident[number].data)}
        events = [Event(1, "assign", time.time(), None, data),
                  Event(2, "deal", time.time(), 1, {"deal": deal(seed, 1).to_pbn()})]
        for event in events:
            client_.publish(table_topic(EVENT, number, "events"), event.to_payload())
        wait_until(found, lambda n=number: 1 in captured(found, session)
                   and (n == 1 or bool(calls(found, n))))
    assert captured(found, session)[1].captured_table == 1
    assert not calls(found, 1)
    call = calls(found, 2)[0]
    assert (call.reason, call.law, call.board) == ("fouled_board", "87", 1)
    assert call.detail.startswith("the hands of N E S W differ")


def _commands(found: Services) -> list[Any]:
    with found.db.read() as conn:
        return list(conn.execute(select(s.commands).where(s.commands.c.event == EVENT)).all())


def _queued(found: Services) -> int:
    return len(_commands(found))
