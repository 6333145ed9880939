"""After a board the players see its result, within the release rule (issue 32, item 3).

A real Mosquitto, the real server (its bus, its console) and two real table runners (the
daemon and its uplink) on the broker's table logins. A Mitchell of two tables, one board a
round: board 1 is table 1's in round 1 and table 2's in round 2, board 2 the other way. The
seats are driven by key presses and cards on the tables' inboxes, as the keypads and the
reader put them there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from bidbox.broker import Broker, BrokerUsers
from hardware.events import CardEvent, KeyEvent
from laws import Seat
from mqttlink import BrokerSettings
from server.scoring.standings import public_field
from tabled.config import TableConfig
from tabled.runner import Table
from tablemodel.state import Phase
from tablemodel.wire import afterboard_topic
from tests.fixtures.broker import EVENT, TIMEOUT, MqttConnect
from tests.server_system.conftest import ServerFactory, director, services

pytestmark = pytest.mark.broker



@pytest.fixture
def tables(broker: Broker, broker_users: BrokerUsers,
           tmp_path: Path) -> Iterator[dict[int, Table]]:
    made: dict[int, Table] = {}
    factories: list[MockFactory] = []
    try:
        for number in (1, 2):
            creds = broker_users.table(number)
            factories.append(MockFactory())
            made[number] = Table(TableConfig(
                EVENT, number, tmp_path / f"table-{number}.db", language="es",
                broker=BrokerSettings(broker.host, broker.port, creds.username,
                                      creds.password),
                reader_url=None, display="none", buzzer=None, ok_led=None, error_led=None),
                pin_factory=factories[-1])
            made[number].start()
        yield made
    finally:
        for table in made.values():
            table.stop()
        for factory in factories:
            factory.close()


def until(table: Table, predicate: object, what: str) -> None:
    assert table.daemon.wait_for(lambda _: predicate(), TIMEOUT), (  # type: ignore[operator]
        what, table.daemon.state.phase, [table.daemon.view(s) for s in Seat])


def press(table: Table, seat: Seat, *keys: str) -> None:
    """Each key as the keypad gives it, handled before the next."""
    daemon = table.daemon
    for key in keys:
        with daemon.changed:
            target = daemon.inputs + 1
        daemon.inbox.put(KeyEvent(seat, key, True, 0.0))
        until(table, lambda t=target: daemon.inputs >= t, f"{seat} {key}")


def play_board(table: Table, claim: int | None) -> None:
    """Players seated, the round's board on the table; passed out (``claim`` None), or 1NT
    by the dealer, the opening lead faced and declarer's claim of ``claim`` tricks agreed."""
    daemon = table.daemon
    until(table, lambda: daemon.state.phase in (Phase.PLAYERS, Phase.BOARD), "the round")
    for seat in Seat:
        if daemon.state.phase is Phase.PLAYERS:
            press(table, seat, "OK")
    press(table, Seat.N, "OK")
    assert daemon.state.phase is Phase.SETUP
    board = daemon.state.board
    assert board is not None
    for call in (["PASS", "OK"] * 4 if claim is None
                 else ["1", "NT", "OK", *["PASS", "OK"] * 3]):
        turn = board.auction.turn
        assert turn is not None
        press(table, turn, call)
    if claim is not None:
        play = board.play
        assert play is not None and play.turn is not None
        leader = play.turn
        with daemon.changed:
            target = daemon.inputs + 1
        daemon.inbox.put(CardEvent(next(play.legal_cards()), None, None, 0.0))
        until(table, lambda: daemon.inputs >= target, "the lead")
        press(table, leader, "OK")  # Law 41C: faced
        declarer = play.declarer
        for _ in range(4):
            if daemon.controller.entries[declarer].page == "claim":
                break
            press(table, declarer, "INFO")
        digits = [{"8": "C", "9": "D", "0": "S"}.get(d, d) for d in str(claim)]
        press(table, declarer, *digits, "OK", "OK")  # the keypad's 9 is D
        for seat in (declarer.lho, declarer.rho):
            press(table, seat, "OK")  # Law 69A: agreed
    until(table, lambda: daemon.state.phase is Phase.RESULT, "the result")
    press(table, Seat.N, "OK")
    press(table, Seat.E, "OK")


def shown(table: Table, board: int) -> object:
    found = table.daemon.afterboard
    return None if found is None else found.of(board)


def test_the_pages_after_a_board_keep_to_the_release_rule_and_the_directors_switches(
        start_server: ServerFactory, tables: dict[int, Table],
        broker_users: BrokerUsers, mqtt_connect: MqttConnect) -> None:
    app = start_server()
    client, token = director(app)
    response = client.post("/console/setup", data={
        "csrf": token, "title": "Martes", "movement": "howell", "participants": "4",
        "boards_per_round": "1", "rounds": "2", "seed": "7"})
    assert response.status_code == 302, response.get_data(as_text=True)
    session = services(app).session
    assert session is not None and session.tables == 2
    # Both tables play board 1 in round 1 and board 2 in round 2.
    assert [s.boards for s in session.plan.round(1)] == [(1,), (1,)]
    assert client.post("/console/round", data={"csrf": token, "round": "1"}).status_code == 302
    one, two = tables[1], tables[2]

    # Table 1 plays board 1, which table 2 has still to play.
    play_board(one, claim=9)
    until(one, lambda: shown(one, 1) is not None, "table 1 told of board 1")
    found = shown(one, 1)
    assert found is not None and not found.released and not found.traveller  # type: ignore[attr-defined]
    for seat in Seat:  # the pages opened by themselves: no other table's result in them
        view = one.daemon.view(seat)
        assert view[1:3] == ["Resultados cuando", "lo jueguen todos"], view
    # What the broker holds for table 1 says nothing of board 1 but that it waits.
    server = mqtt_connect(broker_users.server)
    server.subscribe(afterboard_topic(EVENT, 1))
    retained = json.loads(server.expect(afterboard_topic(EVENT, 1)).payload)
    assert retained["boards"] == [{"board": 1, "released": False}]

    # The director turns every page off: the displays go back to the movement's guidance.
    response = client.post("/console/afterboard", data={"csrf": token})
    assert response.status_code == 302
    until(one, lambda: one.daemon.afterboard is not None
          and not one.daemon.afterboard.on, "the switches off")
    guidance = one.daemon.view(Seat.N)
    assert not guidance[0].startswith("T1 "), guidance
    press(one, Seat.N, "INFO")  # no page to open
    assert one.daemon.view(Seat.N) == guidance
    # The traveller and the score back on, the hand record's page off.
    response = client.post("/console/afterboard", data={"csrf": token, "after_score": "on",
                                                        "after_traveller": "on"})
    assert response.status_code == 302
    until(one, lambda: one.daemon.afterboard is not None
          and one.daemon.afterboard.traveller and not one.daemon.afterboard.record,
          "the switches on")

    # Table 2 plays board 1: released, and table 1's pages show it as they stand.
    play_board(two, claim=None)
    until(one, lambda: getattr(shown(one, 1), "released", False), "board 1 released")
    field = public_field(services(app).db, session)
    mine = next(s for s in field.scored[1] if s.result.table == 1)
    assert mine.ns_percent is not None and mine.ew_percent is not None
    assert mine.ns_percent != 50.0  # a contract made against a board passed out
    percent = f"NS {mine.ns_percent:.2f}% EO {mine.ew_percent:.2f}%".replace(".", ",")
    page = one.daemon.view(Seat.S)
    assert page[0].startswith("T1 Resultado") and page[0].endswith("1/2"), page
    assert page[2] == percent, page
    press(one, Seat.S, "INFO")
    page = one.daemon.view(Seat.S)
    assert page[0].startswith("T1 Planilla"), page
    assert any(line.startswith("*") and "1ST" in line for line in page[1:3]), page
    assert any("Todos pasan 0" in line for line in page[1:3]), page
    assert page[3] == "INFO: salir"
    press(one, Seat.S, "INFO")  # past the last page: the plain display
    assert one.daemon.view(Seat.S)[:3] == guidance[:3]

    # Round 2: table 1 finishes board 2 first; board 1 of round 1 is still a key away.
    assert client.post("/console/round", data={"csrf": token, "round": "2"}).status_code == 302
    play_board(one, claim=7)
    until(one, lambda: shown(one, 2) is not None, "table 1 told of board 2")
    page = one.daemon.view(Seat.W)
    assert page[0].startswith("T2 Resultado") and page[1] == "Resultados cuando", page
    press(one, Seat.W, "UNDO")  # the board before: round 1's, released
    page = one.daemon.view(Seat.W)
    assert page[0].startswith("T1 Resultado") and page[2] == percent, page
    assert "1ST" in page[1], page  # table 1's own result, from the traveller
    play_board(two, claim=None)
    until(one, lambda: getattr(shown(one, 2), "released", False), "board 2 released")
    page = one.daemon.view(Seat.N)
    assert page[0].startswith("T2 Resultado") and "%" in page[2], page
    assert all(len(line) <= 20 for seat in Seat for line in one.daemon.view(seat))
