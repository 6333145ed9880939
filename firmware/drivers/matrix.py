"""Key matrices on the board's pins: shared row lines, each seat's own column lines.

The same circuit as the Pi's GPIO keypads (hardware/README.md): five row lines shared by the
seats, pulled low one at a time (open drain, so a row that is let go floats and no two
outputs ever fight), four column inputs with pull-ups per seat, and a diode in each of a
seat's row wires so seats never affect each other. A closed key pulls its column low while
its row is pulled low.
"""

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from firmware.interfaces import Clock, Pin

SETTLE_US = 20
"""Pause between pulling a row low and reading the columns, for long cables to settle."""


class KeyMatrix:
    """``rows``: open-drain Pins; ``columns``: per seat, its input Pins (with pull-ups)."""

    def __init__(self, rows: "list[Pin]", columns: "dict[str, list[Pin]]",
                 clock: "Clock") -> None:
        self.rows = rows
        self.columns = columns
        self.clock = clock
        for pin in rows:
            pin.value(1)

    def scan(self) -> "dict[str, list[int]]":
        """One scan: per seat, a bitmask per row, bit c set when column c reads closed."""
        readings: dict[str, list[int]] = {seat: [] for seat in self.columns}
        for row in self.rows:
            row.value(0)
            self.clock.sleep_us(SETTLE_US)
            for seat, pins in self.columns.items():
                bits = 0
                for c in range(len(pins)):
                    if not pins[c].value():
                        bits |= 1 << c
                readings[seat].append(bits)
            row.value(1)
        return readings
