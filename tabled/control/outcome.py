"""What the controller answers for an input: the events it proposes and the notices to show.

A refused input proposes nothing and tells the seat why, naming the law (``refusal``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from laws import IllegalActionError, LeadRestrictionError, RulesError, Seat


@dataclass(frozen=True)
class Notice:
    """Something to tell a seat: ``key`` names a text of tabled.i18n, ``law`` the law."""

    key: str
    args: Mapping[str, Any] = field(default_factory=dict)
    law: str | None = None
    error: bool = True




@dataclass(frozen=True)
class Proposed:
    """An event the controller wants appended: type, board and data."""

    type: str
    board: int | None
    data: Mapping[str, Any]


@dataclass
class Outcome:
    events: list[Proposed] = field(default_factory=list)
    notices: dict[Seat, Notice] = field(default_factory=dict)
    resend: tuple[int, int | None] | None = None  # a resend command's range
    repeat: int | None = None  # a repeated command: the seq of the event that answered it

    def tell(self, seats: Any, notice: Notice) -> Outcome:
        for seat in seats:
            self.notices[seat] = notice
        return self


def refusal(error: IllegalActionError, law: str | None = None) -> Notice:
    """The seat told why: the engine's code and params, which the seat's display says in its
    language (tabled.i18n.REFUSAL_TEXTS), with the law (``law`` when the table rules under
    another than the engine names)."""
    if isinstance(error, LeadRestrictionError) and law is None:
        # Laws 26, 50D2(a): which suit, and how
        return Notice("lead_suit" if error.required else "lead_not_suit",
                      {"suit": str(error.suit)}, error.law)
    return Notice("law", {"reason": error.reason, **said(error)}, law or error.law)


def said(error: RulesError) -> dict[str, Any]:
    """What the engine's error says, as the wire carries it: its code and params."""
    return {"code": error.code, "params": dict(error.params)}
