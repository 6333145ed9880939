"""Cards played too soon and what follows, law by law: the choice among penalty cards (51A), a
defender's premature play (57A) with declarer's options, inability to comply (59) and a
defender's card after declarer's lead from the wrong hand went back (60B). Each test starts
from the physical event (the card seen) and goes through the options, asserting the state.

Board 11 of the RealBridge qualifier, 1NT by North, East to lead:
N KT8.A96.A95.7542  E Q5.KJ52.KQ874.T8  S AJ92.874.JT6.AQ3  W 7643.QT3.32.KJ96
"""

from __future__ import annotations

import pytest

from laws import Card, Contract, Deal, IllegalCardError, Seat, Suit
from laws.penalty import LeadOption, PenaltyCard, PlayRestriction, PrematureOption
from laws.play import Play

DEAL = Deal.from_pbn("N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96")
N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
HIGHEST, LOWEST = PrematureOption.HIGHEST, PrematureOption.LOWEST
REQUIRE, FORBID = PrematureOption.REQUIRE, PrematureOption.FORBID


def c(text: str) -> Card:
    return Card.from_str(text)


def new_play(cards: str = "") -> Play:
    play = Play(Contract.from_str("1NT"), N, DEAL)
    for card in cards.split():
        play.play(c(card))
    return play


def refused(play: Play, card: str, seat: Seat | None = None) -> str:
    with pytest.raises(IllegalCardError) as caught:
        play.play(c(card), seat)
    return caught.value.law


# -- Law 51A: declarer designates which penalty card ---------------------------------------------

def test_two_penalty_cards_that_can_be_played_wait_for_declarers_designation() -> None:
    play = new_play()
    play.expose(E, c("DK"))            # East drops two honours: two major penalty cards
    play.expose(E, c("DQ"))
    assert play.penalty_choice_pending is E
    assert refused(play, "DK") == "51A"       # not even one of them: declarer designates
    assert refused(play, "D4") == "51A"
    play.designate_penalty_card(c("DQ"))
    assert play.penalty_choice_pending is None
    assert refused(play, "DK") == "51A"       # the designated card, no other
    play.play(c("DQ"))
    assert play.penalty_cards == [PenaltyCard(E, c("DK"), True)]   # the other stays


def test_only_penalty_cards_that_can_be_played_are_a_choice() -> None:
    play = new_play()
    play.expose(E, c("DK"))
    play.expose(E, c("HK"))
    assert play.penalty_choice_pending is E      # East leads: both can be led
    with pytest.raises(IllegalCardError, match="not a penalty card"):
        play.designate_penalty_card(c("D4"))
    play.designate_penalty_card(c("HK"))
    play.play(c("HK"))
    play.play(c("H4"))
    # West, then North: East's DK can be played only to a diamond lead or when void.
    assert play.penalty_choices(E) == []


def test_a_designation_with_no_choice_is_refused() -> None:
    play = new_play()
    play.expose(E, c("DK"))
    with pytest.raises(IllegalCardError) as caught:
        play.designate_penalty_card(c("DK"))
    assert caught.value.law == "51A"


# -- Law 57A: a defender plays before partner; declarer's four options ---------------------------

#: Dummy (South) won trick 1 and leads the S2; West is to play, and East plays too soon.
SPADE_LEAD = "D4 DJ D3 D5 S2"


def premature(cards: str = SPADE_LEAD, card: str = "S5") -> Play:
    play = new_play(cards)
    play.expose(E, c(card), True, "57A")
    return play


def test_a_premature_card_is_a_major_penalty_card_and_partner_waits_for_declarer() -> None:
    play = premature()
    assert play.penalty_cards == [PenaltyCard(E, c("S5"), True, "57A")]
    assert play.premature == (W, 1)
    assert refused(play, "S7") == "57A"


@pytest.mark.parametrize(("option", "suit", "wrong", "right"), [
    (HIGHEST, None, "S3", "S7"),    # 57A1: West's highest spade
    (LOWEST, None, "S7", "S3"),     # 57A2: West's lowest spade
    (REQUIRE, Suit.H, None, "S6"),  # 57A3 with spades held: Law 59, West must follow suit
    (FORBID, Suit.C, None, "S4"),   # 57A4 with spades held: nothing to forbid (59)
])
def test_declarers_option_binds_partners_play_to_the_trick(
        option: PrematureOption, suit: Suit | None, wrong: str | None, right: str) -> None:
    play = premature()
    assert play.choose_premature_option(option, suit) == PlayRestriction(W, 1, option, suit)
    assert play.premature is None
    if wrong is not None:
        assert refused(play, wrong) == "57A"
    play.play(c(right))
    assert play.current.card_of(W) == c(right)


def test_the_suit_named_must_be_another_than_the_suit_led() -> None:
    play = premature()
    with pytest.raises(IllegalCardError, match="another suit"):
        play.choose_premature_option(REQUIRE, Suit.S)
    with pytest.raises(IllegalCardError, match="name the suit"):
        play.choose_premature_option(FORBID)


def test_a_card_after_partner_has_played_is_no_premature_play() -> None:
    play = new_play("D4 DJ")        # East led; West's card now is after partner's: 50B
    play.expose(W, c("H3"), True, "57A")
    assert play.premature is None


# -- Law 59: partner cannot comply; any otherwise legal card -------------------------------------

#: West shows out of diamonds by trick 4; dummy leads the D6 and East plays the DK too soon.
VOID = "D4 DJ D3 D5  DT D2 DA D7  C2 C8 CA C6  D6"


@pytest.mark.parametrize(("option", "suit", "wrong", "right"), [
    (HIGHEST, None, None, "H3"),     # no diamond: any card (59)
    (LOWEST, None, None, "CK"),
    (REQUIRE, Suit.H, "S3", "HT"),   # West holds hearts: a heart
    (FORBID, Suit.C, "CK", "S3"),    # West holds other suits: no club
])
def test_a_partner_void_in_the_suit_led(option: PrematureOption, suit: Suit | None,
                                        wrong: str | None, right: str) -> None:
    play = premature(VOID, "DK")
    assert play.premature == (W, 3)
    play.choose_premature_option(option, suit)
    if wrong is not None:
        assert refused(play, wrong) == "57A"
    play.play(c(right))


# -- Law 60B: a defender's card before declarer leads from the right hand ------------------------

def test_a_defenders_card_after_declarers_lead_went_back_is_a_penalty_card() -> None:
    play = new_play("D4 DJ D3 D5")   # dummy won: South to lead
    play.face_lead(N, c("D9"))        # declarer leads from his own hand (Law 55)
    play.choose_lead_option(LeadOption.REFUSE)   # 55B: back to the hand
    assert refused(play, "H3", W) == "60B"
    play.expose(W, c("H3"), True, "60B")
    assert play.penalty_cards == [PenaltyCard(W, c("H3"), True, "60B")]
    play.play(c("S2"))               # South leads from the right hand
    play.play(c("S3"))               # West follows suit; the heart waits (Law 50D1)
    assert play.penalty_cards_of(W) == [PenaltyCard(W, c("H3"), True, "60B")]


def test_before_any_retraction_a_defenders_card_is_a_lead_out_of_turn() -> None:
    play = new_play("D4 DJ D3 D5")
    assert refused(play, "H3", W) == "56"
