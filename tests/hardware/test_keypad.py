"""The four seat keypads, scanned on MockFactory pins wired by the matrix simulator.

Scans are driven by calling ``scan_once()``; only the thread test starts the scan thread, and it
waits for events with a timeout, never with a sleep.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import DigitalOutputDevice
from gpiozero.pins.mock import MockFactory

from hardware.errors import HardwareError
from hardware.events import KeyEvent
from hardware.keypad import KeypadSource, MatrixKeypad
from hardware.layout import KeypadLayout
from hardware.sim import MatrixSimulator, SimulatedKeypads
from laws import Seat

from .helpers import TIMEOUT, FakeClock, drain


class Rig:
    """A simulator and a keypad on one factory, with a hand-moved clock."""

    def __init__(self, factory: MockFactory, layout: KeypadLayout, **options: Any) -> None:
        self.events: queue.Queue[KeyEvent] = queue.Queue()
        self.clock = FakeClock()
        options.setdefault("debounce", 3)  # the algorithm's tests count three scans
        self.sim = MatrixSimulator(factory, layout, key_diodes=options.get("key_diodes"))
        self.keypad = MatrixKeypad(self.events, layout, clock=self.clock, settle=0.0,
                                   pin_factory=factory, **options)

    def scans(self, n: int) -> list[tuple[Seat, str, bool]]:
        out = []
        for _ in range(n):
            out += [(e.seat, e.key, e.pressed) for e in self.keypad.scan_once()]
            self.clock.advance(0.005)
        return out


@pytest.fixture
def rig(factory: MockFactory, layout: KeypadLayout) -> Iterator[Rig]:
    rig = Rig(factory, layout)
    yield rig
    rig.keypad.close()


def test_nothing_pressed_nothing_reported(rig: Rig) -> None:
    assert rig.scans(20) == []


def test_a_press_and_release_give_one_event_each(rig: Rig) -> None:
    rig.sim.press(Seat.S, "NT")
    assert rig.scans(2) == []
    assert rig.scans(1) == [(Seat.S, "NT", True)]
    assert rig.scans(50) == []  # held: no more presses
    rig.sim.release(Seat.S, "NT")
    assert rig.scans(3) == [(Seat.S, "NT", False)]
    queued = drain(rig.events)
    assert [(e.seat, e.key, e.pressed) for e in queued] == [
        (Seat.S, "NT", True), (Seat.S, "NT", False)]
    assert all(isinstance(e, KeyEvent) and not e.repeat for e in queued)


def test_events_carry_the_clock_of_the_scan_that_decided(rig: Rig) -> None:
    rig.sim.press(Seat.N, "1")
    rig.scans(2)
    rig.clock.now = 500.0
    (event,) = rig.keypad.scan_once()
    assert event.t == 500.0


@pytest.mark.parametrize("pattern", ["x.x.x.x", "xx.xx.", "x..x..x", "xx"])
def test_chatter_shorter_than_the_debounce_yields_nothing(rig: Rig, pattern: str) -> None:
    for mark in pattern:
        if mark == "x":
            rig.sim.press(Seat.E, "PASS")
        else:
            rig.sim.release(Seat.E, "PASS")
        assert rig.scans(1) == []
    rig.sim.release(Seat.E)
    assert rig.scans(5) == []


def test_every_seat_on_the_same_shared_row_is_told_apart(rig: Rig) -> None:
    for seat, key in zip(Seat, ["PASS", "X", "XX", "OK"], strict=True):  # all on row 4
        rig.sim.press(seat, key)
    assert rig.scans(3) == [  # one scan decides all four, reported in seat order
        (Seat.N, "PASS", True), (Seat.E, "X", True), (Seat.S, "XX", True), (Seat.W, "OK", True)]
    rig.sim.release(Seat.E)
    assert rig.scans(3) == [(Seat.E, "X", False)]
    assert rig.keypad.pressed(Seat.W) == {"OK"}


def test_the_same_key_at_every_seat(rig: Rig) -> None:
    for seat in Seat:
        rig.sim.press(seat, "7")
    assert rig.scans(3) == [(seat, "7", True) for seat in Seat]


def test_a_two_key_chord_reports_both_keys(rig: Rig) -> None:
    rig.sim.press(Seat.N, "1", "NT")  # say, a bid and its level typed together
    assert sorted(rig.scans(3)) == [(Seat.N, "1", True), (Seat.N, "NT", True)]


def test_a_ghosting_chord_is_held_back_until_it_is_unambiguous(rig: Rig) -> None:
    rig.sim.press(Seat.W, "1", "2", "4")  # makes "5" appear as well
    assert rig.scans(10) == []
    rig.sim.release(Seat.W, "2")
    assert sorted(rig.scans(3)) == [(Seat.W, "1", True), (Seat.W, "4", True)]
    assert "5" not in rig.keypad.pressed(Seat.W)


def test_a_ghost_at_one_seat_does_not_hold_back_another(rig: Rig) -> None:
    rig.sim.press(Seat.W, "1", "2", "4")
    rig.sim.press(Seat.N, "5")
    assert rig.scans(3) == [(Seat.N, "5", True)]


def test_with_key_diodes_three_keys_are_three_presses(factory: MockFactory,
                                                      layout: KeypadLayout) -> None:
    rig = Rig(factory, layout, key_diodes=True)
    try:
        rig.sim.press(Seat.W, "1", "2", "4")
        assert sorted(rig.scans(3)) == [(Seat.W, "1", True), (Seat.W, "2", True),
                                        (Seat.W, "4", True)]
    finally:
        rig.keypad.close()


def test_auto_repeat_when_configured(factory: MockFactory, layout: KeypadLayout) -> None:
    rig = Rig(factory, layout, repeat_delay=0.5, repeat_interval=0.1)
    try:
        rig.sim.press(Seat.S, "UNDO")
        rig.scans(3)
        rig.clock.advance(0.5)
        (event,) = rig.keypad.scan_once()
        assert (event.key, event.pressed, event.repeat) == ("UNDO", True, True)
    finally:
        rig.keypad.close()


def test_rows_idle_high_and_pins_are_released_on_close(factory: MockFactory,
                                                       layout: KeypadLayout) -> None:
    rig = Rig(factory, layout)
    rig.sim.press(Seat.N, "1")
    rig.scans(3)
    assert all(factory.pin(p).state for p in layout.rows)  # no row left selected
    rig.keypad.close()
    rig.keypad.close()  # twice is fine
    DigitalOutputDevice(layout.rows[0], pin_factory=factory).close()  # the pin is free again


def test_pins_in_use_are_a_hardware_error(factory: MockFactory, layout: KeypadLayout) -> None:
    taken = DigitalOutputDevice(layout.columns[Seat.W][3], pin_factory=factory)
    try:
        with pytest.raises(HardwareError, match="keypad pins"):
            MatrixKeypad(queue.Queue(), layout, pin_factory=factory)
        # ... and the pins claimed before the failure were given back.
        DigitalOutputDevice(layout.rows[0], pin_factory=factory).close()
    finally:
        taken.close()


def test_the_scan_thread_puts_events_on_the_queue(layout: KeypadLayout) -> None:
    events: queue.Queue[KeyEvent] = queue.Queue()
    keypads: KeypadSource
    with SimulatedKeypads(events, layout, period=0.001) as keypads:
        keypads.start()
        keypads.press(Seat.E, "DIR")
        event = events.get(timeout=TIMEOUT)
        assert (event.seat, event.key, event.pressed) == (Seat.E, "DIR", True)
        with pytest.raises(RuntimeError):
            keypads.scan_once()  # only the scan thread scans while it runs
        keypads.release(Seat.E, "DIR")
        event = events.get(timeout=TIMEOUT)
        assert (event.seat, event.key, event.pressed) == (Seat.E, "DIR", False)
    assert not keypads.keypad.running
