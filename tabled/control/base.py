"""What every part of the controller reads: the table's state; what any may propose: a
call to the director."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabled.rules import Seat

from ..state import TableState
from .outcome import Proposed

#: The longest detail of a director call (the wire's limit): a longer one is cut.
DETAIL = 200


class Room:
    """A part of the controller (a mixin of :class:`tabled.control.Controller`, which sets
    ``state``). It reads the state and never changes it."""

    state: TableState

    def _director(self, seat: Seat | None, reason: str, law: str | None = None,
                  detail: str | None = None, code: str | None = None,
                  params: Mapping[str, Any] | None = None) -> Proposed:
        """A director call; ``detail`` in English (old journals and consoles read it), and
        the same as a message ``code`` with its ``params`` (tabled/rules/messages.py), which
        the console says in its language."""
        data: dict[str, Any] = {"seat": None if seat is None else str(seat), "reason": reason}
        if law:
            data["law"] = law
        if detail:
            data["detail"] = detail[:DETAIL]
        if code:
            data["code"] = code
            data["params"] = dict(params or {})
        return Proposed("director", self._board_number(), data)

    def _board_number(self) -> int | None:
        return None if self.state.board is None else self.state.board.number
