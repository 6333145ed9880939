"""The card reader board (Raspberry Pi Pico): copied to the board as ``/main.py``.

Edit the wiring below to match the board, then flash it with
``python3 -m firmware.flash cardreader`` (firmware/README.md). ``build(hw)`` makes the
application from a hardware shim: ``firmware.shim`` on the board, a simulated one in the tests.
"""

from firmware import shim
from firmware.cardreader.app import CardReaderApp
from firmware.common import cards
from firmware.common.device import Device

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from typing import Any

# Which reader chip sits at each seat's slot: "mfrc522" (SPI) or "pn532" (I2C).
READER = "mfrc522"

# MFRC522s share SPI0 (SCK GP18, MOSI GP19, MISO GP16); each has its own chip select (SDA pin
# on the module). Their RST pins are tied to 3V3.
SPI_BUS = 0
SPI_SCK = 18
SPI_MOSI = 19
SPI_MISO = 16
CHIP_SELECT = {"N": 17, "E": 20, "S": 21, "W": 22}

# A PN532 answers at 0x24 only, so each has a bus of its own: (hardware bus 0 or 1, or None
# for software I2C; SDA; SCL).
PN532_BUSES = {"N": (0, 4, 5), "E": (1, 6, 7), "S": (None, 8, 9), "W": (None, 10, 11)}

# An optional tag table on the board (python3 -m firmware.flash --tags): send C, not T.
TAGS_FILE = "tags.bin"


def build(hw: "Any") -> CardReaderApp:
    clock = hw.Clock()
    device = Device(hw.UsbSerial(), clock, "cardreader")
    readers: dict[str, Any] = {}
    if READER == "mfrc522":
        from firmware.drivers.mfrc522 import Mfrc522

        spi = hw.spi(SPI_BUS, SPI_SCK, SPI_MOSI, SPI_MISO)
        for seat in CHIP_SELECT:
            readers[seat] = Mfrc522(spi, hw.output_pin(CHIP_SELECT[seat], 1), clock)
    elif READER == "pn532":
        from firmware.drivers.pn532 import Pn532

        for seat in PN532_BUSES:
            bus, sda, scl = PN532_BUSES[seat]
            readers[seat] = Pn532(hw.i2c(bus, sda, scl), clock)
    else:
        raise ValueError("READER must be mfrc522 or pn532")
    return CardReaderApp(device, readers, tags=cards.load(TAGS_FILE))


def main() -> None:
    app = build(shim)
    app.start()
    shim.run_forever(app.step, app.clock)


if __name__ == "__main__":
    main()
