"""The serial line protocol of docs/serial-protocol.md, as a device speaks it.

Framing (``<payload>*<CC>\\n``, CRC-8/SMBUS), the lines a device sends (``C T K E V H``) and the
host lines it understands (``?V ?H L``). The host's side of the same contract is
``hardware/protocol.py``; tests/firmware checks that the two agree line for line.

This file goes onto the board: MicroPython lacks ``str.isprintable``, ``str.ljust``, slice
deletion on ``bytearray`` and much else, so everything here is spelled with the few methods
both interpreters have, and ``%`` formatting stands in for f-strings.
"""
# ruff: noqa: UP031  (MicroPython-compatible %-formatting on purpose; see the docstring)

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from firmware.interfaces import Clock

PROTOCOL_VERSION = 1
MAX_LINE = 80
"""Most characters from the first payload character to the last checksum digit."""
LCD_COLUMNS = 20
LCD_ROWS = 4
SEATS = "NESW"
SUITS = "CDHS"
RANKS = "23456789TJQKA"
HEX = "0123456789ABCDEF"
DEVICE_LETTERS = "CTKEVH"

# Codes of E lines (docs/serial-protocol.md, "Error codes").
TAG_READ_FAILED = 101
CARD_NOT_RECOGNISED = 102
TWO_CARDS = 103
READER_NOT_RESPONDING = 201
LCD_NOT_RESPONDING = 202
KEY_STUCK = 203
BAD_CHECKSUM = 301
UNKNOWN_COMMAND = 302
BAD_ARGUMENT = 303
LINE_TOO_LONG = 304


def _crc_table() -> bytes:
    table = bytearray(256)
    for n in range(256):
        crc = n
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table[n] = crc
    return bytes(table)


_CRC_TABLE = _crc_table()


def crc8(data: bytes) -> int:
    """CRC-8/SMBUS: polynomial 0x07, initial 0, not reflected, no final XOR (check 0xF4)."""
    crc = 0
    for byte in data:
        crc = _CRC_TABLE[crc ^ byte]
    return crc


def printable(text: str) -> bool:
    """True if every character is printable ASCII (0x20 to 0x7E)."""
    for ch in text:
        if ch < " " or ch > "~":
            return False
    return True


def is_card(code: str) -> bool:
    """True for a card on the wire: suit then rank, ``SQ``, ``HT``."""
    return len(code) == 2 and code[0] in SUITS and code[1] in RANKS


def is_key(name: str) -> bool:
    """True for a key name: 1 to 8 of ``A-Z 0-9``."""
    if not 1 <= len(name) <= 8:
        return False
    for ch in name:
        if not ("A" <= ch <= "Z" or "0" <= ch <= "9"):
            return False
    return True


def uid_hex(uid: bytes) -> str:
    """A tag UID as the wire spells it: upper-case hex, most significant byte first."""
    return "".join(["%02X" % byte for byte in uid])


def frame(payload: str) -> bytes:
    """``payload*CC\\n`` as bytes; ``ValueError`` if the payload cannot be a line."""
    if not payload or not printable(payload):
        raise ValueError("payload must be non-empty printable ASCII")
    if len(payload) + 3 > MAX_LINE:
        raise ValueError("line would be longer than %d" % MAX_LINE)
    data = payload.encode()
    return data + ("*%02X\n" % crc8(data)).encode()


def _seat_suffix(seat: "str | None") -> str:
    if seat is None:
        return ""
    if seat not in SEATS or len(seat) != 1:
        raise ValueError("not a seat: %r" % seat)
    return " " + seat


# -- lines from the device to the host ---------------------------------------------------------


def card_line(card: str, seat: "str | None" = None) -> bytes:
    """``C <card> [<seat>]``: a card the reader recognised by itself (or by its tag table)."""
    if not is_card(card):
        raise ValueError("not a card: %r" % card)
    return frame("C " + card + _seat_suffix(seat))


def tag_line(uid: bytes, seat: "str | None" = None) -> bytes:
    """``T <uid> [<seat>]``: an RFID tag by its UID (4 to 16 bytes)."""
    if not 4 <= len(uid) <= 16:
        raise ValueError("a UID has 4 to 16 bytes, not %d" % len(uid))
    return frame("T " + uid_hex(uid) + _seat_suffix(seat))


def key_line(seat: str, key: str, down: bool) -> bytes:
    """``K <seat> <key> down|up``: a debounced key change of a seat keypad."""
    if not is_key(key):
        raise ValueError("not a key name: %r" % key)
    return frame("K " + _seat_suffix(seat)[1:] + " " + key + (" down" if down else " up"))


def error_line(code: int, text: str = "") -> bytes:
    """``E <code> [<text>]``. The text is for a human: it is made printable and cut to fit."""
    if not 100 <= code <= 999:
        raise ValueError("error codes have three digits: %r" % code)
    clean = "".join([ch if " " <= ch <= "~" else "?" for ch in text]).strip()
    payload = "E %d" % code
    if clean:
        payload = (payload + " " + clean)[:MAX_LINE - 3].rstrip()
    return frame(payload)


def version_line(device: str, firmware: str) -> bytes:
    """``V <protocol> <device> <firmware>``: the answer to ``?V`` and the hello at power-up."""
    return frame("V %d %s %s" % (PROTOCOL_VERSION, device, firmware))


def health_line(status: str, fields: "list[tuple[str, str]]") -> bytes:
    """``H <status> [<name>=<value>]...``; fields that would not fit in a line are left out."""
    if status not in ("OK", "WARN", "FAIL"):
        raise ValueError("not a health status: %r" % status)
    payload = "H " + status
    for name, value in fields:
        field = " %s=%s" % (name, value)
        if len(payload) + len(field) + 3 > MAX_LINE:
            break
        payload += field
    return frame(payload)


# -- lines from the host ----------------------------------------------------------------------


class LineError(Exception):
    """A host line that is not a good one.

    ``code`` is the ``E`` code to answer with (301-304), or 0 for a line that is dropped
    without an answer (cut short, or not printable ASCII: not a command at all). ``reason`` is
    the kind the host would count it as: ``partial``, ``garbage``, ``checksum``, ``oversize``.
    """

    def __init__(self, code: int, reason: str, text: str = "") -> None:
        super().__init__(text or reason)
        self.code = code
        self.reason = reason
        self.text = text or reason


class HostCommand:
    """One host command: ``kind`` is ``"?V"``, ``"?H"`` or ``"L"``; the rest is for ``L``."""

    def __init__(self, kind: str, seat: str = "", row: int = 0, text: str = "") -> None:
        self.kind = kind
        self.seat = seat
        self.row = row
        self.text = text

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, HostCommand) and self.kind == other.kind
                and self.seat == other.seat and self.row == other.row
                and self.text == other.text)

    def __repr__(self) -> str:
        return "HostCommand(%r, %r, %r, %r)" % (self.kind, self.seat, self.row, self.text)


def _looks_like_a_start(text: str) -> bool:
    """``?``, ``?V``, ``C``, ``C ...``: the start of a message (as the host judges it too)."""
    if text[:1] == "?":
        return len(text) == 1 or (len(text) == 2 and "A" <= text[1] <= "Z")
    return text[:1] != "" and "A" <= text[0] <= "Z" and (len(text) == 1 or text[1] == " ")


def unframe(line: bytes) -> str:
    """The payload of one line (without its ``\\n``; a trailing ``\\r`` is allowed)."""
    if line[-1:] == b"\r":
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise LineError(LINE_TOO_LONG, "oversize", "line too long")
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            raise LineError(0, "garbage", "not printable ASCII")
    text = line.decode()
    star = text.rfind("*")
    if star < 0:
        # Something that starts like a message was cut short; anything else is noise.
        raise LineError(0, "partial" if _looks_like_a_start(text) else "garbage", "no checksum")
    payload = text[:star]
    digits = text[star + 1:]
    if len(digits) < 2 and (digits == "" or digits in HEX):
        raise LineError(0, "partial", "checksum cut short")
    if len(digits) != 2 or digits[0] not in HEX or digits[1] not in HEX or not payload:
        raise LineError(BAD_CHECKSUM, "garbage", "malformed checksum")
    if int(digits, 16) != crc8(payload.encode()):
        raise LineError(BAD_CHECKSUM, "checksum", "bad checksum")
    return payload


def parse_host(payload: str) -> HostCommand:
    """The host command a payload stands for; ``LineError`` 302 or 303 if it is none."""
    if payload == "?V" or payload == "?H":
        return HostCommand(payload)
    if payload[:2] != "L ":
        if payload[:1] in DEVICE_LETTERS and payload[1:2] == " ":
            # One of our own lines come back: a tty echoes until the host sets it raw.
            # Answering it would be echoed too, and so on; drop it.
            raise LineError(0, "garbage", "a device line (an echo?)")
        raise LineError(UNKNOWN_COMMAND, "garbage", "unknown command")
    # L <seat> <row> [<text>]: the text is free, and may hold spaces and '*'.
    rest = payload[2:]
    if len(rest) < 3 or rest[0] not in SEATS or rest[1] != " " or rest[2] not in "0123":
        raise LineError(BAD_ARGUMENT, "garbage", "expected L <seat> <row 0-3> [<text>]")
    text = rest[4:]
    if len(rest) > 3 and rest[3] != " ":
        raise LineError(BAD_ARGUMENT, "garbage", "expected L <seat> <row 0-3> [<text>]")
    if len(text) > LCD_COLUMNS:
        raise LineError(BAD_ARGUMENT, "garbage", "LCD text longer than 20")
    return HostCommand("L", rest[0], int(rest[2]), text)


def decode_host(line: bytes) -> HostCommand:
    """``parse_host(unframe(line))``."""
    return parse_host(unframe(line))


class LineReceiver:
    """Cuts the bytes from the host into lines, with a bounded buffer.

    ``feed(data, now)`` returns the complete lines (without ``\\n``; empty lines are skipped)
    and, for each line longer than ``MAX_LINE``, a ``None`` in its place: such a line is
    dropped whole, up to its ``\\n``. A half line left alone for ``stale_ms`` is dropped
    before new bytes are added: the host closes and reopens the port whenever it loses it,
    and its first line after that must not be glued to the end of an old one.
    """

    def __init__(self, clock: "Clock", stale_ms: int = 1000) -> None:
        self._clock = clock
        self.stale_ms = stale_ms
        self._buffer = bytearray()
        self._discarding = False
        self._last = 0
        self.stale = 0
        """How many stale half lines were dropped."""

    def feed(self, data: bytes, now: int) -> "list[bytes | None]":
        lines: list[bytes | None] = []
        if not data:
            return lines
        if (self._buffer or self._discarding) and \
                self._clock.ticks_diff(now, self._last) >= self.stale_ms:
            self._buffer = bytearray()
            self._discarding = False
            self.stale += 1
        self._last = now
        self._buffer += data
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > MAX_LINE + 1:  # room for a "\r"
                    if not self._discarding:
                        lines.append(None)
                    self._discarding = True
                    self._buffer = bytearray()
                return lines
            line = bytes(self._buffer[:end])
            self._buffer = self._buffer[end + 1:]
            if self._discarding:  # the tail of an oversize line
                self._discarding = False
                continue
            if line and line != b"\r":
                lines.append(line)
