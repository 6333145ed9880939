"""The card reader: one RFID reader per seat, so each card comes with the seat that played it.

Every ``poll_ms`` each seat's reader is polled once. A tag that arrives (not seen on that
antenna in the last 500 ms) is sent as ``T <uid> <seat>``, or as ``C <card> <seat>`` if the
board carries a tag table that knows it. A card left on the antenna is not sent again.

Errors, each reported once per episode rather than once per poll:

- a reader chip that stops answering: ``E 201 reader <seat>``, then it is tried again every
  second and set up afresh when it answers (it may have lost power and its settings);
- a tag that answers garbled on ``error_polls`` polls in a row: ``E 101``;
- two tags on one antenna on ``error_polls`` polls in a row: ``E 103``.
"""

from firmware.common import protocol
from firmware.common.debounce import CardPresence
from firmware.common.health import PartWatch, Streak, seat_map
from firmware.drivers.rfid import Collision, NotResponding, ReadFailed

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from typing import Any

    from firmware.common.cards import TagMap
    from firmware.common.device import Device

POLL_MS = 50
ERROR_POLLS = 3


class SeatReader:
    """One seat's antenna: its driver, what it saw lately, and whether it answers."""

    def __init__(self, seat: str, driver: "Any", device: "Device", error_polls: int) -> None:
        self.seat = seat
        self.driver = driver
        self.presence = CardPresence(device.clock)
        self.watch = PartWatch(device.clock)
        self.streak = Streak(error_polls)


class CardReaderApp:
    """The card reader's part of the device: ``start()`` once, then ``step()`` in the loop."""

    def __init__(self, device: "Device", readers: "dict[str, Any]",
                 tags: "TagMap | None" = None, poll_ms: int = POLL_MS,
                 error_polls: int = ERROR_POLLS) -> None:
        self.device = device
        self.clock = device.clock
        self.tags = tags
        self.poll_ms = poll_ms
        self.seats = [SeatReader(seat, readers[seat], device, error_polls)
                      for seat in protocol.SEATS if seat in readers]
        self._next_poll = self.clock.ticks_ms()
        device.add(self)

    def start(self) -> None:
        """Say hello, then set every reader up (reporting those that do not answer)."""
        self.device.hello()
        now = self.clock.ticks_ms()
        for reader in self.seats:
            self._init(reader, now)
        self._next_poll = now

    def _init(self, reader: SeatReader, now: int) -> None:
        try:
            reader.driver.init()
        except NotResponding:
            self._lost(reader, now)
            return
        reader.watch.answered()

    def _lost(self, reader: SeatReader, now: int) -> None:
        if reader.watch.lost(now):
            self.device.error(protocol.READER_NOT_RESPONDING, "reader " + reader.seat)

    def step(self) -> None:
        self.device.step()
        now = self.clock.ticks_ms()
        if self.clock.ticks_diff(now, self._next_poll) < 0:
            return
        self._next_poll = self.clock.ticks_add(now, self.poll_ms)
        for reader in self.seats:
            self.poll(reader, now)

    def poll(self, reader: SeatReader, now: int) -> None:
        """One poll of one seat's reader, and whatever it means for the host."""
        if reader.watch.up is False:
            if reader.watch.due(now):
                self._init(reader, now)
            if reader.watch.up is not True:
                return
        try:
            uids = reader.driver.scan()
        except NotResponding:
            self._lost(reader, now)
            return
        except Collision:
            reader.presence.touch(now)  # the cards there are still there
            if reader.streak.fail(protocol.TWO_CARDS):
                self.device.error(protocol.TWO_CARDS, "two cards at " + reader.seat)
            return
        except ReadFailed:
            reader.presence.touch(now)
            if reader.streak.fail(protocol.TAG_READ_FAILED):
                self.device.error(protocol.TAG_READ_FAILED, "tag read failed at " + reader.seat)
            return
        reader.streak.clear()
        for uid in uids:
            if reader.presence.seen(uid, now):
                self._report(uid, reader.seat)
        if not uids:
            reader.presence.forget_old(now)

    def _report(self, uid: bytes, seat: str) -> None:
        card = self.tags.lookup(uid) if self.tags is not None else None
        if card is not None:
            self.device.card(card, seat)
        else:
            self.device.tag(uid, seat)

    def health(self) -> "tuple[str, list[tuple[str, str]]]":
        answering = {}
        for reader in self.seats:
            answering[reader.seat] = reader.watch.up is True
        up = [seat for seat in answering if answering[seat]]
        if not self.seats or len(up) == len(self.seats):
            status = "OK"
        elif up:
            status = "WARN"
        else:
            status = "FAIL"
        return status, [("reads", str(self.device.reads)), ("rf", seat_map(answering))]
