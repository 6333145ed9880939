"""The console's switches for what the tables show after each board (issue 32), in a real
browser, with the server on a real broker: the director turns a page off on the Session
page, and a table's own retained message says so at once. ``BIDBOX_SCREENSHOTS=
docs/screenshots`` writes the pictures docs/console.md shows; otherwise they go to the
test's temporary folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from server.link import afterboard
from tablemodel.wire import afterboard_topic
from tests.browser.conftest import DIRECTOR_PASSWORD, EVENT, Tables, services
from tests.browser.test_screenshots import _folder
from tests.fixtures.broker import MqttClient


def _shown(listener: MqttClient) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(listener.expect(afterboard_topic(EVENT, 1)).payload)
    return found


def test_the_director_turns_the_after_board_pages_on_and_off(
        page: Any, tables: Tables, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    # The session was made without the console: say so, as the console does.
    services(tables.app).hub.notify({"session"})
    listener = MqttClient(tables.broker, tables.users.table(1))
    listener.connect()
    try:
        listener.subscribe(afterboard_topic(EVENT, 1))
        assert _shown(listener)["show"] == {"score": True, "traveller": True, "record": True}
        page.set_viewport_size({"width": 1200, "height": 900})
        page.goto("/console/login?lang=en")
        page.fill("input[name=username]", "director")
        page.fill("input[name=password]", DIRECTOR_PASSWORD)
        page.click("button[type=submit]")
        page.goto("/console/session?lang=en")
        form = page.locator("#after-board")
        expect(form.locator("input[type=checkbox]")).to_have_count(3)
        form.locator("input[name=after_record]").uncheck()
        form.screenshot(path=str(folder / "console-after-board.en.png"))
        form.locator("button[type=submit]").click()
        expect(page.locator(".flashes")).to_contain_text(
            "The tables show after each board: the pair's percentage or IMPs; "
            "the board's traveller")
        expect(page.locator("#after-board input[name=after_record]")).not_to_be_checked()
        db = services(tables.app).db
        session = services(tables.app).session
        assert session is not None
        assert afterboard.pages_of(db, session) == afterboard.Pages(True, True, False)
        # Table 1 reads it from its own topic at once.
        shown = _shown(listener)
        assert shown["show"] == {"score": True, "traveller": True, "record": False}

        page.goto("/console/session?lang=es")
        expect(page.locator("#after-board legend")).to_have_text(
            "En las mesas, tras cada tablero")
        page.locator("#after-board").screenshot(path=str(folder / "console-after-board.es.png"))
        page.goto("/console/new?lang=en")
        setup = page.locator("#after-board")
        expect(setup.locator("input[type=checkbox]:checked")).to_have_count(3)  # all, fresh
        setup.screenshot(path=str(folder / "console-setup-after-board.en.png"))
    finally:
        listener.close()
    for name in ("console-after-board.en", "console-after-board.es",
                 "console-setup-after-board.en"):
        picture = folder / f"{name}.png"
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 2_000
