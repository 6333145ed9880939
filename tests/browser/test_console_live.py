"""The director's tables grid in a real browser, fed by tables publishing to a real broker.

An event a table publishes is stored, the stream names that table, and console.js fetches that
row alone and puts it in place of the old one: the other rows are the same elements as
before, and the whole grid is never fetched. After the stream is lost and comes back, the
page fetches the whole grid: a change may have gone by meanwhile.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask

from server.link.tables import table_grid

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
expect = sync_api.expect

from tests.browser.conftest import (  # noqa: E402
    DIRECTOR_PASSWORD,
    TIMEOUT,
    Tables,
    services,
    wait_until,
)


def sign_in(page: Any) -> None:
    page.goto("/console/login")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", DIRECTOR_PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url("**/console/")


def open_console(page: Any) -> None:
    """The console, once its stream has answered: the hub's version it follows is set before
    the first byte goes out, so nothing published after this is missed."""
    with page.expect_response(lambda response: "/console/stream" in response.url):
        page.goto("/console/")


def events_cell(page: Any, table: int) -> Any:
    return page.locator(f'tr[data-table="{table}"] td:nth-child(7)')


def mark_rows(page: Any) -> None:
    """A property on each row element: one that is replaced loses it."""
    page.evaluate("for (const row of document.querySelectorAll('tr[data-table]'))"
                  " { row.bidboxKept = true; }")


def kept(page: Any, table: int) -> bool:
    return bool(page.evaluate(
        f"document.querySelector('tr[data-table=\"{table}\"]').bidboxKept === true"))


def board_event(tables: Tables, table: int, board: int) -> None:
    tables.publish(table, "board", board, {"board": board, "dealer": "N", "vul": "None"})


def stored(app: Flask, table: int) -> int:
    """The table's events stored with no gap, as the grid shows them."""
    rows = table_grid(services(app).db, services(app).event, only=[table])
    return rows[0].events if rows else 0


def test_an_event_redraws_its_tables_row_alone(page: Any, tables: Tables) -> None:
    fetched: list[dict[str, list[str]]] = []  # the query of each fetch of the grid
    page.on("request", lambda request: fetched.append(parse_qs(urlsplit(request.url).query))
            if urlsplit(request.url).path == "/console/fragment/tables" else None)
    sign_in(page)
    open_console(page)
    expect(page.locator("tr[data-table]")).not_to_have_count(0)
    for table in (1, 2, 3):
        expect(events_cell(page, table)).to_have_text("0")
    mark_rows(page)
    page.evaluate("window.bidboxSamePage = true")  # gone if the page reloads

    for board in (1, 2, 3):
        board_event(tables, 2, board)
    expect(events_cell(page, 2)).to_have_text("3")

    assert fetched, "the row came without a fetch?"
    assert all(query.get("only") for query in fetched), fetched  # never the whole grid
    assert {n for query in fetched for n in query["only"][0].split(",")} == {"2"}
    assert not kept(page, 2)  # replaced by the row fetched
    assert kept(page, 1) and kept(page, 3)  # untouched
    assert page.evaluate("window.bidboxSamePage") is True


class Cuttable:
    """A TCP forwarder between the browser and the server whose connections the test cuts, as
    a network that drops them would (Chromium's offline emulation leaves an open stream be)."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, name="cuttable", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                browser, _ = self.listener.accept()
            except OSError:  # closed
                return
            server = socket.create_connection(self.target)
            with self.lock:
                self.open += [browser, server]
            for source, sink in ((browser, server), (server, browser)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()

    def cut(self) -> None:
        with self.lock:
            doomed, self.open = self.open, []
        for connection in doomed:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
            connection.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept
        self.listener.close()
        self.cut()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


@pytest.fixture
def cuttable(chromium: Any, base_url: str) -> Iterator[tuple[Any, Cuttable]]:
    """A page on the app through a ``Cuttable`` network; a script error fails the test."""
    network = Cuttable(base_url)
    context = chromium.new_context(base_url=network.address, locale="es-ES")
    context.set_default_timeout(TIMEOUT * 1000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield tab, network
        assert not errors, f"script errors in the page: {errors}"
    finally:
        context.close()
        network.close()


def test_the_whole_grid_is_fetched_after_the_stream_comes_back(
        cuttable: tuple[Any, Cuttable], tables: Tables, live_app: Flask) -> None:
    page, network = cuttable
    whole: list[str] = []
    page.on("request", lambda request: whole.append(request.url)
            if request.url.endswith("/console/fragment/tables") else None)
    sign_in(page)
    open_console(page)
    expect(events_cell(page, 1)).to_have_text("0")

    network.cut()  # the stream breaks; EventSource tries again 2 s later (retry: 2000)
    board_event(tables, 1, 1)  # stored while the page cannot hear of it
    wait_until(live_app, lambda: stored(live_app, 1) == 1)
    # The stream is back and says hello: the page fetches everything.
    page.wait_for_event("response", lambda response: response.url.endswith(
        "/console/fragment/tables"))
    expect(events_cell(page, 1)).to_have_text("1")
    expect(page.locator("#live-lost")).to_be_hidden()
    assert len(whole) == 1
