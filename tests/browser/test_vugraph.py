"""The public vugraph in a real browser, fed by a table publishing to a real broker.

The table's call reaches the page by itself once the delay has passed (the page's stream
tells it then, and not before), and no hand is on the page until the board is released.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from server import schema as s
from server import standings
from server.session import dealt
from tabled.rules import Board, Deal, Seat

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


def test_a_call_shows_after_the_delay_and_no_hand_before_release(
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
    stored = time.monotonic()

    page.goto("/vugraph/1")
    expect(page.locator("#vugraph-empty")).to_be_visible()  # nothing yet: not even the board
    assert page.locator("#vugraph-auction td.call").count() == 0
    assert time.monotonic() - stored < DELAY, "the page took longer than the delay to load"

    page.evaluate("window.bidboxSamePage = true")  # gone if the page reloads
    call = page.locator("#vugraph-auction td.call")
    expect(call).to_have_count(1, timeout=(DELAY + TIMEOUT) * 1000)
    assert time.monotonic() - stored >= DELAY  # not a moment sooner
    expect(call).to_contain_text("1ST")
    assert page.evaluate("window.bidboxSamePage") is True

    # No hand before the board is released: neither the hands' part nor any holding.
    assert page.locator("#vugraph-hands").count() == 0
    assert page.locator(".holding").count() == 0
    assert "Las manos se verán cuando el tablero se publique" in page.content()

    # Released by the director: the hands are public at once, with no reload.
    standings.release(services(live_app).db, tables.session, 1, "director")
    services(live_app).hub.notify({"results"})
    expect(page.locator("#vugraph-hands .hand")).to_have_count(4)
    deal = Deal.from_pbn(dealt(7, 1))
    spades = " ".join("10" if c.rank.char == "T" else c.rank.char for c in sorted(
        (c for c in deal[Seat.N] if str(c)[0] == "S"), key=lambda c: c.rank, reverse=True))
    expect(page.locator("#vugraph-hands .hand-N .holding").first).to_have_text(spades or "—")
    assert page.evaluate("window.bidboxSamePage") is True
