"""Tables at play for the server's fault tests: the real table daemon on simulated keypads and
card reader, with its uplink to the broker, played by the simulation's players in a thread
each, as fast as the table takes input.

Each table is assigned its boards straight into its daemon (no session at the server is
needed: the server stores whatever a table journals), and plays them one after another.
``wait_done`` waits for every board's result; ``journalled()`` is what each table's journal
holds, the figure the server's stored events must reach.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path

from laws import Seat
from mqttlink import BrokerSettings
from sim.players import SimulatedPlayers, deal
from sim.simtable import SimulatedTable
from tablemodel.wire import Command

from .harness import EVENT, wait_until


class TablesAtPlay:
    """``tables`` playing ``boards`` boards each, in threads; ``close()`` stops them."""

    def __init__(self, folder: Path, broker_for: dict[int, BrokerSettings], *, boards: int,
                 seed: int, wait: float = 60.0) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.boards = boards
        self.seed = seed
        self.wait = wait
        self.tables = {number: SimulatedTable(folder / f"journal-{number}.db", event=EVENT,
                                              number=number, broker=settings)
                       for number, settings in broker_for.items()}
        self.played: dict[int, int] = dict.fromkeys(self.tables, 0)
        self.errors: list[BaseException] = []
        self.limit = boards  # the players pause before a board past this many
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> TablesAtPlay:
        for number, table in self.tables.items():
            table.start()
            table.daemon.inbox.put(Command(f"assign-{number}", "assign", {
                "round": 1, "ns": 2 * number - 1, "ew": 2 * number,
                "boards": list(range(1, self.boards + 1))}))
        for number, table in self.tables.items():
            assert table.daemon.wait_for(lambda s: s.assignment is not None, self.wait), \
                f"table {number} took no assignment"
            thread = threading.Thread(target=self._play, args=(number,), daemon=True,
                                      name=f"players-{number}")
            thread.start()
            self._threads.append(thread)
        return self

    def _play(self, number: int) -> None:
        table = self.tables[number]
        try:
            players = SimulatedPlayers(table, seed=self.seed + number, director_rate=0.0,
                                       claim_rate=0.0)
            players.enter_players({seat: 100 * number + i for i, seat in enumerate(Seat)})
            for board in range(1, self.boards + 1):
                while board > self.limit and not self._stop.wait(0.05):
                    pass
                if self._stop.is_set():
                    return
                players.play_board(board, deal(self.seed, board))
                self.played[number] += 1
        except BaseException as error:  # the test's thread reports it
            if not self._stop.is_set():
                self.errors.append(error)

    def journalled(self) -> dict[int, int]:
        """Each table's events, as its journal holds them now."""
        return {number: table.journal.last_seq for number, table in self.tables.items()}

    def wait_done(self, timeout: float | None = None) -> None:
        wait_until(lambda: bool(self.errors) or all(
            n == self.boards for n in self.played.values()),
            timeout or self.wait * self.boards, "every table to finish its boards")
        assert not self.errors, self.errors

    def close(self, numbers: Iterable[int] | None = None) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(self.wait)
        for number in numbers or list(self.tables):
            self.tables[number].stop()
