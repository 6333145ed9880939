"""How a table is conducted: screens or not, and the regulator's alert norms (Law 40B2).

``Screens`` says who sits on which side of the screen and how long the tray stays on a side
at least. A ``Profile`` is a regulating authority's alert procedure; the first is the Spanish
federation's (AEB norms on the alert procedure, in ../shared/seeds):

- Norm 1: a call that is not natural is alerted (the pair's card says which are).
- Norms 3-4: without screens, no call above 3NT is alerted, natural or not, except an
  artificial opening above 3NT and an artificial direct response above 3NT.
- Norm 8: doubles that are not for penalty are alerted, except the take-out double straight
  over a natural suit opening and the reopening double; the card says which doubles are what.
- Screens, B1: every call that is not natural is alerted, above 3NT too; each player alerts
  to the screenmate (the usual screen regulations), so self-alerting under screens always.
- Who alerts without screens: the caller's partner (Law 20F and the federation's practice), or
  the caller in a self-alerting profile.

A profile also carries the tempo the table measures the laws of timing by, since the laws
leave the figures to the regulating authority and the director: how long a pause before a
call is a hesitation the opponents may reserve their rights on (Law 16B1), how soon a change
of call is still "without pause for thought" (Law 25A1; later it is Law 25B's), and how close
together two cards from one hand are read to count as played at once (Law 58B; a later one is
a card played too soon, 57A).
"""

from __future__ import annotations

from dataclasses import dataclass

from laws import DOUBLE, PASS, Bid, Seat, Strain
from laws.auction import Auction

THREE_NT = Bid(3, Strain.NT)
DEFAULT_TRAY_DELAY = 8.0
#: The default tempo, in seconds: a hesitation (16B1), a change of call without pause (25A1),
#: two cards at once (58B).
DEFAULT_HESITATION = 10.0
DEFAULT_CHANGE_PAUSE = 5.0
DEFAULT_SIMULTANEOUS = 1.5


@dataclass(frozen=True)
class Screens:
    """North sits with ``north_with`` (East by default) on one side; the other two on the
    other. The tray never crosses sooner than ``tray_delay`` seconds after it arrived."""

    north_with: Seat = Seat.E
    tray_delay: float = DEFAULT_TRAY_DELAY

    def __post_init__(self) -> None:
        if self.north_with not in (Seat.E, Seat.W):
            raise ValueError("screens separate partners: North sits with East or West")
        if not 0 <= self.tray_delay <= 120:
            raise ValueError("the tray delay is 0 to 120 seconds")

    def side(self, seat: Seat) -> int:
        """0 for North's side of the screen, 1 for South's."""
        return 0 if seat in (Seat.N, self.north_with) else 1

    def screenmate(self, seat: Seat) -> Seat:
        """The opponent on ``seat``'s side of the screen."""
        return next(s for s in Seat if s is not seat and self.side(s) == self.side(seat))

    @property
    def name(self) -> str:
        return "NE-SW" if self.north_with is Seat.E else "NW-SE"


@dataclass(frozen=True)
class Profile:
    """A regulating authority's alert procedure."""

    name: str
    title: str
    self_alert: bool  # without screens: the caller alerts (True) or the caller's partner
    # Law 16B1: a call made more than this many seconds after the call before it is shown to
    # the opponents as a hesitation they may reserve their rights on (16B2).
    hesitation: float = DEFAULT_HESITATION
    # Law 25A1: a change of call confirmed later than this after the call it replaces was
    # not made without pause for thought; it goes to the director under Law 25B.
    change_pause: float = DEFAULT_CHANGE_PAUSE
    # Law 58B: a second card from the hand that has just played, read within this many
    # seconds of the first, came with it; later it is a card played too soon (57A).
    simultaneous: float = DEFAULT_SIMULTANEOUS

    def __post_init__(self) -> None:
        if not 0 < self.hesitation <= 300:
            raise ValueError("a hesitation is more than 0 and at most 300 seconds")
        if not 0 < self.change_pause <= 60:
            raise ValueError("the pause of a change of call is more than 0 and at most 60 "
                             "seconds")
        if not 0 < self.simultaneous <= 10:
            raise ValueError("two cards at once are read more than 0 and at most 10 seconds "
                             "apart")

    def alerter(self, caller: Seat, screens: Screens | None) -> Seat:
        """Who alerts ``caller``'s call to whom it concerns, first of all."""
        return caller if screens is not None or self.self_alert else caller.partner


PROFILES: dict[str, Profile] = {
    "feb": Profile("feb", "Federación Española de Bridge (AEB norms), partner alerts",
                   self_alert=False),
    "feb-self": Profile("feb-self", "AEB norms, each player alerts their own calls",
                        self_alert=True),
}
DEFAULT_PROFILE = PROFILES["feb"]


def _first_bid(auction: Auction) -> int | None:
    return next((i for i, e in enumerate(auction.entries) if isinstance(e.call, Bid)), None)


def is_opening(auction: Auction, index: int) -> bool:
    return _first_bid(auction) == index


def is_direct_response(auction: Auction, index: int) -> bool:
    """The opener's partner's first call after the opening (norm 4.2)."""
    opening = _first_bid(auction)
    if opening is None or opening >= index:
        return False
    responder = auction.entries[opening].seat.partner
    entries = auction.entries
    if entries[index].seat is not responder:
        return False
    return not any(entries[i].seat is responder for i in range(opening + 1, index))


def is_takeout_position(auction: Auction, index: int, *, opening_natural: bool = True) -> bool:
    """Norm 8's two exceptions: a double straight over a natural suit opening, or the
    reopening double (the opening, two passes, the double)."""
    opening = _first_bid(auction)
    entries = auction.entries
    if opening is None or not opening_natural or entries[index].call != DOUBLE:
        return False
    bid = entries[opening].call
    if not isinstance(bid, Bid) or bid.strain is Strain.NT:
        return False
    if index == opening + 1:
        return True
    return index == opening + 3 and all(entries[i].call == PASS
                                        for i in (opening + 1, opening + 2))


def alert_required(card_alert: bool | None, auction: Auction, index: int,
                   screens: Screens | None, *, penalty: bool | None = None,
                   opening_natural: bool = True) -> bool:
    """Whether the call at ``index`` must be alerted, given what the pair's card says of it
    (``card_alert``; None when the card has no entry, and then nothing can be asked of the
    player). For a double whose card says whether it is for penalty (``penalty``), norm 8
    decides: a double that is not for penalty is alerted, except in the two take-out
    positions, where a penalty double is the one alerted (norm 8's example)."""
    call = auction.entries[index].call
    if call == DOUBLE and penalty is not None:
        takeout = is_takeout_position(auction, index, opening_natural=opening_natural)
        return penalty if takeout else not penalty
    if not card_alert:
        return False
    if screens is not None:
        return True  # screens B1: above 3NT too
    if isinstance(call, Bid) and call.supersedes(THREE_NT):
        # Norms 3-4: above 3NT only an artificial opening or direct response.
        return is_opening(auction, index) or is_direct_response(auction, index)
    return True
