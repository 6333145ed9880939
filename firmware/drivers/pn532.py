"""NXP PN532 NFC controller on I2C: finds the ISO 14443-A tag on its antenna.

The host writes one information frame per command (user manual UM0701-02, section 6.2):

    00 00 FF LEN LCS D4 CMD params... DCS 00

where ``LEN`` counts ``D4 CMD params``, ``LCS`` makes ``LEN + LCS`` zero and ``DCS`` makes the
sum of ``D4 CMD params DCS`` zero (mod 256). On I2C every read starts with a status byte whose
bit 0 says the PN532 has something ready; the PN532 first makes an ACK frame ready
(``00 00 FF 00 FF 00``), then the answer, ``00 00 FF LEN LCS D5 CMD+1 data... DCS 00``.

The PN532 answers at address 0x24 only, so four seats need four buses: the RP2040's two
hardware I2C blocks plus software I2C on any other two pairs of pins (``shim.i2c(None, ...)``).
A PN532 that does not acknowledge its address raises ``OSError`` on the bus:
``NotResponding``.
"""

from firmware.drivers.rfid import Collision, NotResponding, ReadFailed

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from firmware.interfaces import I2C, Clock

ADDRESS = 0x24
HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5
ACK = b"\x00\x00\xff\x00\xff\x00"

GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A

WAIT_MS = 50
"""Longest wait for an answer; with one passive-activation retry InListPassiveTarget takes a
few milliseconds."""


def command_frame(command: int, params: bytes = b"") -> bytes:
    body = bytes([HOST_TO_PN532, command]) + params
    length = len(body)
    return (bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF]) + body
            + bytes([(-sum(body)) & 0xFF, 0x00]))


class Pn532:
    """One PN532 at ``address`` on ``i2c`` (a bus of its own: see the module docstring)."""

    def __init__(self, i2c: "I2C", clock: "Clock", address: int = ADDRESS) -> None:
        self.i2c = i2c
        self.clock = clock
        self.address = address
        self.firmware = b""

    # -- frames ------------------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        try:
            self.i2c.writeto(self.address, data)
        except OSError:
            raise NotResponding("PN532 does not acknowledge") from None

    def _read(self, count: int) -> bytes:
        try:
            return bytes(self.i2c.readfrom(self.address, count))
        except OSError:
            raise NotResponding("PN532 does not acknowledge") from None

    def _wait_ready(self, count: int) -> bytes:
        """The next ``count`` bytes after the status byte, once the PN532 says it is ready."""
        start = self.clock.ticks_ms()
        polls = 0
        while True:
            data = self._read(count + 1)
            if data[0] & 0x01:
                return data[1:]
            polls += 1
            if polls > 500 or self.clock.ticks_diff(self.clock.ticks_ms(), start) > WAIT_MS:
                raise NotResponding("PN532 never became ready")
            self.clock.sleep_ms(1)

    def call(self, command: int, params: bytes = b"", answer_room: int = 32) -> bytes:
        """Send a command, take its ACK and return the data of its answer."""
        self._write(command_frame(command, params))
        if self._wait_ready(len(ACK)) != ACK:
            raise ReadFailed("PN532 did not acknowledge the command frame")
        frame = self._wait_ready(answer_room + 9)
        if frame[:3] != b"\x00\x00\xff":
            raise ReadFailed("PN532 answer without a preamble")
        length = frame[3]
        if (length + frame[4]) & 0xFF or length < 2 or length + 7 > len(frame):
            raise ReadFailed("PN532 answer with a bad length")
        body = frame[5:5 + length]
        if (sum(body) + frame[5 + length]) & 0xFF:
            raise ReadFailed("PN532 answer with a bad checksum")
        if body[0] != PN532_TO_HOST or body[1] != command + 1:
            raise ReadFailed("PN532 answered another command (or with an error frame)")
        return body[2:]

    # -- the chip ----------------------------------------------------------------------------

    def alive(self) -> bool:
        try:
            self.firmware = self.call(GET_FIRMWARE_VERSION)
        except (NotResponding, ReadFailed):
            return False
        return len(self.firmware) == 4 and self.firmware[0] == 0x32

    def init(self) -> None:
        """Wake it, check it is a PN532, normal mode, and make passive activation quick."""
        try:
            self.i2c.writeto(self.address, b"\x00")  # wakes a sleeping PN532; may NAK
        except OSError:
            pass
        self.clock.sleep_ms(2)
        if not self.alive():
            raise NotResponding("PN532 does not answer GetFirmwareVersion")
        self.call(SAM_CONFIGURATION, b"\x01\x14\x00")  # normal mode, no IRQ pin
        # MxRtyATR, MxRtyPSL, MxRtyPassiveActivation: try once, so a poll never blocks.
        self.call(RF_CONFIGURATION, b"\x05\xff\x01\x01")

    def scan(self) -> "list[bytes]":
        """One poll of the antenna: ``[]``, or ``[uid]`` of the one tag on it."""
        # Up to two targets at 106 kbit/s type A: two means two cards on the antenna.
        data = self.call(IN_LIST_PASSIVE_TARGET, b"\x02\x00")
        if not data or data[0] == 0:
            return []
        if data[0] > 1:
            raise Collision("%d targets" % data[0])  # noqa: UP031
        # Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1...
        if len(data) < 6 or len(data) < 6 + data[5]:
            raise ReadFailed("target data cut short")
        uid = data[6:6 + data[5]]
        if not 4 <= len(uid) <= 10:
            raise ReadFailed("UID of %d bytes" % len(uid))  # noqa: UP031
        return [uid]
