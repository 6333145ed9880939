"""Laws 57A and 59 (and the lead restrictions of 26 and 50D2) when the table does not know the
hands: no deal scanned, each card read as it is played. The table refuses only what the cards it
has seen prove (a penalty card lies face up: it is in the hand; a player who failed to follow a
suit has no card of it to be asked for, Law 59), and keeps the rest open until the player's own
later cards tell: a later card that shows the player could have complied makes the earlier one a
revoke (Law 61A: failing to play, when able, a card or suit an opponent specified in
rectification), which Laws 63 and 64 then settle as any revoke.

Each test starts from the physical events (the cards seen), then declarer's option, then the
card the restricted player plays and what follows from it. The cards are those of board 11 of
the RealBridge qualifier (1NT by North, East to lead), but the play is not told the deal:
N KT8.A96.A95.7542  E Q5.KJ52.KQ874.T8  S AJ92.874.JT6.AQ3  W 7643.QT3.32.KJ96
"""

from __future__ import annotations

import pytest

from laws import Card, Contract, IllegalCardError, Seat, Suit
from laws.penalty import PenaltyLeadOption, PrematureOption, Unverified
from laws.play import Play

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
HIGHEST, LOWEST = PrematureOption.HIGHEST, PrematureOption.LOWEST
REQUIRE, FORBID = PrematureOption.REQUIRE, PrematureOption.FORBID


def c(text: str) -> Card:
    return Card.from_str(text)


def blind(cards: str = "") -> Play:
    """1NT by North with no hand known; ``cards`` played in turn."""
    play = Play(Contract.from_str("1NT"), N)
    for card in cards.split():
        play.play(c(card))
    return play


def refused(play: Play, card: str) -> str:
    with pytest.raises(IllegalCardError) as caught:
        play.play(c(card))
    return caught.value.law


#: South won trick 1 with the DJ and leads the S2; West is to play and East plays the S5 too
#: soon (Law 57A: a major penalty card; declarer chooses how West plays).
SPADE_LEAD = "D4 DJ D3 D5 S2"


def premature(cards: str = SPADE_LEAD, card: str = "S5") -> Play:
    play = blind(cards)
    play.expose(E, c(card), True, "57A")
    assert play.premature == (W, 1)
    return play


# -- what the table has seen refuses at once -----------------------------------------------------

@pytest.mark.parametrize(("option", "seen", "wrong", "right"), [
    (HIGHEST, "S7", "S3", "S7"),    # 57A1: West's S7 lies face up: the S3 is not the highest
    (LOWEST, "S3", "S7", "S3"),     # 57A2: the S3 is seen: the S7 is not the lowest
    (HIGHEST, "S7", "H3", "S7"),    # a spade is seen in West's hand: no discard (44C)
])
def test_a_card_seen_in_the_hand_binds_the_option(option: PrematureOption, seen: str,
                                                  wrong: str, right: str) -> None:
    play = blind("D4 DJ D3 D5")
    play.expose(W, c(seen), False)            # West drops a small spade: a minor penalty card
    play.play(c("S2"))
    play.expose(E, c("S5"), True, "57A")
    play.choose_premature_option(option)
    assert refused(play, wrong) in ("57A", "44C")
    play.play(c(right))
    assert play.current.card_of(W) == c(right) and play.penalty_cards_of(W) == []


def test_a_required_suit_seen_in_the_hand_must_be_played() -> None:
    """57A3: West showed out of diamonds (the C6 on the D4), so it cannot follow the D6;
    declarer requires a heart, and West's HT lies face up."""
    play = blind("D4 DJ C6 D5 D6")
    play.expose(W, c("HT"), True)
    play.expose(E, c("DK"), True, "57A")
    play.choose_premature_option(REQUIRE, Suit.H)
    assert refused(play, "S3") == "57A"
    play.play(c("HT"))


def test_a_forbidden_suit_with_another_suit_seen_is_refused() -> None:
    play = blind("D4 DJ C6 D5 D6")
    play.expose(W, c("S3"), False)
    play.expose(E, c("DK"), True, "57A")
    play.choose_premature_option(FORBID, Suit.C)
    assert refused(play, "C9") == "57A"       # West holds the S3: clubs are forbidden
    play.play(c("S3"))


# -- Law 59: a player who showed out of the suit led cannot be asked for it ------------------------

@pytest.mark.parametrize("option", [HIGHEST, LOWEST])
def test_a_player_who_showed_out_plays_any_card(option: PrematureOption) -> None:
    play = premature("D4 DJ C6 D5 D6", "DK")  # West discarded on the first diamond
    play.choose_premature_option(option)
    play.play(c("H3"))                        # Law 59: no diamond to play
    assert play.unverified == []


def test_a_required_suit_the_player_showed_out_of_is_not_watched() -> None:
    # West showed out of diamonds (C6) and of spades (H3); South leads the D6 on trick 3.
    play = blind("D4 DJ C6 D5  SA H3 S5 S4  D6")
    play.expose(E, c("DK"), True, "57A")
    assert play.premature == (W, 2)
    play.choose_premature_option(REQUIRE, Suit.S)
    play.play(c("C9"))                        # Law 59: no spade (it showed out of them)
    assert play.unverified == []


# -- the rest stays open until the player's own later cards tell ---------------------------------

@pytest.mark.parametrize(("option", "suit", "played", "proof", "later"), [
    (HIGHEST, None, "S3", "higher", "S7"),  # 57A1: a higher spade later: it was not the highest
    (LOWEST, None, "S7", "lower", "S3"),    # 57A2: a lower spade later
])
def test_a_later_card_of_the_suit_proves_a_failure_to_comply(
        option: PrematureOption, suit: Suit | None, played: str, proof: str,
        later: str) -> None:
    play = premature()
    play.choose_premature_option(option, suit)
    play.play(c(played))
    assert play.unverified == [Unverified(W, 1, c(played), Suit.S, proof, "57A")]
    play.play(c("SK"))                        # North wins the trick
    play.play(c("S5"))                        # East's penalty card (50D1)
    assert play.revokes == []
    play.play(c("ST"))                        # North leads another spade
    play.play(c("SQ"))
    play.play(c("SA"))
    play.play(c(later))                       # West's later spade: it held it on trick 2
    [revoke] = play.revokes
    assert (revoke.seat, revoke.trick, revoke.card, revoke.law) == (W, 1, c(played), "57A")
    assert revoke.established                 # Law 63A1: West played to a later trick
    assert play.unverified == []


def test_a_later_card_that_proves_nothing_leaves_the_play_alone() -> None:
    play = premature()
    play.choose_premature_option(HIGHEST)
    play.play(c("S7"))
    play.play(c("SK"))
    play.play(c("S5"))
    play.play(c("ST"))
    play.play(c("SQ"))
    play.play(c("SA"))
    play.play(c("S3"))                        # lower than the S7: the S7 may have been highest
    assert play.revokes == []


def test_a_discard_under_57a3_then_a_card_of_the_named_suit() -> None:
    play = premature("D4 DJ C6 D5 D6", "DK")
    play.choose_premature_option(REQUIRE, Suit.H)
    play.play(c("S3"))                        # no diamond (shown out); a spade, not a heart
    assert play.unverified == [Unverified(W, 1, c("S3"), Suit.H, "suit", "57A")]
    play.play(c("D9"))                        # North
    play.play(c("DK"))                        # East's penalty card; East wins
    play.play(c("C8"))
    play.play(c("CA"))
    play.play(c("HQ"))                        # West had a heart on trick 2: Law 61A
    [revoke] = play.revokes
    assert (revoke.seat, revoke.trick, revoke.law, revoke.suit) == (W, 1, "57A", Suit.H)


def test_a_forbidden_suit_played_then_another_suit() -> None:
    play = premature("D4 DJ C6 D5 D6", "DK")
    play.choose_premature_option(FORBID, Suit.C)
    play.play(c("C9"))                        # a club: allowed only with nothing but clubs
    assert play.unverified == [Unverified(W, 1, c("C9"), Suit.C, "other", "57A")]
    play.play(c("D9"))
    play.play(c("DK"))
    play.play(c("C8"))
    play.play(c("CA"))
    play.play(c("H3"))                        # a heart: it held one when it played the club
    assert [r.law for r in play.revokes] == ["57A"]


# -- Law 50D2 (and 26) lead restrictions on a hand the table does not know -----------------------

def penalty_lead() -> Play:
    """East wins trick 1; West dropped the HQ (a major penalty card): declarer's option for
    East's lead (Law 50D2)."""
    play = blind("D4 D2 D3 H5")
    play.expose(W, c("HQ"), True)
    assert play.penalty_lead_pending is E
    return play


def test_a_required_lead_not_made_is_open_until_the_hand_shows_the_suit() -> None:
    play = penalty_lead()
    play.choose_penalty_lead(PenaltyLeadOption.REQUIRE)   # a heart; the HQ is picked up
    play.play(c("C8"))                         # East leads a club: no heart, or a failure
    assert play.unverified == [Unverified(E, 1, c("C8"), Suit.H, "suit", "50D2")]
    play.play(c("C2"))
    play.play(c("C6"))
    play.play(c("CA"))                         # North wins and leads a heart
    play.play(c("H4"))
    play.play(c("HK"))                         # East had a heart when it led the club
    [revoke] = play.revokes
    assert (revoke.seat, revoke.trick, revoke.law) == (E, 1, "50D2")


def test_a_forbidden_lead_made_is_open_until_the_hand_shows_another_suit() -> None:
    play = penalty_lead()
    play.choose_penalty_lead(PenaltyLeadOption.FORBID)
    play.play(c("H2"))                         # a heart: allowed only with nothing else
    assert play.unverified == [Unverified(E, 1, c("H2"), Suit.H, "other", "50D2")]
    play.play(c("H4"))
    play.play(c("HT"))
    play.play(c("HA"))                         # North wins and leads a club
    play.play(c("C2"))
    play.play(c("C8"))                         # East: a club, so it had one on trick 2
    assert [(r.seat, r.law) for r in play.revokes] == [(E, "50D2")]


def test_a_required_lead_seen_in_the_hand_is_refused() -> None:
    play = blind("D4 D2 D3 H5")
    play.expose(E, c("H2"), False)            # East's own small heart lies face up
    play.expose(W, c("HQ"), True)
    play.choose_penalty_lead(PenaltyLeadOption.REQUIRE)
    assert refused(play, "C8") == "50D2"      # it holds the H2: a heart is led
    play.play(c("H2"))
    assert play.unverified == []


def test_a_required_lead_of_a_suit_the_leader_showed_out_of_is_law_59() -> None:
    # East discards the S3 on North's heart (shows out of hearts), wins trick 3 with the DK.
    play = blind("D4 HJ D3 D5  H2 S3 H3 H5  D7 D6 DK D9")
    assert play.turn is E
    play.expose(W, c("HQ"), True)
    play.choose_penalty_lead(PenaltyLeadOption.REQUIRE)
    play.play(c("C8"))                         # Law 59: no heart to lead
    assert play.unverified == []
