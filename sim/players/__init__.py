"""Simulated players: seeded deals, seed 004's natural system, sensible card play, and four
bots that play whole boards through a simulated table's keypads and card reader.

The bidding, the card play and the dealer are pure (laws only); ``script`` and
``SimulatedPlayers`` drive the table and are imported on first use, so that reading the
system (a system card, say) does not pull in the table's hardware drivers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .bidding import Choice, choose_call
from .card_play import choose_card
from .deals import deal
from .evaluation import Evaluation, evaluate

if TYPE_CHECKING:
    from .players import SimulatedPlayers, script

__all__ = ["Choice", "Evaluation", "SimulatedPlayers", "choose_call", "choose_card", "deal",
           "evaluate", "script"]


def __getattr__(name: str) -> Any:
    if name in ("SimulatedPlayers", "script"):
        from . import players

        return getattr(players, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
