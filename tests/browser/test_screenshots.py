"""The live results display and the director console as a reader of docs/ sees them: a
session with results, photographed in the browser. ``BIDBOX_SCREENSHOTS=docs/screenshots``
writes the pictures the docs show; otherwise they go to the test's temporary folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from server.link import director_calls as rulings
from tests.browser.conftest import DIRECTOR_PASSWORD, EVENT, Tables, services, wait_until
from tests.browser.test_live import connected

PLAYED = {1: ("3NT", "N", 9), 2: ("4S", "E", 10), 3: ("2HX", "S", 7), 4: ("5DX", "W", 10)}


def _folder(tmp_path: Path) -> Path:
    chosen = os.environ.get("BIDBOX_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_pictures_of_the_live_display_and_the_console(page: Any, tables: Tables,
                                                      tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    # Before any board is released the screen shows where the session is.
    from server.link.rounds import start_round

    start_round(services(tables.app).db, tables.session, 1, by="test")
    for seat in tables.session.plan.round(1):
        if 0 not in (seat.ns, seat.ew):
            tables.state(seat.table, ("auction", "play", "players")[seat.table % 3],
                         seat.boards[0], 1)
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto("/")
    connected(page)
    expect(page.locator("#progress li.stage-playing")).not_to_have_count(0)
    page.screenshot(path=str(folder / "live-progress.png"), full_page=True)
    for number in range(2, tables.session.rounds + 1):  # the boards below need every round
        start_round(services(tables.app).db, tables.session, number, by="test")

    count = 0
    for board, (contract, declarer, tricks) in PLAYED.items():
        for number, seat in enumerate(tables.schedule(board)):
            # Some tables make an overtrick or go one down, so the travellers differ.
            tables.play(seat.table, board, contract, declarer, tricks + (number % 3) - 1,
                        lead="SK")
            count += 1
    tables.stored(count)
    tables.publish(1, "director", 3, {"seat": "E", "reason": "revoke", "law": "64"})
    db = services(tables.app).db
    wait_until(tables.app, lambda: bool(rulings.calls(db, EVENT)))

    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto("/")
    connected(page)
    expect(page.locator("#rankings tbody tr")).not_to_have_count(0)
    page.screenshot(path=str(folder / "live-results.png"), full_page=True)

    page.goto("/board/1?lang=en")
    expect(page.locator("body")).to_contain_text("Traveller")
    page.screenshot(path=str(folder / "board.png"), full_page=True)

    page.goto("/console/login?lang=en")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", DIRECTOR_PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("body")).to_contain_text("Revoke")
    page.screenshot(path=str(folder / "console.png"), full_page=True)

    page.goto("/console/results?lang=en")
    expect(page.locator("body")).to_contain_text("4S E")
    page.screenshot(path=str(folder / "console-results.png"), full_page=True)

    for name in ("live-progress", "live-results", "board", "console", "console-results"):
        picture = folder / f"{name}.png"
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 10_000
