"""What the drivers put on the table's queue.

Drivers never touch table state: each turns raw input into one of these immutable events and
puts it on a ``queue.Queue`` that the single table thread drains. ``t`` is the driver's clock
(``time.monotonic()`` unless a test injects another) at the moment the input was recognised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeAlias

from laws import Card, Seat

from .protocol import Message


@dataclass(frozen=True, slots=True)
class KeyEvent:
    """A seat's key went down (``pressed``) or up, after debouncing.

    ``repeat`` marks the extra presses of auto-repeat (off unless configured); a table that does
    not want repeats can drop them. Keys are the names of ``hardware/keypad.toml`` ("1", "NT",
    "PASS", "OK", ...).
    """

    seat: Seat
    key: str
    pressed: bool
    t: float
    repeat: bool = False


@dataclass(frozen=True, slots=True)
class CardEvent:
    """A card was read.

    ``card`` is None when the reader sent a tag the tag table does not know; ``tag`` is None when
    the reader identified the card itself. ``seat`` is the reader position that saw it, if the
    reader has one per seat. ``deck`` names the registered deck a tag belongs to, so the table
    can notice a card from another board.
    """

    card: Card | None
    tag: str | None
    seat: Seat | None
    t: float
    deck: str | None = None


@dataclass(frozen=True, slots=True)
class ReaderStatus:
    """The serial device behind ``url`` was connected or lost (unplugged, reset)."""

    connected: bool
    url: str
    t: float


@dataclass(frozen=True, slots=True)
class ReaderMessage:
    """Any other message from the device: an error report, a version or health answer."""

    message: Message
    t: float


HardwareEvent: TypeAlias = KeyEvent | CardEvent | ReaderStatus | ReaderMessage


class EventSink(Protocol):
    """Where drivers put their events: in practice the table's ``queue.Queue``."""

    def put(self, item: HardwareEvent, /) -> None: ...
