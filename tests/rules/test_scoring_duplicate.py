"""Law 77, duplicate scoring: every expected value below was worked out by hand from the law's
table (and checked against the printed scoring tables), never from the code under test."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laws import Contract, Doubling, RulesError, Seat, Strain, Vulnerability
from laws.scoring import DealScore, Scheme, deal_score, duplicate_score, score_ns

NV, V = False, True


# Law 77: trick score, overtricks, part-score / game / slam premiums, contracts made undoubled.
@pytest.mark.parametrize(("contract", "vulnerable", "tricks", "expected"), [
    # part scores, each strain
    ("1C", NV, 7, 70), ("1C", V, 13, 190), ("2D", NV, 8, 90), ("3D", V, 10, 130),
    ("1H", NV, 7, 80), ("2H", V, 10, 170), ("1S", NV, 9, 140), ("3S", NV, 9, 140),
    ("1NT", NV, 7, 90), ("1NT", V, 8, 120), ("2NT", NV, 8, 120), ("2NT", V, 10, 180),
    ("4C", NV, 10, 130), ("4D", V, 11, 150),
    # games, each strain
    ("3NT", NV, 9, 400), ("3NT", V, 9, 600), ("3NT", NV, 10, 430), ("3NT", V, 11, 660),
    ("4NT", V, 10, 630), ("4H", NV, 10, 420), ("4H", V, 10, 620), ("4S", NV, 11, 450),
    ("4S", V, 12, 680), ("5C", NV, 11, 400), ("5C", V, 11, 600), ("5D", NV, 12, 420),
    ("5D", V, 13, 640), ("5H", NV, 11, 450), ("5NT", V, 11, 660),
    # small slams
    ("6C", NV, 12, 920), ("6C", V, 12, 1370), ("6D", NV, 13, 940), ("6H", NV, 12, 980),
    ("6H", V, 12, 1430), ("6S", V, 13, 1460), ("6NT", NV, 12, 990), ("6NT", V, 12, 1440),
    ("6NT", V, 13, 1470),
    # grand slams
    ("7C", NV, 13, 1440), ("7C", V, 13, 2140), ("7D", V, 13, 2140), ("7H", NV, 13, 1510),
    ("7S", V, 13, 2210), ("7NT", NV, 13, 1520), ("7NT", V, 13, 2220),
])
def test_contracts_made(contract: str, vulnerable: bool, tricks: int, expected: int) -> None:
    assert duplicate_score(Contract.from_str(contract), vulnerable, tricks) == expected


# Law 77: doubled trick score ×2, redoubled ×4 (and it may reach game), the insult 50/100,
# overtricks 100/200 doubled and 200/400 redoubled.
@pytest.mark.parametrize(("contract", "vulnerable", "tricks", "expected"), [
    ("1NTX", NV, 7, 180), ("1NTX", V, 7, 180), ("1NTX", NV, 8, 280), ("1NTX", V, 8, 380),
    ("2CX", NV, 8, 180), ("2CX", V, 8, 180), ("2CX", NV, 9, 280), ("2CX", V, 9, 380),
    ("1SX", NV, 7, 160), ("1SX", NV, 8, 260), ("1DX", V, 13, 1340),
    ("2HX", NV, 8, 470), ("2HX", V, 8, 670), ("2HX", V, 9, 870),
    ("3NTX", NV, 9, 550), ("3NTX", V, 9, 750), ("3NTX", V, 10, 950),
    ("4SX", V, 10, 790), ("4SX", NV, 10, 590), ("4HX", NV, 11, 690),
    ("5DX", NV, 11, 550), ("5CX", V, 11, 750),
    ("6SX", V, 12, 1660), ("6NTX", NV, 12, 1230), ("7HX", NV, 13, 1770), ("7NTX", V, 13, 2490),
    ("1CXX", NV, 7, 230), ("1CXX", NV, 8, 430), ("1CXX", V, 8, 630),
    ("1NTXX", NV, 7, 560), ("1NTXX", V, 7, 760), ("1NTXX", NV, 8, 760), ("1NTXX", V, 8, 1160),
    ("2CXX", NV, 8, 560), ("1HXX", NV, 7, 520), ("1HXX", V, 7, 720),
    ("4SXX", V, 10, 1080), ("4SXX", NV, 11, 1080), ("6CXX", V, 12, 1830),
    ("7NTXX", NV, 13, 2280), ("7NTXX", V, 13, 2980),
])
def test_doubled_and_redoubled_made(contract: str, vulnerable: bool, tricks: int,
                                    expected: int) -> None:
    assert duplicate_score(Contract.from_str(contract), vulnerable, tricks) == expected


# Law 77, undertricks, down 1 to 13: undoubled 50/100 each; doubled not vulnerable 100, 200,
# 200, then 300 each; doubled vulnerable 200, then 300 each; redoubled twice doubled.
UNDERTRICKS = {
    (Doubling.UNDOUBLED, NV): [50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650],
    (Doubling.UNDOUBLED, V): [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200,
                              1300],
    (Doubling.DOUBLED, NV): [100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900,
                             3200, 3500],
    (Doubling.DOUBLED, V): [200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500,
                            3800],
    (Doubling.REDOUBLED, NV): [200, 600, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800,
                               6400, 7000],
    (Doubling.REDOUBLED, V): [400, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400,
                              7000, 7600],
}


@pytest.mark.parametrize(("doubling", "vulnerable", "down", "penalty"), [
    (doubling, vulnerable, down, penalty)
    for (doubling, vulnerable), row in UNDERTRICKS.items()
    for down, penalty in enumerate(row, start=1)
])
def test_undertricks(doubling: Doubling, vulnerable: bool, down: int, penalty: int) -> None:
    contract = Contract(7, Strain.NT, doubling)
    assert duplicate_score(contract, vulnerable, 13 - down) == -penalty


@pytest.mark.parametrize(("contract", "vulnerable", "tricks", "expected"), [
    ("4D", V, 8, -200), ("3NT", NV, 8, -50), ("1C", V, 0, -700), ("6HX", NV, 9, -500),
    ("4SXX", V, 9, -400), ("2CX", NV, 4, -800),
])
def test_undertricks_at_other_levels(contract: str, vulnerable: bool, tricks: int,
                                     expected: int) -> None:
    assert duplicate_score(Contract.from_str(contract), vulnerable, tricks) == expected


@pytest.mark.parametrize("tricks", [-1, 14, 100])
def test_tricks_outside_0_to_13_are_refused(tricks: int) -> None:
    with pytest.raises(RulesError):
        duplicate_score(Contract.from_str("3NT"), False, tricks)
    with pytest.raises(ValueError):
        duplicate_score(Contract.from_str("3NT"), False, tricks)


# Law 77 scores declarer's side; score_ns turns it to North-South's.
@pytest.mark.parametrize(("contract", "declarer", "tricks", "vulnerability", "expected"), [
    (None, None, None, Vulnerability.BOTH, 0),
    ("4S", Seat.N, 10, Vulnerability.NS, 620),
    ("4S", Seat.S, 10, Vulnerability.EW, 420),
    ("4S", Seat.E, 10, Vulnerability.NS, -420),
    ("4S", Seat.W, 10, Vulnerability.EW, -620),
    ("3NTX", Seat.W, 7, Vulnerability.BOTH, 500),
    ("3NTX", Seat.N, 7, Vulnerability.BOTH, -500),
    ("1NTX", Seat.E, 7, Vulnerability.NONE, -180),
])
def test_score_ns(contract: str | None, declarer: Seat | None, tricks: int | None,
                  vulnerability: Vulnerability, expected: int) -> None:
    parsed = None if contract is None else Contract.from_str(contract)
    assert score_ns(parsed, declarer, tricks, vulnerability) == expected


@pytest.mark.parametrize(("declarer", "tricks"), [(None, 9), (Seat.N, None)])
def test_score_ns_needs_declarer_and_tricks(declarer: Seat | None, tricks: int | None) -> None:
    with pytest.raises(RulesError):
        score_ns(Contract.from_str("3NT"), declarer, tricks, Vulnerability.NONE)


# The split of a duplicate score: trick score below, the rest above; only the net matters.
@pytest.mark.parametrize(("contract", "vulnerable", "tricks", "expected"), [
    ("3S", NV, 10, DealScore(90, 30 + 50)),
    ("4H", V, 11, DealScore(120, 30 + 500)),
    ("2HX", NV, 9, DealScore(120, 100 + 50 + 300)),
    ("6NT", V, 12, DealScore(190, 750 + 500)),
    ("4D", V, 8, DealScore(0, 0, 200)),
])
def test_duplicate_deal_score(contract: str, vulnerable: bool, tricks: int,
                              expected: DealScore) -> None:
    score = deal_score(Scheme.DUPLICATE, Contract.from_str(contract), vulnerable, tricks)
    assert score == expected
    assert score.net == duplicate_score(Contract.from_str(contract), vulnerable, tricks)


contracts = st.builds(Contract, st.integers(1, 7), st.sampled_from(Strain),
                      st.sampled_from(Doubling))
tricks = st.integers(0, 13)


@given(contracts, st.booleans(), st.integers(0, 12))
def test_one_more_trick_always_scores_more(contract: Contract, vulnerable: bool,
                                           taken: int) -> None:
    assert duplicate_score(contract, vulnerable, taken + 1) > \
        duplicate_score(contract, vulnerable, taken)


@given(st.integers(1, 7), st.sampled_from(Strain), st.booleans(), tricks)
def test_doubling_a_made_contract_never_scores_less(level: int, strain: Strain,
                                                   vulnerable: bool, taken: int) -> None:
    scores = [duplicate_score(Contract(level, strain, doubling), vulnerable, taken)
              for doubling in (Doubling.UNDOUBLED, Doubling.DOUBLED, Doubling.REDOUBLED)]
    if taken >= level + 6:
        assert scores[0] < scores[1] < scores[2]
    else:
        assert scores[0] > scores[1] > scores[2]


@given(contracts, tricks)
def test_vulnerability_raises_the_stakes(contract: Contract, taken: int) -> None:
    not_vulnerable = duplicate_score(contract, False, taken)
    vulnerable = duplicate_score(contract, True, taken)
    if not_vulnerable > 0:
        assert vulnerable >= not_vulnerable
    else:
        assert vulnerable < not_vulnerable


@given(contracts, st.sampled_from(Seat), tricks, st.sampled_from(Vulnerability))
def test_the_two_sides_see_opposite_scores(contract: Contract, declarer: Seat, taken: int,
                                           vulnerability: Vulnerability) -> None:
    mirrored = Vulnerability.of(vulnerability.is_vulnerable(Seat.E),
                                vulnerability.is_vulnerable(Seat.N))
    assert score_ns(contract, declarer, taken, vulnerability) == \
        -score_ns(contract, declarer.next(), taken, mirrored)
