"""Every pairs movement the set-up offers, at every table count it accepts, checked for
balance (issue 31): every pair meets those it should, once; every board is played the same
number of times; no pair plays a board twice, and no table sees one twice. Then the
registry of movement kinds, which every list and branch of the server derives from."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from server.setup.movements import _HOWELL_34 as HOWELL_34_TABLES
from server.setup.movements import (
    IN_SECTIONS,
    KINDS,
    OFFERED,
    PHANTOM,
    Movement,
    MovementError,
    Plays,
    movement,
)
from server.setup.scorings import Scoring

PAIRS_KINDS = [name for name in OFFERED if KINDS[name].plays is Plays.PAIRS]
MOST_PAIRS = 60  # 30 tables: past any club's room


def _accepted(kind: str) -> Iterator[Movement]:
    for pairs in range(3, MOST_PAIRS + 1):
        try:
            yield movement(kind, pairs, 2)
        except MovementError:
            continue


CASES = [(kind, plan) for kind in PAIRS_KINDS for plan in _accepted(kind)]


def _id(case: tuple[str, Movement]) -> str:
    kind, plan = case
    real = sum(1 for p in plan.participants if not p.phantom)
    return f"{kind}-{real}pairs-{plan.tables}tables"


every = pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])


def test_every_pairs_kind_accepts_the_usual_table_counts() -> None:
    """Each kind plays the room sizes it is for: a share-and-relay Mitchell every even
    number of tables from 4, an appendix table every odd number of pairs from 9."""
    tables = {kind: sorted({plan.tables for k, plan in CASES if k == kind})
              for kind in PAIRS_KINDS}
    assert tables["mitchell_relay"] == list(range(4, 31, 2))
    appendix = sorted({sum(not p.phantom for p in plan.participants)
                       for kind, plan in CASES if kind == "mitchell_appendix"})
    assert appendix == list(range(9, MOST_PAIRS, 2))
    assert tables["howell"] == list(range(2, 17))
    assert tables["howell_34"] == sorted(HOWELL_34_TABLES)
    assert tables["mitchell"] == tables["scrambled_mitchell"] == list(range(3, 31))


@every
def test_no_pair_plays_a_board_twice_and_no_table_sees_one_twice(
        case: tuple[str, Movement]) -> None:
    _, plan = case
    played = Counter((who, board) for s in plan.seatings for who in (s.ns, s.ew)
                     if who != PHANTOM for board in s.boards)
    assert set(played.values()) == {1}
    seen = Counter((s.table, board) for s in plan.seatings for board in s.boards)
    assert set(seen.values()) == {1}


@every
def test_every_board_is_played_the_same_number_of_times(case: tuple[str, Movement]) -> None:
    kind, plan = case
    times = Counter(board for s in plan.seatings for board in s.boards)
    phantom = any(p.phantom for p in plan.participants)
    expected = {"howell": plan.tables - phantom, "barometer": plan.tables - phantom,
                # every set once at every table, the phantom's table resting
                "howell_34": plan.tables - phantom,
                "baro_mitchell": plan.tables - phantom,
                "mitchell": plan.rounds - phantom,
                "scrambled_mitchell": plan.rounds - phantom,
                # T sets, each once at every place of its circuit: twice at the shared place,
                # never on the relay stand; a phantom at the shared table 8 plays it once.
                "mitchell_relay": plan.tables - phantom,
                # the base's sets: each at the base's tables and once more at the appendix
                "mitchell_appendix": plan.rounds + 1}
    assert set(times.values()) == {expected[kind]}, times


@every
def test_every_pair_meets_those_it_should_once(case: tuple[str, Movement]) -> None:
    kind, plan = case
    met = Counter(frozenset((s.ns, s.ew)) for s in plan.seatings if not s.sit_out)
    assert set(met.values()) == {1} or (kind in ("mitchell", "scrambled_mitchell")
                                        and plan.tables % 2 == 0)
    real = {p.number for p in plan.participants if not p.phantom}
    ns = {p.number for p in plan.participants if p.group == "NS" and not p.phantom}
    ew = {p.number for p in plan.participants if p.group == "EW" and not p.phantom}
    if kind in ("howell", "barometer"):  # one winner: every pair meets every other
        assert len(met) == len(real) * (len(real) - 1) // 2
    elif kind in ("mitchell_relay", "baro_mitchell"):  # every EW pair meets every NS pair
        assert met.keys() == {frozenset((a, b)) for a in ns for b in ew}
    elif kind == "howell_34":  # every pair plays every set once, but at its sit-out
        boards = set(plan.boards())
        for pair in real:
            mine = [b for s in plan.seatings if pair in (s.ns, s.ew) and not s.sit_out
                    for b in s.boards]
            sat_out = any(pair in (s.ns, s.ew) and s.sit_out for s in plan.seatings)
            assert len(mine) == len(boards) - (plan.boards_per_round if sat_out else 0)
    elif kind == "mitchell_appendix":  # every pair plays every round but its sit-out
        opponents = Counter(who for pair in met for who in pair)
        assert set(opponents[p] for p in ns) == {plan.rounds}
        assert set(opponents[p] for p in ew) <= {plan.rounds, plan.rounds - 1}


def test_the_share_and_relay_mitchell_by_hand() -> None:
    """Eight tables: tables 1 and 8 share, the relay stand sits between tables 4 and 5;
    boards go down a table, from table 5 to the stand and from the stand to table 4."""
    plan = movement("mitchell_relay", 16, 3)
    first = plan.round(1)
    assert first[0].boards == first[7].boards == (1, 2, 3)
    assert len({s.boards for s in first}) == 7  # seven sets in play, one on the stand
    rested = set(plan.boards()) - {b for s in first for b in s.boards}
    assert len(rested) == 3
    assert [s.ew for s in plan.round(2)] == [16, 9, 10, 11, 12, 13, 14, 15]  # EW up one
    # Table 5's boards rest on the stand in round 2 and are played at table 4 in round 3.
    assert first[4].next_boards == 4
    assert plan.at(3, 4).boards == first[4].boards
    assert not any(first[4].boards == s.boards for s in plan.round(2))


def test_the_appendix_mitchell_by_hand() -> None:
    """Five tables and a half (11 pairs): four sets on the base tables 1-4, table 5 shares
    table 1's, table 6 is the half table's sit-out; four rounds."""
    plan = movement("mitchell_appendix", 11, 2)
    assert (plan.tables, plan.rounds) == (6, 4)
    first = plan.round(1)
    assert [s.boards for s in first] == [(1, 2), (3, 4), (5, 6), (7, 8), (1, 2), ()]
    assert first[5].sit_out and first[5].ew == 12  # EW 6, the half table's pair
    assert plan.at(2, 1).ew == 12  # ... plays at table 1 next


def test_first_board() -> None:
    for kind, pairs in (("mitchell", 14), ("mitchell_relay", 16), ("mitchell_appendix", 11),
                        ("howell", 10), ("barometer", 8), ("baro_mitchell", 10)):
        plan = movement(kind, pairs, 2, first_board=25)
        assert min(plan.boards()) == 25 and max(plan.boards()) == 24 + len(plan.boards())


def test_every_kind_is_whole() -> None:
    for kind in KINDS.values():
        assert kind.words.es and kind.words.en
        assert kind.default_scoring in kind.scorings
        assert all(isinstance(s, Scoring) for s in kind.scorings)
    assert set(IN_SECTIONS) <= {name for name in KINDS if KINDS[name].plays is Plays.PAIRS}
    assert "sections" not in OFFERED


def test_an_unknown_kind_names_the_choices() -> None:
    with pytest.raises(MovementError, match="mitchell_relay"):
        movement("web", 10, 2)


@pytest.mark.parametrize(("kind", "pairs", "why"), [
    ("mitchell_relay", 10, "even number of tables"),
    ("mitchell_appendix", 10, "odd number of pairs"),
    ("mitchell_appendix", 7, "9 or more"),
])
def test_a_variant_for_the_wrong_room_says_why(kind: str, pairs: int, why: str) -> None:
    with pytest.raises(MovementError, match=why):
        movement(kind, pairs, 2)


def test_the_three_quarter_howell_by_hand() -> None:
    """Seven tables: ten of the complete Howell's thirteen rounds, ten sets of boards, each
    played once at each table; pair 14 sits North-South at table 1 throughout."""
    plan = movement("howell_34", 14, 2)
    assert (plan.tables, plan.rounds, len(plan.boards())) == (7, 10, 20)
    assert all(plan.at(r, 1).ns == 14 for r in range(1, 11))
    for table in range(1, 8):
        played = [plan.at(r, table).boards for r in range(1, 11)]
        assert len(set(played)) == 10  # every set once at every table
