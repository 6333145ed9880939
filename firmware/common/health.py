"""Health: which parts answer, what to report when one stops, and the counters of ``H`` lines.

``PartWatch`` follows one part that can stop answering (a reader chip, an LCD): it says when
to report it lost (once per loss, not once per poll) and when to try it again. ``Streak``
turns a run of failed polls into one error report. ``Uptime`` counts seconds across the
wrap-around of the millisecond ticks.
"""

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from firmware.interfaces import Clock

RETRY_MS = 1000
"""How often a part that stopped answering is tried again."""


class PartWatch:
    """Whether one part answers. ``up`` is None until the first try."""

    def __init__(self, clock: "Clock", retry_ms: int = RETRY_MS) -> None:
        self._clock = clock
        self.retry_ms = retry_ms
        self.up: bool | None = None
        self._tried = 0
        self.losses = 0

    def lost(self, now: int) -> bool:
        """The part failed at ``now``; true if that is news (it was up, or never tried)."""
        news = self.up is not False
        self.up = False
        self._tried = now
        if news:
            self.losses += 1
        return news

    def answered(self) -> bool:
        """The part answered; true if it had been lost (it came back)."""
        back = self.up is False
        self.up = True
        return back

    def due(self, now: int) -> bool:
        """While lost: true when it is time to try the part again."""
        return self.up is False and self._clock.ticks_diff(now, self._tried) >= self.retry_ms


class Streak:
    """Consecutive failures of one kind; ``fail(kind)`` is true once, at the ``threshold``-th.

    A failure of another kind starts a new streak; ``clear()`` (a good poll) ends it.
    """

    def __init__(self, threshold: int) -> None:
        self.threshold = threshold
        self.kind = 0
        self.count = 0

    def fail(self, kind: int) -> bool:
        if kind != self.kind:
            self.kind = kind
            self.count = 0
        self.count += 1
        return self.count == self.threshold

    def clear(self) -> None:
        self.kind = 0
        self.count = 0


class Uptime:
    """Seconds since start, counted across the wrap-around of ``ticks_ms``.

    ``tick(now)`` must be called more often than half the ticks period (about six days on
    MicroPython); the main loop calls it on every step.
    """

    def __init__(self, clock: "Clock", now: int) -> None:
        self._clock = clock
        self._last = now
        self.ms = 0

    def tick(self, now: int) -> None:
        delta = self._clock.ticks_diff(now, self._last)
        if delta > 0:
            self.ms += delta
            self._last = now

    @property
    def seconds(self) -> int:
        return self.ms // 1000


def worst(statuses: "list[str]") -> str:
    """The worst of some health statuses: ``FAIL`` over ``WARN`` over ``OK``."""
    if "FAIL" in statuses:
        return "FAIL"
    if "WARN" in statuses:
        return "WARN"
    return "OK"


def seat_map(seats: "dict[str, bool]") -> str:
    """Which seats' parts answer, ``NESW`` order, ``-`` for the others: ``NE-W``."""
    return "".join([seat if seats.get(seat) else "-" for seat in "NESW"])
