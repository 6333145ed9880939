"""Every page satisfies the strict Content-Security-Policy it is served with
(server/pages/headers.py): Chromium loads each one, its scripts run, and it reports no
violation (issue 20).

The ``page`` fixture already fails any browser test on a CSP message in the console; here
each page is also asked for the ``securitypolicyviolation`` events it saw, and a page of
another origin tries to frame the console.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from server.link.rounds import start_round
from server.setup import pair_cards as syscards
from tests.browser.conftest import DIRECTOR_PASSWORD, TIMEOUT, Tables, services
from tests.browser.test_live import connected

WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline'));
});
"""


def violations(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


def sign_in(page: Any) -> None:
    page.goto("/console/login")
    assert violations(page) == []
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", DIRECTOR_PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url("**/console/")


def visit(page: Any, path: str, shows: str) -> None:
    page.goto(path)
    expect(page.locator("body")).to_contain_text(shows)
    assert violations(page) == [], path


def test_every_page_keeps_to_the_policy(page: Any, tables: Tables) -> None:
    page.context.add_init_script(WATCH)
    db = services(tables.app).db
    syscards.store_example(db, tables.session, 1, by="test")
    for number in range(1, tables.session.rounds + 1):
        start_round(db, tables.session, number, by="test")
    count = 0
    for seat in tables.schedule(1):
        tables.play(seat.table, 1, "4S", "N", 10, lead="HK")
        count += 1
    tables.stored(count)

    page.goto("/")
    connected(page)  # the page's scripts ran and opened the stream
    expect(page.locator("#rankings tbody tr")).not_to_have_count(0)
    assert violations(page) == []
    visit(page, "/?lang=en", "Live")  # English from here on (a cookie)
    visit(page, "/board/1", "Traveller")
    visit(page, "/vugraph/1", "1")
    sign_in(page)
    expect(page.locator("body")).to_contain_text("Tables")
    assert violations(page) == []
    for path, shows in (("/console/session", "Session"), ("/console/rulings", "Rulings"),
                        ("/console/results", "4S"), ("/console/corrections", "Corrections"),
                        ("/console/cards/1", "1"), ("/console/vugraph/1", "1")):
        visit(page, path, shows)


def test_the_setup_page_keeps_to_the_policy(page: Any) -> None:
    """No session yet: the console's first page is the session's setup form."""
    page.context.add_init_script(WATCH)
    visit(page, "/?lang=en", "No session")
    sign_in(page)
    expect(page.locator("form.stacked")).to_be_visible()
    assert violations(page) == []


class Site:
    """Another site (another origin, on loopback) answering every GET with ``html``."""

    def __init__(self, html: str) -> None:
        body = html.encode()

        class Page(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(TIMEOUT)


def framed_forms(chromium: Any, target: str) -> int:
    """How many sign-in forms a page elsewhere shows inside its frame of ``target``. (Its own
    context: a refusal is a CSP message in the console, which the ``page`` fixture fails on.)"""
    elsewhere = Site(f'<!doctype html><iframe src="{target}" '
                     'onload="window.framed = true"></iframe>')
    context = chromium.new_context()
    try:
        tab = context.new_page()
        tab.goto(elsewhere.url)
        tab.wait_for_function("() => window.framed === true", timeout=TIMEOUT * 1000)
        count: int = tab.frames[1].locator("form.login").count()
        return count
    finally:
        context.close()
        elsewhere.close()


def test_another_site_cannot_frame_the_console(chromium: Any, base_url: str) -> None:
    """frame-ancestors 'none' (and X-Frame-Options DENY): a page elsewhere that frames the
    console's sign-in gets Chromium's error page in the frame, not the form."""
    assert framed_forms(chromium, f"{base_url}/console/login") == 0
    # The control: the same framing of a third site's form without those headers shows it.
    unprotected = Site('<!doctype html><form class="login"><input name="password"></form>')
    try:
        assert framed_forms(chromium, unprotected.url) == 1
    finally:
        unprotected.close()
