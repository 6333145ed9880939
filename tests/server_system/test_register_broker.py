"""The player register end to end, over a real Mosquitto: the server's assignment carries the
session's roster to a simulated table; the table refuses a number the register lacks; the
director adds the player as a visitor while the table waits; the ``roster`` command reaches
the table, which then accepts the number, answers the command, and the server names the
pair by the register."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from sqlalchemy import select

from bidbox.broker import Broker, BrokerUsers
from laws import Seat
from mqttlink import BrokerSettings
from server.link.rounds import create_session, start_round
from server.setup import player_register as register
from server.setup.session import participants_of
from server.storage import schema as s
from sim.simtable import SimulatedTable
from tablemodel.state import Phase
from tests.fixtures.broker import EVENT, TIMEOUT

from .conftest import ServerFactory, services, wait_until

MEMBERS = "Número;Nombre;Licencia\r\n101;Íñigo Muñoz;28/1\r\n102;Begoña Ibáñez;28/2\r\n" \
          "103;José Pérez;\r\n"
DIGIT_KEYS = {"8": "C", "9": "D", "0": "S"}


def _type(table: SimulatedTable, seat: Seat, number: int) -> None:
    table.press(seat, *[DIGIT_KEYS.get(d, d) for d in str(number)], "OK")


def test_a_visitor_added_while_the_table_waits_is_then_accepted(
        start_server: ServerFactory, broker: Broker, broker_users: BrokerUsers,
        tmp_path: Path) -> None:
    app: Flask = start_server()
    db = services(app).db
    register.import_csv(db, MEMBERS.encode("cp1252"), by="director")
    session = create_session(db, event=EVENT, title="Martes", kind="mitchell", participants=8,
                             boards_per_round=2, seed=7)
    start_round(db, session, 1, by="director")
    creds = broker_users.table(1)
    settings = BrokerSettings(broker.host, broker.port, creds.username, creds.password,
                              keepalive=5)
    with SimulatedTable(tmp_path / "t1.db", event=EVENT, number=1, broker=settings,
                        language="es") as table:
        services(app).commands_queued()
        assert table.daemon.wait_for(lambda state: state.roster is not None, TIMEOUT)
        assert table.state.roster == {101: "Íñigo Muñoz", 102: "Begoña Ibáñez",
                                      103: "José Pérez"}
        for seat, number in ((Seat.N, 101), (Seat.E, 102), (Seat.S, 103)):
            _type(table, seat, number)
        _type(table, Seat.W, 5001)
        assert Seat.W not in table.state.players
        assert table.daemon.view(Seat.W)[3] == "No consta: 5001"
        assert table.state.phase is Phase.PLAYERS

        sent = register.add_visitor(db, 5001, "Visitante Ñandú", "ARG-9", session=session,
                                    by="director")
        services(app).commands_queued()
        assert table.daemon.wait_for(
            lambda state: state.roster is not None and 5001 in state.roster, TIMEOUT)
        _type(table, Seat.W, 5001)
        assert table.daemon.wait_for(lambda state: state.phase is Phase.BOARD, TIMEOUT)
        assert table.daemon.view(Seat.W)[2] == "5001 Visitante Ñandú"

        def answered() -> bool:
            with db.read() as conn:
                return conn.execute(select(s.commands.c.answer).where(
                    s.commands.c.id == sent[0])).scalar() == "roster"

        wait_until(services(app), answered)
        seating = session.plan.round(1)[0]

        def named() -> bool:
            return participants_of(db, session)[seating.ew].names != ""

        wait_until(services(app), named)
        assert participants_of(db, session)[seating.ew].names == \
            "Begoña Ibáñez & Visitante Ñandú"
        assert participants_of(db, session)[seating.ns].names == "Íñigo Muñoz & José Pérez"
        now, _ = register.seated(db, EVENT, 1)
        assert now[1] == {Seat.N: 101, Seat.E: 102, Seat.S: 103, Seat.W: 5001}
        with db.read() as conn:
            # The visitor's command to the table is answered once; the others (tables not
            # running here) wait for theirs.
            rows = conn.execute(select(s.commands.c.table_no, s.commands.c.answer).where(
                s.commands.c.type == "roster")).all()
        assert sorted(rows) == [(1, "roster"), *((t, None) for t in range(2, 5))]
        # The visitor came by the roster command: the round's assignment is as it was sent.
        first = next(iter(table.journal.events()))
        assert first.type == "assign" and "5001" not in first.data["roster"]
