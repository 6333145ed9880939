"""A 20x4 HD44780 character LCD behind a PCF8574 I2C backpack, over smbus2.

The backpack's eight port bits drive the LCD in 4-bit mode:

    P0 RS   P1 RW   P2 E   P3 backlight   P4-P7 D4-D7

(the usual "LCM1602/2004 IIC" boards). RW is always 0: we only write. Each 4-bit nibble is
three bus writes: data with E low, E high, E low; the LCD latches on E's falling edge. A full
screen is 80 characters x 6 writes; ``show()`` only rewrites the rows that changed.

Addresses: the PCF8574 answers at 0x20-0x27 (0x27 with its three address pads open), the
PCF8574A at 0x38-0x3F. The README gives one address per seat (N 0x27, E 0x26, S 0x25, W 0x23).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .charset import LcdEncoder
from .display import COLUMNS, ROWS, fit
from .errors import DisplayError

RS = 0x01
RW = 0x02
ENABLE = 0x04
BACKLIGHT = 0x08

CLEAR = 0x01
ENTRY_MODE = 0x04
ENTRY_INCREMENT = 0x02
DISPLAY_CONTROL = 0x08
DISPLAY_ON = 0x04
FUNCTION_SET = 0x20
FUNCTION_8BIT = 0x10
FUNCTION_2LINE = 0x08
SET_CGRAM = 0x40
SET_DDRAM = 0x80

#: DDRAM address of the first cell of each row of a 20x4 panel (2-line mode, rows 0/2 and 1/3
#: are the two halves of the controller's two 40-cell lines).
ROW_OFFSETS = (0x00, 0x40, 0x14, 0x54)


class I2cBus(Protocol):
    """The part of ``smbus2.SMBus`` the LCD uses."""

    def write_byte(self, i2c_addr: int, value: int) -> None: ...


class CharacterLcd:
    """One seat's LCD. ``bus`` is an ``smbus2.SMBus`` (shared by the seats) or a bus number."""

    def __init__(self, bus: I2cBus | int = 1, address: int = 0x27, *,
                 columns: int = COLUMNS, rows: int = ROWS, backlight: bool = True,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if rows > len(ROW_OFFSETS):
            raise ValueError(f"at most {len(ROW_OFFSETS)} rows")
        self._owned_bus: Any = None
        if isinstance(bus, int):
            from smbus2 import SMBus

            try:
                bus = self._owned_bus = SMBus(bus)
            except OSError as exc:
                raise DisplayError(f"cannot open I2C bus {bus}: {exc}") from exc
        self.bus: I2cBus = bus
        self.address = address
        self.columns = columns
        self.rows = rows
        self._sleep = sleep
        self._backlight = BACKLIGHT if backlight else 0
        self._encoder = LcdEncoder()
        self._shown: list[bytes | None] = [None] * rows
        self._needs_reset = True
        try:
            self.reset()
        except DisplayError:
            self.close()
            raise

    def __enter__(self) -> CharacterLcd:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def reset(self) -> None:
        """The datasheet's "initialising by instruction" for 4-bit mode, then a blank screen.

        Safe in any state the controller may be in (8-bit after power-up, or 4-bit and out of
        step after the Pi restarted mid-nibble): three 8-bit function sets resynchronise it.
        ``show()`` calls it by itself after a write failed (the LCD may have lost power).
        """
        self._needs_reset = True
        self._sleep(0.05)  # > 40 ms after power rises to 2.7 V
        for wait in (0.0045, 0.0002, 0.0002):
            self._nibble(0x3, 0)
            self._sleep(wait)
        self._nibble(0x2, 0)  # now in 4-bit mode
        self._command(FUNCTION_SET | FUNCTION_2LINE)
        self._command(DISPLAY_CONTROL)  # display off while we set up
        self._command(CLEAR)
        self._sleep(0.002)
        self._command(ENTRY_MODE | ENTRY_INCREMENT)
        self._command(DISPLAY_CONTROL | DISPLAY_ON)  # no cursor, no blink
        self._encoder = LcdEncoder()
        self._shown = [b" " * self.columns] * self.rows
        self._needs_reset = False

    @property
    def backlight(self) -> bool:
        return bool(self._backlight)

    @backlight.setter
    def backlight(self, on: bool) -> None:
        self._backlight = BACKLIGHT if on else 0
        self._write(self._backlight)

    def show(self, lines: Sequence[str]) -> None:
        screen = fit(lines, self.columns, self.rows)
        if self._needs_reset:
            self.reset()
        self._needs_reset = True  # until this screen is fully written
        encoded, glyphs = self._encoder.encode(screen)
        for slot, bitmap in glyphs.items():
            self._command(SET_CGRAM | slot << 3)
            for row in bitmap:
                self._data(row)
        for r, data in enumerate(encoded):
            if data != self._shown[r]:
                self._command(SET_DDRAM | ROW_OFFSETS[r])
                for byte in data:
                    self._data(byte)
                self._shown[r] = data
        self._needs_reset = False

    def clear(self) -> None:
        self.show([])

    def close(self) -> None:
        """Leave the screen as it is, release the bus if this display opened it."""
        if self._owned_bus is not None:
            self._owned_bus.close()
            self._owned_bus = None

    # -- the wire ---------------------------------------------------------------------------

    def _command(self, value: int) -> None:
        self._nibble(value >> 4, 0)
        self._nibble(value & 0x0F, 0)

    def _data(self, value: int) -> None:
        self._nibble(value >> 4, RS)
        self._nibble(value & 0x0F, RS)

    def _nibble(self, nibble: int, rs: int) -> None:
        byte = (nibble << 4) | rs | self._backlight
        self._write(byte)
        self._write(byte | ENABLE)
        self._write(byte)

    def _write(self, byte: int) -> None:
        try:
            self.bus.write_byte(self.address, byte)
        except OSError as exc:
            raise DisplayError(f"LCD at I2C 0x{self.address:02X} did not answer: {exc}") from exc
