"""The WBF continuous 20-point victory point scale (2013): a match's IMP margin in VPs.

Pure, no I/O. The scale is the one the WBF Scoring Panel published in its technical report
("The New WBF IMP to VP Scales", Bavin, Bethe, Bramley, Buchen; first used at the 2013 Bali
world championships): with tau = (sqrt 5 - 1) / 2 and the blitz B = 15 * sqrt(boards), a
winning margin of M IMPs is worth

    VP = 10 + 10 * (1 - tau ** (3 * M / B)) / (1 - tau ** 3)

to two decimals, at most 20; the loser gets 20 - VP, a draw is 10-10. Rounding alone can make
one more IMP worth more than the IMP before it, which the scale forbids ("each additional IMP
in the winner's margin is worth no more than the previous one"), so, as the report's
correction step does, a hundredth is added where an increment would grow, until none does.
The table for a number of boards is built once and kept. docs/scoring.md says more.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Final

from server.errors import Refused

TAU: Final = (math.sqrt(5) - 1) / 2
MOST: Final = 20.0
DRAW: Final = 10.0


class ScaleError(Refused):
    """A match the scale cannot convert: no boards, or a margin that is not a number."""


def blitz(boards: int) -> float:
    """The margin (IMPs) from which the winner has all 20 VPs: 15 times the root of the
    number of boards. Not a whole number in general."""
    if boards < 1:
        raise ScaleError(f"a match has at least 1 board, not {boards}")
    return 15 * math.sqrt(boards)


def _raw(margin: int, boards: int) -> int:
    """The winner's VPs for ``margin`` in hundredths, before the correction."""
    value: float = DRAW + DRAW * (1 - TAU ** (3 * margin / blitz(boards))) / (1 - TAU ** 3)
    return min(round(100 * value), round(100 * MOST))


@cache
def table(boards: int) -> tuple[int, ...]:
    """The winner's VPs in hundredths for margins 0, 1, 2... up to the first margin worth
    20, concave: no increment bigger than the one before it."""
    top = math.ceil(blitz(boards))
    hundredths = [_raw(margin, boards) for margin in range(top + 1)]
    changed = True
    while changed:
        changed = False
        for i in range(1, len(hundredths) - 1):
            if hundredths[i + 1] - hundredths[i] > hundredths[i] - hundredths[i - 1]:
                hundredths[i] += 1
                changed = True
    return tuple(hundredths)


def victory_points(imps: float, boards: int) -> tuple[float, float]:
    """(our VPs, their VPs) for a match won by ``imps`` (negative: lost) over ``boards``.

    A fraction of an IMP (an average of awards, Law 86A) counts as the whole IMPs below it
    for the winner, so a margin of 0.5 is a draw: the published scale is by whole IMPs."""
    if not math.isfinite(imps):
        raise ScaleError(f"an IMP margin is a number, not {imps}")
    scale = table(boards)
    margin = math.floor(abs(imps) + 1e-9)
    won = scale[min(margin, len(scale) - 1)] / 100
    lost = round(MOST - won, 2)
    return (won, lost) if imps >= 0 else (lost, won)
