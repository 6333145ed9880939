"""The table's whole pin map, read from the same file as the keypad layout (``keypad.toml``).

``KeypadLayout`` has the keypads' rows and columns; ``PinMap`` adds what else sits on the
Pi's header: the I2C bus of the seat LCDs and their addresses, the buzzer and the two LEDs.
The table's configuration takes these as its defaults (``tabled.config``), and the hub
board's circuit is generated from them (``hardware.circuits.hub``), so a GPIO is named once.

``HEADER`` is the Raspberry Pi's 40-pin header (the same on every model since the B+): which
physical pin carries each BCM GPIO, and which pins are power and ground.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from laws import Seat

from .errors import ConfigError
from .layout import DEFAULT_PATH, KeypadLayout

#: BCM GPIO -> physical pin of the 40-pin header.
HEADER: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}
HEADER_3V3 = (1, 17)
HEADER_5V = (2, 4)
HEADER_GND = (6, 9, 14, 20, 25, 30, 34, 39)
#: GPIO 0 and 1 (ID_SD, ID_SC) are kept for a HAT's ID EEPROM; the table never uses them.
RESERVED_GPIO = (0, 1)


@dataclass(frozen=True)
class PinMap:
    """Every GPIO the table uses, by what it does; ``functions()`` lists them all."""

    keypad: KeypadLayout
    i2c_bus: int = 1
    sda: int = 2
    scl: int = 3
    lcd_addresses: Mapping[Seat, int] = field(default_factory=dict)
    buzzer: int = 16
    ok_led: int = 20
    error_led: int = 21

    def __post_init__(self) -> None:
        if set(self.lcd_addresses) != set(Seat):
            raise ConfigError("lcd_addresses must give N, E, S and W")
        if len(set(self.lcd_addresses.values())) != len(self.lcd_addresses):
            raise ConfigError("two seats' LCDs have the same I2C address")
        if any(not 0x08 <= a <= 0x77 for a in self.lcd_addresses.values()):
            raise ConfigError("an LCD address is outside I2C's 0x08-0x77")
        used = [gpio for _, gpio in self.functions()]
        twice = sorted({gpio for gpio in used if used.count(gpio) > 1})
        if twice:
            raise ConfigError(f"GPIO used twice in the pin map: {twice}")
        off_header = sorted(gpio for gpio in used if gpio not in HEADER
                            or gpio in RESERVED_GPIO)
        if off_header:
            raise ConfigError(f"not a usable GPIO of the 40-pin header: {off_header}")

    def functions(self) -> list[tuple[str, int]]:
        """(what, BCM GPIO) for every line: ``row 0``, ``N column 2``, ``sda``, ``buzzer``..."""
        lines = [(f"row {i}", gpio) for i, gpio in enumerate(self.keypad.rows)]
        for seat in Seat:
            lines += [(f"{seat.name} column {c}", gpio)
                      for c, gpio in enumerate(self.keypad.columns[seat])]
        lines += [("sda", self.sda), ("scl", self.scl), ("buzzer", self.buzzer),
                  ("ok_led", self.ok_led), ("error_led", self.error_led)]
        return lines

    @classmethod
    def load(cls, path: str | Path = DEFAULT_PATH) -> PinMap:
        try:
            with open(path, "rb") as stream:
                data = tomllib.load(stream)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: {exc}") from None
        except OSError as exc:
            raise ConfigError(f"pin map {path}: {exc.strerror or exc}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PinMap:
        keypad = KeypadLayout.from_dict(data)
        try:
            i2c = data.get("i2c", {})
            feedback = data.get("feedback", {})
            addresses = data.get("lcd_addresses")
            lcds = (dict(DEFAULT_LCD_ADDRESSES) if addresses is None else
                    {Seat.from_str(seat): int(a) for seat, a in addresses.items()})
            return cls(
                keypad,
                i2c_bus=int(i2c.get("bus", 1)), sda=int(i2c.get("sda", 2)),
                scl=int(i2c.get("scl", 3)), lcd_addresses=lcds,
                buzzer=int(feedback.get("buzzer", 16)), ok_led=int(feedback.get("ok_led", 20)),
                error_led=int(feedback.get("error_led", 21)))
        except (AttributeError, TypeError, ValueError) as exc:
            if isinstance(exc, ConfigError):
                raise
            raise ConfigError(f"bad pin map: {exc!r}") from None


#: The addresses a PCF8574 backpack gets from its pads: N all open, E A0, S A1, W A2 bridged.
DEFAULT_LCD_ADDRESSES: Mapping[Seat, int] = {Seat.N: 0x27, Seat.E: 0x26, Seat.S: 0x25,
                                             Seat.W: 0x23}
