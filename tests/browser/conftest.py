"""Fixtures of the browser tests: the whole server as the club runs it, seen by a real browser.

A real private Mosquitto (the fixtures of tests/mqtt), the app ingesting from it, served by
waitress on a loopback port, and Debian's Chromium, headless, driven by Playwright's sync API
(never a browser downloaded by ``playwright install``). Everything skips cleanly when Chromium,
Playwright or Mosquitto is absent. Every wait is bounded; nothing sleeps.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from bidbox.broker import Broker, BrokerUsers
from laws import Board, Seat, parse_contract
from laws.scoring import score_ns
from server import create_app
from server.link.rounds import create_session
from server.scoring import standings
from server.services import Services
from server.setup.movements import PHANTOM
from server.setup.session import Session
from tablemodel.wire import ONLINE, Event, state_payload, table_topic
from tests.fixtures.broker import EVENT, TIMEOUT, MqttClient

CHROMIUM = Path(os.environ.get("BIDBOX_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking"]
DIRECTOR_PASSWORD = "browser-director"
PROBE_TABLE = 4
"""A table the 3-table session never seats: its presence pings prove the server subscribed."""


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


def wait_until(app: Flask, predicate: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    """Wait on the live hub (woken by every batch the server stores) until ``predicate``."""
    hub = services(app).hub
    deadline = time.monotonic() + timeout
    seen = hub.version
    while not predicate():
        left = deadline - time.monotonic()
        assert left > 0, "timed out waiting for the server"
        seen = hub.wait(seen, min(left, 0.25)).version


@pytest.fixture
def live_app(broker: Broker, broker_users: BrokerUsers,
             tmp_path: Path) -> Iterator[Flask]:
    """The app ingesting the broker's event, subscribed before the test goes on."""
    creds = broker_users.server
    app = create_app({
        "TESTING": True, "DATABASE": str(tmp_path / "server.db"), "EVENT": EVENT,
        "SECRET_KEY": "browser-test", "DIRECTOR_PASSWORD": DIRECTOR_PASSWORD,
        "ANALYSIS": False,
        "BROKER_URL": f"mqtt://{creds.username}:{creds.password}@127.0.0.1:{broker.port}"})
    try:
        assert services(app).bus.connected.wait(TIMEOUT), "the server did not reach the broker"
        _wait_subscribed(app, broker, broker_users)
        yield app
    finally:
        services(app).close()


def _wait_subscribed(app: Flask, running: Broker, users: BrokerUsers) -> None:
    # ``connected`` is set in on_connect, before the broker has taken the SUBSCRIBE: a table
    # publishing at once could be missed. A non-retained presence ping from a table the
    # session does not use, sent again until the server stores one, proves the subscription.
    probe = MqttClient(running, users.table(PROBE_TABLE))
    probe.connect()
    try:
        deadline = time.monotonic() + TIMEOUT
        hub = services(app).hub
        while True:
            seen = hub.version
            probe.publish(table_topic(EVENT, PROBE_TABLE, "status"), ONLINE)
            kinds = hub.wait(seen, 0.2).kinds
            if "tables" in kinds:
                return
            assert time.monotonic() < deadline, "the server never heard a table"
    finally:
        probe.close()


@pytest.fixture
def base_url(live_app: Flask) -> Iterator[str]:
    """The app served by waitress on a free loopback port, as ``bidbox server`` serves it."""
    from tests.browser.field import served
    yield from served(live_app)


@pytest.fixture
def field(tmp_path: Path) -> Iterator[Any]:
    """A field larger than a screen, played and released (tests/browser/field.py)."""
    from tests.browser.field import field_app
    yield from field_app(tmp_path)


@pytest.fixture
def field_url(field: Any) -> Iterator[str]:
    """The field's app served; a module whose pages come from it makes ``base_url`` this."""
    from tests.browser.field import served
    yield from served(field.app)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, for the whole run."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not CHROMIUM.is_file() or not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium, "
                    "or run scripts/setup.py")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                             timeout=TIMEOUT * 4 * 1000)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(chromium: Any, base_url: str) -> Iterator[Any]:
    """A fresh browser context (no cookies) on the served app; every wait bounded. A script
    error or a Content-Security-Policy violation on any page fails the test."""
    context = chromium.new_context(base_url=base_url, locale="es-ES")
    context.set_default_timeout(TIMEOUT * 1000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    # A page that breaks its Content-Security-Policy (server/pages/headers.py) fails the test too.
    tab.on("console", lambda message: errors.append(message.text)
           if "Content Security Policy" in message.text else None)
    try:
        yield tab
        assert not errors, f"script errors in the page: {errors}"
    finally:
        context.close()


class Tables:
    """The session's tables, each publishing its own journal with its own credentials."""

    def __init__(self, app: Flask, broker: Broker,
                 users: BrokerUsers) -> None:
        self.app = app
        self.broker = broker
        self.users = users
        self.session: Session = create_session(
            services(app).db, event=EVENT, title="Torneo del martes", kind="mitchell",
            participants=6, boards_per_round=2, seed=7)
        self.clients: dict[int, MqttClient] = {}
        self.seq: dict[int, int] = {}

    def client(self, table: int) -> MqttClient:
        if table not in self.clients:
            client = MqttClient(self.broker, self.users.table(table))
            self.clients[table] = client
            client.connect()
        return self.clients[table]

    def schedule(self, board: int) -> list[Any]:
        return [seat for seat in self.session.plan.schedule(board)
                if PHANTOM not in (seat.ns, seat.ew)]

    def publish(self, table: int, kind: str, board: int | None, data: dict[str, Any]) -> None:
        """One event of the table's journal, QoS 1: returns on the broker's PUBACK."""
        self.seq[table] = self.seq.get(table, 0) + 1
        event = Event(self.seq[table], kind, time.time(), board, data)
        code = self.client(table).publish(table_topic(EVENT, table, "events"),
                                          event.to_payload())
        assert not code.is_failure, code

    def state(self, table: int, phase: str, board: int | None, round_: int | None) -> None:
        """The table online, and its retained state, as its uplink publishes them."""
        code = self.client(table).publish(table_topic(EVENT, table, "status"), ONLINE,
                                          retain=True)
        assert not code.is_failure, code
        code = self.client(table).publish(
            table_topic(EVENT, table, "state"),
            state_payload({"seq": self.seq.get(table, 0), "ts": time.time(), "phase": phase,
                           "round": round_, "board": board}), retain=True)
        assert not code.is_failure, code

    def before_result(self, table: int, board: int, lead: str) -> None:
        """The table's assignment and opening lead: what precedes the board's result."""
        seating = next(seat for seat in self.schedule(board) if seat.table == table)
        self.publish(table, "assign", None, {
            "cmd": f"assign-{EVENT}-r{seating.round}-t{table}-b{board}",
            "round": seating.round, "ns": seating.ns, "ew": seating.ew,
            "boards": list(seating.boards)})
        self.publish(table, "card", board, {"seat": "E", "card": lead})

    def result(self, table: int, board: int, contract: str, declarer: str,
               tricks: int) -> None:
        score = score_ns(parse_contract(contract), Seat.from_str(declarer), tricks,
                         Board(board).vulnerability)
        self.publish(table, "result", board, {"contract": contract, "declarer": declarer,
                                              "tricks": tricks, "score_ns": score})

    def play(self, table: int, board: int, contract: str, declarer: str, tricks: int,
             lead: str = "C2") -> None:
        self.before_result(table, board, lead)
        self.result(table, board, contract, declarer, tricks)

    def stored(self, count: int) -> None:
        """Wait until the server holds ``count`` results."""
        db = services(self.app).db
        wait_until(self.app, lambda: len(standings.all_results(db, self.session)) >= count)

    def close(self) -> None:
        for client in self.clients.values():
            client.close()


@pytest.fixture
def tables(live_app: Flask, broker: Broker,
           broker_users: BrokerUsers) -> Any:
    found = Tables(live_app, broker, broker_users)
    yield found
    found.close()
