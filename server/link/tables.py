"""The tables as the director sees them: presence, phase, board, time since the last action."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, true

from server.storage import schema as s
from server.storage.db import Database


@dataclass(frozen=True)
class TableRow:
    table: int
    online: bool
    phase: str | None
    round: int | None
    board: int | None
    events: int  # stored with no gap
    missing: int  # numbers above a gap, asked again
    last_action_at: float | None
    open_calls: int

    def idle_seconds(self, now: float) -> float | None:
        return None if self.last_action_at is None else max(0.0, now - self.last_action_at)

    def to_json(self, now: float) -> dict[str, Any]:
        idle = self.idle_seconds(now)
        return {"table": self.table, "online": self.online, "phase": self.phase,
                "round": self.round, "board": self.board, "events": self.events,
                "missing": self.missing, "open_calls": self.open_calls,
                "idle_s": None if idle is None else round(idle, 1)}


def table_grid(db: Database, event: str, only: Collection[int] | None = None) -> list[TableRow]:
    """The status rows of ``event``'s tables, by number; of the tables in ``only`` alone when
    given (the live console fetches the rows that changed, not a thousand)."""
    chosen = sorted(only) if only is not None else None

    def wanted(column: Any) -> Any:
        return column.in_(chosen) if chosen is not None else true()

    with db.read() as conn:
        open_calls = select(s.director_calls.c.table_no, func.count()).where(
            s.director_calls.c.event == event, s.director_calls.c.resolved_at.is_(None),
            wanted(s.director_calls.c.table_no)).group_by(s.director_calls.c.table_no)
        calls: dict[int, int] = dict(conn.execute(open_calls).all())
        rows = conn.execute(select(s.table_status).where(
            s.table_status.c.event == event, wanted(s.table_status.c.table_no))
            .order_by(s.table_status.c.table_no)).all()
        # Stored above a gap: those are not missing, only the numbers between are.
        above: dict[int, int] = dict(conn.execute(
            select(s.events.c.table_no, func.count()).select_from(
                s.events.join(s.table_status, (s.events.c.event == s.table_status.c.event)
                              & (s.events.c.table_no == s.table_status.c.table_no)))
            .where(s.events.c.event == event, wanted(s.events.c.table_no),
                   s.events.c.seq > s.table_status.c.contiguous_seq)
            .group_by(s.events.c.table_no)).all())
    return [TableRow(r.table_no, bool(r.online), r.phase, r.round, r.board, r.contiguous_seq,
                     r.highest_seq - r.contiguous_seq - int(above.get(r.table_no, 0)),
                     r.last_action_at,
                     int(calls.get(r.table_no, 0))) for r in rows]
