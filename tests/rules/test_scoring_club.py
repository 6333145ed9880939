"""The club's house scheme, seed 004 ("PUNTUACION"); our reading is in docs/scoring.md.
Expected values are worked out by hand from the seed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laws import Contract, Doubling, RulesError, Seat, Strain, Vulnerability
from laws.scoring import (
    Category,
    DealScore,
    Scheme,
    club_category,
    club_dealer,
    club_score,
    club_vulnerability,
    deal_score,
)

NV, V = False, True


# "MANGA (3 ST, 4 C, 4 P, 5 T ó 5 D)", "SLAM (6 a cualquier palo)", "GRAN SLAM (7 ...)":
# the category goes by the level of the contract, not by the tricks taken.
@pytest.mark.parametrize(("contract", "category"), [
    ("1C", Category.PART_SCORE), ("4C", Category.PART_SCORE), ("4D", Category.PART_SCORE),
    ("3H", Category.PART_SCORE), ("3S", Category.PART_SCORE), ("2NT", Category.PART_SCORE),
    ("2HX", Category.PART_SCORE), ("1NTXX", Category.PART_SCORE),
    ("3NT", Category.GAME), ("4NT", Category.GAME), ("5NT", Category.GAME),
    ("4H", Category.GAME), ("4S", Category.GAME), ("5H", Category.GAME),
    ("5C", Category.GAME), ("5D", Category.GAME),
    ("6C", Category.SMALL_SLAM), ("6NT", Category.SMALL_SLAM),
    ("7D", Category.GRAND_SLAM), ("7NT", Category.GRAND_SLAM),
])
def test_category(contract: str, category: Category) -> None:
    assert club_category(Contract.from_str(contract)) is category


# "POR BAZAS: no se cuentan las seis primeras bazas" (T, D 20; C, P 30; ST 40 then 30),
# plus one premium: simple 50; manga 300/500; slam 500/750; gran slam 750/1000.
@pytest.mark.parametrize(("contract", "vulnerable", "tricks", "expected"), [
    ("1C", NV, 7, 70), ("1C", V, 9, 110), ("2D", NV, 8, 90), ("1H", NV, 7, 80),
    ("2S", V, 9, 140), ("1NT", NV, 7, 90), ("2NT", NV, 10, 180),
    ("4D", NV, 10, 130), ("4C", V, 11, 150), ("2H", NV, 10, 170),
    ("3NT", NV, 9, 400), ("3NT", V, 9, 600), ("3NT", V, 10, 630), ("4NT", NV, 10, 430),
    ("4H", V, 10, 620), ("4S", NV, 11, 450), ("5C", NV, 11, 400), ("5D", V, 12, 620),
    ("6C", NV, 12, 620), ("6NT", V, 12, 940), ("6H", V, 13, 960),
    ("7C", NV, 13, 890), ("7S", NV, 13, 960), ("7NT", V, 13, 1220),
])
def test_contracts_made(contract: str, vulnerable: bool, tricks: int, expected: int) -> None:
    assert club_score(Contract.from_str(contract), vulnerable, tricks) == expected


# "Contrato no realizado": not vulnerable 50 each; vulnerable 100 the first, 200 each after.
@pytest.mark.parametrize(("vulnerable", "down", "penalty"), [
    (NV, 1, 50), (NV, 2, 100), (NV, 3, 150), (NV, 7, 350), (NV, 13, 650),
    (V, 1, 100), (V, 2, 300), (V, 3, 500), (V, 4, 700), (V, 7, 1300), (V, 13, 2500),
])
def test_undertricks(vulnerable: bool, down: int, penalty: int) -> None:
    assert club_score(Contract.from_str("7NT"), vulnerable, 13 - down) == -penalty


# "en caso de que la defensa haya doblado, la puntuación se multiplica por dos, pero si la
# pareja declarante redobló, la puntuación final se multiplicará por cuatro": all of it.
@pytest.mark.parametrize(("contract", "vulnerable", "tricks", "expected"), [
    ("2HX", NV, 8, 220), ("2HX", V, 9, 280), ("1NTX", V, 8, 240), ("3NTX", V, 9, 1200),
    ("4SXX", NV, 10, 1680), ("7NTXX", V, 13, 4880), ("6DX", NV, 12, 1240),
    ("4HX", NV, 8, -200), ("4HX", V, 8, -600), ("3NTXX", V, 6, -2000), ("1CXX", NV, 6, -200),
])
def test_doubled_and_redoubled(contract: str, vulnerable: bool, tricks: int,
                               expected: int) -> None:
    assert club_score(Contract.from_str(contract), vulnerable, tricks) == expected


@pytest.mark.parametrize(("contract", "vulnerable", "tricks", "expected"), [
    ("2NT", NV, 10, DealScore(70, 60 + 50)),
    ("4H", V, 11, DealScore(120, 30 + 500)),
    ("2HX", NV, 9, DealScore(120, (30 + 50) * 2)),
    ("3NT", V, 7, DealScore(0, 0, 300)),
])
def test_club_deal_score(contract: str, vulnerable: bool, tricks: int,
                         expected: DealScore) -> None:
    assert deal_score(Scheme.CLUB, Contract.from_str(contract), vulnerable, tricks) == expected
    assert deal_score("club", Contract.from_str(contract), vulnerable, tricks) == expected


# "1ª mano: NADIE VULNERABLE; 2ª: VULNERABLES E-O; 3ª: N-S; 4ª: TODOS"; the first dealer
# is South and the deal passes to the left.
@pytest.mark.parametrize(("deal_index", "vulnerability", "dealer"), [
    (1, Vulnerability.NONE, Seat.S),
    (2, Vulnerability.EW, Seat.W),
    (3, Vulnerability.NS, Seat.N),
    (4, Vulnerability.BOTH, Seat.E),
])
def test_schedule(deal_index: int, vulnerability: Vulnerability, dealer: Seat) -> None:
    assert club_vulnerability(deal_index) is vulnerability
    assert club_dealer(deal_index) is dealer


@pytest.mark.parametrize("deal_index", [0, 5])
def test_a_partida_has_four_deals(deal_index: int) -> None:
    with pytest.raises(RulesError):
        club_vulnerability(deal_index)


def test_unknown_scheme_is_refused() -> None:
    with pytest.raises(RulesError):
        deal_score("bridge-o-matic", Contract.from_str("1C"), False, 7)


def test_passed_out_scores_nothing() -> None:
    assert deal_score(Scheme.CLUB, None, True, None) == DealScore()


@given(st.integers(1, 7), st.sampled_from(Strain), st.booleans(), st.integers(0, 13))
def test_doubling_multiplies_the_whole_score(level: int, strain: Strain, vulnerable: bool,
                                             tricks: int) -> None:
    undoubled = club_score(Contract(level, strain), vulnerable, tricks)
    assert club_score(Contract(level, strain, Doubling.DOUBLED), vulnerable, tricks) == \
        2 * undoubled
    assert club_score(Contract(level, strain, Doubling.REDOUBLED), vulnerable, tricks) == \
        4 * undoubled


@given(st.builds(Contract, st.integers(1, 7), st.sampled_from(Strain),
                 st.sampled_from(Doubling)), st.booleans(), st.integers(0, 12))
def test_one_more_trick_always_scores_more(contract: Contract, vulnerable: bool,
                                           tricks: int) -> None:
    assert club_score(contract, vulnerable, tricks + 1) > club_score(contract, vulnerable, tricks)
