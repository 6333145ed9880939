"""Hand evaluation by seed 004: 4-3-2-1 points plus the distribution points, worked by hand."""

from __future__ import annotations

import pytest

from laws import Card, Rank, Suit
from laws.board import hand_from_pbn
from sim.players.evaluation import Kind, biddable, evaluate, shortness_points

R = Rank.from_str


def hand(text: str) -> frozenset[Card]:
    """A hand as S.H.D.C holdings, ``-`` for a void."""
    return hand_from_pbn(".".join("" if h == "-" else h for h in text.split(".")))


# hand (S.H.D.C), high-card points, distribution points, family, worked out in the comment
@pytest.mark.parametrize(("text", "hcp", "distribution", "kind"), [
    # A K Q J: 4+3+2 + 1; the doubleton T3 is worth nothing; 4-3-2-4 is regular
    ("AKQ2.J54.T3.9876", 10, 0, Kind.REGULAR),
    # A 4, K Q 5, J 1; the singleton ace is a fallo (3), K Q a doubleton worth 2; 5-5
    ("A.KQ.J5432.T9876", 10, 5, Kind.BICOLOUR),
    # A K 7, Q J 3; the void 3, A K doubleton 3; six clubs and five diamonds
    ("-.AK.QJT98.765432", 10, 6, Kind.BICOLOUR),
    # K x 1, A x 2, Q x nothing; seven clubs with three doubletons
    ("K2.A3.Q4.JT98765", 10, 3, Kind.MONOCOLOUR),
    # A Q counts as "A x" (2), K J as "K x" (1); 2-2-4-5 is mixed
    ("AQ.KJ.8765.T9876", 10, 3, Kind.MIXED),
    # a singleton five: semifallo 2; 4-4-4-1 is tricolour
    ("5.AKQJ.AKQ2.AK32", 26, 2, Kind.TRICOLOUR),
    # 4-3-3-3 with 13 points and nothing for shape
    ("KQJ5.Q32.J54.A32", 13, 0, Kind.REGULAR),
    # Q J and 9 8 are doubletons worth nothing; 2-2-5-4 is mixed (two doubletons)
    ("QJ.98.AKJ65.KQ43", 16, 0, Kind.MIXED),
    # a void 3; 5-0-4-4 is tricolour
    ("A9876.-.KQ32.J543", 10, 3, Kind.TRICOLOUR),
    # a singleton two 2, a doubleton 3 2 nothing; seven spades
    ("AKQJT98.2.32.432", 10, 2, Kind.MONOCOLOUR),
])
def test_points_and_shape(text: str, hcp: int, distribution: int, kind: Kind) -> None:
    ev = evaluate(hand(text))
    assert (ev.hcp, ev.distribution, ev.total, ev.kind) == (hcp, distribution,
                                                            hcp + distribution, kind)
    assert ev.balanced is (kind is Kind.REGULAR)
    assert sum(ev.shape) == 13 and list(ev.shape) == sorted(ev.lengths, reverse=True)


@pytest.mark.parametrize(("holding", "points"), [
    ("", 3), ("A", 3), ("K", 2), ("2", 2),
    ("AK", 3), ("A2", 2), ("AQ", 2), ("KQ", 2), ("K2", 1), ("KJ", 1), ("QJ", 0), ("32", 0),
    ("AK2", 0), ("5432", 0),
])
def test_shortness_points(holding: str, points: int) -> None:
    assert shortness_points([R(c) for c in holding]) == points


@pytest.mark.parametrize(("suit", "holding", "ok"), [
    # minors: H H x x, H x x x x, x x x x x x
    (Suit.C, "KJ32", True), (Suit.C, "K432", False), (Suit.D, "T5432", True),
    (Suit.D, "5432", False), (Suit.C, "765432", True), (Suit.D, "65432", False),
    # majors: H H H x, H H x x x, H x x x x x
    (Suit.S, "KQJ2", True), (Suit.S, "AK32", False), (Suit.H, "AJ432", True),
    (Suit.H, "A5432", False), (Suit.H, "Q65432", True), (Suit.S, "765432", False),
])
def test_biddable_suit(suit: Suit, holding: str, ok: bool) -> None:
    assert biddable(suit, [R(c) for c in holding]) is ok


@pytest.mark.parametrize(("text", "stoppers"), [
    ("A.K2.Q32.J5432", "SHDC"),
    ("K.Q2.J32.T5432", ""),
])
def test_stoppers(text: str, stoppers: str) -> None:
    ev = evaluate(hand(text))
    assert "".join(s.name for s in (Suit.S, Suit.H, Suit.D, Suit.C) if ev.stopper(s)) \
        == stoppers
