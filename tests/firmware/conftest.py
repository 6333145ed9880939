"""Fixtures of the firmware tests: simulated boards built by the boards' own ``build(hw)``.

Nothing here sleeps: simulated time moves by ``Board.run(ms)``, one main-loop step per
simulated millisecond, as the board's loop runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from firmware.cardreader import main as cardreader_main
from firmware.keypad import main as keypad_main
from hardware.protocol import Message, decode
from tests.hardware.fake_lcd import FakeHD44780

from .fake_matrix import FakeKeypads
from .fake_mfrc522 import FakeMfrc522
from .fake_pn532 import FakePn532
from .fakes import FakeHw

WRAP_SOON = (1 << 30) - 700
"""A start time 0.7 s before MicroPython's ticks wrap around."""


class LcdPeer:
    """An HD44780 behind its PCF8574 on the fake I2C bus (the Pi tests' fake controller)."""

    def __init__(self) -> None:
        self.lcd = FakeHD44780()
        self.powered = True

    def i2c_write(self, data: bytes) -> None:
        for byte in data:
            self.lcd.write(byte)

    def i2c_read(self, count: int) -> bytes:
        return bytes(count)


class Board:
    """A built board on simulated hardware, with the host's view of what it sent."""

    def __init__(self, hw: FakeHw, app: Any) -> None:
        self.hw = hw
        self.app = app
        self.clock = hw.clock

    def run(self, ms: int) -> None:
        for _ in range(ms):
            self.app.step()
            self.clock.advance(1)

    def host_sends(self, data: bytes) -> None:
        self.hw.serial.inbox += data

    def raw(self) -> bytes:
        return self.hw.serial.take()

    def lines(self) -> list[bytes]:
        """The lines sent since the last call, ``\\n`` included; empty lines left out."""
        return [line + b"\n" for line in self.raw().split(b"\n") if line]

    def messages(self) -> list[Message]:
        """What the host's own decoder makes of those lines (any bad line fails the test)."""
        return [decode(line) for line in self.lines()]


class CardReaderBoard(Board):
    def __init__(self, hw: FakeHw, app: Any, chips: dict[str, Any]) -> None:
        super().__init__(hw, app)
        self.chips = chips


class KeypadBoard(Board):
    def __init__(self, hw: FakeHw, app: Any, pads: FakeKeypads,
                 lcds: dict[str, LcdPeer]) -> None:
        super().__init__(hw, app)
        self.pads = pads
        self.lcds = lcds


def make_mfrc522_board(start_ms: int = 0, seats: str = "NESW") -> CardReaderBoard:
    hw = FakeHw(start_ms)
    chips = {}
    for seat in seats:
        chips[seat] = hw.spi_peers[cardreader_main.CHIP_SELECT[seat]] = FakeMfrc522()
    app = cardreader_main.build(hw)
    return CardReaderBoard(hw, app, chips)


def make_pn532_board(monkeypatch: pytest.MonkeyPatch, start_ms: int = 0) -> CardReaderBoard:
    monkeypatch.setattr(cardreader_main, "READER", "pn532")
    hw = FakeHw(start_ms)
    app = cardreader_main.build(hw)
    chips = {}
    for seat, bus in cardreader_main.PN532_BUSES.items():
        chips[seat] = hw.i2c_buses[bus].peers[0x24] = FakePn532()
    return CardReaderBoard(hw, app, chips)


def make_keypad_board(start_ms: int = 0, key_diodes: bool = False) -> KeypadBoard:
    hw = FakeHw(start_ms)
    app = keypad_main.build(hw)
    for debouncer in app.debouncers.values():
        debouncer.ghost_filter = not key_diodes
    pads = FakeKeypads(hw, keypad_main.ROWS, keypad_main.COLUMNS, key_diodes)
    hw.circuit = pads
    (bus,) = hw.i2c_buses.values()
    lcds = {}
    for seat, address in keypad_main.LCDS.items():
        lcds[seat] = bus.peers[address] = LcdPeer()
    return KeypadBoard(hw, app, pads, lcds)


@pytest.fixture(params=[0, WRAP_SOON], ids=["ticks-0", "ticks-wrap"])
def start_ms(request: pytest.FixtureRequest) -> int:
    return int(request.param)


@pytest.fixture
def reader_board(start_ms: int) -> Iterator[CardReaderBoard]:
    board = make_mfrc522_board(start_ms)
    board.app.start()
    yield board


@pytest.fixture
def keypad_board(start_ms: int) -> Iterator[KeypadBoard]:
    board = make_keypad_board(start_ms)
    board.app.start()
    yield board
