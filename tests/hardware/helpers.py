"""Helpers shared by the hardware tests."""

from __future__ import annotations

import queue
from typing import Any

TIMEOUT = 5.0
"""Seconds any blocking get may wait before the test fails; a pass never waits this long."""


def drain(q: queue.Queue[Any]) -> list[Any]:
    """Everything on the queue now, without waiting."""
    items = []
    while True:
        try:
            items.append(q.get_nowait())
        except queue.Empty:
            return items


def get(q: queue.Queue[Any], kind: type | tuple[type, ...] = object) -> Any:
    """The next item of ``kind`` on the queue, skipping others; fails after ``TIMEOUT``."""
    while True:
        item = q.get(timeout=TIMEOUT)
        if isinstance(item, kind):
            return item


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
