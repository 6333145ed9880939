"""A person registering a sorted deck at the card reader board (``hardware.register --sorted``):
the 52 tags put on one seat's reader one after another, at a person's pace, on simulated chips
that take the time real ones take. test_deck_stream.py runs ``run(emit)`` under CPython and under
MicroPython and checks what the board sent. MicroPython-compatible, like tests/firmware/fakes.py.

Time on the board (the figures behind the simulation, stated once):

- SPI at the shim's 1 MHz: 8 us a byte on the wire. Each register access also costs the board's
  interpreter: the driver's ``read``/``write`` build the bytes, toggle the chip select and call
  ``machine.SPI``; taken as ``ACCESS_US`` = 100 us on an RP2040 under MicroPython (an assumption,
  not a measurement on a board).
- ISO/IEC 14443-A at 106 kbit/s (a bit is 128 carrier cycles of 13.56 MHz, 9.44 us); a byte goes
  with its parity bit, 9 bits; a tag answers one frame delay time (about 86 us) after the
  reader's frame ends.
- The MFRC522's own timer, which the driver sets to 5 ms, ends an exchange that no tag answers:
  every poll of an empty reader, and the HLTA that ends every read.

The person: each card lands on the reader, stays there ``dwell`` ms (the read, the bell, and the
start of the lift; the bench's model has the bell's reaction alone at 250 ms), and the next one
lands ``gap`` ms after it left. ``plan()`` varies both with a fixed pseudo-random sequence and
puts in what hands do: a card wobbled (lifted a little and put down within 500 ms), the next
card slid on before the last is off (briefly, and once for long enough that the reader says
``E 103``), a tag whose first answer comes garbled, and a card only swiped across.
"""
# ruff: noqa: UP031  (MicroPython-compatible %-formatting on purpose)

from firmware.cardreader import main as cardreader_main
from tests.firmware.fake_mfrc522 import COM_IRQ, FakeMfrc522, FakeTag
from tests.firmware.fakes import FakeHw, FakeSerial, FakeSpi

ACCESS_US = 100
WIRE_US_PER_BYTE = 8
RF_BIT_US = 9.44
FRAME_DELAY_US = 86
TIMER_US = 5000

SEAT = "N"
DWELL_MS = (250, 550)
GAP_MS = (300, 900)
SWIPE_MS = 70
"""A card swiped across the reader: on the antenna for longer than one poll period (50 ms)."""
SHORT_OVERLAP_MS = 80
LONG_OVERLAP_MS = 400
WOBBLE_MS = 200


class TimedSpi(FakeSpi):
    """The bus, taking the time of the wire and of the interpreter's call for each access."""

    def write_readinto(self, data, into):
        self.hw.clock.sleep_us(ACCESS_US + WIRE_US_PER_BYTE * len(data))
        FakeSpi.write_readinto(self, data, into)


class TimedMfrc522(FakeMfrc522):
    """The simulated chip, whose answer (or timer) comes when the real one's would."""

    def __init__(self, clock):
        self.clock = clock
        self.pending = 0
        self.ready_at = (0, 0)
        self.wait_us = 0
        FakeMfrc522.__init__(self)

    def _transceive(self, last_bits):
        sent = len(self.fifo)
        before = self.regs[COM_IRQ]
        FakeMfrc522._transceive(self, last_bits)
        raised = self.regs[COM_IRQ] & ~before & 0xFF
        self.regs[COM_IRQ] = before
        if raised & 0x01:
            self.wait_us = TIMER_US
        else:
            bits = (sent + len(self.fifo)) * 9
            self.wait_us = int(bits * RF_BIT_US) + FRAME_DELAY_US
        self.pending = raised
        self.ready_at = self.clock.now_us()

    def read(self, reg):
        if reg == COM_IRQ and self.pending:
            if self.clock.us_since(self.ready_at) >= self.wait_us:
                self.regs[COM_IRQ] |= self.pending
                self.pending = 0
        return FakeMfrc522.read(self, reg)


class StampedSerial(FakeSerial):
    """The USB line, noting when each write left the board."""

    def __init__(self, clock):
        FakeSerial.__init__(self)
        self.clock = clock
        self.stamps = []

    def write(self, data):
        self.stamps.append((self.clock.ticks_ms(), bytes(data)))
        FakeSerial.write(self, data)


class Pace:
    """A fixed pseudo-random sequence (a 32-bit LCG), the same under both interpreters."""

    def __init__(self, seed):
        self.state = seed

    def between(self, low, high):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return low + (self.state >> 8) % (high - low + 1)


def deck_uids():
    """52 seven-byte NTAG-style UIDs (NXP's 0x04 first), in the order the deck is put down."""
    return [bytes([0x04, 0x5E, 0xD0, n, 0x3A, 0x71, 0x80]) for n in range(52)]


def plan(uids, seed=2024):
    """The person's actions: ``(ms after the start, "place" | "lift" | "garble", index)``, and
    the ms at which each card first lands."""
    pace = Pace(seed)
    actions = []
    landed = []
    t = 600
    overlap = 0
    for i in range(len(uids)):
        landed.append(t)
        dwell = pace.between(DWELL_MS[0], DWELL_MS[1])
        if i == 7:
            actions.append((t - 1, "garble", i))  # its first answer comes garbled
        if i == 20:
            dwell = SWIPE_MS
        actions.append((t, "place", i))
        if i == 11:  # wobbled: lifted a little, and down again within 500 ms
            actions.append((t + 150, "lift", i))
            actions.append((t + 150 + WOBBLE_MS, "place", i))
            dwell += 150 + WOBBLE_MS
        dwell += overlap  # a card that landed on the last one stays until that one is off
        overlap = 0
        if i in (30, 40):  # the next card slid on before this one is off
            overlap = SHORT_OVERLAP_MS if i == 30 else LONG_OVERLAP_MS
            lift = t + dwell + overlap
            t = t + dwell
        else:
            lift = t + dwell
            t = lift + pace.between(GAP_MS[0], GAP_MS[1])
        actions.append((lift, "lift", i))
    actions.sort()
    return actions, landed


def build(start_ms):
    """The card reader board, built by its own ``build(hw)`` on timed chips."""
    cardreader_main.READER = "mfrc522"
    hw = FakeHw(start_ms)
    hw.serial = StampedSerial(hw.clock)
    hw.spi_bus = TimedSpi(hw)
    chips = {}
    for seat in "NESW":
        chips[seat] = TimedMfrc522(hw.clock)
        hw.spi_peers[cardreader_main.CHIP_SELECT[seat]] = chips[seat]
    app = cardreader_main.build(hw)
    return hw, app, chips


def stream(start_ms, seed=2024):
    """Run the board through the whole deck; return ``(hw, start, uids, landed)``: ``landed``
    holds the ms (after ``start``) at which each card first lay on the antenna. An action
    falls between two main-loop steps, so it may come later than planned by up to one step
    (a poll of the four readers takes some 20 ms)."""
    hw, app, chips = build(start_ms)
    chip = chips[SEAT]
    uids = deck_uids()
    tags = [FakeTag(uid) for uid in uids]
    actions, _ = plan(uids, seed)
    landed = [None] * len(uids)
    clock = hw.clock
    start = clock.ticks_ms()
    app.start()
    hw.serial.take()
    hw.serial.stamps = []
    end = actions[-1][0] + 1000
    done = 0
    while True:
        now = clock.ticks_diff(clock.ticks_ms(), start)
        while done < len(actions) and actions[done][0] <= now:
            _, what, index = actions[done]
            tag = tags[index]
            if what == "place":
                chip.place(tag)
                if landed[index] is None:
                    landed[index] = now
            elif what == "lift":
                chip.remove(tag)
            else:
                tag.garbled = 1
            done += 1
        if now >= end:
            break
        app.step()
        clock.advance(1)
    return hw, start, uids, landed


WRAP_START = (1 << 30) - 20000
"""The ticks wrap around 20 s into the deck."""


def run(emit):
    """What the board sent, and when (ms after the start); the ticks wrap on the way."""
    hw, start, _, _ = stream(WRAP_START)
    emit(hw.serial.take())
    emit(" ".join(["%d" % hw.clock.ticks_diff(ms, start) for ms, _ in hw.serial.stamps]).encode())
