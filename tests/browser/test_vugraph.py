"""The public vugraph in a real browser, fed by a table publishing to a real broker.

The session is a field (a Mitchell of three tables): the page names the board the table is
on and shows nothing of it until the board is released, then all of it at once, calls and
hands, with no reload. (The live vugraph of a single match and its delay:
tests/server/test_vugraph.py.)
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from laws import Board, Deal, Seat
from server.scoring import standings
from server.setup.session import dealt
from server.storage import schema as s

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
expect = sync_api.expect

from tests.browser.conftest import Tables, services, wait_until  # noqa: E402
from tests.fixtures.broker import TIMEOUT  # noqa: E402

DELAY = 8.0
"""Seconds the vugraph runs behind the table in this test."""


def contiguous(app: Flask, table: int) -> int:
    with services(app).db.read() as conn:
        found = conn.execute(select(s.table_status.c.contiguous_seq).where(
            s.table_status.c.table_no == table)).scalar()
    return int(found or 0)


def test_a_board_shows_nothing_until_released_then_all_of_it(
        page: Any, tables: Tables, live_app: Flask) -> None:
    live_app.config["VUGRAPH_DELAY"] = DELAY
    seating = next(seat for seat in tables.schedule(1) if seat.table == 1)
    board = Board(1)
    tables.publish(1, "assign", None, {
        "cmd": "assign-vugraph-r1-t1", "round": seating.round, "ns": seating.ns,
        "ew": seating.ew, "boards": list(seating.boards)})
    tables.publish(1, "board", 1, {"board": 1, "dealer": str(board.dealer),
                                   "vul": str(board.vulnerability)})
    tables.publish(1, "call", 1, {"seat": str(board.dealer), "call": "1NT"})
    wait_until(live_app, lambda: contiguous(live_app, 1) == 3)

    page.goto("/vugraph/1")
    # Tables 2 and 3 have board 1 still to play: its number, and nothing of it.
    expect(page.locator("#vugraph-withheld")).to_be_visible()
    assert page.locator("#vugraph-auction").count() == 0
    assert page.locator("#vugraph-hands").count() == 0 and page.locator(".holding").count() == 0
    assert "1ST" not in page.content() and "retraso" not in page.content()
    page.evaluate("window.bidboxSamePage = true")  # gone if the page reloads

    # Released by the director: the calls and the hands are public at once, with no reload.
    standings.release(services(live_app).db, tables.session, 1, "director")
    services(live_app).hub.notify({"results"})
    call = page.locator("#vugraph-auction td.call")
    expect(call).to_have_count(1, timeout=TIMEOUT * 1000)
    expect(call).to_contain_text("1ST")
    expect(page.locator("#vugraph-hands .hand")).to_have_count(4)
    deal = Deal.from_pbn(dealt(7, 1))
    spades = " ".join("10" if c.rank.char == "T" else c.rank.char for c in sorted(
        (c for c in deal[Seat.N] if str(c)[0] == "S"), key=lambda c: c.rank, reverse=True))
    expect(page.locator("#vugraph-hands .hand-N .holding").first).to_have_text(spades or "—")
    assert page.evaluate("window.bidboxSamePage") is True
