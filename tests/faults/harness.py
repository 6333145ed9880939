"""What the fault harnesses share: a loopback proxy that can cut a table off, the real server
on a SQLite file, and the comparisons of a table's journal with what the server stored.

Every wait is on a condition with a deadline (``wait_until``); nothing sleeps in place of a
handshake.
"""

from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import func, select

from bidbox.broker import Broker, BrokerConfig, BrokerUsers, Credentials
from server import create_app
from server.services import Services
from server.storage import schema as s
from tabled.journal import Journal
from tablemodel.wire import Event

EVENT = "faults"  # tests/faults/table_child.py says the same


def seed(default: int = 20261121) -> int:
    """The harness's seed: BIDBOX_FAULT_SEED, else a fixed one; printed so a failure can be
    run again exactly."""
    value = int(os.environ.get("BIDBOX_FAULT_SEED", default))
    print(f"fault harness seed {value} (BIDBOX_FAULT_SEED={value} to run it again)")
    return value


def rng(value: int, what: str) -> random.Random:
    return random.Random(f"{value}:{what}")


def wait_until(predicate: Callable[[], bool], timeout: float, what: str,
               *, every: threading.Event | None = None) -> None:
    """Poll ``predicate`` until it holds, failing with ``what`` after ``timeout`` seconds.

    ``every``: an event set whenever something may have changed, waited on between polls
    (else a 20 ms poll)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        left = deadline - time.monotonic()
        assert left > 0, f"timed out after {timeout} s waiting for {what}"
        if every is not None:
            every.wait(min(left, 0.5))
            every.clear()
        else:
            threading.Event().wait(min(left, 0.02))


# -- a link the test can cut ----------------------------------------------------------------


class LinkProxy:
    """A loopback TCP proxy between one table and the broker. ``cut()`` drops every open
    connection and refuses new ones (accepted and closed at once, as a dead Wi-Fi link's
    access point would reset them) until ``restore()``."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._cut = False
        self._closed = False
        self.accepted = 0
        self.refused = 0
        self._thread = threading.Thread(target=self._accept, name="proxy", daemon=True)
        self._thread.start()

    @property
    def is_cut(self) -> bool:
        return self._cut

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            open_, self._open = self._open, []
        for sock in open_:
            _shut(sock)

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    def close(self) -> None:
        self._closed = True
        self.cut()
        _shut(self._listener)
        self._thread.join(5.0)

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                if self._cut:
                    self.refused += 1
                    _shut(client)
                    continue
                try:
                    upstream = socket.create_connection(self.target, timeout=5.0)
                    upstream.settimeout(None)
                except OSError:
                    _shut(client)
                    continue
                self.accepted += 1
                self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        _shut(source)
        _shut(sink)
        with self._lock:
            self._open = [sock for sock in self._open if sock not in (source, sink)]


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


# -- the broker and the server --------------------------------------------------------------


@contextmanager
def running_broker(folder: Path, tables: list[int], binary: Path) -> Iterator[Broker]:
    users = BrokerUsers.generate(EVENT, tables)
    broker = Broker(BrokerConfig(folder / "broker", users), binary=binary)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def users_of(broker: Broker) -> BrokerUsers:
    return broker.config.users


def start_server(db: Path, broker: Broker, **config: Any) -> Flask:
    """The real server (create_app) ingesting from ``broker`` into the SQLite file ``db``."""
    creds: Credentials = users_of(broker).server
    app = create_app({
        "DATABASE": str(db), "EVENT": EVENT, "SECRET_KEY": "faults",
        "DIRECTOR_PASSWORD": "faults", "ANALYSIS": False, "LANGUAGE": "en",
        "BROKER_URL": f"mqtt://{creds.username}:{creds.password}@{broker.host}:{broker.port}",
        **config})
    assert services(app).bus.connected.wait(10.0), "the server did not reach the broker"
    return app


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


# -- what the server holds against what the tables journalled -------------------------------


Row = tuple[int, str, int | None, float, Any]  # seq, type, board, ts, data


def journal_rows(path: Path, **kwargs: Any) -> list[Row]:
    """Every event of the journal at ``path``, read through a connection of its own."""
    journal = Journal(path, **kwargs)
    try:
        return [_row(e) for e in journal.events()]
    finally:
        journal.close()


def _row(event: Event) -> Row:
    return (event.seq, event.type, event.board, event.ts, dict(event.data))


def server_rows(db_path: Path, table: int) -> list[Row]:
    """The server's stored events of ``table`` in seq order, read from its SQLite file."""
    import sqlite3

    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT seq, type, board, ts, data FROM events WHERE event = ? "
                            "AND table_no = ? ORDER BY seq", (EVENT, table)).fetchall()
    conn.close()
    return [(seq, kind, board, ts, json.loads(data)) for seq, kind, board, ts, data in rows]


def server_count(app: Flask) -> int:
    with services(app).db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(s.events)).scalar_one())


def duplicates_in(db_path: Path) -> int:
    """Rows beyond the first for any (event, table, seq): the schema forbids them, and this
    says so if it ever stops forbidding them."""
    import sqlite3

    with sqlite3.connect(db_path) as conn:
        count = conn.execute("SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM "
                             "events GROUP BY event, table_no, seq)").fetchone()[0]
    conn.close()
    return int(count)


def compare(journal: list[Row], stored: list[Row]) -> tuple[list[int], list[int], list[int]]:
    """(lost, duplicated, changed) sequence numbers of the server's copy of one journal."""
    have: dict[int, Row] = {}
    duplicated: list[int] = []
    for row in stored:
        if row[0] in have:
            duplicated.append(row[0])
        have[row[0]] = row
    mine = {row[0]: row for row in journal}
    lost = sorted(set(mine) - set(have))
    changed = sorted(seq for seq in set(mine) & set(have)
                     if _same(mine[seq]) != _same(have[seq]))
    extra = sorted(set(have) - set(mine))  # stored but never journalled: as bad as a change
    return lost, duplicated, changed + extra


def _same(row: Row) -> tuple[Any, ...]:
    seq, kind, board, ts, data = row
    return (seq, kind, board, round(ts, 6), json.dumps(data, sort_keys=True))
