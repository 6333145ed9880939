"""Key entry: what keys mean as numbers and calls, DIR at any time, and the phases where keys
are only numbers (the players) or mean nothing (waiting, the round over).

The keypad's digit buffer (player numbers, board numbers, tricks claimed) and a call typed as
level and strain or as one key are kept in each seat's ``SeatEntry`` (tabled.control.context).
The keys and what they do in each phase are in docs/keypad.md.
"""

from __future__ import annotations

from laws import DOUBLE, PASS, REDOUBLE, Bid, Call, Seat, Strain

from .context import Context, SeatEntry, director
from .outcome import Notice, Outcome, Proposed

LEVELS = {"1", "2", "3", "4", "5", "6", "7"}
STRAINS = {"C": Strain.C, "D": Strain.D, "H": Strain.H, "S": Strain.S, "NT": Strain.NT}
CALL_KEYS: dict[str, Call] = {"PASS": PASS, "X": DOUBLE, "XX": REDOUBLE}
DIGITS = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "C": 8, "D": 9, "S": 0}
MAX_DIGITS = 9


def forget_entries(ctx: Context) -> None:
    """The phase or the board changed: half-typed keys and a pending change of call belong
    to what is gone."""
    for entry in ctx.entries.values():
        entry.keys.clear()
        entry.replacing = False
        entry.alert = False
        entry.page = None
        entry.claim = None


def summon(ctx: Context, seat: Seat) -> Outcome:
    # Law 9B1(a): anyone may summon the director; the call goes out at once.
    return Outcome([director(ctx, seat, "player")]).tell(
        Seat, Notice("director_called", {"seat": str(seat)}, error=False))


def typed_number(ctx: Context, key: str, entry: SeatEntry) -> tuple[bool, int | None]:
    """Digit entry: (confirmed, number). UNDO rubs out the last digit."""
    if key == "UNDO":
        if entry.keys:
            entry.keys.pop()
        return False, None
    if key == "OK":
        digits = "".join(str(d) for d in map(ctx.digit, entry.keys) if d is not None)
        entry.keys.clear()
        return True, int(digits) if digits else None
    if ctx.digit(key) is not None and len(entry.keys) < MAX_DIGITS:
        entry.keys.append(key)
    return False, None


def typed_call(entry: SeatEntry) -> Call | None:
    """The call the seat's keys spell, or None."""
    keys = entry.keys
    if len(keys) == 1 and keys[0] in CALL_KEYS:
        return CALL_KEYS[keys[0]]
    if len(keys) == 2 and keys[0] in LEVELS and keys[1] in STRAINS:
        return Bid(int(keys[0]), STRAINS[keys[1]])
    return None


def waiting_key(ctx: Context, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
    return Outcome().tell([seat], Notice("waiting", error=False))


def players_key(ctx: Context, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
    """The players sign in: each seat types its player's number."""
    done, number = typed_number(ctx, key, entry)
    if not done:
        return Outcome()
    if number == 0:
        return Outcome().tell([seat], Notice("bad_number"))
    roster = ctx.state.roster
    if number is not None and roster is not None and number not in roster:
        # Not in the session's register: the seat types again, or the director adds the
        # player as a visitor from the console and the table gets the roster (issue 17).
        return Outcome().tell([seat], Notice("unknown_player", {"number": number}))
    return Outcome([Proposed("player", None, {"seat": str(seat), "number": number})])


def round_over_key(ctx: Context, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
    return Outcome().tell([seat], Notice("round_over", error=False))
