"""Cards at the reader: following suit, revokes and penalty cards (Laws 44, 50, 52, 61-64).

Law 44C: a player follows suit if able. Law 61A (2017): failing to do so, or to lead or play
when able a card or suit an opponent specified in rectification, is a revoke; 62A: corrected
before it is established, 62B1: the card withdrawn becomes a major penalty card when played
from a defender's hand; 62B2: declarer's (or dummy's) is replaced with no rectification. The
table corrects a revoke it sees at once, so no card has been played after it (62C). The
director is called (Law 9B1).

Law 50A: a penalty card stays face up on the table, every player sees it; 50D1: a major
penalty card is played at the first legal opportunity. Law 52B: when a defender leads or plays
another card instead, declarer may accept that card (52B1(a), and must once he has played
next from his own or dummy's hand, 52B1(b)); the penalty card then stays one (52B1(c)). Or
(52B2) not: the penalty card is played in its place and the other card becomes a major
penalty card. Law 50D2: with partner's major penalty card on the table, the defender to lead
waits for declarer's option; a lead then required or forbidden (50D2(a)) is told as such.

What a seat is told: the player whose card it is sees why it was refused; the others see only
what the laws make public (a card that was faced: a penalty card).

Board 1: North deals, 1NT by North (P P P), East leads; South is dummy. The deal is known:
N KT8.A96.A95.7542  E Q5.KJ52.KQ874.T8  S AJ92.874.JT6.AQ3  W 7643.QT3.32.KJ96
"""

from __future__ import annotations

import pytest

from laws import Seat

from .conftest import MakeTable
from .table import E, LawTable, N, S, W


@pytest.fixture
def lead_faced(table: LawTable) -> LawTable:
    table.sit_down()
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.cards("D4")
    return table


def test_a_defenders_revoke_becomes_a_major_penalty_card(lead_faced: LawTable) -> None:
    table = lead_faced
    table.cards("DJ")
    table.mark()
    table.card("C6")                          # West holds the D3 and D2: a revoke
    published = table.published()
    assert published[0] == ("option", {"kind": "penalty_card", "seat": "W", "card": "C6",
                                       "major": "major", "law": "62B1", "by": "W"})
    assert (published[1][0], published[1][1]["reason"], published[1][1]["law"]) == (
        "director", "revoke", "62B1")
    assert table.display(W)[3] == "Follow suit: ♦ L44C"  # the offender is told why
    for seat in (N, E, S):
        assert table.display(seat)[3] == "Penalty card W ♣6"
    assert table.penalty_cards() == ["WC6"]
    for seat in (N, E, S, W):
        assert "W:♣6" in table.shown(seat)    # Law 50A: face up before its owner
    table.cards("D3")                         # West follows suit
    board = table.state.board
    assert board is not None and board.play is not None and board.play.revokes == []


@pytest.mark.parametrize(("before", "card", "told", "line"), [
    ("", "S9", N, "Follow suit: ♦ L44C"),      # dummy holds diamonds: declarer is told
    ("DJ D3", "S8", N, "Follow suit: ♦ L44C"), # declarer's own hand
    ("", "D4", E, "♦4 was played L45A"),      # a card played already: its owner is told
    ("DJ", "D5", N, "It is W's turn L57"),    # declarer's card before West's
])
def test_a_card_refused_is_told_to_its_player_only(lead_faced: LawTable, before: str,
                                                   card: str, told: Seat,
                                                   line: str) -> None:
    table = lead_faced
    if before:
        table.cards(before)
    table.mark()
    table.card(card)
    assert table.published() == []
    assert table.display(told)[3] == line
    for seat in (N, E, S, W):
        if seat is not told:
            assert table.display(seat)[3] == "", seat


@pytest.fixture
def west_penalty_card(table: LawTable) -> LawTable:
    """The director has made West's jack of clubs a major penalty card before the lead."""
    table.sit_down()
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.ruling("r-pen", {"kind": "penalty_card", "seat": "W", "card": "CJ",
                           "major": "major"})
    return table


def test_a_lead_declarer_required_is_named(west_penalty_card: LawTable) -> None:
    table = west_penalty_card
    table.keys(N, "1")                        # 50D2(a): East must lead a club
    table.mark()
    table.card("D4")
    assert table.published() == []
    assert table.display(E)[3] == "Must lead ♣"
    assert table.display(N)[3] == table.display(W)[3] == ""


def test_the_cue_to_play_from_dummy_is_never_lost(west_penalty_card: LawTable) -> None:
    table = west_penalty_card
    table.keys(N, "3")                        # 50D2(b): any lead; the jack stays
    table.cards("D4")
    assert "Play from dummy" in table.display(N)
    assert "Penalty W:♣J" in table.shown(N)


def test_the_cue_fits_in_spanish_too(make_table: MakeTable) -> None:
    table = make_table("es")
    table.sit_down()
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.ruling("r-pen", {"kind": "penalty_card", "seat": "W", "card": "CJ",
                           "major": "major"})
    table.keys(N, "3")
    table.cards("D4")
    assert "Juegue del muerto" in table.display(N)


@pytest.fixture
def another_card(west_penalty_card: LawTable) -> LawTable:
    """Clubs are led and West, who must play the jack (50D1), plays the six."""
    table = west_penalty_card
    table.keys(N, "3")
    table.cards("C8 C3")
    table.mark()
    table.card("C6")
    return table


def test_another_card_in_the_penalty_cards_place_waits_for_declarer(
        another_card: LawTable) -> None:
    table = another_card
    published = table.published()
    assert published[0] == ("option", {"kind": "penalty_breach", "seat": "W", "card": "C6",
                                       "by": "W"})
    assert (published[1][1]["reason"], published[1][1]["law"]) == ("penalty_breach", "52B")
    assert table.display(N)[1:3] == ["W ♣6 instead of ♣J", "1 accept 2 refuse"]
    assert table.display(W)[2] == "Declarer chooses"
    assert table.display(W)[3] == "Penalty ♣J due L50D1"


def test_declarer_accepts_the_card_and_the_jack_stays(another_card: LawTable) -> None:
    table = another_card
    table.keys(N, "1")                        # 52B1(a)
    assert table.played()[-1] == "WC6"
    assert table.penalty_cards() == ["WCJ"]   # 52B1(c)


def test_declarer_has_the_jack_played_and_the_six_becomes_a_penalty_card(
        another_card: LawTable) -> None:
    table = another_card
    table.keys(N, "2")                        # 52B2
    assert table.played()[-1] == "WCJ"
    assert table.penalty_cards() == ["WC6"]


def test_declarer_playing_on_accepts_the_card(another_card: LawTable) -> None:
    table = another_card
    table.mark()
    table.card("C2")                          # 52B1(b): declarer plays next, from his hand
    assert [(kind, data.get("breach")) for kind, data in table.published()] == [
        ("option", "accept"), ("card", None)]
    assert table.played()[-2:] == ["WC6", "NC2"]


def test_with_hands_unknown_one_director_call_for_each_offender(table: LawTable) -> None:
    table.sit_down(deals={})
    table.calls("1NT", "Pass", "Pass", "Pass")
    # West shows out of diamonds (trick 1) and of clubs (trick 2), then plays a diamond
    # (trick 3) and a club (trick 4): two revokes, one offender.
    table.mark()
    table.cards("D4 D6 S3 D5  C2 H2 C4 C8  D7 D8 D9 DT  C3 C5 C6 C7")
    calls = [data for kind, data in table.published() if kind == "director"]
    assert [(c["reason"], c["seat"]) for c in calls] == [("revoke", "W")]
    board = table.state.board
    assert board is not None and board.play is not None
    assert [(r.seat, r.trick) for r in board.play.revokes] == [(W, 0), (W, 1)]
