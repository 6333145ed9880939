"""NXP MFRC522 13.56 MHz reader on SPI: finds the ISO 14443-A tag (NTAG, MIFARE) on its antenna.

Register access over SPI (datasheet section 8.1.2): one chip-select low period per access;
the first byte is the address, ``(reg << 1) & 0x7E`` with bit 7 set to read; reading ``n``
bytes of the FIFO is ``n`` read addresses and a final 0.

One poll (``scan()``): WUPA, the anticollision and SELECT of each cascade level (4, 7 or 10
byte UIDs), then HLTA. WUPA rather than REQA, and HLTA after each read, so a card that stays
on the antenna answers every poll (a selected card that gets a REQA drops back to idle and
misses every other poll); the firmware's debouncer then reports it once. The CRC_A of SELECT
and HLTA is computed here rather than on the chip: fewer register round trips. Two tags at
once show up as a bit collision in the anticollision answer: ``Collision``.

The chip reads 0x00 or 0xFF from every register when it is unpowered or its wires are off,
so ``VersionReg`` is read before each poll, and again before a garbled answer is believed.
"""

from firmware.drivers.rfid import Collision, NotResponding, ReadFailed, crc_a

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from firmware.interfaces import SPI, Clock, Pin

# Registers.
COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands.
IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F
POWER_DOWN = 0x10  # bit of CommandReg, set while the chip is (still) in soft power-down

# ComIrqReg bits.
TIMER_IRQ = 0x01
ERR_IRQ = 0x02
IDLE_IRQ = 0x10
RX_IRQ = 0x20

# ErrorReg bits.
PROTOCOL_ERR = 0x01
PARITY_ERR = 0x02
CRC_ERR = 0x04
COLL_ERR = 0x08
BUFFER_OVFL = 0x10

# ISO 14443-3 commands.
WUPA = 0x52
HLTA = 0x50
SELECT = (0x93, 0x95, 0x97)  # cascade levels 1, 2, 3
CASCADE_TAG = 0x88
SAK_MORE = 0x04  # in SAK: the UID is not complete, go on to the next cascade level

WAIT_MS = 30
"""Longest wait for the chip to finish one exchange; its own timer ends it after 5 ms."""


class Mfrc522:
    """One MFRC522 on ``spi``, selected by its own chip-select pin ``cs`` (active low)."""

    def __init__(self, spi: "SPI", cs: "Pin", clock: "Clock") -> None:
        self.spi = spi
        self.cs = cs
        self.clock = clock
        self.version = 0
        self._unfinished = False  # the last poll stopped half-way, leaving tags READY
        cs.value(1)

    # -- SPI ---------------------------------------------------------------------------------

    def write(self, reg: int, data: bytes) -> None:
        self.cs.value(0)
        try:
            self.spi.write(bytes([(reg << 1) & 0x7E]) + data)
        finally:
            self.cs.value(1)

    def read(self, reg: int, count: int = 1) -> bytes:
        address = ((reg << 1) & 0x7E) | 0x80
        out = bytes([address] * count + [0])
        into = bytearray(count + 1)
        self.cs.value(0)
        try:
            self.spi.write_readinto(out, into)
        finally:
            self.cs.value(1)
        return bytes(into[1:])

    def read1(self, reg: int) -> int:
        return self.read(reg)[0]

    def set_bits(self, reg: int, mask: int) -> None:
        self.write(reg, bytes([self.read1(reg) | mask]))

    # -- the chip ----------------------------------------------------------------------------

    def alive(self) -> bool:
        """True if the chip answers: VersionReg reads something other than 0x00 or 0xFF."""
        self.version = self.read1(VERSION)
        return self.version not in (0x00, 0xFF)

    def init(self) -> None:
        """Soft reset and set up: timer, 100 % ASK, CRC preset 6363, antenna on."""
        if not self.alive():
            raise NotResponding("MFRC522 VersionReg reads 0x%02X" % self.version)  # noqa: UP031
        self.write(COMMAND, bytes([SOFT_RESET]))
        start = self.clock.ticks_ms()
        while self.read1(COMMAND) & POWER_DOWN:
            if self.clock.ticks_diff(self.clock.ticks_ms(), start) > 50:
                raise NotResponding("MFRC522 does not come out of reset")
            self.clock.sleep_ms(1)
        # Timer: TAuto, prescaler 0x0A9 (13.56 MHz / 339 = 40 kHz), reload 200: 5 ms.
        self.write(T_MODE, bytes([0x80]))
        self.write(T_PRESCALER, bytes([0xA9]))
        self.write(T_RELOAD_H, bytes([0x00]))
        self.write(T_RELOAD_L, bytes([200]))
        self.write(TX_ASK, bytes([0x40]))
        self.write(MODE, bytes([0x3D]))
        self.set_bits(TX_CONTROL, 0x03)  # TX1 and TX2 drive the antenna
        if not self.alive():
            raise NotResponding("MFRC522 stopped answering during set-up")

    def transceive(self, data: bytes, last_bits: int = 0) -> "bytes | None":
        """Send a frame and return the tag's answer; None if no tag answered in time."""
        self.write(COMMAND, bytes([IDLE]))
        self.write(COM_IRQ, bytes([0x7F]))  # clear every interrupt request bit
        self.write(FIFO_LEVEL, bytes([0x80]))  # flush the FIFO
        self.write(FIFO_DATA, data)
        self.write(COMMAND, bytes([TRANSCEIVE]))
        self.write(BIT_FRAMING, bytes([0x80 | last_bits]))  # StartSend
        start = self.clock.ticks_ms()
        polls = 0
        while True:
            irq = self.read1(COM_IRQ)
            if irq & (RX_IRQ | IDLE_IRQ | ERR_IRQ):
                break
            if irq & TIMER_IRQ:
                self.write(BIT_FRAMING, bytes([0]))
                return None
            polls += 1
            if polls > 1000 or self.clock.ticks_diff(self.clock.ticks_ms(), start) > WAIT_MS:
                raise NotResponding("MFRC522 never finished a transceive")
        self.write(BIT_FRAMING, bytes([0]))
        error = self.read1(ERROR)
        if error & COLL_ERR:
            raise Collision("bit collision")
        if error & (BUFFER_OVFL | PARITY_ERR | PROTOCOL_ERR | CRC_ERR):
            raise ReadFailed("ErrorReg 0x%02X" % error)  # noqa: UP031
        count = self.read1(FIFO_LEVEL) & 0x7F
        return self.read(FIFO_DATA, count) if count else b""

    def _check(self, answer: "bytes | None", length: int) -> bytes:
        if answer is None or len(answer) != length:
            raise ReadFailed("tag answer cut short")
        return answer

    def scan(self) -> "list[bytes]":
        """One poll of the antenna: ``[]``, or ``[uid]`` of the one tag on it."""
        if not self.alive():
            raise NotResponding("MFRC522 VersionReg reads 0x%02X" % self.version)  # noqa: UP031
        try:
            return self._scan()
        except (Collision, ReadFailed):
            self._unfinished = True
            if not self.alive():  # a chip that died mid-poll reads 0xFF: "every error"
                raise NotResponding("MFRC522 stopped answering") from None
            raise

    def _scan(self) -> "list[bytes]":
        atqa = self.transceive(bytes([WUPA]), 7)
        if atqa is None and self._unfinished:
            # Tags left READY by a broken-off poll take this WUPA as unexpected and drop
            # back to IDLE without answering; the next one wakes them.
            atqa = self.transceive(bytes([WUPA]), 7)
        if atqa is None:
            self._unfinished = False
            return []
        self._unfinished = True
        self._check(atqa, 2)
        uid = b""
        for level in SELECT:
            answer = self._check(self.transceive(bytes([level, 0x20])), 5)
            if answer[0] ^ answer[1] ^ answer[2] ^ answer[3] != answer[4]:
                raise ReadFailed("bad BCC in the UID")
            frame = bytes([level, 0x70]) + answer
            sak = self._check(self.transceive(frame + crc_a(frame)), 3)
            if crc_a(sak[:1]) != sak[1:]:
                raise ReadFailed("bad CRC_A in SAK")
            if sak[0] & SAK_MORE:
                if answer[0] != CASCADE_TAG:
                    raise ReadFailed("SAK says more, but no cascade tag")
                uid += answer[1:4]
                continue
            uid += answer[:4]
            halt = bytes([HLTA, 0x00])
            self.transceive(halt + crc_a(halt))  # a halted tag does not answer
            self._unfinished = False
            return [uid]
        raise ReadFailed("UID longer than three cascade levels")
