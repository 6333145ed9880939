"""The opening lead and what the table may show (Laws 20, 22B, 25A3, 40B, 41).

Law 41A (2017): the opening lead is made face down; only the director may have it withdrawn,
after an irregularity. 41B: before it is faced the leader's partner and the presumed declarer
(not the presumed dummy) may have the auction reviewed and ask about it. 41C: then it is
faced, the play period begins, dummy is spread; once it is too late to have the calls
restated, a player at his own turn to play may learn only what the contract is and whether,
not by whom, it was doubled (41B: the review at one's first turn to play ends when one plays
a card). Seed 002's Law 22B1: the auction period ends when the opening lead is faced, so a
change of an unintended call (25A3) is possible until then.

Law 20G2, 40B2(b) (2007; 2017 40C3(a)): no aid to memory: a player asked about partner's call
answers from memory and is not shown his own card; the one who asked may see the opponents'
card (40B2(c)).

Board 1: North deals, 1NT by North (P P P), East leads; no screens.
"""

from __future__ import annotations

import pytest

from tablemodel.state import Phase

from .table import E, LawTable, N, S, W, seed_card


@pytest.fixture
def auction_over(table: LawTable) -> LawTable:
    table.sit_down()
    table.calls("1NT", "Pass", "Pass", "Pass")
    return table


def test_the_opening_lead_is_private_until_its_leader_faces_it(auction_over: LawTable) -> None:
    table = auction_over
    table.mark()
    table.card("D4")
    assert table.published() == [("card", {"seat": "E", "card": "D4", "face_down": True})]
    assert table.phase is Phase.LEAD
    assert table.display(E)[1:3] == ["Your card ♦4", "OK to face it"]
    for seat in (N, S, W):
        assert "D4" not in table.shown(seat), seat
        assert table.display(seat)[1] == "Lead is face down"
    assert table.public_cards() == []
    board = table.state.board
    assert board is not None
    table.keys(W, "OK")                      # not West's to face
    assert board.face_down
    table.keys(E, "OK")                      # Law 41C: faced, the play period begins
    assert table.published()[-1] == ("faced", {"seat": "E"})
    assert table.phase is Phase.PLAY
    for seat in (N, E, S, W):
        assert "E:♦4" in table.display(seat)[1], seat
    assert table.public_cards() == ["D4"]


def test_the_questions_come_before_the_lead_is_faced(auction_over: LawTable) -> None:
    table = auction_over
    table.card("D4")
    assert table.page(W, "Ask: 1NT by N")    # 41B: the leader's partner may ask
    table.keys(W, "OK")
    assert table.display(S)[1] == "W? 1NT by N"
    table.mark()
    table.keys(E, "OK")                      # the lead waits for the answer
    assert table.published() == []
    assert table.display(E)[3] == "Questions: wait"
    table.keys(S, "OK")                      # South answers
    table.keys(E, "OK")
    assert [kind for kind, _ in table.published()] == ["answer", "faced"]


def test_the_presumed_dummy_does_not_ask_before_the_lead_is_faced(
        auction_over: LawTable) -> None:
    auction_over.card("D4")
    assert not auction_over.page(S, "Ask")   # 41B: not the presumed dummy


def test_a_call_may_be_changed_until_the_lead_is_faced(auction_over: LawTable) -> None:
    table = auction_over
    board = table.state.board
    assert board is not None
    table.card("D4")                         # face down: the auction period goes on
    table.mark()
    table.keys(W, "UNDO")                    # West's unintended pass, at once (25A1, 25A3)
    assert table.display(W)[3] == "Enter intended call"
    table.call(W, "2C")
    assert table.published() == [("change", {"seat": "W", "call": "2C"})]
    assert table.auction() == ["1NT", "Pass", "Pass", "2C"]
    assert board.cards == []                 # the face-down lead goes back to the hand
    assert table.phase is Phase.AUCTION


def test_the_result_names_the_lead_that_stood_not_the_one_that_went_back(
        auction_over: LawTable) -> None:
    """A face-down lead withdrawn with a change of call (25A3) was never the lead: after the
    new auction the result names the card that was faced (Law 41C), for the travellers."""
    table = auction_over
    table.card("D4")
    table.keys(W, "UNDO")
    table.call(W, "2C")                      # 1NT P P 2C: the auction goes on
    table.calls("Pass", "Pass", "Pass")      # 2C by West: North leads
    board = table.state.board
    assert board is not None and board.deal is not None
    lead = str(sorted(board.deal.hands[N])[0])
    table.cards(lead)                        # faced by its leader
    table.mark()
    assert table.page(W, "Claim: your tricks")
    table.keys(W, "C", "OK", "OK")           # C is the digit 8: declarer claims 8
    table.keys(N, "OK")
    table.keys(S, "OK")                      # Law 69A: both opponents agree
    kind, data = table.published()[-1]
    assert kind == "result" and data["contract"] == "2C" and data["lead"] == lead != "D4"


def test_once_faced_it_is_too_late_to_change_a_call(auction_over: LawTable) -> None:
    table = auction_over
    table.cards("D4")
    table.mark()
    table.keys(W, "UNDO")
    assert table.published() == []
    assert table.display(W)[3] == "Too late L25A"


def test_a_lead_by_the_defender_not_on_lead_is_seen_by_nobody(auction_over: LawTable) -> None:
    table = auction_over
    table.mark()
    table.card("D2")                         # West's card: East is on lead
    published = table.published()
    assert [(kind, data.get("reason"), data.get("law")) for kind, data in published] == [
        ("director", "lead_out_of_turn", "41A")]
    assert table.display(W)[3] == "It is E's lead L41A"
    for seat in (N, E, S):
        assert "D2" not in table.shown(seat)
    assert table.public_cards() == []
    table.cards("D4")                        # East leads, and the play goes on
    assert table.played() == ["ED4"]


def test_the_review_of_the_auction_in_the_play(auction_over: LawTable) -> None:
    table = auction_over
    table.cards("D4")
    # South (dummy) has no review; East, who has played, only at his turn; not now.
    assert not table.page(S, "1NT P P P")
    assert not table.page(E, "1NT P P P")
    assert table.page(N, "1NT P P P")        # declarer's first turn: from dummy (41B)
    table.keys(N, "INFO", "INFO")
    table.cards("DJ")                        # declarer plays dummy's card: it ends
    assert not table.page(N, "1NT P P P")
    assert table.page(W, "1NT P P P")        # West's first turn to play
    table.keys(W, "INFO")
    table.cards("D3 D5")                     # South (dummy) won: declarer to lead from it
    assert table.page(N, "1NT by N")         # 41C: only the contract now
    assert not table.page(N, "1NT P P P")
    assert not table.page(W, "1NT")          # not West's turn: nothing


def test_the_player_asked_answers_from_memory(table: LawTable) -> None:
    table.sit_down(conduct={"cards": {"NS": seed_card(), "EW": seed_card()}})
    table.calls("1NT", "Pass", "2C")
    table.keys(N, "ALERT")                   # partner alerts (the federation's norms)
    assert table.page(W, "Ask: 2♣ by S")     # West, at his turn, asks about South's 2C
    table.keys(W, "OK")
    assert table.display(N)[1] == "W? 2♣ by S"
    assert "Stayman" not in table.shown(N)   # not North's own card (a memory aid)
    assert table.display(N)[2] == "1 natural"
    table.mark()
    table.keys(N, "3", "S", "OK")            # the card's code 30, from memory
    assert table.published()[-1][1]["code"] == 30
    assert table.display(W)[2].startswith("2♣: Stayman")
