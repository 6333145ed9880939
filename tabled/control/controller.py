"""The controller: the table's parts put together, and what a key means in each phase."""

from __future__ import annotations

from collections.abc import Callable

from laws import Seat
from tablemodel.state import Phase, TableState

from .commands import CommandInput
from .keys import DIGITS, SeatEntry
from .outcome import Outcome
from .play import PlayInput
from .questions import QuestionInput


class Controller(PlayInput, QuestionInput, CommandInput):
    """Turns inputs into proposed events for one table. One thread calls it."""

    def __init__(self, state: TableState, *,
                 digit: Callable[[str], int | None] = DIGITS.get) -> None:
        self.state = state
        self.digit = digit
        self.entries: dict[Seat, SeatEntry] = {seat: SeatEntry() for seat in Seat}

    def key(self, seat: Seat, key: str) -> Outcome:
        entry = self.entries[seat]
        if key == "DIR":
            return self._summon(seat)
        if key == "INFO":
            return self._info(seat, entry)
        board = self.state.board
        if board is not None and board.open_questions(seat):
            return self._answering(seat, key, entry, board)
        if entry.page == "claim":  # Law 68: the claim page takes its keys while it is open
            if board is not None and self._may_claim(seat, board):
                answer = self._claim_key(seat, key, entry, board)
                if answer is not None:
                    return answer
            entry.page, entry.claim = None, None  # left the page: the key does what it does
        if entry.page is not None and board is not None:
            if key in ("UNDO", "OK"):
                return self._page_key(seat, key, entry, board)
            entry.page = None  # any other key leaves the page and does what it does
        phase = self.state.phase
        handler = {
            Phase.WAITING: self._waiting,
            Phase.PLAYERS: self._players,
            Phase.BOARD: self._choose_board,
            Phase.SETUP: self._calling,
            Phase.AUCTION: self._calling,
            Phase.LEAD: self._playing,
            Phase.PLAY: self._playing,
            Phase.RESULT: self._result,
            Phase.ROUND_END: self._round_end,
        }[phase]
        return handler(seat, key, entry)
