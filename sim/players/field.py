"""A field of pairs that differ, as a club's does: each pair values its hands a little higher
or lower than the system says, and now and then plays another card of the suit than the one
the textbook chooses. The bots alone bid and play a deal the same way at every table, so every
pair of a session would score 50 %; with a style a pair, the travellers, percentages and
rankings of a simulated evening look like a real one's, and a better pair ranks higher.

A style is drawn from a seed and the pair's number, so every table a pair sits at (and every
run with the same seed) gives it the same one. Pure: the standard library and laws.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from laws import Card, Seat, Side
from laws.play import Play

#: What a club's pairs are like, drawn from: most value a hand as the system does, some a
#: point or two above or below it (they overbid or underbid).
JUDGEMENTS = (-2, -1, -1, 0, 0, 0, 0, 1, 1, 2)
SLIPS = (0.0, 0.12)
"""The range of a pair's chance, at each card it chooses, of playing another card of the
same suit than the bots' (a finesse not taken, an honour played too soon, a wrong discard)."""


@dataclass(frozen=True)
class Style:
    """How one pair bids and plays: ``judgement`` points added to every hand it values (more
    is bolder), ``slips`` the chance of another card of the suit at each card it chooses."""

    judgement: int = 0
    slips: float = 0.0

    def __post_init__(self) -> None:
        if not -5 <= self.judgement <= 5:
            raise ValueError(f"judgement {self.judgement}: -5 to 5 points")
        if not 0.0 <= self.slips <= 1.0:
            raise ValueError(f"slips {self.slips}: a chance, 0 to 1")

    @classmethod
    def drawn(cls, seed: int, pair: int) -> Style:
        """Pair ``pair``'s style in a field seeded ``seed``: the same each time."""
        rng = random.Random(f"{seed}:pair:{pair}")
        return cls(rng.choice(JUDGEMENTS), round(rng.uniform(*SLIPS), 3))


STEADY = Style()
"""The bots as they are: the system's valuation, the textbook's every card."""

Styles = Mapping[Side, Style]


def seated(seed: int, ns: int, ew: int, *, switch: bool = False) -> dict[Side, Style]:
    """The styles of the pairs an assignment seats: ``ns`` and ``ew`` by number, the other way
    round in an arrow-switch round (the pair numbered EW sits North-South)."""
    north, east = (ew, ns) if switch else (ns, ew)
    return {Side.NS: Style.drawn(seed, north), Side.EW: Style.drawn(seed, east)}


def judgement_of(styles: Styles | None, seat: Seat) -> int:
    return 0 if styles is None else styles.get(seat.side, STEADY).judgement


def slipped(play: Play, chosen: Card, styles: Styles | None, rng: random.Random) -> Card:
    """``chosen``, or now and then (the style of the side on play) another legal card of its
    suit: the kind of error a club player makes, not a card thrown at random."""
    seat = play.turn
    if styles is None or seat is None:
        return chosen
    style = styles.get(play.controller(seat).side, STEADY)
    if style.slips <= 0 or rng.random() >= style.slips:
        return chosen
    others = sorted((card for card in play.legal_cards()
                     if card.suit is chosen.suit and card != chosen), key=lambda c: c.index)
    return rng.choice(others) if others else chosen
