"""Law 78B, the IMP scale: both edges of every band, and the sign."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laws.scoring import imps

# Law 78B, as printed: (lowest difference, highest difference, IMPs).
BANDS = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
    (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23), (4000, 7600, 24),
]


@pytest.mark.parametrize(("difference", "expected"), [
    (difference, won) for low, high, won in BANDS for difference in (low, high)
])
def test_imp_scale(difference: int, expected: int) -> None:
    assert imps(difference) == expected
    assert imps(-difference) == -expected


@pytest.mark.parametrize(("ours", "theirs", "expected"), [
    (620, 170, 10),        # game bid at one table, part score at the other
    (-100, 420, -11),
    (1430, 680, 13),       # the vulnerable slam
    (400, 430, -1),
])
def test_imps_between_two_tables(ours: int, theirs: int, expected: int) -> None:
    assert imps(ours - theirs) == expected


@given(st.integers(-10000, 10000), st.integers(0, 10000))
def test_more_points_never_earn_fewer_imps(difference: int, more: int) -> None:
    assert imps(difference + more) >= imps(difference)
    assert -24 <= imps(difference) <= 24
    assert imps(-difference) == -imps(difference)
