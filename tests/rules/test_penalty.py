"""Cards seen when they should not be, law by law: penalty cards (Laws 49-52) and leads out of
turn (Laws 53-56). Each test starts from the physical event (the card seen) and goes through
every option the law gives, asserting the state that results.

Board 11 of the RealBridge qualifier, 1NT by North, East to lead:
N KT8.A96.A95.7542  E Q5.KJ52.KQ874.T8  S AJ92.874.JT6.AQ3  W 7643.QT3.32.KJ96
"""

from __future__ import annotations

import pytest

from laws import Card, Contract, Deal, IllegalCardError, Seat, Suit
from laws.penalty import FacedLead, LeadOption, PenaltyCard, PenaltyLeadOption
from laws.play import Play

DEAL = Deal.from_pbn("N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96")
N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def c(text: str) -> Card:
    return Card.from_str(text)


def new_play() -> Play:
    return Play(Contract.from_str("1NT"), N, DEAL)


def play_cards(play: Play, text: str) -> None:
    for card in text.split():
        play.play(c(card))


def refused(play: Play, card: str, seat: Seat | None = None) -> str:
    with pytest.raises(IllegalCardError) as caught:
        play.play(c(card), seat)
    return caught.value.law


# -- Law 50B: major or minor ----------------------------------------------------------------------

@pytest.mark.parametrize(("seat", "card", "major", "expected"), [
    (E, "DK", None, True),     # an honour is a major penalty card
    (W, "HT", None, True),     # the ten is an honour
    (E, "D4", None, False),    # a card below an honour, dropped: minor
    (E, "D4", True, True),     # ... unless exposed through deliberate play
])
def test_an_exposed_defenders_card_is_a_major_or_minor_penalty_card(
        seat: Seat, card: str, major: bool | None, expected: bool) -> None:
    play = new_play()
    penalty = play.expose(seat, c(card), major)
    assert penalty == PenaltyCard(seat, c(card), expected)
    assert play.penalty_cards_of(seat) == [penalty]   # Law 50A: it stays face up


@pytest.mark.parametrize(("seat", "card", "law"), [
    (N, "SK", "48A"),    # declarer's exposed card is no penalty card
    (S, "SA", "48A"),    # nor dummy's
    (E, "SA", "45A"),    # not East's card
])
def test_only_a_defenders_own_card_becomes_a_penalty_card(seat: Seat, card: str,
                                                          law: str) -> None:
    play = new_play()
    with pytest.raises(IllegalCardError) as caught:
        play.expose(seat, c(card))
    assert caught.value.law == law and play.penalty_cards == []


# -- Law 50D1 and 52: a major penalty card at the first legal opportunity ------------------------

def test_a_major_penalty_card_must_be_led_when_its_owner_leads() -> None:
    play = new_play()
    play.expose(E, c("HK"))                        # East drops the king of hearts
    assert refused(play, "D4") == "50D1"           # Law 52: another card is not accepted
    play.play(c("HK"))                             # the first legal opportunity: the lead
    assert play.penalty_cards == [] and play.current.cards == [(E, c("HK"))]


def test_a_major_penalty_card_waits_while_its_owner_follows_another_suit() -> None:
    play = new_play()
    play.expose(W, c("S7"), major=True)            # West's seven, exposed deliberately
    play.choose_penalty_lead(PenaltyLeadOption.FREE)   # Law 50D2(b): East leads freely
    play_cards(play, "D4 DJ")
    play.play(c("D3"))                             # West must follow in diamonds: allowed
    assert play.penalty_cards_of(W) == [PenaltyCard(W, c("S7"), True)]
    play_cards(play, "D5")                         # South won: South leads a spade
    play_cards(play, "S2")
    assert refused(play, "S3") == "50D1"           # West's first legal opportunity
    play.play(c("S7"))
    assert play.penalty_cards == []


# -- Law 50C: a minor penalty card --------------------------------------------------------------

def test_a_minor_penalty_card_comes_before_a_lower_card_of_its_suit() -> None:
    play = new_play()
    play.expose(E, c("D4"))                        # East drops the four of diamonds
    assert refused(play, "D7") == "50C"            # not a lower card of the suit first
    assert refused(play, "D8") == "50C"
    play.play(c("DK"))                             # an honour may be played instead
    assert play.penalty_cards_of(E) == [PenaltyCard(E, c("D4"), False)]


def test_a_minor_penalty_card_leaves_other_suits_free() -> None:
    play = new_play()
    play.expose(E, c("D4"))
    play.play(c("H2"))                             # another suit: no restriction
    assert play.penalty_lead_pending is None


# -- Law 50D2: partner of a major penalty card's owner to lead ------------------------------------

def west_penalty_east_to_lead() -> Play:
    """West drops the jack of clubs (an honour, major); East is to lead."""
    play = new_play()
    play.expose(W, c("CJ"))
    return play


def test_the_lead_waits_for_declarers_choice() -> None:
    play = west_penalty_east_to_lead()
    assert play.penalty_lead_pending is E
    assert refused(play, "D4") == "50D2"


def test_declarer_requires_the_suit_and_the_card_is_picked_up() -> None:
    play = west_penalty_east_to_lead()
    restriction = play.choose_penalty_lead(PenaltyLeadOption.REQUIRE)
    assert restriction is not None and (restriction.seat, restriction.suit,
                                        restriction.required) == (E, Suit.C, True)
    assert play.penalty_cards == [] and play.penalty_lead_pending is None
    assert refused(play, "D4") == "50D2"           # East holds clubs: must lead one
    play.play(c("C8"))
    play.play(c("C3"))                             # South
    play.play(c("CJ"))                             # West's jack is back in the hand


def test_declarer_forbids_the_suit_for_as_long_as_east_keeps_the_lead() -> None:
    play = west_penalty_east_to_lead()
    play.choose_penalty_lead(PenaltyLeadOption.FORBID)
    assert play.penalty_cards == []
    assert refused(play, "CT") == "50D2"
    play_cards(play, "DK D6 D2 DA")                # North wins: East lost the lead
    play_cards(play, "S8 S5 SA S3")                # ... the prohibition is over
    assert play.current.leader is S


def test_declarer_leaves_the_lead_free_and_the_card_stays() -> None:
    play = west_penalty_east_to_lead()
    assert play.choose_penalty_lead(PenaltyLeadOption.FREE) is None
    play.play(c("C8"))                             # any lead
    assert play.penalty_cards_of(W) == [PenaltyCard(W, c("CJ"), True)]
    play.play(c("C3"))
    assert refused(play, "C6") == "50D1"           # West must now play the jack


def test_the_choice_is_declarers_only_when_partner_is_to_lead() -> None:
    play = new_play()
    play.expose(E, c("DK"))
    assert play.penalty_lead_pending is None       # East leads: it is his own card
    with pytest.raises(IllegalCardError):
        play.choose_penalty_lead(PenaltyLeadOption.FREE)


# -- Laws 53, 54: the opening lead faced out of turn ----------------------------------

def west_leads_first() -> tuple[Play, FacedLead]:
    play = new_play()
    faced = play.face_lead(W, c("D2"))            # West faces the opening lead: East's turn
    return play, faced


def test_the_opening_lead_out_of_turn_is_kept_and_declarer_chooses() -> None:
    play, faced = west_leads_first()
    assert faced == FacedLead(W, c("D2"), "54", 0)
    assert play.lead_choosers() == {N}
    assert refused(play, "D4") == "54"             # nothing else until declarer chooses


def test_declarer_accepts_the_opening_lead_and_plays_second() -> None:
    play, _ = west_leads_first()
    play.choose_lead_option(LeadOption.ACCEPT)     # Law 53A, 54B1
    play.play(c("D2"), W)
    assert play.turn is N and play.declarer is N and play.dummy is S
    play_cards(play, "D5 D4 DT")
    assert play.current.leader is S                # South's ten won


def test_declarer_becomes_dummy() -> None:
    play, _ = west_leads_first()
    play.choose_lead_option(LeadOption.BECOME_DUMMY)   # Law 54A: North spreads his hand
    assert play.declarer is S and play.dummy is N
    play.play(c("D2"), W)                          # now the right lead: South's LHO
    assert play.turn is N and play.controller(N) is S   # South plays dummy's cards


def test_declarer_refuses_the_opening_lead_and_it_is_a_major_penalty_card() -> None:
    play, _ = west_leads_first()
    play.choose_lead_option(LeadOption.REFUSE)     # Laws 54D, 56
    assert play.penalty_cards == [PenaltyCard(W, c("D2"), True, "56")]
    assert play.turn is E and play.penalty_lead_pending is E   # Law 50D2 for East's lead
    play.choose_penalty_lead(PenaltyLeadOption.REQUIRE)
    play.play(c("D4"))
    assert play.penalty_cards == []


# -- Law 56: a defender leads out of turn later; Law 55: declarer does ---------------

def after_first_trick() -> Play:
    play = new_play()
    play_cards(play, "D4 DJ D3 D5")                # South (dummy) won: South to lead
    return play


def test_a_defenders_lead_out_of_turn_may_be_accepted() -> None:
    play = after_first_trick()
    faced = play.face_lead(W, c("HT"))
    assert faced.law == "56" and play.lead_choosers() == {N}
    with pytest.raises(IllegalCardError):
        play.choose_lead_option(LeadOption.BECOME_DUMMY)   # only for the opening lead
    play.choose_lead_option(LeadOption.ACCEPT)
    play.play(c("HT"), W)
    assert play.turn is N


def test_a_defenders_lead_out_of_turn_refused_is_a_major_penalty_card() -> None:
    play = after_first_trick()
    play.face_lead(W, c("HT"))
    play.choose_lead_option(LeadOption.REFUSE)
    assert play.penalty_cards == [PenaltyCard(W, c("HT"), True, "56")]
    assert play.turn is S and play.penalty_lead_pending is None   # South is not his partner


def test_declarers_lead_from_the_wrong_hand_is_the_defenders_choice() -> None:
    play = after_first_trick()
    faced = play.face_lead(N, c("D9"))            # North leads; dummy won the trick
    assert faced.law == "55" and play.lead_choosers() == {E, W}
    play.choose_lead_option(LeadOption.REFUSE)     # Law 55B: back to the hand, no penalty
    assert play.penalty_cards == [] and play.turn is S
    play.play(c("DT"))


def test_declarers_lead_from_the_wrong_hand_accepted() -> None:
    play = after_first_trick()
    play.face_lead(N, c("D9"))
    play.choose_lead_option(LeadOption.ACCEPT)     # Law 55A
    play.play(c("D9"), N)
    assert play.turn is E
