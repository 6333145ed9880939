"""Debouncing, chords, ghosts and auto-repeat of one matrix, without pins."""

from __future__ import annotations

import pytest

from hardware.matrix import Debouncer, Transition, ghost_rows

ROWS, COLS = 5, 4


def key(row: int, col: int) -> list[int]:
    raw = [0] * ROWS
    raw[row] |= 1 << col
    return raw


def keys(*positions: tuple[int, int]) -> list[int]:
    raw = [0] * ROWS
    for row, col in positions:
        raw[row] |= 1 << col
    return raw


UP = [0] * ROWS
DOWN = key(2, 1)


def run(debouncer: Debouncer, samples: list[list[int]]) -> list[Transition]:
    return [change for sample in samples for change in debouncer.update(sample)]


@pytest.mark.parametrize(("samples", "expected"), [
    # A contact that closes for fewer than three scans is noise.
    ([DOWN, UP, UP, UP], []),
    ([DOWN, DOWN, UP, DOWN, DOWN, UP, UP], []),
    ([UP, DOWN, UP, DOWN, UP, DOWN, UP], []),
    # Three agreeing scans make a press, three more a release: exactly one of each.
    ([DOWN, DOWN, DOWN], [Transition(2, 1, True)]),
    ([DOWN, UP, DOWN, DOWN, DOWN], [Transition(2, 1, True)]),
    ([DOWN] * 3 + [UP] * 3, [Transition(2, 1, True), Transition(2, 1, False)]),
    # Bounce on release: the key stays down until the release is stable.
    ([DOWN] * 3 + [UP, DOWN, UP, UP, DOWN, UP, UP, UP],
     [Transition(2, 1, True), Transition(2, 1, False)]),
    # Held for a long time: still one press.
    ([DOWN] * 200, [Transition(2, 1, True)]),
], ids=["blip", "two-and-two", "chatter", "press", "bounce-then-press", "press-release",
        "bouncy-release", "held"])
def test_debounce(samples: list[list[int]], expected: list[Transition]) -> None:
    assert run(Debouncer(ROWS, COLS, 3), samples) == expected


@pytest.mark.parametrize("n", [1, 2, 5])
def test_debounce_count_is_configurable(n: int) -> None:
    debouncer = Debouncer(ROWS, COLS, n)
    assert run(debouncer, [DOWN] * (n - 1)) == []
    assert run(debouncer, [DOWN]) == [Transition(2, 1, True)]
    assert run(debouncer, [UP] * (n - 1)) == []
    assert run(debouncer, [UP]) == [Transition(2, 1, False)]


def test_debounce_of_zero_scans_is_refused() -> None:
    with pytest.raises(ValueError):
        Debouncer(ROWS, COLS, 0)


@pytest.mark.parametrize("chord", [
    ((0, 0), (0, 3)),  # same row
    ((0, 1), (4, 1)),  # same column
    ((1, 0), (3, 2)),  # neither
])
def test_two_key_chords_report_each_key(chord: tuple[tuple[int, int], ...]) -> None:
    debouncer = Debouncer(ROWS, COLS, 3)
    changes = run(debouncer, [keys(*chord)] * 3)
    assert {(c.row, c.column) for c in changes} == set(chord)
    assert all(c.pressed for c in changes)
    assert debouncer.pressed == frozenset(chord)


@pytest.mark.parametrize(("raw", "suspect"), [
    (keys((0, 0), (0, 1), (1, 0), (1, 1)), {0, 1}),  # a rectangle: one corner may be a ghost
    (keys((0, 0), (0, 1), (3, 1)), {0, 3}),  # not a pattern a diode-less pad gives, but unclear
    (keys((0, 0), (1, 0)), set()),
    (keys((0, 0), (0, 1)), set()),
    (keys((0, 0), (0, 1), (2, 2), (3, 3)), set()),
    (UP, set()),
])
def test_ghost_rows(raw: list[int], suspect: set[int]) -> None:
    assert ghost_rows(raw) == suspect


def test_a_ghost_rectangle_yields_nothing_until_it_resolves() -> None:
    debouncer = Debouncer(ROWS, COLS, 3)
    # Three real keys at three corners; the pad shows the fourth as well.
    rectangle = keys((0, 0), (0, 1), (1, 0), (1, 1))
    assert run(debouncer, [rectangle] * 10) == []
    # One key lifts: the two left are unambiguous and are reported.
    changes = run(debouncer, [keys((0, 0), (1, 0))] * 3)
    assert changes == [Transition(0, 0, True), Transition(1, 0, True)]


def test_a_held_chord_survives_a_third_key_that_makes_a_ghost() -> None:
    debouncer = Debouncer(ROWS, COLS, 3)
    run(debouncer, [keys((0, 0), (0, 1))] * 3)
    assert run(debouncer, [keys((0, 0), (0, 1), (1, 0), (1, 1))] * 5) == []
    assert debouncer.pressed == {(0, 0), (0, 1)}


def test_with_key_diodes_every_key_is_read() -> None:
    debouncer = Debouncer(ROWS, COLS, 3, ghost_filter=False)
    changes = run(debouncer, [keys((0, 0), (0, 1), (1, 0))] * 3)
    assert len(changes) == 3


def test_auto_repeat_is_off_by_default() -> None:
    debouncer = Debouncer(ROWS, COLS, 3)
    changes = [c for t in range(1000) for c in debouncer.update(DOWN, now=t * 0.01)]
    assert changes == [Transition(2, 1, True)]


def test_auto_repeat_after_delay_then_every_interval() -> None:
    debouncer = Debouncer(ROWS, COLS, 1, repeat_delay=0.5, repeat_interval=0.2)
    assert debouncer.update(DOWN, now=10.0) == [Transition(2, 1, True)]
    assert debouncer.update(DOWN, now=10.49) == []
    assert debouncer.update(DOWN, now=10.5) == [Transition(2, 1, True, repeat=True)]
    assert debouncer.update(DOWN, now=10.6) == []
    assert debouncer.update(DOWN, now=10.7) == [Transition(2, 1, True, repeat=True)]
    assert debouncer.update(UP, now=10.8) == [Transition(2, 1, False)]
    assert debouncer.update(UP, now=20.0) == []


def test_a_reading_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(ValueError):
        Debouncer(ROWS, COLS).update([0, 0])
