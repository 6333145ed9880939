"""The WBF continuous 20-point VP scale (server/scoring/victorypoints.py) against the published
formula, written out here on its own, and the scale's published properties."""

from __future__ import annotations

import itertools
import math

import pytest

from server.scoring.victorypoints import ScaleError, blitz, table, victory_points

TAU = (math.sqrt(5) - 1) / 2


def formula(margin: int, boards: int) -> float:
    """The report's formula, before the correction for rounding: 10 + 10 (1 - tau^(3M/B)) /
    (1 - tau^3), capped at 20."""
    b = 15 * math.sqrt(boards)
    return min(20.0, 10 + 10 * (1 - TAU ** (3 * margin / b)) / (1 - TAU ** 3))


@pytest.mark.parametrize("boards", [2, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 48, 64])
def test_the_table_is_the_formula_to_the_hundredth_and_concave(boards: int) -> None:
    hundredths = table(boards)
    assert hundredths[0] == 1000 and hundredths[-1] == 2000
    assert len(hundredths) == math.ceil(15 * math.sqrt(boards)) + 1  # up to the blitz
    for margin, value in enumerate(hundredths):
        # The correction adds at most a few hundredths to the rounded formula.
        assert 0 <= value - round(100 * formula(margin, boards)) <= 3, (margin, value)
    steps = [b - a for a, b in itertools.pairwise(hundredths)]
    assert all(later <= earlier for earlier, later in itertools.pairwise(steps))
    assert all(step >= 0 for step in steps)


@pytest.mark.parametrize(("imps", "boards", "expected"), [
    (0, 16, (10.0, 10.0)),
    (1, 16, (10.31, 9.69)),     # 10 + 10 (1 - tau^(3/60)) / (1 - tau^3) = 10.307
    (7, 16, (12.03, 7.97)),
    (-7, 16, (7.97, 12.03)),
    (60, 16, (20.0, 0.0)),      # the blitz, 15 x 4
    (250, 16, (20.0, 0.0)),     # no reduction for the loser past the blitz
    (0.5, 16, (10.0, 10.0)),    # by whole IMPs
    (-12.5, 8, victory_points(-12, 8)),
])
def test_known_margins(imps: float, boards: int, expected: tuple[float, float]) -> None:
    assert victory_points(imps, boards) == expected


def test_each_side_adds_up_to_twenty() -> None:
    for margin in range(0, 80):
        won, lost = victory_points(margin, 12)
        assert math.isclose(won + lost, 20.0) and won >= lost


def test_nonsense_is_refused() -> None:
    with pytest.raises(ScaleError, match="at least 1 board"):
        blitz(0)
    with pytest.raises(ScaleError, match="not nan"):
        victory_points(float("nan"), 8)
