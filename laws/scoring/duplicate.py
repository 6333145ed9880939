"""Duplicate scoring: Law 77 in full, each deal on its own."""

from __future__ import annotations

from dataclasses import replace

from ..board import Vulnerability
from ..calls import Contract
from ..cards import Seat, Side
from .law77 import GAME_PREMIUM, GAME_THRESHOLD, PART_SCORE_PREMIUM, contract_score
from .score import DealScore, played, result


def duplicate_deal(contract: Contract, vulnerable: bool, tricks: int) -> DealScore:
    score = contract_score(contract, vulnerable, tricks)
    if result(contract, tricks) < 0:
        return score
    # Law 77: a contract made earns the game premium when its trick score reaches 100,
    # else the part-score premium; each deal stands alone, so nothing carries over.
    premium = GAME_PREMIUM if score.declarer_below >= GAME_THRESHOLD else PART_SCORE_PREMIUM
    return replace(score, declarer_above=score.declarer_above + premium.of(vulnerable))


def duplicate_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    """The score of declarer's side under Law 77, negative when the contract is defeated."""
    return duplicate_deal(contract, vulnerable, tricks).net


def score_ns(contract: Contract | None, declarer: Seat | None, tricks: int | None,
             vulnerability: Vulnerability) -> int:
    """The duplicate score from North-South's side; a passed-out board scores 0 (Law 77)."""
    if contract is None:
        return 0
    declarer, tricks = played(contract, declarer, tricks)
    score = duplicate_score(contract, vulnerability.is_vulnerable(declarer), tricks)
    return score if declarer.side is Side.NS else -score
