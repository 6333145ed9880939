"""Field scoring: Law 78A matchpoints and Neuberg's formula, Law 78B cross-IMPs, Butler and a
team match, Law 12C2 adjusted scores, the rankings, and a real club session.

Every expected number was worked out by hand (the reasoning is beside it), never by the code
under test. Matchpoints are 2 a score beaten, 1 a score equalled; a board played n times has a
matchpoint top of 2 × (n − 1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from laws import Seat, parse_contract, pbn
from laws.scoring import score_ns
from server.scoring.fieldscore import (
    BoardResult,
    Scored,
    butler,
    butler_datum,
    cross_imps,
    matchpoints,
    parse_adjusted,
    rankings,
    team_match,
)

Method = Callable[[Sequence[BoardResult]], list[Scored]]
RECORDS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "records"


def field(scores: Sequence[int | tuple[int, int]], board: int = 1) -> list[BoardResult]:
    """One board's results: pairs 1 v 2, 3 v 4, ...; a tuple is an artificial (NS %, EW %)."""
    return [BoardResult(board, 2 * i + 1, 2 * i + 2, None, score)
            if isinstance(score, tuple) else BoardResult(board, 2 * i + 1, 2 * i + 2, score)
            for i, score in enumerate(scores)]


def approx(values: Sequence[float | Fraction]) -> object:
    return pytest.approx([float(v) for v in values], abs=1e-9)


# -- adjusted scores as the director writes them (Law 12C2; Law 12C1 is a real score) ------

@pytest.mark.parametrize(("text", "expected"), [
    ("A60/40", (60, 40)), ("60/40", (60, 40)), ("A60/A40", (60, 40)), ("55%/45%", (55, 45)),
    ("A+/A-", (60, 40)), ("A-/A+", (40, 60)), ("A=/A=", (50, 50)), ("A/A", (50, 50)),
    ("A-/A-", (40, 40)), ("A+/A+", (60, 60)), ("A+/A=", (60, 50)), ("a+ / a-", (60, 40)),
    ("A 60 / 40 %", (60, 40)), ("A +/A -", (60, 40)),
    ("A+", (60, 40)), ("A-", (40, 60)), ("A=", (50, 50)), ("A", (50, 50)), ("A70", (70, 30)),
    ("100/0", (100, 0)),
    ("assigned", None), ("Assigned", None), (None, None), ("", None), ("  ", None),
])
def test_parse_adjusted(text: str | None, expected: tuple[int, int] | None) -> None:
    assert parse_adjusted(text) == expected


@pytest.mark.parametrize("text", [
    "B60/40", "60/", "/40", "110/40", "A+/A-/A=", "A++", "60.5/39.5", "average", "-10/110",
    "A 6 0/40", "60/40x", "+3",
])
def test_parse_adjusted_refuses_garbage(text: str) -> None:
    with pytest.raises(ValueError, match="not an adjusted score"):
        parse_adjusted(text)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"ns": 3, "ew": 3, "score_ns": 420}, "against itself"),
    ({"ns": 1, "ew": 2, "score_ns": None}, "neither a score"),
    ({"ns": 1, "ew": 2, "score_ns": None, "adjusted": (110, 40)}, "0 to 100"),
])
def test_a_board_result_must_be_scorable(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BoardResult(board=1, **kwargs)  # type: ignore[arg-type]


# -- Law 78A: matchpoints --------------------------------------------------------------------

@pytest.mark.parametrize(("scores", "ns_mp"), [
    # 430 beats three (6); each 400 beats one and ties one (3); -50 beats none. Top 6.
    ([430, 400, 400, -50], [6, 3, 3, 0]),
    # All equal: each ties the other two. Top 4.
    ([100, 100, 100], [2, 2, 2]),
    ([-100, 50, 110, 140, 620], [0, 2, 4, 6, 8]),
    # 620 beats three and ties one: 7; 170 beats one and ties one: 3. Top 8.
    ([620, 620, 170, 170, -100], [7, 7, 3, 3, 0]),
    # A passed-out board scores 0 and is compared like any other score.
    ([0, 50, -50], [2, 4, 0]),
])
def test_matchpoints(scores: list[int], ns_mp: list[int]) -> None:
    top = 2 * (len(scores) - 1)
    scored = matchpoints(field(scores))
    assert [s.ns for s in scored] == approx(ns_mp)
    assert [s.ew for s in scored] == approx([top - mp for mp in ns_mp])
    assert [s.ns_percent for s in scored] == approx([Fraction(100 * mp, top) for mp in ns_mp])
    assert [s.ew_percent for s in scored] == approx(
        [100 - Fraction(100 * mp, top) for mp in ns_mp])


def test_matchpoint_percentages_of_a_tie_at_the_top() -> None:
    # 620, 620, 170, 170, -100 on a top of 8: 7/8, 3/8, 0/8 for NS.
    scored = matchpoints(field([620, 620, 170, 170, -100]))
    assert [s.ns_percent for s in scored] == approx([87.5, 87.5, 37.5, 37.5, 0])
    assert [s.ew_percent for s in scored] == approx([12.5, 12.5, 62.5, 62.5, 100])


# Neuberg: MP = (raw + 1) × E / A − 1, raw scored among the A results, E expected.
@pytest.mark.parametrize(("scores", "top", "ns_mp"), [
    # The EBU's worked example: 10 results where 11 were expected (top 20). Each result
    # stands for 1.1: the sole top is 19 × 1.1 − 1 = 19.9, then steps of 2.2, the bottom 0.1.
    ([520, 500, 490, 480, 460, 450, 430, 420, 400, -50], 10,
     [19.9, 17.7, 15.5, 13.3, 11.1, 8.9, 6.7, 4.5, 2.3, 0.1]),
    # 3 results of 4 (top 6): each 100 has raw 3 -> 4 × 4/3 − 1 = 13/3; 50 -> 4/3 − 1 = 1/3.
    ([100, 100, 50], 3, [Fraction(13, 3), Fraction(13, 3), Fraction(1, 3)]),
    # A lone result of 3 expected (top 4): 1 × 3 − 1 = 2, the average.
    ([200], 2, [2]),
    # As many results as expected: Neuberg changes nothing.
    ([100, 50], 1, [2, 0]),
])
def test_neuberg(scores: list[int], top: int, ns_mp: list[float | Fraction]) -> None:
    scored = matchpoints(field(scores), top=top)
    assert [s.ns for s in scored] == approx(ns_mp)
    assert [s.ns + s.ew for s in scored] == approx([2 * top] * len(scores))


def test_neuberg_takes_the_top_from_the_fullest_board() -> None:
    # Board 1 is played 3 times (top 4); board 2 twice, so E = 3, A = 2: the 100 has raw 2,
    # (2 + 1) × 3/2 − 1 = 3.5; the 50 has raw 0, 3/2 − 1 = 0.5.
    results = field([300, 200, 100], board=1) + field([100, 50], board=2)
    scored = matchpoints(results)
    assert [s.ns for s in scored] == approx([4, 2, 0, 3.5, 0.5])
    assert [s.ns_percent for s in scored] == approx([100, 50, 0, 87.5, 12.5])
    # A lone result on such a board is average: 50 %.
    lone = matchpoints(field([300, 200, 100], board=1) + field([-800], board=2))
    assert (lone[-1].ns, lone[-1].ns_percent) == (2, 50)


def test_a_session_of_one_table_is_average() -> None:
    # Top 0: nothing to compare, so 0 matchpoints and 50 % each (an artificial score keeps
    # its own percentages).
    scored = matchpoints(field([420], board=1) + field([(60, 40)], board=2))
    assert [(s.ns, s.ew, s.ns_percent, s.ew_percent) for s in scored] == [
        (0, 0, 50, 50), (0, 0, 60, 40)]


@pytest.mark.parametrize(("adjusted", "ns_mp", "ew_mp"), [
    # Law 12C2: each side gets its own percentage of the top (6): 60 % = 3.6, 40 % = 2.4.
    ((60, 40), 3.6, 2.4), ((40, 60), 2.4, 3.6), ((50, 50), 3, 3), ((40, 40), 2.4, 2.4),
    ((60, 60), 3.6, 3.6), ((60, 50), 3.6, 3),
])
def test_artificial_scores_among_real_ones(adjusted: tuple[int, int], ns_mp: float,
                                           ew_mp: float) -> None:
    # Four tables; one has an artificial score, so the three real results are factored from
    # A = 3 to E = 4: 420 has raw 4, 5 × 4/3 − 1 = 17/3; 170 raw 2, 3; -50 raw 0, 1/3.
    scored = matchpoints(field([420, 170, -50, adjusted]))
    assert [s.ns for s in scored] == approx([Fraction(17, 3), 3, Fraction(1, 3), ns_mp])
    assert scored[3].ew == pytest.approx(ew_mp)
    assert (scored[3].ns_percent, scored[3].ew_percent) == adjusted
    assert scored[0].ns_percent == pytest.approx(100 * 17 / 18)


@pytest.mark.parametrize(("results", "top", "message"), [
    (field([100, 50, 0]), 1, "a top of 1 allows 2"),
    (field([100, 50]), -1, "0 or more"),
    ([BoardResult(1, 1, 2, 100), BoardResult(1, 1, 4, 50)], None, "participant 1"),
    ([BoardResult(1, 1, 2, 100), BoardResult(1, 3, 1, 50)], None, "participant 1"),
])
def test_matchpoints_refuse_an_impossible_field(results: list[BoardResult], top: int | None,
                                                message: str) -> None:
    with pytest.raises(ValueError, match=message):
        matchpoints(results, top=top)


def test_results_come_back_in_the_order_given() -> None:
    results = [BoardResult(2, 1, 2, 100), BoardResult(1, 1, 2, 420), BoardResult(1, 3, 4, 170),
               BoardResult(2, 3, 4, 50)]
    scored = matchpoints(results)
    assert [s.result for s in scored] == results
    assert [s.ns for s in scored] == approx([2, 2, 0, 0])


# -- Law 78B: cross-IMPs -----------------------------------------------------------------------

@pytest.mark.parametrize(("scores", "ns_imps"), [
    # 420 v 420: 0, v 170 (250): 6, v -50 (470): 10; 16 over 3 comparisons.
    # 170: -6, -6, v -50 (220): 6; -6/3 = -2. -50: -10, -10, -6; -26/3.
    ([420, 420, 170, -50], [Fraction(16, 3), Fraction(16, 3), -2, Fraction(-26, 3)]),
    # 1430 v 680 (750): 13, v 650 (780): 13 -> 13. 680: -13, v 650 (30): 1 -> -6. 650: -7.
    ([1430, 680, 650], [13, -6, -7]),
    ([620, 170], [10, -10]),      # 450: 10 IMPs
    ([100], [0]),                 # nothing to compare
])
def test_cross_imps(scores: list[int], ns_imps: list[float | Fraction]) -> None:
    scored = cross_imps(field(scores))
    assert [s.ns for s in scored] == approx(ns_imps)
    assert [s.ew for s in scored] == approx([-v for v in ns_imps])
    assert all(s.ns_percent is None and s.ew_percent is None for s in scored)


# Law 86A: average plus +3 IMPs, average 0, average minus -3; each side its own.
@pytest.mark.parametrize(("adjusted", "ns_imps", "ew_imps"), [
    ((60, 40), 3, -3), ((40, 60), -3, 3), ((50, 50), 0, 0), ((40, 40), -3, -3),
    ((60, 60), 3, 3),
])
@pytest.mark.parametrize("method", [cross_imps, butler, team_match])
def test_artificial_scores_in_imps(method: Method, adjusted: tuple[int, int], ns_imps: int,
                                   ew_imps: int) -> None:
    results = [BoardResult(1, 1, 2, 620), BoardResult(2, 1, 2, None, adjusted)]
    scored = method(results)
    assert (scored[1].ns, scored[1].ew) == (ns_imps, ew_imps)


@pytest.mark.parametrize("method", [cross_imps, butler, team_match])
def test_imp_scoring_refuses_a_percentage_with_no_imp_equivalent(method: Method) -> None:
    with pytest.raises(ValueError, match="no IMP equivalent"):
        method([BoardResult(1, 1, 2, None, (70, 30))])


def test_real_results_beside_an_artificial_one_compare_among_themselves() -> None:
    scored = cross_imps(field([620, 170, (60, 40)]))
    assert [(s.ns, s.ew) for s in scored] == [(10, -10), (-10, 10), (3, -3)]


# -- Butler -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("scores", "method", "expected"), [
    ([420, 420, 170, -50], "trimmed", 240),             # fewer than 5: the mean, 960/4
    ([420, 420, 170, -50], "mean", 240),
    ([1000, 420, 420, 420, 420], "trimmed", 420),       # 5: without 1000 and one 420
    ([1000, 420, 420, 420, 420], "mean", 540),          # 2680/5 = 536
    ([1430, 680, 650, 650, 620, -100], "trimmed", 650),  # 2600/4
    ([1430, 680, 650, 650, 620, -100], "mean", 660),    # 3930/6 = 655: a 5 goes away from 0
    ([-1430, -680, -650, -650, -620, 100], "mean", -660),
    ([100, 110], "mean", 110), ([-100, -110], "mean", -110), ([104], "mean", 100),
    ([96], "mean", 100), ([-96], "mean", -100), ([0], "trimmed", 0),
    # 19 scores: 10 % rounds down to 1 each end: (4000 + 15 × 100 − 3000)/17 = 147.06.
    ([5000, 4000, *[100] * 15, -3000, -9000], "trimmed", 150),
    # 20 scores: 2 each end leave sixteen 100s.
    ([5000, 4000, *[100] * 16, -3000, -9000], "trimmed", 100),
])
def test_butler_datum(scores: list[int], method: str, expected: int) -> None:
    assert butler_datum(scores, method) == expected


@pytest.mark.parametrize(("scores", "datum", "ns_imps"), [
    # datum 240: 180 -> 5, -70 -> -2, -290 -> -7
    ([420, 420, 170, -50], "trimmed", [5, 5, -2, -7]),
    # datum 420: 580 -> 11; the 420s 0
    ([1000, 420, 420, 420, 420], "trimmed", [11, 0, 0, 0, 0]),
    # datum 540: 460 -> 10; -120 -> -3
    ([1000, 420, 420, 420, 420], "mean", [10, -3, -3, -3, -3]),
    ([-800], "trimmed", [0]),
])
def test_butler(scores: list[int], datum: str, ns_imps: list[int]) -> None:
    scored = butler(field(scores), datum=datum)
    assert [s.ns for s in scored] == ns_imps
    assert [s.ew for s in scored] == [-v for v in ns_imps]


def test_butler_refuses_an_unknown_datum() -> None:
    with pytest.raises(ValueError, match="datum"):
        butler(field([100, 50]), datum="median")
    with pytest.raises(ValueError, match="datum"):
        butler_datum([100], "median")
    with pytest.raises(ValueError, match="at least one"):
        butler_datum([], "mean")


# -- a two-table team match -------------------------------------------------------------------

@pytest.mark.parametrize(("team1_ns", "team2_ns", "team1_imps"), [
    (620, 170, 10),       # team 1 +620 and -170: 450
    (-100, -620, 11),     # team 1 -100 and +620: 520
    (420, 420, 0),        # a flat board
    (50, 110, -2),        # -60
    (-1430, 1430, -21),   # -2860
])
def test_team_match_swing(team1_ns: int, team2_ns: int, team1_imps: int) -> None:
    scored = team_match([BoardResult(1, 1, 2, team1_ns, table=1),
                         BoardResult(1, 2, 1, team2_ns, table=2)])
    # Each table carries the board's IMPs for its NS team and its EW team.
    assert (scored[0].ns, scored[0].ew) == (team1_imps, -team1_imps)
    assert (scored[1].ns, scored[1].ew) == (-team1_imps, team1_imps)


@pytest.mark.parametrize(("first", "second", "team1_imps"), [
    ((60, 40), 450, 3),        # artificial at one table: it replaces the swing
    ((50, 50), 450, 0),
    ((60, 40), (40, 60), 3),   # team 1 not at fault at both tables: the mean of 3 and 3
    ((60, 40), (50, 50), 1.5),
])
def test_team_match_artificial(first: tuple[int, int], second: int | tuple[int, int],
                               team1_imps: float) -> None:
    table2 = (BoardResult(1, 2, 1, None, second) if isinstance(second, tuple)
              else BoardResult(1, 2, 1, second))
    scored = team_match([BoardResult(1, 1, 2, None, first), table2])
    assert (scored[0].ns, scored[1].ew) == (team1_imps, team1_imps)
    assert (scored[0].ew, scored[1].ns) == (-team1_imps, -team1_imps)


@pytest.mark.parametrize(("results", "message"), [
    ([BoardResult(1, 1, 2, 100), BoardResult(2, 3, 1, 100)], "two teams"),
    ([BoardResult(1, 1, 2, 100), BoardResult(1, 1, 2, 100)], "NS at both tables"),
    ([BoardResult(1, 1, 2, 100), BoardResult(1, 2, 1, 100), BoardResult(1, 1, 2, 50)],
     "2 tables"),
])
def test_team_match_refuses_what_is_not_a_match(results: list[BoardResult],
                                                message: str) -> None:
    with pytest.raises(ValueError, match=message):
        team_match(results)


def test_team_match_rankings_count_each_board_once() -> None:
    # Boards: +10, +11, 0, -2 for team 1 (the swings above): 19 IMPs over 4 boards.
    swings = [(620, 170), (-100, -620), (420, 420), (50, 110)]
    results = [BoardResult(board, ns, ew, score)
               for board, (one, two) in enumerate(swings, 1)
               for ns, ew, score in ((1, 2, one), (2, 1, two))]
    standings = rankings(team_match(results), method="imps")
    assert [(s.participant, s.boards, s.score, s.rank_label) for s in standings] == [
        (1, 4, 19, "1"), (2, 4, -19, "2")]


# -- rankings ---------------------------------------------------------------------------------

def mp(board: int, ns: int, ew: int, ns_mp: float, top: float) -> Scored:
    return Scored(BoardResult(board, ns, ew, 0), ns_mp, top - ns_mp, 100 * ns_mp / top,
                  100 * (top - ns_mp) / top)


@pytest.mark.parametrize(("totals", "labels"), [
    ([60, 55, 55, 40], ["1", "2=", "2=", "4"]),
    ([50, 50, 50], ["1=", "1=", "1="]),
    ([70, 60, 50], ["1", "2", "3"]),
    ([10, 10, 5, 5], ["1=", "1=", "3=", "3="]),
    ([-3, 7, -3, 12], ["3=", "2", "3=", "1"]),
])
def test_rank_labels(totals: list[int], labels: list[str]) -> None:
    # Participant p scores its total on one board against a stand-in 100 + p, ranked apart.
    scored = [Scored(BoardResult(1, p, 100 + p, 0), total, -total, None, None)
              for p, total in enumerate(totals, 1)]
    groups = {p: "field" for p in range(1, len(totals) + 1)}
    groups.update({100 + p: "stand-ins" for p in range(1, len(totals) + 1)})
    field_rows = [s for s in rankings(scored, groups, method="imps") if s.group == "field"]
    assert {s.participant: s.rank_label for s in field_rows} == dict(
        enumerate(labels, 1))
    assert [s.rank for s in field_rows] == sorted(s.rank for s in field_rows)


def test_mitchell_ranks_each_direction_apart() -> None:
    # Two tables, two boards; NS pairs 1 and 2 stay, EW pairs 3 and 4 move.
    # Board 1: 1 v 3 +420, 2 v 4 +400 -> 1: 2, 2: 0; 3: 0, 4: 2.
    # Board 2: 1 v 4 +100, 2 v 3 +100 -> 1 each. Totals 1: 3, 2: 1, 3: 1, 4: 3 of 4.
    results = [BoardResult(1, 1, 3, 420), BoardResult(1, 2, 4, 400),
               BoardResult(2, 1, 4, 100), BoardResult(2, 2, 3, 100)]
    groups = {1: "NS", 2: "NS", 3: "EW", 4: "EW"}
    standings = rankings(matchpoints(results), groups)
    assert [(s.group, s.participant, s.boards, s.score, s.percent, s.rank_label)
            for s in standings] == [
        ("EW", 4, 2, 3, 75, "1"), ("EW", 3, 2, 1, 25, "2"),
        ("NS", 1, 2, 3, 75, "1"), ("NS", 2, 2, 1, 25, "2")]


def test_matchpoint_ranking_goes_by_percentage() -> None:
    # Pair 1 sat out a round: 9 + 9 of 24 (75 %); pair 2 scored 8.4 three times, 25.2 of 36
    # (70 %). More matchpoints, lower percentage: pair 1 wins.
    scored = [mp(1, 1, 3, 9, 12), mp(2, 1, 3, 9, 12),
              mp(1, 2, 4, 8.4, 12), mp(2, 2, 4, 8.4, 12), mp(3, 2, 5, 8.4, 12)]
    groups = {1: "", 2: "", 3: "opp", 4: "opp", 5: "opp"}
    top = [s for s in rankings(scored, groups) if s.group == ""]
    assert [(s.participant, s.score, s.percent, s.rank) for s in top] == [
        (1, 18, 75, 1), (2, pytest.approx(25.2), pytest.approx(70), 2)]


@pytest.mark.parametrize("method", ["mp", "imps"])
def test_equal_totals_tie_despite_float_noise(method: str) -> None:
    # Neuberg's thirds: 13/3 + 1/3 and 14/3 + 0 are both 14/3, but not as floats
    # (4.666666666666666 and 4.666666666666667); the same matchpoints must still tie.
    scored = [mp(1, 1, 3, 13 / 3, 6), mp(2, 1, 3, 1 / 3, 6), mp(1, 2, 4, 14 / 3, 6),
              mp(2, 2, 4, 0, 6)]
    ns = [s for s in rankings(scored, {1: "", 2: "", 3: "EW", 4: "EW"}, method) if s.group == ""]
    assert [s.rank_label for s in ns] == ["1=", "1="]


@pytest.mark.parametrize(("scored", "groups", "method", "message"), [
    ([mp(1, 1, 2, 1, 2)], {1: "NS"}, "mp", "participant 2 has no ranking group"),
    ([mp(1, 1, 2, 1, 2)], None, "total", "ranking method"),
    ([Scored(BoardResult(1, 1, 2, 0), 3, -3, None, None)], None, "mp", "IMP scores"),
])
def test_rankings_refuse(scored: list[Scored], groups: dict[int, str] | None, method: str,
                         message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rankings(scored, groups, method=method)


# -- a real session: a Polish club barometer, 2013, 26 pairs, 27 boards, 13 tables each ----

@pytest.fixture(scope="module")
def club_session() -> list[BoardResult]:
    path = RECORDS / "club-pairs-2013-travellers.pbn"
    if not path.is_file():
        pytest.skip("../shared/data/records is not beside this checkout")
    results = []
    for record in pbn.load_path(path):
        assert record.board is not None and record.vulnerability is not None
        assert record.contract_tag is not None
        contract = parse_contract(record.contract_tag)  # "Pass" would be None, scoring 0
        declarer = (Seat.from_str(record.declarer_tag)
                    if contract is not None and record.declarer_tag else None)
        tricks = int(record.result_tag) if contract is not None and record.result_tag else None
        results.append(BoardResult(
            record.board, int(record.tags["North"].removeprefix("Para-")),
            int(record.tags["East"].removeprefix("Para-")),
            score_ns(contract, declarer, tricks, record.vulnerability)))
    return results


# The travellers, read from the file by eye and scored by hand (Law 77), with the NS
# matchpoints: 2 for each of the 12 other scores beaten, 1 for each equalled; top 24.
TRAVELLERS = {
    # None vulnerable. -250 (7C five down) < -150 < -100 < -50 ×4 < 400 ×3 < 430 ×3.
    # 430: beats 10, ties 2 = 22. 400: beats 7, ties 2 = 16. -50: beats 3, ties 3 = 9.
    1: [(1, 2, "3NT", "S", 8, -50, 9), (3, 4, "3NT", "S", 9, 400, 16),
        (5, 6, "3NT", "S", 10, 430, 22), (7, 8, "3NT", "S", 7, -100, 4),
        (9, 10, "3NT", "S", 10, 430, 22), (11, 12, "3NT", "S", 9, 400, 16),
        (13, 14, "2H", "N", 7, -50, 9), (15, 16, "3NT", "S", 9, 400, 16),
        (17, 18, "3NT", "S", 10, 430, 22), (19, 20, "3NT", "N", 8, -50, 9),
        (21, 22, "3NT", "S", 6, -150, 2), (23, 24, "7C", "S", 8, -250, 0),
        (25, 26, "3NT", "S", 8, -50, 9)],
    # Both vulnerable. 3NT+2 = 100 + 500 + 60 = 660; 4NT+2 = 130 + 500 + 60 = 690;
    # 6NT= 190 + 500 + 750 = 1440; 6NT-1 = -100. 1440 ×2: beats 11, ties 1 = 23;
    # 690: beats 10 = 20; 660 ×9: beats 1, ties 8 = 10.
    4: [(1, 14, "3NT", "S", 11, 660, 10), (2, 15, "6NT", "N", 11, -100, 0),
        (3, 16, "3NT", "S", 11, 660, 10), (4, 17, "4NT", "S", 12, 690, 20),
        (5, 18, "3NT", "S", 11, 660, 10), (6, 19, "3NT", "S", 11, 660, 10),
        (7, 20, "3NT", "S", 11, 660, 10), (8, 21, "3NT", "S", 11, 660, 10),
        (9, 22, "3NT", "N", 11, 660, 10), (10, 23, "6NT", "N", 12, 1440, 23),
        (11, 24, "6NT", "N", 12, 1440, 23), (12, 25, "3NT", "N", 11, 660, 10),
        (13, 26, "4NT", "S", 11, 660, 10)],
    # NS vulnerable, EW (declaring) not: 3NT+1 -430, 3NT+2 -460, 3S= -140.
    # -140 beats all 12 = 24 (the session's top); -430 ×7: beats 5, ties 6 = 16;
    # -460 ×5: ties 4 = 4.
    18: [(1, 4, "3NT", "E", 10, -430, 16), (24, 5, "3NT", "E", 11, -460, 4),
         (12, 8, "3NT", "E", 11, -460, 4), (9, 25, "3NT", "E", 10, -430, 16),
         (22, 11, "3NT", "E", 10, -430, 16), (17, 26, "3NT", "E", 10, -430, 16),
         (3, 10, "3NT", "E", 10, -430, 16), (20, 16, "3NT", "E", 11, -460, 4),
         (19, 15, "3NT", "E", 11, -460, 4), (21, 2, "3S", "W", 9, -140, 24),
         (18, 7, "3NT", "E", 10, -430, 16), (14, 6, "3NT", "E", 11, -460, 4),
         (13, 23, "3NT", "E", 10, -430, 16)],
    # None vulnerable. 2D-2 +100, 2D-3 +150, 2S+2 110, 1NT+1 120, 1NT= 90, 2NT= 120.
    # 150 ×2: beats 11, ties 1 = 23; 120 ×4: beats 7, ties 3 = 17; 110 ×2: beats 5,
    # ties 1 = 11; 100 ×3: beats 2, ties 2 = 6; 90 ×2: ties 1 = 1.
    27: [(5, 4, "2D", "E", 6, 100, 6), (14, 9, "2S", "S", 8, 110, 11),
         (1, 19, "1NT", "N", 8, 120, 17), (12, 25, "1NT", "N", 7, 90, 1),
         (16, 15, "2D", "E", 6, 100, 6), (17, 22, "2NT", "N", 8, 120, 17),
         (8, 24, "2D", "E", 5, 150, 23), (23, 11, "2S", "N", 8, 110, 11),
         (21, 3, "2NT", "N", 8, 120, 17), (10, 13, "2D", "E", 6, 100, 6),
         (18, 6, "1NT", "N", 7, 90, 1), (26, 2, "2D", "E", 5, 150, 23),
         (20, 7, "2NT", "N", 8, 120, 17)],
}


@pytest.mark.parametrize("board", sorted(TRAVELLERS))
def test_club_session_travellers(club_session: list[BoardResult], board: int) -> None:
    path = RECORDS / "club-pairs-2013-travellers.pbn"
    records = {r.tags["North"]: r for r in pbn.load_path(path) if r.board == board}
    scored = {s.result.ns: s for s in matchpoints(club_session) if s.result.board == board}
    assert len(scored) == len(TRAVELLERS[board]) == 13
    for ns, ew, contract, declarer, tricks, points, ns_mp in TRAVELLERS[board]:
        record = records[f"Para-{ns}"]
        assert (record.tags["East"], record.contract_tag, record.declarer_tag,
                record.result_tag) == (f"Para-{ew}", contract, declarer, str(tricks))
        s = scored[ns]
        assert (s.result.ew, s.result.score_ns) == (ew, points)
        assert (s.ns, s.ew) == (ns_mp, 24 - ns_mp)
        assert s.ns_percent == pytest.approx(100 * ns_mp / 24)
        assert s.ew_percent == pytest.approx(100 * (24 - ns_mp) / 24)


def test_club_session_top(club_session: list[BoardResult]) -> None:
    # Every board was played 13 times: the top is 12 scores to beat, 24 matchpoints, and
    # NS + EW make 24 on every result; the default top is the one the file implies.
    assert len(club_session) == 351
    scored = matchpoints(club_session)
    assert scored == matchpoints(club_session, top=12)
    assert {s.ns + s.ew for s in scored} == {24}
    assert max(s.ns for s in scored) == 24


def test_club_session_neuberg(club_session: list[BoardResult]) -> None:
    # Board 1 without the 7C table (pair 23 v 24): A = 12 of E = 13. Raw, then
    # (raw + 1) × 13/12 − 1: 430 (beats 9, ties 2) 20 -> 21.75; 400 (beats 6, ties 2) 14 ->
    # 15.25; -50 (beats 2, ties 3) 7 -> 23/3; -100 2 -> 2.25; -150 0 -> 1/12.
    # As an artificial A-/A+ instead, the table gets 40 % and 60 % of 24: 9.6 and 14.4.
    expected: dict[int, float | Fraction] = {
        430: 21.75, 400: 15.25, -50: Fraction(23, 3), -100: 2.25, -150: Fraction(1, 12)}
    board_1 = [r for r in club_session if r.board == 1]
    missing = [r for r in board_1 if r.ns != 23]
    adjusted = [*missing, BoardResult(1, 23, 24, None, (40, 60))]
    for results in (missing, adjusted):
        scored = matchpoints(results, top=12)
        real = [s for s in scored if s.result.adjusted is None]
        assert [s.ns for s in real] == approx([expected[s.result.points] for s in real])
    assert (scored[-1].ns, scored[-1].ew) == approx([9.6, 14.4])


def test_club_session_rankings(club_session: list[BoardResult]) -> None:
    # 26 pairs, each on all 27 boards; 351 results × 24 = 8424 matchpoints in all, and a
    # pair's percentage is its total over 27 × 24 = 648.
    standings = rankings(matchpoints(club_session))
    assert len(standings) == 26
    assert {s.boards for s in standings} == {27}
    assert sum(s.score for s in standings) == pytest.approx(8424)
    for s in standings:
        assert s.percent == pytest.approx(100 * s.score / 648)
    assert [s.rank for s in standings] == sorted(s.rank for s in standings)
    assert standings[0].rank == 1
