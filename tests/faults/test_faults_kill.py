"""Power cuts at a playing table, with the broker and the server in the loop (issue 8).

Two tables, each a process of its own (table_child.py: the real daemon on simulated hardware,
its uplink to a real private Mosquitto through a loopback proxy, four simulated players),
play seeded boards while the real server ingests into a SQLite file. Each table is killed
with SIGKILL at random moments aimed at four kinds of moment, in a seeded random order:

- mid-auction: just after a call;
- mid-trick: just after the first, second or third card of a trick;
- mid-claim: just after a claim or the first defender's answer, before the claim is settled;
- outbox full: the table's link to the broker cut (the proxy drops and refuses it), so its
  events pile up unacknowledged in the journal's outbox, and the kill comes once a random
  number of them (10 to 60) wait there.

After each kill: every event the table had reported durable is in its journal unchanged, the
journal replays, the state at the last reported event is the one the table had, and the table
started again on the same journal resumes in the state the journal replays to (its seats'
phase, board, calls, cards, claim, players and results); then its players carry on. At the
end every board was played exactly as its players meant (no call or card lost or taken
twice), and the server holds every journalled event once: nothing lost, nothing duplicated,
nothing changed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bidbox.broker import Broker
from sim.players import deal
from sim.players.players import script
from tabled.daemon import snapshot
from tabled.journal import Journal
from tablemodel.state import Phase, TableState
from tests.faults.harness import (
    LinkProxy,
    compare,
    duplicates_in,
    journal_rows,
    rng,
    seed,
    server_rows,
    services,
    start_server,
    users_of,
    wait_until,
)
from tests.faults.table_child import CLAIM_RATE, fingerprint
from tests.processes import spawned

# Run as a module from this checkout, so the child runs this tree's code whatever else an
# installed bidbox would put on its path.
CHILD = "tests.faults.table_child"
ROOT = Path(__file__).resolve().parents[2]
KILLS = int(os.environ.get("BIDBOX_FAULT_KILLS", "100"))
TABLES = (1, 2)
BOARDS = 40       # per table: enough claims for a quarter of the kills (about one board in two)
RUN_LIMIT = 60.0  # seconds one run of a child may take before the harness gives up on it
AIMS = ("auction", "trick", "claim", "outbox")


@dataclass
class Kill:
    aim: str
    landed: str
    seq: int      # the journal's last event after the kill
    outbox: int   # events the broker had not acknowledged


@dataclass
class TableUnderFire:
    number: int
    folder: Path
    broker_port: int
    proxy: LinkProxy
    seed: int
    user: str
    password: str
    server_db: Path
    reported: dict[int, dict[str, Any]] = field(default_factory=dict)
    kills: list[Kill] = field(default_factory=list)
    resumed: int = 0  # restarts whose state was checked against the journal
    owed: int = 0     # restarts whose journal owed the result the laws add (table_child.py)
    expected: dict[str, Any] | None = None  # the fingerprint the next start must show

    @property
    def journal(self) -> Path:
        return self.folder / f"table-{self.number}.db"

    def start(self) -> AbstractContextManager[subprocess.Popen[str]]:
        env = {**os.environ, "BIDBOX_FAULT_USER": self.user,
               "BIDBOX_FAULT_PASSWORD": self.password}
        # The children's stderr, one file per table, kept for a failure's post-mortem; the
        # child keeps its own copy of the descriptor.
        with open(self.folder / f"table-{self.number}.log", "a") as log:
            return spawned(
                [sys.executable, "-m", CHILD, str(self.journal), str(self.number), str(BOARDS),
                 str(self.seed), f"127.0.0.1:{self.proxy.port}"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                env=env, cwd=ROOT)

    def lines(self, child: subprocess.Popen[str]) -> Iterator[dict[str, Any]]:
        """The child's reports; a child that hangs is killed (its PID) after RUN_LIMIT."""
        assert child.stdout is not None
        watchdog = threading.Timer(RUN_LIMIT, child.kill)
        watchdog.start()
        try:
            for line in child.stdout:
                yield json.loads(line)
        finally:
            watchdog.cancel()

    def resume(self, child: subprocess.Popen[str]) -> Iterator[dict[str, Any]]:
        """Start reading ``child``: its first line is where it resumed, which must be where
        the journal says the table was."""
        lines = self.lines(child)
        first = next(lines)
        assert "start" in first, first
        if self.expected is not None:
            assert first["fingerprint"] == self.expected, (
                f"table {self.number} resumed elsewhere than its journal says:\n"
                f"{first['fingerprint']}\n!=\n{self.expected}")
            self.resumed += 1
        if first.get("owed"):
            assert set(first["owed"]) <= {"result", "director"}, first["owed"]  # the laws add
            self.owed += 1
        yield from lines

    def kill_at(self, aim: str, chooser: Any) -> None:
        """One run of the table, killed at a moment of kind ``aim``."""
        if aim == "outbox":
            self.proxy.cut()
        aimed = _aim(aim, chooser)
        with self.start() as child:
            landed_early = True
            for report in self.resume(child):
                assert "done" not in report, (
                    f"table {self.number} played every board before a kill aimed at {aim}: "
                    f"raise BOARDS")
                self.reported[report["seq"]] = report
                if aimed(report):
                    child.send_signal(signal.SIGKILL)  # our child, by its PID
                    landed_early = False
                    break
            assert not landed_early, f"table {self.number}'s child ended by itself"
            child.wait(RUN_LIMIT)
            assert child.returncode == -signal.SIGKILL
        cut = self.proxy.is_cut
        self.proxy.restore()
        self.kills.append(self.check_after_kill(aim, cut))

    def check_after_kill(self, aim: str, cut: bool) -> Kill:
        journal = Journal(self.journal)
        try:
            events = list(journal.events())
            outbox = journal.outbox_size()
        finally:
            journal.close()
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        for seq, report in self.reported.items():  # nothing durable is lost or changed
            assert (events[seq - 1].type, dict(events[seq - 1].data)) == (
                report["type"], report["data"]), f"table {self.number} event {seq}"
        last = max(self.reported)
        at_last = TableState.replay(events[:last])
        assert snapshot(at_last) == self.reported[last]["snapshot"]
        state = TableState.replay(events)
        self.expected = json.loads(json.dumps(fingerprint(state)))
        return Kill(aim, landing(state, cut, outbox), len(events), outbox)

    def finish(self) -> int:
        """The last run, to the end of the last board; the child stays until the server
        has everything (it may be asked to resend). The number of events."""
        with self.start() as child:
            assert child.stdin is not None
            done: dict[str, Any] = {}
            for report in self.resume(child):
                if "done" in report:
                    done = report
                    break
                self.reported[report["seq"]] = report
            assert done.get("outbox") == 0, f"table {self.number}: {done}"
            wait_until(lambda: len(server_rows(self.server_db, self.number)) >= done["done"],
                       30.0, f"table {self.number}'s {done['done']} events at the server")
            child.stdin.write("bye\n")
            child.stdin.close()
            assert child.wait(RUN_LIMIT) == 0
        return int(done["done"])


def _aim(aim: str, chooser: Any) -> Callable[[dict[str, Any]], bool]:
    """A test of each report: kill now? It skips a random number of fitting moments first,
    so the kills do not all fall on the first call or card after a restart."""
    skip = chooser.randrange(4 if aim in ("auction", "trick") else 2)
    threshold = chooser.randint(10, 60)

    def fits(report: dict[str, Any]) -> bool:
        if aim == "auction":
            return bool(report["type"] == "call" and report["phase"] == "auction")
        if aim == "trick":
            return bool(report["type"] == "card" and report["cards"] % 4 != 0)
        if aim == "claim":
            return bool(report["claim"])
        return bool(report["outbox"] >= threshold)

    def aimed(report: dict[str, Any]) -> bool:
        nonlocal skip
        if not fits(report):
            return False
        if aim != "outbox" and skip > 0:
            skip -= 1
            return False
        return True
    return aimed


def landing(state: TableState, cut: bool, outbox: int) -> str:
    """Where a kill fell, from the journal it left."""
    board = state.board
    if cut and outbox >= 10:
        return "outbox full"
    if board is not None and board.play is not None and board.play.claim is not None:
        return "mid-claim"
    if state.phase is Phase.PLAY and board is not None and len(board.cards) % 4:
        return "mid-trick"
    if state.phase is Phase.AUCTION:
        return "mid-auction"
    return f"other ({state.phase.value})"


def played_as_meant(rows: list[Any], table_seed: int) -> None:
    """Every board's calls and cards are its players' plan, each taken once."""
    by_board: dict[int, list[Any]] = {}
    for row in rows:
        if row[2] is not None:
            by_board.setdefault(row[2], []).append(row)
    assert sorted(by_board) == list(range(1, BOARDS + 1))
    for board, events in by_board.items():
        plan = script(board, deal(table_seed, board), seed=table_seed, claim_rate=CLAIM_RATE)
        kinds = Counter(kind for _, kind, *_ in events)
        assert [d["call"] for _, k, _, _, d in events if k == "call"] == \
            [str(item.call) for item in plan.calls], f"board {board}'s calls"
        assert [d["card"] for _, k, _, _, d in events if k == "card"] == \
            [str(card) for card in plan.cards], f"board {board}'s cards"
        assert (kinds["board"], kinds["hand_card"], kinds["result"], kinds["confirm"],
                kinds["claim"]) == (1, 52, 1, 2, int(plan.claim is not None)), \
            f"board {board}: {kinds}"
        scans = {(d["seat"], d["card"]) for _, k, _, _, d in events if k == "hand_card"}
        assert len(scans) == 52


def test_tables_killed_at_a_hundred_moments_resume_and_the_server_has_every_event_once(
        tmp_path: Path, fault_broker: Broker) -> None:
    base = seed()
    began = time.monotonic()
    app = start_server(tmp_path / "server.db", fault_broker)
    users = users_of(fault_broker)
    proxies = {n: LinkProxy((fault_broker.host, fault_broker.port)) for n in TABLES}
    tables = {n: TableUnderFire(n, tmp_path, fault_broker.port, proxies[n], base * 10 + n,
                                users.table(n).username, users.table(n).password,
                                tmp_path / "server.db")
              for n in TABLES}

    def fire(table: TableUnderFire) -> int:
        chooser = rng(base, f"table-{table.number}")
        share = KILLS // len(TABLES) + (table.number <= KILLS % len(TABLES))
        aims = [AIMS[i % len(AIMS)] for i in range(share)]
        chooser.shuffle(aims)
        for aim in aims:
            table.kill_at(aim, chooser)
        return table.finish()

    try:
        with ThreadPoolExecutor(len(TABLES)) as pool:
            totals = dict(zip(TABLES, pool.map(fire, tables.values()), strict=True))
        lost: dict[int, list[int]] = {}
        duplicated: dict[int, list[int]] = {}
        changed: dict[int, list[int]] = {}
        for number, table in tables.items():
            rows = journal_rows(table.journal)
            assert len(rows) == totals[number]
            played_as_meant(rows, table.seed)
            lost[number], duplicated[number], changed[number] = compare(
                rows, server_rows(tmp_path / "server.db", number))
        assert duplicates_in(tmp_path / "server.db") == 0
    finally:
        services(app).close()
        for proxy in proxies.values():
            proxy.close()

    kills = [kill for table in tables.values() for kill in table.kills]
    landed = Counter(kill.landed for kill in kills)
    print(f"kills {len(kills)}: " + ", ".join(f"{k} {n}" for k, n in sorted(landed.items())))
    print(f"events checked {sum(totals.values())} ({totals}); restarts checked "
          f"{sum(t.resumed for t in tables.values())}, of which owed a result "
          f"{sum(t.owed for t in tables.values())}; biggest outbox at a kill "
          f"{max(k.outbox for k in kills)}; lost {sum(map(len, lost.values()))}, duplicated "
          f"{sum(map(len, duplicated.values()))}, changed {sum(map(len, changed.values()))}; "
          f"{time.monotonic() - began:.1f} s")
    assert (lost, duplicated, changed) == ({n: [] for n in TABLES},) * 3
    assert len(kills) == KILLS
    assert sum(t.resumed for t in tables.values()) == KILLS  # every restart but the first
    # The kills fell where they were aimed: at least a sixth of them of each kind.
    for kind in ("mid-auction", "mid-trick", "mid-claim", "outbox full"):
        assert landed[kind] >= KILLS // 6, f"only {landed[kind]} kills {kind}: {landed}"
