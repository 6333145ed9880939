"""The club's house scheme (seed 004, Club Conservador de Cartes i Jocs, "PUNTUACION").

Each deal stands alone and scores for one pair only: trick points for every trick over six,
one premium for the category of the contract made, or a penalty per undertrick; then the
whole score is doubled or quadrupled if the contract was doubled or redoubled. The seed's
own words, and where we had to read between them, are in docs/scoring.md.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Final

from ..board import Vulnerability
from ..calls import Contract, Strain
from ..cards import Seat
from ..errors import RulesError
from .law77 import trick_points
from .score import ByVulnerability, DealScore, result


class Category(enum.Enum):
    """Seed 004, "POR CONTRATO REALIZADO: según el nivel del contrato"."""

    PART_SCORE = "contrato simple"
    GAME = "manga"
    SMALL_SLAM = "slam"
    GRAND_SLAM = "gran slam"


# Seed 004: "MANGA (3 ST, 4 C, 4 P, 5 T ó 5 D)" (C is hearts, P spades, T clubs, D diamonds):
# the lowest game contract in each strain; any higher contract short of slam is a game too.
GAME_LEVEL: Final[Mapping[Strain, int]] = {
    Strain.C: 5, Strain.D: 5, Strain.H: 4, Strain.S: 4, Strain.NT: 3,
}
# Seed 004: "SLAM (6 a cualquier palo)", "GRAN SLAM (7 a cualquier palo)".
SLAM_LEVEL: Final[Mapping[int, Category]] = {6: Category.SMALL_SLAM, 7: Category.GRAND_SLAM}

# Seed 004: the one premium for the contract made, by its category.
PREMIUM: Final[Mapping[Category, ByVulnerability]] = {
    Category.PART_SCORE: ByVulnerability(50, 50),
    Category.GAME: ByVulnerability(300, 500),
    Category.SMALL_SLAM: ByVulnerability(500, 750),
    Category.GRAND_SLAM: ByVulnerability(750, 1000),
}

# Seed 004, "Contrato no realizado": per undertrick, (the first, each later one).
UNDERTRICK: Final[Mapping[bool, tuple[int, int]]] = {
    False: (50, 50),
    True: (100, 200),
}

# Seed 004: "1ª mano: NADIE VULNERABLE; 2ª: E-O; 3ª: N-S; 4ª: TODOS".
VULNERABILITY: Final[tuple[Vulnerability, ...]] = (
    Vulnerability.NONE, Vulnerability.EW, Vulnerability.NS, Vulnerability.BOTH,
)
# Seed 004: the first dealer sits South, and the deal passes to the left.
FIRST_DEALER: Final = Seat.S


def club_category(contract: Contract) -> Category:
    by_level = Category.GAME if contract.level >= GAME_LEVEL[contract.strain] else \
        Category.PART_SCORE
    return SLAM_LEVEL.get(contract.level, by_level)


def club_deal(contract: Contract, vulnerable: bool, tricks: int) -> DealScore:
    """One deal of the club scheme; below the line are the tricks bid, for display only."""
    over = result(contract, tricks)
    factor = contract.doubling.factor  # seed 004: "se multiplica por dos ... por cuatro"
    if over < 0:
        first, later = UNDERTRICK[vulnerable]
        return DealScore(defenders_above=(first + later * (-over - 1)) * factor)
    # Seed 004, "POR BAZAS: no se cuentan las seis primeras bazas": every trick over six.
    bid = trick_points(contract.strain, contract.level)
    made = trick_points(contract.strain, contract.level + over)
    premium = PREMIUM[club_category(contract)].of(vulnerable)
    return DealScore(declarer_below=bid * factor, declarer_above=(made - bid + premium) * factor)


def club_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    """The club score of declarer's side, negative when the contract is defeated."""
    return club_deal(contract, vulnerable, tricks).net


def _check_deal_index(deal_index: int) -> int:
    if not 1 <= deal_index <= len(VULNERABILITY):
        raise RulesError("partida_deal_number", number=deal_index)
    return deal_index - 1


def club_vulnerability(deal_index: int) -> Vulnerability:
    """Who is vulnerable on deal 1 to 4 of a partida (seed 004)."""
    return VULNERABILITY[_check_deal_index(deal_index)]


def club_dealer(deal_index: int) -> Seat:
    """Who deals deal 1 to 4 of a partida: South, then clockwise (seed 004)."""
    return FIRST_DEALER.next(_check_deal_index(deal_index))
