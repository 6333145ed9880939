"""``bidbox loadtest`` as a user runs it, through the real CLI in a subprocess: simulated
tables, a private Mosquitto, the real server; the JSON it prints holds what it measured."""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from bidbox.broker import find_mosquitto
from bidbox.loadtest import (
    MAX_TABLES_PER_SHARD,
    DirectorBrowser,
    LoadSettings,
    LoadTestError,
    Report,
    run,
    shown_events,
    table_cores,
)
from server.link.rounds import create_session
from tablemodel.wire import Event, table_topic
from tests import processes
from tests.server.conftest import (
    EVENT,
    login,
    make_app,
    services,
)

FIELDS = ("events_per_s", "ingest_ratio", "latency_ms_p50", "latency_ms_p99",
          "page_latency_ms_p50", "page_latency_ms_p99", "lost", "duplicated", "table_rss_mb",
          "published", "stored", "bare_events_per_s", "server", "broker")
TABLES = 4


def loadtest(*args: str) -> dict[str, Any]:
    if find_mosquitto() is None:
        pytest.skip("no mosquitto: scripts/setup.py installs it")
    done = processes.run(
        [sys.executable, "-m", "bidbox", "loadtest", "--tables", str(TABLES), "--boards", "1",
         "--speed", "0", "--seconds", "100", "--json", *args], text=True, timeout=150)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not done.left, "the load test left processes running"
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def positive(value: Any) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and value > 0


def test_four_tables_every_event_stored_once_with_its_latencies() -> None:
    f = loadtest("--table-cores", "half")
    assert set(FIELDS) <= set(f), set(FIELDS) - set(f)
    assert f["table_errors"] == 0, f["table_error_examples"]
    assert f["finished"] and f["boards_played"] == TABLES
    # A board is dozens of events: the scans, the calls, the cards, the result, confirmations.
    assert f["published"] > 50 * TABLES
    assert f["stored"] == f["published"] == f["acknowledged"]
    assert f["lost"] == 0 and f["duplicated"] == 0 and f["mismatched"] == 0
    # The baseline saw the same stream (a message sent twice, a resend, counts once).
    assert f["bare_distinct"] == f["published"] <= f["bare_received"]
    for name in ("events_per_s", "bare_events_per_s", "ingest_ratio", "latency_ms_p50",
                 "latency_ms_p99", "page_latency_ms_p50", "page_latency_ms_p99",
                 "table_rss_mb"):
        assert positive(f[name]), (name, f[name])
    assert f["latency_ms_p50"] <= f["latency_ms_p99"]
    assert f["page_latency_ms_p50"] <= f["page_latency_ms_p99"]
    # Shown on the page only after it is stored; stored only after the table accepted it.
    assert f["page_latency_ms_p50"] >= f["latency_ms_p50"] >= f["accept_ms_p50"] > 0
    # Every key-pressed event was timed to the server and to the page.
    assert f["latency_n"] == f["page_latency_n"] > 0.9 * f["published"]
    assert positive(f["server"]["rss_mb"]) and positive(f["broker"]["rss_mb"])
    assert 10 < f["table_rss_mb"] < 500
    # The text report says the machine's load, and whose part of the way took how long.
    text = Report(f).text()
    assert f"load average at the end {', '.join(map(str, f['load_average']))}" in text
    assert f"the server's, at the broker -> page p50 {f['served_ms_p50']}" in text
    assert f"core(s) {f['table_cores']}" in text or f["table_cores"] is None
    # The tables ran on their own cores, the server's side on the others (--table-cores).
    if len(os.sched_getaffinity(0)) >= 2:
        assert f["shard_cores"] == f["table_cores"]
        assert not set(f["server_side_cores"]) & set(f["table_cores"])
        assert f["server_side_cores"]


def test_the_tables_cores_leave_the_server_at_least_one() -> None:
    assert table_cores("half", [0, 1]) == {1}
    assert table_cores("half", [0, 1, 2, 3]) == {2, 3}
    assert table_cores("half", [0, 1, 2]) == {2}  # the server's side keeps the larger half
    assert table_cores("all", [0, 1]) is None
    assert table_cores("half", [0]) is None  # one core: nothing to split
    assert table_cores("1", [0, 1]) == {1}
    assert table_cores("0,2", [0, 1, 2]) == {0, 2}
    for wrong in ("0,1", "5", "x", ""):
        with pytest.raises(LoadTestError):
            table_cores(wrong, [0, 1])
    with pytest.raises(LoadTestError):  # one core: a list is still read, and refused
        table_cores("x", [0])


@pytest.mark.parametrize("share", ["tables", "subscription"])
def test_two_workers_share_the_stream_on_postgresql(pg_url: str, share: str) -> None:
    f = loadtest("--workers", "2", "--db", pg_url, "--share", share)
    assert f["workers"] == 2 and f["table_errors"] == 0 and f["finished"]
    assert f["stored"] == f["published"] > 50 * TABLES
    assert f["lost"] == 0 and f["duplicated"] == 0 and f["mismatched"] == 0
    # Both workers stored a share, and no event was stored by both.
    shares = f["stored_per_worker"]
    assert len(shares) == 2 and all(part > 0 for part in shares), shares
    assert sum(shares) == f["stored"]
    if share == "tables":  # each table's stream whole at one worker: no gap, no resend
        assert f["redelivered"] == 0


def test_the_console_fragment_is_read_as_the_director_sees_it() -> None:
    html = ('<tr data-table="3" class="online"><td><a href="/x">3</a></td><td>on</td>'
            '<td>1</td><td>auction</td><td>2</td><td>–</td><td>41 <span class="warn">gap'
            '</span></td><td></td></tr>')
    assert shown_events(html) == {3: 41}


def test_the_whole_grid_and_rows_alone_are_read_alike(tmp_path: Path) -> None:
    """The director's browser reads the console's real fragments: the whole grid and the rows
    fetched alone (``?only=``) give each table's count the same way."""
    app = make_app(str(tmp_path / "bidbox.db"))
    try:
        create_session(services(app).db, event=EVENT, title="T", kind="mitchell",
                       participants=6, boards_per_round=1, rounds=1, seed=1)
        for seq in (1, 2, 3, 5):  # 4 is missing: 3 are shown, with no gap
            services(app).ingest(table_topic(EVENT, 2, "events"), Event(
                seq, "confirm", 100.0 + seq, 1, {"seat": "N"}).to_payload())
        client = app.test_client()
        login(client)
        whole = client.get("/console/fragment/tables").get_data(as_text=True)
        rows = client.get("/console/fragment/tables?only=2,3").get_data(as_text=True)
    finally:
        services(app).close()
    assert shown_events(whole) == {1: 0, 2: 3, 3: 0}
    assert shown_events(rows) == {2: 3, 3: 0}


def test_the_directors_browser_asks_for_the_rows_named_as_console_js_does() -> None:
    browser = DirectorBrowser("http://127.0.0.1:1", "unused")  # nothing opened until start()
    whole = "http://127.0.0.1:1/console/fragment/tables"
    browser._mark(None)  # the page as it loads
    assert browser._url(browser.named) == whole
    browser.rows = {1, 2, 3}  # the rows the whole grid showed
    browser.named = set()
    browser._mark([3])
    browser._mark([1, 3])  # two changes during one fetch: one more, their tables merged
    assert browser._url(browser.named) == f"{whole}?only=1,3"
    browser._mark([9])  # a table the page has no row for: the whole grid
    assert browser._url(browser.named) == whole
    browser.named = set()
    browser._mark([2])
    browser._mark(None)  # anything may have changed
    assert browser.named is None and browser._url(browser.named) == whole
    browser.named = set()
    browser._mark(list(range(1, browser.most + 2)))  # past what one request may name
    assert browser.named is None


def test_the_directors_browser_follows_the_first_page_of_a_large_field() -> None:
    from server.pages.tableview import PAGE_TABLES

    browser = DirectorBrowser("http://127.0.0.1:1", "unused", tables=3 * PAGE_TABLES)
    assert browser.last == PAGE_TABLES
    browser.rows = set(range(1, PAGE_TABLES + 1))
    browser.seated_rows = {2}
    browser.named, browser.seated_named = set(), set()
    browser._mark([PAGE_TABLES + 5])  # a table of the second page: nothing to fetch
    assert browser.named == set() and not browser.dirty
    browser._mark([2, PAGE_TABLES + 5])
    assert browser.named == {2} and browser.seated_named == {2}
    assert browser._url(browser.seated_named, "seated", browser.seated_rows).endswith(
        "/console/fragment/seated?only=2")
    browser._mark([4], seated=False)  # a card played: the grid's row, not the seated list
    assert browser.named == {2, 4} and browser.seated_named == {2}
    browser._mark([3])  # no seated row for table 3 yet: the seated list whole
    assert browser._url(browser.seated_named, "seated", browser.seated_rows).endswith(
        "/console/fragment/seated")
    assert DirectorBrowser("http://127.0.0.1:1", "unused", tables=10).last == 10


@pytest.mark.parametrize(("tables", "shards", "expected"), [
    (1, None, 1), (4, None, 2), (26, None, 2), (27, None, 3), (200, None, 9),
    (1000, None, 41), (4, 3, 3), (1000, 2, 8), (1000, 12, 12)])
def test_no_shard_holds_more_tables_than_the_cap(tables: int, shards: int | None,
                                                expected: int) -> None:
    # A --shards that asks for few processes still gets no more than the cap in any one.
    count = LoadSettings(tables=tables, shards=shards).shard_count()
    assert count == expected
    assert count == 1 or -(-(tables - 1) // (count - 1)) <= MAX_TABLES_PER_SHARD


def test_more_boards_than_a_session_numbers_are_refused_before_anything_starts() -> None:
    # The tables take board numbers 1-9999; 5,000 tables of two boards would need 10,000.
    with pytest.raises(LoadTestError, match="9999"):
        run(LoadSettings(tables=5000, boards=2))
    with pytest.raises(LoadTestError, match="--tables 3333"):
        run(LoadSettings(tables=4000, boards=3))
