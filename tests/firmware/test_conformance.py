"""Conformance: what the firmware sends, fed to the Pi's own reader of ``hardware/``.

Three levels: the host's parser (``hardware.protocol.decode``) on every line the simulated
boards produce; the host's line splitter (``_LineProtocol``, pyserial's LineReader) on those
lines with a byte flipped; and end to end, the Pi's ``CardReader`` over ``loop://`` and over
a pty, with a line cut in the middle by a reset or an unplugging, then a reconnect.
"""

from __future__ import annotations

import os
import queue
import select
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import serial

from hardware.cardreader import CardReader, _LineProtocol
from hardware.events import CardEvent, KeyEvent, ReaderMessage, ReaderStatus
from hardware.protocol import (
    CardRead,
    DeviceError,
    Health,
    HealthQuery,
    LcdText,
    TagRead,
    Version,
    decode,
    encode,
)
from hardware.tags import TagTable
from laws import Card, Seat
from tests.hardware.helpers import TIMEOUT, get

from .conftest import (
    CardReaderBoard,
    KeypadBoard,
    make_keypad_board,
    make_mfrc522_board,
)
from .fake_mfrc522 import FakeTag

DECK = [f"04{i:06X}" for i in range(52)]  # tag n is card n of Card.ALL
SENTINEL = encode(CardRead(Card.from_str("C2"), Seat.W))


@pytest.fixture
def tags() -> TagTable:
    table = TagTable()
    table.add_deck("board-01", DECK)
    return table


def card_reader_session(board: CardReaderBoard) -> bytes:
    """Everything a card reader sends in a busy few seconds: every kind of line it has."""
    board.app.start()
    board.chips["N"].place(FakeTag(bytes.fromhex(DECK[51])))  # SA
    board.chips["E"].place(FakeTag(bytes.fromhex("04A1B2C3D4E5F6")))  # not registered
    board.run(100)
    board.chips["S"].place(FakeTag(b"\x01\x02\x03\x04"))
    board.chips["S"].place(FakeTag(b"\x01\x02\x03\x05"))
    garbled = FakeTag(bytes.fromhex(DECK[0]))
    garbled.garbled = 5
    board.chips["W"].place(garbled)
    board.run(500)
    board.chips["E"].power_off()
    board.host_sends(encode(HealthQuery()) + b"?V*9F\n" + b"?H*00\n")
    board.run(2000)
    return board.raw()


def keypad_session(board: KeypadBoard) -> bytes:
    board.pads.press("N", "DIR")
    board.app.start()
    board.pads.press("E", "PASS")
    board.pads.press("E", "NT")
    board.run(30)
    board.pads.release("E", "PASS")
    board.lcds["W"].powered = False
    board.host_sends(encode(LcdText(Seat.W, 0, "x")) + encode(LcdText(Seat.N, 0, "y"))
                     + b"L N 7 z*00\n" + encode(HealthQuery()))
    board.run(30)
    return board.raw()


@pytest.fixture(scope="module")
def every_line() -> list[bytes]:
    """The lines of both sessions, ``\\n`` included."""
    sessions = card_reader_session(make_mfrc522_board()) + keypad_session(make_keypad_board())
    return [line + b"\n" for line in sessions.split(b"\n") if line]


def test_the_sessions_use_every_device_message(every_line: list[bytes]) -> None:
    kinds = {type(decode(line)).__name__ for line in every_line}
    assert kinds == {"TagRead", "DeviceError", "Version", "Health", "KeyChange"}
    codes = {message.code for message in map(decode, every_line)
             if isinstance(message, DeviceError)}
    assert codes == {101, 103, 201, 202, 203, 301}


def test_every_line_is_the_hosts_own_encoding(every_line: list[bytes]) -> None:
    for line in every_line:
        assert encode(decode(line)) == line, line


def _host_side(events: queue.Queue[Any]) -> tuple[CardReader, _LineProtocol]:
    reader = CardReader("loop://", events, tags=None)
    return reader, _LineProtocol(reader, threading.Event())


def test_every_flipped_bit_is_refused_by_the_host(every_line: list[bytes]) -> None:
    events: queue.Queue[Any] = queue.Queue()
    reader, protocol = _host_side(events)
    flips = 0
    for line in every_line:
        for position in range(len(line) - 1):  # not the final newline: that joins lines
            for bit in range(8):
                corrupted = bytearray(line)
                corrupted[position] ^= 1 << bit
                protocol.data_received(bytes(corrupted) + b"\n")  # a newline ends any tail
                flips += 1
    assert events.empty(), events.get()  # no corrupted line became a message
    assert reader.stats.lines == 0
    assert sum(reader.stats.rejected.values()) >= flips
    assert set(reader.stats.rejected) <= {"checksum", "garbage", "partial"}


def test_every_byte_value_in_every_place_of_a_line_is_refused(every_line: list[bytes]) -> None:
    events: queue.Queue[Any] = queue.Queue()
    reader, protocol = _host_side(events)
    line = next(line for line in every_line if line.startswith(b"T "))
    for position in range(len(line) - 1):
        for value in range(256):
            if value != line[position]:
                corrupted = bytearray(line)
                corrupted[position] = value
                protocol.data_received(bytes(corrupted) + b"\n")
    protocol.data_received(SENTINEL)
    event = events.get_nowait()  # the sentinel alone got through
    assert isinstance(event, CardEvent) and event.card == Card.from_str("C2")
    assert events.empty() and reader.stats.lines == 1


# -- end to end over loop:// -------------------------------------------------------------------


@pytest.fixture
def loop_reader(events: queue.Queue[Any], tags: TagTable) -> Iterator[CardReader]:
    with CardReader("loop://", events, tags=tags, ask_version=False) as reader:
        assert get(events, ReaderStatus).connected
        yield reader


@pytest.fixture
def events() -> queue.Queue[Any]:
    return queue.Queue()


def test_a_card_reader_over_loop(loop_reader: CardReader, events: queue.Queue[Any]) -> None:
    board = make_mfrc522_board()
    board.app.start()
    board.chips["N"].place(FakeTag(bytes.fromhex(DECK[51])))
    board.chips["W"].place(FakeTag(bytes.fromhex("04A1B2C3D4E5F6")))
    board.run(60)
    loop_reader.write(board.raw())
    assert get(events, ReaderMessage).message == Version(1, "cardreader", "0.1.0")
    first, second = events.get(timeout=TIMEOUT), events.get(timeout=TIMEOUT)
    assert (first.card, first.tag, first.seat, first.deck) == \
        (Card.from_str("SA"), DECK[51], Seat.N, "board-01")
    assert (second.card, second.tag, second.seat) == (None, "04A1B2C3D4E5F6", Seat.W)
    assert not loop_reader.stats.rejected


def test_a_keypad_over_loop(loop_reader: CardReader, events: queue.Queue[Any]) -> None:
    board = make_keypad_board()
    board.app.start()
    board.pads.press("S", "7")
    board.pads.press("S", "C")
    board.run(20)
    board.pads.release("S", "7")
    board.run(20)
    loop_reader.write(board.raw())
    get(events, ReaderMessage)
    keys = [events.get(timeout=TIMEOUT) for _ in range(3)]
    assert [(k.seat, k.key, k.pressed) for k in keys] == \
        [(Seat.S, "7", True), (Seat.S, "C", True), (Seat.S, "7", False)]
    assert all(isinstance(k, KeyEvent) for k in keys)


def test_a_reset_mid_line_is_one_partial_line_and_a_hello(loop_reader: CardReader,
                                                          events: queue.Queue[Any]) -> None:
    # A UART device reset half-way through a line: the port stays open, and the device's
    # power-up newline ends the half line, which the host counts as partial.
    board = make_mfrc522_board()
    board.app.start()
    board.chips["E"].place(FakeTag(bytes.fromhex(DECK[0])))
    board.run(60)
    sent = board.raw()
    cut = sent.index(b"T ") + 7
    loop_reader.write(sent[:cut])  # "...T 0400" and then the reset
    rebooted = make_mfrc522_board()
    rebooted.app.start()
    loop_reader.write(rebooted.raw())
    assert get(events, ReaderMessage).message == Version(1, "cardreader", "0.1.0")
    assert get(events, ReaderMessage).message == Version(1, "cardreader", "0.1.0")
    loop_reader.write(SENTINEL)
    assert get(events, CardEvent).card == Card.from_str("C2")
    assert loop_reader.stats.rejected == {"partial": 1}


def test_corrupted_lines_are_dropped_and_the_next_is_read(loop_reader: CardReader,
                                                          events: queue.Queue[Any]) -> None:
    board = make_mfrc522_board()
    board.app.start()
    board.raw()
    board.chips["S"].place(FakeTag(bytes.fromhex(DECK[13])))  # D2
    board.run(60)
    good = board.raw()
    flipped = bytearray(good)
    flipped[3] ^= 0x01  # one bit of the UID
    wrong_crc = good[:-3] + b"00\n" if not good.endswith(b"*00\n") else good[:-3] + b"01\n"
    loop_reader.write(bytes(flipped) + wrong_crc + good)
    event = get(events, CardEvent)
    assert (event.card, event.seat) == (Card.from_str("D2"), Seat.S)
    assert loop_reader.stats.rejected == {"checksum": 2}


# -- end to end over a pty: the Pi's reader opens the board's port by a stable name ----------


class PtyBoardPort:
    """The board's USB serial seen from the board: the master side of a pty.

    The Pi's ``CardReader`` opens a symlink to the slave, as it opens
    ``/dev/serial/by-id/...``. Unplugging closes the master and removes the link.
    """

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master: int | None = None

    def plug(self) -> None:
        master, slave = os.openpty()
        name = os.ttyname(slave)
        os.close(slave)
        tmp = self.link.with_suffix(".new")
        tmp.symlink_to(name)
        tmp.replace(self.link)
        self.master = master

    def unplug(self) -> None:
        if self.master is not None:
            self.link.unlink()
            os.close(self.master)
            self.master = None

    # The shim's Serial: read() never blocks.
    def read(self) -> bytes:
        assert self.master is not None
        ready, _, _ = select.select([self.master], [], [], 0)
        return os.read(self.master, 1024) if ready else b""

    def write(self, data: bytes) -> None:
        assert self.master is not None
        os.write(self.master, data)

    def wait_for_host(self) -> None:
        """Block until the host has written something (fails after TIMEOUT)."""
        assert self.master is not None
        ready, _, _ = select.select([self.master], [], [], TIMEOUT)
        assert ready, "the host wrote nothing"


@pytest.fixture
def port(tmp_path: Path) -> Iterator[PtyBoardPort]:
    if not sys.platform.startswith("linux"):
        pytest.skip("Linux ptys")
    board_port = PtyBoardPort(tmp_path / "usb-bidbox-cardreader")
    board_port.plug()
    yield board_port
    board_port.unplug()


def board_on(port: PtyBoardPort, make: Any = make_mfrc522_board) -> Any:
    board = make()
    board.hw.serial = port
    board.app.device.serial = port
    return board


def answer_host(board: Any, port: PtyBoardPort) -> None:
    port.wait_for_host()
    board.run(1)


# The boards say hello only once the Pi has the port open (and set raw): before that, the
# pty's line discipline echoes whatever the board writes back to it, as a tty does, and the
# board's drop of its own echoed lines is tested in test_keypad.py.


def test_the_pi_asks_and_the_card_reader_answers(port: PtyBoardPort, tags: TagTable,
                                                 events: queue.Queue[Any]) -> None:
    board = board_on(port)
    with CardReader(str(port.link), events, tags=tags, retry_min=0.01, retry_max=0.1) as pi:
        assert get(events, ReaderStatus).connected
        board.app.start()
        assert get(events, ReaderMessage).message == Version(1, "cardreader", "0.1.0")
        answer_host(board, port)  # "?V"
        assert get(events, ReaderMessage).message == Version(1, "cardreader", "0.1.0")
        board.chips["W"].place(FakeTag(bytes.fromhex(DECK[30])))  # H6
        board.run(60)
        event = get(events, CardEvent)
        assert (event.card, event.seat, event.deck) == (Card.from_str("H6"), Seat.W, "board-01")
        pi.send(HealthQuery())
        answer_host(board, port)
        health = get(events, ReaderMessage).message
        assert isinstance(health, Health) and health.status == "OK"
        assert health.get("rf") == "NESW" and health.get("reads") == "1"
        assert not pi.stats.rejected


def test_the_pi_writes_on_the_keypad_modules_lcds(port: PtyBoardPort,
                                                  events: queue.Queue[Any]) -> None:
    board = board_on(port, make_keypad_board)
    with CardReader(str(port.link), events, retry_min=0.01, retry_max=0.1) as pi:
        assert get(events, ReaderStatus).connected
        board.app.start()
        assert get(events, ReaderMessage).message == Version(1, "keypad", "0.1.0")
        answer_host(board, port)
        assert get(events, ReaderMessage).message == Version(1, "keypad", "0.1.0")
        pi.send(LcdText(Seat.E, 1, "Doblo"))
        answer_host(board, port)
        assert board.lcds["E"].lcd.screen()[1] == "Doblo" + " " * 15
        board.pads.press("E", "XX")
        board.run(20)
        event = get(events, KeyEvent)
        assert (event.seat, event.key, event.pressed) == (Seat.E, "XX", True)


class ObservedPort:
    """A pyserial port that tells when its reader thread has taken bytes from it."""

    def __init__(self, port: Any, took: threading.Event) -> None:
        self._port = port
        self._took = took

    def read(self, size: int = 1) -> bytes:
        data: bytes = self._port.read(size)
        if data:
            self._took.set()
        return data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._port, name)


def test_unplugged_mid_line_then_plugged_back(port: PtyBoardPort, tags: TagTable,
                                              events: queue.Queue[Any]) -> None:
    took = threading.Event()

    def open_port(url: str, **options: Any) -> Any:
        return ObservedPort(serial.serial_for_url(url, **options), took)

    board = board_on(port)
    with CardReader(str(port.link), events, tags=tags, retry_min=0.01, retry_max=0.1,
                    open_port=open_port) as pi:
        assert get(events, ReaderStatus).connected
        board.app.start()
        answer_host(board, port)
        assert get(events, ReaderMessage).message == Version(1, "cardreader", "0.1.0")
        assert get(events, ReaderMessage).message == Version(1, "cardreader", "0.1.0")
        line = encode(TagRead(DECK[5], Seat.N))
        took.clear()
        port.write(line[:8])  # the cable is pulled half-way through a line
        assert took.wait(TIMEOUT)  # the Pi's reader holds the half line
        port.unplug()
        assert not get(events, ReaderStatus).connected
        assert pi.stats.rejected == {"partial": 1}
        port.plug()  # plugging in powers the board up afresh
        rebooted = board_on(port)
        assert get(events, ReaderStatus).connected
        rebooted.app.start()
        answer_host(rebooted, port)
        assert get(events, ReaderMessage).message == Version(1, "cardreader", "0.1.0")
        assert get(events, ReaderMessage).message == Version(1, "cardreader", "0.1.0")
        rebooted.chips["N"].place(FakeTag(bytes.fromhex(DECK[5])))
        rebooted.run(60)
        assert get(events, CardEvent).card == Card.from_str("C7")
        assert pi.stats.connects == 2
        assert pi.stats.rejected == {"partial": 1}
