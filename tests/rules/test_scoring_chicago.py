"""Chicago (four-deal bridge), as the ACBL's Laws of Rubber Bridge describe it; docs/scoring.md.
Expected values are worked out by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laws import Contract, RulesError, Seat, Side, Strain, Vulnerability
from laws.scoring import (
    Chicago,
    DealScore,
    Item,
    Scheme,
    chicago_dealer,
    chicago_vulnerability,
    deal_score,
)

NV, V = False, True
NS, EW = Side.NS, Side.EW


# Deal 1 neither side vulnerable; deals 2 and 3 the dealer's side; deal 4 both.
@pytest.mark.parametrize(("first_dealer", "deal_number", "dealer", "vulnerability"), [
    (Seat.N, 1, Seat.N, Vulnerability.NONE),
    (Seat.N, 2, Seat.E, Vulnerability.EW),
    (Seat.N, 3, Seat.S, Vulnerability.NS),
    (Seat.N, 4, Seat.W, Vulnerability.BOTH),
    (Seat.E, 1, Seat.E, Vulnerability.NONE),
    (Seat.E, 2, Seat.S, Vulnerability.NS),
    (Seat.E, 3, Seat.W, Vulnerability.EW),
    (Seat.E, 4, Seat.N, Vulnerability.BOTH),
    (Seat.S, 2, Seat.W, Vulnerability.EW),
    (Seat.S, 3, Seat.N, Vulnerability.NS),
])
def test_schedule(first_dealer: Seat, deal_number: int, dealer: Seat,
                  vulnerability: Vulnerability) -> None:
    assert chicago_dealer(deal_number, first_dealer) is dealer
    assert chicago_vulnerability(deal_number, first_dealer) is vulnerability


@pytest.mark.parametrize("deal_number", [0, 5, -1])
def test_a_chicago_has_four_deals(deal_number: int) -> None:
    with pytest.raises(RulesError):
        chicago_vulnerability(deal_number)


# One deal on a fresh pad: Law 77 less the part-score premium.
@pytest.mark.parametrize(("contract", "vulnerable", "tricks", "expected"), [
    ("4H", V, 10, DealScore(120, 500)),
    ("2S", NV, 9, DealScore(60, 30)),
    ("6NT", NV, 12, DealScore(190, 300 + 500)),
    ("2HX", V, 8, DealScore(120, 500 + 50)),
    ("3NTX", V, 7, DealScore(0, 0, 500)),
])
def test_chicago_deal(contract: str, vulnerable: bool, tricks: int, expected: DealScore) -> None:
    assert deal_score(Scheme.CHICAGO, Contract.from_str(contract), vulnerable, tricks) == expected


def play(chicago: Chicago, deals: list[tuple[str | None, Seat, int]]) -> None:
    for contract, declarer, tricks in deals:
        chicago.record(None if contract is None else Contract.from_str(contract), declarer,
                       tricks)


def test_part_scores_carry_to_game_and_the_fourth_deal_premium() -> None:
    chicago = Chicago()
    play(chicago, [("2S", Seat.N, 8)])                         # deal 1: NS 60
    assert chicago.part_scores == {NS: 60, EW: 0}
    play(chicago, [("2C", Seat.S, 8)])                         # deal 2: 60 + 40, NS game NV
    assert chicago.part_scores == {NS: 0, EW: 0}
    play(chicago, [("3D", Seat.E, 9),                          # deal 3: EW 60
                   ("1NT", Seat.N, 8)])                        # deal 4: NS 40 + 30, premium 100
    assert chicago.is_finished
    assert chicago.below == {NS: 60 + 40 + 40, EW: 60}
    assert chicago.above == {NS: 300 + 30 + 100, EW: 0}
    assert chicago.totals == {NS: 570, EW: 60}


def test_a_fourth_deal_part_score_that_completes_game_earns_the_game_premium() -> None:
    chicago = Chicago()
    play(chicago, [("2H", Seat.E, 8),                          # deal 1: EW 60
                   ("1C", Seat.N, 6),                          # deal 2: NS not vul, EW +50
                   ("1S", Seat.W, 5),                          # deal 3: EW not vul, NS +100
                   ("2D", Seat.W, 8)])                         # deal 4: 60 + 40, vul game
    assert chicago.totals == {NS: 100, EW: 60 + 40 + 50 + 500}
    assert not [e for e in chicago.entries if e.item is Item.PART_SCORE]


def test_a_game_wipes_out_the_other_sides_part_score() -> None:
    chicago = Chicago()
    play(chicago, [("3C", Seat.N, 9),                          # deal 1: NS 60
                   ("3NT", Seat.E, 9),                         # deal 2: EW vulnerable game
                   ("2C", Seat.S, 8)])                         # deal 3: NS 40, no game
    assert chicago.part_scores == {NS: 40, EW: 0}
    assert chicago.totals == {NS: 100, EW: 100 + 500}


@pytest.mark.parametrize(("contract", "declarer", "tricks", "expected"), [
    ("1C", Seat.N, 7, {NS: 20 + 100, EW: 0}),                  # part score: premium 100
    ("1C", Seat.N, 6, {NS: 0, EW: 100}),                       # defeated: no premium
    ("4S", Seat.E, 11, {NS: 0, EW: 120 + 30 + 500}),           # game, vulnerable
    ("6D", Seat.W, 12, {NS: 0, EW: 120 + 750 + 500}),          # slam and game
])
def test_the_fourth_deal(contract: str, declarer: Seat, tricks: int,
                         expected: dict[Side, int]) -> None:
    chicago = Chicago()
    play(chicago, [("1H", Seat.N, 4), ("1H", Seat.E, 4), ("1H", Seat.N, 4)])
    before = chicago.totals
    play(chicago, [(contract, declarer, tricks)])
    assert {side: chicago.totals[side] - before[side] for side in Side} == expected


def test_a_passed_out_deal_is_dealt_again_by_the_same_dealer() -> None:
    chicago = Chicago(first_dealer=Seat.W)
    play(chicago, [("1NT", Seat.N, 7)])
    assert (chicago.deal_number, chicago.dealer, chicago.vulnerability) == \
        (2, Seat.N, Vulnerability.NS)
    chicago.record(None)
    assert (chicago.deal_number, chicago.dealer, chicago.vulnerability) == \
        (2, Seat.N, Vulnerability.NS)
    assert chicago.totals == {NS: 40, EW: 0}


def test_a_finished_chicago_takes_no_more_deals() -> None:
    chicago = Chicago()
    play(chicago, [("1C", Seat.N, 7)] * 4)
    assert chicago.is_finished
    with pytest.raises(RulesError):
        chicago.record(None)


def test_honours_count_in_chicago() -> None:
    chicago = Chicago()
    chicago.record(Contract.from_str("3NT"), Seat.N, 8, honours=(NS, 150))
    assert chicago.totals == {NS: 150, EW: 50}


results = st.tuples(st.builds(Contract, st.integers(1, 7), st.sampled_from(Strain)),
                    st.sampled_from(Seat), st.integers(0, 13))


@given(st.lists(results, min_size=4, max_size=4))
def test_four_deals_add_up(deals: list[tuple[Contract, Seat, int]]) -> None:
    chicago = Chicago()
    for contract, declarer, tricks in deals:
        chicago.record(contract, declarer, tricks)
    assert chicago.is_finished
    assert chicago.totals == {side: chicago.above[side] + chicago.below[side] for side in Side}
    part_score_premiums = [e for e in chicago.entries if e.item is Item.PART_SCORE]
    assert all(e.deal_number == 4 for e in part_score_premiums)
    assert len(part_score_premiums) <= 1
    games = [e for e in chicago.entries if e.item is Item.GAME]
    assert len(games) == sum(chicago.games.values())
