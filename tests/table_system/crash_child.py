"""A table that plays recorded boards and reports each event once it is durable.

Run as a script by test_power_cut.py, which kills it with SIGKILL at random moments and
starts it again on the same journal:
``python -m tests.table_system.crash_child JOURNAL RECORDS COUNT``. Each line on stdout is
one committed event with the table's snapshot after it; "done" ends a full run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from laws import Seat
from laws.formats import load_path
from sim.recorded import BoardScript, RecordedPlayers, playable
from sim.simtable import SimulatedTable
from tabled.daemon import snapshot
from tablemodel.wire import Command, Event


def scripts(records: Path, count: int) -> list[BoardScript]:
    good, _ = playable(load_path(records))
    chosen: list[BoardScript] = []
    for item in good:
        if all(s.board != item.record.board for s in chosen):
            chosen.append(BoardScript.of(item.record))
        if len(chosen) == count:
            break
    return chosen


def main() -> int:
    journal, records, count = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    boards = scripts(records, count)
    with SimulatedTable(journal, number=1) as table:
        def report(event: Event) -> None:
            print(json.dumps({"seq": event.seq, "type": event.type, "data": event.data,
                              "snapshot": snapshot(table.state)}), flush=True)

        table.daemon.listeners.append(report)
        if table.state.assignment is None:
            table.daemon.inbox.put(Command("round-1", "assign", {
                "round": 1, "ns": 1, "ew": 2, "boards": [s.board for s in boards]}))
            table.daemon.wait_for(lambda s: s.assignment is not None)
        players = RecordedPlayers(table)
        players.enter_players({seat: 10 + i for i, seat in enumerate(Seat)})
        for script in boards:
            players.play_board(script)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
