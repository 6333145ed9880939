"""The Swiss pairing rule (server/scoring/swiss.py): down the ranking, no rematch, backtracking when
the bottom teams have all met; the bye; the standings in VPs."""

from __future__ import annotations

import itertools
import random

import pytest

from server.scoring.fieldscore import BoardResult, swiss_match_imps
from server.scoring.swiss import (
    BYE_VP,
    Match,
    Pairing,
    SwissError,
    by_hand,
    pair,
    scored_matches,
    standings,
)
from server.setup.movements import PHANTOM, swiss


def test_round_one_is_by_team_number() -> None:
    assert pair([1, 2, 3, 4, 5, 6], []) == Pairing(((1, 2), (3, 4), (5, 6)), None)


def test_the_top_team_meets_the_best_it_has_not_met() -> None:
    assert pair([1, 2, 3, 4], [(1, 2)]) == Pairing(((1, 3), (2, 4)), None)


def test_backtracking_when_the_last_two_have_met() -> None:
    # Greedy: 1-2, then 3-4 is a rematch; undo: 1-3 and 2-4.
    assert pair([1, 2, 3, 4], [(3, 4)]) == Pairing(((1, 3), (2, 4)), None)


def test_backtracking_several_levels_deep() -> None:
    # 4, 5 and 6 have all met each other: each must meet one of 1, 2, 3, so the first
    # choices (1-2, then 1-3) are undone until 1 takes 4: 1-4, 2-5, 3-6.
    met = [(5, 6), (4, 5), (4, 6)]
    assert pair([1, 2, 3, 4, 5, 6], met) == Pairing(((1, 4), (2, 5), (3, 6)), None)


def _valid(found: Pairing, teams: int, met: list[tuple[int, int]]) -> bool:
    seated = [t for m in found.matches for t in m]
    return sorted(seated) == list(range(1, teams + 1)) and not (
        {frozenset(m) for m in found.matches} & {frozenset(m) for m in met})


def test_the_bye_goes_to_the_lowest_ranked_team_without_one() -> None:
    assert pair([3, 1, 2, 5, 4], []).bye == 4
    assert pair([3, 1, 2, 5, 4], [], byes=[4]).bye == 5
    # The bye moves up when the bottom teams could not otherwise be paired.
    found = pair([1, 2, 3, 4, 5], [(3, 4), (3, 5), (4, 5)], byes=[])
    assert found.bye in (3, 4, 5) and _valid_odd(found, 5, [(3, 4), (3, 5), (4, 5)])


def _valid_odd(found: Pairing, teams: int, met: list[tuple[int, int]]) -> bool:
    seated = sorted([t for m in found.matches for t in m] + [found.bye or 0])
    return seated == list(range(1, teams + 1)) and not (
        {frozenset(m) for m in found.matches} & {frozenset(m) for m in met})


def test_no_pairing_without_a_rematch_is_refused() -> None:
    everyone = list(itertools.combinations(range(1, 5), 2))
    with pytest.raises(SwissError, match="repeats a match"):
        pair([1, 2, 3, 4], everyone)


def test_a_round_paired_by_hand_is_read_as_typed() -> None:
    assert by_hand("1-4, 2-3", range(1, 5)) == Pairing(((1, 4), (2, 3)), None)
    assert by_hand(" 5 - 1 \n2-3,\n4 ", range(1, 6)) == Pairing(((5, 1), (2, 3)), 4)


@pytest.mark.parametrize(("text", "reason"), [
    ("1-4, 2-3, 5-6", "no teams 5, 6 in this Swiss"),
    ("1-4, 2-3, 7", "no team 7 in this Swiss"),
    ("1-4, 2-1, 3", "team 1 named more than once"),
    ("1-4", "teams 2, 3: no opponent nor the bye"),
    ("1-4, 2, 3", "only a Swiss of an odd number of teams has a bye"),
    ("1-4, 2-3-5", "'2-3-5' is not a match"),
    ("1-4; 2-3", "'1-4; 2-3' is not a match"),
    ("uno-dos, 3-4", "'uno-dos' is not a match"),
])
def test_a_pairing_by_hand_that_does_not_seat_every_team_once_is_refused(
        text: str, reason: str) -> None:
    with pytest.raises(SwissError) as refused:
        by_hand(text, range(1, 5))
    assert reason in str(refused.value)


@pytest.mark.parametrize("seed", range(20))
def test_a_whole_swiss_never_rematches(seed: int) -> None:
    teams = 12 + seed % 3  # 12, 13 and 14 teams
    chance = random.Random(seed)
    met: list[tuple[int, int]] = []
    byes: list[int] = []
    for _ in range(teams // 2 + 1):
        ranking = list(range(1, teams + 1))
        chance.shuffle(ranking)
        found = pair(ranking, met, byes)
        assert _valid(found, teams, met) if teams % 2 == 0 else _valid_odd(found, teams, met)
        assert found.bye is None or found.bye not in byes
        # The first match is the top team against the best team it had not met.
        top = ranking[0]
        assert found.matches[0][0] == top
        met += list(found.matches)
        byes += [found.bye] if found.bye else []


def test_match_imps_score_each_match_on_its_own() -> None:
    # Round 1 of a 4-team Swiss: 1 v 2 at tables 1-2, 3 v 4 at tables 3-4, board 1.
    results = [BoardResult(1, 1, 2, 420, table=1, round=1),
               BoardResult(1, 2, 1, 170, table=2, round=1),   # team 1 +250: 6 IMPs
               BoardResult(1, 3, 4, -100, table=3, round=1),
               BoardResult(1, 4, 3, -100, table=4, round=1)]  # team 3: -100 and +100: 0
    scored = swiss_match_imps(results)
    assert [(s.ns, s.ew) for s in scored] == [(6, -6), (-6, 6), (0, 0), (0, 0)]
    pairings = {1: Pairing(((1, 2), (3, 4)), None)}
    matches = scored_matches(pairings, scored, boards_per_round=8)
    assert matches[0] == Match(1, 1, 1, 2, 1, 6.0, -6.0, 12.42, 7.58)
    assert (matches[1].home_vp, matches[1].away_vp) == (10.0, 10.0)
    lines = standings([1, 2, 3, 4], matches, {2: 1.5})
    assert [(x.team, x.vp, x.rank_label) for x in lines] == [
        (1, 12.42, "1"), (3, 10.0, "2="), (4, 10.0, "2="), (2, 6.08, "4")]
    assert lines[-1].penalty == 1.5


def test_a_bye_scores_its_vps() -> None:
    matches = scored_matches({1: Pairing(((1, 2),), 3)}, [], boards_per_round=8)
    assert matches[-1].bye and matches[-1].home == 3 and matches[-1].away == PHANTOM
    assert standings([1, 2, 3], matches)[0].team == 3
    assert standings([1, 2, 3], matches)[0].vp == BYE_VP


def test_the_swiss_movement_seats_each_match_at_two_tables() -> None:
    plan = swiss(6, 2, 3, (((1, 2), (3, 4), (5, 6)),))
    first = [(s.table, s.ns, s.ew, s.boards) for s in plan.round(1)]
    assert first == [(1, 1, 2, (1, 2)), (2, 2, 1, (1, 2)), (3, 3, 4, (1, 2)),
                     (4, 4, 3, (1, 2)), (5, 5, 6, (1, 2)), (6, 6, 5, (1, 2))]
    assert all(s.sit_out and s.boards == (3, 4) for s in plan.round(2))  # not paired yet
    assert plan.boards() == [1, 2, 3, 4, 5, 6]
