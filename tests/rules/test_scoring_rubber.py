"""Rubber bridge: seed 003's worked examples, the Laws of Rubber Bridge for the rest.
Expected values are worked out by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laws import Contract, Deal, RulesError, Seat, Side, Strain, Vulnerability
from laws.scoring import DealScore, Item, Rubber, Scheme, deal_score, honours_in

NV, V = False, True
NS, EW = Side.NS, Side.EW


def rubber_deal(contract: str, vulnerable: bool, tricks: int) -> DealScore:
    return deal_score(Scheme.RUBBER, Contract.from_str(contract), vulnerable, tricks)


# Seed 003, "Premios por Bazas", ejemplos 1-3, and "Multas": 4D vulnerable, eight tricks.
def test_seed_003_three_spades_making_ten_earns_120_for_tricks() -> None:
    score = rubber_deal("3S", NV, 10)
    assert score.declarer_total == 120            # "120 puntos (30 x 4)"
    assert score.declarer_below == 90             # the Laws: only the tricks bid go below


def test_seed_003_two_no_trump_making_eight_earns_70() -> None:
    assert rubber_deal("2NT", NV, 8) == DealScore(declarer_below=70)   # "70 puntos (40 + 30)"


def test_seed_003_four_clubs_making_nine_earns_declarer_nothing() -> None:
    score = rubber_deal("4C", NV, 9)
    assert score.declarer_total == 0              # "no gana nada"
    assert score.defenders_above == 50


def test_seed_003_four_diamonds_vulnerable_two_down_is_200_to_the_defenders() -> None:
    assert rubber_deal("4D", V, 8) == DealScore(defenders_above=200)   # "200 puntos (100 x 2)"


# One deal: trick score below; overtricks, insult, slam above; no game or part-score premium.
@pytest.mark.parametrize(("contract", "vulnerable", "tricks", "expected"), [
    ("1C", NV, 7, DealScore(20, 0)),
    ("4H", V, 10, DealScore(120, 0)),
    ("3NT", NV, 11, DealScore(100, 60)),
    ("6S", NV, 12, DealScore(180, 500)),
    ("6S", V, 13, DealScore(180, 30 + 750)),
    ("7NT", NV, 13, DealScore(220, 1000)),
    ("7D", V, 13, DealScore(140, 1500)),
    ("2HX", NV, 9, DealScore(120, 100 + 50)),
    ("2HX", V, 9, DealScore(120, 200 + 50)),
    ("1NTXX", V, 8, DealScore(160, 400 + 100)),
    ("3NTX", V, 6, DealScore(0, 0, 800)),
    ("4SXX", NV, 6, DealScore(0, 0, 1600)),
    ("7NT", V, 0, DealScore(0, 0, 1300)),
])
def test_rubber_deal(contract: str, vulnerable: bool, tricks: int, expected: DealScore) -> None:
    assert rubber_deal(contract, vulnerable, tricks) == expected


def test_a_three_game_rubber() -> None:
    rubber = Rubber()
    vulnerability = [rubber.vulnerability]
    rubber.record(Contract.from_str("2H"), Seat.N, 9)          # NS 60 below, 30 above
    assert rubber.part_scores == {NS: 60, EW: 0}
    rubber.record(Contract.from_str("3NT"), Seat.E, 9)         # EW game: both parts wiped
    assert rubber.games == {NS: 0, EW: 1}
    assert rubber.part_scores == {NS: 0, EW: 0}
    vulnerability.append(rubber.vulnerability)
    rubber.record(Contract.from_str("1NT"), Seat.S, 7)         # NS 40
    rubber.record(Contract.from_str("4SX"), Seat.W, 8)         # EW vulnerable, X, 2 down: 500
    rubber.record(Contract.from_str("2D"), Seat.N, 8)          # NS 40 more: 80, no game
    assert rubber.part_scores == {NS: 80, EW: 0}
    assert rubber.games == {NS: 0, EW: 1}
    rubber.record(Contract.from_str("1S"), Seat.N, 7)          # 110: NS game
    vulnerability.append(rubber.vulnerability)
    assert vulnerability == [Vulnerability.NONE, Vulnerability.EW, Vulnerability.BOTH]
    assert not rubber.is_finished
    rubber.record(Contract.from_str("6C"), Seat.S, 12, honours=(NS, 100))  # game, slam 750
    assert rubber.is_finished
    assert rubber.games == {NS: 2, EW: 1}
    assert rubber.below == {NS: 60 + 40 + 40 + 30 + 120, EW: 100}
    assert rubber.above == {NS: 30 + 500 + 750 + 100 + 500, EW: 0}
    assert rubber.totals == {NS: 2170, EW: 100}
    assert [e.points for e in rubber.entries if e.item is Item.RUBBER] == [500]


def test_two_straight_games_earn_700() -> None:
    rubber = Rubber()
    rubber.record(Contract.from_str("4S"), Seat.E, 10)
    rubber.record(None)                                        # passed out: nothing
    rubber.record(Contract.from_str("3NT"), Seat.W, 9)
    assert rubber.is_finished
    assert rubber.totals == {NS: 0, EW: 120 + 100 + 700}


def test_a_doubled_part_score_can_make_game() -> None:
    rubber = Rubber()
    rubber.record(Contract.from_str("2HX"), Seat.N, 8)         # 120 below: game
    assert rubber.games == {NS: 1, EW: 0}
    assert rubber.above == {NS: 50, EW: 0}


def test_undertricks_use_the_vulnerability_the_rubber_has_reached() -> None:
    rubber = Rubber()
    rubber.record(Contract.from_str("3NT"), Seat.N, 9)         # NS vulnerable from now on
    rubber.record(Contract.from_str("4H"), Seat.S, 8)          # 2 down vulnerable: 200
    rubber.record(Contract.from_str("4H"), Seat.E, 8)          # 2 down not vulnerable: 100
    assert rubber.above == {NS: 100, EW: 200}


@pytest.mark.parametrize(("honours", "strain"), [
    ((NS, 120), Strain.S), ((NS, 100), Strain.NT), ((EW, 50), Strain.H),
])
def test_honours_that_no_hand_can_hold_are_refused(honours: tuple[Side, int],
                                                   strain: Strain) -> None:
    rubber = Rubber()
    with pytest.raises(RulesError):
        rubber.record(Contract(4, strain), Seat.N, 10, honours=honours)
    assert rubber.entries == ()


def test_honours_count_for_the_defenders_and_on_a_defeated_contract() -> None:
    rubber = Rubber()
    rubber.record(Contract.from_str("4S"), Seat.N, 9, honours=(EW, 150))
    assert rubber.above == {NS: 0, EW: 50 + 150}


# Seed 003, "Premios por Honores": 4 of 5 trump honours in one hand 100, all 5 150,
# the four aces in one hand at no trump 150; split between partners they score nothing.
@pytest.mark.parametrize(("pbn", "strain", "expected"), [
    ("N:AKQJ.432.432.432 - - -", Strain.S, (NS, 100)),
    ("N:AKQJ.432.432.432 - - -", Strain.H, None),
    ("N:- T98.A.AKQJT.AKQ2 - -", Strain.D, (EW, 150)),
    ("N:- - KQJT.AKJT.432.32 -", Strain.H, (NS, 100)),
    ("N:- - - A32.A32.A4.A5432", Strain.NT, (EW, 150)),
    ("N:AKQ.AKQJ.AKQ.AKQ - JT9.T98.JT9.JT98 -", Strain.S, None),
    ("N:A32.A32.A32.5432 - - -", Strain.NT, None),
])
def test_honours_in_a_deal(pbn: str, strain: Strain, expected: tuple[Side, int] | None) -> None:
    assert honours_in(Deal.from_pbn(pbn), strain) == expected


def test_honours_found_in_the_deal_are_scored() -> None:
    rubber = Rubber()
    deal = Deal.from_pbn("N:AKQJT.432.432.43 - - -")
    rubber.record(Contract.from_str("2S"), Seat.E, 8, deal=deal)
    assert rubber.above == {NS: 150, EW: 0}
    with pytest.raises(RulesError):
        rubber.record(Contract.from_str("2S"), Seat.E, 8, deal=deal, honours=(NS, 150))


def test_a_finished_rubber_takes_no_more_deals() -> None:
    rubber = Rubber()
    rubber.record(Contract.from_str("7NT"), Seat.N, 13)
    rubber.record(Contract.from_str("7NT"), Seat.N, 13)
    with pytest.raises(RulesError):
        rubber.record(Contract.from_str("1C"), Seat.E, 7)
    with pytest.raises(RulesError):
        rubber.end_unfinished()


def test_a_contract_needs_its_declarer_and_tricks() -> None:
    with pytest.raises(RulesError):
        Rubber().record(Contract.from_str("1C"))


# Rubber Law 80: the only game won 300; the only part score in the unfinished game 100.
@pytest.mark.parametrize(("deals", "bonuses"), [
    ([("3NT", Seat.N, 9), ("2C", Seat.E, 8)], {NS: 300, EW: 100}),
    ([("3NT", Seat.N, 9), ("4H", Seat.E, 10)], {NS: 0, EW: 0}),
    ([("1S", Seat.N, 7), ("1H", Seat.E, 7)], {NS: 0, EW: 0}),
    ([], {NS: 0, EW: 0}),
])
def test_an_unfinished_rubber(deals: list[tuple[str, Seat, int]],
                              bonuses: dict[Side, int]) -> None:
    rubber = Rubber()
    for contract, declarer, tricks in deals:
        rubber.record(Contract.from_str(contract), declarer, tricks)
    before = rubber.above
    rubber.end_unfinished()
    assert rubber.is_finished
    assert {side: rubber.above[side] - before[side] for side in Side} == bonuses


results = st.tuples(st.builds(Contract, st.integers(1, 7), st.sampled_from(Strain)),
                    st.sampled_from(Seat), st.integers(0, 13))


@given(st.lists(results, max_size=30))
def test_the_pad_always_adds_up(deals: list[tuple[Contract, Seat, int]]) -> None:
    rubber = Rubber()
    for contract, declarer, tricks in deals:
        if rubber.is_finished:
            break
        rubber.record(contract, declarer, tricks)
        assert all(part < 100 for part in rubber.part_scores.values())
        assert max(rubber.games.values()) <= 2
        assert rubber.is_finished == (max(rubber.games.values()) == 2)
    assert rubber.totals == {side: rubber.above[side] + rubber.below[side] for side in Side}
    assert sum(e.points for e in rubber.entries) == sum(rubber.totals.values())
