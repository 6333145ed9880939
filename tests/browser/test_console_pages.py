"""The director's tables grid of a large field in a real browser (issue 29): the console shows
a page of the tables; a table on the page that publishes has its row redrawn alone, and one
off the page costs no fetch at all (at thousands of tables every table changes every few
seconds at the round's start, and a page that fetched them all would keep the server busy
rendering rows nobody sees)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask

from bidbox.broker import Broker, BrokerUsers
from server.link.rounds import create_session
from server.pages.tableview import PAGE_TABLES
from server.setup.movements import Section
from tablemodel.wire import Event, table_topic
from tests.browser.test_console_live import events_cell, mark_rows, open_console, sign_in
from tests.fixtures.broker import EVENT, MqttClient

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
expect = sync_api.expect

from tests.browser.conftest import TIMEOUT, services, wait_until  # noqa: E402

SECTION_TABLES = 60
OFF_PAGE = PAGE_TABLES + 20  # a table of the second page
ON_PAGE = 7


@pytest.fixture
def broker_users() -> BrokerUsers:
    """Logins for the two tables that publish, and the probe's (the browser conftest's 4)."""
    return BrokerUsers.generate(EVENT, (4, ON_PAGE, OFF_PAGE))


class Publisher:
    def __init__(self, broker: Broker, users: BrokerUsers) -> None:
        self.broker, self.users = broker, users
        self.clients: dict[int, MqttClient] = {}
        self.seq: dict[int, int] = {}

    def publish(self, table: int, board: int) -> None:
        if table not in self.clients:
            self.clients[table] = MqttClient(self.broker, self.users.table(table))
            self.clients[table].connect()
        self.seq[table] = self.seq.get(table, 0) + 1
        event = Event(self.seq[table], "board", time.time(), board,
                      {"board": board, "dealer": "N", "vul": "None"})
        code = self.clients[table].publish(table_topic(EVENT, table, "events"),
                                           event.to_payload())
        assert not code.is_failure, code

    def close(self) -> None:
        for client in self.clients.values():
            client.close()


@pytest.fixture
def field(live_app: Flask, broker: Broker, broker_users: BrokerUsers) -> Iterator[Publisher]:
    """Three sections of 60 tables: 180 tables, two pages of the grid."""
    create_session(services(live_app).db, event=EVENT, title="Simultáneo", kind="mitchell",
                   participants=6 * SECTION_TABLES, boards_per_round=1, rounds=1, seed=7,
                   sections=[Section(letter, "mitchell", 2 * SECTION_TABLES, 1, rounds=1)
                             for letter in "ABC"])
    publisher = Publisher(broker, broker_users)
    yield publisher
    publisher.close()


def stored(app: Flask, table: int, count: int) -> None:
    from server.link.tables import table_grid
    wait_until(app, lambda: any(row.events >= count for row in table_grid(
        services(app).db, services(app).event, only=[table])))


def test_a_change_off_the_page_fetches_nothing_and_one_on_it_its_row(
        page: Any, live_app: Flask, field: Publisher) -> None:
    fetched: list[tuple[str, dict[str, list[str]]]] = []
    page.on("request", lambda request: fetched.append(
        (urlsplit(request.url).path, parse_qs(urlsplit(request.url).query)))
        if urlsplit(request.url).path.startswith("/console/fragment/") else None)
    sign_in(page)
    open_console(page)
    expect(page.locator('section[data-fragment="tables"] tr[data-table]')).to_have_count(
        PAGE_TABLES)
    mark_rows(page)
    fetched.clear()

    field.publish(OFF_PAGE, 1)
    field.publish(OFF_PAGE, 2)
    stored(live_app, OFF_PAGE, 2)
    # Then a table on the page: its row is redrawn, alone; the table off the page never
    # made a fetch (the stream's changes come in order, so by the time the second table's
    # row is drawn, the first's changes have been read and left).
    field.publish(ON_PAGE, 1)
    expect(events_cell(page, ON_PAGE)).to_have_text("1", timeout=TIMEOUT * 1000)
    grid = [query for path, query in fetched if path == "/console/fragment/tables"]
    assert grid and all(query.get("only") == [str(ON_PAGE)] for query in grid), fetched
    assert not any(str(OFF_PAGE) in ",".join(query.get("only", [""])) for _, query in fetched)
    assert page.locator(f'tr[data-table="{OFF_PAGE}"]').count() == 0
    assert page.evaluate(
        "document.querySelector('tr[data-table=\"1\"]').bidboxKept === true")

    # The second page shows the other table, and follows it live the same way.
    with page.expect_response(lambda response: "/console/stream" in response.url):
        page.click('section[data-fragment="tables"] a[rel="next"]')
    expect(events_cell(page, OFF_PAGE)).to_have_text("2")
    fetched.clear()
    field.publish(OFF_PAGE, 3)
    expect(events_cell(page, OFF_PAGE)).to_have_text("3", timeout=TIMEOUT * 1000)
    grid = [query for path, query in fetched if path == "/console/fragment/tables"]
    assert grid and all(query.get("only") == [str(OFF_PAGE)] for query in grid), fetched
