"""Rubber bridge (seed 003, "La Puntuación", completed by the Laws of Rubber Bridge).

A rubber is the best of three games. A side that has won a game is vulnerable; the first
side to win two ends the rubber and earns the rubber premium. There are no game or
part-score premiums: the rubber premium rewards the games.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..board import Deal, Vulnerability
from ..calls import Contract
from ..cards import Seat, Side
from ..errors import RulesError
from .honours import Honours
from .law77 import contract_score
from .score import DealScore, played
from .sheet import Item, ScoreSheet

GAMES_TO_WIN: Final = 2

# Rubber Law 74; seed 003: 700 when the losers have no game, 500 when they have one.
RUBBER_PREMIUM: Final[Mapping[int, int]] = {0: 700, 1: 500}

# Rubber Law 80, a rubber left unfinished: 300 to a side that won the only game, 100 to a
# side that alone has a part score in the game not completed.
UNFINISHED_GAME: Final = 300
UNFINISHED_PART_SCORE: Final = 100


def rubber_deal(contract: Contract, vulnerable: bool, tricks: int) -> DealScore:
    """One deal at rubber bridge: Law 77's table less the game and part-score premiums."""
    return contract_score(contract, vulnerable, tricks)


class Rubber(ScoreSheet):
    """The score pad of one rubber, written one deal at a time with :meth:`record`."""

    def __init__(self) -> None:
        super().__init__()
        self._abandoned = False

    @property
    def vulnerability(self) -> Vulnerability:
        """Seed 003: a side that has completed a game is vulnerable."""
        return Vulnerability.of(self._games[Side.NS] > 0, self._games[Side.EW] > 0)

    @property
    def is_finished(self) -> bool:
        return self._abandoned or max(self._games.values()) >= GAMES_TO_WIN

    def record(self, contract: Contract | None, declarer: Seat | None = None,
               tricks: int | None = None, *, honours: Honours | None = None,
               deal: Deal | None = None) -> None:
        """Score one deal. ``contract`` None is a deal passed out, which scores nothing.

        ``honours`` is the side holding them and their premium, as the players claim them;
        or pass the ``deal`` and they are found in it. Give one or neither.
        """
        if self.is_finished:
            raise RulesError("rubber_over_start_new")
        if contract is not None:
            declarer, tricks = played(contract, declarer, tricks)
            vulnerable = self.vulnerability.is_vulnerable(declarer)
            if self._score_contract(contract, declarer, tricks, vulnerable, honours, deal):
                self._close_if_won()
        self._deals_scored += 1

    def _close_if_won(self) -> None:
        for side in Side:
            if self._games[side] == GAMES_TO_WIN:
                self._write(side, Item.RUBBER, RUBBER_PREMIUM[self._games[side.other]])

    def end_unfinished(self) -> None:
        """Stop the rubber before a side has won two games (Rubber Law 80)."""
        if self.is_finished:
            raise RulesError("rubber_over")
        for side in Side:
            if self._games[side] > 0 and self._games[side.other] == 0:
                self._write(side, Item.UNFINISHED, UNFINISHED_GAME)
            if self._part_scores[side] > 0 and self._part_scores[side.other] == 0:
                self._write(side, Item.UNFINISHED, UNFINISHED_PART_SCORE)
        self._abandoned = True
