"""The four seat keypads of a table: one scanned key matrix on the Pi's GPIO header.

The five row lines are shared by all four seats and driven as outputs, one at a time low; each
seat has its own four column inputs with pull-ups. A closed key pulls its column low while its
row is driven. Twenty-one lines serve four 20-key pads (hardware/README.md has the wiring and
why each seat's row lines need a diode).

The scan runs in its own thread every ``period`` seconds; each debounced change becomes a
``KeyEvent`` on the table's queue and nothing else is touched. Tests call ``scan_once()``
themselves and never start the thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from gpiozero import DigitalOutputDevice, GPIOZeroError, InputDevice  # type: ignore[import-untyped]

from tabled.rules import Seat

from .errors import HardwareError
from .events import EventSink, KeyEvent
from .layout import KeypadLayout
from .matrix import Debouncer

log = logging.getLogger(__name__)


class KeypadSource(Protocol):
    """What the table needs of its keypads: they put ``KeyEvent``s on the queue it gave them."""

    def start(self) -> None: ...

    def close(self) -> None: ...


class MatrixKeypad:
    """Scans the shared-row key matrix of the four seats.

    Scan settings default to the layout's ``[scan]`` table and can be overridden here.
    ``pin_factory`` is gpiozero's: None for the default (lgpio on a Pi 5), a ``MockFactory``
    in tests. ``clock`` stamps the events and times auto-repeat.
    """

    def __init__(self, events: EventSink, layout: KeypadLayout | None = None, *,
                 debounce: int | None = None, period: float | None = None,
                 repeat_delay: float | None = None, repeat_interval: float | None = None,
                 key_diodes: bool | None = None, settle: float | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 pin_factory: Any = None) -> None:
        self.layout = layout = layout if layout is not None else KeypadLayout.load()
        scan = layout.scan
        self.period = scan.period if period is None else period
        self.settle = scan.settle if settle is None else settle
        self._events = events
        self._clock = clock
        diodes = scan.key_diodes if key_diodes is None else key_diodes
        self._debouncers = {
            seat: Debouncer(
                len(layout.rows), layout.width,
                scan.debounce if debounce is None else debounce,
                ghost_filter=not diodes,
                repeat_delay=scan.repeat_delay if repeat_delay is None else repeat_delay,
                repeat_interval=(scan.repeat_interval if repeat_interval is None
                                 else repeat_interval))
            for seat in Seat}
        self._rows: list[Any] = []
        self._columns: dict[Seat, list[Any]] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        try:
            # Rows are active-low: on() drives the line low and selects the row.
            for pin in layout.rows:
                self._rows.append(DigitalOutputDevice(
                    pin, active_high=False, initial_value=False, pin_factory=pin_factory))
            # InputDevice, not DigitalInputDevice or Button: the matrix is polled, and those
            # would arm an edge interrupt on every column that each scan sets off.
            for seat in Seat:
                self._columns[seat] = [InputDevice(pin, pull_up=True, pin_factory=pin_factory)
                                       for pin in layout.columns[seat]]
        except GPIOZeroError as exc:
            self._close_devices()
            raise HardwareError(f"cannot claim the keypad pins: {exc}") from exc

    def __enter__(self) -> MatrixKeypad:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def pressed(self, seat: Seat) -> frozenset[str]:
        """The keys of ``seat`` that are down after debouncing."""
        return frozenset(self.layout.key_at(r, c) for r, c in self._debouncers[seat].pressed)

    def read_raw(self) -> dict[Seat, list[int]]:
        """Drive each row in turn and read every seat's columns: one bitmask per row."""
        raw = {seat: [0] * len(self._rows) for seat in Seat}
        for r, row in enumerate(self._rows):
            row.on()
            try:
                if self.settle > 0:
                    time.sleep(self.settle)
                for seat, columns in self._columns.items():
                    bits = 0
                    for c, column in enumerate(columns):
                        if column.is_active:
                            bits |= 1 << c
                    raw[seat][r] = bits
            finally:
                row.off()
        return raw

    def scan_once(self) -> list[KeyEvent]:
        """One scan of all four pads; the events it produced are queued and returned."""
        if self.running and threading.current_thread() is not self._thread:
            raise RuntimeError("scan_once() while the scan thread is running")
        raw = self.read_raw()
        now = self._clock()
        events = []
        for seat in Seat:
            for change in self._debouncers[seat].update(raw[seat], now):
                event = KeyEvent(seat, self.layout.key_at(change.row, change.column),
                                 change.pressed, now, change.repeat)
                self._events.put(event)
                events.append(event)
        return events

    def start(self) -> None:
        """Scan every ``period`` seconds in a background thread until ``close()``."""
        if self._thread is not None:
            raise RuntimeError("the keypad scan is already started")
        self._thread = threading.Thread(target=self._run, name="keypad-scan", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        # A fixed rate: the next scan is due one period after the last was due, not one
        # period after it ended, so a press is recognised within debounce x period.
        due = time.monotonic()
        while True:
            due += self.period
            now = time.monotonic()
            if due < now:
                due = now  # fell behind (a slow bus): start again from now, do not burst
            if self._stop.wait(due - now):
                return
            try:
                self.scan_once()
            except Exception:
                log.exception("keypad scan failed; the keypads are stopped")
                return

    def close(self) -> None:
        """Stop scanning and release every pin. Safe to call twice."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._close_devices()

    def _close_devices(self) -> None:
        for device in [*self._rows, *(c for cols in self._columns.values() for c in cols)]:
            device.close()
        self._rows = []
        self._columns = {}
