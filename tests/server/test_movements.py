"""Movements (docs/movements.md): properties over many sizes, then seatings checked by hand
against the rules and against seed 004."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from server.setup.movements import (
    PHANTOM,
    Movement,
    MovementError,
    Seating,
    howell,
    individual,
    mitchell,
    movement,
    partnership,
    scrambled_mitchell,
    teams,
)

MITCHELLS = [mitchell(pairs, 2) for pairs in range(5, 31)]  # 3 to 15 tables, odd and even
CURTAILED_MITCHELLS = [mitchell(pairs, 3, rounds, first_board=5)
                       for pairs in (7, 8, 12, 15, 16) for rounds in (1, 2, (pairs + 1) // 2 - 1)]
HOWELLS = [howell(pairs, 2) for pairs in range(4, 33)]
CURTAILED_HOWELLS = [howell(pairs, 3, rounds, first_board=9)
                     for pairs in (5, 6, 9, 10, 12) for rounds in (1, 3, (pairs - 1) // 2 * 2)]
OTHERS = [teams(4, 3), teams(1, 1, first_board=7), individual(), individual(first_board=13)]
SCRAMBLED = [scrambled_mitchell(pairs, 2) for pairs in range(5, 31)] + [
    scrambled_mitchell(pairs, 3, rounds, first_board=5) for pairs in (7, 12) for rounds in (1, 4)]
ALL = MITCHELLS + CURTAILED_MITCHELLS + HOWELLS + CURTAILED_HOWELLS + OTHERS + SCRAMBLED


def _name(plan: Movement) -> str:
    real = sum(1 for p in plan.participants if not p.phantom)
    return f"{plan.kind}-{real}-r{plan.rounds}-b{plan.boards_per_round}"


def _full(plan: Movement) -> bool:
    return plan in MITCHELLS or plan in HOWELLS


def _has_phantom(plan: Movement) -> bool:
    return any(p.phantom for p in plan.participants)


def _people(plan: Movement, seating: Seating) -> list[tuple[int, str]]:
    """Who sits at this table: the players of the individual, the real pairs of a pairs
    movement; in a teams match a team is at both tables, so its pair sitting NS or EW."""
    if seating.ns_players is not None and seating.ew_players is not None:
        return [(player, "") for player in (*seating.ns_players, *seating.ew_players)]
    if plan.kind == "teams":
        return [(seating.ns, "NS"), (seating.ew, "EW")]
    return [(who, "") for who in (seating.ns, seating.ew) if who != PHANTOM]


def _chairs(seating: Seating) -> tuple[tuple[str, int], tuple[str, int]]:
    """Where the two pairs sit: an arrow-switched table turns its boards, not its players,
    so the pair playing North-South there sits in the East-West chairs."""
    if seating.switched:
        return ("ew", seating.ns), ("ns", seating.ew)
    return ("ns", seating.ns), ("ew", seating.ew)


def _seats_of(plan: Movement, round: int, who: int) -> list[tuple[int, str]]:
    return [(seating.table, side) for seating in plan.round(round)
            for side, there in _chairs(seating) if there == who]


every_movement = pytest.mark.parametrize("plan", ALL, ids=_name)


# -- the shape of every movement -------------------------------------------------------------

@every_movement
def test_every_table_has_one_seating_each_round(plan: Movement) -> None:
    assert len(plan.seatings) == plan.tables * plan.rounds
    for number in range(1, plan.rounds + 1):
        assert [s.table for s in plan.round(number)] == list(range(1, plan.tables + 1))
        assert all(s.round == number for s in plan.round(number))


@every_movement
def test_everyone_sits_at_exactly_one_table_each_round(plan: Movement) -> None:
    real = sorted(p.number for p in plan.participants if not p.phantom)
    for number in range(1, plan.rounds + 1):
        seated = [who for s in plan.round(number) for who in _people(plan, s)]
        assert len(set(seated)) == len(seated)
        assert sorted({number for number, _ in seated}) == real


@every_movement
def test_nobody_plays_a_board_twice(plan: Movement) -> None:
    played: Counter[tuple[tuple[int, str], int]] = Counter(
        (who, board) for s in plan.seatings for who in _people(plan, s) for board in s.boards)
    assert set(played.values()) == {1}


@every_movement
def test_a_table_plays_a_round_of_boards_unless_it_is_a_sit_out(plan: Movement) -> None:
    for s in plan.seatings:
        assert s.sit_out == (PHANTOM in (s.ns, s.ew))
        assert len(s.boards) == (0 if s.sit_out else plan.boards_per_round)
        if s.boards:  # consecutive numbers: one board set
            assert list(s.boards) == list(range(s.boards[0], s.boards[-1] + 1))


@every_movement
def test_a_table_never_sees_a_board_twice(plan: Movement) -> None:
    # Results are told apart by table and board (Movement.find): the pair must be unique.
    seen = Counter((s.table, board) for s in plan.seatings for board in s.boards)
    assert set(seen.values()) == {1}


@every_movement
def test_boards_in_play_are_numbered_from_the_first_without_gaps(plan: Movement) -> None:
    first = min(s.boards[0] for s in plan.seatings if s.boards)
    assert first in (1, 5, 7, 9, 13)
    boards = plan.boards()
    assert boards == list(range(first, first + len(boards)))
    assert len(boards) % plan.boards_per_round == 0
    # Round 1 hands out the first sets in table order.
    opening = [s.boards[0] for s in plan.round(1) if s.boards]
    assert opening == sorted(opening) and opening[0] == first


@every_movement
def test_participants(plan: Movement) -> None:
    numbers = [p.number for p in plan.participants]
    assert len(set(numbers)) == len(numbers) and min(numbers) >= 1
    assert len({p.label for p in plan.participants}) == len(numbers)
    phantoms = {p.number for p in plan.participants if p.phantom}
    assert len(phantoms) <= 1
    if plan.kind != "individual":
        seated = {who for s in plan.seatings for who in (s.ns, s.ew)}
        assert seated - {PHANTOM} == set(numbers) - phantoms
    groups = {p.group for p in plan.participants}
    assert groups == ({"NS", "EW"} if plan.kind == "mitchell" else {""})


def _plays_boards_evenly(plan: Movement) -> bool:
    """All but a curtailed Howell, and a curtailed Mitchell with a sit-out table."""
    curtailed_mitchell = plan in CURTAILED_MITCHELLS or (plan in SCRAMBLED
                                                         and plan.rounds < plan.tables)
    return plan not in CURTAILED_HOWELLS and not (curtailed_mitchell and _has_phantom(plan))


@pytest.mark.parametrize("plan", [plan for plan in ALL if _plays_boards_evenly(plan)], ids=_name)
def test_every_board_is_played_equally_often(plan: Movement) -> None:
    times = Counter(board for s in plan.seatings for board in s.boards)
    expected = {"mitchell": plan.rounds - _has_phantom(plan),
                "scrambled_mitchell": plan.rounds - _has_phantom(plan),
                "howell": plan.tables - _has_phantom(plan), "teams": 2, "individual": 1}
    assert set(times.values()) == {expected[plan.kind]}


@every_movement
def test_schedule_and_find_agree(plan: Movement) -> None:
    for board in plan.boards():
        scheduled = plan.schedule(board)
        assert scheduled == [s for s in plan.seatings if board in s.boards]
        assert scheduled and not any(s.sit_out for s in scheduled)
        for s in scheduled:
            assert plan.find(s.table, board) == s
        elsewhere = set(range(1, plan.tables + 1)) - {s.table for s in scheduled}
        assert all(plan.find(table, board) is None for table in elsewhere)
    assert plan.schedule(max(plan.boards()) + 1) == []


@every_movement
def test_next_seats_are_where_the_pairs_sit_next_round(plan: Movement) -> None:
    for s in plan.seatings:
        for (side, who), goes in zip(_chairs(s), (s.next_ns, s.next_ew), strict=True):
            if s.round == plan.rounds or who == PHANTOM:
                assert goes is None
                continue
            there = _seats_of(plan, s.round + 1, who)
            if plan.kind == "individual":
                assert there == [] and goes is None  # partnerships last one round
            elif plan.kind == "teams":
                assert there == [(1, "ns"), (2, "ew")] if who == 1 else [(1, "ew"), (2, "ns")]
                assert goes is None  # a team's pair keeps its seat
            else:
                assert len(there) == 1
                assert goes == (None if there[0] == (s.table, side) else there[0][0])


@every_movement
def test_next_boards_is_where_the_boards_go(plan: Movement) -> None:
    for s in plan.seatings:
        if s.round == plan.rounds:
            assert s.next_boards is None
            continue
        if not s.boards:
            continue  # a resting set: checked for the Mitchell below
        later = [t for t in plan.seatings if t.round > s.round and s.boards[0] in t.boards]
        again = [t.table for t in later if t.round == later[0].round]
        # They go where they are played next, perhaps resting at a sit-out table first.
        until = later[0].round if later else plan.rounds + 1
        resting = {t.table for t in plan.seatings if t.sit_out and s.round < t.round < until}
        if not resting:
            assert s.next_boards == (again[0] if later else None)
        else:
            assert s.next_boards in {*again, *resting} or (not later and s.next_boards is None)


# -- Mitchell --------------------------------------------------------------------------------

@pytest.mark.parametrize("plan", MITCHELLS + CURTAILED_MITCHELLS, ids=_name)
def test_mitchell_ns_stays_ew_moves_up_and_boards_move_down(plan: Movement) -> None:
    tables = plan.tables
    for s in plan.seatings:
        assert s.ns in (s.table, PHANTOM) and s.next_ns is None
        if s.round == plan.rounds:
            continue
        skip = tables % 2 == 0 and s.round == tables // 2
        assert s.next_ew == (s.table + (2 if skip else 1) - 1) % tables + 1
        assert s.next_boards == (s.table - 2) % tables + 1  # the sit-out table's too


@pytest.mark.parametrize("plan", MITCHELLS + CURTAILED_MITCHELLS, ids=_name)
def test_mitchell_ew_pairs_meet_each_ns_pair_once_but_for_the_revenge_round(
        plan: Movement) -> None:
    tables = plan.tables
    met = Counter((s.ew, s.table) for s in plan.seatings)
    revenge = plan.rounds == tables and tables % 2 == 0
    for ew in range(tables + 1, 2 * tables + 1):
        start = ew - tables
        for table in range(1, tables + 1):
            if revenge and table == start:
                assert met[ew, table] == 2  # round 1 and the last round
            elif revenge and table == (start + tables // 2 - 1) % tables + 1:
                assert met[ew, table] == 0  # the table skipped
            elif plan.rounds == tables:
                assert met[ew, table] == 1
            else:
                assert met[ew, table] <= 1


@pytest.mark.parametrize("plan", MITCHELLS, ids=_name)
def test_mitchell_every_pair_plays_every_board_unless_sitting_out(plan: Movement) -> None:
    boards = set(plan.boards())
    for pair in plan.participants:
        if pair.phantom:
            assert all(pair.number not in (s.ns, s.ew) for s in plan.seatings)
            continue
        seatings = [s for s in plan.seatings if pair.number in (s.ns, s.ew)]
        played = {board for s in seatings for board in s.boards}
        rested = sum(s.sit_out for s in seatings)
        assert len(played) == len(boards) - rested * plan.boards_per_round


@pytest.mark.parametrize("pairs", [p for p in range(5, 31) if p % 2])
def test_mitchell_phantom_is_ns_at_the_last_table(pairs: int) -> None:
    plan = mitchell(pairs, 2)
    tables = plan.tables
    assert [p.number for p in plan.participants if p.phantom] == [tables]
    assert [(s.round, s.table) for s in plan.seatings if s.sit_out] == [
        (r, tables) for r in range(1, tables + 1)]
    rests = Counter(s.ew for s in plan.seatings if s.sit_out)
    if tables % 2:
        assert rests == Counter(range(tables + 1, 2 * tables + 1))
    else:  # the revenge round: the pair that sat out first sits out last, one pair never
        assert rests[2 * tables] == 2 and rests[tables + tables // 2] == 0
        assert not _has_sit_out_twice(mitchell(pairs, 2, tables - 1))


def _has_sit_out_twice(plan: Movement) -> bool:
    return max(Counter(s.ew for s in plan.seatings if s.sit_out).values()) > 1


def test_three_table_mitchell_by_hand() -> None:
    plan = mitchell(6, 3)
    assert [p.label for p in plan.participants] == ["1 NS", "2 NS", "3 NS",
                                                     "1 EW", "2 EW", "3 EW"]
    # Round 2: EW 3 has come up from table 3 to table 1, boards 4-6 down from table 2.
    assert plan.at(2, 1) == Seating(round=2, table=1, ns=1, ew=6, boards=(4, 5, 6),
                                    next_ns=None, next_ew=2, next_boards=3)
    assert plan.at(3, 3) == Seating(round=3, table=3, ns=3, ew=4, boards=(4, 5, 6),
                                    next_ns=None, next_ew=None, next_boards=None)


def test_four_table_skip_mitchell_by_hand() -> None:
    plan = mitchell(8, 2)
    # EW 2 starts at table 2, goes to 3, skips table 4 after round 2, and meets NS 2 again.
    assert [(s.round, s.table) for s in plan.seatings if s.ew == 6] == [
        (1, 2), (2, 3), (3, 1), (4, 2)]
    assert plan.at(2, 3).next_ew == 1
    assert [s.boards for s in plan.seatings if s.ew == 6] == [(3, 4), (7, 8), (5, 6), (1, 2)]


def test_docs_example() -> None:
    assert movement("mitchell", 14, 3).at(2, 1) == Seating(
        round=2, table=1, ns=1, ew=14, boards=(4, 5, 6), next_ns=None, next_ew=2,
        next_boards=7)


def test_five_pair_mitchell_by_hand() -> None:
    plan = mitchell(5, 2)
    assert plan.tables == 3
    assert plan.at(1, 3) == Seating(round=1, table=3, ns=PHANTOM, ew=6, boards=(),
                                    next_ns=None, next_ew=1, next_boards=2)
    assert plan.at(1, 3).sit_out and not plan.at(1, 1).sit_out
    assert [p.label for p in plan.participants if p.phantom] == ["3 NS"]


# -- Howell ----------------------------------------------------------------------------------

@pytest.mark.parametrize("plan", HOWELLS, ids=_name)
def test_howell_every_pair_meets_every_other_once(plan: Movement) -> None:
    met = Counter(frozenset((s.ns, s.ew)) for s in plan.seatings if not s.sit_out)
    real = [p.number for p in plan.participants if not p.phantom]
    assert met == Counter(frozenset(two) for two in itertools.combinations(real, 2))
    rests = Counter(s.ns + s.ew for s in plan.seatings if s.sit_out)
    assert rests == (Counter(real) if _has_phantom(plan) else Counter())


@pytest.mark.parametrize("plan", HOWELLS + CURTAILED_HOWELLS, ids=_name)
def test_howell_tables_share_boards_only_where_no_howell_can_avoid_it(plan: Movement) -> None:
    shared = {s.round for s in plan.seatings for t in plan.seatings
              if s.round == t.round and s.table < t.table and s.boards and s.boards == t.boards}
    pairs = sum(1 for p in plan.participants if not p.phantom)
    if pairs == 4:
        assert shared == set(range(1, plan.rounds + 1))
    elif pairs in (5, 6) and plan.rounds == 5:
        assert shared == {5}
    else:
        assert shared == set()


@pytest.mark.parametrize("plan", HOWELLS + CURTAILED_HOWELLS, ids=_name)
def test_howell_stationary_pair_and_sit_out(plan: Movement) -> None:
    stationary = 2 * plan.tables
    for s in plan.round(1) + plan.round(plan.rounds):
        if s.table == 1:
            assert s.ns == (PHANTOM if _has_phantom(plan) else stationary)
        else:
            assert not s.sit_out
    assert all(p.phantom == (p.number == stationary and _has_phantom(plan))
               for p in plan.participants)


def test_eight_pair_howell_by_hand() -> None:
    plan = howell(8, 2)
    assert (plan.tables, plan.rounds) == (4, 7)
    assert [(s.ns, s.ew, s.boards) for s in plan.round(1)] == [
        (8, 1, (1, 2)), (2, 7, (3, 4)), (3, 6, (5, 6)), (4, 5, (7, 8))]
    # Round 2: NS pairs move down, 2 to table 1 EW; EW pairs up, 5 turns NS at table 4.
    assert [(s.ns, s.ew) for s in plan.round(2)] == [(8, 2), (3, 1), (4, 7), (5, 6)]
    assert [(s.next_ns, s.next_ew) for s in plan.round(1)] == [
        (None, 2), (1, 3), (2, 4), (3, 4)]  # 5 keeps table 4 but changes direction


def test_five_pair_howell_sits_out_at_table_1() -> None:
    plan = howell(5, 2)
    assert [s.ew for s in plan.seatings if s.sit_out] == [1, 2, 3, 4, 5]
    assert plan.at(3, 1).boards == () and plan.at(3, 1).sit_out


def test_curtailed_howell_plays_the_first_rounds() -> None:
    full, part = howell(12, 2), howell(12, 2, rounds=8)
    played = [s for s in full.seatings if s.round <= 8]
    assert [(s.round, s.table, s.ns, s.ew, s.boards) for s in part.seatings] == [
        (s.round, s.table, s.ns, s.ew, s.boards) for s in played]
    assert [(s.next_ns, s.next_ew) for s in part.seatings if s.round < 8] == [
        (s.next_ns, s.next_ew) for s in played if s.round < 8]
    assert part.boards() == list(range(1, 2 * 11 + 1))


# -- teams and the individual ----------------------------------------------------------------

def test_teams_by_hand() -> None:
    plan = teams(8, 2, first_board=17)
    assert [p.label for p in plan.participants] == ["Team 1", "Team 2"]
    assert [(s.round, s.table, s.ns, s.ew, s.boards[0], s.boards[-1]) for s in plan.seatings] == [
        (1, 1, 1, 2, 17, 24), (1, 2, 2, 1, 17, 24), (2, 1, 1, 2, 25, 32), (2, 2, 2, 1, 25, 32)]
    assert all(s.next_ns is s.next_ew is s.next_boards is None for s in plan.seatings)


def test_individual_follows_seed_004() -> None:
    plan = individual()
    assert [p.label for p in plan.participants] == [f"Player {n}" for n in range(1, 5)]
    # The seed's three drawings, South at the bottom: (N, S) and (E, W) each partida.
    assert [(s.ns_players, s.ew_players, s.boards) for s in plan.seatings] == [
        ((3, 1), (4, 2), (1, 2, 3, 4)), ((4, 1), (2, 3), (5, 6, 7, 8)),
        ((2, 1), (3, 4), (9, 10, 11, 12))]
    assert [(s.ns, s.ew) for s in plan.seatings] == [(13, 24), (14, 23), (12, 34)]


def test_individual_every_player_partners_every_other_once() -> None:
    plan = individual(first_board=5)
    partners = Counter(frozenset(side) for s in plan.seatings
                       for side in (s.ns_players, s.ew_players) if side is not None)
    assert partners == Counter(frozenset(two) for two in itertools.combinations(range(1, 5), 2))
    for s in plan.seatings:
        assert s.ns_players is not None and s.ew_players is not None
        assert s.ns == partnership(*s.ns_players) and s.ew == partnership(*s.ew_players)
        assert s.ns_players[1] == 1  # "no se moverá a lo largo de las tres partidas"
    assert plan.boards() == list(range(5, 17))


# -- the dispatcher and the director's mistakes ----------------------------------------------

@pytest.mark.parametrize(("kind", "participants", "boards", "rounds", "built"), [
    ("mitchell", 9, 2, None, mitchell(9, 2)),
    (" Mitchell ", 10, 3, 4, mitchell(10, 3, 4)),
    ("howell", 7, 2, None, howell(7, 2)),
    ("HOWELL", 10, 2, 5, howell(10, 2, 5)),
    ("teams", 2, 6, 4, teams(6, 4)),
    ("individual", 4, 4, None, individual()),
    ("individual", 4, 4, 3, individual()),
])
def test_movement_dispatches(kind: str, participants: int, boards: int, rounds: int | None,
                             built: Movement) -> None:
    assert movement(kind, participants, boards, rounds) == built


@pytest.mark.parametrize(("kind", "participants", "boards", "rounds", "first", "message"), [
    ("mitchell", 4, 2, None, 1, "at least 5 pairs"),
    ("mitchell", 1, 2, None, 1, "at least 5 pairs"),
    ("mitchell", 10, 0, None, 1, "at least 1 board"),
    ("mitchell", 10, 2, 6, 1, "1 to 5 rounds, not 6"),
    ("mitchell", 9, 2, 0, 1, "1 to 5 rounds, not 0"),
    ("mitchell", 10, 2, None, 0, "first board cannot be 0"),
    ("howell", 3, 2, None, 1, "at least 4 pairs"),
    ("howell", 33, 2, None, 1, "at most 32 pairs"),
    ("howell", 8, 2, 8, 1, "1 to 7 rounds, not 8"),
    ("howell", 8, -1, None, 1, "at least 1 board"),
    ("teams", 3, 4, 2, 1, "2 teams, not 3"),
    ("teams", 2, 4, None, 1, "how many rounds"),
    ("teams", 2, 4, 0, 1, "at least 1 round"),
    ("individual", 5, 4, None, 1, "4 players, not 5"),
    ("individual", 4, 3, None, 1, "3 rounds of 4 boards"),
    ("individual", 4, 4, 2, 1, "3 rounds of 4 boards"),
    ("swiss", 8, 2, None, 1, "say how many rounds the Swiss has"),
    ("swiss", 8, 2, 8, 1, "1 to 7 rounds"),
    ("baro_mitchell", 10, 2, 6, 1, "1 to 5 rounds"),
    ("pivot", 8, 2, None, 1, "unknown movement 'pivot'"),
])
def test_impossible_set_ups_say_why(kind: str, participants: int, boards: int,
                                    rounds: int | None, first: int, message: str) -> None:
    with pytest.raises(MovementError, match=message):
        movement(kind, participants, boards, rounds, first)


def test_asking_for_a_round_or_table_that_does_not_exist() -> None:
    plan = mitchell(10, 2)
    assert isinstance(MovementError("x"), ValueError)
    with pytest.raises(MovementError, match="rounds 1 to 5, not 6"):
        plan.round(6)
    with pytest.raises(MovementError, match="rounds 1 to 5, not 0"):
        plan.at(0, 1)
    with pytest.raises(MovementError, match="tables 1 to 5, not 6"):
        plan.at(1, 6)
