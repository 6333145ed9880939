"""Changes of call (Law 25, seed 002's 2007 text).

25A1: until partner calls, a player may replace an unintended call, without pause for thought
(the table takes a change within the regulation's 5 seconds as that); 25A3: if the auction
ended first, until the end of the auction period. 25A4 (2017: 25A5): the left-hand opponent
may then withdraw a call made over the unintended one; the information from it is authorised
for that side only (16D: the other side may not use it), and the table records it for the
director. 25B1: a change not allowed under A (after a pause) may be accepted by the left-hand
opponent (it is, if he calls over it); 25B2: otherwise it is cancelled and the original call
stands, and the auction with it.

Board 1: North deals; the deal is known.
"""

from __future__ import annotations

import pytest

from tablemodel.state import Phase

from .table import E, LawTable, N, S, W


@pytest.fixture
def changed(table: LawTable) -> LawTable:
    """North bids 1H without meaning to, East bids 1S over it, and North at once replaces
    the 1H with the 1C he meant (25A1): East may withdraw his 1S or let it stand."""
    table.sit_down()
    table.calls("1H", "1S")
    table.keys(N, "UNDO")
    table.mark()
    table.call(N, "1C")
    return table


def test_the_left_hand_opponent_is_asked_about_his_call(changed: LawTable) -> None:
    assert changed.published() == [("change", {"seat": "N", "call": "1C"})]
    assert changed.auction() == ["1C"]
    assert changed.display(E)[2] == "Keep 1♠? OK/UNDO"
    for seat in (N, S, W):
        assert "Keep" not in changed.shown(seat)


def test_he_lets_it_stand(changed: LawTable) -> None:
    changed.mark()
    changed.keys(E, "OK")
    assert changed.published() == [("option", {"kind": "call_over_change", "seat": "E",
                                                "lho_call": "stand", "by": "E"})]
    assert changed.auction() == ["1C", "1S"]
    assert changed.display(S)[2] == "Your call"


def test_he_withdraws_it_and_the_director_sees_it_recorded(changed: LawTable) -> None:
    changed.mark()
    changed.keys(E, "UNDO")
    assert changed.published() == [("option", {"kind": "call_over_change", "seat": "E",
                                               "lho_call": "withdraw", "by": "E"})]
    assert changed.auction() == ["1C"]
    assert changed.display(E)[3] == "Withdrawn: new call"
    changed.calls("1D")
    board = changed.state.board
    assert board is not None
    assert [(r.kind, r.data["lho_call"]) for r in board.records] == [
        ("call_over_change", "withdraw")]


def test_another_call_of_his_withdraws_it(changed: LawTable) -> None:
    changed.mark()
    changed.call(E, "1D")
    assert changed.published_types() == ["option", "call"]
    assert changed.published()[0][1]["lho_call"] == "withdraw"
    assert changed.auction() == ["1C", "1D"]


def test_a_call_that_can_no_longer_stand_is_withdrawn(table: LawTable) -> None:
    table.sit_down()
    table.calls("1H", "1S")
    table.keys(N, "UNDO")
    table.mark()
    table.call(N, "1NT")                     # 1S is insufficient over 1NT: it cannot stand
    assert table.published() == [
        ("change", {"seat": "N", "call": "1NT"}),
        ("option", {"kind": "call_over_change", "seat": "E", "lho_call": "withdraw",
                    "by": None})]
    assert table.display(E)[2] == "Your call"


@pytest.fixture
def late_change(table: LawTable) -> LawTable:
    """1NT P P P; South changes the third pass to 2C after thinking (25B): West, whose pass
    had closed the auction, is asked."""
    table.sit_down()
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.wait(8)
    table.keys(S, "UNDO")
    table.call(S, "2C")
    return table


def test_a_refused_late_change_leaves_the_auction_closed(late_change: LawTable) -> None:
    table = late_change
    assert table.auction() == ["1NT", "Pass", "2C"]
    assert table.display(W)[2] == "Change: OK=yes UNDO"
    director = [d for kind, d in table.uplink_published() if kind == "director"]
    assert [(d["reason"], d["law"]) for d in director] == [("change_of_call", "25B")]
    table.keys(W, "UNDO")                    # 25B2: not accepted
    assert table.auction() == ["1NT", "Pass", "Pass", "Pass"]
    assert table.phase is Phase.LEAD
    assert table.display(E)[2] == "Your lead"


def test_an_accepted_late_change_stands(late_change: LawTable) -> None:
    table = late_change
    table.keys(W, "OK")                      # 25B1
    assert table.auction() == ["1NT", "Pass", "2C"]
    assert table.display(W)[2] == "Your call"
    table.calls("Pass", "2H", "Pass", "Pass", "Pass")
    assert table.phase is Phase.LEAD
