"""Seats, suits, ranks and cards: small value types whose text form round-trips."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import ClassVar

from .errors import InvalidCardError, InvalidNotationError


class Side(enum.Enum):
    """A partnership: North-South or East-West."""

    NS = "NS"
    EW = "EW"

    def __str__(self) -> str:
        return self.value

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS


class Seat(enum.Enum):
    """A compass seat, in bidding and playing order (clockwise from North)."""

    N = 0
    E = 1
    S = 2
    W = 3

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Seat.{self.name}"

    def __hash__(self) -> int:  # Enum hashes by name, slowly; seats key every hand and trick
        return self._value_

    @classmethod
    def from_str(cls, text: str) -> Seat:
        seat = _SEAT_NAMES.get(text)
        if seat is None:
            seat = _SEAT_NAMES.get(text.strip().upper())
            if seat is None:
                raise InvalidNotationError("not_a_seat", text=text)
        return seat

    def next(self, n: int = 1) -> Seat:
        """The seat ``n`` places clockwise (n=1 is the left-hand opponent)."""
        return _SEATS[(self._value_ + n) % 4]

    @property
    def lho(self) -> Seat:
        return self.next(1)

    @property
    def partner(self) -> Seat:
        return self.next(2)

    @property
    def rho(self) -> Seat:
        return self.next(3)

    @property
    def side(self) -> Side:
        return Side.NS if self.value % 2 == 0 else Side.EW

    @classmethod
    def clockwise_from(cls, first: Seat) -> tuple[Seat, Seat, Seat, Seat]:
        return _CLOCKWISE[first._value_]


_SEATS: tuple[Seat, ...] = tuple(Seat)
_CLOCKWISE: tuple[tuple[Seat, Seat, Seat, Seat], ...] = tuple(
    (s, _SEATS[(s.value + 1) % 4], _SEATS[(s.value + 2) % 4], _SEATS[(s.value + 3) % 4])
    for s in _SEATS)
_SEAT_NAMES: dict[str, Seat] = {
    "N": Seat.N, "NORTH": Seat.N, "NORTE": Seat.N,
    "E": Seat.E, "EAST": Seat.E, "ESTE": Seat.E,
    "S": Seat.S, "SOUTH": Seat.S, "SUR": Seat.S,
    "W": Seat.W, "WEST": Seat.W, "O": Seat.W, "OESTE": Seat.W}


class Suit(enum.Enum):
    """A suit, ordered as in bidding: clubs < diamonds < hearts < spades."""

    C = 0
    D = 1
    H = 2
    S = 3

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    def __hash__(self) -> int:
        return self._value_

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return self.value < other.value

    @classmethod
    def from_str(cls, text: str) -> Suit:
        key = text.strip().upper()
        key = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}.get(key, key)
        try:
            return cls[key]
        except KeyError:
            raise InvalidNotationError("not_a_suit", text=text) from None

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self.value]


class Rank(enum.Enum):
    """A rank, 2 (lowest) to ace (highest)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return "23456789TJQKA"[self.value - 2]

    def __str__(self) -> str:
        return self.char

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Rank):
            return NotImplemented
        return self.value < other.value

    @classmethod
    def from_str(cls, text: str) -> Rank:
        rank = _RANKS.get(text)
        if rank is not None:
            return rank
        key = text.strip().upper()
        if key == "10":
            key = "T"
        if len(key) != 1 or key not in "23456789TJQKA":
            raise InvalidNotationError("not_a_rank", text=text)
        return _RANKS[key]

    @property
    def hcp(self) -> int:
        """Milton Work high-card points (4-3-2-1)."""
        return max(0, self.value - 10)


# Rank.from_str's common texts: each rank's character, either case, and "10".
_RANKS: dict[str, Rank] = {char: rank for rank, char in zip(Rank, "23456789TJQKA", strict=True)}
_RANKS.update({char.lower(): rank for char, rank in _RANKS.items()})
_RANKS["10"] = Rank.TEN


@dataclass(frozen=True, eq=False, slots=True)
class Card:
    """A playing card. ``str(Card.from_str("SQ")) == "SQ"``."""

    suit: Suit
    rank: Rank
    # 0..51, clubs two first, spades ace last: cards are hashed and compared by it, since
    # the play looks cards up in hands and tricks on every card played.
    index: int = field(init=False, repr=False)

    ALL: ClassVar[tuple[Card, ...]]

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", self.suit._value_ * 13 + self.rank._value_ - 2)

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index == other.index

    def __str__(self) -> str:
        return f"{self.suit.name}{self.rank.char}"

    def __repr__(self) -> str:
        return f"Card.from_str({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise InvalidCardError("card_index_out_of_range", index=index)
        return cls.ALL[index]

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse ``"SQ"``, ``"sq"``, ``"S10"``, ``"♠Q"``, or rank first (``"QS"``, ``"10S"``)."""
        card = _CARD_TEXTS.get(text)
        if card is not None:
            return card
        key = text.strip().upper()
        if len(key) < 2 or len(key) > 3:
            raise InvalidCardError("not_a_card", text=text)
        try:
            return cls._parse(key[0], key[1:])
        except InvalidNotationError:
            pass
        try:
            return cls._parse(key[-1], key[:-1])
        except InvalidNotationError:
            raise InvalidCardError("not_a_card", text=text) from None

    @classmethod
    def _parse(cls, suit: str, rank: str) -> Card:
        if suit not in "CDHS♣♦♥♠":
            raise InvalidNotationError("not_a_suit", text=suit)
        return cls.ALL[Suit.from_str(suit).value * 13 + Rank.from_str(rank).value - 2]


Card.ALL = tuple(Card(suit, rank) for suit in Suit for rank in Rank)
# Card.from_str's answers for the usual texts, either case, suit or rank first, each read the
# long way once here.
_CARD_TEXTS: dict[str, Card] = {}
_CARD_TEXTS.update({
    text: Card.from_str(text)
    for suit in "CDHScdhs♣♦♥♠" for rank in (*"23456789TJQKAtjqka", "10")
    for text in (suit + rank, rank + suit)})

