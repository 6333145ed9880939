"""The director's tables grid: what rendering the whole of it costs against the row of one
table (``/console/fragment/tables?only=T``, what console.js fetches when the stream names T),
both measured in the same run (the whole grid is the baseline).

    python3 -m bench.console_rows [--tables N] [--events E] [--seconds S]

The session is a Mitchell of N tables, one round (as ``bidbox loadtest`` sets it up), on a
fresh SQLite file. Every table's status row is made by the real ingest (``server.link.ingest``)
from what a table sends: presence, E events, its retained state; one table in 50 has called
the director, one in 100 has a gap (its last event came, the one before did not). Each
request goes through Flask's test client, signed in as the director: routing, the sign-in
check, the queries of ``server.link.tables.table_grid`` and the template, as a browser's fetch
would, without the network. Each figure is the median of the requests made in ``S`` seconds
(with the fastest beside it), after one request to warm up.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from server import create_app
from server.link.rounds import create_session
from tablemodel.wire import ONLINE, Event, table_topic

EVENT = "bench"
PASSWORD = "bench-director"
BATCH = 500  # messages to an ingest transaction, as the worker's batches (server/link/bus.py)


def table_messages(table: int, events: int) -> Iterator[tuple[str, bytes]]:
    """What one table has sent by now: presence, its events, its retained state."""
    yield table_topic(EVENT, table, "status"), ONLINE
    gap = events - 1 if table % 100 == 0 else None  # lost: a resend would be asked for
    for seq in range(1, events + 1):
        if seq == gap:
            continue
        if table % 50 == 0 and seq == events // 2:
            event = Event(seq, "director", 1_000.0 + seq, 1, {"seat": "N", "reason": "player"})
        else:
            event = Event(seq, "confirm", 1_000.0 + seq, 1, {"seat": "NESW"[seq % 4]})
        yield table_topic(EVENT, table, "events"), event.to_payload()
    state = f'{{"v":1,"seq":{events},"phase":"auction","round":1,"board":1}}'
    yield table_topic(EVENT, table, "state"), state.encode()


def build(app: Flask, tables: int, events: int) -> None:
    services = app.extensions["bidbox"]
    create_session(services.db, event=EVENT, title="bench console rows", kind="mitchell",
                   participants=2 * tables, boards_per_round=1, rounds=1, seed=1)
    batch: list[tuple[str, bytes | str]] = []
    for table in range(1, tables + 1):
        for message in table_messages(table, events):
            batch.append(message)
            if len(batch) == BATCH:
                services.ingest.many(batch)
                batch = []
    if batch:
        services.ingest.many(batch)


def signed_in(app: Flask) -> FlaskClient:
    client = app.test_client()
    page = client.get("/console/login").get_data(as_text=True)
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    if token is None:
        raise RuntimeError("no CSRF token on the sign-in page")
    answer = client.post("/console/login", data={"username": "director", "password": PASSWORD,
                                                 "csrf": token.group(1)})
    if answer.status_code != 302:
        raise RuntimeError(f"the director could not sign in ({answer.status_code})")
    return client


def timed(client: FlaskClient, path: str, seconds: float) -> tuple[list[float], str]:
    """Seconds each request for ``path`` took over ``seconds``; the last answer's text."""
    text = _get(client, path)  # warm up: templates compiled, connections open
    spent: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(spent) < 3:
        start = time.perf_counter()
        text = _get(client, path)
        spent.append(time.perf_counter() - start)
    return spent, text


def _get(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    if response.status_code != 200:
        raise RuntimeError(f"{path} answered {response.status_code}")
    return response.get_data(as_text=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--events", type=int, default=20, help="events each table has sent")
    parser.add_argument("--seconds", type=float, default=5.0, help="for each of the two")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-console-") as folder:
        app = create_app({"DATABASE": str(Path(folder) / "bench.db"), "EVENT": EVENT,
                          "SECRET_KEY": "bench", "DIRECTOR_PASSWORD": PASSWORD,
                          "ANALYSIS": False})
        try:
            return _measure(app, args)
        finally:
            app.extensions["bidbox"].close()


def _measure(app: Flask, args: Any) -> int:
    begun = time.perf_counter()
    build(app, args.tables, args.events)
    print(f"console rows: {args.tables} tables x {args.events} events stored through ingest "
          f"in {time.perf_counter() - begun:.1f} s (SQLite file)")
    client = signed_in(app)
    one = args.tables // 2
    whole, whole_text = timed(client, "/console/fragment/tables", args.seconds)
    row, row_text = timed(client, f"/console/fragment/tables?only={one}", args.seconds)
    rows_shown = whole_text.count("<tr data-table=")
    if rows_shown != args.tables or row_text.count("<tr data-table=") != 1:
        print(f"the fragments are not what was asked: {rows_shown} rows in the whole grid",
              file=sys.stderr)
        return 1
    figures = {"whole grid (baseline)": (whole, whole_text),
               f"table {one}'s row (?only={one})": (row, row_text)}
    for name, (spent, text) in figures.items():
        print(f"  {name:30s} median {statistics.median(spent) * 1000:8.2f} ms, fastest "
              f"{min(spent) * 1000:8.2f} ms ({len(spent)} requests, "
              f"{len(text.encode()) / 1024:.1f} KiB)")
    ratio = statistics.median(whole) / statistics.median(row)
    print(f"  the whole grid costs x{ratio:.0f} one row (medians)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
