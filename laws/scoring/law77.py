"""Law 77, the scoring table, as data.

Duplicate, rubber bridge and Chicago share every line of this table except the game and
part-score premiums, which each of them awards its own way (see ``duplicate``, ``rubber``,
``chicago``); so :func:`contract_score` leaves those out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..calls import Contract, Doubling, Strain
from .score import ByVulnerability, DealScore, result

# Law 77, trick score: points for each odd trick, as (the first, each later one).
TRICK_VALUE: Final[Mapping[Strain, tuple[int, int]]] = {
    Strain.C: (20, 20),
    Strain.D: (20, 20),
    Strain.H: (30, 30),
    Strain.S: (30, 30),
    Strain.NT: (40, 30),
}

# Law 77: a contract whose trick score is 100 or more is a game, anything less a part score.
GAME_THRESHOLD: Final = 100
GAME_PREMIUM: Final = ByVulnerability(300, 500)
PART_SCORE_PREMIUM: Final = ByVulnerability(50, 50)

# Law 77, slam premiums, by the level of the contract (not by the tricks taken).
SLAM_PREMIUM: Final[Mapping[int, ByVulnerability]] = {
    6: ByVulnerability(500, 750),
    7: ByVulnerability(1000, 1500),
}
NO_SLAM: Final = ByVulnerability(0, 0)

# Law 77, premium for making a doubled or redoubled contract (the "insult").
INSULT: Final[Mapping[Doubling, int]] = {
    Doubling.UNDOUBLED: 0,
    Doubling.DOUBLED: 50,
    Doubling.REDOUBLED: 100,
}

# Law 77, overtricks when doubled or redoubled; undoubled they score their trick value.
DOUBLED_OVERTRICK: Final[Mapping[Doubling, ByVulnerability]] = {
    Doubling.DOUBLED: ByVulnerability(100, 200),
    Doubling.REDOUBLED: ByVulnerability(200, 400),
}

# Law 77, undertricks: the penalty for the 1st, 2nd, 3rd, and 4th and each later undertrick,
# by doubling and declarer's vulnerability. Redoubled is twice doubled.
UNDERTRICKS: Final[Mapping[tuple[Doubling, bool], tuple[int, int, int, int]]] = {
    (Doubling.UNDOUBLED, False): (50, 50, 50, 50),
    (Doubling.UNDOUBLED, True): (100, 100, 100, 100),
    (Doubling.DOUBLED, False): (100, 200, 200, 300),
    (Doubling.DOUBLED, True): (200, 300, 300, 300),
    (Doubling.REDOUBLED, False): (200, 400, 400, 600),
    (Doubling.REDOUBLED, True): (400, 600, 600, 600),
}


def trick_points(strain: Strain, odd_tricks: int) -> int:
    """Undoubled trick points for ``odd_tricks`` tricks over six (Law 77; seed 003, 16)."""
    first, later = TRICK_VALUE[strain]
    return first * min(odd_tricks, 1) + later * max(odd_tricks - 1, 0)


def trick_score(contract: Contract) -> int:
    """Law 77: the odd tricks bid and made, doubled ×2 and redoubled ×4."""
    return trick_points(contract.strain, contract.level) * contract.doubling.factor


def overtrick_points(contract: Contract, vulnerable: bool, overtricks: int) -> int:
    later = TRICK_VALUE[contract.strain][1]
    undoubled = ByVulnerability(later, later)
    return DOUBLED_OVERTRICK.get(contract.doubling, undoubled).of(vulnerable) * overtricks


def undertrick_penalty(doubling: Doubling, vulnerable: bool, undertricks: int) -> int:
    schedule = UNDERTRICKS[(doubling, vulnerable)]
    return sum(schedule[min(n, len(schedule) - 1)] for n in range(undertricks))


def contract_score(contract: Contract, vulnerable: bool, tricks: int) -> DealScore:
    """Law 77 without the game and part-score premiums: trick score below the line;
    overtricks, insult and slam above it; or the undertrick penalty to the defenders."""
    over = result(contract, tricks)
    if over < 0:
        return DealScore(defenders_above=undertrick_penalty(contract.doubling, vulnerable, -over))
    premiums = (overtrick_points(contract, vulnerable, over)
                + INSULT[contract.doubling]
                + SLAM_PREMIUM.get(contract.level, NO_SLAM).of(vulnerable))
    return DealScore(declarer_below=trick_score(contract), declarer_above=premiums)
