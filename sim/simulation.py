"""Many simulated tables at once, each playing a share of a file of recorded boards.

Each table is the real daemon on simulated hardware (sim.simtable) with four recorded
players (sim.recorded) in a thread of its own. The records are dealt to the tables in turn
and grouped into rounds of distinct boards; the round's assignment goes to the table as the
director's server would send it, a ``Command`` on the table's inbox.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from laws import Seat
from mqttlink import BrokerSettings
from tablemodel.state import TableState
from tablemodel.wire import Command

from .recorded import BoardScript, Playable, RecordedPlayers
from .simtable import SimulatedTable


@dataclass
class BoardOutcome:
    table: int
    record: int
    board: int
    expected: tuple[str | None, str | None, int | None, int | None]
    got: tuple[str | None, str | None, int | None, int | None]

    @property
    def agrees(self) -> bool:
        return self.expected == self.got


@dataclass
class TableRun:
    number: int
    rounds: list[list[Playable]]
    outcomes: list[BoardOutcome] = field(default_factory=list)
    events: int = 0
    unacknowledged: int = 0
    error: str | None = None


def rounds_of(records: list[Playable], boards_per_round: int) -> list[list[Playable]]:
    """Consecutive records in rounds of at most ``boards_per_round`` distinct boards."""
    rounds: list[list[Playable]] = []
    current: list[Playable] = []
    for item in records:
        if len(current) == boards_per_round or any(p.record.board == item.record.board
                                                   for p in current):
            rounds.append(current)
            current = []
        current.append(item)
    if current:
        rounds.append(current)
    return rounds


def deal_out(records: list[Playable], tables: int,
             boards_per_round: int) -> list[TableRun]:
    shares: list[list[Playable]] = [[] for _ in range(tables)]
    for i, item in enumerate(records):
        shares[i % tables].append(item)
    return [TableRun(n + 1, rounds_of(share, boards_per_round))
            for n, share in enumerate(shares)]


def _expected(item: Playable) -> tuple[str | None, str | None, int | None, int | None]:
    e = item.expected
    return (e.contract, e.declarer, e.tricks, e.score_ns)


def _in_round(number: int) -> Callable[[TableState], bool]:
    def check(state: TableState) -> bool:
        return state.assignment is not None and state.assignment.round == number
    return check


class Simulation:
    """Run ``tables`` simulated tables over ``records``; ``broker_for(table)`` gives each
    table's broker settings (None: no MQTT)."""

    def __init__(self, records: list[Playable], *, tables: int, folder: Path,
                 event: str = "sim", boards_per_round: int = 4, speed: float = 0.0,
                 broker_for: Callable[[int], BrokerSettings | None] = lambda _: None,
                 on_result: Callable[[BoardOutcome], None] | None = None,
                 drain: float = 0.0) -> None:
        self.runs = deal_out(records, tables, boards_per_round)
        self.drain = drain
        """Seconds a table waits after its last board for the broker to acknowledge every
        event (its outbox empty) before it stops; 0: it stops at once, and what is left goes
        at its next start."""
        self.folder = folder
        self.event = event
        self.speed = speed
        self.broker_for = broker_for
        self.on_result = on_result
        self.seconds = 0.0
        self.stopping = threading.Event()
        self._threads: list[threading.Thread] = []

    def run(self, on_start: Callable[[], None] | None = None) -> list[TableRun]:
        """Play every table's rounds; ``on_start`` once every table's thread is running."""
        started = time.monotonic()
        # Daemon threads: a stop that outlasts ``stop``'s bound does not hold the process.
        self._threads = [threading.Thread(target=self._run_table, args=(run,),
                                          name=f"t{run.number}", daemon=True)
                         for run in self.runs]
        for thread in self._threads:
            thread.start()
        if on_start is not None:
            on_start()
        for thread in self._threads:
            # In steps: a signal sent to the process may land on any of its threads, and
            # Python runs the handler only when the main thread runs again, which a join
            # without a bound would put off until every table had finished its rounds.
            while thread.is_alive():
                thread.join(0.5)
        self.seconds = time.monotonic() - started
        return self.runs

    def stop(self, timeout: float = 30.0) -> None:
        """The players get up after the board they are playing; each table stops (its journal
        closed, its uplink says offline). Waits up to ``timeout`` for all of them together."""
        self.stopping.set()
        until = time.monotonic() + timeout
        for thread in self._threads:
            if thread.ident is not None:  # a stop may come before every thread started
                thread.join(max(0.0, until - time.monotonic()))

    def _run_table(self, run: TableRun) -> None:
        try:
            with SimulatedTable(self.folder / f"table-{run.number}.db", event=self.event,
                                number=run.number,
                                broker=self.broker_for(run.number)) as table:
                self._play(table, run)
                if self.drain > 0:
                    table.daemon.wait_for(lambda _: not table.daemon.inflight, self.drain)
                run.events = table.journal.last_seq
                run.unacknowledged = table.journal.outbox_size()
        except Exception as error:  # reported per table; the other tables play on
            run.error = f"{type(error).__name__}: {error}"

    def _pause(self, seconds: float) -> None:
        self.stopping.wait(seconds)  # a stop cuts the players' pauses short

    def _play(self, table: SimulatedTable, run: TableRun) -> None:
        players = RecordedPlayers(table, speed=self.speed, sleep=self._pause)
        for number, boards in enumerate(run.rounds, 1):
            if self.stopping.is_set():
                return
            table.daemon.inbox.put(Command(
                f"sim-{run.number}-round-{number}", "assign",
                {"round": number, "ns": 2 * run.number - 1, "ew": 2 * run.number,
                 "boards": [item.record.board for item in boards]}))
            if not table.daemon.wait_for(_in_round(number), table.timeout):
                raise RuntimeError(f"table {run.number} did not take round {number}")
            players.enter_players({seat: 100 * run.number + i for i, seat in enumerate(Seat)})
            for item in boards:
                if self.stopping.is_set():
                    return
                players.play_board(BoardScript.of(item.record, item.expected.tricks))
                assert item.record.board is not None
                result = table.state.results[item.record.board]
                outcome = BoardOutcome(
                    run.number, item.record.source_index, item.record.board, _expected(item),
                    (result.contract_text, None if result.declarer is None
                     else str(result.declarer), result.tricks, result.score_ns))
                run.outcomes.append(outcome)
                if self.on_result is not None:
                    self.on_result(outcome)
