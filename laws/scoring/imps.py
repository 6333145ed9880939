"""International Match Points (Law 78B)."""

from __future__ import annotations

from bisect import bisect_right
from typing import Final

# Law 78B: the least difference in points that earns 1, 2, ... 24 IMPs. The law's bands are
# 0-10, 20-40, 50-80...; a difference between two bands (only averaged scores make one)
# earns the lower band.
IMP_SCALE: Final[tuple[int, ...]] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)


def imps(difference: int) -> int:
    """The IMPs for a difference in points, with its sign."""
    won = bisect_right(IMP_SCALE, abs(difference))
    return won if difference >= 0 else -won
