"""A club provisioned once plays a second session created in the console, no file changed.

``bidbox provision`` writes the club's files; a real Mosquitto runs its ACL, password file and
certificates; the server runs with its ``server.env``; two tables run the real table runner
from their ``table.toml`` over TLS. The director creates a session in the console and starts
its round, then creates the next one and starts its round: the tables take each round in the
session it belongs to. What a test changes is only what a machine changes (ports, loopback,
the folders, no card reader on this machine); every provisioned file is byte for byte what it
was at the end.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gpiozero.pins.mock import MockFactory

from bidbox.broker import Broker
from bidbox.provision import Deployment, Provisioned, provision
from mqttlink import BrokerSettings
from server import create_app
from server.setup.running import sessions
from tabled.config import TableConfig, load
from tabled.runner import Table
from tablemodel.state import Phase
from tablemodel.wire import Event, table_topic
from tests.bidbox.test_provision import provisioned_broker, table_client
from tests.fixtures.broker import TIMEOUT
from tests.server_system.conftest import director as console_director
from tests.server_system.conftest import services, wait_until

pytestmark = pytest.mark.broker

CLUB = "club"
PASSWORD_FIELD = re.compile(r"BIDBOX_DIRECTOR_PASSWORD=(\S+)")
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and "data" not in p.relative_to(folder).parts}


@pytest.fixture
def club(tmp_path: Path) -> Provisioned:
    return provision(Deployment(event=CLUB, tables=2, broker_hosts=("127.0.0.1",)),
                     tmp_path / "club")


@pytest.fixture
def broker(club: Provisioned, mosquitto_bin: Path, tmp_path: Path) -> Iterator[Broker]:
    """The provisioned broker as on the director's machine, at this test's ports and folder."""
    config = provisioned_broker(club, tmp_path / "mosquitto")
    with Broker(config, binary=mosquitto_bin) as running:
        assert config.acl_path.read_text() == (club.out / "broker/acl").read_text()
        yield running


@pytest.fixture
def server(club: Provisioned, broker: Broker, tmp_path: Path) -> Iterator[Flask]:
    """The server with the provisioned server.env, its broker URL at the test's port."""
    env = dict(line.split("=", 1) for line in (club.out / "server.env").read_text().splitlines()
               if line and not line.startswith("#"))
    url = BrokerSettings.from_url(env["BIDBOX_BROKER_URL"])
    app = create_app({
        "TESTING": True, "DATABASE": str(tmp_path / "bidbox.db"),
        "EVENT": env["BIDBOX_EVENT"], "SECRET_KEY": env["BIDBOX_SECRET_KEY"],
        "DIRECTOR_PASSWORD": env["BIDBOX_DIRECTOR_PASSWORD"], "ANALYSIS": False,
        "PASSWORD_METHOD": "pbkdf2:sha256:1000",
        "BROKER_URL": f"mqtt://{url.username}:{url.password}@127.0.0.1:{broker.port}"})
    assert services(app).bus.connected.wait(TIMEOUT)
    yield app
    services(app).close()


class Pis:
    """The tables' Pis: each a runner on pins of its own; all stopped at the end."""

    def __init__(self) -> None:
        self.tables: dict[int, Table] = {}
        self._factories: list[MockFactory] = []

    def start(self, number: int, config: TableConfig) -> Table:
        if number in self.tables:
            self.tables[number].stop()
        self._factories.append(MockFactory())
        self.tables[number] = Table(config, pin_factory=self._factories[-1])
        self.tables[number].start()
        return self.tables[number]

    def stop(self) -> None:
        for table in self.tables.values():
            table.stop()
        for factory in self._factories:
            factory.close()


@pytest.fixture
def pis(club: Provisioned, broker: Broker, tmp_path: Path) -> Iterator[Pis]:
    """Each table's runner from its table.toml, as its Pi runs it: the broker at the test's
    TLS port, the CA and the journals where this test keeps them, and none of the reader,
    LCDs, buzzer and LEDs this machine lacks."""
    assert broker.config.tls is not None
    made = Pis()
    try:
        for number in (1, 2):
            config = load(club.table_config(number))
            assert config.follows and config.broker is not None
            made.start(number, dataclasses.replace(
                config, journal=tmp_path / f"pi-{number}",
                broker=dataclasses.replace(config.broker, host="127.0.0.1",
                                           port=broker.config.tls.port,
                                           cafile=str(club.out / "tables/ca.crt")),
                reader_url=None, display="none", buzzer=None, ok_led=None, error_led=None))
        yield made
    finally:
        made.stop()


def director(app: Flask, club: Provisioned) -> tuple[FlaskClient, str]:
    password = PASSWORD_FIELD.search((club.out / "server.env").read_text())
    assert password is not None
    return console_director(app, password[1])


def until(table: Table, predicate: Any) -> None:
    assert table.daemon.wait_for(lambda _: predicate(table), TIMEOUT), (
        table.daemon.event, table.daemon.state.phase)


def set_up(client: FlaskClient, token: str, title: str, **more: str) -> None:
    response = client.post("/console/setup", data={
        "csrf": token, "title": title, "movement": "howell", "participants": "4",
        "boards_per_round": "2", "rounds": "2", "seed": "5", **more})
    assert response.status_code == 302, response.get_data(as_text=True)
    response = client.post("/console/round", data={"csrf": token, "round": "1"})
    assert response.status_code == 302


def test_a_second_session_reaches_the_provisioned_tables_with_no_file_changed(
        club: Provisioned, server: Flask, pis: Pis, tmp_path: Path) -> None:
    tables = pis.tables
    before = snapshot(club.out)
    client, token = director(server, club)

    set_up(client, token, "Lunes")
    first = services(server).session
    assert first is not None and first.event == CLUB
    for table in tables.values():
        until(table, lambda t: t.daemon.event == CLUB and t.daemon.state.phase is Phase.PLAYERS)
    wait_until(services(server), lambda: all(
        row.answer_seq is not None for row in commands(server, CLUB)))

    set_up(client, token, "Martes", after=str(first.id))
    second = services(server).session
    assert second is not None and second.title == "Martes"
    assert second.event == f"{CLUB}-{datetime.date.today().isoformat()}"
    for number, table in tables.items():
        # Between boards (players at the table): each moves at once, and takes round 1 of
        # the new session from the new session's topics.
        until(table, lambda t: t.daemon.event == second.event
              and t.daemon.state.assignment is not None
              and t.daemon.state.assignment.round == 1)
        assert table.journal is not None
        assert table.journal.path == str(tmp_path / f"pi-{number}" / f"{second.event}.db")
        assert (tmp_path / f"pi-{number}" / f"{CLUB}.db").exists()  # the first's, kept
        assert (tmp_path / f"pi-{number}" / "running").read_text().strip() == second.event
    # The server stored each table's answer in the session it belongs to.
    wait_until(services(server), lambda: all(
        row.answer_seq is not None for row in commands(server, second.event)))
    assert len(commands(server, CLUB)) == len(commands(server, second.event)) == 2
    assert [s.event for s in sessions(services(server).db)] == [second.event, CLUB]

    # A Pi restarted carries on in the session it followed, before the network says a word;
    # a Pi with an empty card learns the session from the broker's retained message.
    config = tables[1].config
    for folder, journal in ((config.journal, second.event), (tmp_path / "new-card", None)):
        tables[1].stop()
        again = Table(dataclasses.replace(config, journal=folder), pin_factory=MockFactory())
        try:
            assert again.daemon.event == journal
        finally:
            again.stop()
        table = pis.start(1, dataclasses.replace(config, journal=folder))
        until(table, lambda t: t.daemon.event == second.event)
    # The round it took is on the old card only: the new one starts afresh in the session.
    assert tables[1].daemon.state.phase is Phase.WAITING
    assert snapshot(club.out) == before, "a provisioned file changed"


def commands(app: Flask, event: str) -> list[Any]:
    from sqlalchemy import select

    from server.storage import schema as s
    with services(app).db.read() as conn:
        return list(conn.execute(select(s.commands).where(s.commands.c.event == event)).all())


def test_the_session_left_still_stores_what_its_tables_send_after_the_next_is_created(
        club: Provisioned, server: Flask, broker: Broker) -> None:
    """A table finishes the board it is on before it moves: what it sends then, on the
    session the director has just left, is stored in that session."""
    client, token = director(server, club)
    set_up(client, token, "Lunes")
    first = services(server).session
    assert first is not None
    assign = commands(server, CLUB)[0]
    set_up(client, token, "Martes", after=str(first.id))
    assert services(server).event != CLUB
    # As the table does: over TLS (the loopback listener takes the server's login alone).
    table = table_client(club, broker, assign.table_no, club.out / "tables/ca.crt", [])
    assert not table.connect().is_failure
    try:
        data = {"cmd": assign.id, **json.loads(assign.data)}
        code = table.publish(table_topic(CLUB, assign.table_no, "events"),
                             Event(1, "assign", time.time(), None, data).to_payload())
        assert not code.is_failure
        wait_until(services(server), lambda: commands(server, CLUB)[0].answer_seq == 1)
    finally:
        table.close()
