"""The score pad that rubber bridge and Chicago share: two columns and a line across them.

Trick points go below the line and count toward game; every premium and penalty goes
above it (Rubber Law 72). A game is 100 trick points below the line, in one deal or
several; once a side makes game, a new line is drawn and neither side's earlier part
scores count toward the next game (Rubber Law 73; seed 003, "Premios por Rubber").
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..board import Deal
from ..calls import Contract
from ..cards import Seat, Side
from .honours import Honours, resolve_honours
from .law77 import GAME_THRESHOLD, contract_score


class Item(enum.StrEnum):
    """What a line on the score pad is for."""

    TRICKS = "tricks"                    # below the line: the trick score
    PREMIUMS = "premiums"                # overtricks, the insult, slams
    UNDERTRICKS = "undertricks"
    HONOURS = "honours"
    GAME = "game"                        # Chicago only
    PART_SCORE = "part score"            # Chicago only, on the fourth deal
    RUBBER = "rubber"                    # rubber bridge only
    UNFINISHED = "unfinished rubber"     # rubber bridge only


@dataclass(frozen=True, slots=True)
class Entry:
    """One line written on the score pad."""

    deal_number: int
    side: Side
    item: Item
    points: int

    @property
    def below(self) -> bool:
        return self.item is Item.TRICKS


def _per_side() -> dict[Side, int]:
    return {Side.NS: 0, Side.EW: 0}


class ScoreSheet:
    """Entries, games and part scores; subclasses say who is vulnerable and when it ends."""

    def __init__(self) -> None:
        self._entries: list[Entry] = []
        self._games = _per_side()
        self._part_scores = _per_side()
        self._deals_scored = 0

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self._entries)

    @property
    def games(self) -> dict[Side, int]:
        return dict(self._games)

    @property
    def part_scores(self) -> dict[Side, int]:
        """Trick points below the line since the last game, toward the next one."""
        return dict(self._part_scores)

    @property
    def below(self) -> dict[Side, int]:
        return self._sum(below=True)

    @property
    def above(self) -> dict[Side, int]:
        return self._sum(below=False)

    @property
    def totals(self) -> dict[Side, int]:
        return {side: self.below[side] + self.above[side] for side in Side}

    def _sum(self, *, below: bool) -> dict[Side, int]:
        sums = _per_side()
        for entry in self._entries:
            if entry.below is below:
                sums[entry.side] += entry.points
        return sums

    def _write(self, side: Side, item: Item, points: int) -> None:
        if points:
            self._entries.append(Entry(self._deals_scored + 1, side, item, points))

    def _score_contract(self, contract: Contract, declarer: Seat, tricks: int,
                        vulnerable: bool, honours: Honours | None, deal: Deal | None) -> bool:
        """Write one contract's result; True when it completed a game (Rubber Law 73)."""
        side = declarer.side
        score = contract_score(contract, vulnerable, tricks)
        held = resolve_honours(contract.strain, honours, deal)
        self._write(side, Item.TRICKS, score.declarer_below)
        self._write(side, Item.PREMIUMS, score.declarer_above)
        self._write(side.other, Item.UNDERTRICKS, score.defenders_above)
        if held is not None:
            self._write(held[0], Item.HONOURS, held[1])
        self._part_scores[side] += score.declarer_below
        if self._part_scores[side] < GAME_THRESHOLD:
            return False
        self._games[side] += 1
        self._part_scores = _per_side()
        return True
