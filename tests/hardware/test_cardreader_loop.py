"""The card reader over pyserial's loop:// port: what is written comes back as device lines.

Bad lines produce no event, which a test cannot wait for; so each test writes a good sentinel
line after the bad ones and checks that the sentinel is the very next event.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import serial

from hardware.cardreader import CardReader, CardReaderSource, _LineProtocol
from hardware.errors import ReaderUnavailableError
from hardware.events import CardEvent, KeyEvent, ReaderMessage, ReaderStatus
from hardware.protocol import (
    MAX_LINE,
    CardRead,
    DeviceError,
    Health,
    KeyChange,
    TagRead,
    Version,
    VersionQuery,
    encode,
)
from hardware.tags import TagTable
from laws import Card, Seat

from .helpers import TIMEOUT, FakeClock, drain

SENTINEL = CardRead(Card.from_str("C2"), Seat.W)


@pytest.fixture
def tags() -> TagTable:
    table = TagTable()
    table.add_deck("board-01", [f"04{i:06X}" for i in range(52)])
    return table


@pytest.fixture
def reader(events: queue.Queue[Any], tags: TagTable) -> Iterator[CardReader]:
    with CardReader("loop://", events, tags=tags, ask_version=False, clock=FakeClock(),
                    retry_min=0.01, retry_max=0.05) as card_reader:
        status = events.get(timeout=TIMEOUT)
        assert status == ReaderStatus(True, "loop://", 100.0)
        yield card_reader


def next_event(events: queue.Queue[Any]) -> Any:
    return events.get(timeout=TIMEOUT)


def assert_only_sentinel_follows(reader: CardReader, events: queue.Queue[Any]) -> None:
    reader.send(SENTINEL)
    assert next_event(events) == CardEvent(SENTINEL.card, None, Seat.W, 100.0)


def test_a_card_by_name(reader: CardReader, events: queue.Queue[Any]) -> None:
    reader.send(CardRead(Card.from_str("SQ"), Seat.N))
    assert next_event(events) == CardEvent(Card.from_str("SQ"), None, Seat.N, 100.0)
    reader.send(CardRead(Card.from_str("HT")))
    assert next_event(events) == CardEvent(Card.from_str("HT"), None, None, 100.0)
    assert reader.stats.lines == 2 and not reader.stats.rejected


def test_a_card_by_tag(reader: CardReader, events: queue.Queue[Any]) -> None:
    reader.send(TagRead("04000033", Seat.E))  # the 52nd tag: the ace of spades
    assert next_event(events) == CardEvent(Card.from_str("SA"), "04000033", Seat.E, 100.0,
                                           "board-01")


def test_an_unknown_tag_is_still_reported(reader: CardReader, events: queue.Queue[Any]) -> None:
    reader.send(TagRead("DEADBEEF"))
    assert next_event(events) == CardEvent(None, "DEADBEEF", None, 100.0)


def test_keys_of_a_usb_keypad_module(reader: CardReader, events: queue.Queue[Any]) -> None:
    reader.send(KeyChange(Seat.S, "XX", True))
    reader.send(KeyChange(Seat.S, "XX", False))
    assert next_event(events) == KeyEvent(Seat.S, "XX", True, 100.0)
    assert next_event(events) == KeyEvent(Seat.S, "XX", False, 100.0)


def test_errors_versions_and_health_are_passed_on(reader: CardReader, events: queue.Queue[Any],
                                                  caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "hardware.cardreader")
    for message in (DeviceError(103, "two cards"), Version(2, "cardreader", "9.0"),
                    Health("WARN", (("rf", "weak"),))):
        reader.send(message)
        assert next_event(events) == ReaderMessage(message, 100.0)
    assert "two or more cards" in caplog.text  # the meaning of code 103
    assert "protocol 2, not 1" in caplog.text


def test_line_endings_and_empty_lines(reader: CardReader, events: queue.Queue[Any]) -> None:
    reader.write(b"\n\r\n" + encode(CardRead(Card.from_str("D5"))).replace(b"\n", b"\r\n"))
    assert next_event(events) == CardEvent(Card.from_str("D5"), None, None, 100.0)
    assert not reader.stats.rejected


@pytest.mark.parametrize(("data", "reason"), [
    (b"C SQ N*A4\n", "checksum"),
    (b"C SQ N\n", "partial"),
    (b"\x00\xff\xfe noise\n", "garbage"),
    (b"C S\xc3\xb1 N*00\n", "garbage"),
    (b"Z 1*9A\n", "garbage"),
    (b"x" * (MAX_LINE + 10) + b"\n", "oversize"),
    (encode(VersionQuery()), "garbage"),  # a host command cannot come from the device
])
def test_bad_lines_are_counted_logged_and_dropped(
        reader: CardReader, events: queue.Queue[Any], caplog: pytest.LogCaptureFixture,
        data: bytes, reason: str) -> None:
    caplog.set_level(logging.WARNING, "hardware.cardreader")
    reader.write(data)
    assert_only_sentinel_follows(reader, events)
    assert reader.stats.rejected == {reason: 1}
    assert f"rejected {reason} line" in caplog.text


def test_a_line_without_end_is_dropped_whole(reader: CardReader,
                                             events: queue.Queue[Any]) -> None:
    # More than a line's worth with no newline: the buffer must not grow without bound, and
    # the good-looking tail of the runaway line must not be taken for a line of its own.
    for _ in range(5):
        reader.write(b"y" * 60)
    reader.write(encode(CardRead(Card.from_str("SA"))))
    assert_only_sentinel_follows(reader, events)
    assert reader.stats.rejected == {"oversize": 1}


def test_close_reports_the_disconnect_and_sending_is_refused(
        events: queue.Queue[Any]) -> None:
    card_reader: CardReaderSource
    with CardReader("loop://", events, ask_version=False) as card_reader:
        assert events.get(timeout=TIMEOUT).connected
        assert card_reader.connected
    status = events.get(timeout=TIMEOUT)
    assert isinstance(status, ReaderStatus) and not status.connected
    assert not card_reader.connected
    with pytest.raises(ReaderUnavailableError):
        card_reader.send(VersionQuery())
    card_reader.close()  # twice is fine


def test_it_asks_the_device_who_it_is_on_connect(events: queue.Queue[Any]) -> None:
    with CardReader("loop://", events) as card_reader:
        card_reader.send(SENTINEL)
        assert isinstance(events.get(timeout=TIMEOUT), ReaderStatus)
        assert isinstance(events.get(timeout=TIMEOUT), CardEvent)
        # On loop:// the "?V" came back to us, and was refused as not a device line.
        assert card_reader.stats.rejected == {"garbage": 1}


def test_opening_is_retried_until_the_port_appears(events: queue.Queue[Any]) -> None:
    attempts = []

    def open_port(url: str, **options: Any) -> Any:
        attempts.append(url)
        if len(attempts) < 4:
            raise serial.SerialException(f"could not open port {url}")
        return serial.serial_for_url("loop://", **options)

    with CardReader("/dev/serial/by-id/usb-bidbox-cardreader", events, open_port=open_port,
                    ask_version=False, retry_min=0.001, retry_max=0.004):
        status = events.get(timeout=TIMEOUT)
        assert status.connected and status.url == "/dev/serial/by-id/usb-bidbox-cardreader"
    assert len(attempts) == 4
    assert [e.connected for e in drain(events)] == [False]


def test_a_reader_that_never_appears_is_no_trouble_to_close(events: queue.Queue[Any]) -> None:
    card_reader = CardReader("/nonexistent/port", events, retry_min=0.001, retry_max=0.01)
    card_reader.start()
    card_reader.close()
    assert drain(events) == []
    assert card_reader.stats.connects == 0


def test_a_line_cut_short_by_a_disconnect_counts_as_partial(events: queue.Queue[Any]) -> None:
    card_reader = CardReader("loop://", events)
    lost = threading.Event()
    protocol = _LineProtocol(card_reader, lost)
    protocol.data_received(b"C SQ N*A3\nT 04A1")
    protocol.connection_lost(serial.SerialException("device disconnected"))
    assert lost.is_set()
    assert card_reader.stats.rejected == {"partial": 1}
    assert isinstance(events.get(timeout=TIMEOUT), CardEvent)


def test_the_line_buffer_stays_bounded(events: queue.Queue[Any]) -> None:
    card_reader = CardReader("loop://", events, clock=FakeClock())
    protocol = _LineProtocol(card_reader, threading.Event())
    for _ in range(100):
        protocol.data_received(b"z" * 100)  # a device babbling without newlines
        assert len(protocol.buffer) <= MAX_LINE + 1
    protocol.data_received(b"the tail\n" + encode(SENTINEL))
    assert card_reader.stats.rejected == {"oversize": 1}  # counted once, tail included
    assert events.get(timeout=TIMEOUT) == CardEvent(SENTINEL.card, None, Seat.W, 100.0)
