"""The firmware's half of the line protocol against the host's (``hardware/protocol.py``).

Both are written from docs/serial-protocol.md; here they are held to each other: the same
CRC, the same bytes for every message, the same verdict on every bad line, and the examples
of the document itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware.common import protocol as fw
from hardware import protocol as hw
from hardware.errors import ProtocolError
from laws import Card, Seat

from .fakes import FakeClock

DOC = Path(__file__).resolve().parents[2] / "docs" / "serial-protocol.md"


def firmware_line(message: hw.Message) -> bytes:
    """The line the firmware's encoders make for a device message."""
    match message:
        case hw.CardRead(card=card, seat=seat):
            return fw.card_line(str(card), seat.name if seat else None)
        case hw.TagRead(uid=uid, seat=seat):
            return fw.tag_line(bytes.fromhex(uid), seat.name if seat else None)
        case hw.KeyChange(seat=seat, key=key, down=down):
            return fw.key_line(seat.name, key, down)
        case hw.DeviceError(code=code, text=text):
            return fw.error_line(code, text)
        case hw.Version(protocol=1, device=device, firmware=firmware):
            return fw.version_line(device, firmware)
        case hw.Health(status=status, fields=fields):
            return fw.health_line(status, list(fields))
    raise AssertionError(f"not a device message: {message!r}")


def host_command(message: hw.Message) -> fw.HostCommand:
    match message:
        case hw.VersionQuery():
            return fw.HostCommand("?V")
        case hw.HealthQuery():
            return fw.HostCommand("?H")
        case hw.LcdText(seat=seat, row=row, text=text):
            return fw.HostCommand("L", seat.name, row, text)
    raise AssertionError(f"not a host message: {message!r}")


def doc_lines(marker: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"<!-- examples: {marker} -->")
    end = text.find("<!--", start + 1)
    return text[start:end if end > 0 else len(text)]


GOOD = [line for line in doc_lines("good").split("```")[1].splitlines() if line.strip()]
BAD = re.findall(r"^\| `([^`]*)` \| (\w+) \|", doc_lines("bad"), re.MULTILINE)


def test_the_crc_check_value() -> None:
    assert fw.crc8(b"123456789") == 0xF4
    assert fw.crc8(b"C SQ N") == 0xA3


@given(st.binary(max_size=100))
def test_the_crc_is_the_hosts(data: bytes) -> None:
    assert fw.crc8(data) == hw.crc8(data)


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1,
               max_size=77))
def test_framing_is_the_hosts(payload: str) -> None:
    assert fw.frame(payload) == hw.frame(payload)
    assert fw.unframe(fw.frame(payload)[:-1]) == payload


@pytest.mark.parametrize("line", GOOD)
def test_every_good_example_of_the_document(line: str) -> None:
    message = hw.decode(line)
    data = (line + "\n").encode()
    if isinstance(message, hw.VersionQuery | hw.HealthQuery | hw.LcdText):
        assert fw.decode_host(data[:-1]) == host_command(message)
    else:
        assert firmware_line(message) == data


@pytest.mark.parametrize(("line", "reason"), BAD)
def test_every_bad_example_of_the_document_is_refused(line: str, reason: str) -> None:
    with pytest.raises(fw.LineError) as caught:
        fw.decode_host(line.encode())
    if caught.value.reason != "garbage" or reason != "garbage":
        assert caught.value.reason == reason  # a framing fault: the same verdict as the host
    if reason in ("checksum",):
        assert caught.value.code == fw.BAD_CHECKSUM
    if reason == "partial":
        assert caught.value.code == 0  # a fragment is dropped without an answer


def assert_same_verdict(line: bytes) -> None:
    """The firmware takes the same payload from a line as the host, or refuses it likewise."""
    try:
        expected = hw.unframe(line)
    except ProtocolError as exc:
        with pytest.raises(fw.LineError) as caught:
            fw.unframe(line)
        assert caught.value.reason == exc.reason
    else:
        assert fw.unframe(line) == expected


@given(st.binary(max_size=fw.MAX_LINE).filter(lambda b: b"\n" not in b))
def test_every_line_gets_the_hosts_verdict(line: bytes) -> None:
    assert_same_verdict(line)


@given(st.sampled_from(GOOD), st.data())
def test_corrupted_good_lines_get_the_hosts_verdict(line: str, data: st.DataObject) -> None:
    raw = bytearray(line.encode())
    position = data.draw(st.integers(0, len(raw) - 1))
    raw[position] = data.draw(st.integers(0, 255).filter(lambda b: b not in (10, raw[position])))
    assert_same_verdict(bytes(raw))


DEVICE_MESSAGES: list[hw.Message] = [
    hw.CardRead(Card.from_str("SQ")),
    hw.CardRead(Card.from_str("HT"), Seat.W),
    hw.TagRead("04A1B2C3", Seat.S),
    hw.TagRead("0102030405060708090A0B0C0D0E0F10", Seat.E),
    hw.KeyChange(Seat.N, "PASS", True),
    hw.KeyChange(Seat.W, "12345678", False),
    hw.DeviceError(101, "tag read failed at N"),
    hw.DeviceError(302),
    hw.DeviceError(999, "free * text with * stars"),
    hw.Version(1, "cardreader", "0.1.0"),
    hw.Health("FAIL"),
    hw.Health("WARN", (("uptime", "12"), ("rf", "N-S-"))),
]


@pytest.mark.parametrize("message", DEVICE_MESSAGES, ids=str)
def test_every_device_message_is_the_hosts_line(message: hw.Message) -> None:
    line = firmware_line(message)
    assert line == hw.encode(message)
    assert hw.decode(line) == message


def test_an_error_text_is_cleaned_and_cut_to_fit() -> None:
    line = fw.error_line(203, "key\tN OK stuck " + "x" * 100 + "ñ")
    assert len(line) == fw.MAX_LINE + 1
    message = hw.decode(line)
    assert isinstance(message, hw.DeviceError)
    assert message.text.startswith("key?N OK stuck xxx")


def test_health_fields_that_do_not_fit_are_left_out() -> None:
    fields = [(f"field{n}", "1234567890") for n in range(10)]
    message = hw.decode(fw.health_line("OK", fields))
    assert isinstance(message, hw.Health)
    assert 1 <= len(message.fields) < 10
    assert list(message.fields) == fields[:len(message.fields)]


@pytest.mark.parametrize("build", [
    lambda: fw.card_line("QS"),
    lambda: fw.card_line("SQ", "X"),
    lambda: fw.tag_line(b"\x01\x02\x03"),
    lambda: fw.tag_line(bytes(17)),
    lambda: fw.key_line("N", "pass", True),
    lambda: fw.key_line("N", "TOOLONGKEY", True),
    lambda: fw.error_line(42),
    lambda: fw.health_line("GOOD", []),
    lambda: fw.frame(""),
    lambda: fw.frame("x" * 78),
])
def test_lines_that_cannot_be_sent_are_refused(build: object) -> None:
    with pytest.raises(ValueError):
        build()  # type: ignore[operator]


# -- the receiver's line buffer --------------------------------------------------------------


def feed_all(receiver: fw.LineReceiver, chunks: list[bytes], now: int = 0) -> list[bytes | None]:
    lines: list[bytes | None] = []
    for chunk in chunks:
        lines.extend(receiver.feed(chunk, now))
    return lines


def test_lines_come_out_whatever_the_chunks() -> None:
    stream = b"?V*9F\r\n\n?H*C5\nL N 0 1NT  X   2H*4A\n"
    whole = feed_all(fw.LineReceiver(FakeClock()), [stream])
    assert whole == [b"?V*9F\r", b"?H*C5", b"L N 0 1NT  X   2H*4A"]
    for cut in range(1, len(stream)):
        assert feed_all(fw.LineReceiver(FakeClock()), [stream[:cut], stream[cut:]]) == whole
    assert feed_all(fw.LineReceiver(FakeClock()), [bytes([b]) for b in stream]) == whole


def test_an_oversize_line_is_dropped_whole_and_reported_once() -> None:
    receiver = fw.LineReceiver(FakeClock())
    lines = feed_all(receiver, [b"y" * 60] * 5 + [b"tail\n?V*9F\n"])
    assert lines == [None, b"?V*9F"]
    assert len(receiver._buffer) == 0


def test_a_stale_half_line_is_dropped_before_new_bytes() -> None:
    clock = FakeClock((1 << 30) - 500)  # across the wrap of the ticks, too
    receiver = fw.LineReceiver(clock)
    assert receiver.feed(b"?H*C", clock.ticks_ms()) == []  # the host went away mid-line
    clock.advance(999)
    assert receiver.feed(b"5", clock.ticks_ms()) == []  # not stale yet: still one line
    assert receiver.feed(b"\n", clock.ticks_ms()) == [b"?H*C5"]
    assert receiver.feed(b"L N 0 hal", clock.ticks_ms()) == []
    clock.advance(1000)
    assert receiver.feed(b"?V*9F\n", clock.ticks_ms()) == [b"?V*9F"]
    assert receiver.stale == 1
