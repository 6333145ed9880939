"""The next session set up in the console, in a real browser, with the server on a real
broker: the set-up's new choices (the name on the network, the public vugraph), the list of
sessions, and the tables told over MQTT which session runs. ``BIDBOX_SCREENSHOTS=
docs/screenshots`` writes the pictures docs/console.md shows; otherwise they go to the
test's temporary folder."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from tablemodel.running import SESSION_TOPIC, RunningSession
from tests.browser.conftest import DIRECTOR_PASSWORD, EVENT, Tables, services, wait_until
from tests.browser.test_screenshots import _folder
from tests.fixtures.broker import MqttClient


def test_the_next_session_is_set_up_in_the_console_and_the_tables_told(
        page: Any, tables: Tables, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    first = tables.session
    listener = MqttClient(tables.broker, tables.users.table(2))
    listener.connect()
    try:
        listener.subscribe(SESSION_TOPIC)
        page.set_viewport_size({"width": 1200, "height": 900})
        page.goto("/console/login?lang=en")
        page.fill("input[name=username]", "director")
        page.fill("input[name=password]", DIRECTOR_PASSWORD)
        page.click("button[type=submit]")
        page.click("text=Sessions")
        page.click("#new-session")
        expect(page.locator("h1")).to_have_text("Set up the next session")
        expect(page.locator("#next-session")).to_contain_text(first.title)
        today = datetime.date.today().isoformat()
        expect(page.locator("input[name=event]")).to_have_attribute(
            "placeholder", f"{EVENT}-{today}")
        page.fill("input[name=title]", "Jueves por la tarde")
        page.select_option("select[name=movement]", "howell")
        page.fill("input[name=participants]", "8")
        page.fill("input[name=boards_per_round]", "3")
        page.select_option("select[name=vugraph]", "off")
        page.screenshot(path=str(folder / "console-setup-next.en.png"), full_page=True)
        page.click("button:has-text('Create the session')")
        expect(page.locator(".flashes")).to_contain_text("The tables move to")

        second = services(tables.app).session
        assert second is not None and second.event == f"{EVENT}-{today}"
        assert second.vugraph == "off" and services(tables.app).event == second.event
        # Every table hears it from the broker: the retained message of the running session.
        message = listener.expect(SESSION_TOPIC)
        while RunningSession.from_payload(message.payload).event != second.event:
            message = listener.expect(SESSION_TOPIC)
        assert RunningSession.from_payload(message.payload).title == "Jueves por la tarde"

        page.goto("/console/sessions?lang=en")
        rows = page.locator("#sessions tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.first).to_contain_text("Jueves por la tarde")
        expect(rows.nth(1)).to_contain_text(first.title)
        expect(rows.nth(1).locator("a", has_text="PBN")).to_have_attribute(
            "href", f"/console/export/pbn?session={first.id}")
        page.screenshot(path=str(folder / "console-sessions.en.png"), full_page=True)

        page.goto("/console/session?lang=en")
        expect(page.locator("#public-vugraph select")).to_have_value("off")
        page.locator("#public-vugraph").screenshot(
            path=str(folder / "console-vugraph-switch.en.png"))

        # Back to the first: the server's bus follows, and says so to the tables.
        page.goto("/console/sessions?lang=en")
        page.click("button:has-text('Run this session again')")
        wait_until(tables.app, lambda: services(tables.app).event == first.event)
        message = listener.expect(SESSION_TOPIC)
        while RunningSession.from_payload(message.payload).event != first.event:
            message = listener.expect(SESSION_TOPIC)
    finally:
        listener.close()
    for name in ("console-setup-next.en", "console-sessions.en", "console-vugraph-switch.en"):
        picture = folder / f"{name}.png"
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 5_000
