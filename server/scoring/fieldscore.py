"""Field scoring: each table's result compared with the field, and the session's standings.

Pure, no I/O: the director's aggregator passes in the session's table results and shows what
comes back. Matchpoints (Law 78A, Neuberg where a board has fewer results than the top
allows), cross-IMPs and Butler (Law 78B), a two-table team match, and the rankings.
docs/field-scoring.md states every choice in words. Arithmetic is exact (Fraction) and turned
into floats only at the end, so equal scores stay equal and ties are ties.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from laws.scoring import imps
from server.setup.scorings import Method

Weighted = tuple[tuple[int, int], ...]
"""An assigned score as (percent weight, NS score) pairs whose weights add up to 100: one pair
is a plain assigned score, several a weighted one (Law 12C1(c): 30 % of 4H= and 70 % of
4H-1 is ((30, 620), (70, -100)) when NS declare vulnerable)."""


def check_weighted(scores: Weighted, where: str = "an assigned score") -> None:
    if not scores:
        raise ValueError(f"{where}: a weighted score needs at least one score")
    if any(weight <= 0 for weight, _ in scores) or sum(w for w, _ in scores) != 100:
        raise ValueError(f"{where}: the weights of a weighted score are positive and add up "
                         f"to 100 %, not {[w for w, _ in scores]}")


@dataclass(frozen=True)
class BoardResult:
    """One table's result on one board. ``ns`` and ``ew`` are participant numbers (pairs, or
    teams in a team match). An artificial adjusted score (Law 12C2) is ``adjusted`` as
    (NS %, EW %) and replaces the table result: ``score_ns`` is then not scored. An assigned
    adjusted score (Law 12C1) is a real score and goes in ``score_ns``."""

    board: int
    ns: int
    ew: int
    score_ns: int | None
    adjusted: tuple[int, int] | None = None
    table: int | None = None
    round: int | None = None
    assigned: tuple[Weighted, Weighted] | None = None

    def __post_init__(self) -> None:
        where = f"board {self.board}, {self.ns} v {self.ew}"
        if self.ns == self.ew:
            raise ValueError(f"{where}: a participant cannot play against itself")
        if self.adjusted is None and self.score_ns is None and self.assigned is None:
            raise ValueError(f"{where}: neither a score nor an artificial adjusted score")
        if self.adjusted is not None and not all(0 <= p <= 100 for p in self.adjusted):
            raise ValueError(f"{where}: an adjusted score is 0 to 100 %, not {self.adjusted}")
        if self.assigned is not None:
            if self.adjusted is not None:
                raise ValueError(f"{where}: an assigned score and an artificial one at once")
            for side in self.assigned:
                check_weighted(side, where)

    @property
    def points(self) -> int:
        """The NS score of a real result."""
        if self.score_ns is None or self.adjusted is not None or self.assigned is not None:
            raise ValueError(f"board {self.board}, {self.ns} v {self.ew} has no real score")
        return self.score_ns

    def side(self, ns: bool) -> list[tuple[Fraction, int]]:
        """The NS scores one side of a real result is scored with, each with its weight: the
        table's score (weight 1), or the director's weighted or split score (Law 12C1(c),
        (d)) for that side."""
        if self.assigned is not None:
            return [(Fraction(weight, 100), score)
                    for weight, score in self.assigned[0 if ns else 1]]
        return [(Fraction(1), self.points)]


@dataclass(frozen=True)
class Scored:
    """A result with its field score: matchpoints (with the board percentage) or IMPs."""

    result: BoardResult
    ns: float
    ew: float
    ns_percent: float | None
    ew_percent: float | None


# Law 12C2(a): average plus (at least 60 % in pairs) to a side in no way at fault, average
# (50 %) to one partly at fault, average minus (at most 40 %) to one directly at fault.
_AVERAGES: Final[Mapping[str, int]] = {"A+": 60, "A=": 50, "A": 50, "A-": 40}
_PERCENT = re.compile(r"A?\s*(\d{1,3})\s*%?")


#: What the results table's ``adjusted`` says of an assigned score (Law 12C1): one score, a
#: weighted one (12C1(c)), or different ones for the two sides (a split score, 12C1(d)).
ASSIGNED: Final = ("assigned", "weighted", "split")


def _percent_of(side: str, text: str, averages: Mapping[str, int]) -> int:
    named = averages.get(re.sub(r"\s+", "", side))
    if named is not None:
        return named
    match = _PERCENT.fullmatch(side)
    if match is None or int(match.group(1)) > 100:
        raise ValueError(f"not an adjusted score: {text!r} (write A+/A-, A=/A=, A60/40, "
                         "A+ alone for A+/A-, or 'assigned' for a real score)")
    return int(match.group(1))


def averages_of(plus: int = 60, average: int = 50, minus: int = 40) -> dict[str, int]:
    """The percentages "A+", "A=" (and "A") and "A-" stand for: Law 12C2's 60/50/40, or the
    club's own figures (average plus at least 60, average minus at most 40)."""
    if not 60 <= plus <= 100 or not 0 <= minus <= 40 or not minus <= average <= plus:
        raise ValueError(f"average plus is 60 to 100 %, average minus 0 to 40 % (Law "
                         f"12C2(a)), average between them; not {plus}/{average}/{minus}")
    return {"A+": plus, "A=": average, "A": average, "A-": minus}


def parse_adjusted(text: str | None,
                   averages: Mapping[str, int] | None = None) -> tuple[int, int] | None:
    """The (NS %, EW %) of an artificial adjusted score as the director writes it: "A+/A-",
    "A=/A=" or "A/A", "A-/A-", "A60/40", "60/40"; one side alone ("A+", "A60") gives the
    other side the rest of 100. None, blank, "assigned", "weighted" or "split" (Law 12C1:
    real scores) is None. ``averages`` are the club's figures for A+, A= and A- (see
    :func:`averages_of`); Law 12C2's 60/50/40 by default."""
    if text is None or not text.strip() or text.strip().lower() in ASSIGNED:
        return None
    named = _AVERAGES if averages is None else averages
    sides = [_percent_of(side.strip().upper(), text, named) for side in text.split("/")]
    if len(sides) == 1:
        return sides[0], 100 - sides[0]
    if len(sides) == 2:
        return sides[0], sides[1]
    raise ValueError(f"not an adjusted score: {text!r} (one NS/EW pair of percentages)")


def _by_board(results: Sequence[BoardResult], *, once: bool = True) -> dict[int, list[int]]:
    """The indexes of each board's results; with ``once``, no participant may play a board
    twice (a pair meets each board once; a team meets it at both tables)."""
    boards: dict[int, list[int]] = defaultdict(list)
    seen: set[tuple[int, int]] = set()
    for index, result in enumerate(results):
        for participant in (result.ns, result.ew) if once else ():
            if (result.board, participant) in seen:
                raise ValueError(f"board {result.board}: participant {participant} has more "
                                 "than one result")
            seen.add((result.board, participant))
        boards[result.board].append(index)
    return boards


# -- matchpoints --------------------------------------------------------------------------

def _beaten(ours: list[tuple[Fraction, int]], theirs: list[tuple[Fraction, int]]) -> Fraction:
    """Law 78A between two results, each a list of weighted scores: 2 a score beaten and 1 a
    score equalled, times both weights (1 and 1 for two table results)."""
    return sum((w1 * w2 * (2 if a > b else 1 if a == b else 0)
                for w1, a in ours for w2, b in theirs), Fraction(0))


def _negated(scores: list[tuple[Fraction, int]]) -> list[tuple[Fraction, int]]:
    return [(weight, -score) for weight, score in scores]


def _neuberg(raw: Fraction | int, actual: int, expected: int) -> Fraction:
    # Neuberg's formula, as the EBU (White Book, "Neuberg") and the WBF apply it, in Law 78A's
    # unit of 2 a score beaten: MP = (raw + 1) × E / A − 1, where raw is scored against the A
    # real results and E is the number of results the top expects. Each real result stands
    # for E / A results, and ties with its own copies. E == A leaves raw as it is; a board
    # with one result scores E − 1, the average, which is why a lone result gets 50 %.
    return Fraction((raw + 1) * expected, actual) - 1


def matchpoints(results: Sequence[BoardResult], top: int | None = None) -> list[Scored]:
    """Matchpoints for every result, in the order given.

    Law 78A: 2 for each real score beaten and 1 for each equalled on the board. ``top`` is
    the session's top counted in scores to beat: the results expected on a board less one
    (None: the most results on any board less one); a board's matchpoint top is twice it.
    Every board is scored on that top, whether one call scores the session or each board.
    A board with fewer real results is factored up by Neuberg's formula; an artificial
    adjusted result gets its percentage of the matchpoint top (Law 12C2)."""
    by_board = _by_board(results)
    if top is None:
        top = max((len(indexes) for indexes in by_board.values()), default=1) - 1
    if top < 0:
        raise ValueError(f"a top is the number of scores to beat, 0 or more, not {top}")
    expected, mp_top = top + 1, 2 * top
    scored: dict[int, Scored] = {}
    for board, indexes in by_board.items():
        if len(indexes) > expected:
            raise ValueError(f"board {board} has {len(indexes)} results; a top of {top} "
                             f"allows {expected}")
        real = [i for i in indexes if results[i].adjusted is None]
        for i in indexes:
            result = results[i]
            if result.adjusted is not None:
                ns_pc, ew_pc = result.adjusted
                scored[i] = Scored(result, float(Fraction(mp_top * ns_pc, 100)),
                                   float(Fraction(mp_top * ew_pc, 100)), float(ns_pc),
                                   float(ew_pc))
                continue
            # Each side is compared with the same side of the other real results: NS with NS
            # and EW with EW, so a split score (Law 12C1(d)) gives each side its own, and a
            # weighted one (12C1(c)) is compared score by score, weight by weight.
            ns_raw = sum(_beaten(result.side(True), results[j].side(True))
                         for j in real if j != i)
            ew_raw = sum(_beaten(_negated(result.side(False)), _negated(results[j].side(False)))
                         for j in real if j != i)
            ns = _neuberg(ns_raw, len(real), expected)
            ew = _neuberg(ew_raw, len(real), expected)
            # A top of 0 (one table in the session) has nothing to compare: average, 50 %.
            ns_pc_exact = Fraction(100 * ns, mp_top) if mp_top else Fraction(50)
            ew_pc_exact = Fraction(100 * ew, mp_top) if mp_top else Fraction(50)
            scored[i] = Scored(result, float(ns), float(ew), float(ns_pc_exact),
                               float(ew_pc_exact))
    return [scored[i] for i in range(len(results))]


# -- IMPs ---------------------------------------------------------------------------------

# Law 86A: in IMP scoring average plus is +3 IMPs and average minus −3; average is 0. Other
# percentages have no IMP equivalent in the Laws, so they are refused rather than guessed.
IMP_AVERAGES: Final[Mapping[int, int]] = {60: 3, 50: 0, 40: -3}


def _imp_award(percent: int, result: BoardResult) -> int:
    award = IMP_AVERAGES.get(percent)
    if award is None:
        raise ValueError(f"board {result.board}, {result.ns} v {result.ew}: {percent} % has no "
                         "IMP equivalent; IMP scoring takes 60, 50 or 40 % (+3, 0, -3 IMPs)")
    return award


Sides = list[list[tuple[Fraction, int]]]  # each real result's weighted NS scores, one side's


def _imp_field(results: Sequence[BoardResult],
               against_field: Callable[[Sides], list[Fraction]]) -> list[Scored]:
    """IMPs for each result: ``against_field`` turns a board's real results, as one side's
    weighted NS scores each, into that side's NS IMPs; it is asked once for the NS sides and
    once for the EW sides (the same for table results; different for a split score, Law
    12C1(d)). Artificial results get their IMP equivalents, each side its own."""
    scored: dict[int, Scored] = {}
    for indexes in _by_board(results).values():
        real = [i for i in indexes if results[i].adjusted is None]
        ns_imps = against_field([results[i].side(True) for i in real])
        ew_imps = against_field([results[i].side(False) for i in real])
        for i, ns, ew in zip(real, ns_imps, ew_imps, strict=True):
            scored[i] = Scored(results[i], float(ns), float(-ew), None, None)
        for i in indexes:
            result = results[i]
            if result.adjusted is not None:
                ns_pc, ew_pc = result.adjusted
                scored[i] = Scored(result, float(_imp_award(ns_pc, result)),
                                   float(_imp_award(ew_pc, result)), None, None)
    return [scored[i] for i in range(len(results))]


def _weighted_imps(ours: list[tuple[Fraction, int]], theirs: list[tuple[Fraction, int]]
                   ) -> Fraction:
    # Law 12C1(c): a weighted score's IMPs are the IMPs of each of its scores, weighted.
    return sum((w1 * w2 * imps(a - b) for w1, a in ours for w2, b in theirs), Fraction(0))


def _cross(sides: Sides) -> list[Fraction]:
    # Each score against every other, IMPed (Law 78B), divided by the number of comparisons
    # so a board counts the same however many times it was played. A lone score has none: 0.
    comparisons = max(len(sides) - 1, 1)
    return [sum((_weighted_imps(side, other) for j, other in enumerate(sides) if j != i),
                Fraction(0)) / comparisons for i, side in enumerate(sides)]


def cross_imps(results: Sequence[BoardResult]) -> list[Scored]:
    """Cross-IMPs: each real result IMPed against every other on its board, averaged over
    the comparisons (so the IMPs are per comparison, not summed)."""
    return _imp_field(results, _cross)


DATUMS: Final = ("trimmed", "mean")


def butler_datum(scores: Sequence[int | Fraction], method: str = "trimmed") -> int:
    """The Butler datum of a board's NS scores, rounded to the nearest 10 (a 5 away from 0).

    "mean" is the mean of every score. "trimmed" first leaves out the highest and the lowest
    10 % of the scores (rounded down), at least one each when there are 5 or more, so a
    single wild result does not move everyone's datum; with fewer than 5 it is the mean.
    No law fixes the datum: Law 78D leaves the method to the Regulating Authority. A
    weighted score (Law 12C1(c)) counts as its weighted mean."""
    if method not in DATUMS:
        raise ValueError(f"a datum is one of {', '.join(DATUMS)}, not {method!r}")
    if not scores:
        raise ValueError("a datum needs at least one score")
    ordered = sorted(scores)
    cut = max(1, len(ordered) // 10) if method == "trimmed" and len(ordered) >= 5 else 0
    kept = ordered[cut:len(ordered) - cut]
    mean = Fraction(sum(kept, Fraction(0)), len(kept))
    tens = math.floor(abs(mean) / 10 + Fraction(1, 2))
    return 10 * tens if mean >= 0 else -10 * tens


def butler(results: Sequence[BoardResult], datum: str = "trimmed") -> list[Scored]:
    """Butler: each real result IMPed against its board's :func:`butler_datum`."""
    if datum not in DATUMS:
        raise ValueError(f"a datum is one of {', '.join(DATUMS)}, not {datum!r}")

    def against_datum(sides: Sides) -> list[Fraction]:
        means = [sum((w * s for w, s in side), Fraction(0)) for side in sides]
        level = butler_datum(means, datum) if sides else 0
        return [_weighted_imps(side, [(Fraction(1), level)]) for side in sides]

    return _imp_field(results, against_datum)


def team_match(results: Sequence[BoardResult]) -> list[Scored]:
    """A two-table team match: each board at both tables, a team NS at one and EW at the
    other. The board's IMPs (Law 78B on the net of the two scores) are each team's, and
    *both* tables' :class:`Scored` carry them for their NS and EW team; :func:`rankings`
    counts a participant once per board. An artificial score at either table replaces the
    swing: each team gets its award (Law 86A), the mean of its awards if both tables have one.
    A board with one real result only has nothing to compare: 0 each."""
    teams = sorted({p for result in results for p in (result.ns, result.ew)})
    if len(teams) > 2:
        raise ValueError(f"a team match is between two teams, not {teams}")
    scored: dict[int, Scored] = {}
    for board, indexes in _by_board(results, once=False).items():
        tables = [results[i] for i in indexes]
        if len(tables) > 2:
            raise ValueError(f"board {board} has {len(tables)} results; a match has 2 tables")
        if len(tables) == 2 and tables[0].ns == tables[1].ns:
            raise ValueError(f"board {board}: team {tables[0].ns} sits NS at both tables")
        board_imps: dict[int, Fraction] = defaultdict(Fraction)
        awards: dict[int, list[int]] = defaultdict(list)
        for table in tables:
            if table.adjusted is not None:
                awards[table.ns].append(_imp_award(table.adjusted[0], table))
                awards[table.ew].append(_imp_award(table.adjusted[1], table))
        if awards:
            board_imps.update({team: Fraction(sum(a), len(a)) for team, a in awards.items()})
        elif len(tables) == 2:
            first, second = tables
            # The team NS at the first table is EW at the second: its net is the difference,
            # each team's own side of a split score (Law 12C1(d)), weighted (12C1(c)).
            board_imps.update({
                first.ns: _weighted_imps(first.side(True), second.side(False)),
                first.ew: -_weighted_imps(first.side(False), second.side(True))})
        for i, table in zip(indexes, tables, strict=True):
            scored[i] = Scored(table, float(board_imps[table.ns]), float(board_imps[table.ew]),
                               None, None)
    return [scored[i] for i in range(len(results))]


def session_percent_rule(scored: Sequence[Scored], plus: int, mp_top: int) -> list[Scored]:
    """Law 12C2(a) as a regulation may apply it: a side given average plus (an artificial
    score of ``plus`` % or more, not at fault) gets instead its percentage on the boards it
    played with a real result, when that is greater. Matchpoints only (``mp_top`` is the
    board's matchpoint top); the other lines are given back unchanged."""
    own: dict[int, list[float]] = defaultdict(list)
    for item in scored:
        if item.result.adjusted is None and item.ns_percent is not None \
                and item.ew_percent is not None:
            own[item.result.ns].append(item.ns_percent)
            own[item.result.ew].append(item.ew_percent)
    changed: list[Scored] = []
    for item in scored:
        if item.result.adjusted is None or item.ns_percent is None or item.ew_percent is None:
            changed.append(item)
            continue
        ns_pc, ew_pc = item.ns_percent, item.ew_percent
        if ns_pc >= plus and own[item.result.ns]:
            ns_pc = max(ns_pc, _mean(own[item.result.ns]))
        if ew_pc >= plus and own[item.result.ew]:
            ew_pc = max(ew_pc, _mean(own[item.result.ew]))
        changed.append(Scored(item.result, mp_top * ns_pc / 100, mp_top * ew_pc / 100,
                              ns_pc, ew_pc))
    return changed


# -- standings ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Standing:
    participant: int
    group: str
    boards: int
    score: float
    percent: float | None
    rank: int
    rank_label: str
    penalty: float = 0.0  # Laws 90, 91: taken off ``score`` (and ``percent``) already


METHODS: Final = tuple(Method)
_Row = tuple[int, int, float, float | None, float]  # participant, boards, score, percent,
# penalty


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def rankings(scored: Iterable[Scored], groups: Mapping[int, str] | None = None,
             method: str = Method.MP, penalties: Mapping[int, float] | None = None,
             mp_top: float | None = None) -> list[Standing]:
    """Each participant's total and rank within its group, sorted by group then rank.

    A participant's score on a board is the mean of its results there: one in a pairs event,
    the two tables of a team match (which carry the same IMPs). MP: ``score`` is the total
    and ``percent`` the mean of the board percentages, which is the total over the most it
    could have scored since every board shares the session's top; ranked by percent, so
    pairs who played different numbers of boards compare fairly. IMP: ranked by total.
    ``groups`` gives the ranking group ("NS"/"EW" in a two-winner Mitchell); None is one.

    ``penalties`` (Laws 90, 91) are each participant's total penalty in the ranking's unit
    (matchpoints or IMPs), taken off its score before ranking; in matchpoints it comes off the
    percentage too, over the most the participant could have scored (its boards times
    ``mp_top``, the matchpoint top of a board). ``Standing.penalty`` shows it apart."""
    if method not in METHODS:
        raise ValueError(f"a ranking method is one of {', '.join(METHODS)}, not {method!r}")
    method = Method(method)
    boards: dict[int, dict[int, list[tuple[float, float | None]]]] = defaultdict(
        lambda: defaultdict(list))
    for item in scored:
        result = item.result
        boards[result.ns][result.board].append((item.ns, item.ns_percent))
        boards[result.ew][result.board].append((item.ew, item.ew_percent))
    rows: dict[str, list[_Row]] = defaultdict(list)
    for participant, played in boards.items():
        if groups is not None and participant not in groups:
            raise ValueError(f"participant {participant} has no ranking group")
        group = "" if groups is None else groups[participant]
        score = math.fsum(_mean([points for points, _ in entries]) for entries in played.values())
        percent = None
        if method is Method.MP:
            percents = [pc for entries in played.values() for _, pc in entries]
            if any(pc is None for pc in percents):
                raise ValueError(f"participant {participant} has IMP scores; rank them by "
                                 f"{Method.IMPS.value!r}")
            percent = _mean([_mean([pc for _, pc in entries if pc is not None])
                             for entries in played.values()])
        penalty = float((penalties or {}).get(participant, 0.0))
        if penalty:
            score -= penalty
            if percent is not None:
                if not mp_top:
                    raise ValueError("a penalty in matchpoints needs the board's matchpoint "
                                     "top, and a session of one table has none")
                percent -= 100 * penalty / (len(played) * mp_top)
        rows[group].append((participant, len(played), score, percent, penalty))
    return [standing for group in sorted(rows) for standing in _ranked(group, rows[group])]


def _ranked(group: str, rows: list[_Row]) -> list[Standing]:
    def key(row: _Row) -> float:
        return row[3] if row[3] is not None else row[2]

    rows = sorted(rows, key=lambda row: (-key(row), row[0]))
    ranks: list[int] = []
    for position, row in enumerate(rows, 1):
        # Equal to within float noise is equal: the same matchpoints added in another order
        # must tie, and every rank is a whole number of places (1, 2=, 2=, 4).
        tied = bool(ranks) and math.isclose(key(row), key(rows[ranks[-1] - 1]),
                                            rel_tol=1e-9, abs_tol=1e-9)
        ranks.append(ranks[-1] if tied else position)
    shared = Counter(ranks)
    standings = [Standing(participant, group, boards, score, percent, rank,
                          f"{rank}=" if shared[rank] > 1 else str(rank), penalty)
                 for (participant, boards, score, percent, penalty), rank
                 in zip(rows, ranks, strict=True)]
    return sorted(standings, key=lambda standing: (standing.rank, standing.participant))


# -- a Swiss round's matches' IMPs ------------------------------------------------------------

def swiss_match_imps(results: Sequence[BoardResult]) -> list[Scored]:
    """Each result's IMPs in its own match: the results of a round grouped by the two teams
    that met, each group a two-table match (``fieldscore.team_match``, Law 78B)."""
    groups: dict[tuple[int, frozenset[int]], list[int]] = defaultdict(list)
    for index, result in enumerate(results):
        groups[(result.round or 0, frozenset((result.ns, result.ew)))].append(index)
    scored: dict[int, Scored] = {}
    for indexes in groups.values():
        for index, item in zip(indexes, team_match([results[i] for i in indexes]),
                               strict=True):
            scored[index] = item
    return [scored[i] for i in range(len(results))]
