"""A scripted session of both boards on simulated hardware, for running under MicroPython.

test_micropython.py runs ``run(emit)`` under CPython and under MicroPython and compares what
the boards sent, byte for byte. MicroPython-compatible, like tests/firmware/fakes.py.
"""

from firmware.cardreader import main as cardreader_main
from firmware.common import protocol
from firmware.common.cards import TagMap
from firmware.keypad import main as keypad_main
from tests.firmware.fake_matrix import FakeKeypads
from tests.firmware.fake_mfrc522 import FakeMfrc522, FakeTag
from tests.firmware.fake_pn532 import FakePn532
from tests.firmware.fakes import FakeHw


class LcdRecorder:
    def __init__(self):
        self.powered = True
        self.written = 0

    def i2c_write(self, data):
        self.written += len(data)


def _run(app, hw, ms):
    for _ in range(ms):
        app.step()
        hw.clock.advance(1)


def card_reader(emit, reader, start_ms):
    cardreader_main.READER = reader
    hw = FakeHw(start_ms)
    chips = {}
    if reader == "mfrc522":
        for seat in "NESW":
            chips[seat] = FakeMfrc522()
            hw.spi_peers[cardreader_main.CHIP_SELECT[seat]] = chips[seat]
    app = cardreader_main.build(hw)
    if reader == "pn532":
        for seat in "NESW":
            chips[seat] = FakePn532()
            hw.i2c_buses[cardreader_main.PN532_BUSES[seat]].peers[0x24] = chips[seat]
    app.tags = TagMap(TagMap.build({"04A1B2C3": "SQ"}))
    app.start()
    chips["N"].place(FakeTag(b"\x04\xa1\xb2\xc3"))
    chips["E"].place(FakeTag(b"\x04\xa1\xb2\xc3\xd4\xe5\xf6"))
    _run(app, hw, 700)
    chips["S"].place(FakeTag(b"\x01\x02\x03\x04"))
    chips["S"].place(FakeTag(b"\x01\x02\x03\x05"))
    garbled = FakeTag(b"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a")
    garbled.garbled = 4
    chips["W"].place(garbled)
    _run(app, hw, 1000)
    chips["E"].power_off()
    hw.serial.inbox = b"?H*C5\n?V*9F\nL N 0 x*00\n" + b"z" * 100 + b"\n"
    _run(app, hw, 2000)
    chips["E"].power_on()
    _run(app, hw, 1500)
    hw.serial.inbox = b"?H*C5\n"
    _run(app, hw, 1)
    emit(hw.serial.take())


def keypad(emit, start_ms):
    hw = FakeHw(start_ms)
    app = keypad_main.build(hw)
    pads = FakeKeypads(hw, keypad_main.ROWS, keypad_main.COLUMNS)
    hw.circuit = pads
    bus = next(iter(hw.i2c_buses.values()))
    for seat in "NES":
        bus.peers[keypad_main.LCDS[seat]] = LcdRecorder()
    pads.press("W", "UNDO")
    app.start()
    for ms in (1, 3, 2, 4):
        pads.press("N", "PASS")
        _run(app, hw, ms)
        pads.release("N", "PASS")
        _run(app, hw, 1)
    pads.press("N", "PASS")
    pads.press("E", "1")
    pads.press("E", "2")
    pads.press("E", "4")
    _run(app, hw, 3000)
    pads.release("W", "UNDO")
    pads.release("N", "PASS")
    _run(app, hw, 20)
    hw.serial.inbox = (protocol.frame("L S 3 Your turn") + protocol.frame("L W 0 hi")
                       + protocol.frame("L N 5 x") + b"?H*C5\n")
    _run(app, hw, 2)
    emit(hw.serial.take())


def run(emit):
    for start_ms in (0, (1 << 30) - 1500):
        card_reader(emit, "mfrc522", start_ms)
        card_reader(emit, "pn532", start_ms)
        keypad(emit, start_ms)
