"""The card reader on a pseudo-terminal: unplugged and plugged back in without a restart.

The test holds the pty's master side, as the device; the reader opens a symlink to the slave,
as the table opens ``/dev/serial/by-id/...``. Unplugging closes the master (the reader's next
read fails, as with a USB adapter pulled out) and removes the symlink, as udev does; plugging
in makes a new pty and a new symlink to it, as udev does for the re-enumerated device. (The
old pty's number is soon reused, by this or another process, so a stale link would lead the
reader to somebody else's pty.)
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

from hardware.cardreader import CardReader
from hardware.events import CardEvent, ReaderMessage, ReaderStatus
from hardware.protocol import CardRead, LcdText, Version, VersionQuery, decode, encode
from laws import Card, Seat

from .helpers import TIMEOUT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux ptys")


class Device:
    """The device end of a pty whose slave is reached through a stable symlink."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master: int | None = None
        self._buffer = b""

    def plug(self) -> None:
        master, slave = os.openpty()
        name = os.ttyname(slave)
        os.close(slave)  # the reader opens it by name
        tmp = self.link.with_suffix(".new")
        tmp.symlink_to(name)
        tmp.replace(self.link)
        self.master = master
        self._buffer = b""

    def unplug(self) -> None:
        if self.master is not None:
            self.link.unlink()
            os.close(self.master)
            self.master = None

    def send(self, data: bytes) -> None:
        assert self.master is not None
        os.write(self.master, data)

    def receive_line(self) -> bytes:
        """The next line the host wrote; fails after TIMEOUT."""
        assert self.master is not None
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([self.master], [], [], TIMEOUT)
            assert ready, "the host wrote nothing"
            self._buffer += os.read(self.master, 1024)
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line + b"\n"


@pytest.fixture
def device(tmp_path: Path) -> Iterator[Device]:
    dev = Device(tmp_path / "usb-bidbox-cardreader")
    dev.plug()
    yield dev
    dev.unplug()


@pytest.fixture
def reader(device: Device, events: queue.Queue[Any]) -> Iterator[CardReader]:
    with CardReader(str(device.link), events, retry_min=0.01, retry_max=0.1) as card_reader:
        yield card_reader


def connected(events: queue.Queue[Any]) -> bool:
    status = events.get(timeout=TIMEOUT)
    assert isinstance(status, ReaderStatus)
    return status.connected


def test_version_handshake_and_a_card(device: Device, reader: CardReader,
                                      events: queue.Queue[Any]) -> None:
    assert connected(events)
    assert decode(device.receive_line()) == VersionQuery()
    device.send(encode(Version(1, "cardreader", "0.3.1")))
    assert events.get(timeout=TIMEOUT).message == Version(1, "cardreader", "0.3.1")
    device.send(b"C SQ N*A3\r\n")
    event = events.get(timeout=TIMEOUT)
    assert (event.card, event.seat) == (Card.from_str("SQ"), Seat.N)


def test_host_commands_reach_the_device(device: Device, reader: CardReader,
                                        events: queue.Queue[Any]) -> None:
    assert connected(events)
    device.receive_line()  # ?V
    reader.send(LcdText(Seat.E, 1, "Paso"))
    line = device.receive_line()
    assert line.startswith(b"L E 1 Paso*") and line.endswith(b"\n")
    assert decode(line) == LcdText(Seat.E, 1, "Paso")


def test_unplugged_and_plugged_back(device: Device, reader: CardReader,
                                    events: queue.Queue[Any]) -> None:
    assert connected(events)
    device.unplug()
    assert not connected(events)
    assert not reader.connected
    device.plug()
    assert connected(events)
    assert decode(device.receive_line()) == VersionQuery()  # asks again after reconnecting
    device.send(encode(CardRead(Card.from_str("H7"))))
    event = events.get(timeout=TIMEOUT)
    assert isinstance(event, CardEvent) and event.card == Card.from_str("H7")
    assert reader.stats.connects == 2


def test_unplugged_for_a_while(device: Device, events: queue.Queue[Any]) -> None:
    failures = 0
    several_failed = threading.Event()

    def open_port(url: str, **options: Any) -> Any:
        nonlocal failures
        try:
            return serial.serial_for_url(url, **options)
        except serial.SerialException:
            failures += 1
            if failures == 3:
                several_failed.set()
            raise

    with CardReader(str(device.link), events, open_port=open_port, ask_version=False,
                    retry_min=0.001, retry_max=0.01):
        assert connected(events)
        device.unplug()
        assert not connected(events)
        assert several_failed.wait(TIMEOUT)  # the reader kept trying while nothing was there
        device.plug()
        assert connected(events)
        device.send(encode(CardRead(Card.from_str("DA"))))
        assert events.get(timeout=TIMEOUT).card == Card.from_str("DA")


def test_a_second_opener_is_locked_out(device: Device, reader: CardReader,
                                       events: queue.Queue[Any]) -> None:
    # Two programs reading one card reader would each see half the cards.
    assert connected(events)
    other: queue.Queue[Any] = queue.Queue()
    with CardReader(str(device.link), other, retry_min=0.01, retry_max=0.02) as second:
        device.send(encode(CardRead(Card.from_str("S2"))))
        assert isinstance(events.get(timeout=TIMEOUT), (CardEvent, ReaderMessage))
        assert not second.connected
    assert other.empty()
