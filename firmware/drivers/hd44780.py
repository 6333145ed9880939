"""A 20x4 HD44780 character LCD behind a PCF8574 I2C backpack, written row by row.

The backpack's port bits drive the LCD in 4-bit mode: P0 RS, P1 RW (always 0: we only
write), P2 E, P3 backlight, P4-P7 D4-D7. A nibble is three port writes (E low, high, low; the
LCD latches on the falling edge), and the PCF8574 takes a run of port writes in one I2C
transfer, so a whole row is one transfer. The same wiring and initialisation as the Pi's
``hardware/lcd.py``.
"""

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from firmware.interfaces import I2C, Clock

RS = 0x01
ENABLE = 0x04
BACKLIGHT = 0x08

CLEAR = 0x01
ENTRY_INCREMENT = 0x06
DISPLAY_ON = 0x0C
DISPLAY_OFF = 0x08
FUNCTION_4BIT_2LINE = 0x28
SET_DDRAM = 0x80
ROW_OFFSETS = (0x00, 0x40, 0x14, 0x54)
COLUMNS = 20


class Hd44780:
    """One seat's LCD at ``address`` (N 0x27, E 0x26, S 0x25, W 0x23 by the README)."""

    def __init__(self, i2c: "I2C", address: int, clock: "Clock") -> None:
        self.i2c = i2c
        self.address = address
        self.clock = clock
        self.rows = [b""] * len(ROW_OFFSETS)
        self.ready = False

    def _nibbles(self, out: bytearray, value: int, rs: int) -> None:
        for nibble in (value >> 4, value & 0x0F):
            byte = (nibble << 4) | rs | BACKLIGHT
            out.append(byte)
            out.append(byte | ENABLE)
            out.append(byte)

    def _send(self, data: "bytes | bytearray") -> None:
        self.i2c.writeto(self.address, bytes(data))  # OSError when it does not ACK

    def _command(self, value: int) -> None:
        out = bytearray()
        self._nibbles(out, value, 0)
        self._send(out)

    def reset(self) -> None:
        """The datasheet's initialisation by instruction, from any state, then a blank screen."""
        self.ready = False
        self.clock.sleep_ms(50)
        for wait_us in (4500, 200, 200):  # three 8-bit function sets resynchronise it
            self._send(bytes([0x30 | BACKLIGHT, 0x30 | BACKLIGHT | ENABLE, 0x30 | BACKLIGHT]))
            self.clock.sleep_us(wait_us)
        self._send(bytes([0x20 | BACKLIGHT, 0x20 | BACKLIGHT | ENABLE, 0x20 | BACKLIGHT]))
        self._command(FUNCTION_4BIT_2LINE)
        self._command(DISPLAY_OFF)
        self._command(CLEAR)
        self.clock.sleep_ms(2)
        self._command(ENTRY_INCREMENT)
        self._command(DISPLAY_ON)
        self.rows = [b" " * COLUMNS] * len(ROW_OFFSETS)
        self.ready = True

    def write_row(self, row: int, text: str) -> None:
        """Put ``text`` (printable ASCII, at most 20) on ``row``, padded with spaces."""
        data = text.encode()[:COLUMNS]
        data = data + b" " * (COLUMNS - len(data))
        if not self.ready:
            self.reset()
        if self.rows[row] == data:
            return
        self.ready = False  # until the row is written whole
        out = bytearray()
        self._nibbles(out, SET_DDRAM | ROW_OFFSETS[row], 0)
        for byte in data:
            self._nibbles(out, byte, RS)
        self._send(out)
        self.rows[row] = data
        self.ready = True
