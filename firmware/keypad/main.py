"""The USB seat-keypad board (Raspberry Pi Pico): copied to the board as ``/main.py``.

Edit the wiring below to match the board, then flash it with
``python3 -m firmware.flash keypad`` (firmware/README.md). ``build(hw)`` makes the application
from a hardware shim: ``firmware.shim`` on the board, a simulated one in the tests. A module
for fewer seats lists only those in ``COLUMNS`` and ``LCDS``.
"""

from firmware import shim
from firmware.common.device import Device
from firmware.drivers.hd44780 import Hd44780
from firmware.drivers.matrix import KeyMatrix
from firmware.keypad.app import KeypadApp

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from typing import Any

# Five row lines shared by the seats (through a diode per seat and row, as on the Pi's hub).
ROWS = [2, 3, 4, 5, 6]
# Each seat's four column lines, columns 0-3 (internal pull-ups).
COLUMNS = {
    "N": [7, 8, 9, 10],
    "E": [11, 12, 13, 14],
    "S": [15, 16, 17, 18],
    "W": [19, 20, 21, 22],
}
# The seat LCDs share I2C0 (SDA GP0, SCL GP1) through a 3.3 V / 5 V level shifter.
I2C_BUS = 0
I2C_SDA = 0
I2C_SCL = 1
LCDS = {"N": 0x27, "E": 0x26, "S": 0x25, "W": 0x23}
# True if every key has its own diode: then every chord is read (no ghost filter).
KEY_DIODES = False


def build(hw: "Any") -> KeypadApp:
    clock = hw.Clock()
    device = Device(hw.UsbSerial(), clock, "keypad")
    rows = [hw.open_drain_pin(number) for number in ROWS]
    columns = {}
    for seat in COLUMNS:
        columns[seat] = [hw.input_pin(number, True) for number in COLUMNS[seat]]
    matrix = KeyMatrix(rows, columns, clock)
    lcds = {}
    if LCDS:
        i2c = hw.i2c(I2C_BUS, I2C_SDA, I2C_SCL)
        for seat in LCDS:
            lcds[seat] = Hd44780(i2c, LCDS[seat], clock)
    return KeypadApp(device, matrix, lcds, ghost_filter=not KEY_DIODES)


def main() -> None:
    app = build(shim)
    app.start()
    shim.run_forever(app.step, app.clock)


if __name__ == "__main__":
    main()
