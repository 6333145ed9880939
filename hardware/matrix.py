"""Debouncing, ghost rejection and auto-repeat for one key matrix: pure logic, no pins.

The scanner (``hardware.keypad``) reads each seat's matrix as one bitmask per row (bit c set
when column c reads the row's key as closed) and feeds it here once per scan.

Debounce: a key's state flips only after ``debounce`` consecutive scans that all disagree with
it, so a contact that chatters for fewer scans yields nothing, and a held key yields one press.

Ghosts: on a pad without a diode per key, three keys at three corners of a rectangle also
close the fourth corner electrically, so the raw reading cannot tell which of the four are down.
A row that reads two or more keys while sharing a column with another row that reads any is
ambiguous; such rows keep their last debounced state until the pattern goes away. Any two
keys at once are never ambiguous, so two-key chords are always reported, key by key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Transition:
    """Key (row, column) went down or up; ``repeat`` marks an auto-repeat of a held key."""

    row: int
    column: int
    pressed: bool
    repeat: bool = False


def ghost_rows(raw: Sequence[int]) -> set[int]:
    """Rows whose reading may include ghost keys (see the module docstring)."""
    suspect: set[int] = set()
    for i, bits in enumerate(raw):
        if bits & (bits - 1) == 0:  # fewer than two keys in this row
            continue
        for j, other in enumerate(raw):
            if j != i and bits & other:
                suspect.update((i, j))
    return suspect


class Debouncer:
    """The debounced state of one ``rows`` x ``columns`` matrix."""

    def __init__(self, rows: int, columns: int, debounce: int = 3, *,
                 ghost_filter: bool = True, repeat_delay: float = 0.0,
                 repeat_interval: float = 0.15) -> None:
        if debounce < 1:
            raise ValueError("debounce must be at least one scan")
        self.rows = rows
        self.columns = columns
        self.debounce = debounce
        self.ghost_filter = ghost_filter
        self.repeat_delay = repeat_delay
        self.repeat_interval = repeat_interval
        self._mask = (1 << columns) - 1
        self._stable = [0] * rows
        self._count = [[0] * columns for _ in range(rows)]
        self._repeat_due: dict[tuple[int, int], float] = {}

    @property
    def pressed(self) -> frozenset[tuple[int, int]]:
        """The (row, column) of every key that is down after debouncing."""
        return frozenset((r, c) for r in range(self.rows) for c in range(self.columns)
                         if self._stable[r] >> c & 1)

    def update(self, raw: Sequence[int], now: float = 0.0) -> list[Transition]:
        """Take one scan's raw reading; return the keys that changed, in row-column order."""
        if len(raw) != self.rows:
            raise ValueError(f"expected {self.rows} rows, got {len(raw)}")
        sample = [bits & self._mask for bits in raw]
        if self.ghost_filter:
            for r in ghost_rows(sample):
                sample[r] = self._stable[r]
        changes: list[Transition] = []
        for r in range(self.rows):
            differ = sample[r] ^ self._stable[r]
            counts = self._count[r]
            for c in range(self.columns):
                if not differ >> c & 1:
                    counts[c] = 0
                    continue
                counts[c] += 1
                if counts[c] < self.debounce:
                    continue
                counts[c] = 0
                self._stable[r] ^= 1 << c
                pressed = bool(self._stable[r] >> c & 1)
                changes.append(Transition(r, c, pressed))
                if pressed and self.repeat_delay > 0:
                    self._repeat_due[r, c] = now + self.repeat_delay
                else:
                    self._repeat_due.pop((r, c), None)
        for (r, c), due in sorted(self._repeat_due.items()):
            if now >= due:
                changes.append(Transition(r, c, True, repeat=True))
                self._repeat_due[r, c] = now + self.repeat_interval
        return changes
