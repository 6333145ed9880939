"""Boards (dealer and vulnerability by number) and deals (PBN deal strings)."""

from __future__ import annotations

import pytest

from laws import Board, Card, Deal, InvalidDealError, Seat, Side, Vulnerability

# The standard cycle: board n and board n+16 are alike.
CYCLE = [
    (1, "N", "None"), (2, "E", "NS"), (3, "S", "EW"), (4, "W", "Both"),
    (5, "N", "NS"), (6, "E", "EW"), (7, "S", "Both"), (8, "W", "None"),
    (9, "N", "EW"), (10, "E", "Both"), (11, "S", "None"), (12, "W", "NS"),
    (13, "N", "Both"), (14, "E", "None"), (15, "S", "NS"), (16, "W", "EW"),
]


@pytest.mark.parametrize(("number", "dealer", "vul"), CYCLE)
def test_board_dealer_and_vulnerability(number: int, dealer: str, vul: str) -> None:
    for n in (number, number + 16, number + 32):
        board = Board(n)
        assert board.dealer is Seat.from_str(dealer)
        assert board.vulnerability is Vulnerability.from_str(vul)


@pytest.mark.parametrize(("text", "ns", "ew"), [
    ("None", False, False), ("Love", False, False), ("-", False, False), ("o", False, False),
    ("NS", True, False), ("n", True, False), ("EW", False, True), ("e", False, True),
    ("Both", True, True), ("All", True, True), ("b", True, True),
])
def test_vulnerability_forms(text: str, ns: bool, ew: bool) -> None:
    vul = Vulnerability.from_str(text)
    assert (vul.is_vulnerable(Side.NS), vul.is_vulnerable(Side.EW)) == (ns, ew)
    assert vul.is_vulnerable(Seat.S) is ns and vul.is_vulnerable(Seat.W) is ew


PBN = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"


def test_deal_round_trips_from_any_first_seat() -> None:
    deal = Deal.from_pbn(PBN)
    assert deal.to_pbn() == PBN
    for seat in Seat:
        assert Deal.from_pbn(deal.to_pbn(seat)) == deal
    assert deal.hcp(Seat.N) == 11 and deal.owner(Card.from_str("SQ")) is Seat.E
    assert sum(deal.hcp(s) for s in Seat) == 40


def test_three_known_hands_give_the_fourth() -> None:
    partial = Deal.from_pbn("N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 -")
    assert Seat.W not in partial and partial.owner(Card.from_str("S7")) is Seat.W
    assert partial.completed() == Deal.from_pbn(PBN)


@pytest.mark.parametrize("text", [
    "KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96",  # no seat
    "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3",               # three hands
    "N:KT8.A96.A95.7542 KT8.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96",  # SK twice
    "N:KT8.A96.A95.754 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ962",  # 12 cards
    "N:KT8.A96.A95 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96",     # three suits
    "N:KT8.A96.A95.75Z2 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96",
    "X:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96",
])
def test_malformed_deals_are_refused(text: str) -> None:
    with pytest.raises(InvalidDealError):
        Deal.from_pbn(text)
