"""The four seat keypads of a table: one scanned key matrix on the Pi's GPIO header.

The five row lines are shared by all four seats and driven as outputs, one at a time low; each
seat has its own four column inputs with pull-ups. A closed key pulls its column low while its
row is driven. Twenty-one lines serve four 20-key pads (hardware/README.md has the wiring and
why each seat's row lines need a diode).

The scan runs in its own thread every ``period`` seconds while any key is down or a change
is still being debounced; each debounced change becomes a ``KeyEvent`` on the table's queue and
nothing else is touched. When a scan finds every pad up and nothing pending, the thread idles
(``idle_wake``): it drives all five rows low at once, so that any key pressed at any seat pulls
its column low, arms a falling-edge interrupt on the sixteen columns and sleeps until one fires
or ``close()``; then it returns the rows to idle and scans at the fixed rate again. Tests call
``scan_once()`` themselves, or start the thread and wait on ``idling`` and the queue.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from gpiozero import (  # type: ignore[import-untyped]
    DigitalOutputDevice,
    GPIOZeroError,
    InputDevice,
    PinEdgeDetectUnsupported,
)

from laws import Seat

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

    ``scans`` counts the scans made and ``wakes`` the times an edge ended an idle wait;
    ``idling`` is set while the scan thread waits for an edge.
    """

    def __init__(self, events: EventSink, layout: KeypadLayout | None = None, *,
                 debounce: int | None = None, period: float | None = None,
                 repeat_delay: float | None = None, repeat_interval: float | None = None,
                 key_diodes: bool | None = None, settle: float | None = None,
                 idle_wake: bool | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 pin_factory: Any = None) -> None:
        self.layout = layout = layout if layout is not None else KeypadLayout.load()
        scan = layout.scan
        self.period = scan.period if period is None else period
        self.settle = scan.settle if settle is None else settle
        self.idle_wake = scan.idle_wake if idle_wake is None else idle_wake
        self.scans = 0
        self.wakes = 0
        self.idling = threading.Event()
        self._quiet = False  # the last scan read every key up and left nothing pending
        self._wake = threading.Event()
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
            # InputDevice, not DigitalInputDevice or Button: those keep an edge interrupt
            # armed on every column, which each scan would set off. The interrupt is armed
            # only while idle (_idle).
            for seat in Seat:
                self._columns[seat] = [InputDevice(pin, pull_up=True, pin_factory=pin_factory)
                                       for pin in layout.columns[seat]]
        except GPIOZeroError as exc:
            self._close_devices()
            raise HardwareError(f"cannot claim the keypad pins: {exc}") from exc
        # The devices' pins, looked up once: a scan touches 10 rows and 80 columns, and each
        # device's ``pin`` is a property call (gpiozero); they stay until close().
        self._row_pins: list[Any] = [row.pin for row in self._rows]
        self._column_pins: list[tuple[Seat, list[Any]]] = [
            (seat, [c.pin for c in cols]) for seat, cols in self._columns.items()]
        if self.idle_wake:
            try:
                for column in self._all_columns():
                    column.pin.edges = "falling"  # a key closing, while every row is low
            except PinEdgeDetectUnsupported:
                log.warning("the keypad's column pins have no edge interrupts: polling")
                self.idle_wake = False

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
        self.scans += 1
        raw = {seat: [0] * len(self._row_pins) for seat in Seat}
        # At pin level (the devices claimed the pins and set the pull-ups): a scan is 10 row
        # writes and 80 column reads, and the device layer's checks on each cost more than
        # the read itself. Rows are active-low outputs; a closed key reads low.
        columns = [(raw[seat], pins) for seat, pins in self._column_pins]
        for r, pin in enumerate(self._row_pins):
            pin.state = False  # select the row
            try:
                if self.settle > 0:
                    time.sleep(self.settle)
                for rows, pins in columns:
                    bits = 0
                    for c, column in enumerate(pins):
                        if not column.state:
                            bits |= 1 << c
                    rows[r] = bits
            finally:
                pin.state = True
        return raw

    def scan_once(self) -> list[KeyEvent]:
        """One scan of all four pads; the events it produced are queued and returned."""
        if self.running and threading.current_thread() is not self._thread:
            raise RuntimeError("scan_once() while the scan thread is running")
        raw = self.read_raw()
        now = self._clock()
        events = []
        quiet = True
        for seat in Seat:
            debouncer = self._debouncers[seat]
            for change in debouncer.update(raw[seat], now):
                event = KeyEvent(seat, self.layout.key_at(change.row, change.column),
                                 change.pressed, now, change.repeat)
                self._events.put(event)
                events.append(event)
            # Every key read up and none debounced as down: then no count is running either
            # (a key's count only runs while its reading differs from its debounced state).
            quiet = quiet and not any(raw[seat]) and not debouncer.pressed
        self._quiet = quiet
        return events

    def start(self) -> None:
        """Scan every ``period`` seconds in a background thread until ``close()``."""
        if self._thread is not None:
            raise RuntimeError("the keypad scan is already started")
        self._thread = threading.Thread(target=self._run, name="keypad-scan", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        # A fixed rate: the next scan is due one period after the last was due, not one
        # period after it ended, so a press is recognised within debounce x period. After
        # an idle wait the first scan is at once: the wake-up edge is the key closing, so
        # the press is recognised within (debounce - 1) x period of it.
        due = time.monotonic()
        while not self._stop.is_set():
            try:
                self.scan_once()
                if self.idle_wake and self._quiet:
                    self._idle()
                    due = time.monotonic()
                    continue
            except Exception:
                log.exception("keypad scan failed; the keypads are stopped")
                return
            due += self.period
            now = time.monotonic()
            if due < now:
                due = now  # fell behind (a slow bus): start again from now, do not burst
            if self._stop.wait(due - now):
                return

    def _idle(self) -> None:
        """Every row low, and wait for any column to fall (a key closing) or ``close()``."""
        self._wake.clear()
        for row in self._rows:
            row.on()
        try:
            if self.settle > 0:
                time.sleep(self.settle)
            columns = self._all_columns()
            for column in columns:
                column.pin.when_changed = self._on_edge
            try:
                # Armed first, read second: a key that closed before the interrupt was
                # armed is seen here, one that closes after it fires the interrupt.
                if not self._stop.is_set() and not any(c.is_active for c in columns):
                    self.idling.set()
                    self._wake.wait()
                    self.idling.clear()
                    if not self._stop.is_set():
                        self.wakes += 1
            finally:
                for column in columns:
                    column.pin.when_changed = None
        finally:
            for row in self._rows:
                row.off()

    def _on_edge(self, ticks: float, state: int) -> None:
        # On gpiozero's interrupt thread (on MockFactory: whoever changed the pin). It only
        # wakes the scan thread, which does the reading.
        self._wake.set()

    def _all_columns(self) -> list[Any]:
        return [c for columns in self._columns.values() for c in columns]

    def close(self) -> None:
        """Stop scanning and release every pin. Safe to call twice."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self.idling.clear()
        self._close_devices()

    def _close_devices(self) -> None:
        for device in [*self._rows, *(c for cols in self._columns.values() for c in cols)]:
            device.close()
        self._rows = []
        self._columns = {}
        self._row_pins = []
        self._column_pins = []
