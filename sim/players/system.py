"""The vocabulary the bidding system is written in: options, what a call shows, the context.

The system (seed 004's natural system) is a set of *contexts*; each gives, in priority order,
the :class:`Option` s open to the player on turn. An option's call depends only on what the
table knows (the auction), and its ``when`` only on the hand: so the bidder takes the first
option its hand satisfies, and a player reading partner's call takes the options that make
that call and learns what they show. One table serves both, and a system card can list it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from laws import PASS, Bid, Call, Seat, Strain, Suit
from laws.auction import Auction

from .evaluation import Evaluation

Pred = Callable[[Evaluation], bool]
MAJORS = (Suit.S, Suit.H)
MINORS = (Suit.D, Suit.C)


def always(_: Evaluation) -> bool:
    return True


@dataclass(frozen=True)
class Shows:
    """What a call tells partner: a range of total points, minimum suit lengths, shape."""

    lo: int = 0
    hi: int = 40
    lengths: tuple[int, int, int, int] = (0, 0, 0, 0)
    balanced: bool = False


def shows(lo: int = 0, hi: int = 40, *, suit: Suit | None = None, length: int = 4,
          balanced: bool = False) -> Shows:
    lengths = [0, 0, 0, 0]
    if suit is not None:
        lengths[suit.value] = length
    return Shows(lo, hi, (lengths[0], lengths[1], lengths[2], lengths[3]), balanced)


@dataclass(frozen=True)
class Option:
    """A call the system offers, when the hand fits, and what it means."""

    call: Call
    when: Pred
    meaning: str
    tag: str
    shows: Shows = Shows()
    artificial: bool = False

    @property
    def alert(self) -> bool:
        return self.artificial


@dataclass
class Known:
    """What the table has learnt of one player's hand from its calls."""

    lo: int = 0
    hi: int = 40
    lengths: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    balanced: bool = False

    def learn(self, what: Shows) -> None:
        self.lo = max(self.lo, what.lo)
        self.hi = max(self.lo, min(self.hi, what.hi))
        self.lengths = [max(a, b) for a, b in zip(self.lengths, what.lengths, strict=True)]
        self.balanced = self.balanced or what.balanced

    def length(self, suit: Suit) -> int:
        return self.lengths[suit.value]


@dataclass(frozen=True)
class Step:
    """A call of the auction as the system reads it."""

    seat: Seat
    call: Call
    tag: str
    artificial: bool
    meaning: str

    @property
    def suit(self) -> Suit | None:
        """The suit a natural suit bid names."""
        call = self.call
        if isinstance(call, Bid) and call.strain is not Strain.NT and not self.artificial:
            return call.strain.suit
        return None


class Ctx:
    """The auction so far, read: who said what, and what each player has shown."""

    def __init__(self, auction: Auction, steps: list[Step], known: dict[Seat, Known]) -> None:
        turn = auction.turn
        assert turn is not None, "the auction is over"
        self.auction = auction
        self.steps = steps
        self.known = known
        self.me = turn
        self.partner = turn.partner

    @property
    def pk(self) -> Known:
        """What partner has shown."""
        return self.known[self.partner]

    @property
    def last_bid(self) -> Bid | None:
        return self.auction.last_bid

    @property
    def opening(self) -> Step | None:
        return next((s for s in self.steps if isinstance(s.call, Bid)), None)

    def ours(self) -> list[Step]:
        """Our side's calls from our opening on (passes included): opener, responder, ..."""
        opening = self.opening
        if opening is None:
            return []
        start = self.steps.index(opening)
        return [s for s in self.steps[start:] if s.seat.side is self.me.side]

    def last_of(self, seat: Seat) -> Step | None:
        return next((s for s in reversed(self.steps) if s.seat is seat and s.call != PASS),
                    None)

    def suits_of(self, seat: Seat) -> list[Suit]:
        """The suits ``seat`` has named naturally, first named first."""
        named: list[Suit] = []
        for step in self.steps:
            if step.seat is seat and step.suit is not None and step.suit not in named:
                named.append(step.suit)
        return named

    def last_suit_of_side(self) -> Suit | None:
        """The last suit our side named naturally (the 5NT and 6C asks are about it)."""
        for step in reversed(self.steps):
            if step.seat.side is self.me.side and step.suit is not None:
                return step.suit
        return None

    def tags(self) -> list[str]:
        return [s.tag for s in self.ours()]

    def cheapest(self, strain: Strain) -> int:
        """The lowest level at which ``strain`` may be bid now."""
        last = self.last_bid
        if last is None:
            return 1
        return last.level if strain.value > last.strain.value else last.level + 1

    def bid(self, level: int, strain: Strain | Suit) -> Bid | None:
        """The bid, or None above seven."""
        if isinstance(strain, Suit):
            strain = Strain.of(strain)
        return Bid(level, strain) if 1 <= level <= 7 else None

    def over(self, strain: Strain | Suit, jumps: int = 0) -> Bid | None:
        """``strain`` at the cheapest level, plus ``jumps`` levels."""
        if isinstance(strain, Suit):
            strain = Strain.of(strain)
        return self.bid(self.cheapest(strain) + jumps, strain)

    def legal(self, call: Call) -> bool:
        return self.auction.is_legal(call)


def supports(ev: Evaluation, suit: Suit, *, insisted: bool = False) -> bool:
    """The seed's *apoyo*: four cards, or three with two honours; three of any kind once
    partner insists on the suit at a higher level."""
    length = ev.length(suit)
    return length >= 4 or (length == 3 and (insisted or ev.honours(suit) >= 2))


def between(lo: int, hi: int = 40) -> Pred:
    return lambda ev: lo <= ev.total <= hi


def honour_points(lo: int, hi: int = 40) -> Pred:
    """High-card points only: the seed's table counts no-trump slams in "p. honores"."""
    return lambda ev: lo <= ev.hcp <= hi


def game_level(strain: Strain) -> int:
    return {Strain.NT: 3, Strain.S: 4, Strain.H: 4, Strain.D: 5, Strain.C: 5}[strain]


def target_level(strain: Strain, combined: int) -> int:
    """The seed's table of combined points: how high the partnership may go."""
    if combined >= 36:
        return 7
    if combined >= (33 if strain is Strain.NT else 32):
        return 6
    if strain is Strain.NT:
        return 3 if combined >= 25 else (2 if combined >= 23 else 1)
    if combined >= (25 if strain.is_major else 27):
        return game_level(strain)
    return 3 if combined >= 23 else (2 if combined >= 20 else 1)


def best_strain(ev: Evaluation, pk: Known, *, slam: bool = False) -> Strain:
    """Where the partnership belongs on what is known: a major with eight cards between the
    hands, else no trump for a regular hand, else a minor fit or a long suit of one's own.
    For a slam a minor fit comes before no trump."""
    def together(suit: Suit) -> int:
        own = ev.length(suit)
        if pk.length(suit) >= 4 and supports(ev, suit):
            own = max(own, 4)  # the seed's support: four cards, or three with two honours
        return own + max(pk.length(suit), 2 if own >= 6 else 0)

    majors = [s for s in MAJORS if together(s) >= 8]
    if majors:
        return Strain.of(max(majors, key=together))
    minors = [s for s in MINORS if together(s) >= 8]
    if minors and (slam or not (ev.balanced or pk.balanced)):
        return Strain.of(max(minors, key=together))
    return Strain.NT


def longest(ev: Evaluation, suits: tuple[Suit, ...] | list[Suit], *, minimum: int,
            biddable: bool = True) -> Suit | None:
    """The suit to name among ``suits``: the longest; of two of five or more the higher
    ("el más noble"), of two of four the lower ("el más pobre")."""
    fit = [s for s in suits if ev.length(s) >= minimum and (not biddable or ev.biddable(s))]
    if not fit:
        return None
    top = max(ev.length(s) for s in fit)
    tied = [s for s in fit if ev.length(s) == top]
    return max(tied) if top >= 5 else min(tied)
