"""Strains, calls and contracts: the vocabulary of the auction (Laws 18 and 19)."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import ClassVar

from .cards import Suit
from .errors import InvalidCallError, InvalidNotationError


class Strain(enum.Enum):
    """A denomination, in the rank order of Law 18E: clubs < diamonds < hearts < spades < NT."""

    C = 0
    D = 1
    H = 2
    S = 3
    NT = 4

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Strain.{self.name}"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Strain):
            return NotImplemented
        return self.value < other.value

    @classmethod
    def from_str(cls, text: str) -> Strain:
        strain = _STRAIN_TEXTS.get(text)
        if strain is not None:
            return strain
        key = text.strip().upper()
        key = {"N": "NT", "SA": "NT", "ST": "NT", "♣": "C", "♦": "D", "♥": "H", "♠": "S"}.get(
            key, key)
        try:
            return cls[key]
        except KeyError:
            raise InvalidNotationError("not_a_strain", text=text) from None

    @property
    def suit(self) -> Suit | None:
        """The trump suit, or None at no trump."""
        return None if self is Strain.NT else Suit(self.value)

    @classmethod
    def of(cls, suit: Suit) -> Strain:
        return cls(suit.value)

    @property
    def is_major(self) -> bool:
        return self in (Strain.H, Strain.S)

    @property
    def is_minor(self) -> bool:
        return self in (Strain.C, Strain.D)


# Strain.from_str's answers for the usual texts, read the long way once here.
_STRAIN_TEXTS: dict[str, Strain] = {}
_STRAIN_TEXTS.update({text: Strain.from_str(text) for text in (
    "C", "D", "H", "S", "NT", "N", "SA", "ST", "c", "d", "h", "s", "nt", "n", "sa", "st", "Nt",
    "♣", "♦", "♥", "♠")})


class Doubling(enum.Enum):
    """Whether the final bid was doubled or redoubled (Law 19D)."""

    UNDOUBLED = ""
    DOUBLED = "X"
    REDOUBLED = "XX"

    def __str__(self) -> str:
        return self.value

    @property
    def factor(self) -> int:
        return {"": 1, "X": 2, "XX": 4}[self.value]


class Call:
    """A call of the auction: a :class:`Bid`, or :data:`PASS`, :data:`DOUBLE`, :data:`REDOUBLE`.

    ``Call.from_str`` reads the forms found on bidding boxes and in records, in English and
    Spanish: ``1NT``, ``1N``, ``1ST``, ``Pass``, ``P``, ``Paso``, ``X``, ``Dbl``, ``Doblo``,
    ``XX``, ``Rdbl``, ``Redoblo``.
    """

    __slots__ = ()

    _BID = re.compile(r"^([1-9])\s*(NT|N|ST|SA|C|D|H|S|♣|♦|♥|♠)$")
    _OTHERS: ClassVar[dict[str, str]] = {
        "P": "P", "PASS": "P", "PASO": "P", "-": "P",
        "X": "X", "D": "X", "DBL": "X", "DOUBLE": "X", "DOBLO": "X",
        "XX": "XX", "R": "XX", "RDBL": "XX", "REDOUBLE": "XX", "REDOBLO": "XX",
    }

    @classmethod
    def from_str(cls, text: str) -> Call:
        call = _CALL_TEXTS.get(text)
        if call is not None:
            return call
        key = text.strip().upper()
        other = cls._OTHERS.get(key)
        if other == "P":
            return PASS
        if other == "X":
            return DOUBLE
        if other == "XX":
            return REDOUBLE
        match = cls._BID.match(key)
        if match is None:
            raise InvalidCallError("not_a_call", text=text)
        level = int(match.group(1))
        return Bid(level, Strain.from_str(match.group(2)))

    @property
    def is_bid(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Bid(Call):
    """A bid: a level and a strain (Law 18A). Levels above seven exist only to be refused
    by the auction (Law 38), so a bid of 8 can be represented and reported."""

    level: int
    strain: Strain

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 9:
            raise InvalidCallError("not_a_bid_level", level=self.level)

    def __str__(self) -> str:
        return f"{self.level}{self.strain.name}"

    def __repr__(self) -> str:
        return f"Call.from_str({str(self)!r})"

    @property
    def is_bid(self) -> bool:
        return True

    @property
    def rank(self) -> int:
        """Law 18B: a bid supersedes another when its rank is higher."""
        return (self.level - 1) * 5 + self.strain.value

    def supersedes(self, other: Bid) -> bool:
        return self.rank > other.rank


@dataclass(frozen=True, slots=True)
class _Pass(Call):
    def __str__(self) -> str:
        return "Pass"

    def __repr__(self) -> str:
        return "PASS"


@dataclass(frozen=True, slots=True)
class _Double(Call):
    def __str__(self) -> str:
        return "X"

    def __repr__(self) -> str:
        return "DOUBLE"


@dataclass(frozen=True, slots=True)
class _Redouble(Call):
    def __str__(self) -> str:
        return "XX"

    def __repr__(self) -> str:
        return "REDOUBLE"


PASS: Call = _Pass()
DOUBLE: Call = _Double()
REDOUBLE: Call = _Redouble()

ALL_BIDS: tuple[Bid, ...] = tuple(Bid(level, strain) for level in range(1, 8) for strain in Strain)

# Call.from_str's answers for the usual texts, read the long way once here; a Bid is frozen, so
# one object serves every reading of its text.
_CALL_TEXTS: dict[str, Call] = {}
_CALL_TEXTS.update({text: Call.from_str(text) for text in (
    *(f"{level}{strain}" for level in range(1, 8)
      for strain in ("C", "D", "H", "S", "NT", "N", "c", "d", "h", "s", "nt", "n")),
    "P", "Pass", "PASS", "pass", "p", "X", "x", "XX", "xx", "Dbl", "DBL", "dbl", "Rdbl", "RDBL",
    "rdbl", "D", "R", "Double", "Redouble")})


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract: level 1-7, strain, doubling. ``Contract.from_str("4HX")``.

    A passed-out board has no contract; functions that accept one take ``Contract | None``
    and :func:`parse_contract` reads ``"Pass"`` as None.
    """

    level: int
    strain: Strain
    doubling: Doubling = Doubling.UNDOUBLED

    _FORM = re.compile(r"^([1-7])\s*(NT|N|ST|SA|C|D|H|S)\s*(XX|X|R|D)?$")

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7:
            raise InvalidNotationError("contract_level", level=self.level)

    def __str__(self) -> str:
        return f"{self.level}{self.strain.name}{self.doubling.value}"

    def __repr__(self) -> str:
        return f"Contract.from_str({str(self)!r})"

    @classmethod
    def from_str(cls, text: str) -> Contract:
        match = cls._FORM.match(text.strip().upper())
        if match is None:
            raise InvalidNotationError("not_a_contract", text=text)
        doubling = {None: Doubling.UNDOUBLED, "X": Doubling.DOUBLED, "D": Doubling.DOUBLED,
                    "XX": Doubling.REDOUBLED, "R": Doubling.REDOUBLED}[match.group(3)]
        return cls(int(match.group(1)), Strain.from_str(match.group(2)), doubling)

    @property
    def tricks_needed(self) -> int:
        return self.level + 6

    @property
    def bid(self) -> Bid:
        return Bid(self.level, self.strain)


def parse_contract(text: str) -> Contract | None:
    """Read a contract, with ``Pass``/``AP``/``PO``/``P`` meaning the board was passed out."""
    if text.strip().upper() in ("PASS", "AP", "P", "PO", "PASSED", "PASSED OUT", "PASO"):
        return None
    return Contract.from_str(text)


def format_contract(contract: Contract | None) -> str:
    return "Pass" if contract is None else str(contract)
