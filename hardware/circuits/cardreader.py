"""The card reader module: a Raspberry Pi Pico on a carrier board with one MFRC522 reader per
seat, on USB to the table's Pi.

Generated from the wiring the firmware itself uses (``firmware/cardreader/main.py``: the SPI
pins and each seat's chip select), so the board and the code that drives it agree. The four
MFRC522 modules share SPI0; each has its own chip select, its reset tied to 3.3 V (the
firmware resets it by command) and a 10 uF capacitor at its connector for the cable's length.
IRQ is left unconnected: the firmware polls. Each reader connector (J1-J4 for N, E, S, W) has
the RC522 module's own pin order, so a straight 8-way cable joins them: ``READER_PINS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import catalogue as cat
from ._skidl import net, new_circuit, place, skidl

#: The 8-way reader connector, in the RC522 module's header order.
READER_PINS: dict[str, int] = {"CS": 1, "SCK": 2, "MOSI": 3, "MISO": 4, "IRQ": 5, "GND": 6,
                               "RST": 7, "3V3": 8}
SEATS = ("N", "E", "S", "W")
READER_REFS = {"N": "J1", "E": "J2", "S": "J3", "W": "J4"}
PICO_3V3 = 36
PICO_GND = (3, 8, 13, 18, 23, 28, 33, 38)


@dataclass(frozen=True)
class ReaderWiring:
    """Which Pico GPIO (GP number) carries each line."""

    sck: int
    mosi: int
    miso: int
    chip_select: dict[str, int]

    @classmethod
    def from_firmware(cls) -> ReaderWiring:
        from firmware.cardreader import main

        return cls(main.SPI_SCK, main.SPI_MOSI, main.SPI_MISO, dict(main.CHIP_SELECT))


def pico_pin(gp: int) -> int:
    """The Pico's physical pin for GPIO ``gp``."""
    for phys, number in cat.PICO_GP.items():
        if number == gp:
            return phys
    raise ValueError(f"the Pico has no GP{gp}")


def build(wiring: ReaderWiring | None = None) -> Any:
    wiring = wiring or ReaderWiring.from_firmware()
    c = new_circuit()
    gnd, v33 = net(c, "GND"), net(c, "+3V3")
    gnd.drive = skidl().POWER
    pico = place(c, cat.PICO, "U1", role="pico")
    v33 += pico[PICO_3V3]
    for phys in PICO_GND:
        gnd += pico[phys]
    sck, mosi, miso = net(c, "SPI_SCK"), net(c, "SPI_MOSI"), net(c, "SPI_MISO")
    sck += pico[pico_pin(wiring.sck)]
    mosi += pico[pico_pin(wiring.mosi)]
    miso += pico[pico_pin(wiring.miso)]
    for n, seat in enumerate(SEATS):
        if seat not in wiring.chip_select:
            continue
        conn = place(c, cat.READER_HEADER, READER_REFS[seat], role=f"reader {seat}")
        cs = net(c, f"CS_{seat}")
        cs += pico[pico_pin(wiring.chip_select[seat])], conn[READER_PINS["CS"]]
        sck += conn[READER_PINS["SCK"]]
        mosi += conn[READER_PINS["MOSI"]]
        miso += conn[READER_PINS["MISO"]]
        gnd += conn[READER_PINS["GND"]]
        v33 += conn[READER_PINS["RST"]], conn[READER_PINS["3V3"]]
        conn[READER_PINS["IRQ"]].do_erc = False  # polled, not wired
        cap = place(c, cat.CAP_10U, f"C{n + 1}", role=f"reader {seat} supply")
        v33 += cap["+"]
        gnd += cap["-"]
    for phys in range(1, 41):
        if pico[phys].net is None:
            pico[phys].do_erc = False  # the Pico's other pins are free
    return c
