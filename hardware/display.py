"""Seat displays: what each player reads, behind one Protocol.

A seat display shows four lines of twenty characters. ``TerminalDisplay`` prints them for the
simulator; ``hardware.lcd.CharacterLcd`` drives a 20x4 LCD at the seat.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from typing import Protocol, TextIO

from laws import Seat

COLUMNS = 20
ROWS = 4


class SeatDisplay(Protocol):
    """One seat's 4 x 20 screen."""

    def show(self, lines: Sequence[str]) -> None:
        """Show up to four lines of 20 characters, missing ones blank (a longer line ends in
        the read-on mark ``→``)."""

    def clear(self) -> None: ...


MORE = "→"
"""Ends a line too long for the display: the LCD's ROM arrow, never a silent cut."""


def fit(lines: Sequence[str], columns: int = COLUMNS, rows: int = ROWS) -> list[str]:
    """Exactly ``rows`` lines of exactly ``columns`` characters, padded. The table lays its
    lines out to fit (tabled.seat_lines); a line that still comes too long ends in ``MORE`` in
    its last column, so what is missing shows."""
    if isinstance(lines, str):
        raise TypeError("show() takes a sequence of lines, not one string")
    if len(lines) > rows:
        raise ValueError(f"a seat display has {rows} lines, got {len(lines)}")
    padded = [*lines, *([""] * (rows - len(lines)))]
    return [line.ljust(columns) if len(line) <= columns else line[:columns - 1] + MORE
            for line in padded]


_STREAM_LOCK = threading.Lock()


class TerminalDisplay:
    """Prints the seat's screen to a text stream, framed and labelled with the seat."""

    def __init__(self, seat: Seat, stream: TextIO | None = None, *,
                 columns: int = COLUMNS, rows: int = ROWS) -> None:
        self.seat = seat
        self.stream = stream if stream is not None else sys.stdout
        self.columns = columns
        self.rows = rows
        self.lines = fit([], columns, rows)

    def show(self, lines: Sequence[str]) -> None:
        self.lines = fit(lines, self.columns, self.rows)
        label = f"+- {self.seat.name} "
        block = [label + "-" * (self.columns + 1 - len(label)) + "+",
                 *(f"|{line}|" for line in self.lines),
                 "+" + "-" * self.columns + "+"]
        with _STREAM_LOCK:  # four seats may share one terminal
            self.stream.write("\n".join(block) + "\n")
            self.stream.flush()

    def clear(self) -> None:
        self.show([])
