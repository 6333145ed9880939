"""Fuzz of the card reader's serial line: the parser, the line cutter, and the reader thread.

The parser (``hardware.protocol.decode``) takes any bytes and either returns a message or
raises its documented ``ProtocolError`` with one of the documented reasons. The reader's line
cutter (``_LineProtocol``) takes a stream of good lines mixed with noise (random bytes, lines
cut short, bad checksums, overlong lines, NUL and non-ASCII bytes, host commands) in chunks
of any size, and passes on every good line, in order, and rejects each bad line once, with a
reason, in ``stats`` and in the log. End to end over pyserial's ``loop://`` the reader thread
survives all of it and delivers every card.

Noise is separated from the next good line by a newline: docs/serial-protocol.md makes the
newline the line's end, so a good line glued to the tail of noise is part of a bad line.

``BIDBOX_FUZZ_SEED`` sets the seed and ``BIDBOX_FUZZ_CASES`` scales the streams (default
10,000 lines for the line cutter, a tenth of that through ``loop://``); docs/fuzzing.md.
"""

from __future__ import annotations

import logging
import os
import queue
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from hardware.cardreader import CardReader, _LineProtocol
from hardware.errors import ProtocolError
from hardware.events import CardEvent, KeyEvent, ReaderMessage, ReaderStatus
from hardware.protocol import (
    MAX_LINE,
    CardRead,
    DeviceError,
    DeviceMessage,
    Health,
    HealthQuery,
    KeyChange,
    LcdText,
    TagRead,
    Version,
    VersionQuery,
    crc8,
    decode,
    encode,
)
from laws import Card, Seat

SEED = int(os.environ.get("BIDBOX_FUZZ_SEED", "20240808"))
CASES = int(os.environ.get("BIDBOX_FUZZ_CASES", "10000"))
REASONS = {"garbage", "partial", "checksum", "oversize"}
TIMEOUT = 10.0  # seconds a queue read may wait before the test fails; a pass never waits
NOW = 100.0

FUZZ = settings(max_examples=max(100, CASES // 20), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def smbus_crc8(data: bytes) -> int:
    """CRC-8/SMBUS written again from docs/serial-protocol.md: the oracle for ``crc8``."""
    crc = 0
    for byte in data:
        for bit in range(7, -1, -1):
            top = (crc >> 7) ^ (byte >> bit & 1)
            crc = (crc << 1) & 0xFF
            if top:
                crc ^= 0x07
    return crc


def framed(payload: bytes) -> bytes:
    return payload + b"*%02X\n" % smbus_crc8(payload)


# -- messages a device may send --------------------------------------------------------------

CARDS = [Card.from_str(suit + rank) for suit in "CDHS" for rank in "23456789TJQKA"]
SEATS = [*Seat, None]
PRINTABLE = "".join(chr(c) for c in range(0x20, 0x7F))


def _device_messages() -> st.SearchStrategy[DeviceMessage]:
    seat = st.sampled_from(SEATS)
    token = st.text(st.sampled_from([chr(c) for c in range(0x21, 0x7F)]), min_size=1,
                    max_size=12)
    return st.one_of(
        st.builds(CardRead, st.sampled_from(CARDS), seat),
        st.builds(TagRead, st.integers(4, 16).flatmap(
            lambda n: st.binary(min_size=n, max_size=n)).map(lambda b: b.hex().upper()), seat),
        st.builds(KeyChange, st.sampled_from(list(Seat)),
                  st.from_regex(r"[A-Z0-9]{1,8}", fullmatch=True), st.booleans()),
        st.builds(DeviceError, st.integers(100, 999), st.text(PRINTABLE, max_size=60)),
        st.builds(Version, st.integers(1, 999), st.from_regex(r"[a-z][a-z0-9-]{0,15}",
                                                              fullmatch=True), token),
        st.builds(Health, st.sampled_from(["OK", "WARN", "FAIL"]), st.lists(st.tuples(
            st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True), token), max_size=4).map(
            tuple)),
    )


def fits(message: DeviceMessage) -> bool:
    return len(str(message)) + 3 <= MAX_LINE


# -- the parser: any input, one documented error ---------------------------------------------

def decoded_or_refused(line: bytes | str) -> Any:
    """``decode(line)``: a message, or the ``ProtocolError`` it raised (nothing else)."""
    try:
        return decode(line)
    except ProtocolError as error:
        assert error.reason in REASONS, error.reason
        assert str(error), "an error without a message"
        return error


LINE_BYTES = st.one_of(
    st.binary(max_size=200),
    st.text(PRINTABLE + "\r\n\t\x00\x7f\u00e9\ufffd", max_size=120).map(
        lambda t: t.encode("utf-8")),
    st.lists(st.sampled_from([b"C", b"T", b"K", b"E", b"V", b"H", b"L", b"?", b" ", b"*",
                              b"N", b"S", b"SQ", b"HT", b"04A1B2C3", b"down", b"up", b"OK",
                              b"101", b"=", b"a", b"\r", b"\n", b"\x00", b"\xff", b"00",
                              b"F4"]), max_size=20).map(b"".join),
)


@hypothesis_seed(SEED)
@FUZZ
@given(LINE_BYTES)
def test_any_bytes_decode_or_raise_the_documented_error(line: bytes) -> None:
    note(f"seed {SEED}")
    result = decoded_or_refused(line)
    if not isinstance(result, ProtocolError):
        assert decode(encode(result)) == result  # what was read can be written back
    text = line.decode("latin-1")  # a str of the same characters: the same verdict
    assert type(decoded_or_refused(text)) is type(result)


@hypothesis_seed(SEED)
@FUZZ
@given(st.text(PRINTABLE, min_size=1, max_size=MAX_LINE + 5))
def test_any_payload_with_a_good_checksum_parses_or_is_garbage(payload: str) -> None:
    """A good frame gets past the checksum: what is left is the payload's grammar."""
    note(f"seed {SEED}")
    result = decoded_or_refused(framed(payload.encode("ascii")))
    if isinstance(result, ProtocolError):
        want = "oversize" if len(payload) + 3 > MAX_LINE else "garbage"
        assert result.reason == want, (payload, result)
    else:
        assert len(payload) + 3 <= MAX_LINE


@hypothesis_seed(SEED)
@FUZZ
@given(st.binary(max_size=100))
def test_crc8_is_crc8_smbus(data: bytes) -> None:
    assert crc8(data) == smbus_crc8(data)


@hypothesis_seed(SEED)
@FUZZ
@given(_device_messages().filter(fits), st.data())
def test_a_good_line_damaged_anywhere_is_refused(message: DeviceMessage, data: Any) -> None:
    """Cut short, or one character changed: never a message (CRC-8 sees every error burst of
    8 bits or fewer, so one changed character is always a checksum error)."""
    note(f"seed {SEED}")
    line = encode(message)
    assert decode(line) == message
    assert decode(line.replace(b"\n", b"\r\n")) == message
    cut = data.draw(st.integers(0, len(line) - 2), label="cut")
    assert isinstance(decoded_or_refused(line[:cut]), ProtocolError)
    payload_end = line.rindex(b"*")
    at = data.draw(st.integers(0, payload_end - 1), label="at")
    other = data.draw(st.sampled_from([c for c in PRINTABLE.encode() if c not in
                                       (line[at], ord("*"))]), label="other")
    damaged = line[:at] + bytes([other]) + line[at + 1:]
    result = decoded_or_refused(damaged)
    assert isinstance(result, ProtocolError) and result.reason == "checksum", result


# -- the line cutter: a stream of good lines and noise, in chunks of any size ------------------

def event_of(message: DeviceMessage) -> Any:
    """What the reader puts on the table's queue for ``message`` (no tag table, clock NOW)."""
    match message:
        case CardRead(card=card, seat=seat):
            return CardEvent(card, None, seat, NOW)
        case TagRead(uid=uid, seat=seat):
            return CardEvent(None, uid, seat, NOW)
        case KeyChange(seat=seat, key=key, down=down):
            return KeyEvent(seat, key, down, NOW)
    return ReaderMessage(message, NOW)


class Stream:
    """Good device lines with noise between them, and what the reader must make of them."""

    def __init__(self, rng: random.Random, lines: int) -> None:
        self.rng = rng
        self.data = bytearray()
        self.events: list[Any] = []
        self.bad_lines = 0
        for _ in range(lines):
            if rng.random() < 0.5:
                self.noise()
            message = self.message()
            self.data += encode(message).replace(b"\n", rng.choice([b"\n", b"\r\n"]))
            self.events.append(event_of(message))

    def message(self) -> DeviceMessage:
        rng = self.rng
        seat = rng.choice(SEATS)
        kind = rng.random()
        if kind < 0.5:
            return CardRead(rng.choice(CARDS), seat)
        if kind < 0.65:
            return TagRead(rng.randbytes(rng.choice([4, 7, 10, 16])).hex().upper(), seat)
        if kind < 0.85:
            return KeyChange(rng.choice(list(Seat)), rng.choice(["1", "NT", "PASS", "OK",
                                                                 "DIR", "XX"]), rng.random() < .5)
        if kind < 0.93:
            return DeviceError(rng.choice([101, 102, 103, 201, 999]),
                               "".join(rng.choice(PRINTABLE) for _ in range(rng.randrange(40))))
        if kind < 0.97:
            return Version(rng.randint(1, 999), "cardreader", "0.3.1")
        return Health("WARN", (("rf", "weak"), ("reads", str(rng.randrange(10**6)))))

    def noise(self) -> None:
        """One of the ways a line goes wrong, ended by a newline."""
        rng = self.rng
        good = encode(self.message())
        kind = rng.randrange(10)
        if kind == 0:  # line noise: any bytes at all, newlines included
            chunk = rng.randbytes(rng.randrange(1, 300))
        elif kind == 1:  # cut short: the device reset mid-line
            chunk = good[:rng.randrange(1, len(good) - 1)]
        elif kind == 2:  # one bit flipped on the wire
            at = rng.randrange(len(good) - 1)
            chunk = good[:at] + bytes([good[at] ^ 1 << rng.randrange(8)]) + good[at + 1:-1]
        elif kind == 3:  # the checksum in lower case, or wrong
            payload, _, digits = good[:-1].rpartition(b"*")
            wrong = [b"%02X" % (int(digits, 16) ^ 1), b"ZZ", b"", b"1", b"0x", b" " + digits]
            if digits.lower() != digits:  # "61" is the same in lower case
                wrong.append(digits.lower())
            chunk = payload + b"*" + rng.choice(wrong)
        elif kind == 4:  # overlong: a good line and more
            chunk = good[:-1].ljust(rng.randint(MAX_LINE + 1, 4 * MAX_LINE), b"x")
            if rng.random() < 0.5:
                chunk = framed(chunk)[:-1]
        elif kind == 5:  # NUL and non-ASCII bytes inside a good-looking line
            at = rng.randrange(len(good) - 1)
            chunk = good[:at] + rng.choice([b"\x00", b"\xff", b"\xc3\xa9", b"\x80"]) + good[at:-1]
        elif kind == 6:  # a host command echoed back, or a host line
            chunk = encode(rng.choice([VersionQuery(), HealthQuery(),
                                       LcdText(Seat.N, 1, "1NT")]))[:-1]
        elif kind == 7:  # a good frame around a payload that means nothing
            chunk = framed(rng.choice([b"C S1", b"C SQ Q", b"T 123", b"K N pass down",
                                       b"E 12", b"V 0 x 1", b"H MAYBE", b"Z 1", b"C  SQ",
                                       b"C SQ N ", b"K N OK down up"]))[:-1]
        elif kind == 8:  # several bad lines at once, and empty lines between them
            chunk = b"\n\r\n".join(good[:-1][:rng.randrange(1, len(good) - 1)]
                                   for _ in range(rng.randint(2, 4)))
        else:  # a runaway line with no end, far longer than any buffer should hold
            chunk = bytes(rng.choice(b"CSQN *0123456789") for _ in range(rng.randint(500, 3000)))
        self.data += chunk + b"\n"
        # Every non-empty line of the noise is one bad line (a "\r" before "\n" is allowed).
        self.bad_lines += sum(1 for line in chunk.split(b"\n") if line.removesuffix(b"\r"))

    def chunks(self) -> Iterator[bytes]:
        """The stream as the port hands it over: a byte, a few, or a whole buffer at a time."""
        data, at = bytes(self.data), 0
        while at < len(data):
            size = self.rng.choice([1, 2, 3, 7, 16, 64, 81, 82, 83, 256, 4096])
            yield data[at:at + size]
            at += size


class Sink(queue.Queue[Any]):
    def items(self) -> list[Any]:
        found = []
        while not self.empty():
            found.append(self.get_nowait())
        return found


@pytest.fixture
def rng() -> random.Random:
    print(f"fuzz seed {SEED} (BIDBOX_FUZZ_SEED={SEED} to run this case again)")
    return random.Random(SEED)


def rejections_logged(caplog: pytest.LogCaptureFixture) -> int:
    return sum(1 for r in caplog.records
               if r.name == "hardware.cardreader" and "rejected" in r.getMessage())


def test_the_line_cutter_passes_every_good_line_and_rejects_each_bad_one_once(
        rng: random.Random, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="hardware.cardreader")
    sink = Sink()
    reader = CardReader("loop://", sink, clock=lambda: NOW)  # not started: no thread, no port
    cutter = _LineProtocol(reader, threading.Event())
    stream = Stream(rng, CASES)
    for chunk in stream.chunks():
        cutter.data_received(chunk)
    got = sink.items()
    assert len(got) == len(stream.events), f"seed {SEED}"
    wrong = [(i, g, w) for i, (g, w) in enumerate(zip(got, stream.events, strict=True)) if g != w]
    assert not wrong, f"seed {SEED}: first wrong events (index, got, wanted): {wrong[:3]}"
    assert reader.stats.lines == len(stream.events), f"seed {SEED}"
    assert set(reader.stats.rejected) <= REASONS, f"seed {SEED}: {reader.stats.rejected}"
    assert sum(reader.stats.rejected.values()) == stream.bad_lines, (
        f"seed {SEED}: {dict(reader.stats.rejected)} rejected, {stream.bad_lines} bad lines")
    assert rejections_logged(caplog) == stream.bad_lines, f"seed {SEED}"
    assert not cutter.buffer, f"seed {SEED}: {bytes(cutter.buffer)!r} left over"


def test_the_line_cutter_never_holds_more_than_a_line(rng: random.Random) -> None:
    """Bytes with no newline at all, forever: the buffer stays bounded, one rejection."""
    reader = CardReader("loop://", Sink())
    cutter = _LineProtocol(reader, threading.Event())
    for _ in range(2000):
        cutter.data_received(bytes(rng.choice(b"C SQN*0123456789ABCDEF")
                                   for _ in range(rng.randint(1, 300))))
        assert len(cutter.buffer) <= MAX_LINE + 1 + 300
    assert reader.stats.rejected == {"oversize": 1}


# -- end to end: the reader thread over loop:// ------------------------------------------------

@pytest.fixture
def loop_reader() -> Iterator[tuple[CardReader, Sink]]:
    sink = Sink()
    with CardReader("loop://", sink, ask_version=False, clock=lambda: NOW,
                    retry_min=0.01, retry_max=0.05) as reader:
        assert sink.get(timeout=TIMEOUT) == ReaderStatus(True, "loop://", NOW)
        yield reader, sink


SENTINEL = Version(999, "sentinel", "end")  # no line of the stream is this one


def test_the_reader_thread_survives_the_noise_and_delivers_every_card(
        loop_reader: tuple[CardReader, Sink], rng: random.Random,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="hardware.cardreader")
    reader, sink = loop_reader
    stream = Stream(rng, max(100, CASES // 10))
    for chunk in stream.chunks():
        reader.write(chunk)
    reader.send(SENTINEL)  # the last line: once it is out, every line before it is
    got = []
    while True:
        event = sink.get(timeout=TIMEOUT)
        if event == event_of(SENTINEL):
            break
        got.append(event)
    assert got == stream.events, f"seed {SEED}"
    assert reader.connected and reader.stats.connects == 1, f"seed {SEED}: the reader restarted"
    assert sum(reader.stats.rejected.values()) == stream.bad_lines, f"seed {SEED}"
    assert rejections_logged(caplog) == stream.bad_lines, f"seed {SEED}"
    assert "error handling input" not in caplog.text
