"""The four schemes by name, and one deal scored under any of them."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Final

from ..calls import Contract
from ..errors import RulesError
from .chicago import chicago_deal
from .club import club_deal
from .duplicate import duplicate_deal
from .rubber import rubber_deal
from .score import DealScore


class Scheme(enum.StrEnum):
    DUPLICATE = "duplicate"  # Law 77
    RUBBER = "rubber"        # seed 003 and the Laws of Rubber Bridge
    CHICAGO = "chicago"      # four-deal bridge
    CLUB = "club"            # seed 004, the house rules


SCORERS: Final[Mapping[Scheme, Callable[[Contract, bool, int], DealScore]]] = {
    Scheme.DUPLICATE: duplicate_deal,
    Scheme.RUBBER: rubber_deal,
    Scheme.CHICAGO: chicago_deal,
    Scheme.CLUB: club_deal,
}


def deal_score(scheme: Scheme | str, contract: Contract | None, vulnerable: bool,
               tricks: int | None) -> DealScore:
    """One deal on its own under ``scheme``; a deal passed out scores nothing.

    Rubber and Chicago also depend on the deals before (part scores, games, the fourth
    deal): this is the deal on a fresh score pad, and :class:`Rubber` and :class:`Chicago`
    keep the running account.
    """
    try:
        scorer = SCORERS[Scheme(scheme)]
    except ValueError:
        raise RulesError("not_a_scheme", text=str(scheme)) from None
    if contract is None:
        return DealScore()
    if tricks is None:
        raise RulesError("result_needs_tricks", contract=str(contract))
    return scorer(contract, vulnerable, tricks)
