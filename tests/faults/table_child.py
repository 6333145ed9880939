"""One table as a process of its own, for the fault harness (test_faults_*.py).

The real daemon on simulated hardware (sim.simtable), its uplink to a real broker (or
none), and four simulated players (sim.players) who bid and play seeded deals. The harness
kills it with SIGKILL and starts it again on the same journal; the players pick up wherever
the table is.

    python -m tests.faults.table_child JOURNAL TABLE BOARDS SEED [HOST:PORT]

The broker's user and password come from BIDBOX_FAULT_USER and BIDBOX_FAULT_PASSWORD (not
on the command line, where ``ps`` shows them). Each line on stdout is JSON: first
``{"start": ...}`` with where the table resumed, then one line per event once it is durable
(the daemon's listeners run after the commit), then ``{"done": ...}`` once every board is
played and the broker has acknowledged every event; it stays until its stdin has a line or
closes, so the server can still ask it to resend.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from laws import Seat
from mqttlink import BrokerSettings
from sim.players import SimulatedPlayers, deal
from sim.simtable import SimulatedTable
from tabled.daemon import snapshot
from tablemodel.state import TableState
from tablemodel.wire import Command, Event

EVENT = "faults"
CLAIM_RATE = 1.0  # every board that can be claimed is: the harness kills mid-claim


def fingerprint(state: TableState) -> dict[str, Any]:
    """What the table is in the middle of, beyond the retained snapshot: the calls, the
    cards, a claim and who agreed, the players, the results (compared after a restart)."""
    board = state.board
    value: dict[str, Any] = {
        **snapshot(state),
        "players": {str(seat): number for seat, number in state.players.items()},
        "results": {str(b): [r.contract_text, r.tricks, r.score_ns]
                    for b, r in sorted(state.results.items())},
    }
    if board is not None:
        value["auction"] = [str(entry.call) + ("!" if entry.alert else "")
                            for entry in board.auction.entries]
        value["cards"] = [f"{seat}{card}" for seat, card in board.cards]
        value["scans"] = {str(seat): len(cards) for seat, cards in board.scans.items()}
        claim = board.play.claim if board.play is not None else None
        value["claim"] = None if claim is None else [
            str(claim.seat), claim.tricks, str(claim.state), sorted(map(str, claim.agreed_by))]
        value["confirmed"] = sorted(map(str, board.confirmed))
    return value


def where(state: TableState) -> dict[str, Any]:
    """The few facts the harness aims its kills at."""
    board = state.board
    claim = board is not None and board.play is not None and board.play.claim is not None
    return {"phase": state.phase.value, "cards": 0 if board is None else len(board.cards),
            "claim": claim}


def main() -> int:
    journal, table, boards, seed = (Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]),
                                    int(sys.argv[4]))
    broker = None
    if len(sys.argv) > 5:
        host, port = sys.argv[5].rsplit(":", 1)
        broker = BrokerSettings(host, int(port), os.environ["BIDBOX_FAULT_USER"],
                                os.environ["BIDBOX_FAULT_PASSWORD"])
    numbers = list(range(1, boards + 1))
    with SimulatedTable(journal, event=EVENT, number=table, broker=broker,
                        timeout=30.0) as sim:
        def say(line: dict[str, Any]) -> None:
            print(json.dumps(line), flush=True)

        def report(event: Event) -> None:
            say({"seq": event.seq, "type": event.type, "data": event.data,
                 "snapshot": snapshot(sim.state), "outbox": sim.journal.outbox_size(),
                 **where(sim.state)})

        with sim.daemon.changed:  # the table thread holds it while it handles an input
            # A power cut between an event and the one the laws add to it (the result after
            # a pass-out's fourth pass, the last card, an agreed claim) leaves a journal that
            # owes that event; TableDaemon.start appends it (docs/faults.md, "Found"). Where
            # the table resumed is the journal as the kill left it: before those.
            owed = sim.daemon.resumed_owed
            resumed = sim.journal.last_seq - len(owed)
            then = TableState.replay(sim.journal.events(0, resumed)) if owed else sim.state
            say({"start": resumed, "fingerprint": fingerprint(then), "owed": owed,
                 "outbox": sim.journal.outbox_size(), **where(sim.state)})
            sim.daemon.listeners.append(report)
        if sim.state.assignment is None:
            sim.daemon.inbox.put(Command(f"faults-{table}", "assign", {
                "round": 1, "ns": 2 * table - 1, "ew": 2 * table, "boards": numbers}))
            if not sim.daemon.wait_for(lambda s: s.assignment is not None, 30.0):
                raise RuntimeError("the table did not take its assignment")
        players = SimulatedPlayers(sim, seed=seed, director_rate=0.0, claim_rate=CLAIM_RATE)
        players.enter_players({seat: 100 * table + i for i, seat in enumerate(Seat)})
        for number in numbers:
            if number not in sim.state.results:
                players.play_board(number, deal(seed, number))
        if broker is not None:  # every event at the broker before the table goes
            sim.daemon.wait_for(lambda _: sim.journal.outbox_size() == 0, 60.0)
        say({"done": sim.journal.last_seq, "outbox": sim.journal.outbox_size()})
        sys.stdin.readline()  # the harness says when the table may leave (or closes stdin)
    return 0


if __name__ == "__main__":
    sys.exit(main())
