"""The simulator's terminal display and the shape of a seat's screen."""

from __future__ import annotations

import io

import pytest

from hardware.display import SeatDisplay, TerminalDisplay, fit
from laws import Seat


def test_the_terminal_display_frames_the_screen_with_the_seat() -> None:
    stream = io.StringIO()
    display: SeatDisplay = TerminalDisplay(Seat.E, stream)
    display.show(["Mesa 3  Board 7", "1♥ Paso 2♠"])
    assert stream.getvalue().splitlines() == [
        "+- E ----------------+",
        "|Mesa 3  Board 7     |",
        "|1♥ Paso 2♠          |",
        "|                    |",
        "|                    |",
        "+--------------------+",
    ]
    assert len({len(line) for line in stream.getvalue().splitlines()}) == 1


def test_clear_shows_a_blank_screen() -> None:
    stream = io.StringIO()
    display = TerminalDisplay(Seat.W, stream)
    display.show(["x"])
    display.clear()
    assert display.lines == [" " * 20] * 4
    assert stream.getvalue().splitlines()[-5:-1] == ["|" + " " * 20 + "|"] * 4


def test_fit() -> None:
    assert fit(["a" * 30, "b"]) == ["a" * 19 + "→", "b" + " " * 19, " " * 20, " " * 20]
    assert fit(["a" * 20]) == ["a" * 20, *[" " * 20] * 3]  # exactly the width: whole
    with pytest.raises(ValueError):
        fit(["1", "2", "3", "4", "5"])
    with pytest.raises(TypeError):
        fit("abcd")
