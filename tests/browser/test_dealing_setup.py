"""The set-up's choice of who deals (issue 32), in a real browser: the director picks "boards
dealt at the table" for the next session; the session is created without hand records and
its tables are told to capture them. ``BIDBOX_SCREENSHOTS=docs/screenshots`` writes the
pictures docs/director.*.md show; otherwise they go to the test's temporary folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from server.setup.session import deals_of
from tests.browser.conftest import DIRECTOR_PASSWORD, Tables, services
from tests.browser.test_screenshots import _folder


def test_the_director_chooses_boards_dealt_at_the_table(page: Any, tables: Tables,
                                                        tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    page.set_viewport_size({"width": 1200, "height": 900})
    page.goto("/console/login?lang=en")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", DIRECTOR_PASSWORD)
    page.click("button[type=submit]")
    for language, choice in (("es", "Se barajan y reparten en la mesa"),
                             ("en", "Boards dealt at the table")):
        page.goto(f"/console/new?lang={language}")
        dealing = page.locator("fieldset.dealing")
        expect(dealing.locator("input[value=server]")).to_be_checked()
        dealing.get_by_label(choice).check()
        expect(dealing.locator("input[value=table]")).to_be_checked()
        page.locator("fieldset:has(fieldset.dealing)").screenshot(
            path=str(folder / f"console-setup-dealing.{language}.png"))
    page.fill("input[name=title]", "Martes en la mesa")
    page.select_option("select[name=movement]", "mitchell")
    page.fill("input[name=participants]", "10")
    page.fill("input[name=boards_per_round]", "2")
    # A seed with it is refused, and the field to blame named.
    page.fill("input[name=seed]", "12")
    page.click("button:has-text('Create the session')")
    expect(page.locator("body")).to_contain_text("leave both empty")
    page.fill("input[name=seed]", "")
    page.get_by_label("Boards dealt at the table").check()
    page.click("button:has-text('Create the session')")
    expect(page.locator(".flashes")).to_contain_text("The boards are dealt at the table")
    made = services(tables.app).session
    assert made is not None and made.title == "Martes en la mesa" and made.dealt_at_table
    assert deals_of(services(tables.app).db, made) == {}
    for language in ("es", "en"):
        picture = folder / f"console-setup-dealing.{language}.png"
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 5_000
