"""What every phase of the controller reads: the table's state, what each seat has typed, the
keypad's digits and the one thing the controller remembers between inputs; and what any phase
may propose: a call to the director."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from laws import Card, Seat
from tablemodel.state import TableState

from .outcome import Proposed

#: The longest detail of a director call (the wire's limit): a longer one is cut.
DETAIL = 200


@dataclass
class SeatEntry:
    """What a seat has typed but not confirmed: not an accepted input, so it lives here and
    not in the journal, and a power cut forgets it."""

    keys: list[str] = field(default_factory=list)
    replacing: bool = False  # Law 25A: the next call replaces this seat's unintended call
    review: bool = False     # Law 20B: the seat is reviewing the auction
    alert: bool = False      # self-alerting: ALERT pressed with the call being typed
    page: str | None = None  # "ask" (Law 20F), "card" (Law 40B2(c)), "claim" (Law 68)
    pick: int | None = None  # the opponents' call the page is about (auction index)
    scroll: int = 0          # the card page: how far down the meaning
    answer: int = 0          # answering a question: which answer of the list is shown
    claim: int | None = None  # the claim page: the tricks typed, shown back to be confirmed


def _every_seat() -> dict[Seat, SeatEntry]:
    return {seat: SeatEntry() for seat in Seat}


@dataclass
class Context:
    """One table's controller: every phase's functions take it first. The functions read
    ``state`` and never change it; they change only what the seats have typed (``entries``)
    and ``out_of_turn_at_reader``."""

    state: TableState
    #: The keypad's digit of a key (keys.DIGITS unless the daemon's keypad says otherwise).
    digit: Callable[[str], int | None]
    entries: dict[Seat, SeatEntry] = field(default_factory=_every_seat)
    # Law 58A: the card out of turn last read at a seat's own reader. Only two cards read at
    # two seats' readers can tell the table they were played at the same time: one reader for
    # the table reads the cards one after the other whenever they were played (then the
    # director rules 58A). Not journalled: it only matters for the next second or so.
    out_of_turn_at_reader: tuple[Seat, Card] | None = None


def board_number(ctx: Context) -> int | None:
    return None if ctx.state.board is None else ctx.state.board.number


def director(ctx: Context, seat: Seat | None, reason: str, law: str | None = None,
             detail: str | None = None, code: str | None = None,
             params: Mapping[str, Any] | None = None) -> Proposed:
    """A call to the director, for the board on the table (if any); ``detail`` in English
    (old journals and consoles read it), and the same as a message ``code`` with its
    ``params`` (laws/messages.py), which the console says in its language."""
    data: dict[str, Any] = {"seat": None if seat is None else str(seat), "reason": reason}
    if law:
        data["law"] = law
    if detail:
        data["detail"] = detail[:DETAIL]
    if code:
        data["code"] = code
        data["params"] = dict(params or {})
    return Proposed("director", board_number(ctx), data)
