"""The play at the card reader and the keypads: leads, following suit, revokes, claims.

Board 1 of every test: 1NT by North, East to lead, with the deal of tests/rules/test_play.py
known from the assignment unless a test says otherwise:
N KT8.A96.A95.7542  E Q5.KJ52.KQ874.T8  S AJ92.874.JT6.AQ3  W 7643.QT3.32.KJ96
"""

from __future__ import annotations

import pytest

from tabled.rules import Seat
from tabled.state import Phase

from .helpers import DEAL, PBN, Table, reach

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


@pytest.fixture
def lead(table: Table) -> Table:
    reach(table, Phase.LEAD)
    return table


def unknown_hands_lead(table: Table) -> Table:
    """Board 1 with no deal known: the table cannot tell whose card is whose."""
    table.start([1, 2])
    table.calls("1NT", "Pass", "Pass", "Pass")
    return table


def played(table: Table) -> list[str]:
    board = table.state.board
    assert board is not None
    return [f"{seat}:{card}" for seat, card in board.cards]


def test_cards_in_turn_are_played(lead: Table) -> None:
    lead.mark()
    lead.scan("D4")
    assert lead.phase is Phase.PLAY
    lead.play("DJ D3 D5")
    assert [(e.type, dict(e.data)) for e in lead.new_events()] == [
        ("card", {"seat": "E", "card": "D4"}), ("card", {"seat": "S", "card": "DJ"}),
        ("card", {"seat": "W", "card": "D3"}), ("card", {"seat": "N", "card": "D5"})]
    play = lead.state.board.play if lead.state.board else None
    assert play is not None and play.turn is S   # dummy won the trick (Law 44G)


def test_known_hand_decides_whose_card_it_is_not_the_reader_slot(lead: Table) -> None:
    lead.scan("D4", N)   # East's card put down at North's slot
    assert played(lead) == ["E:D4"]


# -- Laws 54-57: out of turn ---------------------------------------------------------------------

@pytest.mark.parametrize(("before", "card", "offender", "law", "kept"), [
    ("", "D2", W, "54", True),            # the opening lead faced by the wrong defender
    ("", "SK", N, "54", False),           # declarer's card as the opening lead: the director
    ("D4 DJ D3 D5", "D9", N, "55", True),   # dummy won; declarer leads from his own hand
    ("D4 DJ D3 D5", "HT", W, "56", True),   # dummy won; a defender leads
])
def test_lead_out_of_turn_is_kept_for_the_option_and_calls_the_director(
        lead: Table, before: str, card: str, offender: Seat, law: str, kept: bool) -> None:
    lead.play(before)
    lead.mark()
    lead.scan(card)
    events = lead.new_events()
    # Laws 54-56: a faced card cannot be unseen; it waits for the opponents' option.
    assert [e.type for e in events] == (["option", "director"] if kept else ["director"])
    if kept:
        assert dict(events[0].data) == {"kind": "lead_out_of_turn", "seat": str(offender),
                                        "card": card, "by": str(offender)}
    director = events[-1]
    assert dict(director.data) == {
        "seat": str(offender), "reason": "lead_out_of_turn", "law": law,
        "detail": director.data["detail"]}
    assert str(offender) in director.data["detail"]
    assert len(played(lead)) == len(before.split())
    for seat in Seat:   # every seat is told: the opponents have options (Laws 54-56)
        notice = lead.notice(seat)
        assert notice is not None and notice.law == law
    assert len(lead.state.open_director_calls) == 1


def test_lead_out_of_turn_with_unknown_hands_is_read_from_the_reader_slot(
        table: Table) -> None:
    unknown_hands_lead(table)
    table.mark()
    table.scan("SA", W)
    assert table.new_types() == ["option", "director"]
    assert table.new_events()[1].data["law"] == "54"
    table.press(N, "1")     # declarer accepts the lead (Law 53A)
    assert played(table) == ["W:SA"]


@pytest.mark.parametrize(("before", "card", "law"), [
    ("D4", "D4", "45A"),    # a card played already
    ("D4", "S9", "44C"),    # dummy holds diamonds: must follow suit
    ("D4 D6", "C6", "44C"),
    ("D4 D6 D2 D5 DJ", "S7", "44C"),   # dummy won and leads; West keeps the D3
])
def test_card_refused_without_a_director(lead: Table, before: str, card: str,
                                         law: str) -> None:
    lead.play(before)
    lead.mark()
    lead.scan(card)
    assert lead.new_events() == []
    notice = lead.notice(N)
    assert notice is not None and notice.law == law


def test_failure_to_follow_suit_is_refused_with_scanned_hands(table: Table) -> None:
    table.start([1, 2])
    for seat in Seat:
        for card in DEAL[seat]:
            table.scan(card, seat)
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.play("D4")
    table.mark()
    table.scan("S9")
    assert table.new_events() == []
    notice = table.notice(S)
    assert notice is not None and notice.law == "44C"


def test_unknown_hands_let_a_revoke_stand_until_it_comes_to_light(table: Table) -> None:
    unknown_hands_lead(table)
    table.play("D4 S9 D3 D5")     # South shows out of diamonds; North wins with D5
    table.mark()
    table.play("C2 C8")
    assert table.new_types() == ["card", "card"]
    table.mark()
    table.play("DJ")              # ... and then plays one: Law 61, the director
    events = table.new_events()
    assert [e.type for e in events] == ["card", "director"]
    assert dict(events[1].data) == {"seat": None, "reason": "revoke", "law": "61",
                                    "detail": "S revoked on trick 1 (S9)"}
    table.mark()
    table.play("CJ")              # the same revoke is reported once
    assert table.new_types() == ["card"]


# -- Law 68: claims ----------------------------------------------------------------------------

def test_claim_agreed_by_both_opponents_gives_the_result(lead: Table) -> None:
    lead.play("D4 DJ D3 D5")                  # one trick to North-South
    lead.mark()
    lead.press(N, "1", "S", "OK")             # 10 of the 12 left (S is the digit 0)
    assert lead.new_types() == ["claim"]
    assert lead.new_events()[0].data == {"seat": "N", "tricks": 10}
    assert lead.view(E)[1:3] == ["N claims 10", "OK agree UNDO no"]
    lead.press(E, "OK")
    assert lead.phase is Phase.PLAY          # one opponent is not enough (Law 69A)
    lead.press(W, "OK")
    assert lead.new_types() == ["claim", "claim_answer", "claim_answer", "result"]
    result = lead.new_events()[-1]
    assert dict(result.data) == {"contract": "1NT", "declarer": "N", "tricks": 11,
                                 "score_ns": 210}
    assert lead.phase is Phase.RESULT


def test_claim_before_the_opening_lead(lead: Table) -> None:
    lead.press(N, "7", "OK")
    lead.press(E, "OK")
    lead.press(W, "OK")
    assert lead.phase is Phase.RESULT
    board = lead.state.board
    assert board is not None and board.result is not None
    assert (board.result.tricks, board.result.score_ns) == (7, 90)


def test_disputed_claim_stops_play_and_calls_the_director(lead: Table) -> None:
    lead.press(N, "7", "OK")
    lead.mark()
    lead.press(E, "UNDO")
    events = lead.new_events()
    assert [e.type for e in events] == ["claim_answer", "director"]
    assert dict(events[0].data) == {"seat": "E", "agree": False}
    assert events[1].data["law"] == "68D"
    assert events[1].data["reason"] == "claim" and events[1].data["seat"] == "E"
    assert lead.view(N)[2:] == ["Claim: director", "Director called"]
    # Law 68D: play ceases.
    lead.mark()
    lead.scan("D4")
    assert lead.new_events() == []
    assert lead.notice(E) is not None and lead.notice(E).law == "68D"
    # A disputed claim cannot be agreed afterwards.
    lead.press(W, "OK")
    assert lead.new_events() == []
    assert lead.notice(W) is not None and lead.notice(W).law == "69"


def test_disputed_claim_is_settled_by_a_ruling(lead: Table) -> None:
    lead.press(N, "7", "OK")
    lead.press(E, "UNDO")
    lead.mark()
    lead.command("r-claim", "ruling", {"kind": "claim", "tricks": 6})
    assert lead.new_types() == ["ruling", "result"]
    assert lead.new_events()[-1].data["tricks"] == 6
    assert lead.new_events()[-1].data["score_ns"] == -50


def test_ruling_that_play_goes_on_after_a_disputed_claim(lead: Table) -> None:
    lead.press(N, "7", "OK")
    lead.press(E, "UNDO")
    lead.command("r-claim", "ruling", {"kind": "claim"})   # no tricks: play continues
    lead.play("D4")
    assert played(lead) == ["E:D4"]


def test_defenders_concession_voided_by_partner_goes_on_without_director(lead: Table) -> None:
    lead.press(E, "2", "OK")         # East claims 2, conceding 11
    lead.mark()
    lead.press(W, "UNDO")            # Law 68B2: partner objects at once
    assert lead.new_types() == ["claim_answer"]
    lead.play("D4")
    assert played(lead) == ["E:D4"]


@pytest.mark.parametrize(("seat", "keys", "law"), [
    (S, ["3", "OK"], "43A1(c)"),       # dummy may not claim
    (N, ["1", "4", "OK"], "68"),        # 14 tricks with 13 left
])
def test_claim_refused_naming_its_law(lead: Table, seat: Seat, keys: list[str],
                                      law: str) -> None:
    lead.mark()
    lead.press(seat, *keys)
    assert lead.new_events() == []
    notice = lead.notice(seat)
    assert notice is not None and notice.law == law


def test_claimer_cannot_answer_own_claim(lead: Table) -> None:
    lead.press(N, "7", "OK")
    lead.mark()
    lead.press(N, "OK")
    assert lead.new_events() == []
    assert lead.notice(N) is not None and lead.notice(N).law == "69A"


def test_ok_without_a_number_asks_how_to_claim(lead: Table) -> None:
    lead.press(N, "OK")
    notice = lead.notice(N)
    assert notice is not None and notice.key == "claim_how"


def test_thirteen_tricks_played_give_the_result(table: Table) -> None:
    reach(table, Phase.RESULT)
    events = table.events()
    assert [e.type for e in events].count("card") == 52
    result = events[-1]
    assert result.type == "result"
    board = table.state.board
    assert board is not None and board.play is not None
    tricks = board.play.tricks_won(N.side)
    assert result.data["tricks"] == tricks
    assert result.data["contract"] == "1NT" and result.data["declarer"] == "N"


def test_pbn_of_the_assignment_is_the_deal_played(lead: Table) -> None:
    board = lead.state.board
    assert board is not None
    assert board.deal.to_pbn() == PBN


def test_a_card_outside_a_known_hand_is_not_played_from_it(table: Table) -> None:
    table.start([1, 2])
    for card in DEAL[N]:             # only North's hand is known
        table.scan(card, N)
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.play("D4 DJ D3")
    table.mark()
    table.scan("D2")                 # North to play; D2 follows suit but is West's
    assert table.new_events() == []
    notice = table.notice(N)
    assert notice is not None and notice.law is not None
