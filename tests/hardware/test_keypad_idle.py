"""The scan thread idles while every pad is up: all rows low, waiting for a column's edge.

These start the real scan thread on MockFactory pins wired by the matrix simulator, with the
layout's own period and debounce (3 ms, 2 scans). They wait on the keypad's ``idling`` event
and on the event queue, always with a timeout; scans are counted by the keypad's ``scans`` and
by the row pins' state history, and times are the scanner's own stamps and the pins'.
"""

from __future__ import annotations

import queue
import statistics
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hardware.errors import ConfigError
from hardware.events import KeyEvent
from hardware.layout import DEFAULT_PATH, KeypadLayout
from hardware.sim import SimulatedKeypads
from laws import Seat

from .helpers import TIMEOUT, drain

Pads = tuple[SimulatedKeypads, "queue.Queue[KeyEvent]"]


@pytest.fixture
def pads(layout: KeypadLayout) -> Iterator[Pads]:
    events: queue.Queue[KeyEvent] = queue.Queue()
    with SimulatedKeypads(events, layout, idle_wake=True) as keypads:
        keypads.start()
        assert keypads.keypad.idling.wait(TIMEOUT), "the scanner never went idle"
        yield keypads, events
    assert not keypads.keypad.running


def said(event: KeyEvent) -> tuple[Seat, str, bool]:
    return event.seat, event.key, event.pressed


def test_idle_rows_are_all_driven_low(pads: Pads, layout: KeypadLayout) -> None:
    keypads, _ = pads
    # Low at every row, so a key closing at any seat pulls its column low.
    assert [keypads.factory.pin(p).state for p in layout.rows] == [False] * len(layout.rows)


class ScanClock:
    """The scanner's clock (it stamps each scan's events): also notes how many scans the
    keypad had made when each stamp was taken, so an event tells which scan decided it."""

    def __init__(self) -> None:
        self.keypad: Any = None
        self.scans_at: dict[float, int] = {}

    def __call__(self) -> float:
        now = time.monotonic()
        if self.keypad is not None:
            self.scans_at[now] = self.keypad.scans
        return now


def test_a_press_while_idle_is_reported_within_the_polling_bound(layout: KeypadLayout) -> None:
    events: queue.Queue[KeyEvent] = queue.Queue()
    clock = ScanClock()
    debounce, period = layout.scan.debounce, layout.scan.period
    with SimulatedKeypads(events, layout, idle_wake=True, clock=clock) as keypads:
        keypad = clock.keypad = keypads.keypad
        row = keypads.factory.pin(layout.rows[0])
        keypads.start()
        first_scan_after_wake, latencies = [], []
        for n in range(20):
            seat, key = list(Seat)[n % 4], ["5", "NT", "OK", "1"][n % 4]
            assert keypad.idling.wait(TIMEOUT)
            row.clear_states()  # nothing drives the rows while idle
            scans = keypad.scans
            keypads.press(seat, key)
            pressed_at = time.monotonic()
            event = events.get(timeout=TIMEOUT)
            assert said(event) == (seat, key, True)
            latencies.append(event.t - pressed_at)
            # Polling, the press was decided by the debounce-th scan after the contact closed;
            # from idle, by the debounce-th scan after the wake, the wake's own scan the first.
            assert clock.scans_at[event.t] - scans == debounce
            # In the row's history: back high at the wake (the first change since idle), then
            # driven low by the first scan at once, not a period later.
            woke, scanned = row.states[1:3]
            assert (woke.state, scanned.state) == (True, False)
            first_scan_after_wake.append(scanned.timestamp)
            keypads.release(seat, key)
            assert said(events.get(timeout=TIMEOUT)) == (seat, key, False)
        assert keypad.wakes >= 20
    # Medians, so that one late thread switch on a busy machine does not decide.
    assert statistics.median(first_scan_after_wake) < period, first_scan_after_wake
    # So a press from idle takes (debounce - 1) periods plus the wake-up, where polling took
    # up to debounce periods. Loose: the machine running the tests may be busy.
    assert statistics.median(latencies) < 5 * debounce * period, latencies


@pytest.mark.parametrize("idle_wake", [True, False])
def test_while_idle_no_scans_happen(layout: KeypadLayout, idle_wake: bool) -> None:
    events: queue.Queue[KeyEvent] = queue.Queue()
    with SimulatedKeypads(events, layout, idle_wake=idle_wake) as keypads:
        keypad = keypads.keypad
        keypads.start()
        if idle_wake:
            assert keypad.idling.wait(TIMEOUT)
        else:  # polling never idles: wait until it has scanned at all
            first = keypad.scans
            while keypad.scans == first:
                with pytest.raises(queue.Empty):
                    events.get(timeout=keypad.period)
        rows = [keypads.factory.pin(p) for p in layout.rows]
        for pin in rows:
            pin.clear_states()
        scans = keypad.scans
        with pytest.raises(queue.Empty):  # 100 ms with every key up: nothing to report
            events.get(timeout=0.1)
        row_changes = sum(len(pin.states) - 1 for pin in rows)
        if idle_wake:
            assert keypad.scans == scans and row_changes == 0
            assert keypad.idling.is_set()
        else:  # the same window while polling: about 33 scans of 5 row drives each
            assert keypad.scans > scans and row_changes >= 2 * len(rows)
    assert not keypad.running


def test_back_to_idle_after_the_last_key_is_released(pads: Pads) -> None:
    keypads, events = pads
    keypads.press(Seat.E, "X")
    assert said(events.get(timeout=TIMEOUT)) == (Seat.E, "X", True)
    assert not keypads.keypad.idling.is_set()  # cleared before the press was reported
    keypads.release(Seat.E, "X")
    assert said(events.get(timeout=TIMEOUT)) == (Seat.E, "X", False)
    assert keypads.keypad.idling.wait(TIMEOUT)


def test_held_released_and_pressed_again_in_quick_succession(pads: Pads) -> None:
    keypads, events = pads
    for n in range(30):
        seat = list(Seat)[n % 4]
        keypads.press(seat, "PASS")
        assert said(events.get(timeout=TIMEOUT)) == (seat, "PASS", True)
        keypads.release(seat, "PASS")
        assert said(events.get(timeout=TIMEOUT)) == (seat, "PASS", False)
        # At once, while the scanner is going idle or has just gone: never missed.
        keypads.press(seat, "XX")
        assert said(events.get(timeout=TIMEOUT)) == (seat, "XX", True)
        keypads.release(seat, "XX")
        assert said(events.get(timeout=TIMEOUT)) == (seat, "XX", False)
    assert drain(events) == []


def test_a_let_go_shorter_than_the_debounce_keeps_the_key_down(pads: Pads) -> None:
    keypads, events = pads
    keypads.press(Seat.S, "OK")
    assert said(events.get(timeout=TIMEOUT)) == (Seat.S, "OK", True)
    before = keypads.keypad.scans
    keypads.release(Seat.S, "OK")
    keypads.press(Seat.S, "OK")  # up for less than a scan: chatter, not a release
    while keypads.keypad.scans < before + 5:  # five scans later: still held
        with pytest.raises(queue.Empty):
            events.get(timeout=keypads.keypad.period)
    assert keypads.keypad.pressed(Seat.S) == {"OK"}
    assert not keypads.keypad.idling.is_set()  # a key is down: scanning, not idle
    keypads.release(Seat.S, "OK")
    assert said(events.get(timeout=TIMEOUT)) == (Seat.S, "OK", False)
    assert keypads.keypad.idling.wait(TIMEOUT)


def test_a_blip_wakes_the_scanner_but_reports_nothing(pads: Pads) -> None:
    keypads, events = pads
    wakes = keypads.keypad.wakes
    keypads.press(Seat.W, "7")
    keypads.release(Seat.W, "7")  # closed for no time at all: bounce, a spark of noise
    keypads.press(Seat.N, "1")  # a real press after it: reported, and alone
    assert said(events.get(timeout=TIMEOUT)) == (Seat.N, "1", True)
    keypads.release(Seat.N, "1")
    assert said(events.get(timeout=TIMEOUT)) == (Seat.N, "1", False)
    assert keypads.keypad.idling.wait(TIMEOUT)
    assert keypads.keypad.wakes > wakes
    assert drain(events) == []


def test_chords_and_ghosts_from_idle(pads: Pads) -> None:
    keypads, events = pads
    keypads.press(Seat.W, "1", "2", "4")  # ambiguous: the ghost "5" is read as well
    keypads.press(Seat.N, "H", "S")  # a two-key chord at another seat is read at once
    got = sorted((said(events.get(timeout=TIMEOUT)) for _ in range(2)), key=str)
    assert got == [(Seat.N, "H", True), (Seat.N, "S", True)]
    keypads.release(Seat.W, "2")
    got = sorted((said(events.get(timeout=TIMEOUT)) for _ in range(2)), key=str)
    assert got == [(Seat.W, "1", True), (Seat.W, "4", True)]
    keypads.release(Seat.W)
    keypads.release(Seat.N)
    got = sorted((said(events.get(timeout=TIMEOUT)) for _ in range(4)), key=str)
    assert sorted(key for _, key, pressed in got if not pressed) == ["1", "4", "H", "S"]
    assert keypads.keypad.idling.wait(TIMEOUT)


def test_a_held_key_repeats_and_keeps_the_scanner_awake(layout: KeypadLayout) -> None:
    events: queue.Queue[KeyEvent] = queue.Queue()
    with SimulatedKeypads(events, layout, idle_wake=True, repeat_delay=0.03,
                          repeat_interval=0.01) as keypads:
        keypads.start()
        assert keypads.keypad.idling.wait(TIMEOUT)
        keypads.press(Seat.E, "UNDO")
        first = events.get(timeout=TIMEOUT)
        assert (said(first), first.repeat) == ((Seat.E, "UNDO", True), False)
        for _ in range(3):
            again = events.get(timeout=TIMEOUT)
            assert (said(again), again.repeat) == ((Seat.E, "UNDO", True), True)
        keypads.release(Seat.E)
        while (event := events.get(timeout=TIMEOUT)).pressed:
            pass
        assert said(event) == (Seat.E, "UNDO", False)
        assert keypads.keypad.idling.wait(TIMEOUT)


def test_close_ends_an_idle_wait_and_frees_the_pins(layout: KeypadLayout) -> None:
    events: queue.Queue[KeyEvent] = queue.Queue()
    keypads = SimulatedKeypads(events, layout)  # idle_wake from keypad.toml
    assert keypads.keypad.idle_wake
    keypads.start()
    assert keypads.keypad.idling.wait(TIMEOUT)
    keypads.keypad.close()
    assert not keypads.keypad.running and not keypads.keypad.idling.is_set()
    # The rows went back high (idle) before the pins were let go.
    assert all(keypads.factory.pin(p).state for p in layout.rows)
    keypads.close()


def test_idle_wake_is_read_from_the_scan_table() -> None:
    toml = DEFAULT_PATH.read_text()
    assert "idle_wake = true" in toml
    assert KeypadLayout.loads(toml).scan.idle_wake is True
    off = KeypadLayout.loads(toml.replace("idle_wake = true", "idle_wake = false"))
    assert off.scan.idle_wake is False
    with pytest.raises(ConfigError, match="idle_wake"):
        KeypadLayout.loads(toml.replace("idle_wake = true", 'idle_wake = "yes"'))
