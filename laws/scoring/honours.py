"""Honours, scored in rubber bridge and Chicago only (seed 003, "Premios por Honores").

The side whose player holds them scores them above the line, whether it declared or
defended and whether the contract was made or not (Rubber Law 81).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..board import Deal
from ..calls import Strain
from ..cards import Card, Rank, Side, Suit
from ..errors import RulesError

Honours = tuple[Side, int]
"""The side that held honours and the premium they earn (100 or 150)."""

_HONOUR_RANKS: Final = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)

# Rubber Law 81; seed 003: four of the five trump honours in one hand 100, all five 150.
TRUMP_HONOURS: Final[Mapping[int, int]] = {4: 100, 5: 150}
# Rubber Law 81; seed 003: at no trump, the four aces in one hand 150.
ACES_AT_NO_TRUMP: Final[Mapping[int, int]] = {4: 150}


def _cards_and_premiums(strain: Strain) -> tuple[frozenset[Card], Mapping[int, int]]:
    if strain.suit is None:
        return frozenset(Card(suit, Rank.ACE) for suit in Suit), ACES_AT_NO_TRUMP
    return frozenset(Card(strain.suit, rank) for rank in _HONOUR_RANKS), TRUMP_HONOURS


def honours_in(deal: Deal, strain: Strain) -> Honours | None:
    """The honours one hand of ``deal`` holds at ``strain``, if any; unknown hands hold none."""
    cards, premiums = _cards_and_premiums(strain)
    for seat in deal:
        premium = premiums.get(len(cards & deal[seat]))
        if premium is not None:
            return (seat.side, premium)
    return None


def check_honours(honours: Honours, strain: Strain) -> Honours:
    """Refuse a claim of honours that no holding earns at this strain."""
    side, premium = honours
    _, premiums = _cards_and_premiums(strain)
    if premium not in premiums.values():
        allowed = " or ".join(str(p) for p in sorted(set(premiums.values())))
        raise RulesError("honours_premium", strain=str(strain), allowed=allowed,
                         premium=str(premium))
    if not isinstance(side, Side):
        raise RulesError("honours_not_side", text=repr(side))
    return honours


def resolve_honours(strain: Strain, honours: Honours | None, deal: Deal | None) -> Honours | None:
    """The honours to score: as claimed, or as found in the deal, never both."""
    if honours is not None and deal is not None:
        raise RulesError("honours_and_deal")
    if deal is not None:
        return honours_in(deal, strain)
    return None if honours is None else check_honours(honours, strain)
