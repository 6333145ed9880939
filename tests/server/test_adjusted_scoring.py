"""Adjusted scores in full (Law 12C) and penalties (Laws 90, 91) in the field's scores.

Every expected number is worked out by hand beside it, from the laws: Law 78A matchpoints
(2 a score beaten, 1 a score equalled), Law 78B IMPs, Law 12C1(c) weighted scores (each score
of the weighting compared, times its weight), Law 12C1(d) split scores (each side compared
with the same side of the field), Law 12C2 artificial scores, penalties taken off the total.
"""

from __future__ import annotations

import pytest

from server.scoring.fieldscore import (
    BoardResult,
    averages_of,
    butler,
    cross_imps,
    matchpoints,
    parse_adjusted,
    rankings,
    session_percent_rule,
    team_match,
)

WEIGHTED = ((30, 620), (70, -100))  # 30 % of 4H= (620, vulnerable) and 70 % of 4H-1 (-100)


def _lines(scored: list) -> list[tuple[float, float]]:  # type: ignore[type-arg]
    return [(round(x.ns, 6), round(x.ew, 6)) for x in scored]


def test_a_weighted_score_is_matchpointed_score_by_score() -> None:
    # Four tables, top 6. NS: 620, 620, 170 and the weighted score.
    # 620 v 620 = 1, v 170 = 2, v weighted = .3×1 + .7×2 = 1.7: 4.7; EW 6 − 4.7 = 1.3.
    # 170: 0 + 0 + (.3×0 + .7×2) = 1.4; EW 4.6.
    # weighted: v each 620 .3×1 + .7×0 = .3, twice = .6; v 170 .3×2 + .7×0 = .6: 1.2; EW 4.8.
    results = [BoardResult(1, 1, 2, 620), BoardResult(1, 3, 4, 620), BoardResult(1, 5, 6, 170),
               BoardResult(1, 7, 8, None, assigned=(WEIGHTED, WEIGHTED))]
    assert _lines(matchpoints(results)) == [(4.7, 1.3), (4.7, 1.3), (1.4, 4.6), (1.2, 4.8)]


def test_a_split_score_compares_each_side_with_its_own_side() -> None:
    # Three tables, top 4. NS scores 620, 170 and the split NS side's 620 (4H= for NS);
    # the split EW side is scored as 4H-1 (EW +100).
    # NS: 620 v 170 = 2, v 620 = 1: 3; 170: 0; split NS 620: 1 + 2 = 3.
    # EW (EW's points): -620 v -170 = 0, v +100 = 0: 0; -170 v -620 = 2, v +100 = 0: 2;
    # +100 beats both: 4. The split table's two sides add to 7, not the top: each side is
    # given what the director ruled for it.
    split = (((100, 620),), ((100, -100),))
    results = [BoardResult(1, 1, 2, 620), BoardResult(1, 3, 4, 170),
               BoardResult(1, 5, 6, None, assigned=split)]
    assert _lines(matchpoints(results)) == [(3, 0), (0, 2), (3, 4)]


def test_a_weighted_score_in_cross_imps() -> None:
    # 620 v 170 = +450 = 10 IMPs; 620 v weighted = .3×0 + .7×imps(720 = 12) = 8.4;
    # (10 + 8.4) / 2 = 9.2.
    # 170 v 620 = -10; v weighted = .3×imps(-450) + .7×imps(270) = -3 + 4.9: (-10 - 3 + 4.9)/2
    # = -4.05. Weighted: .3×(0 + 10) + .7×(-12 - 7) = 3 - 13.3 = -10.3, /2 = -5.15.
    results = [BoardResult(1, 1, 2, 620), BoardResult(1, 3, 4, 170),
               BoardResult(1, 5, 6, None, assigned=(WEIGHTED, WEIGHTED))]
    assert _lines(cross_imps(results)) == [(9.2, -9.2), (-4.05, 4.05), (-5.15, 5.15)]


def test_a_split_score_in_cross_imps() -> None:
    # NS sides 620, 170, 620: 620 v 170 +10, v 620 0: 10/2 = 5; 170: -10 -10 = -10;
    # split NS 620: 5. EW sides (NS points) 620, 170, -100: EW of 620: -(10 + 12)/2 = -11;
    # EW of 170: -(-10 + 7)/2 = 1.5; EW of -100: -(-12 - 7)/2 = 9.5.
    split = (((100, 620),), ((100, -100),))
    results = [BoardResult(1, 1, 2, 620), BoardResult(1, 3, 4, 170),
               BoardResult(1, 5, 6, None, assigned=split)]
    assert _lines(cross_imps(results)) == [(5, -11), (-10, 1.5), (5, 9.5)]


def test_a_weighted_score_in_butler_counts_in_the_datum_as_its_mean() -> None:
    # The weighted score's mean: .3×620 + .7×-100 = 116. Datum of 620, 620, 170, 116: 1526/4
    # = 381.5 -> 380 (four scores: none left out). 620: +240 = 6; 170: -210 = -5;
    # weighted: .3×imps(240) + .7×imps(-480) = 1.8 - 7 = -5.2.
    results = [BoardResult(1, 1, 2, 620), BoardResult(1, 3, 4, 620), BoardResult(1, 5, 6, 170),
               BoardResult(1, 7, 8, None, assigned=(WEIGHTED, WEIGHTED))]
    assert _lines(butler(results)) == [(6, -6), (6, -6), (-5, 5), (-5.2, 5.2)]


def test_a_weighted_score_in_a_team_match() -> None:
    # Team 1 NS at table 1 makes 620; at table 2 team 1 sits EW and the director weights
    # 30 % of 4H= by NS (620) and 70 % of 4H-1 (-100): .3×imps(0) + .7×imps(720) = 8.4.
    results = [BoardResult(1, 1, 2, 620, table=1),
               BoardResult(1, 2, 1, None, table=2, assigned=(WEIGHTED, WEIGHTED))]
    assert _lines(team_match(results)) == [(8.4, -8.4), (-8.4, 8.4)]


def test_a_weighted_score_must_add_up_to_a_whole() -> None:
    with pytest.raises(ValueError, match="add up to 100"):
        BoardResult(1, 1, 2, None, assigned=(((30, 620), (60, -100)),) * 2)
    with pytest.raises(ValueError, match="artificial"):
        BoardResult(1, 1, 2, None, (60, 40), assigned=(WEIGHTED, WEIGHTED))


@pytest.mark.parametrize(("text", "figures", "expected"), [
    ("A+/A-", (60, 50, 40), (60, 40)),
    ("A+/A-", (65, 50, 35), (65, 35)),  # the club's own figures
    ("A/A", (65, 50, 35), (50, 50)),
    ("A+", (70, 50, 30), (70, 30)),
    ("A60/40", (65, 50, 35), (60, 40)),  # a percentage written out stays as written
    ("weighted", (60, 50, 40), None), ("split", (60, 50, 40), None),
])
def test_the_club_figures_for_artificial_scores(text: str, figures: tuple[int, int, int],
                                                expected: tuple[int, int] | None) -> None:
    assert parse_adjusted(text, averages_of(*figures)) == expected


@pytest.mark.parametrize("figures", [(55, 50, 40), (60, 50, 45), (60, 70, 40)])
def test_figures_outside_law_12c2_are_refused(figures: tuple[int, int, int]) -> None:
    with pytest.raises(ValueError, match="12C2"):
        averages_of(*figures)


def test_a_side_not_at_fault_gets_its_session_percentage_when_greater() -> None:
    # Three boards of two tables (top 2). Pair 1's NS scores beat pair 3's on boards 1 and 2
    # (100 % each); on board 3 pair 1 gets A+ (60 %) against pair 7, at fault (A-). With the
    # rule pair 1 has its 100 % there too; pair 7, at fault, keeps its 40 %.
    results = [BoardResult(1, 1, 2, 620), BoardResult(1, 3, 4, 170),
               BoardResult(2, 1, 2, 100), BoardResult(2, 3, 4, -50),
               BoardResult(3, 1, 7, None, (60, 40)), BoardResult(3, 3, 4, 420)]
    plain = matchpoints(results, top=1)
    ruled = session_percent_rule(plain, 60, 2)
    by_line = {(x.result.board, x.result.ns): (x.ns_percent, x.ew_percent) for x in ruled}
    assert by_line[(3, 1)] == (100.0, 40.0)
    assert [x.ns for x in ruled if x.result.board == 3 and x.result.ns == 1] == [2.0]
    # A pair whose session is below 60 % keeps average plus.
    worse = [BoardResult(1, 1, 2, 170), BoardResult(1, 3, 4, 620),
             BoardResult(2, 1, 2, None, (60, 40)), BoardResult(2, 3, 4, 420)]
    ruled = session_percent_rule(matchpoints(worse, top=1), 60, 2)
    assert [x.ns_percent for x in ruled if x.result.board == 2 and x.result.ns == 1] == [60.0]


def test_a_penalty_comes_off_the_total_and_the_percentage() -> None:
    # Two boards of three tables (top 4 a board, 8 the session). Board 1: 620, 420, 170 ->
    # 4, 2, 0; board 2 the same pairs 100, 100, 100 -> 2 each. Pair 1: 6 of 8 = 75 %; a
    # penalty of 1 matchpoint (25 % of a top of 4) leaves 5 of 8 = 62.5 %.
    results = [BoardResult(1, 1, 2, 620), BoardResult(1, 3, 4, 420), BoardResult(1, 5, 6, 170),
               BoardResult(2, 1, 2, 100), BoardResult(2, 3, 4, 100), BoardResult(2, 5, 6, 100)]
    scored = matchpoints(results)
    plain = {st.participant: st for st in rankings(scored)}
    assert (plain[1].score, plain[1].percent, plain[1].penalty) == (6, 75, 0)
    fined = {st.participant: st for st in rankings(scored, penalties={1: 1.0}, mp_top=4)}
    assert (fined[1].score, fined[1].percent, fined[1].penalty) == (5, 62.5, 1.0)
    # Pair 1 and pair 4 (EW at table 2: 2 + 2 = 4, 50 %) are now 62.5 and 50: still 1st,
    # but a penalty of 2 more ties pair 1 with pair 4.
    tied = {st.participant: st for st in rankings(scored, penalties={1: 2.0}, mp_top=4)}
    assert tied[1].percent == tied[4].percent == 50
    assert tied[1].rank_label == tied[4].rank_label


def test_an_imp_penalty_comes_off_the_total() -> None:
    results = [BoardResult(1, 1, 2, 620), BoardResult(1, 3, 4, 170)]
    standings = {st.participant: st for st in rankings(cross_imps(results), method="imps",
                                                        penalties={1: 3.0})}
    assert (standings[1].score, standings[1].penalty) == (10 - 3, 3.0)  # 450 = 10 IMPs


def test_a_matchpoint_penalty_needs_a_top() -> None:
    results = [BoardResult(1, 1, 2, 620)]
    with pytest.raises(ValueError, match="top"):
        rankings(matchpoints(results), penalties={1: 1.0}, mp_top=None)
