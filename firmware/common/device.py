"""One device on the host's serial line: hello, queries, errors, and the parts behind it.

A board's application is a ``Device`` plus parts (the card readers, the keypads and LCDs).
The device owns the line: it says who it is at power-up, answers ``?V`` and ``?H`` from what
its parts report, hands ``L`` lines to the part that has LCDs, answers bad host lines with
``E 3xx``, and counts what it sent for the ``H`` line.

A part is any object with ``health() -> (status, [(name, value), ...])``; a part that drives
LCDs also has ``lcd_text(seat, row, text)``.
"""

from firmware.common import protocol
from firmware.common.health import Uptime, worst

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from typing import Any

    from firmware.interfaces import Clock, Serial

FIRMWARE_VERSION = "0.1.0"


class Device:
    """The line to the host of a device of kind ``name`` (``cardreader``, ``keypad``)."""

    def __init__(self, serial: "Serial", clock: "Clock", name: str,
                 firmware: str = FIRMWARE_VERSION) -> None:
        self.serial = serial
        self.clock = clock
        self.name = name
        self.firmware = firmware
        self.parts: list[Any] = []
        now = clock.ticks_ms()
        self.uptime = Uptime(clock, now)
        self.receiver = protocol.LineReceiver(clock)
        self.reads = 0
        self.errors = 0
        self.keys = 0
        self.bad_lines = 0

    def add(self, part: "Any") -> None:
        self.parts.append(part)

    # -- to the host ---------------------------------------------------------------------------

    def hello(self) -> None:
        """At power-up: a lone newline ends whatever half line the host holds, then ``V``."""
        self.serial.write(b"\n" + protocol.version_line(self.name, self.firmware))

    def send(self, line: bytes) -> None:
        kind = line[:1]
        if kind == b"C" or kind == b"T":
            self.reads += 1
        elif kind == b"E":
            self.errors += 1
        elif kind == b"K":
            self.keys += 1
        self.serial.write(line)

    def card(self, card: str, seat: "str | None") -> None:
        self.send(protocol.card_line(card, seat))

    def tag(self, uid: bytes, seat: "str | None") -> None:
        self.send(protocol.tag_line(uid, seat))

    def key(self, seat: str, key: str, down: bool) -> None:
        self.send(protocol.key_line(seat, key, down))

    def error(self, code: int, text: str = "") -> None:
        self.send(protocol.error_line(code, text))

    def health(self) -> "tuple[str, list[tuple[str, str]]]":
        """The status and fields of the ``H`` line: the worst of the parts' statuses."""
        statuses = []
        fields = [("uptime", str(self.uptime.seconds))]
        for part in self.parts:
            status, more = part.health()
            statuses.append(status)
            fields.extend(more)
        fields.append(("errors", str(self.errors)))
        if self.bad_lines:
            fields.append(("bad_lines", str(self.bad_lines)))
        return worst(statuses), fields

    # -- from the host -------------------------------------------------------------------------

    def poll_host(self) -> None:
        """Take what the host sent since the last call and act on each complete line."""
        data = self.serial.read()
        if not data:
            return
        now = self.clock.ticks_ms()
        for line in self.receiver.feed(data, now):
            if line is None:
                self.bad_lines += 1
                self.error(protocol.LINE_TOO_LONG, "host line too long")
            else:
                self.handle_line(line)

    def handle_line(self, line: bytes) -> None:
        try:
            command = protocol.decode_host(line)
        except protocol.LineError as exc:
            self.bad_lines += 1
            if exc.code:
                self.error(exc.code, exc.text)
            return
        if command.kind == "?V":
            self.serial.write(protocol.version_line(self.name, self.firmware))
        elif command.kind == "?H":
            status, fields = self.health()
            self.serial.write(protocol.health_line(status, fields))
        else:
            self._lcd_text(command)

    def _lcd_text(self, command: "protocol.HostCommand") -> None:
        for part in self.parts:
            lcd_text = getattr(part, "lcd_text", None)
            if lcd_text is not None:
                lcd_text(command.seat, command.row, command.text)
                return
        self.bad_lines += 1
        self.error(protocol.UNKNOWN_COMMAND, "no LCDs on this device")

    def step(self) -> None:
        """The device's share of a main-loop step: the clock, then the host's lines."""
        self.uptime.tick(self.clock.ticks_ms())
        self.poll_host()
