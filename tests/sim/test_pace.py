"""The simulated people's pace: each pause drawn around its mean with a seeded generator, so
a room of simulated tables does not act in lock-step, and the same seed gives the same pace."""

from __future__ import annotations

import random
from pathlib import Path

from sim.recorded import PAUSES, SPREAD, RecordedPlayers
from sim.simtable import SimulatedTable


def pauses(table: SimulatedTable, rng: random.Random | None, count: int = 400) -> list[float]:
    slept: list[float] = []
    players = RecordedPlayers(table, speed=3.0, sleep=slept.append, rng=rng)
    for _ in range(count):
        players.pause("scan")
    return slept


def test_pauses_spread_around_their_mean_and_repeat_with_the_seed(tmp_path: Path) -> None:
    with SimulatedTable(tmp_path / "t.db") as table:
        mean = PAUSES["scan"] * 3.0
        assert set(pauses(table, None)) == {mean}  # no generator: a clock
        drawn = pauses(table, random.Random("7:pace"))
        assert all(mean * (1 - SPREAD) <= x <= mean * (1 + SPREAD) for x in drawn)
        assert len(set(drawn)) == len(drawn)  # no two tables (or cards) in step
        assert abs(sum(drawn) / len(drawn) - mean) < 0.05 * mean  # the pace kept
        assert drawn == pauses(table, random.Random("7:pace"))
        assert drawn != pauses(table, random.Random("8:pace"))
