"""Where the session is, for everybody in the room: the round, each table's board and stage,
the boards finished of the boards scheduled.

The live results display shows it so that the room's screen is never blank while no board is
released yet. It holds nothing the release rule hides (server/scoring/standings.py): no contract, no
score, no lead, and a table's stage is coarse on purpose. "Playing board 5" covers the
auction, the play and the result alike, so that watching the screen does not tell a board
that was passed out (straight from the auction to its result) from one that was played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.link import round_times as roundclock
from server.link.tables import table_grid
from server.scoring.standings import all_results
from server.setup.movements import PHANTOM
from server.setup.session import Session
from server.storage.db import Database

#: The table's phase (tablemodel.state.Phase) -> the stage the public sees.
STAGES: dict[str | None, str] = {
    None: "waiting", "waiting": "waiting", "players": "seating", "board": "between",
    "setup": "playing", "auction": "playing", "lead": "playing", "play": "playing",
    "result": "playing", "round_end": "done"}


@dataclass(frozen=True)
class TableProgress:
    table: int
    online: bool
    stage: str           # waiting, seating, between, playing, done (STAGES), or offline
    board: int | None    # the board on the table while it is playing, else None
    finished: int        # boards of this round finished at this table
    scheduled: int       # boards of this round scheduled at this table

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "online": self.online, "stage": self.stage,
                "board": self.board, "finished": self.finished, "scheduled": self.scheduled}


@dataclass(frozen=True)
class Progress:
    round: int
    rounds: int
    finished: int        # (table, board) results stored, of the whole session
    scheduled: int       # (table, board) the movement schedules, phantom tables left out
    round_finished: int
    round_scheduled: int
    released: int        # boards on the live page
    tables: list[TableProgress]
    clock: dict[str, Any] | None = None  # the round clock (server/roundclock.clock_json)

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "rounds": self.rounds, "finished": self.finished,
                "scheduled": self.scheduled, "round_finished": self.round_finished,
                "round_scheduled": self.round_scheduled, "released": self.released,
                "tables": [t.to_json() for t in self.tables], "clock": self.clock}


def session_progress(db: Database, session: Session, released: int,
                     now: float | None = None) -> Progress:
    """The session's progress at ``now`` (the server's clock; None: without the round
    clock); ``released`` is how many boards the live page shows."""
    plan = session.plan
    done = {(r.table, r.board) for r in all_results(db, session)}
    scheduled = {(seat.table, board) for seat in plan.seatings
                 if PHANTOM not in (seat.ns, seat.ew) for board in seat.boards}
    number = session.current_round
    in_round: dict[int, set[int]] = {}
    if number >= 1:
        for seat in plan.round(number):
            if PHANTOM not in (seat.ns, seat.ew):
                in_round.setdefault(seat.table, set()).update(seat.boards)
    rows = {row.table: row for row in table_grid(db, session.event)}
    tables = []
    for table in range(1, session.tables + 1):
        row = rows.get(table)
        boards = in_round.get(table, set())
        stage = STAGES.get(None if row is None else row.phase, "waiting")
        if row is not None and not row.online:
            stage = "offline"
        playing = row is not None and STAGES.get(row.phase) == "playing"
        tables.append(TableProgress(
            table, bool(row and row.online), stage,
            row.board if playing and row is not None else None,
            sum((table, board) in done for board in boards), len(boards)))
    round_pairs = {(table, board) for table, boards in in_round.items() for board in boards}
    return Progress(number, session.rounds, len(done & scheduled), len(scheduled),
                    len(done & round_pairs), len(round_pairs), released, tables,
                    None if now is None else roundclock.clock_json(
                        roundclock.round_clock(db, session), now))
