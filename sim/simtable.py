"""A whole table on simulated hardware: the real daemon, keypads on gpiozero's MockFactory,
the card reader on pyserial's ``loop://``.

``press`` works the matrix as a finger would (the key goes down, the scanner debounces it,
the key comes up) and ``scan`` writes a reader line into the serial loop, so every input
takes the same path as on a Pi. Both wait until the table thread has taken the input, so a
simulated player never runs ahead of the table.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hardware.cardreader import CardReader
from hardware.display import SeatDisplay
from hardware.events import ReaderStatus
from hardware.feedback import Feedback
from hardware.protocol import CardRead, encode
from hardware.sim import SimulatedKeypads
from laws import Card, Seat
from mqttlink import BrokerSettings, NetworkLoop
from tabled.daemon import TableDaemon
from tabled.following import SessionJournals
from tabled.journal import Journal
from tabled.uplink import Uplink

MAX_SCANS = 50  # scans before a simulated press must have been seen


class SimulationError(RuntimeError):
    """The simulated table did not do what the simulated player expected in time."""


class SimulatedTable:
    """One table: daemon, journal, simulated pads and reader, and optionally the uplink."""

    def __init__(self, journal: str | Path | None, *, event: str = "sim", number: int = 1,
                 broker: BrokerSettings | None = None,
                 displays: Mapping[Seat, SeatDisplay] | None = None,
                 feedback: Feedback | None = None, language: str = "en",
                 timeout: float = 10.0, network: NetworkLoop | None = None,
                 journals: str | Path | None = None) -> None:
        """``journal``: the file of one event's journal; or, with ``journals`` (a folder)
        and a ``broker``, the table follows the server's session as a provisioned table
        does (tabled.following), one journal per session there."""
        self.number = number
        self.timeout = timeout
        following: SessionJournals | None = None
        opened: Journal | None
        current: str | None = event
        if journals is not None:
            if broker is None:
                raise ValueError("a table that follows the server's session needs a broker")
            following = SessionJournals(journals, number)
            current = following.last()
            opened = None if current is None else following.open(current)
        elif journal is None:
            raise ValueError("give the journal's file, or a folder of journals to follow")
        else:
            opened = Journal(journal, identity={"event": event, "table": str(number)})
        self.daemon = TableDaemon(opened, displays=displays, feedback=feedback,
                                  language=language, journals=following, event=current)
        self.uplink: Uplink | None = None
        if broker is not None:
            self.uplink = Uplink(current, number, broker, self.daemon.inbox, network=network,
                                 follow=following is not None)
            self.daemon.publisher = self.uplink
        self.keypads = SimulatedKeypads(self.daemon.inbox)
        self._reader_up = threading.Event()
        self._relay: queue.Queue[Any] = _Relay(self.daemon.inbox, self._reader_up)
        self.reader = CardReader("loop://", self._relay, ask_version=False)
        self._lock = threading.Lock()
        self._stopped = False

    def start(self) -> SimulatedTable:
        if self.uplink is not None:
            self.uplink.start()
        self.daemon.start()
        self.reader.start()
        if not self._reader_up.wait(self.timeout):
            raise SimulationError("the simulated card reader did not open loop://")
        return self

    def stop(self) -> None:
        """Stop every part; a second call does nothing (a signal's stop, then the ``with``)."""
        if self._stopped:
            return
        self._stopped = True
        self.reader.close()
        self.daemon.stop()
        if self.uplink is not None:
            self.uplink.stop()
        self.keypads.close()
        if self.daemon.journal is not None:
            self.daemon.journal.close()

    def __enter__(self) -> SimulatedTable:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def state(self) -> Any:
        return self.daemon.state

    @property
    def journal(self) -> Journal:
        """The journal of the session the table plays."""
        journal = self.daemon.journal
        if journal is None:
            raise SimulationError(f"table {self.number} has no session yet")
        return journal

    # -- inputs --------------------------------------------------------------------------------

    def _wait_inputs(self, target: int, what: str) -> None:
        if not self.daemon.wait_for(lambda _: self.daemon.inputs >= target, self.timeout):
            raise SimulationError(f"table {self.number}: {what} not taken in {self.timeout} s")

    def press(self, seat: Seat, *keys: str) -> None:
        """Press and release each key in turn, as a finger on the pad."""
        with self._lock:
            for key in keys:
                target = self.daemon.inputs + 2
                self.keypads.press(seat, key)
                self._scan_until(lambda events: any(e.pressed for e in events), key)
                self.keypads.release(seat, key)
                self._scan_until(lambda events: any(not e.pressed for e in events), key)
                self._wait_inputs(target, f"{seat} {key}")

    def _scan_until(self, seen: Any, key: str) -> None:
        for _ in range(MAX_SCANS):
            if seen(self.keypads.scan_once()):
                return
        raise SimulationError(f"table {self.number}: key {key} not seen by the scanner")

    def scan(self, card: Card, seat: Seat | None = None) -> None:
        """Put ``card`` on the reader (at ``seat``'s slot, if the reader has one per seat)."""
        with self._lock:
            target = self.daemon.inputs + 1
            self.reader.write(encode(CardRead(card, seat)))
            self._wait_inputs(target, f"card {card}")


class _Relay(queue.Queue[Any]):
    """The reader's event sink: passes everything to the table's inbox and notes the moment
    the reader has opened its port (its first ``ReaderStatus``)."""

    def __init__(self, inbox: queue.Queue[Any], up: threading.Event) -> None:
        super().__init__()
        self._inbox = inbox
        self._up = up

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        if isinstance(item, ReaderStatus) and item.connected:
            self._up.set()
        self._inbox.put(item)
