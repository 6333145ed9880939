"""The play, law by law: leads, following suit, tricks, revokes, claims, lead restrictions."""

from __future__ import annotations

import pytest

from laws import Card, Contract, Deal, IllegalCardError, IllegalClaimError, Seat, Side
from laws.play import ClaimState, LeadRestriction, Play

# Board 11 of the RealBridge qualifier: N KT8.A96.A95.7542, E Q5.KJ52.KQ874.T8,
# S AJ92.874.JT6.AQ3, W 7643.QT3.32.KJ96.
DEAL = Deal.from_pbn("N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96")


def cards(text: str) -> list[Card]:
    return [Card.from_str(c) for c in text.split()]


def play_cards(play: Play, text: str) -> None:
    for card in cards(text):
        play.play(card)


def test_opening_lead_is_declarers_lho_and_winner_leads_next() -> None:
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL)
    assert play.turn is Seat.E                          # Law 41A
    assert play.dummy is Seat.S and play.controller(Seat.S) is Seat.N  # Law 45B
    play_cards(play, "D4 DJ D3 D5")                      # E S W N
    assert play.completed_tricks[0].winner(play.trump) is Seat.S
    assert play.turn is Seat.S                           # Law 44G


@pytest.mark.parametrize(("strain", "trick", "leader", "winner"), [
    ("NT", "D4 DJ D3 D5", "E", "S"),       # Law 44F: highest of the suit led
    ("S", "H2 S2 HA H3", "E", "S"),        # Law 44E: a trump wins
    ("C", "H2 S2 HA H3", "E", "W"),        # a discard never wins
    ("D", "C2 D2 D3 CA", "E", "W"),        # the highest trump
])
def test_trick_winner(strain: str, trick: str, leader: str, winner: str) -> None:
    from laws.play import Trick
    seat = Seat.from_str(leader)
    t = Trick(seat, [(seat.next(i), c) for i, c in enumerate(cards(trick))])
    assert t.winner(Contract.from_str("1" + strain).strain.suit) is Seat.from_str(winner)


@pytest.mark.parametrize(("played", "card", "seat", "law"), [
    ("", "SA", None, "54"),               # S's card, but E is on lead: opening lead (54)
    ("D4 DJ D3 D5", "HT", None, "56"),    # S won the trick; W (a defender) leads: 56
    ("D4 DJ D3 D5", "D9", None, "55"),    # N's card, but S (dummy) is on lead: 55
    ("", "D2", Seat.E, "45A"),            # D2 is W's card, not E's
    ("D4", "H6", None, "57"),             # W's card while S is to play: out of turn
    ("D4", "S9", None, "44C"),            # S holds diamonds: must follow suit
    ("D4", "D4", None, "45A"),            # played already
])
def test_refused_cards_name_the_law(played: str, card: str, seat: Seat | None,
                                    law: str) -> None:
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL)
    play_cards(play, played)
    with pytest.raises(IllegalCardError) as raised:
        play.play(Card.from_str(card), seat)
    assert raised.value.law == law
    assert len(play.played_cards()) == len(played.split())


def test_a_known_hand_plays_only_its_own_cards_when_others_are_unknown() -> None:
    # Law 45A: only East's hand is known; a card of no known hand is not East's either.
    east_only = Deal({Seat.E: DEAL[Seat.E]})
    play = Play(Contract.from_str("1NT"), Seat.N, east_only)
    with pytest.raises(IllegalCardError) as raised:
        play.play(Card.from_str("SA"))  # the turn is East's, and SA is South's
    assert raised.value.law == "45A"
    play.play(Card.from_str("D4"))      # East's own card
    assert play.play(Card.from_str("SA")).seat is Seat.S  # unknown hands take the turn's


def test_legal_cards_follow_suit_with_known_hands() -> None:
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL)
    assert set(play.legal_cards()) == DEAL[Seat.E]
    play_cards(play, "D4")
    assert set(play.legal_cards()) == set(cards("DJ DT D6"))


def test_legal_cards_with_unknown_hands() -> None:
    play = Play(Contract.from_str("1NT"), Seat.N)
    assert len(list(play.legal_cards())) == 52
    play_cards(play, "D4")
    assert Card.from_str("D4") not in set(play.legal_cards())


def test_thirteen_tricks_and_the_count() -> None:
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL)
    while not play.is_over:
        play.play(next(play.legal_cards()))
    assert len(play.completed_tricks) == 13
    assert play.tricks_won(Side.NS) + play.tricks_won(Side.EW) == 13
    assert play.declarer_tricks() == play.tricks_won(Side.NS)
    with pytest.raises(IllegalCardError):
        play.play(Card.from_str("SA"))


# -- revokes: Laws 61-64 -------------------------------------------------------------------------

def revoke_play(text: str, contract: str = "1NT", declarer: Seat = Seat.N) -> Play:
    play = Play(Contract.from_str(contract), declarer, DEAL, accept_revokes=True)
    play_cards(play, text)
    return play


def test_revoke_is_recorded_and_established_by_a_later_play() -> None:
    play = revoke_play("D4 S9")          # S holds diamonds and discards a spade
    assert len(play.revokes) == 1 and play.revokes[0].seat is Seat.S
    assert not play.revokes[0].established
    play_cards(play, "D3 DA")            # N wins the trick with DA
    assert not play.revokes[0].established
    play_cards(play, "C2")               # N (offender's partner) leads to the next trick
    assert play.revokes[0].established   # Law 63A1


def test_revoke_established_by_a_claim() -> None:
    play = revoke_play("D4 S9 D3 DA")
    play.make_claim(Seat.N, 5)
    assert play.revokes[0].established   # Law 63A3


def finish(play: Play, claimer: Seat, tricks: int) -> int:
    play.make_claim(claimer, tricks)
    assert play.claim is not None
    for seat in play.claim.needs(play.declarer):
        play.respond_to_claim(seat, True)
    return play.declarer_tricks()


# Each case: contract by N (dummy S; E leads), the cards played in order, then N claims
# ``claim`` of the tricks left; ``expected`` is declarer's final count after Law 64.
@pytest.mark.parametrize(("contract", "sequence", "claim", "expected"), [
    # W (defender) discards S3 holding diamonds; N wins with DA (the revoke trick goes to
    # the non-offenders); S wins trick 2.
    # Law 64B1: the defenders win nothing from the revoke trick on: no transfer.
    ("1NT", "D4 DT S3 DA  C2 C8 CA C6", 11, 13),
    # Law 64A2: they win one later trick: one trick transferred (12 + 1).
    ("1NT", "D4 DT S3 DA  C2 C8 CA C6", 10, 13),
    ("1NT", "D4 DT S3 DA  C2 C8 CA C6", 6, 9),
    # Law 64A1: W ruffs with S3 and wins the revoke trick: that trick plus one more if
    # the defenders win another; capped by what they won from the revoke trick on.
    ("4S", "D4 DT S3 D5  C6 C2 C8 CA", 11, 13),   # 12 + 1: only the revoke trick moves
    ("4S", "D4 DT S3 D5  C6 C2 C8 CA", 10, 13),   # 11 + 2
    ("4S", "D4 DT S3 D5  C6 C2 C8 CA", 8, 11),    # 9 + 2
    # Declarer revokes (C2 holding diamonds), dummy's DT wins; Law 64A2: one trick to the
    # defenders (11 - 1).
    ("1NT", "D4 DT D3 C2  SA S3 S8 S5", 9, 10),
    # Law 64B3: dummy's failure to follow (S9 holding diamonds) is not rectified.
    ("1NT", "D4 S9 D3 DA  C2 C8 CA C6", 5, 7),
])
def test_law_64_trick_transfer(contract: str, sequence: str, claim: int,
                               expected: int) -> None:
    play = revoke_play(sequence, contract)
    assert len(play.revokes) == 1 and play.revokes[0].established   # Law 63A1
    assert finish(play, Seat.N, claim) == expected


def test_unestablished_revoke_is_not_rectified_by_transfer() -> None:
    play = revoke_play("D4 DT S3 DA")    # W revokes; nobody of EW has played again
    assert not play.revokes[0].established
    assert play.revoke_transfer() == 0


def test_revoke_detected_later_with_unknown_hands() -> None:
    play = Play(Contract.from_str("4S"), Seat.N)     # no hands known
    play_cards(play, "HA H2 C3 H4")                  # E leads HA; W shows out of hearts (C3)
    assert play.revokes == []
    assert play.completed_tricks[0].winner(play.trump) is Seat.E
    play_cards(play, "DA D2 D3 D4")                  # E wins, leads DA
    play_cards(play, "HK H5 H6 H7")                  # E leads HK: W plays H6 - evidence
    assert len(play.revokes) == 1
    revoke = play.revokes[0]
    assert (revoke.seat, revoke.trick, str(revoke.card)) == (Seat.W, 0, "C3")
    assert revoke.detected_at_trick == 2 and revoke.established


# -- claims and concessions: Laws 68-70 ----------------------------------------------------------

def test_claim_agreed_by_both_defenders_ends_the_play() -> None:
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL)
    play_cards(play, "D4 DJ D3 D5")
    claim = play.make_claim(Seat.N, 8)
    assert claim.needs(Seat.N) == {Seat.E, Seat.W}
    play.respond_to_claim(Seat.E, True)
    assert not play.is_over and claim.state is ClaimState.PENDING
    play.respond_to_claim(Seat.W, True)
    assert play.is_over and play.declarer_tricks() == 9


def test_defenders_claim_needs_declarer() -> None:
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL)
    claim = play.make_claim(Seat.E, 13)
    assert claim.needs(Seat.N) == {Seat.N, Seat.W}
    with pytest.raises(IllegalClaimError):
        play.respond_to_claim(Seat.S, True)          # dummy is not asked
    play.respond_to_claim(Seat.N, True)
    play.respond_to_claim(Seat.W, True)
    assert play.declarer_tricks() == 0


def test_disputed_claim_stops_play_until_the_director_rules() -> None:
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL)
    play.make_claim(Seat.N, 13)
    play.respond_to_claim(Seat.E, False)
    assert play.turn is None
    with pytest.raises(IllegalCardError) as raised:
        play.play(Card.from_str("D4"))
    assert raised.value.law == "68D"
    play.rule_on_claim(None)                          # Law 70: play continues
    assert play.turn is Seat.E
    play.make_claim(Seat.N, 13)
    play.respond_to_claim(Seat.W, False)
    play.rule_on_claim(9)                             # Law 70: the director decides
    assert play.declarer_tricks() == 9


@pytest.mark.parametrize(("seat", "tricks"), [(Seat.S, 5), (Seat.N, 14), (Seat.N, -1)])
def test_bad_claims_refused(seat: Seat, tricks: int) -> None:
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL)
    with pytest.raises(IllegalClaimError):
        play.make_claim(seat, tricks)


# -- Law 26 lead restrictions ----------------------------------------------------------------------

@pytest.mark.parametrize(("required", "suit", "card", "allowed"), [
    (True, "H", "D4", False),   # must lead a heart, holds hearts
    (True, "H", "HK", True),
    (False, "D", "D4", False),  # may not lead a diamond
    (False, "D", "SQ", True),
])
def test_lead_restriction(required: bool, suit: str, card: str, allowed: bool) -> None:
    from laws import Suit
    restriction = LeadRestriction(Seat.E, Suit.from_str(suit), required)
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL, lead_restrictions=(restriction,))
    assert play.is_legal(Card.from_str(card)) is allowed
    if not allowed:
        with pytest.raises(IllegalCardError) as raised:
            play.play(Card.from_str(card))
        assert raised.value.law == "26"


def test_lead_prohibition_lasts_while_the_player_keeps_the_lead() -> None:
    from laws import Suit
    restriction = LeadRestriction(Seat.E, Suit.C, required=False)
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL, lead_restrictions=(restriction,))
    play_cards(play, "HK H4 H3 H6")        # E leads HK and wins it (K over 4, 3, 6)
    assert play.turn is Seat.E
    assert not play.is_legal(Card.from_str("C8"))
    play_cards(play, "HJ H7 HT HA")        # N wins with HA: E has lost the lead
    play_cards(play, "C2 C8 CA C6")        # E may follow with a club, of course
    assert play.turn is Seat.S


def test_law_64b7_both_sides_revoked_no_automatic_transfer() -> None:
    # W revokes on trick 1 (ruffing), N revokes on trick 3 (a club on a heart lead).
    play = revoke_play("D4 DT S3 D5  C6 C2 C8 CA  H4 H3 C4 HJ  DK D6 D2 D9", "4S")
    assert {(r.seat, r.trick) for r in play.revokes} == {(Seat.W, 0), (Seat.N, 2)}
    assert all(r.established for r in play.revokes)
    assert play.revoke_transfer() == 0
    played = play.tricks_won(Side.NS)
    assert finish(play, Seat.N, 5) == played + 5


def test_law_63a_a_claim_establishes_only_the_claimers_revokes_until_agreed() -> None:
    play = revoke_play("D4 DT S3 DA")     # W (defender) revokes; not yet established
    play.make_claim(Seat.N, 12)           # the non-offending side claims
    assert not play.revokes[0].established
    play.respond_to_claim(Seat.E, False)  # disputed, then play goes on (Law 70)
    play.rule_on_claim(None)
    assert not play.revokes[0].established  # still correctable (Law 62)
    play.make_claim(Seat.N, 12)
    play.respond_to_claim(Seat.E, True)
    play.respond_to_claim(Seat.W, True)   # the offending side agrees: Law 63A4 (2017)
    assert play.revokes[0].established


def test_law_68d_dummy_may_object_to_a_claim() -> None:
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL)
    play.make_claim(Seat.N, 13)
    claim = play.respond_to_claim(Seat.S, False)
    assert claim.state is ClaimState.DISPUTED and play.turn is None
    with pytest.raises(IllegalClaimError):
        play.respond_to_claim(Seat.E, True)   # nothing is waiting for an answer now


def test_law_68b2_partner_objects_to_a_defenders_concession() -> None:
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL)
    play.make_claim(Seat.E, 3)
    play.respond_to_claim(Seat.W, False)
    assert play.claim is None and play.turn is Seat.E   # no concession; play continues


def test_claimer_cannot_answer_their_own_claim_and_dummy_cannot_claim() -> None:
    play = Play(Contract.from_str("1NT"), Seat.N, DEAL)
    with pytest.raises(IllegalClaimError) as raised:
        play.make_claim(Seat.S, 7)
    assert raised.value.law == "43A1(c)"
    play.make_claim(Seat.N, 7)
    with pytest.raises(IllegalClaimError):
        play.respond_to_claim(Seat.N, True)
