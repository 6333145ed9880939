"""Claims and concessions (Laws 68 to 70), and a call keyed after the auction (Law 39).

Law 68 (2017): a claim is a statement that one's side will win a number of the tricks not yet
played; a concession, that it will lose them. It is a deliberate act: at the table it is made
on the claim page that INFO brings, the number of tricks typed and shown back for an OK.
There is no claim before the play period begins (Law 41C: the opening lead faced). Law 68B2:
a defender's concession that partner objects to at once has not occurred; unauthorised
information may exist, so the director is summoned at once, and play goes on. Law 68D: after
a claim play ceases; an objection brings the director. Law 43A1(c): dummy does not claim.
Law 39 (2007): a call after the final pass is cancelled; the table refuses it, and says so to
the one who keyed it only.

Board 1: North deals, 1NT by North (P P P), East leads.
"""

from __future__ import annotations

import pytest

from laws import Seat
from tablemodel.state import Phase

from .table import E, LawTable, N, S, W


@pytest.fixture
def auction_over(table: LawTable) -> LawTable:
    table.sit_down()
    table.calls("1NT", "Pass", "Pass", "Pass")
    return table


@pytest.fixture
def second_trick(auction_over: LawTable) -> LawTable:
    """The first trick played (East's D4 faced, South's DJ wins it), dummy to lead."""
    auction_over.cards("D4 DJ D3 D5")
    return auction_over


@pytest.mark.parametrize("keys", [["1", "S", "OK"], ["3", "C", "OK"], ["2", "D", "OK"],
                                  ["7", "NT", "OK"], ["PASS", "OK"]])
@pytest.mark.parametrize(("when", "seat"), [("after the final pass", N),
                                            ("at the second trick", E)])
def test_a_call_keyed_after_the_auction_is_refused_as_law_39_and_never_a_claim(
        auction_over: LawTable, when: str, seat: Seat, keys: list[str]) -> None:
    table = auction_over
    if when == "at the second trick":
        table.cards("D4 DJ D3 D5")
    table.mark()
    table.keys(seat, *keys)
    assert table.published() == []                       # no claim, nothing at all
    assert table.display(seat)[3] == "Auction over L39"
    for other in (N, E, S, W):
        if other is not seat:
            assert "L39" not in table.shown(other) and "claims" not in table.shown(other)
    board = table.state.board
    assert board is not None and board.play is not None and board.play.claim is None


def test_a_number_keyed_in_the_play_is_no_claim(second_trick: LawTable) -> None:
    second_trick.mark()
    second_trick.keys(N, "7", "OK")
    assert second_trick.published() == []
    assert second_trick.display(N)[3] == "To claim: INFO"


def test_a_claim_is_typed_on_its_own_page_and_confirmed(second_trick: LawTable) -> None:
    table = second_trick
    assert table.page(N, "Claim: your tricks")
    assert table.display(N)[2] == "of 12 left, OK"
    table.keys(N, "1", "S")                      # S is the digit 0
    assert table.display(N)[3] == "> 10"
    table.mark()
    table.keys(N, "OK")
    assert table.published() == []               # shown back first
    assert table.display(N)[1:3] == ["Claim 10 of 12?", "OK yes  UNDO no"]
    table.keys(N, "OK")
    assert table.published() == [("claim", {"seat": "N", "tricks": 10})]
    for seat in (E, S, W):
        assert table.display(seat)[1] == "N claims 10"
    assert table.display(E)[2] == table.display(W)[2] == "OK agree UNDO no"
    table.keys(E, "OK")
    table.keys(W, "OK")                          # Law 69A: both opponents agree
    assert table.phase is Phase.RESULT
    assert table.published()[-1] == ("result", {"contract": "1NT", "declarer": "N",
                                                "tricks": 11, "score_ns": 210, "lead": "D4"})


def test_undo_takes_the_number_back_before_it_is_claimed(second_trick: LawTable) -> None:
    table = second_trick
    assert table.page(E, "Claim")
    table.keys(E, "2", "OK")
    assert table.display(E)[1] == "Claim 2 of 12?"
    table.mark()
    table.keys(E, "UNDO", "UNDO", "UNDO")        # the confirmation, the digit, the page
    assert table.published() == []
    assert not table.display(E)[1].startswith("Claim")


def test_there_is_no_claim_before_the_opening_lead_is_faced(auction_over: LawTable) -> None:
    table = auction_over
    table.mark()
    assert not table.page(N, "Claim")            # INFO offers no claim page (Law 41C)
    table.keys(N, "7", "OK")                     # nor is a number one
    table.card("D4")                             # East's lead, face down
    assert not table.page(N, "Claim")
    assert not table.page(E, "Claim")
    assert table.published_types() == ["card"]


def test_dummy_has_no_claim_page(second_trick: LawTable) -> None:
    assert not second_trick.page(S, "Claim")     # Law 43A1(c)
    second_trick.keys(S, "7", "OK")
    assert second_trick.display(S)[3] == "Dummy L43A1(c)"


def test_a_claim_of_more_tricks_than_are_left_is_refused(second_trick: LawTable) -> None:
    table = second_trick
    assert table.page(N, "Claim")
    table.mark()
    table.keys(N, "1", "3", "OK")                # 13, with 12 left
    assert table.published() == []
    assert table.display(N)[3] == "12 tricks left L68"


def test_a_disputed_claim_stops_play_and_calls_the_director(second_trick: LawTable) -> None:
    table = second_trick
    assert table.page(N, "Claim")
    table.keys(N, "7", "OK", "OK")
    table.mark()
    table.keys(W, "UNDO")                        # Law 68D: West objects
    assert [(kind, data.get("reason"), data.get("law")) for kind, data in table.published()] \
        == [("claim_answer", None, None), ("director", "claim", "68D")]
    assert table.display(N)[2:] == ["Claim: director", "Director called"]
    table.mark()
    table.card("S2")                             # play has ceased
    assert table.published() == []


def test_a_concession_partner_objects_to_is_void_and_calls_the_director(
        second_trick: LawTable) -> None:
    table = second_trick
    assert table.page(E, "Claim")
    table.keys(E, "2", "OK", "OK")               # East claims 2: concedes 10
    table.mark()
    table.keys(W, "UNDO")                        # Law 68B2: partner objects at once
    published = table.published()
    assert [kind for kind, _ in published] == ["claim_answer", "director"]
    assert (published[1][1]["reason"], published[1][1]["law"], published[1][1]["seat"]) == (
        "concession", "68B2", "W")
    for seat in (N, E, S, W):
        assert table.display(seat)[3] == "Concession void"
    board = table.state.board
    assert board is not None and board.play is not None and board.play.claim is None
    table.cards("S2")                            # no concession: play goes on
    assert table.played()[-1] == "SS2"
