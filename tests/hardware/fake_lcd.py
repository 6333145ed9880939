"""A fake smbus2 bus with HD44780 LCDs behind PCF8574 backpacks on it.

It records every byte written and plays the controller's part: it latches a nibble on each
falling edge of E, starts in 8-bit mode as after power-up (so a driver that skips the
initialisation sequence gets garbage, as on the bench), executes the instructions the driver
uses, and renders DDRAM as the text a player would read. Custom characters are named by
matching their CGRAM bitmap against the bitmaps a test hands in.
"""

from __future__ import annotations

from collections.abc import Mapping

RS, RW, E, BL = 0x01, 0x02, 0x04, 0x08
ROW_OFFSETS = (0x00, 0x40, 0x14, 0x54)
ROM_A00_UPPER = {0xEE: "ñ", 0xF5: "ü", 0xE1: "ä", 0xEF: "ö", 0xDF: "°", 0xE4: "µ", 0xA5: "·",
                 0xFD: "÷", 0xFF: "█"}


class FakeHD44780:
    def __init__(self, glyph_names: Mapping[bytes, str] | None = None) -> None:
        self.glyph_names = dict(glyph_names or {})
        self.port = 0xFF  # the PCF8574's pins float high at power-up
        self.four_bit = False
        self.high: int | None = None  # first nibble of a byte in 4-bit mode
        self.lines = 1
        self.display_on = False
        self.increment = True
        self.ddram = bytearray(b" " * 0x68)
        self.cgram = bytearray(64)
        self.address = 0
        self.in_cgram = False
        self.commands: list[int] = []
        self.data_writes = 0

    # -- the bus side ------------------------------------------------------------------------

    def write(self, value: int) -> None:
        previous, self.port = self.port, value
        if value & RW:
            raise AssertionError("the driver must never set RW (it cannot read the LCD)")
        if previous & E and not value & E:
            self._latch(previous >> 4, bool(previous & RS))

    @property
    def backlight(self) -> bool:
        return bool(self.port & BL)

    def _latch(self, nibble: int, rs: bool) -> None:
        if not self.four_bit:
            # 8-bit interface: D0-D3 are not wired, so they read as 0.
            self._execute(nibble << 4, rs)
            return
        if self.high is None:
            self.high = nibble
            return
        byte, self.high = self.high << 4 | nibble, None
        self._execute(byte, rs)

    # -- the controller ------------------------------------------------------------------------

    def _execute(self, byte: int, rs: bool) -> None:
        if rs:
            self._write_data(byte)
            return
        self.commands.append(byte)
        if byte & 0x80:
            self.address, self.in_cgram = byte & 0x7F, False
        elif byte & 0x40:
            self.address, self.in_cgram = byte & 0x3F, True
        elif byte & 0x20:
            if not self.four_bit and not byte & 0x10:
                self.four_bit = True
            elif self.four_bit:
                assert not byte & 0x10, "switched back to 8-bit mode"
                self.lines = 2 if byte & 0x08 else 1
        elif byte & 0x10:
            raise AssertionError("cursor/display shift is not expected")
        elif byte & 0x08:
            self.display_on = bool(byte & 0x04)
        elif byte & 0x04:
            self.increment = bool(byte & 0x02)
            assert not byte & 0x01, "display shift on entry is not expected"
        elif byte & 0x02:
            self.address, self.in_cgram = 0, False
        elif byte & 0x01:
            self.ddram[:] = b" " * len(self.ddram)
            self.address, self.in_cgram = 0, False

    def _write_data(self, byte: int) -> None:
        self.data_writes += 1
        if self.in_cgram:
            self.cgram[self.address] = byte & 0x1F
            self.address = (self.address + 1) & 0x3F
            return
        assert self.increment, "the driver writes left to right"
        self.ddram[self.address] = byte
        self.address += 1
        if self.address == 0x28:
            self.address = 0x40
        elif self.address == 0x68:
            self.address = 0x00

    # -- what a player sees ----------------------------------------------------------------------

    def glyph(self, slot: int) -> bytes:
        return bytes(self.cgram[slot * 8:slot * 8 + 8])

    def char(self, code: int) -> str:
        if code < 8:
            return self.glyph_names.get(self.glyph(code), f"<cg{code}>")
        if code == 0x5C:
            return "¥"
        if code == 0x7E:
            return "→"
        if code == 0x7F:
            return "←"
        if 0x20 <= code < 0x7E:
            return chr(code)
        return ROM_A00_UPPER.get(code, f"<{code:02X}>")

    def screen(self, columns: int = 20, rows: int = 4) -> list[str]:
        if not self.display_on:
            return [""] * rows
        return ["".join(self.char(self.ddram[offset + i]) for i in range(columns))
                for offset in ROW_OFFSETS[:rows]]


class FakeBus:
    """Stands in for ``smbus2.SMBus``: one ``FakeHD44780`` per address given."""

    def __init__(self, addresses: tuple[int, ...] = (0x27,),
                 glyph_names: Mapping[bytes, str] | None = None) -> None:
        self.lcds = {address: FakeHD44780(glyph_names) for address in addresses}
        self.written: list[tuple[int, int]] = []
        self.fail = False

    def write_byte(self, i2c_addr: int, value: int) -> None:
        if self.fail or i2c_addr not in self.lcds:
            raise OSError(121, "Remote I/O error")  # what smbus2 raises on a missing ACK
        assert 0 <= value <= 0xFF
        self.written.append((i2c_addr, value))
        self.lcds[i2c_addr].write(value)
