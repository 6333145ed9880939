"""The matrix simulator: pressed keys join rows to columns as the circuit does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import DigitalOutputDevice, InputDevice
from gpiozero.pins.mock import MockFactory

from hardware.errors import ConfigError
from hardware.layout import KeypadLayout
from hardware.sim import MatrixSimulator
from laws import Seat

Circuit = tuple[MatrixSimulator, list[Any], dict[Seat, list[Any]]]


@pytest.fixture
def circuit(factory: MockFactory, layout: KeypadLayout) -> Iterator[Circuit]:
    """The simulator, then the rows and columns claimed as the scanner claims them."""
    sim = MatrixSimulator(factory, layout)
    rows = [DigitalOutputDevice(p, active_high=False, initial_value=False, pin_factory=factory)
            for p in layout.rows]
    cols = {seat: [InputDevice(p, pull_up=True, pin_factory=factory)
                   for p in layout.columns[seat]] for seat in Seat}
    yield sim, rows, cols
    for device in [*rows, *(c for seat in Seat for c in cols[seat])]:
        device.close()


def levels(cols: dict[Seat, list[Any]], seat: Seat) -> list[int]:
    """Column levels of a seat: 1 high (open), 0 low (joined to a driven row)."""
    return [int(c.pin.state) for c in cols[seat]]


def test_a_pressed_key_pulls_its_column_low_only_while_its_row_is_driven(circuit: Circuit) -> None:
    sim, rows, cols = circuit
    sim.press(Seat.N, "6")  # row 1, column 2
    assert levels(cols, Seat.N) == [1, 1, 1, 1]
    rows[0].on()
    assert levels(cols, Seat.N) == [1, 1, 1, 1]
    rows[0].off()
    rows[1].on()
    assert levels(cols, Seat.N) == [1, 1, 0, 1]
    rows[1].off()
    assert levels(cols, Seat.N) == [1, 1, 1, 1]


def test_seats_share_rows_but_not_columns(circuit: Circuit) -> None:
    sim, rows, cols = circuit
    sim.press(Seat.E, "OK")  # row 4, column 3
    sim.press(Seat.W, "PASS")  # row 4, column 0
    rows[4].on()
    assert levels(cols, Seat.N) == [1, 1, 1, 1]
    assert levels(cols, Seat.E) == [1, 1, 1, 0]
    assert levels(cols, Seat.S) == [1, 1, 1, 1]
    assert levels(cols, Seat.W) == [0, 1, 1, 1]
    sim.release(Seat.E)
    assert levels(cols, Seat.E) == [1, 1, 1, 1]
    assert sim.pressed(Seat.W) == {"PASS"}


def test_the_column_pin_records_the_pulse(circuit: Circuit) -> None:
    sim, rows, cols = circuit
    pin = cols[Seat.S][0].pin
    pin.clear_states()
    sim.press(Seat.S, "1")
    rows[0].on()
    rows[0].off()
    pin.assert_states([True, False, True])


def test_without_key_diodes_three_keys_make_a_ghost(circuit: Circuit) -> None:
    sim, rows, cols = circuit
    sim.press(Seat.N, "1", "2", "4")  # (0,0) (0,1) (1,0): the ghost is (1,1), key 5
    rows[1].on()
    assert levels(cols, Seat.N) == [0, 0, 1, 1]
    assert levels(cols, Seat.E) == [1, 1, 1, 1]  # the seat's row diodes stop it spreading


def test_with_key_diodes_there_is_no_ghost(factory: MockFactory, layout: KeypadLayout) -> None:
    sim = MatrixSimulator(factory, layout, key_diodes=True)
    rows = [DigitalOutputDevice(p, active_high=False, pin_factory=factory) for p in layout.rows]
    cols = [InputDevice(p, pull_up=True, pin_factory=factory) for p in layout.columns[Seat.N]]
    try:
        sim.press(Seat.N, "1", "2", "4")
        rows[1].on()
        assert [int(c.pin.state) for c in cols] == [0, 1, 1, 1]
    finally:
        for device in [*rows, *cols]:
            device.close()


def test_the_simulator_must_come_before_the_keypad(factory: MockFactory,
                                                   layout: KeypadLayout) -> None:
    row = DigitalOutputDevice(layout.rows[0], pin_factory=factory)
    try:
        with pytest.raises(ConfigError, match="before"):
            MatrixSimulator(factory, layout)
    finally:
        row.close()


def test_unknown_keys_are_refused(factory: MockFactory, layout: KeypadLayout) -> None:
    sim = MatrixSimulator(factory, layout)
    with pytest.raises(ConfigError):
        sim.press(Seat.N, "9")
