"""The hand viewer in Chromium (issue 31): the static site's page of a board, opened from the
disk as a club's visitor would, stepped through card by card: the hands lose the cards
played, the trick shows on the table, and the double-dummy figure follows each card.
``BIDBOX_SCREENSHOTS=docs/screenshots`` writes the picture the players' guide shows."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("endplay")
from flask import Flask
from playwright.sync_api import expect

from server.outputs import playanalysis, publish
from tests.fixtures.broker import TIMEOUT
from tests.server.conftest import make_app, services
from tests.server.test_exports import FIRST_BOARD
from tests.server.test_handviewer import played_session


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Path, Flask]]:
    app = make_app(str(tmp_path / "bidbox.db"))
    db = services(app).db
    session = played_session(app)
    for table, board, payload in playanalysis.jobs(db, session, set(session.plan.boards())):
        playanalysis.store(db, session, table, board, payload, playanalysis.solve(payload),
                           None)
    folder = tmp_path / "site"
    publish.write_site(db, session, folder)
    yield folder, app
    services(app).close()


def test_stepping_through_a_tables_play(chromium: Any, site: tuple[Path, Flask],
                                        tmp_path: Path) -> None:
    folder, _ = site
    context = chromium.new_context(locale="es-ES", viewport={"width": 900, "height": 1100})
    context.set_default_timeout(TIMEOUT * 1000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        tab.goto((folder / "es" / f"hands-{FIRST_BOARD}.html").as_uri())
        viewer = tab.locator("#viewer")
        expect(viewer).to_be_visible()
        expect(viewer.locator(".where")).to_have_text("Antes de la salida")
        held = viewer.locator(".hand[data-seat='N'] li")
        expect(held).to_have_count(4)
        before = tab.evaluate("document.querySelector('#viewer .dd').textContent")
        assert before.startswith("El bando del carteador puede hacer: ")
        for _ in range(5):
            viewer.locator("button[data-step='next']").click()
        expect(viewer.locator(".where")).to_have_text("Baza 2 · 1/4")
        expect(viewer.locator(".trick .spot")).to_have_count(1)  # the second trick's lead
        # the four hands hold 52 - 5 cards between them
        left = tab.evaluate("""[...document.querySelectorAll('#viewer .hand li')]
            .map(li => li.textContent.slice(2).trim()).filter(t => t !== '—')
            .map(t => t.split(' ').length).reduce((a, b) => a + b, 0)""")
        assert left == 47
        viewer.locator("button[data-step='last']").click()
        expect(viewer.locator(".where")).to_contain_text("Fin del carteo")
        viewer.locator(".tables button").nth(1).click()  # another table: from its start
        expect(viewer.locator(".where")).to_have_text("Antes de la salida")
        viewer.locator(".tables button").first.click()
        for _ in range(9):
            viewer.locator("button[data-step='next']").click()
        chosen = os.environ.get("BIDBOX_SCREENSHOTS")
        picture = Path(chosen) if chosen else tmp_path
        picture.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(picture / "hand-viewer.es.png"), full_page=False)
        assert not errors, errors
    finally:
        context.close()
