"""How a session is scored, as typed values: the session's ``Scoring`` and the unit of its
field scores (``Method``).

A scoring used to be a bare string in many places, with three spellings of IMPs, and a
format that lacked an entry wrote "?" silently. Here each scoring is one ``ScoringEntry``:
its words, what its field scores are in, what PBN and USEBIO call it, the units of its
penalties, whether the club's own average percentages apply and whether its matches are in
victory points. Every member has an entry and every entry is whole (checked when this module
loads), so an export never guesses. How the field is scored board by board is the scorer
table in server/scoring/standings.py, checked against these entries when that module loads.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields

from tablemodel.texts import Words


class Method(enum.StrEnum):
    """What a field score is: matchpoints (with a percentage), IMPs, or a social scheme's
    points, each result on its own."""

    MP = "mp"
    IMPS = "imps"
    POINTS = "points"


class Scoring(enum.StrEnum):
    """A session's scoring (``sessions.scoring``); what each is, is its entry below."""

    MP = "mp"
    CROSS_IMPS = "cross_imps"
    BUTLER = "butler"
    BUTLER_MEAN = "butler_mean"
    TEAMS = "teams"
    SWISS = "swiss"
    CLUB = "club"
    RUBBER = "rubber"
    CHICAGO = "chicago"

    @property
    def entry(self) -> ScoringEntry:
        return ENTRIES[self]

    @property
    def words(self) -> Words:
        """Its name on the console's set-up form and pages."""
        return ENTRIES[self].words

    @property
    def method(self) -> Method:
        return ENTRIES[self].method

    @property
    def social(self) -> bool:
        return ENTRIES[self].method is Method.POINTS

    @property
    def pbn(self) -> str:
        """PBN's ``Scoring`` tag."""
        return ENTRIES[self].pbn

    @property
    def usebio(self) -> str:
        """USEBIO's ``BOARD_SCORING_METHOD``."""
        return ENTRIES[self].usebio

    @property
    def penalty_units(self) -> tuple[str, ...]:
        """The units a procedural or disciplinary penalty (Laws 90, 91) is given in
        (server/scoring/penalties.py): none where no field is ranked."""
        return ENTRIES[self].penalty_units


@dataclass(frozen=True)
class ScoringEntry:
    """One scoring, defined once. ``penalty_units``: mp, matchpoints; top, a part of one
    board's matchpoint top; imps; vp, off a Swiss team's victory points (none where no field
    is ranked). ``counted_in`` is what its totals are in, as a sentence names them."""

    words: Words
    method: Method
    pbn: str
    usebio: str
    penalty_units: tuple[str, ...]
    counted_in: str
    club_percentages: bool = False  # the club's A+/A/A- percentages apply (Law 12C2)
    pairs_field: bool = False  # a pairs movement may be scored with it (server/setup/movements.py)
    matches_in_vps: bool = False  # a teams event whose matches are converted to VPs

    def __post_init__(self) -> None:
        for spec in fields(self):
            if getattr(self, spec.name) in ("", None):
                raise AssertionError(f"a scoring's {spec.name} is empty")


_IMP_UNITS = ("imps",)
_NO_UNITS: tuple[str, ...] = ()

ENTRIES: Mapping[Scoring, ScoringEntry] = {
    # Law 78A
    Scoring.MP: ScoringEntry(Words(es="Puntos de match", en="Matchpoints"), Method.MP, "MP",
                             "MATCH_POINTS", ("mp", "top"), "matchpoints",
                             club_percentages=True, pairs_field=True),
    # Law 78B: each result IMPed against every other of the board, averaged
    Scoring.CROSS_IMPS: ScoringEntry(Words(es="IMPs cruzados", en="Cross-IMPs"), Method.IMPS,
                                     "IMP;Cross", "CROSS_IMPS", _IMP_UNITS, "IMPs",
                                     pairs_field=True),
    # Law 78B against the board's datum, its top and bottom tenth left out (Law 78D)
    Scoring.BUTLER: ScoringEntry(Words(es="Butler", en="Butler"), Method.IMPS, "IMP;Butler",
                                 "BUTLER_IMPS", _IMP_UNITS, "IMPs", pairs_field=True),
    # Law 78B against the plain mean of every score of the board (Law 78D leaves the datum
    # to the Regulating Authority)
    Scoring.BUTLER_MEAN: ScoringEntry(
        Words(es="Butler (dato: la media de todas las marcas)",
              en="Butler (datum: the mean of every score)"),
        Method.IMPS, "IMP;Butler", "BUTLER_IMPS", _IMP_UNITS, "IMPs", pairs_field=True),
    # Law 78B, a match of two tables
    Scoring.TEAMS: ScoringEntry(Words(es="Equipos (IMPs)", en="Teams (IMPs)"), Method.IMPS,
                                "IMP", "IMPS", _IMP_UNITS, "IMPs"),
    # Law 78B each match, the matches in VPs
    Scoring.SWISS: ScoringEntry(Words(es="Suizo: IMPs a puntos de victoria",
                                      en="Swiss: IMPs to victory points"),
                                Method.IMPS, "IMP;VP", "IMPS", ("vp",), "victory points",
                                matches_in_vps=True),
    # the engine's social schemes: each result scored on its own, no field ranked
    Scoring.CLUB: ScoringEntry(Words(es="Club", en="Club"), Method.POINTS, "TP", "AGGREGATE",
                               _NO_UNITS, "points"),
    Scoring.RUBBER: ScoringEntry(Words(es="Rubber", en="Rubber"), Method.POINTS, "Rubber",
                                 "AGGREGATE", _NO_UNITS, "points"),
    Scoring.CHICAGO: ScoringEntry(Words(es="Chicago", en="Chicago"), Method.POINTS, "Chicago",
                                  "AGGREGATE", _NO_UNITS, "points"),
}


def check_entries(entries: Mapping[Scoring, ScoringEntry]) -> None:
    """Every scoring has an entry, and a ranked one has a penalty unit: run when this module
    loads, so nothing is guessed later."""
    missing = set(Scoring) - set(entries)
    if missing:
        raise AssertionError(f"scorings without an entry: {sorted(map(str, missing))}")
    for scoring, entry in entries.items():
        if (entry.method is Method.POINTS) == bool(entry.penalty_units):
            raise AssertionError(f"scoring {scoring}: penalty units are for a ranked field")


check_entries(ENTRIES)
