"""The broker restarts, the server restarts, and a table is cut off for ten minutes of play
(issue 8): nothing is lost, nothing is doubled, and the live page catches up by itself.

Two simulated tables (the real daemon on simulated hardware, in threads of this process) play
a two-round Howell that the real server runs: the server sends each round's assignment over
a real private Mosquitto, and the tables' players bid and play the deals it sends, at people's
pace on a simulated clock (``speed`` 1: a call takes two seconds, a card two and a half), so
ten minutes of play take a few seconds and nothing sleeps. Each table reaches the broker
through a loopback proxy of the test's own; table 1's is cut (its connection dropped, new
ones refused) for ten simulated minutes, during which the server is stopped and started again
on its database and address. Before that the broker is restarted (a clean stop saves its
persistence). A client of the live results reads the server's event stream over HTTP, and on
each change fetches the public results (``/api/v1/results``) as the page does.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bidbox.broker import Broker, free_port
from laws import Seat
from mqttlink import BrokerSettings
from server.link.rounds import create_session, start_round
from server.scoring.standings import all_results
from server.serve import Served, serve
from server.setup.session import Session
from sim.players import SimulatedPlayers
from sim.simtable import SimulatedTable
from tests.faults.harness import (
    EVENT,
    LinkProxy,
    compare,
    duplicates_in,
    journal_rows,
    seed,
    server_rows,
    services,
    start_server,
    users_of,
    wait_until,
)

TABLES = (1, 2)
BOARDS_PER_ROUND = 5   # about fifteen minutes a round at people's pace: the cut fits in one
CUT = 600.0            # simulated seconds table 1 plays cut off
WAIT = 60.0            # real seconds any one wait may take


class SimulatedClock:
    """People's pace without waiting: a player's pause moves the clock on. ``hold_when`` stops
    the players at their next pause once it holds, until ``release``: a fault is then made
    at the point the test names, however far the players (which wait for nothing) would
    have run meanwhile."""

    def __init__(self) -> None:
        self.now = time.time()
        self._lock = threading.Lock()
        self._hold: Any = None
        self._released = threading.Event()
        self.held = threading.Event()

    def __call__(self) -> float:
        return self.now

    def hold_when(self, condition: Any) -> None:
        self._released.clear()
        self._hold = condition

    def release(self) -> None:
        self._hold = None
        self._released.set()

    def sleep(self, seconds: float) -> None:
        hold = self._hold
        if hold is not None and hold():
            self.held.set()
            self._released.wait(WAIT)
        with self._lock:
            self.now += seconds


class LivePage:
    """What the live results page does: listen to the server's event stream and fetch the
    results on every change. It reconnects by itself, as a browser's EventSource does."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.results: dict[str, Any] = {}
        self.changes = 0
        self.connections = 0
        self.changed = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="live-page", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10.0)

    def _listen(self) -> None:
        host, port = self.address.removeprefix("http://").split(":")
        while not self._stop.is_set():
            try:
                conn = http.client.HTTPConnection(host, int(port), timeout=2.0)
                conn.request("GET", "/live/stream")
                response = conn.getresponse()
                assert response.status == 200
                self.connections += 1
                self._fetch()  # what changed while it was away
                while not self._stop.is_set():
                    try:
                        line = response.fp.readline()
                    except TimeoutError:
                        continue
                    if not line:
                        break  # the server went away: connect again
                    if line.startswith(b"event: change"):
                        self.changes += 1
                        self._fetch()
                conn.close()
            except (OSError, http.client.HTTPException):
                pass
            self._stop.wait(0.2)  # EventSource's retry, shortened

    def _fetch(self) -> None:
        with urllib.request.urlopen(f"{self.address}/api/v1/results", timeout=5.0) as reply:
            self.results = json.loads(reply.read())
        self.changed.set()

    def shown(self) -> set[tuple[int, int, int | None]]:
        return {(r["table"], r["board"], r["score_ns"]) for r in self.results.get("results", [])}


def play(table: SimulatedTable, clock: SimulatedClock, session: Session, number: int,
         table_seed: int) -> int:
    """Table ``number``'s players: each round as the server assigns it, every board to its
    confirmed result. The boards played."""
    players = SimulatedPlayers(table, seed=table_seed, speed=1.0, sleep=clock.sleep,
                               director_rate=0.0)
    played = 0
    for round_ in range(1, session.rounds + 1):
        assert table.daemon.wait_for(
            lambda s, r=round_: s.assignment is not None and s.assignment.round == r, WAIT), \
            f"table {number} got no round {round_}"
        assignment = table.state.assignment
        players.enter_players({Seat.N: 100 * assignment.ns + 1, Seat.S: 100 * assignment.ns + 2,
                               Seat.E: 100 * assignment.ew + 1, Seat.W: 100 * assignment.ew + 2})
        for board in assignment.boards:
            players.play_board(board, assignment.deals[board])
            played += 1
    return played


def test_broker_and_server_restart_and_a_table_cut_off_for_ten_minutes_lose_nothing(
        tmp_path: Path, fault_broker: Broker) -> None:
    base = seed()
    began = time.monotonic()
    db = tmp_path / "server.db"
    http_port = free_port()
    app = start_server(db, fault_broker)
    served: Served = serve(app, port=http_port, threads=8)
    session = create_session(services(app).db, event=EVENT, title="faults", kind="howell",
                             participants=2 * len(TABLES), boards_per_round=BOARDS_PER_ROUND,
                             rounds=2, seed=base)
    users = users_of(fault_broker)
    proxies = {n: LinkProxy((fault_broker.host, fault_broker.port)) for n in TABLES}
    clocks = {n: SimulatedClock() for n in TABLES}
    tables = {n: SimulatedTable(tmp_path / f"table-{n}.db", event=EVENT, number=n,
                                broker=BrokerSettings("127.0.0.1", proxies[n].port,
                                                      users.table(n).username,
                                                      users.table(n).password))
              for n in TABLES}
    for number, table in tables.items():
        table.daemon.clock = clocks[number]
        table.start()
    page = LivePage(served.address)
    figures: dict[str, Any] = {}
    try:
        with ThreadPoolExecutor(len(TABLES)) as pool:
            futures = {n: pool.submit(play, tables[n], clocks[n], session, n, base + n)
                       for n in TABLES}
            start_round(services(app).db, session, 1, by="faults")
            services(app).commands_queued()

            # The broker restarts mid-board; every table and the server reconnect by themselves.
            alive = _watch(futures)
            wait_until(lambda: alive() and tables[2].journal.last_seq >= 40, WAIT,
                       "table 2 in its first board")
            pid = fault_broker.pid
            fault_broker.restart()
            assert fault_broker.pid != pid

            # Table 1 is cut off; the server restarts meanwhile.
            one = tables[1]
            clocks[1].hold_when(lambda: one.journal.last_seq >= 80)
            wait_until(lambda: alive() and clocks[1].held.is_set(), WAIT,
                       "table 1 in its first board")
            proxies[1].cut()
            cut_at, cut_seq = clocks[1](), one.journal.last_seq
            clocks[1].release()  # its players go on, cut off, with most of the round to play
            served.stop()
            app = start_server(db, fault_broker)
            served = serve(app, port=http_port, threads=8)
            assert one.daemon.wait_for(lambda _: clocks[1]() >= cut_at + CUT, WAIT), \
                "table 1 did not play ten minutes while cut off"
            with one.daemon.changed:  # the table thread holds it while it takes an input
                restored_seq = one.journal.last_seq
                outbox = one.journal.outbox_size()
                proxies[1].restore()
            stored_then = len(server_rows(db, 1))
            figures["cut"] = (restored_seq - cut_seq, outbox, stored_then)
            assert one.state.assignment is not None and one.state.assignment.round == 1
            assert restored_seq - cut_seq >= 150, "ten minutes of play are more events"
            assert outbox >= restored_seq - cut_seq  # none of them reached the broker
            assert stored_then < restored_seq

            # The director starts the next round once the server has every result of this one.
            for round_ in range(1, session.rounds):
                wanted = {(seat.table, board) for seat in session.plan.round(round_)
                          for board in seat.boards}
                wait_until(lambda w=wanted: alive() and w <= {
                    (r.table, r.board) for r in all_results(services(app).db, session)},
                    WAIT, f"round {round_}'s results at the server")
                start_round(services(app).db, session, round_ + 1, by="faults")
                services(app).commands_queued()
            played = {n: future.result(WAIT * 2) for n, future in futures.items()}
        assert played == {n: session.rounds * BOARDS_PER_ROUND for n in TABLES}

        # The live page shows every table's every result, as the tables scored them.
        expected = {(n, row[2], row[4]["score_ns"]) for n, table in tables.items()
                    for row in journal_rows(table.journal.path) if row[1] == "result"}
        assert len(expected) == session.rounds * BOARDS_PER_ROUND * len(TABLES)
        wait_until(lambda: page.shown() == expected, WAIT, "the live page to catch up",
                   every=page.changed)
        for table in tables.values():
            assert table.daemon.wait_for(lambda _, t=table: t.journal.outbox_size() == 0, WAIT)
        for number in TABLES:
            wait_until(lambda n=number: len(server_rows(db, n)) ==
                       tables[n].journal.last_seq, WAIT, f"table {number}'s events stored")
    finally:
        page.close()
        for table in tables.values():
            table.stop()
        served.stop()
        for proxy in proxies.values():
            proxy.close()

    losses = {}
    total = 0
    for number in TABLES:
        rows = journal_rows(tmp_path / f"table-{number}.db")
        total += len(rows)
        losses[number] = compare(rows, server_rows(db, number))
    assert duplicates_in(db) == 0
    made, waiting, stored = figures["cut"]
    print(f"cut off {CUT / 60:.0f} simulated minutes: {made} events made, {waiting} waiting "
          f"in the outbox at the end of the cut, {stored} stored by then; live page "
          f"{page.connections} connections, {page.changes} changes; events checked {total}; "
          f"lost/duplicated/changed {losses}; {time.monotonic() - began:.1f} s")
    assert losses == {n: ([], [], []) for n in TABLES}
    assert page.connections >= 2  # it lost the server and found it again


def _watch(futures: dict[int, Any]) -> Callable[[], bool]:
    """A check for waits: a table's players that failed fail the wait at once."""
    def alive() -> bool:
        for future in futures.values():
            if future.done():
                future.result()  # raises the players' error
        return True
    return alive
