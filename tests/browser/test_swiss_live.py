"""A Swiss on the room's screen and the director's console, in Chromium: tables publish their
results over a real broker; the VP standings on the live page change by themselves once every
table has played a board (the release rule), never before; both languages. With
``BIDBOX_SCREENSHOTS=docs/screenshots`` the pictures go to the docs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from bidbox.broker import Broker, BrokerUsers
from server.link.rounds import create_session, start_round
from server.scoring.swiss import swiss_of
from server.setup.session import current
from tests.browser.conftest import DIRECTOR_PASSWORD, EVENT, Tables, services
from tests.browser.test_screenshots import _folder

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
expect = sync_api.expect


class SwissTables(Tables):
    """Four teams, two matches at tables 1-2 and 3-4, round 1 started (and so paired)."""

    def __init__(self, app: Flask, broker: Broker, users: BrokerUsers) -> None:
        self.app = app
        self.broker = broker
        self.users = users
        db = services(app).db
        session = create_session(db, event=EVENT, title="Suizo del jueves", kind="swiss",
                                 participants=4, boards_per_round=2, rounds=3, seed=11,
                                 names={1: "Los Ases", 2: "Peñíscola", 3: "Club Náutico",
                                        4: "Los Reyes"})
        start_round(db, session, 1, by="test")
        found = current(db, EVENT)
        assert found is not None
        self.session = found
        self.clients = {}
        self.seq = {}


@pytest.fixture
def swiss_tables(live_app: Flask, broker: Broker, broker_users: BrokerUsers) -> Any:
    found = SwissTables(live_app, broker, broker_users)
    yield found
    found.close()


def _vp(page: Any, team: int) -> str:
    return str(page.locator(f'#swiss tr[data-team="{team}"] td.score').inner_text())


def test_the_swiss_standings_follow_the_released_boards(page: Any, swiss_tables: SwissTables,
                                                        tmp_path: Path) -> None:
    tables = swiss_tables
    assert tables.session.pairings == (((1, 2), (3, 4)),)
    page.goto("/?lang=es")
    expect(page.locator("#swiss-heading")).to_have_text("Puntos de victoria")
    expect(page.locator("#live-status")).to_contain_text("En directo")
    assert [_vp(page, team) for team in (1, 2, 3, 4)] == ["0.00"] * 4
    # Board 1 at three tables of four: not released, the standings do not move.
    tables.play(1, 1, "4S", "N", 10)   # team 1 NS: 4S made
    tables.play(2, 1, "4S", "N", 9)    # team 2 NS: 4S one down
    tables.play(3, 1, "3NT", "S", 9)
    tables.stored(3)
    page.evaluate("window.bidboxSamePage = true")  # gone if the page reloads
    assert [_vp(page, team) for team in (1, 2, 3, 4)] == ["0.00"] * 4
    tables.play(4, 1, "3NT", "N", 9)   # the same result: match 2 is level
    expect(page.locator('#swiss tr[data-team="3"] td.score')).to_have_text("10.00")
    swiss = swiss_of(services(tables.app).db, tables.session, public=True)
    shown = {line.team: f"{line.vp:.2f}" for line in swiss.standings}
    assert float(shown[1]) > 10 > float(shown[2]) and shown[3] == shown[4] == "10.00"
    for team in (1, 2, 3, 4):
        expect(page.locator(f'#swiss tr[data-team="{team}"] td.score')).to_have_text(
            shown[team])
    # Ranked by VPs; the page drew them in the server's order, without reloading.
    order = page.locator("#swiss tr[data-team]").evaluate_all(
        "rows => rows.map(row => Number(row.dataset.team))")
    assert order == [line.team for line in swiss.standings]
    assert page.evaluate("window.bidboxSamePage") is True
    folder = _folder(tmp_path)
    page.screenshot(path=str(folder / "live-swiss.es.png"), full_page=True)

    page.goto("/?lang=en")
    expect(page.locator("#swiss-heading")).to_have_text("Victory points")
    expect(page.locator("#swiss")).to_contain_text("Round 1")

    page.goto("/console/login?lang=en")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", DIRECTOR_PASSWORD)
    page.click("button[type=submit]")
    page.goto("/console/results?lang=en")
    expect(page.locator("body")).to_contain_text("Swiss: standings in victory points")
    expect(page.locator("body")).to_contain_text("Matches of round 1")
    page.screenshot(path=str(folder / "console-swiss.en.png"), full_page=True)
