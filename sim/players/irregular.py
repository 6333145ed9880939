"""Cards seen out of turn, as real players now and then let them be seen: a defender leads
when declarer's side is on lead, or plays a card before its turn. The bots' script gets
the steps (the card scanned, the option declarer presses) and plays on under the laws the table
enforces (Laws 50, 53-57), so a demonstration meets penalty cards and leads out of turn.

Which boards: ``kind_for(board)``: one board in four has a defender's lead faced out of turn
when declarer's side is to lead (Law 56; declarer refuses it on one, accepts it on the next),
one in four a defender's premature card. (The opening lead is made face down, Law 41A: a card
of the defender not on lead is seen by nobody, and the table only calls the director.)
"""

from __future__ import annotations

import random

from laws import Card, Deal, Seat
from laws.auction import Auction
from laws.penalty import LeadOption, PenaltyLeadOption
from laws.play import Play

from .card_play import choose_card

Steps = dict[int, list[tuple[str, Seat | None, str]]]

#: The keypad's keys for the options (tabled/control/play.py).
_LEAD_KEYS = {LeadOption.ACCEPT: "1", LeadOption.REFUSE: "2"}
_FREE_LEAD_KEY = "3"


def kind_for(board: int) -> str | None:
    return {1: "lead_refused", 3: "lead_accepted", 2: "premature"}.get(board % 4)


def play_out(play: Play, deal: Deal, auction: Auction, board: int, seed: int,
             steps: Steps) -> list[Card]:
    """The bots' cards with the irregularity of ``board`` (if any); ``steps`` gets what the
    players do beyond playing cards."""
    kind = kind_for(board)
    rng = random.Random(f"{seed}:{board}:irregular")
    cards: list[Card] = []
    premature_at = rng.randrange(4, 40) if kind == "premature" else None
    wrong_lead = kind in ("lead_refused", "lead_accepted")
    while not play.is_over:
        at = len(cards)
        if wrong_lead and _lead_out_of_turn(play, deal, kind == "lead_refused", cards,
                                            steps):
            wrong_lead = False
            continue
        if play.penalty_lead_pending is not None:
            # Law 50D2(b): the bots' declarer leaves the lead free; the card stays.
            play.choose_penalty_lead(PenaltyLeadOption.FREE)
            steps.setdefault(at, []).append(("press", play.declarer, _FREE_LEAD_KEY))
            continue
        if premature_at is not None and at >= premature_at and _premature(play, deal, steps):
            premature_at = None
            continue
        seat = play.turn
        assert seat is not None
        card = choose_card(play, seat, deal, auction=auction)
        play.play(card, seat)
        cards.append(card)
    return cards


def _lead_out_of_turn(play: Play, deal: Deal, refuse: bool, cards: list[Card],
                      steps: Steps) -> bool:
    """Law 56: declarer's side is to lead and the defender on the leader's left faces a card;
    declarer accepts it (53A) or not (the card is a major penalty card). False when the
    moment does not allow it."""
    turn = play.turn
    if (turn is None or turn.side is not play.declarer.side or play.current.cards
            or not play.completed_tricks):
        return False
    offender = turn.next()
    hand = play.remaining(offender)
    if not hand:
        return False
    card = min(hand, key=lambda c: c.index % 13)  # the lowest card held
    play.face_lead(offender, card)
    option = LeadOption.REFUSE if refuse else LeadOption.ACCEPT
    play.choose_lead_option(option)
    steps.setdefault(len(cards), []).extend([("scan", None, str(card)),
                                             ("press", play.declarer, _LEAD_KEYS[option])])
    if not refuse:
        play.play(card, offender)  # Law 53A: the card is the lead
        cards.append(card)
    return True


def _premature(play: Play, deal: Deal, steps: Steps) -> bool:
    """Law 57A: while declarer's side is to play, the next defender plays before his turn;
    the card is a major penalty card. False when the moment does not allow it."""
    turn = play.turn
    trick = play.current
    if turn is None or turn.side is not play.declarer.side or not trick.cards:
        return False
    offender = turn.next()
    if trick.card_of(offender) is not None:
        return False
    hand = play.remaining(offender)
    if not hand:
        return False
    led = trick.led_suit
    follows = [c for c in hand if c.suit is led]
    card = min(follows or hand, key=lambda c: c.index)
    play.expose(offender, card, True, "57A" if trick.card_of(offender.partner) is None
                else "50B")
    steps.setdefault(len(play.played_cards()), []).append(("scan", None, str(card)))
    return True
