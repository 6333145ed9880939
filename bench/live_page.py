"""The live results for a national simultaneous's field, in Chromium: first paint and the
update after each change, on the public page and the director's console, with the rankings
a page at a time (server/pages/rankview.py).

    python3 -m bench.live_page [--tables 5000] [--section-tables 25] [--changes 30] [--json]

The field: ``--tables`` tables in sections of ``--section-tables`` (5,000 tables: 200
sections, 10,000 pairs ranked in 400 groups), one board each, every table's result stored
through ingest as the bus hands it over, so that every board is released; the pairs named.
The app on a fresh SQLite file, served by waitress on a loopback port, as ``bidbox server``
serves it; Debian's Chromium, headless, through Playwright.

For each page (the live page's first page, its section B, a search for a name that a
tenth of the pairs share, a search for a pair's number, the console's results page signed
in, and the console's tables page, its first page of the grid):

- **first paint**: the page loaded afresh ``--loads`` times, Chromium's own
  first-contentful-paint (from the navigation's start);
- **update**: ``--changes`` times, the results change (the live hub says so, as ingest does
  after a batch) and the page fetches and draws again; from the change to the rankings' box
  replaced in the page (on the tables page: table 1's change, to its row redrawn; a
  MutationObserver's instant, ``performance.timeOrigin + performance.now()``, against the
  same machine's clock).

The baseline, in the same run: the whole rankings as the page fetched them before
(``/api/v1/rankings`` without a page), and a page of them, each fetched ``--loads`` times by
a bare HTTP client; their sizes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from flask import Flask

EVENT = "simultaneo"
PASSWORD = "bench-director"
CHROMIUM = Path(os.environ.get("BIDBOX_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking"]
FIRST = ("María José", "Juan Carlos", "Ana Isabel", "Francisco Javier", "Pilar", "Íñigo",
         "Begoña", "José Antonio", "Mercedes", "Luis Miguel")
LAST = ("Fernández", "García", "Martínez", "López", "Sánchez", "Pérez", "Gómez", "Ruiz",
        "Olabarrieta", "Díaz")
CONTRACTS = (("3NT", "N", 9), ("4S", "E", 10), ("2H", "S", 8), ("5D", "W", 11),
             ("1NT", "W", 7), ("4H", "S", 10))


def build_field(app: Flask, tables: int, section_tables: int) -> Any:
    """The field played: every table's one board, in sections; the session."""
    from laws import Board, Seat, parse_contract
    from laws.scoring import score_ns
    from server.link.rounds import create_session
    from server.setup.movements import Section, section_letters
    from server.setup.session import set_names
    from tablemodel.wire import Event, EventType, table_topic

    services = app.extensions["bidbox"]
    counts = [section_tables] * (tables // section_tables)
    if tables % section_tables:
        counts.append(tables % section_tables)
    sections = [Section(letter, "mitchell", 2 * count, 1, rounds=1)
                for letter, count in zip(section_letters(len(counts)), counts, strict=True)]
    session = create_session(services.db, event=EVENT, title="Simultáneo nacional",
                             kind="mitchell", participants=2 * tables, boards_per_round=1,
                             rounds=1, seed=29, sections=sections if len(sections) > 1 else None)
    set_names(services.db, session, {
        n: f"{FIRST[n % 10]} {LAST[(n * 3) % 10]} – {FIRST[(n + 4) % 10]} {LAST[(n * 7) % 10]}"
        for n in range(1, 2 * tables + 1)})
    batch: list[tuple[str, bytes]] = []
    for seat in session.plan.round(1):
        board = seat.boards[0]
        contract, declarer, tricks = CONTRACTS[(seat.table * 7) % len(CONTRACTS)]
        tricks += seat.table % 3 - 1
        topic = table_topic(EVENT, seat.table, "events")
        batch.append((topic, Event(1, EventType.ASSIGN, 1.8e9, None, {
            "cmd": f"assign-{EVENT}-r1-t{seat.table}", "round": 1, "ns": seat.ns,
            "ew": seat.ew, "boards": [board]}).to_payload()))
        batch.append((topic, Event(2, EventType.RESULT, 1.8e9 + 1, board, {
            "contract": contract, "declarer": declarer, "tricks": tricks,
            "score_ns": score_ns(parse_contract(contract), Seat.from_str(declarer), tricks,
                                 Board(board).vulnerability)}).to_payload()))
        if len(batch) >= 1000:
            _store(services, batch)
    _store(services, batch)
    services.hub.notify({"results", "tables"})
    return session


def _store(services: Any, batch: list[tuple[str, bytes]]) -> None:
    for outcome in services.ingest.many(batch):
        if outcome.rejected is not None:
            raise RuntimeError(f"the field's event was refused: {outcome.rejected}")
    batch.clear()


def percentile(values: Sequence[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)], 1)


WATCH = """(selector) => {
  window.__updates = [];
  const box = document.querySelector(selector);
  new MutationObserver(() => window.__updates.push(performance.timeOrigin + performance.now()))
    .observe(box, {childList: true, subtree: true});
}"""


def measure(browser: Any, base: str, path: str, box: str, app: Flask, loads: int,
            changes: int, login: bool = False, rows_of: str = "tr[data-participant]",
            table: int | None = None) -> dict[str, Any]:
    """``table``: the change is that table's (the console's tables grid redraws its row);
    else the results changed (the rankings' box is drawn again)."""
    context = browser.new_context(base_url=base, locale="es-ES")
    context.set_default_timeout(120_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        if login:
            tab.goto("/console/login")
            tab.fill("input[name=username]", "director")
            tab.fill("input[name=password]", PASSWORD)
            tab.click("button[type=submit]")
            tab.wait_for_url("**/console/**")
        paints = []
        for _ in range(loads):
            tab.goto(path, wait_until="load")
            paint = tab.evaluate("""() => new Promise((done) => {
              const seen = () => performance.getEntriesByName("first-contentful-paint")[0];
              if (seen()) return done(seen().startTime);
              new PerformanceObserver(() => seen() && done(seen().startTime))
                .observe({type: "paint", buffered: true});
            })""")
            paints.append(float(paint))
        rows = tab.locator(f"{box} {rows_of}").count()
        # One change at a time; a change before the stream opened is told by its hello.
        tab.evaluate(WATCH, box)
        hub = app.extensions["bidbox"].hub
        updates = []
        for k in range(changes):
            before = tab.evaluate("() => window.__updates.length")
            changed = time.time() * 1000
            if table is None:
                hub.notify({"results"})
            else:
                hub.notify({"tables"}, tables=[table])
            tab.wait_for_function(f"() => window.__updates.length > {before}", timeout=120_000)
            at = tab.evaluate(f"() => window.__updates[{before}]")
            updates.append(float(at) - changed)
            if k == 0:
                updates.clear()  # the first after the stream opened may have been queued
        html_bytes = len(tab.content().encode())
    finally:
        context.close()
    if errors:
        raise RuntimeError(f"{path}: script errors: {errors[:3]}")
    return {"page": path, "rows": rows, "html_kb": round(html_bytes / 1024, 1),
            "first_paint_ms_p50": percentile(paints, 50),
            "first_paint_ms_max": percentile(paints, 100),
            "update_ms_p50": percentile(updates, 50), "update_ms_p99": percentile(updates, 99),
            "updates": len(updates)}


def fetch_times(base: str, path: str, loads: int) -> dict[str, Any]:
    times, size = [], 0
    for _ in range(loads):
        begun = time.perf_counter()
        with urllib.request.urlopen(base + path, timeout=120) as response:
            size = len(response.read())
        times.append((time.perf_counter() - begun) * 1000)
    return {"fetch": path, "kb": round(size / 1024, 1), "ms_p50": percentile(times, 50),
            "ms_max": percentile(times, 100)}


def served(app: Flask) -> Iterator[str]:
    from server.serve import serve
    running = serve(app, port=0, threads=16)
    try:
        yield running.address
    finally:
        running.stop(30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m bench.live_page", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=5000)
    parser.add_argument("--section-tables", type=int, default=25)
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=None, help="(unused: bench.__main__)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("playwright is not installed: scripts/setup.py", file=sys.stderr)
        return 2
    if not CHROMIUM.is_file():
        print(f"no Chromium at {CHROMIUM}: apt-get install chromium", file=sys.stderr)
        return 2
    from server import create_app

    load_before = "/".join(f"{x:.1f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="bidbox-live-page-") as folder:
        app = create_app({"DATABASE": str(Path(folder) / "field.db"), "EVENT": EVENT,
                          "SECRET_KEY": "bench", "DIRECTOR_PASSWORD": PASSWORD,
                          "ANALYSIS": False, "MAX_STREAMS": 16})
        try:
            started = time.monotonic()
            build_field(app, args.tables, args.section_tables)
            built = time.monotonic() - started
            runs: list[dict[str, Any]] = []
            for base in served(app):
                baseline = [fetch_times(base, "/api/v1/rankings", args.loads),
                            fetch_times(base, "/api/v1/rankings?page=1", args.loads)]
                with sync_playwright() as playwright:
                    browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                         args=CHROMIUM_ARGS)
                    try:
                        for path, box, login in (
                                ("/", "#rankings", False),
                                ("/?section=B", "#rankings", False),
                                ("/?q=juan+carlos+lopez", "#rankings", False),
                                ("/?q=42", "#rankings", False),
                                ("/console/results", "[data-fragment=rankings]", True)):
                            runs.append(measure(browser, base, path, box, app, args.loads,
                                                args.changes, login))
                            print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
                        # The director's tables page: its first page of the grid, a table
                        # on it changing (its row fetched and redrawn).
                        runs.append(measure(browser, base, "/console/",
                                            "[data-fragment=tables]", app, args.loads,
                                            args.changes, True, "tr[data-table]", table=1))
                        print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
                    finally:
                        browser.close()
        finally:
            app.extensions["bidbox"].close()
    header = {"tables": args.tables, "pairs": 2 * args.tables,
              "sections": math.ceil(args.tables / args.section_tables),
              "field_built_s": round(built, 1), "cpus": os.cpu_count(),
              "load_before": load_before,
              "load_after": "/".join(f"{x:.1f}" for x in os.getloadavg())}
    if args.json:
        print(json.dumps({**header, "baseline": baseline, "pages": runs}))
        return 0
    print(f"bench.live_page: {header['tables']} tables, {header['pairs']} pairs in "
          f"{header['sections']} sections (built in {header['field_built_s']} s), "
          f"{header['cpus']} cores, load {header['load_before']} -> {header['load_after']}")
    for b in baseline:
        print(f"  baseline {b['fetch']}: {b['kb']} KB, p50 {b['ms_p50']} ms, max "
              f"{b['ms_max']} ms (a bare HTTP client)")
    for r in runs:
        print(f"  {r['page']}: {r['rows']} rows, {r['html_kb']} KB; first paint p50 "
              f"{r['first_paint_ms_p50']} max {r['first_paint_ms_max']} ms; update p50 "
              f"{r['update_ms_p50']} p99 {r['update_ms_p99']} ms (n={r['updates']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
