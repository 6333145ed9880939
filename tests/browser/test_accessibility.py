"""The pages with axe-core in Chromium (issue 34): the public pages, the room's screen, the
static site and every console page, in both languages and at a phone's size as well: no
violation of WCAG 2.1 A or AA, and the best practices clean (one main landmark, a level-one
heading, landmarks and page titles told apart)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from server.outputs.publish import write_site
from tests.browser import field as fields
from tests.browser.axe import violations
from tests.fixtures.broker import TIMEOUT


@pytest.fixture
def base_url(field_url: str) -> str:
    return field_url


PUBLIC = ("/", "/?lang=en", "/board/1", "/board/30?lang=es", "/board/999", "/vugraph/1",
          "/room", "/room?lang=en&show=progress", "/room?seconds=1")
CONSOLE = ("/console/", "/console/session", "/console/rulings", "/console/results",
           "/console/scoring", "/console/register", "/console/corrections",
           "/console/vugraph/1")


def checked(page: Any, address: str) -> list[str]:
    page.goto(address)
    expect(page.locator("h1")).to_have_count(1)
    return [f"{address}: {line}" for line in violations(page)]


def sign_in(page: Any) -> None:
    page.goto("/console/login")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", fields.DIRECTOR_PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url("**/console/")


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_the_public_pages_and_the_static_site(page: Any, field: fields.Field, tmp_path: Path,
                                             size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    found = [line for address in PUBLIC for line in checked(page, address)]
    site = tmp_path / "site"
    write_site(fields.services(field.app).db, field.session, site)
    for name in ("index.html", "es/index.html", "en/index.html", "es/board-1.html",
                 "en/board-30.html"):
        found += checked(page, (site / name).as_uri())
    assert found == []


def test_the_console(page: Any, field: fields.Field) -> None:
    found = checked(page, "/console/login")
    sign_in(page)
    titles = []
    for address in CONSOLE:
        found += checked(page, address)
        titles.append(page.title())
    assert found == []
    assert len(set(titles)) == len(titles), titles  # each page says which it is


def test_the_console_on_a_phone(page: Any, field: fields.Field) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page)
    found = [line for address in CONSOLE for line in checked(page, address)]
    assert found == []


def test_the_setup_form_and_its_refusals(chromium: Any, tmp_path: Path) -> None:
    """Before any session the console is the set-up form. A refusal marks the field to blame
    (aria-invalid, described by the message) and puts the focus on it; a refusal no field is
    to blame for puts the focus on the message."""
    for app in fields.empty_app(tmp_path):
        for address in fields.served(app):
            context = chromium.new_context(base_url=address, locale="es-ES")
            context.set_default_timeout(TIMEOUT * 1000)
            try:
                page = context.new_page()
                sign_in(page)
                assert violations(page) == []
                page.fill("input[name=title]", "Martes")
                page.fill("input[name=participants]", "8")
                page.fill("input[name=boards_per_round]", "2")
                page.fill("input[name=arrow_rounds]", "siete")
                page.click("form.stacked button[type=submit]")
                field = page.locator("input[name=arrow_rounds]")
                expect(field).to_be_focused()
                expect(field).to_have_attribute("aria-invalid", "true")
                expect(page.locator("#setup-error")).to_contain_text("siete")
                assert field.get_attribute("aria-describedby") == "setup-error"
                assert violations(page) == []
                page.fill("input[name=arrow_rounds]", "")
                page.fill("input[name=participants]", "3")  # too few for a Mitchell
                page.click("form.stacked button[type=submit]")
                expect(page.locator("#setup-error")).to_be_focused()
                assert page.locator("[aria-invalid=true]").count() == 0
                assert page.locator("input[name=title]").input_value() == "Martes"  # kept
            finally:
                context.close()
