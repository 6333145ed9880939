"""A table's result as the director writes it (a correction of the score, an adjusted score,
Law 12C): the row changed, or made, seated as the movement has it, when the table sent none;
the values it had before, for the audit."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import and_, insert, select, update

from server.setup.session import Session
from server.storage import schema as s


def write_result(conn: Any, session: Session, table: int, board: int,
                 values: Mapping[str, Any], now: float,
                 audited: Iterable[str]) -> dict[str, Any] | None:
    """Put ``values`` into the result of ``table`` on ``board`` (a row made for it if the table
    sent none, seated as the movement has it); the ``audited`` values it had before, or None
    when there was no row."""
    key = and_(s.results.c.event == session.event, s.results.c.table_no == table,
               s.results.c.board == board)
    row = conn.execute(select(s.results).where(key)).first()
    before = None if row is None else {name: getattr(row, name) for name in audited}
    if row is None:
        seating = session.plan.find(table, board)
        conn.execute(insert(s.results).values(
            event=session.event, table_no=table, board=board,
            round=seating.round if seating else None, ns=seating.ns if seating else None,
            ew=seating.ew if seating else None, source_seq=0, finished_at=now, **values))
    else:
        conn.execute(update(s.results).where(key).values(**values))
    return before
