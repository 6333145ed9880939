"""Key entry: what each seat has typed (``SeatEntry``) and what keys mean as numbers and calls.

The keypad's digit buffer (player numbers, board numbers, tricks claimed), a call typed as
level and strain or as one key, DIR at any time, and the phases where keys are only numbers
(players, the board) or mean nothing (waiting, the round over). What a seat has typed but not
confirmed is not an accepted input: it lives here, not in the journal, and a power cut
forgets it. The keys and what they do in each phase are in docs/keypad.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from laws import DOUBLE, PASS, REDOUBLE, Bid, Call, Seat, Strain

from .base import Room
from .outcome import Notice, Outcome, Proposed

LEVELS = {"1", "2", "3", "4", "5", "6", "7"}
STRAINS = {"C": Strain.C, "D": Strain.D, "H": Strain.H, "S": Strain.S, "NT": Strain.NT}
CALL_KEYS: dict[str, Call] = {"PASS": PASS, "X": DOUBLE, "XX": REDOUBLE}
DIGITS = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "C": 8, "D": 9, "S": 0}
MAX_DIGITS = 9


@dataclass
class SeatEntry:
    keys: list[str] = field(default_factory=list)
    replacing: bool = False  # Law 25A: the next call replaces this seat's unintended call
    review: bool = False     # Law 20B: the seat is reviewing the auction
    alert: bool = False      # self-alerting: ALERT pressed with the call being typed
    page: str | None = None  # "ask" (Law 20F), "card" (Law 40B2(c)), "claim" (Law 68)
    pick: int | None = None  # the opponents' call the page is about (auction index)
    scroll: int = 0          # the card page: how far down the meaning
    answer: int = 0          # answering a question: which answer of the list is shown
    claim: int | None = None  # the claim page: the tricks typed, shown back to be confirmed


class KeyEntry(Room):
    """Each seat's typed keys, read as numbers or as a call."""

    digit: Callable[[str], int | None]
    entries: dict[Seat, SeatEntry]

    def forget_entries(self) -> None:
        """The phase or the board changed: half-typed keys and a pending change of call
        belong to what is gone."""
        for entry in self.entries.values():
            entry.keys.clear()
            entry.replacing = False
            entry.alert = False
            entry.page = None
            entry.claim = None

    def _summon(self, seat: Seat) -> Outcome:
        # Law 9B1(a): anyone may summon the director; the call goes out at once.
        return Outcome([self._director(seat, "player")]).tell(
            Seat, Notice("director_called", {"seat": str(seat)}, error=False))

    def _number(self, seat: Seat, key: str, entry: SeatEntry) -> tuple[bool, int | None]:
        """Digit entry: (confirmed, number). UNDO rubs out the last digit."""
        if key == "UNDO":
            if entry.keys:
                entry.keys.pop()
            return False, None
        if key == "OK":
            digits = "".join(str(d) for d in map(self.digit, entry.keys) if d is not None)
            entry.keys.clear()
            return True, int(digits) if digits else None
        if self.digit(key) is not None and len(entry.keys) < MAX_DIGITS:
            entry.keys.append(key)
        return False, None

    def _entered_call(self, entry: SeatEntry) -> Call | None:
        keys = entry.keys
        if len(keys) == 1 and keys[0] in CALL_KEYS:
            return CALL_KEYS[keys[0]]
        if len(keys) == 2 and keys[0] in LEVELS and keys[1] in STRAINS:
            return Bid(int(keys[0]), STRAINS[keys[1]])
        return None

    def _is_call(self, entry: SeatEntry) -> bool:
        return self._entered_call(entry) is not None and any(
            self.digit(k) is None for k in entry.keys)

    def _waiting(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        return Outcome().tell([seat], Notice("waiting", error=False))

    def _players(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        done, number = self._number(seat, key, entry)
        if not done:
            return Outcome()
        if number == 0:
            return Outcome().tell([seat], Notice("bad_number"))
        roster = self.state.roster
        if number is not None and roster is not None and number not in roster:
            # Not in the session's register: the seat types again, or the director adds the
            # player as a visitor from the console and the table gets the roster (issue 17).
            return Outcome().tell([seat], Notice("unknown_player", {"number": number}))
        return Outcome([Proposed("player", None, {"seat": str(seat), "number": number})])

    def _choose_board(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        done, number = self._number(seat, key, entry)
        if not done:
            return Outcome()
        state = self.state
        if number is None:
            number = state.next_board()
        if number is None or number not in state.boards_left:
            return Outcome().tell([seat], Notice("not_this_round", {"board": number}))
        dealer, vulnerability = state.board_facts(number)
        return Outcome([Proposed("board", number, {"board": number, "dealer": str(dealer),
                                                   "vul": str(vulnerability)})])

    def _round_end(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        return Outcome().tell([seat], Notice("round_over", error=False))
