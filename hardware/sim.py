"""Simulated seat keypads on gpiozero's MockFactory, for tests and the table's simulator mode.

``MatrixSimulator`` wires pressed keys between the mock row and column pins the way the real
circuit does: whenever a row pin is driven low, every column joined to it through pressed keys
reads low; otherwise the column goes back to its pull-up. Row pins are a ``MockPin`` subclass
that tells the simulator when their level changes, so the column pins change at the moment the
scanner drives a row (their ``states`` history and edge callbacks work as for any MockPin).

Each seat's row lines sit behind a diode (hardware/README.md), so seats never affect each other.
Within a seat whose pad has no diode per key (``key_diodes = false``), current also finds its
way through three pressed keys to the fourth corner of a rectangle, and the simulator produces
that ghost key as the real pad would.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]

from laws import Seat

from .errors import ConfigError
from .events import EventSink
from .keypad import MatrixKeypad
from .layout import KeypadLayout


class MatrixRowPin(MockPin):  # type: ignore[misc]
    """A mock row pin that reports every change of level or function to its simulator."""

    def __init__(self, factory: Any, info: Any, simulator: MatrixSimulator | None = None,
                 index: int = 0) -> None:
        self.simulator = simulator  # before super().__init__, which may change the state
        self.index = index
        super().__init__(factory, info)

    def _change_state(self, value: Any) -> bool:
        changed: bool = super()._change_state(value)
        if changed and self.simulator is not None:
            self.simulator.refresh()
        return changed

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        if self.simulator is not None:
            self.simulator.refresh()

    @property
    def driven_low(self) -> bool:
        return bool(self._function == "output" and not self._state)


class MatrixSimulator:
    """Press and release keys of the four simulated pads.

    Create it on the factory *before* the ``MatrixKeypad`` claims the pins, so that the row
    pins are ``MatrixRowPin``s.
    """

    def __init__(self, factory: Any, layout: KeypadLayout | None = None,
                 *, key_diodes: bool | None = None) -> None:
        self.layout = layout = layout if layout is not None else KeypadLayout.load()
        self.key_diodes = layout.scan.key_diodes if key_diodes is None else key_diodes
        self._lock = threading.RLock()
        self._pressed: dict[Seat, set[tuple[int, int]]] = {seat: set() for seat in Seat}
        self._active: set[Seat] = set()  # seats with a key closed or a column held low
        self._rows: list[MatrixRowPin] = []
        for r, number in enumerate(layout.rows):
            pin = factory.pin(number, pin_class=MatrixRowPin, simulator=self, index=r)
            if not isinstance(pin, MatrixRowPin):
                raise ConfigError(f"GPIO{number} was made before the simulator; create the "
                                  "MatrixSimulator before the MatrixKeypad")
            self._rows.append(pin)
        self._columns = {seat: [factory.pin(n) for n in layout.columns[seat]] for seat in Seat}
        self._held_low: dict[Seat, set[int]] = {seat: set() for seat in Seat}

    def press(self, seat: Seat, *keys: str) -> None:
        """Hold ``keys`` of ``seat`` down until released."""
        with self._lock:
            self._pressed[seat].update(self._positions(keys))
            self._active.add(seat)
            self.refresh()

    def release(self, seat: Seat, *keys: str) -> None:
        """Let ``keys`` of ``seat`` go (all of its keys if none are named)."""
        with self._lock:
            if keys:
                self._pressed[seat].difference_update(self._positions(keys))
            else:
                self._pressed[seat].clear()
            self._active.add(seat)  # its held columns go back to their pull
            self.refresh()

    def pressed(self, seat: Seat) -> frozenset[str]:
        with self._lock:
            return frozenset(self.layout.key_at(r, c) for r, c in self._pressed[seat])

    def _positions(self, keys: Iterable[str]) -> list[tuple[int, int]]:
        try:
            return [self.layout.position(key) for key in keys]
        except KeyError as exc:
            raise ConfigError(f"no key {exc.args[0]!r} in the layout") from None

    def refresh(self) -> None:
        """Bring every column pin to the level the circuit gives it now.

        Only the columns whose level changes are driven: a column nobody holds low is at its
        pull already (MockPin puts it there when its pull or function is set). Each scan
        makes twenty row changes, each a refresh; driving every column of a pressed pad at
        each was most of a simulated scan's cost."""
        with self._lock:
            if not self._active:
                return  # no key closed and no column held low anywhere: nothing to change
            low_rows: set[int] | None = None
            for seat in list(self._active):
                columns = self._columns[seat]
                pressed = self._pressed[seat]
                held = self._held_low[seat]
                if not pressed and not held:
                    self._active.discard(seat)
                    continue
                low: set[int] = set()
                if pressed:
                    if low_rows is None:
                        low_rows = {pin.index for pin in self._rows if pin.driven_low}
                    low = self._low_columns(pressed, low_rows)
                if low == held:
                    continue
                self._held_low[seat] = low
                for c in sorted(low ^ held):
                    pin = columns[c]
                    if pin.function != "input":
                        continue
                    if c in low or pin.pull == "down":
                        pin.drive_low()
                    elif pin.pull == "up":
                        pin.drive_high()

    def _low_columns(self, keys: set[tuple[int, int]], low_rows: set[int]) -> set[int]:
        if self.key_diodes:
            return {c for r, c in keys if r in low_rows}
        # Without key diodes current flows both ways through a closed key: every column
        # reachable from a low row over closed keys is low (ghost keys included).
        rows, columns = set(low_rows), set()
        frontier = True
        while frontier:
            frontier = False
            for r, c in keys:
                if (r in rows) != (c in columns):
                    rows.add(r)
                    columns.add(c)
                    frontier = True
        return columns


class SimulatedKeypads:
    """Four simulated pads and their scanner on a private MockFactory: the simulator mode's
    ``KeypadSource``. ``press``/``release`` come from the simulator's user interface."""

    def __init__(self, events: EventSink, layout: KeypadLayout | None = None, *,
                 factory: Any = None, **keypad_options: Any) -> None:
        layout = layout if layout is not None else KeypadLayout.load()
        self._own_factory = factory is None
        self.factory = MockFactory() if factory is None else factory
        self.matrix = MatrixSimulator(self.factory, layout,
                                      key_diodes=keypad_options.get("key_diodes"))
        keypad_options.setdefault("settle", 0.0)
        self.keypad = MatrixKeypad(events, layout, pin_factory=self.factory, **keypad_options)

    def __enter__(self) -> SimulatedKeypads:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def press(self, seat: Seat, *keys: str) -> None:
        self.matrix.press(seat, *keys)

    def release(self, seat: Seat, *keys: str) -> None:
        self.matrix.release(seat, *keys)

    def scan_once(self) -> list[Any]:
        return self.keypad.scan_once()

    def start(self) -> None:
        self.keypad.start()

    def close(self) -> None:
        self.keypad.close()
        if self._own_factory:
            self.factory.close()
