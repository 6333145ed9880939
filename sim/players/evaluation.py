"""Hand evaluation as the club's house rules (seed 004) count it.

High-card points are 4-3-2-1 (A K Q J; the ten is an honour worth nothing). Distribution
points come from short suits: a void, or a singleton ace, 3 ("fallo"); another singleton 2
("semifallo"); a doubleton by its strength: A K 3, A x and K Q 2, K x 1, any other 0. The
seed writes ``x`` for a card that is not an honour, but read that way A Q would be worth less
than A 2; the table grades a doubleton by its strength, so ``x`` is read here as any lower
card that no other line names (A Q is an "A x", K J a "K x").

The shapes: *regular* (4333, 4432), *mixed* (a five-card suit with 5332, 5422, 5431), and
*unbalanced*: tricolour (three suits of four or more: 4441, 5440), bicolour (two of five or
more), monocolour (one of six or more, not bicolour).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from laws import Card, Rank, Suit

HONOURS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)


class Kind(enum.Enum):
    """The seed's families of shapes."""

    REGULAR = "regular"
    MIXED = "mixed"
    TRICOLOUR = "tricolour"
    BICOLOUR = "bicolour"
    MONOCOLOUR = "monocolour"


def shortness_points(ranks: Iterable[Rank]) -> int:
    """The distribution points of one suit holding."""
    held = sorted(ranks, reverse=True)
    if not held or held == [Rank.ACE]:
        return 3  # fallo: a void, or only the ace
    if len(held) == 1:
        return 2  # semifallo
    if len(held) == 2:
        top, second = held
        if top is Rank.ACE:
            return 3 if second is Rank.KING else 2
        if top is Rank.KING:
            return 2 if second is Rank.QUEEN else 1
    return 0


def honours(ranks: Iterable[Rank]) -> int:
    return sum(1 for rank in ranks if rank in HONOURS)


def biddable(suit: Suit, ranks: Iterable[Rank]) -> bool:
    """The seed's *palo marcable*: minors H H x x, H x x x x, x x x x x x; majors H H H x,
    H H x x x, H x x x x x (the seed's last major line, printed as five cards, reads as six:
    five would make its H H x x x line idle). A longer suit with as many honours also
    qualifies, and a major of seven or more always does."""
    held = list(ranks)
    length, count = len(held), honours(held)
    if suit in (Suit.C, Suit.D):
        return (length >= 4 and count >= 2) or (length >= 5 and count >= 1) or length >= 6
    return ((length >= 4 and count >= 3) or (length >= 5 and count >= 2)
            or (length >= 6 and count >= 1) or length >= 7)


@dataclass(frozen=True)
class Evaluation:
    """What the house rules see in a hand."""

    hcp: int
    distribution: int
    lengths: tuple[int, int, int, int]  # by Suit: clubs, diamonds, hearts, spades
    kind: Kind
    ranks: tuple[tuple[Rank, ...], ...]  # each suit's ranks, highest first

    @property
    def total(self) -> int:
        return self.hcp + self.distribution

    @property
    def shape(self) -> tuple[int, ...]:
        """The lengths, longest first: (5, 3, 3, 2)."""
        return tuple(sorted(self.lengths, reverse=True))

    @property
    def balanced(self) -> bool:
        """The seed's *mano regular*: 4333 or 4432."""
        return self.kind is Kind.REGULAR

    def length(self, suit: Suit) -> int:
        return self.lengths[suit.value]

    def holding(self, suit: Suit) -> tuple[Rank, ...]:
        return self.ranks[suit.value]

    def biddable(self, suit: Suit) -> bool:
        return biddable(suit, self.ranks[suit.value])

    def honours(self, suit: Suit) -> int:
        return honours(self.ranks[suit.value])

    def top_honours(self, suit: Suit) -> int:
        """Of A, K, Q: what the 5NT and 6C asks count."""
        return sum(1 for rank in self.ranks[suit.value]
                   if rank in (Rank.ACE, Rank.KING, Rank.QUEEN))

    def count(self, rank: Rank) -> int:
        return sum(1 for held in self.ranks if rank in held)

    @property
    def aces(self) -> int:
        return self.count(Rank.ACE)

    @property
    def kings(self) -> int:
        return self.count(Rank.KING)

    @property
    def regular_for_opening(self) -> bool:
        """Openings treat a mixed hand with a five-card minor as regular."""
        if self.kind is Kind.REGULAR:
            return True
        if self.kind is not Kind.MIXED:
            return False
        return max(Suit, key=self.length) in (Suit.C, Suit.D)

    def stopper(self, suit: Suit) -> bool:
        """A guard for no trump: A, K x, Q x x, J x x x."""
        held = self.ranks[suit.value]
        return any(len(held) >= 15 - rank.value for rank in held if rank.value >= Rank.JACK.value)


def kind_of(lengths: Iterable[int]) -> Kind:
    shape = sorted(lengths, reverse=True)
    fives = sum(1 for n in shape if n >= 5)
    fours = sum(1 for n in shape if n >= 4)
    if fives >= 2:
        return Kind.BICOLOUR
    if shape[0] >= 6:
        return Kind.MONOCOLOUR
    if fours >= 3:
        return Kind.TRICOLOUR
    if shape[0] == 5:
        return Kind.MIXED  # 5332, 5422, 5431
    return Kind.REGULAR  # 4333, 4432


def evaluate(hand: Iterable[Card]) -> Evaluation:
    """High-card points, distribution points, total, shape and family of ``hand``."""
    by_suit: list[list[Rank]] = [[], [], [], []]
    for card in hand:
        by_suit[card.suit.value].append(card.rank)
    ranks = tuple(tuple(sorted(held, reverse=True)) for held in by_suit)
    hcp = sum(rank.hcp for held in ranks for rank in held)
    distribution = sum(shortness_points(held) for held in ranks)
    c, d, h, s = (len(held) for held in ranks)
    lengths = (c, d, h, s)
    return Evaluation(hcp, distribution, lengths, kind_of(lengths), ranks)
