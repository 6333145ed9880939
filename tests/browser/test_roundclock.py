"""The round clock in Chromium, over a real broker: the live page and the console count the
round down to its end, the console then lists the tables still playing as late, the
director extends the round, and the pages and a table (through the retained clock message,
read with a table's own credentials) learn the new end.

The server's clock is injected: it runs with real time, shifted so that the round started
20 minutes ago less a few seconds, so the pages count the last seconds in real time (waits
on conditions, bounded; no sleep)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from flask import Flask

from server.link import round_times as roundclock
from server.link.rounds import start_round
from server.setup.session import current
from tablemodel.wire import clock_from_payload, clock_topic
from tests.browser.conftest import EVENT, TIMEOUT, Tables, services

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
expect = sync_api.expect

from tests.browser.test_console_live import open_console, sign_in  # noqa: E402

LEFT = 6.0  # seconds of the round left when the pages open


def shifted_clock(app: Flask, tables: Tables) -> float:
    """Round 1 of 20 minutes (warning at 5) started so that LEFT seconds are left now, on
    the server's clock; its end."""
    db = services(app).db
    roundclock.set_session_length(db, tables.session, 20, 5)
    offset = -(20 * 60 - LEFT)
    app.config["CLOCK"] = lambda: time.time() - offset
    start_round(db, tables.session, 1, by="test", clock=lambda: time.time())
    services(app).commands_queued()  # the bus publishes the retained clock
    session = current(db, EVENT)
    assert session is not None
    clock = roundclock.round_clock(db, session)
    assert clock is not None
    return clock.ends_at


def test_the_pages_count_the_round_down_and_the_director_extends_it(
        page: Any, live_app: Flask, tables: Tables, chromium: Any, base_url: str) -> None:
    ends = shifted_clock(live_app, tables)
    table = tables.client(1)
    table.subscribe(clock_topic(EVENT))  # as a table's uplink does, with its own login
    retained = clock_from_payload(table.expect(clock_topic(EVENT)).payload)
    assert (retained.round, retained.ends_at, retained.warning) == (1, ends, 5)

    # The live page, in Spanish: the warning, then the end.
    live = page.context.new_page()
    live.goto("/")
    shown = live.locator("#progress .round-clock")
    expect(shown).to_have_text(re.compile(r"Ronda 1: ¡solo quedan 0:0[1-6]!"))
    expect(shown).to_have_class(re.compile("stage-warning"))
    expect(shown).to_have_text("Ronda 1: tiempo cumplido", timeout=(LEFT + TIMEOUT) * 1000)
    expect(shown).to_have_class(re.compile("stage-over"))

    # The console, in English: over, and the tables still playing are marked late.
    sign_in(page)
    page.goto("/console/?lang=en")
    open_console(page)
    clock = page.locator("[data-fragment=clock] .round-clock")
    expect(clock).to_have_text("Round 1: time is up")
    late = page.locator("[data-fragment=clock] tr[data-late-table]")
    expect(late.first).to_contain_text("still playing")
    assert late.count() == len([s for s in tables.session.plan.round(1)
                                if 0 not in (s.ns, s.ew)])

    # The director extends the round by 5 minutes: from its end, so just under 5 left.
    page.fill("#extend-form input[name=extend_minutes]", "5")
    page.click("#extend-form button[type=submit]")
    expect(clock).to_have_text(re.compile(r"Round 1: only 4:[45]\d left!"))
    expect(page.locator("[data-fragment=clock] tr[data-late-table]")).to_have_count(0)
    # The live page fetches the progress again by itself, and counts on.
    expect(shown).to_have_text(re.compile(r"Ronda 1: ¡solo quedan 4:[45]\d!"))
    first = shown.text_content()
    expect(shown).not_to_have_text(first or "")
    # A table learns the new end from the retained clock.
    extended = clock_from_payload(table.expect(clock_topic(EVENT)).payload)
    assert extended.ends_at == ends + 300
    live.close()


def test_the_live_page_in_english_counts_down_to_time_is_up(
        page: Any, live_app: Flask, tables: Tables) -> None:
    shifted_clock(live_app, tables)
    page.goto("/?lang=en")
    shown = page.locator("#progress .round-clock")
    expect(shown).to_have_text(re.compile(r"Round 1: only 0:0[1-6] left!"))
    expect(shown).to_have_text("Round 1: time is up", timeout=(LEFT + TIMEOUT) * 1000)
