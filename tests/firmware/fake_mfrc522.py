"""A simulated MFRC522 on the SPI bus, with ISO 14443-A tags on its antenna.

It plays the chip at register level, as the datasheet describes it: the SPI address byte,
register reads and writes, the 64-byte FIFO, CommandReg (SoftReset, Transceive, Idle),
StartSend in BitFramingReg, ComIrqReg (set and clear), ErrorReg, CollReg, the antenna
switch in TxControlReg, and VersionReg. A powered-off chip reads ``dead_value`` from every
register and comes back from power loss with its reset values (antenna off).

The tags follow ISO/IEC 14443-3's state machine: IDLE answers REQA and WUPA, HALT only WUPA;
READY takes anticollision and SELECT per cascade level; ACTIVE goes to HALT on HLTA and back
to IDLE on anything unexpected. A tag leaving the field loses power and forgets its state.
Two tags answering with different bits make a collision (CollErr).

MicroPython-compatible, like tests/firmware/fakes.py.
"""

from firmware.drivers.rfid import crc_a

COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
TX_CONTROL = 0x14
VERSION = 0x37

TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F
IDLE = 0x00

IDLE_STATE = "idle"
READY = "ready"
ACTIVE = "active"
HALT = "halt"


class FakeTag:
    """An NTAG/MIFARE tag: its UID (4, 7 or 10 bytes) and its protocol state."""

    def __init__(self, uid, final_sak=0x00):
        self.uid = bytes(uid)
        self.final_sak = final_sak
        self.state = IDLE_STATE
        self.level = 0
        self.garbled = 0
        """How many more answers go out garbled (a parity error at the reader)."""

    def cascade(self, level):
        """The 4 UID bytes (with cascade tag) of anticollision level 0, 1 or 2."""
        uid = self.uid
        if len(uid) == 4:
            parts = [uid]
        elif len(uid) == 7:
            parts = [b"\x88" + uid[:3], uid[3:]]
        else:
            parts = [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]
        if level >= len(parts):
            return None
        return parts[level]

    def atqa(self):
        size = {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)]
        return bytes([0x04 | size, 0x00])


def _bcc(data):
    return data[0] ^ data[1] ^ data[2] ^ data[3]


class FakeMfrc522:
    """The chip. Put it in ``hw.spi_peers[cs_pin]``; put tags in ``field``."""

    def __init__(self, version=0x92, dead_value=0x00):
        self.version = version
        self.dead_value = dead_value
        self.powered = True
        self.field = []
        self.selected = False
        self.address = None
        self.transceives = 0
        self.reset()

    def reset(self):
        self.regs = bytearray(64)
        self.regs[COMMAND] = 0x20  # RcvOff clear, PowerDown clear after reset
        self.regs[COM_IRQ] = 0x14
        self.regs[VERSION] = self.version
        self.fifo = b""
        self.antenna = False

    # -- what a test does --------------------------------------------------------------------

    def place(self, tag):
        tag.state = IDLE_STATE
        tag.level = 0
        self.field.append(tag)

    def remove(self, tag):
        self.field.remove(tag)

    def power_off(self):
        self.powered = False

    def power_on(self):
        self.powered = True
        self.reset()

    # -- SPI -------------------------------------------------------------------------------------

    def chip_select(self, selected):
        self.selected = selected
        self.address = None

    def exchange(self, byte):
        if not self.powered:
            return self.dead_value
        if self.address is None:  # the address byte of this access
            self.address = byte
            return 0x00
        reg = (self.address >> 1) & 0x3F
        if self.address & 0x80:  # reading: this byte is the next address (0 ends)
            value = self.read(reg)
            self.address = byte if byte & 0x80 else None
            return value
        self.write(reg, byte)
        return 0x00

    def read(self, reg):
        if reg == FIFO_DATA:
            if not self.fifo:
                return 0x00
            value = self.fifo[0]
            self.fifo = self.fifo[1:]
            return value
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def write(self, reg, value):
        if reg == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo += bytes([value])
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo = b""
        elif reg == COM_IRQ:
            mask = value & 0x7F
            if value & 0x80:
                self.regs[COM_IRQ] |= mask
            else:
                self.regs[COM_IRQ] &= ~mask & 0xFF
        elif reg == COMMAND:
            if value & 0x0F == SOFT_RESET:
                self.reset()
            else:
                self.regs[COMMAND] = value
        elif reg == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value & 0x7F
            if value & 0x80 and self.regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._transceive(value & 0x07)
        elif reg == TX_CONTROL:
            self.regs[TX_CONTROL] = value
            self.antenna = value & 0x03 == 0x03
        elif reg != VERSION:
            self.regs[reg] = value

    # -- RF ----------------------------------------------------------------------------------

    def _done(self, answer, error=0, coll=0):
        self.fifo = answer
        self.regs[ERROR] = error
        self.regs[COLL] = coll
        self.regs[CONTROL] = 0
        self.regs[COM_IRQ] |= 0x20 | (0x02 if error else 0)  # RxIRq, ErrIRq

    def _timeout(self):
        self.fifo = b""
        self.regs[ERROR] = 0
        self.regs[COM_IRQ] |= 0x01  # TimerIRq

    def _answers(self, tags, answers):
        """Several tags answering at once: equal answers add up, different bits collide."""
        garbled = [tag for tag in tags if tag.garbled]
        for tag in garbled:
            tag.garbled -= 1
        if garbled:
            self._done(answers[0], 0x02)  # ParityErr
            return
        first = answers[0]
        for other in answers[1:]:
            if other != first:
                self._done(first, 0x08, 0x01)  # CollErr
                return
        self._done(first)

    def _transceive(self, last_bits):
        self.transceives += 1
        frame = self.fifo
        self.fifo = b""
        if not self.antenna:
            self._timeout()
            return
        tags = list(self.field)
        if last_bits == 7 and len(frame) == 1 and frame[0] in (0x26, 0x52):
            wake = frame[0] == 0x52
            answering = []
            for tag in tags:
                if tag.state == IDLE_STATE or (wake and tag.state == HALT):
                    tag.state = READY
                    tag.level = 0
                    answering.append(tag)
                elif tag.state in (READY, ACTIVE):
                    tag.state = IDLE_STATE  # not expected now
            if not answering:
                self._timeout()
            else:
                self._answers(answering, [tag.atqa() for tag in answering])
            return
        ready = [tag for tag in tags if tag.state == READY]
        if len(frame) == 2 and frame[0] in (0x93, 0x95, 0x97) and frame[1] == 0x20:
            level = (0x93, 0x95, 0x97).index(frame[0])
            answering = [tag for tag in ready if tag.level == level]
            if not answering:
                self._timeout()
                return
            answers = []
            for tag in answering:
                part = tag.cascade(level)
                answers.append(part + bytes([_bcc(part)]))
            self._answers(answering, answers)
            return
        if len(frame) == 9 and frame[0] in (0x93, 0x95, 0x97) and frame[1] == 0x70:
            if crc_a(frame[:7]) != frame[7:]:
                self._timeout()
                return
            level = (0x93, 0x95, 0x97).index(frame[0])
            chosen = [tag for tag in ready if tag.level == level
                      and tag.cascade(level) + bytes([_bcc(tag.cascade(level))]) == frame[2:7]]
            for tag in ready:
                if tag not in chosen:
                    tag.state = IDLE_STATE
            if not chosen:
                self._timeout()
                return
            answers = []
            for tag in chosen:  # tags whose UIDs share this level all answer
                if tag.cascade(level + 1) is None:
                    sak = tag.final_sak
                    tag.state = ACTIVE
                else:
                    sak = 0x04
                    tag.level = level + 1
                answers.append(bytes([sak]) + crc_a(bytes([sak])))
            self._answers(chosen, answers)
            return
        if len(frame) == 4 and frame[:2] == b"\x50\x00" and crc_a(frame[:2]) == frame[2:]:
            for tag in tags:
                if tag.state == ACTIVE:
                    tag.state = HALT
            self._timeout()  # HLTA is not answered
            return
        for tag in tags:
            if tag.state in (READY, ACTIVE):
                tag.state = IDLE_STATE
        self._timeout()
