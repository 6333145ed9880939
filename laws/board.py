"""Vulnerability, boards and deals.

A board's dealer and vulnerability follow from its number (Law 2 and the standard 16-board
cycle); a deal maps each seat to its hand, and a hand may be unknown (a record that lacks it,
or a table where the players have not scanned their cards).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from .cards import Card, Rank, Seat, Side, Suit
from .errors import InvalidDealError, InvalidNotationError


class Vulnerability(enum.Enum):
    NONE = "None"
    NS = "NS"
    EW = "EW"
    BOTH = "Both"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def from_str(cls, text: str) -> Vulnerability:
        """Read the PBN forms (``None``, ``Love``, ``-``, ``NS``, ``EW``, ``Both``, ``All``),
        LIN's one-letter ones (``o``, ``n``, ``e``, ``b``) and the Spanish words."""
        key = text.strip().upper().replace("-", "").replace("/", "")
        table = {"NONE": cls.NONE, "LOVE": cls.NONE, "": cls.NONE, "O": cls.NONE, "0": cls.NONE,
                 "NADIE": cls.NONE, "NINGUNO": cls.NONE,
                 "NS": cls.NS, "N": cls.NS,
                 "EW": cls.EW, "E": cls.EW, "EO": cls.EW,
                 "BOTH": cls.BOTH, "ALL": cls.BOTH, "B": cls.BOTH, "TODOS": cls.BOTH}
        try:
            return table[key]
        except KeyError:
            raise InvalidNotationError("not_a_vulnerability", text=text) from None

    def is_vulnerable(self, who: Seat | Side) -> bool:
        side = who.side if isinstance(who, Seat) else who
        return self is Vulnerability.BOTH or self.value == side.value

    @classmethod
    def of(cls, ns: bool, ew: bool) -> Vulnerability:
        return {(False, False): cls.NONE, (True, False): cls.NS,
                (False, True): cls.EW, (True, True): cls.BOTH}[(ns, ew)]


# The standard cycle of 16 boards: each row of four is rotated one step from the last.
_CYCLE = "NONE NS EW BOTH NS EW BOTH NONE EW BOTH NONE NS BOTH NONE NS EW".split()


@dataclass(frozen=True, slots=True)
class Board:
    """A board number, with its dealer and vulnerability from the standard cycle."""

    number: int

    def __post_init__(self) -> None:
        if self.number < 1:
            raise InvalidNotationError("board_number_low", number=self.number)

    @property
    def dealer(self) -> Seat:
        return Seat((self.number - 1) % 4)

    @property
    def vulnerability(self) -> Vulnerability:
        return Vulnerability[_CYCLE[(self.number - 1) % 16]]


Hand = frozenset[Card]


# The index of each rank in a suit (two first) by its character, as Rank.from_str reads it.
_RANK_INDEX: dict[str, int] = {char: index for index, char in enumerate("23456789TJQKA")}
_RANK_INDEX.update({char.lower(): index for char, index in _RANK_INDEX.items()})
# Hands already read, by their text: a file gives each deal at every table that played it.
_HANDS: dict[str, Hand] = {}


# The hands of deals already read, by the Deal tag's text: one deal is played at many tables.
_DEALS: dict[str, dict[Seat, Hand]] = {}


def hand_from_pbn(text: str) -> Hand:
    """A hand in PBN form: ``S.H.D.C`` holdings, e.g. ``AKQ.JT9.8765.432``."""
    hand = _HANDS.get(text)
    if hand is not None:
        return hand
    holdings = text.split(".")
    if len(holdings) != 4:
        raise InvalidDealError("hand_not_four_suits", text=text)
    deck = Card.ALL
    ranks = _RANK_INDEX
    cards: list[Card] = []
    for base, holding in zip((39, 26, 13, 0), holdings, strict=True):
        for char in holding.strip():
            index = ranks.get(char)
            if index is None:
                try:
                    index = Rank.from_str(char).value - 2
                except InvalidNotationError:
                    raise InvalidDealError("hand_bad_rank", char=char, text=text) from None
            cards.append(deck[base + index])
    hand = frozenset(cards)
    if len(hand) != len(cards):
        raise InvalidDealError("hand_card_twice", text=text)
    if len(_HANDS) >= 4096:
        _HANDS.clear()
    _HANDS[text] = hand
    return hand


def hand_to_pbn(hand: Iterable[Card]) -> str:
    by_suit: dict[Suit, list[Rank]] = {suit: [] for suit in Suit}
    for card in hand:
        by_suit[card.suit].append(card.rank)
    return ".".join("".join(rank.char for rank in sorted(by_suit[suit], reverse=True))
                    for suit in (Suit.S, Suit.H, Suit.D, Suit.C))


@dataclass(frozen=True)
class Deal:
    """The four hands of a board; a hand not known is absent from ``hands``."""

    hands: Mapping[Seat, Hand]

    def __post_init__(self) -> None:
        seen: set[Card] = set()
        for seat, hand in self.hands.items():
            if len(hand) > 13:
                raise InvalidDealError("hand_too_many", seat=str(seat), count=len(hand))
            twice = seen & hand
            if twice:
                names = " ".join(sorted(str(c) for c in twice))
                raise InvalidDealError("cards_in_two_hands", cards=names)
            seen |= hand

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """``"N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 ..."``; a hand of ``-`` is unknown."""
        known = _DEALS.get(text)
        if known is not None:
            return cls(dict(known))
        key = text
        text = text.strip()
        if len(text) < 2 or text[1] != ":":
            raise InvalidDealError("pbn_deal_first_seat", text=text)
        try:
            first = Seat.from_str(text[0])
        except InvalidNotationError:
            raise InvalidDealError("pbn_deal_bad_seat", char=text[0], text=text) from None
        parts = text[2:].split()
        if len(parts) != 4:
            raise InvalidDealError("pbn_deal_four_hands", text=text)
        hands: dict[Seat, Hand] = {}
        for seat, part in zip(Seat.clockwise_from(first), parts, strict=True):
            if part != "-":
                hands[seat] = hand_from_pbn(part)
        for seat, hand in hands.items():
            if len(hand) != 13:
                raise InvalidDealError("hand_not_thirteen", seat=str(seat), count=len(hand))
        deal = cls(hands)
        if len(_DEALS) >= 1024:
            _DEALS.clear()
        _DEALS[key] = dict(hands)
        return deal

    def to_pbn(self, first: Seat = Seat.N) -> str:
        return f"{first}:" + " ".join(
            hand_to_pbn(self.hands[seat]) if seat in self.hands else "-"
            for seat in Seat.clockwise_from(first))

    def __str__(self) -> str:
        return self.to_pbn()

    def __getitem__(self, seat: Seat) -> Hand:
        return self.hands[seat]

    def __contains__(self, seat: object) -> bool:
        return seat in self.hands

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.hands)

    @property
    def is_complete_for_play(self) -> bool:
        """All four hands known and 13 cards each."""
        return len(self.hands) == 4 and all(len(h) == 13 for h in self.hands.values())

    def owner(self, card: Card) -> Seat | None:
        """Whose hand the card was dealt to, when known."""
        for seat, hand in self.hands.items():
            if card in hand:
                return seat
        missing = [s for s in Seat if s not in self.hands]
        if len(missing) == 1 and all(len(h) == 13 for h in self.hands.values()):
            return missing[0]
        return None

    def completed(self) -> Deal:
        """With three hands of 13 known, the fourth follows."""
        missing = [s for s in Seat if s not in self.hands]
        if len(missing) != 1 or not all(len(h) == 13 for h in self.hands.values()):
            return self
        rest = frozenset(Card.ALL) - frozenset().union(*self.hands.values())
        return Deal({**self.hands, missing[0]: rest})

    def hcp(self, seat: Seat) -> int:
        return sum(card.rank.hcp for card in self.hands[seat])
