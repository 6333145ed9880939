"""Simulated time for the tests: the test moves ``now``; nothing sleeps."""

from __future__ import annotations


class Clock:
    """A clock that moves by hand (``now``), or by ``step`` on every reading, so that a
    test's times and the code's are the same each run."""

    def __init__(self, now: float = 1000.0, step: float = 0.0) -> None:
        self.now = now
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now
