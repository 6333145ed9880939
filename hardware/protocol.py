"""The serial line protocol of the card reader and the USB seat-keypad module.

Pure framing and parsing, no I/O: ``encode(message) -> bytes`` and ``decode(line) -> message``.
docs/serial-protocol.md is the contract that firmware is written against; this module is its
reference implementation, and the examples there are checked by tests/hardware/test_protocol.py.

A line is printable ASCII, ``<payload>*<CC>`` and a ``\\n`` (a ``\\r\\n`` is accepted), where CC is
the CRC-8 of the payload bytes as two upper-case hex digits. Each message's ``str()`` is its
payload, and ``parse(str(message)) == message``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from laws import Card, Seat

from .errors import ProtocolError

PROTOCOL_VERSION = 1
MAX_LINE = 80
"""Most characters in a line, from the first payload character to the last checksum digit."""
LCD_COLUMNS = 20
LCD_ROWS = 4

#: What the error codes of ``E`` lines mean (docs/serial-protocol.md, "Error codes").
ERROR_CODES: dict[int, str] = {
    101: "tag read failed (RF collision or CRC error); the card may be put down again",
    102: "card not recognised (printed code unreadable, or not a card)",
    103: "two or more cards on the antenna at once",
    201: "reader chip not responding",
    202: "LCD not responding (the text says which seat)",
    203: "key stuck down at power-up (the text says which)",
    301: "bad checksum in a host line",
    302: "unknown host command",
    303: "bad argument in a host command",
    304: "host line too long",
}

_SEATS = {seat.name: seat for seat in Seat}
_CARD = re.compile(r"[CDHS][2-9TJQKA]")
_TAG = re.compile(r"(?:[0-9A-F]{2}){4,16}")
_KEY = re.compile(r"[A-Z0-9]{1,8}")
_CODE = re.compile(r"[1-9][0-9]{2}")
_DEVICE = re.compile(r"[a-z][a-z0-9-]{0,15}")
_TOKEN = re.compile(r"[!-~]+")
_FIELD = re.compile(r"([a-z][a-z0-9_]*)=([!-~]+)")
_HEX2 = re.compile(r"[0-9A-F]{2}")
_STATUSES = ("OK", "WARN", "FAIL")
_MESSAGE_START = re.compile(r"\?[A-Z]?$|[A-Z](?: |$)")


def crc8(data: bytes) -> int:
    """CRC-8 with polynomial x^8+x^2+x+1 (0x07), initial value 0, no reflection, no final XOR.

    That is CRC-8/SMBUS; its check value, the CRC of ``b"123456789"``, is 0xF4.
    """
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def _printable(text: str) -> bool:
    return all(" " <= ch <= "~" for ch in text)


# -- messages from a device to the host ------------------------------------------------------


def _seat_suffix(seat: Seat | None) -> str:
    return "" if seat is None else f" {seat.name}"


@dataclass(frozen=True, slots=True)
class CardRead:
    """``C <card> [<seat>]``: the reader identified a card itself, e.g. ``C SQ N``."""

    card: Card
    seat: Seat | None = None

    def __str__(self) -> str:
        return f"C {self.card}{_seat_suffix(self.seat)}"


@dataclass(frozen=True, slots=True)
class TagRead:
    """``T <uid> [<seat>]``: an RFID tag, by its UID in upper-case hex (4 to 16 bytes)."""

    uid: str
    seat: Seat | None = None

    def __post_init__(self) -> None:
        if not _TAG.fullmatch(self.uid):
            raise ProtocolError(f"not a tag UID (even count of 8-32 upper-case hex): {self.uid!r}")

    def __str__(self) -> str:
        return f"T {self.uid}{_seat_suffix(self.seat)}"


@dataclass(frozen=True, slots=True)
class KeyChange:
    """``K <seat> <key> down|up``: a key of a USB seat-keypad module, already debounced."""

    seat: Seat
    key: str
    down: bool

    def __post_init__(self) -> None:
        if not _KEY.fullmatch(self.key):
            raise ProtocolError(f"not a key name (1-8 of A-Z 0-9): {self.key!r}")

    def __str__(self) -> str:
        return f"K {self.seat.name} {self.key} {'down' if self.down else 'up'}"


@dataclass(frozen=True, slots=True)
class DeviceError:
    """``E <code> [<text>]``: the device reports a problem; codes in ``ERROR_CODES``."""

    code: int
    text: str = ""

    def __post_init__(self) -> None:
        if not _CODE.fullmatch(str(self.code)):
            raise ProtocolError(f"error code must be 100-999: {self.code!r}")
        if not _printable(self.text):
            raise ProtocolError(f"error text must be printable ASCII: {self.text!r}")

    def __str__(self) -> str:
        return f"E {self.code} {self.text}" if self.text else f"E {self.code}"


@dataclass(frozen=True, slots=True)
class Version:
    """``V <protocol> <device> <firmware>``: the answer to ``?V``, and the hello at power-up."""

    protocol: int
    device: str
    firmware: str

    def __post_init__(self) -> None:
        if not 1 <= self.protocol <= 999:
            raise ProtocolError(f"protocol version must be 1-999: {self.protocol!r}")
        if not _DEVICE.fullmatch(self.device):
            raise ProtocolError(f"not a device kind: {self.device!r}")
        if not _TOKEN.fullmatch(self.firmware):
            raise ProtocolError(f"not a firmware version: {self.firmware!r}")

    def __str__(self) -> str:
        return f"V {self.protocol} {self.device} {self.firmware}"


@dataclass(frozen=True, slots=True)
class Health:
    """``H <OK|WARN|FAIL> [<name>=<value>]...``: the answer to ``?H``."""

    status: str
    fields: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.status not in _STATUSES:
            raise ProtocolError(f"health status must be one of {_STATUSES}: {self.status!r}")
        for name, value in self.fields:
            if not _FIELD.fullmatch(f"{name}={value}"):
                raise ProtocolError(f"not a health field: {name!r}={value!r}")

    def __str__(self) -> str:
        return " ".join(["H", self.status, *(f"{name}={value}" for name, value in self.fields)])

    def get(self, name: str) -> str | None:
        return dict(self.fields).get(name)


# -- messages from the host to a device ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VersionQuery:
    """``?V``: ask for a ``V`` line."""

    def __str__(self) -> str:
        return "?V"


@dataclass(frozen=True, slots=True)
class HealthQuery:
    """``?H``: ask for an ``H`` line."""

    def __str__(self) -> str:
        return "?H"


@dataclass(frozen=True, slots=True)
class LcdText:
    """``L <seat> <row> [<text>]``: put text on row 0-3 of a keypad module's 20x4 LCD.

    The device pads the text with spaces to 20 characters, so an empty text clears the row.
    """

    seat: Seat
    row: int
    text: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.row < LCD_ROWS:
            raise ProtocolError(f"LCD row must be 0-{LCD_ROWS - 1}: {self.row!r}")
        if len(self.text) > LCD_COLUMNS or not _printable(self.text):
            raise ProtocolError(f"LCD text must be 0-20 printable ASCII: {self.text!r}")

    def __str__(self) -> str:
        tail = f" {self.text}" if self.text else ""
        return f"L {self.seat.name} {self.row}{tail}"


DeviceMessage: TypeAlias = CardRead | TagRead | KeyChange | DeviceError | Version | Health
HostMessage: TypeAlias = VersionQuery | HealthQuery | LcdText
Message: TypeAlias = DeviceMessage | HostMessage


# -- framing ----------------------------------------------------------------------------------


def frame(payload: str) -> bytes:
    """``payload*CC\\n`` as bytes."""
    if not payload or not _printable(payload):
        raise ProtocolError(f"payload must be non-empty printable ASCII: {payload!r}")
    if len(payload) + 3 > MAX_LINE:
        raise ProtocolError(f"line would be longer than {MAX_LINE}: {payload!r}", "oversize")
    data = payload.encode("ascii")
    return data + b"*%02X\n" % crc8(data)


def unframe(line: bytes | str) -> str:
    """The payload of one line (its ``\\n`` or ``\\r\\n`` may be present), checksum verified."""
    if isinstance(line, bytes):
        try:
            line = line.decode("ascii")
        except UnicodeDecodeError:
            raise ProtocolError(f"not ASCII: {line!r}") from None
    line = line.removesuffix("\n").removesuffix("\r")
    if len(line) > MAX_LINE:
        raise ProtocolError(f"line longer than {MAX_LINE}: {line[:MAX_LINE]!r}...", "oversize")
    if not _printable(line):
        raise ProtocolError(f"not printable ASCII: {line!r}")
    payload, star, digits = line.rpartition("*")
    if not star:
        # Something that starts like a message was cut short; anything else is noise.
        reason = "partial" if _MESSAGE_START.match(line) else "garbage"
        raise ProtocolError(f"no checksum: {line!r}", reason)
    if len(digits) < 2 and all(ch in "0123456789ABCDEF" for ch in digits):
        raise ProtocolError(f"checksum cut short: {line!r}", "partial")
    if not _HEX2.fullmatch(digits) or not payload:
        raise ProtocolError(f"malformed line: {line!r}")
    if int(digits, 16) != crc8(payload.encode("ascii")):
        raise ProtocolError(
            f"bad checksum {digits}, expected {crc8(payload.encode('ascii')):02X}: {line!r}",
            "checksum")
    return payload


def encode(message: Message) -> bytes:
    """The line that carries ``message``, ``\\n`` included."""
    return frame(str(message))


def decode(line: bytes | str) -> Message:
    """The message one line carries; ``ProtocolError`` if the line is not a good one."""
    return parse(unframe(line))


# -- parsing payloads ------------------------------------------------------------------------


def _seat(token: str) -> Seat:
    try:
        return _SEATS[token]
    except KeyError:
        raise ProtocolError(f"not a seat (N, E, S or W): {token!r}") from None


def _optional_seat(fields: list[str]) -> Seat | None:
    if len(fields) == 1:
        return None
    if len(fields) == 2:
        return _seat(fields[1])
    raise ProtocolError(f"too many fields: {' '.join(fields)!r}")


def _parse_card(rest: str) -> Message:
    fields = rest.split(" ")
    if not _CARD.fullmatch(fields[0]):
        raise ProtocolError(f"not a card (suit CDHS, then rank 2-9TJQKA): {fields[0]!r}")
    return CardRead(Card.from_str(fields[0]), _optional_seat(fields))


def _parse_tag(rest: str) -> Message:
    fields = rest.split(" ")
    return TagRead(fields[0], _optional_seat(fields))


def _parse_key(rest: str) -> Message:
    fields = rest.split(" ")
    if len(fields) != 3 or fields[2] not in ("down", "up"):
        raise ProtocolError(f"expected 'K <seat> <key> down|up': {rest!r}")
    return KeyChange(_seat(fields[0]), fields[1], fields[2] == "down")


def _parse_error(rest: str) -> Message:
    code, _, text = rest.partition(" ")
    if not _CODE.fullmatch(code):
        raise ProtocolError(f"not an error code: {code!r}")
    return DeviceError(int(code), text)


def _parse_version(rest: str) -> Message:
    fields = rest.split(" ")
    if len(fields) != 3 or not fields[0].isdigit():
        raise ProtocolError(f"expected 'V <protocol> <device> <firmware>': {rest!r}")
    return Version(int(fields[0]), fields[1], fields[2])


def _parse_health(rest: str) -> Message:
    status, *pairs = rest.split(" ")
    fields = []
    for pair in pairs:
        match = _FIELD.fullmatch(pair)
        if not match:
            raise ProtocolError(f"not a health field: {pair!r}")
        fields.append((match[1], match[2]))
    return Health(status, tuple(fields))


def _parse_lcd(rest: str) -> Message:
    seat, _, tail = rest.partition(" ")
    row, _, text = tail.partition(" ")
    if row not in ("0", "1", "2", "3"):
        raise ProtocolError(f"expected 'L <seat> <row 0-3> [<text>]': {rest!r}")
    return LcdText(_seat(seat), int(row), text)


_PARSERS = {
    "C": _parse_card, "T": _parse_tag, "K": _parse_key, "E": _parse_error,
    "V": _parse_version, "H": _parse_health, "L": _parse_lcd,
}
_QUERIES: dict[str, Message] = {"?V": VersionQuery(), "?H": HealthQuery()}


def parse(payload: str) -> Message:
    """The message a payload (a line without ``*CC``) stands for."""
    if payload in _QUERIES:
        return _QUERIES[payload]
    kind, space, rest = payload.partition(" ")
    parser = _PARSERS.get(kind)
    if parser is None or not space or not rest:
        raise ProtocolError(f"not a message: {payload!r}")
    return parser(rest)
