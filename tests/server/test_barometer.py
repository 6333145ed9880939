"""Barometer movements (server/movements.barometer): every table on the round's boards, no pair
meets another twice, no pair sees a board twice, and the Swiss movement's tables."""

from __future__ import annotations

from collections import Counter

import pytest

from server.setup.movements import PHANTOM, MovementError, barometer, movement, swiss


@pytest.mark.parametrize(("pairs", "seating"), [
    (4, "howell"), (7, "howell"), (10, "howell"), (20, "howell"), (32, "howell"),
    (6, "mitchell"), (9, "mitchell"), (20, "mitchell"), (41, "mitchell")])
def test_every_table_plays_the_rounds_boards_and_no_one_meets_twice(pairs: int,
                                                                   seating: str) -> None:
    plan = barometer(pairs, 3, seating=seating)
    met: Counter[frozenset[int]] = Counter()
    seen: Counter[tuple[int, int]] = Counter()
    for number in range(1, plan.rounds + 1):
        first = 3 * (number - 1) + 1
        played = [seat for seat in plan.round(number) if not seat.sit_out]
        assert {seat.boards for seat in played} == {(first, first + 1, first + 2)}
        assert all(seat.boards == () for seat in plan.round(number) if seat.sit_out)
        for seat in played:
            met[frozenset((seat.ns, seat.ew))] += 1
            for board in seat.boards:
                seen[(seat.ns, board)] += 1
                seen[(seat.ew, board)] += 1
            assert seat.next_boards is None  # each table keeps its own copy
    assert max(met.values()) == 1 and max(seen.values()) == 1
    real = [p.number for p in plan.participants if not p.phantom]
    assert len(real) == pairs
    groups = {p.group for p in plan.participants}
    assert groups == ({"NS", "EW"} if seating == "mitchell" else {""})


def test_a_mitchell_barometer_moves_ew_up_one_table_without_a_skip() -> None:
    plan = movement("baro_mitchell", 8, 2)
    assert plan.rounds == plan.tables == 4
    for number in range(1, 4):
        for seat in plan.round(number):
            nxt = plan.at(number + 1, seat.next_ew or seat.table)
            assert nxt.ew == seat.ew and nxt.table == seat.table % 4 + 1
    # With an odd number of pairs the last table has the phantom NS pair.
    odd = movement("baro_mitchell", 7, 2)
    assert all(seat.ns == PHANTOM for seat in odd.seatings if seat.table == odd.tables)


def test_nonsense_is_refused() -> None:
    with pytest.raises(MovementError, match="howell or a mitchell"):
        barometer(8, 2, seating="scrambled")
    with pytest.raises(MovementError, match="at most 32"):
        movement("barometer", 34, 2)
    with pytest.raises(MovementError, match="1 to 5 rounds"):
        movement("baro_mitchell", 10, 2, 6)


def test_an_odd_swiss_leaves_the_bye_off_the_tables() -> None:
    plan = swiss(7, 2, 4, (((1, 2), (3, 4), (5, 6)), ((1, 3), (2, 7), (4, 5))))
    assert plan.tables == 6 and plan.rounds == 4
    assert {seat.ns for seat in plan.round(1)} == {1, 2, 3, 4, 5, 6}
    assert {seat.ns for seat in plan.round(2)} == {1, 3, 2, 7, 4, 5}
    with pytest.raises(MovementError, match="2 matches; 7 teams play 3"):
        swiss(7, 2, 4, (((1, 2), (3, 4)),))
    with pytest.raises(MovementError, match="1 to 7 rounds"):
        swiss(7, 2, 8)
