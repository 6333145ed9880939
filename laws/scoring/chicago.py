"""Chicago, or four-deal bridge: rubber bridge's score pad over exactly four deals.

The rules are those of the Laws of Rubber Bridge for four-deal bridge, as the ACBL
publishes them; docs/scoring.md says exactly what is implemented.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Final

from ..board import Deal, Vulnerability
from ..calls import Contract
from ..cards import Seat, Side
from ..errors import RulesError
from .honours import Honours
from .law77 import GAME_PREMIUM, GAME_THRESHOLD, contract_score
from .score import DealScore, played, result
from .sheet import Item, ScoreSheet

DEALS: Final = 4

# Four-deal bridge: on each deal, whether (the dealer's side, the other side) is vulnerable.
# Deal 1 neither, deals 2 and 3 the dealer's side, deal 4 both.
SCHEDULE: Final[Mapping[int, tuple[bool, bool]]] = {
    1: (False, False),
    2: (True, False),
    3: (True, False),
    4: (True, True),
}

# Four-deal bridge: a part score made on the fourth deal that does not complete a game.
FOURTH_DEAL_PART_SCORE: Final = 100


def _check_deal_number(deal_number: int) -> None:
    if deal_number not in SCHEDULE:
        raise RulesError("chicago_deal_number", deals=DEALS, number=deal_number)


def chicago_dealer(deal_number: int, first_dealer: Seat = Seat.N) -> Seat:
    _check_deal_number(deal_number)
    return first_dealer.next(deal_number - 1)


def chicago_vulnerability(deal_number: int, first_dealer: Seat = Seat.N) -> Vulnerability:
    """Who is vulnerable on deal 1 to 4 of a Chicago whose first dealer is ``first_dealer``."""
    dealers_side = chicago_dealer(deal_number, first_dealer).side
    dealers, others = SCHEDULE[deal_number]
    vulnerable = {dealers_side: dealers, dealers_side.other: others}
    return Vulnerability.of(vulnerable[Side.NS], vulnerable[Side.EW])


def chicago_deal(contract: Contract, vulnerable: bool, tricks: int) -> DealScore:
    """One deal at Chicago on a fresh pad: Law 77 less the part-score premium, with the
    game premium when this contract alone makes game. Carried part scores and the
    fourth-deal premium depend on the other deals: :class:`Chicago` handles them."""
    score = contract_score(contract, vulnerable, tricks)
    if score.declarer_below < GAME_THRESHOLD:
        return score
    return replace(score, declarer_above=score.declarer_above + GAME_PREMIUM.of(vulnerable))


class Chicago(ScoreSheet):
    """The score pad of one Chicago: four deals, dealt in turn clockwise from ``first_dealer``."""

    def __init__(self, first_dealer: Seat = Seat.N) -> None:
        super().__init__()
        self.first_dealer = first_dealer

    @property
    def is_finished(self) -> bool:
        return self._deals_scored >= DEALS

    @property
    def deal_number(self) -> int:
        """The deal to be played next, 1 to 4 (4 once finished)."""
        return min(self._deals_scored + 1, DEALS)

    @property
    def dealer(self) -> Seat:
        return chicago_dealer(self.deal_number, self.first_dealer)

    @property
    def vulnerability(self) -> Vulnerability:
        return chicago_vulnerability(self.deal_number, self.first_dealer)

    def record(self, contract: Contract | None, declarer: Seat | None = None,
               tricks: int | None = None, *, honours: Honours | None = None,
               deal: Deal | None = None) -> None:
        """Score the current deal. A deal passed out (``contract`` None) is dealt again by
        the same dealer at the same vulnerability, so it does not count as one of the four."""
        if self.is_finished:
            raise RulesError("chicago_over")
        if contract is None:
            return
        declarer, tricks = played(contract, declarer, tricks)
        vulnerable = self.vulnerability.is_vulnerable(declarer)
        made_game = self._score_contract(contract, declarer, tricks, vulnerable, honours, deal)
        if made_game:
            # The premium follows the vulnerability, on this deal, of the side completing game.
            self._write(declarer.side, Item.GAME, GAME_PREMIUM.of(vulnerable))
        elif self.deal_number == DEALS and result(contract, tricks) >= 0:
            self._write(declarer.side, Item.PART_SCORE, FOURTH_DEAL_PART_SCORE)
        self._deals_scored += 1
