"""The rankings of a field in sections, a page at a time and searched, in Chromium (issue 29):
the page asked stays the page shown when the results change, on the live page and in the
director's console."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from bench.live_page import PASSWORD, build_field
from server import create_app
from tests.browser.conftest import services
from tests.fixtures.broker import TIMEOUT

TABLES, SECTION = 60, 20  # 120 pairs in sections A-C: two pages of the rankings
WATCH = """(selector) => {
  window.__redrawn = 0;
  new MutationObserver(() => { window.__redrawn += 1; })
    .observe(document.querySelector(selector), {childList: true});
}"""


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "field.db"),
                      "EVENT": "simultaneo", "SECRET_KEY": "rankings-test",
                      "DIRECTOR_PASSWORD": PASSWORD, "ANALYSIS": False})
    try:
        build_field(app, TABLES, SECTION)
        yield app
    finally:
        services(app).close()


@pytest.fixture
def base_url(app: Flask) -> Iterator[str]:
    from tests.browser.field import served
    yield from served(app)


def shown(page: Any, box: str = "#rankings") -> list[int]:
    return [int(n) for n in page.locator(f"{box} tr[data-participant]").evaluate_all(
        "(rows) => rows.map((row) => row.dataset.participant)")]


def redrawn_after_a_change(page: Any, app: Flask, box: str) -> None:
    """The results change (as ingest tells the hub); wait until the page drew them again."""
    page.evaluate(WATCH, box)
    services(app).hub.notify({"results"})
    page.wait_for_function("() => window.__redrawn > 0", timeout=TIMEOUT * 1000)


def test_the_live_page_keeps_the_page_and_search_asked(page: Any, app: Flask) -> None:
    page.goto("/")
    first = shown(page)
    assert len(first) == 100
    assert page.locator(".ranking-count").inner_text() == "Parejas 1 a 100 de 120"
    page.get_by_role("link", name="Siguiente").click()
    page.wait_for_url(re.compile(r"\?page=2$"))
    second = shown(page)
    assert len(second) == 20 and not set(second) & set(first)
    redrawn_after_a_change(page, app, "#rankings")
    assert shown(page) == second  # still page 2, drawn from the API's page 2
    assert "Página 2 de 2" in page.locator("#ranking-pages").inner_text()

    page.get_by_label("Sección").select_option("B")
    page.get_by_role("button", name="Buscar").click()
    page.wait_for_url(re.compile(r"section=B"))
    labels = page.locator("#rankings td.pair").all_inner_texts()
    assert len(labels) == 40 and all(label.startswith("B") for label in labels)

    page.get_by_role("searchbox").fill("42")
    page.get_by_role("button", name="Buscar").click()
    page.wait_for_url(re.compile(r"q=42"))
    # Pair 42 is in section B; "B2" and "B22" are not 42.
    assert shown(page) == [42]
    redrawn_after_a_change(page, app, "#rankings")
    assert shown(page) == [42]
    assert "1 de 120 parejas coinciden" in page.locator(".ranking-count").inner_text()
    page.get_by_role("link", name="Ver todas").click()
    page.wait_for_url(re.compile(r"/$"))
    assert shown(page) == first


def test_the_console_keeps_the_directors_search(page: Any, app: Flask) -> None:
    page.goto("/console/login")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/console/**")
    page.goto("/console/results?section=C")
    box = "[data-fragment=rankings]"
    wanted = shown(page, box)
    assert len(wanted) == 40
    redrawn_after_a_change(page, app, box)
    assert shown(page, box) == wanted  # the fragment fetched with the page's query
    assert page.locator(f"{box} .ranking-count").inner_text() == "40 de 120 parejas coinciden"


def test_a_change_before_the_consoles_stream_opens_is_not_missed(page: Any, app: Flask) -> None:
    """The results change after the page was built but before its stream opened (held here
    until then): the stream cannot tell that change, so its hello makes the page fetch its
    live parts again."""
    held: list[Any] = []
    page.route("**/console/stream", lambda route: held.append(route))
    page.goto("/console/login")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/console/**")
    held.clear()  # the pages before: their streams are gone with them
    page.goto("/console/results?section=C")
    box = "[data-fragment=rankings]"
    page.evaluate(WATCH, box)
    deadline = time.monotonic() + TIMEOUT
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # lets the page's requests reach the route
    assert held, "the console opened no stream"
    services(app).hub.notify({"results"})  # the change, with the stream not open yet
    held[-1].continue_()
    page.wait_for_function("() => window.__redrawn > 0", timeout=TIMEOUT * 1000)
    assert len(shown(page, box)) == 40
