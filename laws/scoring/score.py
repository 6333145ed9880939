"""What every scheme gives for one deal, and the checks every scheme shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..calls import Contract
from ..cards import Seat
from ..errors import RulesError

TRICKS_IN_A_DEAL = 13


class ByVulnerability(NamedTuple):
    """A premium or penalty whose size depends on the vulnerability of the side it concerns."""

    not_vulnerable: int
    vulnerable: int

    def of(self, vulnerable: bool) -> int:
        return self.vulnerable if vulnerable else self.not_vulnerable


@dataclass(frozen=True, slots=True)
class DealScore:
    """One deal's points, split as a rubber-bridge score pad splits them.

    Below the line go the trick points of the tricks bid and made (only declarer's side can
    earn them); above it go the premiums of declarer's side and the penalties the defenders
    collect. Duplicate and the club scheme have no line: for them only :attr:`net` matters,
    and the split is kept only so a scorer can show how the total is made up.
    """

    declarer_below: int = 0
    declarer_above: int = 0
    defenders_above: int = 0

    @property
    def declarer_total(self) -> int:
        return self.declarer_below + self.declarer_above

    @property
    def defenders_total(self) -> int:
        return self.defenders_above

    @property
    def net(self) -> int:
        """The score from declarer's side, negative when the contract was defeated."""
        return self.declarer_total - self.defenders_total


def check_tricks(tricks: int) -> int:
    """Law 77 scores the tricks won by declarer's side, of the thirteen there are."""
    if not 0 <= tricks <= TRICKS_IN_A_DEAL:
        raise RulesError("tricks_out_of_range", tricks=tricks)
    return tricks


def result(contract: Contract, tricks: int) -> int:
    """Tricks over the contract (0 or more when made), or minus the undertricks."""
    return check_tricks(tricks) - contract.tricks_needed


def played(contract: Contract, declarer: Seat | None,
           tricks: int | None) -> tuple[Seat, int]:
    """A contract played needs its declarer and the tricks won to be scored."""
    if declarer is None or tricks is None:
        raise RulesError("result_needs_declarer", contract=str(contract))
    return declarer, tricks
