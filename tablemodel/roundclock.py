"""The round clock: when the director's round ends, and the warning before it.

The server's clock decides: the server stores a round's end as a moment of its own clock
(unix seconds) and sends it, with the warning, inside the round's ``assign`` command; an
extension goes out as a retained message on ``bidbox/v1/<event>/clock`` (docs/mqtt.md).
A table shows the time left as that end minus its own clock, which is right because the
table Pis keep their clocks by NTP from the director's machine (docs/pi-setup.md): a table
that was away when the round started still counts to the same end, which a number of
seconds left, stale by the time it was delivered, would not. Model code: the server and the
table both import it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

MAX_WARNING = 60  # minutes: a warning earlier than an hour before the end is no warning


@dataclass(frozen=True)
class RoundClock:
    """Round ``round`` ends at ``ends_at`` (the server's clock, unix seconds); ``warning``
    minutes before it the displays and pages warn (0: no warning)."""

    round: int
    ends_at: float
    warning: int = 0

    def left(self, now: float) -> float:
        """Seconds left at ``now``; never below 0."""
        return max(0.0, self.ends_at - now)

    def minutes_left(self, now: float) -> int:
        """The minutes left as a display shows them: rounded up, so "1 min" until the end."""
        return math.ceil(self.left(now) / 60)

    def stage(self, now: float) -> str:
        """``running``, ``warning`` (the chosen minutes or fewer are left) or ``over``."""
        left = self.left(now)
        if left <= 0:
            return "over"
        if self.warning and left <= self.warning * 60:
            return "warning"
        return "running"

    def next_change(self, now: float) -> float | None:
        """When what a display shows next changes (the minute shown, or the end): the
        table redraws then and not before. None once the round is over."""
        left = self.ends_at - now
        if left <= 0:
            return None
        return self.ends_at - (math.ceil(left / 60) - 1) * 60

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "ends_at": self.ends_at, "warning": self.warning}

    @classmethod
    def from_json(cls, round_: int, value: dict[str, Any]) -> RoundClock:
        """The ``clock`` of an assignment (its round is the assignment's) or of the retained
        message (which names its round)."""
        return cls(int(value.get("round", round_)), float(value["ends_at"]),
                   int(value.get("warning") or 0))
