"""The play at the card reader and the keypads: leads, following suit, revokes, claims.

Board 1 of every test: 1NT by North, East to lead, with the deal of tests/rules/test_play.py
known from the assignment unless a test says otherwise:
N KT8.A96.A95.7542  E Q5.KJ52.KQ874.T8  S AJ92.874.JT6.AQ3  W 7643.QT3.32.KJ96
"""

from __future__ import annotations

import pytest

from laws import Seat
from tablemodel.state import Phase

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
    assert lead.phase is Phase.LEAD          # Law 41A: the opening lead is face down
    lead.press(E, "OK")                      # the leader faces it (Law 41C)
    assert lead.phase is Phase.PLAY
    lead.play("DJ D3 D5")
    assert [(e.type, dict(e.data)) for e in lead.new_events()] == [
        ("card", {"seat": "E", "card": "D4", "face_down": True}), ("faced", {"seat": "E"}),
        ("card", {"seat": "S", "card": "DJ"}), ("card", {"seat": "W", "card": "D3"}),
        ("card", {"seat": "N", "card": "D5"})]
    play = lead.state.board.play if lead.state.board else None
    assert play is not None and play.turn is S   # dummy won the trick (Law 44G)


def test_dummys_card_may_come_through_declarers_reader(lead: Table) -> None:
    lead.play("D4")
    lead.scan("DJ", N)   # dummy's card on declarer's own reader: declarer plays both
    assert played(lead) == ["E:D4", "S:DJ"]


def test_a_card_of_another_hand_at_a_players_reader_is_a_wrong_board(lead: Table) -> None:
    lead.mark()
    lead.scan("D4", N)   # East's card at North's reader: North holds it (Laws 15, 87)
    assert played(lead) == []
    assert [e.data["reason"] for e in lead.new_events()] == ["fouled_board"]


# -- Laws 54-57: out of turn ---------------------------------------------------------------------

@pytest.mark.parametrize(("before", "card", "offender", "law"), [
    ("D4 DJ D3 D5", "D9", N, "55"),   # dummy won; declarer leads from his own hand
    ("D4 DJ D3 D5", "HT", W, "56"),   # dummy won; a defender leads
])
def test_lead_out_of_turn_is_kept_for_the_option_and_calls_the_director(
        lead: Table, before: str, card: str, offender: Seat, law: str) -> None:
    lead.play(before)
    lead.mark()
    lead.scan(card)
    events = lead.new_events()
    # Laws 55-56: a faced card cannot be unseen; it waits for the opponents' option.
    assert [e.type for e in events] == ["option", "director"]
    assert dict(events[0].data) == {"kind": "lead_out_of_turn", "seat": str(offender),
                                    "card": card, "by": str(offender)}
    director = events[-1]
    turn = lead.state.board.play.turn  # type: ignore[union-attr]
    assert dict(director.data) == {
        "seat": str(offender), "reason": "lead_out_of_turn", "law": law,
        "detail": f"{offender} led out of turn; it is {turn}'s lead",
        # the same, as the engine's message the console says in its language
        "code": "lead_out_of_turn", "params": {"seat": str(offender), "turn": str(turn)}}
    assert len(played(lead)) == len(before.split())
    for seat in Seat:   # every seat is told: the card was faced (Laws 55-56)
        notice = lead.notice(seat)
        assert notice is not None and notice.law == law
    assert len(lead.state.open_director_calls) == 1


@pytest.mark.parametrize(("card", "offender", "law"), [
    ("D2", W, "41A"),    # the wrong defender's lead, made face down: seen by nobody
    ("SK", N, "24"),     # declarer's card as the opening lead (Laws 54E, 24)
])
def test_an_opening_lead_out_of_turn_goes_back_and_calls_the_director(
        lead: Table, card: str, offender: Seat, law: str) -> None:
    lead.mark()
    lead.scan(card)
    events = lead.new_events()
    assert [(e.type, e.data["reason"], e.data["law"]) for e in events] == [
        ("director", "lead_out_of_turn", law)]
    assert played(lead) == [] and lead.state.board is not None
    assert not lead.state.board.play_actions
    notice = lead.notice(offender)
    assert notice is not None and notice.law == law
    assert all(lead.notice(seat) is None for seat in Seat if seat is not offender)


def test_lead_out_of_turn_with_unknown_hands_is_read_from_the_reader_slot(
        table: Table) -> None:
    unknown_hands_lead(table)
    table.play("D4 D6 D3 D5")     # North wins the first trick (the table takes it so)
    table.mark()
    table.scan("SA", W)
    assert table.new_types() == ["option", "director"]
    assert table.new_events()[1].data["law"] == "56"
    table.press(N, "1")     # declarer accepts the lead (Law 53A)
    assert played(table)[-1] == "W:SA"


@pytest.mark.parametrize(("before", "card", "law", "told"), [
    ("D4", "D4", "45A", E),    # a card played already: its owner is told
    ("D4", "S9", "44C", N),    # dummy holds diamonds: declarer, who plays it, is told
])
def test_card_refused_without_a_director(lead: Table, before: str, card: str,
                                         law: str, told: Seat) -> None:
    lead.play(before)
    lead.mark()
    lead.scan(card)
    assert lead.new_events() == []
    notice = lead.notice(told)
    assert notice is not None and notice.law == law
    assert all(lead.notice(seat) is None for seat in Seat if seat is not told)


@pytest.mark.parametrize(("before", "card"), [
    ("D4 D6", "C6"),
    ("D4 D6 D2 D5 DJ", "S7"),   # dummy won and leads; West keeps the D3
])
def test_a_defenders_revoke_is_corrected_into_a_penalty_card(lead: Table, before: str,
                                                              card: str) -> None:
    lead.play(before)
    lead.mark()
    lead.scan(card)
    assert [e.type for e in lead.new_events()] == ["option", "director"]
    assert dict(lead.new_events()[0].data) == {
        "kind": "penalty_card", "seat": "W", "card": card, "major": "major",
        "law": "62B1", "by": "W"}
    assert lead.notice(W) is not None and lead.notice(W).law == "44C"


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
    notice = table.notice(N)         # dummy's card: declarer plays it, declarer is told
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
    assert dict(events[1].data) == {"seat": "S", "reason": "revoke", "law": "61",
                                    "detail": "S revoked on trick 1 (S9)", "code": "revoke",
                                    "params": {"seat": "S", "number": 1, "card": "S9"}}
    table.mark()
    table.play("CJ")              # the same revoke is reported once
    assert table.new_types() == ["card"]


# -- Law 68: claims (tests/laws/test_claims.py has the laws' cases) ------------------------

@pytest.fixture
def opened(lead: Table) -> Table:
    """The opening lead (East's D4) faced: the play period has begun (Law 41C)."""
    lead.play("D4")
    return lead


def test_claim_agreed_by_both_opponents_gives_the_result(lead: Table) -> None:
    lead.play("D4 DJ D3 D5")                  # one trick to North-South
    lead.mark()
    lead.claim(N, 10)                         # 10 of the 12 left
    assert lead.new_types() == ["claim"]
    assert lead.new_events()[0].data == {"seat": "N", "tricks": 10}
    assert lead.view(E)[1:3] == ["N claims 10", "OK agree UNDO no"]
    lead.press(E, "OK")
    assert lead.phase is Phase.PLAY          # one opponent is not enough (Law 69A)
    lead.press(W, "OK")
    assert lead.new_types() == ["claim", "claim_answer", "claim_answer", "result"]
    result = lead.new_events()[-1]
    assert dict(result.data) == {"contract": "1NT", "declarer": "N", "tricks": 11,
                                 "score_ns": 210, "lead": "D4"}
    assert lead.phase is Phase.RESULT


def test_disputed_claim_stops_play_and_calls_the_director(opened: Table) -> None:
    opened.claim(N, 7)
    opened.mark()
    opened.press(E, "UNDO")
    events = opened.new_events()
    assert [e.type for e in events] == ["claim_answer", "director"]
    assert dict(events[0].data) == {"seat": "E", "agree": False}
    assert events[1].data["law"] == "68D"
    assert events[1].data["reason"] == "claim" and events[1].data["seat"] == "E"
    assert opened.view(N)[2:] == ["Claim: director", "Director called"]
    # Law 68D: play ceases.
    opened.mark()
    opened.scan("DJ")
    assert opened.new_events() == []
    assert opened.notice(N) is not None and opened.notice(N).law == "68D"  # plays dummy
    # A disputed claim cannot be agreed afterwards.
    opened.press(W, "OK")
    assert opened.new_events() == []
    assert opened.notice(W) is not None and opened.notice(W).law == "69"


def test_disputed_claim_is_settled_by_a_ruling(opened: Table) -> None:
    opened.claim(N, 7)
    opened.press(E, "UNDO")
    opened.mark()
    opened.command("r-claim", "ruling", {"kind": "claim", "tricks": 6})
    assert opened.new_types() == ["ruling", "result"]
    assert opened.new_events()[-1].data["tricks"] == 6
    assert opened.new_events()[-1].data["score_ns"] == -50


def test_ruling_that_play_goes_on_after_a_disputed_claim(opened: Table) -> None:
    opened.claim(N, 7)
    opened.press(E, "UNDO")
    opened.command("r-claim", "ruling", {"kind": "claim"})   # no tricks: play continues
    opened.play("DJ")
    assert played(opened) == ["E:D4", "S:DJ"]


@pytest.mark.parametrize(("seat", "tricks", "law"), [
    (S, 3, "43A1(c)"),       # dummy may not claim: no claim page for it
    (N, 14, "68"),           # 14 tricks with 13 left
])
def test_claim_refused_naming_its_law(opened: Table, seat: Seat, tricks: int,
                                      law: str) -> None:
    opened.mark()
    if law == "43A1(c)":
        with pytest.raises(AssertionError):
            opened.open_page(seat, "claim")
        return
    opened.claim(seat, tricks, confirm=False)
    assert opened.new_events() == []
    notice = opened.notice(seat)
    assert notice is not None and notice.law == law


def test_claimer_cannot_answer_own_claim(opened: Table) -> None:
    opened.claim(N, 7)
    opened.mark()
    opened.press(N, "OK")
    assert opened.new_events() == []
    assert opened.notice(N) is not None and opened.notice(N).law == "69A"


def test_ok_without_a_number_asks_how_to_claim(opened: Table) -> None:
    opened.open_page(N, "claim")
    opened.press(N, "OK")
    notice = opened.notice(N)
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
