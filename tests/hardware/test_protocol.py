"""The serial line protocol: framing, the checksum, every message, and docs' examples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hardware.errors import HardwareError, ProtocolError
from hardware.protocol import (
    ERROR_CODES,
    MAX_LINE,
    CardRead,
    DeviceError,
    Health,
    HealthQuery,
    KeyChange,
    LcdText,
    Message,
    TagRead,
    Version,
    VersionQuery,
    crc8,
    decode,
    encode,
    frame,
    parse,
    unframe,
)
from laws import Card, Seat

DOC = Path(__file__).resolve().parents[2] / "docs" / "serial-protocol.md"


def test_crc8_check_value() -> None:
    assert crc8(b"123456789") == 0xF4  # CRC-8/SMBUS
    assert crc8(b"") == 0
    assert crc8(b"C SQ N") == 0xA3


MESSAGES: list[tuple[Message, str]] = [
    (CardRead(Card.from_str("SQ")), "C SQ*61\n"),
    (CardRead(Card.from_str("SQ"), Seat.N), "C SQ N*A3\n"),
    (CardRead(Card.from_str("HT"), Seat.W), "C HT W*C1\n"),
    (TagRead("04A1B2C3", Seat.S), "T 04A1B2C3 S*97\n"),
    (TagRead("04A1B2C3D4E5F6"), "T 04A1B2C3D4E5F6*0B\n"),
    (KeyChange(Seat.N, "PASS", True), "K N PASS down*3D\n"),
    (KeyChange(Seat.N, "PASS", False), "K N PASS up*2F\n"),
    (DeviceError(101, "tag read failed"), "E 101 tag read failed*73\n"),
    (DeviceError(302), "E 302*D0\n"),
    (Version(1, "cardreader", "0.3.1"), "V 1 cardreader 0.3.1*98\n"),
    (Health("OK", (("uptime", "3600"), ("reads", "212"), ("errors", "0"))),
     "H OK uptime=3600 reads=212 errors=0*AC\n"),
    (Health("FAIL"), f"H FAIL*{crc8(b'H FAIL'):02X}\n"),
    (VersionQuery(), "?V*9F\n"),
    (HealthQuery(), "?H*C5\n"),
    (LcdText(Seat.N, 0, "1NT  X   2H"), "L N 0 1NT  X   2H*4A\n"),
    (LcdText(Seat.W, 2), "L W 2*92\n"),
    (LcdText(Seat.E, 1, "a*b"), f"L E 1 a*b*{crc8(b'L E 1 a*b'):02X}\n"),  # '*' in text
    (LcdText(Seat.S, 3, "x" * 20), f"L S 3 {'x' * 20}*{crc8(b'L S 3 ' + b'x' * 20):02X}\n"),
]


@pytest.mark.parametrize(("message", "line"), MESSAGES, ids=lambda v: str(v).strip())
def test_encode_and_decode(message: Message, line: str) -> None:
    assert encode(message) == line.encode("ascii")
    assert decode(line) == message
    assert decode(line.encode("ascii")) == message
    assert decode(line.replace("\n", "\r\n")) == message  # devices may end lines with \r\n
    assert decode(line.rstrip("\n")) == message
    assert parse(str(message)) == message


@pytest.mark.parametrize(("line", "reason"), [
    ("C SQ N*A4", "checksum"),
    ("C SQ N*00", "checksum"),
    ("C SQ N", "partial"),
    ("C SQ N*A", "partial"),
    ("C", "partial"),
    ("?", "partial"),
    ("C SQ N*a3", "garbage"),  # lower-case checksum
    ("C SQ N*A3 ", "garbage"),
    ("C SQ N*A3X", "garbage"),
    ("*00", "garbage"),
    ("hello", "garbage"),
    ("C S\x00 N*00", "garbage"),
    ("C S\t N*00", "garbage"),
    (b"C S\xa0 N*00", "garbage"),  # not ASCII
    ("C S♠ N*00", "garbage"),
    ("x" * (MAX_LINE + 1), "oversize"),
    ("C SQ N" + " " * MAX_LINE + "*00", "oversize"),
])
def test_bad_lines(line: str | bytes, reason: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode(line)
    assert caught.value.reason == reason


@pytest.mark.parametrize("payload", [
    "C SQ  N", "C QS N", "C sq N", "C S10", "C SQ X", "C SQ N E", " C SQ", "C SQ ",
    "T 04A1B2C", "T 04a1b2c3", "T 04A1", "T " + "AB" * 17,
    "K N PASS pressed", "K N pass down", "K N PASS", "K X PASS up", "K N TOOLONGKEY down",
    "E 42 oops", "E 1000", "E", "E abc",
    "V 1 cardreader", "V x cardreader 1", "V 1 Cardreader 1", "V 0 cardreader 1",
    "H GOOD", "H OK uptime", "H OK Up=1", "H OK a=b=c c", "H",
    "L N 4 hello", "L N 0 " + "x" * 21, "L Q 0 x", "L N", "L N x",
    "?X", "?", "Z 1", "C", "c SQ",
])
def test_payloads_that_are_not_messages(payload: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse(payload)
    assert caught.value.reason == "garbage"
    line = frame(payload) if payload.isprintable() and len(payload) < MAX_LINE - 3 else None
    if line is not None:  # with a good checksum the line is still refused
        with pytest.raises(ProtocolError):
            decode(line)


def test_protocol_errors_are_hardware_errors_and_value_errors() -> None:
    with pytest.raises(HardwareError):
        decode("nonsense")
    with pytest.raises(ValueError):
        decode("nonsense")


@pytest.mark.parametrize("build", [
    lambda: TagRead("04a1b2c3"),
    lambda: KeyChange(Seat.N, "pass", True),
    lambda: DeviceError(99),
    lambda: DeviceError(101, "tab\there"),
    lambda: Version(0, "cardreader", "1"),
    lambda: Health("MEH"),
    lambda: Health("OK", (("Bad", "1"),)),
    lambda: LcdText(Seat.N, 4, "x"),
    lambda: LcdText(Seat.N, 0, "x" * 21),
    lambda: LcdText(Seat.N, 0, "año"),  # the host transliterates before sending
])
def test_messages_that_cannot_be_sent_are_refused(build: object) -> None:
    with pytest.raises(ProtocolError):
        build()  # type: ignore[operator]


def test_a_message_too_long_for_a_line_is_refused() -> None:
    with pytest.raises(ProtocolError) as caught:
        encode(DeviceError(101, "x" * 80))
    assert caught.value.reason == "oversize"
    assert len(encode(DeviceError(101, "x" * (MAX_LINE - 9))).rstrip(b"\n")) == MAX_LINE


def test_unframe_gives_the_payload() -> None:
    assert unframe(b"L E 1 a*b*" + b"%02X" % crc8(b"L E 1 a*b") + b"\r\n") == "L E 1 a*b"


# -- docs/serial-protocol.md is the contract: its examples must be right --------------------


def _doc_block(marker: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"<!-- examples: {marker} -->")
    end = text.find("<!--", start + 1)
    return text[start:end if end > 0 else len(text)]


def test_every_good_example_in_the_document_round_trips() -> None:
    block = _doc_block("good").split("```")[1]
    lines = [line for line in block.splitlines() if line.strip()]
    assert len(lines) >= 15
    for line in lines:
        assert encode(decode(line)) == (line + "\n").encode("ascii"), line


def test_every_bad_example_in_the_document_is_refused_as_documented() -> None:
    rows = re.findall(r"^\| `([^`]*)` \| (\w+) \|", _doc_block("bad"), re.MULTILINE)
    assert len(rows) >= 10
    for line, reason in rows:
        with pytest.raises(ProtocolError) as caught:
            decode(line)
        assert caught.value.reason == reason, line


def test_every_example_line_in_the_message_sections_is_good() -> None:
    text = DOC.read_text(encoding="utf-8")
    body = text[text.index("## From a device to the host"):text.index("## Error codes")]
    blocks = body.split("```")[1::2]
    lines = [line for block in blocks for line in block.splitlines() if line.strip()]
    assert len(lines) >= 15
    for line in lines:
        decode(line)


def test_the_error_code_table_matches_the_document() -> None:
    text = DOC.read_text(encoding="utf-8")
    documented = {int(code): meaning for code, meaning in
                  re.findall(r"^\| (\d{3}) \| (.+) \|$", text, re.MULTILINE)}
    assert documented == ERROR_CODES
