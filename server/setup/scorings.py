"""How a session is scored, as typed values: the session's ``Scoring`` and the unit of its
field scores (``Method``).

A scoring used to be a bare string in many places, with three spellings of IMPs, and a
format that lacked an entry wrote "?" silently. Here each scoring says once what its field
scores are in, whether it is one of the engine's social schemes, and what PBN and USEBIO
call it; every member has every entry (checked when this module loads), so an export never
guesses.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping


class Method(enum.StrEnum):
    """What a field score is: matchpoints (with a percentage), IMPs, or a social scheme's
    points, each result on its own."""

    MP = "mp"
    IMPS = "imps"
    POINTS = "points"


class Scoring(enum.StrEnum):
    """A session's scoring (``sessions.scoring``)."""

    MP = "mp"                  # matchpoints, Law 78A
    CROSS_IMPS = "cross_imps"  # IMPs against every other result of the board, Law 78B
    BUTLER = "butler"          # IMPs against the board's datum, Law 78B
    TEAMS = "teams"            # IMPs of a team match, Law 78B
    SWISS = "swiss"            # IMPs of each match (Law 78B), the matches in VPs
    CLUB = "club"              # the engine's social schemes: each result scored on its own
    RUBBER = "rubber"
    CHICAGO = "chicago"

    @property
    def method(self) -> Method:
        return _METHOD[self]

    @property
    def social(self) -> bool:
        return _METHOD[self] is Method.POINTS

    @property
    def pbn(self) -> str:
        """PBN's ``Scoring`` tag."""
        return _PBN[self]

    @property
    def usebio(self) -> str:
        """USEBIO's ``BOARD_SCORING_METHOD``."""
        return _USEBIO[self]

    @property
    def penalty_units(self) -> tuple[str, ...]:
        """The units a procedural or disciplinary penalty (Laws 90, 91) is given in
        (server/scoring/penalties.py): none where no field is ranked."""
        return _PENALTY_UNITS[self]


_METHOD: Mapping[Scoring, Method] = {
    Scoring.MP: Method.MP, Scoring.CROSS_IMPS: Method.IMPS, Scoring.BUTLER: Method.IMPS,
    Scoring.TEAMS: Method.IMPS, Scoring.SWISS: Method.IMPS, Scoring.CLUB: Method.POINTS,
    Scoring.RUBBER: Method.POINTS,
    Scoring.CHICAGO: Method.POINTS}
_PBN: Mapping[Scoring, str] = {
    Scoring.MP: "MP", Scoring.CROSS_IMPS: "IMP;Cross", Scoring.BUTLER: "IMP;Butler",
    Scoring.TEAMS: "IMP", Scoring.SWISS: "IMP;VP", Scoring.CLUB: "TP", Scoring.RUBBER: "Rubber",
    Scoring.CHICAGO: "Chicago"}
_USEBIO: Mapping[Scoring, str] = {
    Scoring.MP: "MATCH_POINTS", Scoring.CROSS_IMPS: "CROSS_IMPS",
    Scoring.BUTLER: "BUTLER_IMPS", Scoring.TEAMS: "IMPS", Scoring.SWISS: "IMPS",
    Scoring.CLUB: "AGGREGATE",
    Scoring.RUBBER: "AGGREGATE", Scoring.CHICAGO: "AGGREGATE"}

#: mp: matchpoints; top: a part of one board's matchpoint top; imps: IMPs; vp: off a Swiss
#: team's victory points. The social schemes rank no field: no penalty unit.
_PENALTY_UNITS: Mapping[Scoring, tuple[str, ...]] = {
    Scoring.MP: ("mp", "top"), Scoring.CROSS_IMPS: ("imps",), Scoring.BUTLER: ("imps",),
    Scoring.TEAMS: ("imps",), Scoring.SWISS: ("vp",), Scoring.CLUB: (), Scoring.RUBBER: (),
    Scoring.CHICAGO: ()}

for _table in (_METHOD, _PBN, _USEBIO, _PENALTY_UNITS):
    if set(_table) != set(Scoring):  # every scoring in every table: nothing guessed later
        raise AssertionError(f"scorings without an entry: {set(Scoring) - set(_table)}")
