"""Assemble a table from its configuration: journal, daemon, drivers, uplink; run until told
to stop. ``pin_factory`` and ``i2c_bus`` are injectable so the same assembly runs in tests on
gpiozero's MockFactory and a fake bus."""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Callable
from typing import Any

from hardware.cardreader import CardReader, CardReaderSource
from hardware.display import SeatDisplay, TerminalDisplay
from hardware.events import EventSink
from hardware.feedback import BuzzerLeds, Feedback
from hardware.keypad import MatrixKeypad
from hardware.layout import KeypadLayout
from hardware.lcd import CharacterLcd
from hardware.tags import TagTable
from laws import Seat

from .config import READER_KINDS, TableConfig
from .daemon import TableDaemon
from .following import SessionJournals
from .journal import Journal
from .uplink import Uplink

log = logging.getLogger("bidbox.table")


def _serial_reader(config: TableConfig, inbox: EventSink) -> CardReaderSource:
    assert config.reader_url is not None
    tags = TagTable.load(config.reader_tags) if config.reader_tags else None
    return CardReader(config.reader_url, inbox, tags=tags)


#: How each kind of card reader (tabled.config.READER_KINDS) is built: the table sees only
#: hardware.cardreader.CardReaderSource.
READERS: dict[str, Callable[[TableConfig, EventSink], CardReaderSource]] = {
    "serial": _serial_reader,
}
if set(READERS) != set(READER_KINDS):
    raise AssertionError("a card reader kind without its builder, or the reverse")


class Table:
    """A configured table: start() brings every part up, stop() takes it down in order."""

    def __init__(self, config: TableConfig, *, pin_factory: Any = None,
                 i2c_bus: Any = None) -> None:
        self.config = config
        self._inputs: list[Callable[[], None]] = []   # closed before the table thread stops
        self._outputs: list[Callable[[], None]] = []  # closed after it
        layout = (KeypadLayout.load(config.keypad_layout) if config.keypad_layout
                  else KeypadLayout.load())
        self.journals: SessionJournals | None = None
        event = config.event
        journal: Journal | None
        if event is None:  # it follows the server's session: where it was last, if anywhere
            self.journals = SessionJournals(config.journal, config.number)
            event = self.journals.last()
            journal = None if event is None else self.journals.open(event)
        else:
            journal = Journal(config.journal, identity={"event": event,
                                                        "table": str(config.number)})
        displays: dict[Seat, SeatDisplay] = {}
        if config.display == "terminal":
            displays = {seat: TerminalDisplay(seat) for seat in Seat}
        elif config.display == "lcd":
            bus = config.i2c_bus if i2c_bus is None else i2c_bus
            for seat in Seat:
                lcd = CharacterLcd(bus, config.lcd_addresses.get(seat, 0x27))
                displays[seat] = lcd
                self._outputs.append(lcd.close)
        feedback: Feedback | None = None
        if any(p is not None for p in (config.buzzer, config.ok_led, config.error_led)):
            leds = BuzzerLeds(config.buzzer, config.ok_led, config.error_led,
                              pin_factory=pin_factory)
            feedback = leds
            self._outputs.append(leds.close)
        self.daemon = TableDaemon(journal, displays=displays, feedback=feedback,
                                  language=config.language, digit=layout.digit,
                                  journals=self.journals, event=event)
        self.keypad = MatrixKeypad(self.daemon.inbox, layout, pin_factory=pin_factory)
        self._inputs.append(self.keypad.close)
        self.reader: CardReaderSource | None = None
        if config.reader_url:
            self.reader = READERS[config.reader_kind](config, self.daemon.inbox)
            self._inputs.append(self.reader.close)
        self.uplink: Uplink | None = None
        if config.broker is not None:
            self.uplink = Uplink(event, config.number, config.broker, self.daemon.inbox,
                                 follow=config.follows)
            self.daemon.publisher = self.uplink

    def start(self) -> None:
        if self.uplink is not None:
            self.uplink.start()
        self.daemon.start()
        self.keypad.start()
        if self.reader is not None:
            self.reader.start()

    def stop(self) -> None:
        """Inputs first, then the table thread, then the uplink (explicit offline)."""
        for close in self._inputs:
            with contextlib.suppress(Exception):
                close()
        self.daemon.stop()
        for close in self._outputs:
            with contextlib.suppress(Exception):
                close()
        if self.uplink is not None:
            self.uplink.stop()
        if self.daemon.journal is not None:  # the session's it plays now
            self.daemon.journal.close()

    @property
    def journal(self) -> Journal | None:
        """The journal of the session the table plays (None: a following table that has
        not heard of one yet)."""
        return self.daemon.journal

    def run_until_signal(self) -> None:
        stopping = threading.Event()
        # systemctl stop (SIGTERM), Ctrl-C, and a closed terminal (SIGHUP) all stop the table
        # in order: inputs, the table thread, then the uplink says offline.
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, lambda *_: stopping.set())
        self.start()
        log.info("table %s of %s running (journal %s)", self.config.number,
                 self.daemon.event or "the server's session (none yet)",
                 self.journal.path if self.journal is not None else self.config.journal)
        stopping.wait()
        self.stop()
