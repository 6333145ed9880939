"""The console's scoring page (issue 18) as the director uses it, in a real browser: a Law 90
penalty and a weighted score (Law 12C1(c)) given through its forms, then photographed in
Spanish and English. ``BIDBOX_SCREENSHOTS=docs/screenshots`` writes the pictures docs/console.md
shows; otherwise they go to the test's temporary folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from server.link.rounds import start_round
from server.scoring import adjusted, penalties
from server.texts.i18n import PAGES
from tests.browser.conftest import DIRECTOR_PASSWORD, Tables, services
from tests.browser.test_screenshots import PLAYED, _folder

WEIGHTED = "30% 4S E 10 + 70% 4S E 9"


def _play_the_session(tables: Tables) -> int:
    db = services(tables.app).db
    for number in range(1, tables.session.rounds + 1):
        start_round(db, tables.session, number, by="test")
    count = 0
    for board, (contract, declarer, tricks) in PLAYED.items():
        for number, seat in enumerate(tables.schedule(board)):
            tables.play(seat.table, board, contract, declarer, tricks + (number % 3) - 1)
            count += 1
    tables.stored(count)
    return tables.schedule(2)[0].table  # a table that played 4S E on board 2


def test_the_scoring_page_takes_a_penalty_and_a_weighted_score(page: Any, tables: Tables,
                                                                tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    table = _play_the_session(tables)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/console/login?lang=en")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", DIRECTOR_PASSWORD)
    page.click("button[type=submit]")
    page.goto("/console/scoring?lang=en")
    expect(page.locator("h1")).to_have_text(PAGES.text("scoring_title", "en"))

    # Law 90: a quarter of a top from pair 3, through the form as the director gives it.
    form = page.locator("form.penalty")
    form.locator("select[name=participant]").select_option("3")
    form.locator("select[name=law]").select_option("90")
    form.locator("input[name=amount]").fill("25")
    form.locator("select[name=unit]").select_option("top")
    form.locator("input[name=note]").fill("Slow play")
    form.locator("button[type=submit]").click()
    expect(page.locator("table.penalties tbody tr")).to_have_count(1)
    expect(page.locator("table.penalties")).to_contain_text("Slow play")

    # Law 12C1(c): a weighted score for the table that played 4S E on board 2.
    form = page.locator("form.assign")
    form.locator("input[name=table]").fill(str(table))
    form.locator("input[name=board]").fill("2")
    form.locator("input[name=ns]").fill(WEIGHTED)
    form.locator("input[name=note]").fill("Misinformation, Law 21B")
    form.locator("button[type=submit]").click()
    expect(page.locator("body")).to_contain_text(f"Table {table}, board 2:")

    # What the page did is what the service layer holds.
    db = services(tables.app).db
    [given] = penalties.given(db, tables.session)
    assert (given.participant, given.law, given.unit, given.amount) == (3, "90", "top", 25.0)
    [weighted] = adjusted.assigned_of(db, tables.session).values()
    assert [part.weight for part in weighted.ns] == [30, 70]

    for language in ("es", "en"):
        page.goto(f"/console/scoring?lang={language}")
        expect(page.locator("h1")).to_have_text(PAGES.text("scoring_title", language))
        expect(page.locator("#penalties")).to_have_text(PAGES.text("scoring_penalties", language))
        expect(page.locator("table.penalties")).to_contain_text(
            PAGES.text("scoring_law_90", language))
        picture = folder / f"console-scoring.{language}.png"
        page.screenshot(path=str(picture), full_page=True)
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert picture.stat().st_size > 10_000
