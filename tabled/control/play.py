"""The play: the keys of the play (the options the laws give after an irregularity, the lead
faced down, a call key still going to the auction) and each card played: in turn, out of turn,
two together. A call key still goes to the auction (Law 25A3 until the lead is faced, Law 39
after)."""

from __future__ import annotations

import copy
from typing import Any

from laws import (
    Card,
    IllegalActionError,
    LeadRestrictionError,
    PenaltyCardError,
    Seat,
    Suit,
)
from laws.messages import text as message
from laws.penalty import LEAD_OPTIONS, LeadOption, PenaltyLeadOption, PrematureOption
from tablemodel.state import BoardState
from tablemodel.table import RulingData, play_action
from tablemodel.wire import Event, EventType

from .auction import call_key
from .claims import answer_claim
from .context import Context, SeatEntry, director
from .dealing import fouled
from .keys import CALL_KEYS, LEVELS, STRAINS, typed_call
from .outcome import Notice, Outcome, Proposed, refusal

#: Laws 53-56 on the keypad: the option on a lead faced out of turn.
LEAD_OPTION_KEYS = {"1": LeadOption.ACCEPT, "2": LeadOption.REFUSE,
                    "3": LeadOption.BECOME_DUMMY}
#: Law 50D2 on declarer's keypad: require, forbid, or leave free the penalty card's suit.
PENALTY_LEAD_OPTION_KEYS = {"1": PenaltyLeadOption.REQUIRE, "2": PenaltyLeadOption.FORBID,
                            "3": PenaltyLeadOption.FREE}
SUIT_KEYS = {str(suit): suit for suit in Suit}
PENALTY_LEAD_KEYS = set(PENALTY_LEAD_OPTION_KEYS) | set(SUIT_KEYS)
#: Law 57A on declarer's keypad: partner of the defender who played too soon plays the highest
#: or lowest of the suit led, or (a suit key first) a card of that suit, or none of it.
PREMATURE_OPTION_KEYS = {"1": PrematureOption.HIGHEST, "2": PrematureOption.LOWEST,
                         "3": PrematureOption.REQUIRE, "4": PrematureOption.FORBID}
PREMATURE_KEYS = set(PREMATURE_OPTION_KEYS) | set(SUIT_KEYS)
#: Law 51A on declarer's keypad: the first, second, ... penalty card as the displays list them.
DESIGNATE_KEYS = {"1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6}


def play_key(ctx: Context, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
    """What a key means in the play: first whatever the laws wait for (the lead faced down,
    a claim's answers, an option after an irregularity), else the keys of a call."""
    board = ctx.state.board
    assert board is not None and board.play is not None
    play = board.play
    if board.face_down:
        return _face_down(ctx, seat, key, entry, board)
    claim = play.claim
    if claim is not None:
        return answer_claim(ctx, seat, key, board)
    if board.simultaneous is not None:
        return _simultaneous_choice(ctx, seat, key, board)
    if board.may_substitute:
        return _substitute_key(ctx, seat, key, board)
    if play.faced_lead is not None:
        return _lead_option(ctx, seat, key, board)
    if play.penalty_lead_pending is not None and seat is play.declarer \
            and key in PENALTY_LEAD_KEYS:
        return _penalty_lead(ctx, seat, key, entry, board)
    if play.premature is not None and seat is play.declarer and key in PREMATURE_KEYS:
        return _premature_option(ctx, seat, key, entry, board)
    chooser = play.penalty_choice_pending
    if chooser is not None and seat is play.declarer and key in DESIGNATE_KEYS:
        choices = play.penalty_choices(chooser)
        index = DESIGNATE_KEYS[key]
        if index >= len(choices):
            return Outcome().tell([seat], Notice("designate_how", error=False))
        return _chosen_option(ctx, board, seat, {"kind": "penalty_choice",
                                                 "card": str(choices[index].card)})
    if play.breach is not None:
        return _breach_option(ctx, seat, key, board)
    return _keyed_in_play(ctx, seat, key, entry, board)


def _keyed_in_play(ctx: Context, seat: Seat, key: str, entry: SeatEntry,
                   board: BoardState) -> Outcome:
    """Keys with nothing of the play to answer: the keys of a call. Until the lead is
    faced a call may still be changed (Law 25A3); any other call after the auction is
    refused as Law 39, on the caller's display only. Nothing typed here is a claim: a
    claim is made on its own page (INFO, ``claims.claim_key``)."""
    calling = key in LEVELS or key in STRAINS or key in CALL_KEYS
    if entry.replacing:
        return call_key(ctx, seat, key, entry) if calling or key in ("OK", "UNDO") \
            else Outcome()
    if key == "UNDO":
        if not entry.keys and board.cards and not board.face_down:
            if board.auction.can_replace(seat) is None:
                return Outcome()  # nothing to rub out, no call to change
            # Law 25A3: the lead faced, the auction period is over (22B1)
            return Outcome().tell([seat], Notice("law", {"reason": "change"}, "25A"))
        return call_key(ctx, seat, key, entry)  # Law 25A3: until the lead is faced
    if key == "OK":
        if not entry.keys:
            return Outcome()
        if typed_call(entry) is None:
            entry.keys.clear()  # a number is no claim: say where claims are made
            if board.play is not None and seat is board.play.dummy:
                return Outcome().tell([seat], Notice("law", {"reason": "dummy"},
                                                     "43A1(c)"))  # dummy does not claim
            return Outcome().tell([seat], Notice("claim_info"))
        return call_key(ctx, seat, key, entry)  # Law 39
    return call_key(ctx, seat, key, entry) if calling else Outcome()


def _chosen_option(ctx: Context, board: BoardState, seat: Seat,
                   data: dict[str, Any]) -> Outcome:
    """A player's option of the play, proposed after trying it on a copy of the play (the
    engine's refusal goes to the seat, with its law)."""
    assert board.play is not None
    trial = copy.deepcopy(board.play)
    try:
        play_action(trial, RulingData(**data))
    except IllegalActionError as error:
        return Outcome().tell([seat], refusal(error))
    return Outcome([Proposed("option", board.number, {**data, "by": str(seat)})])


def _seen_option(ctx: Context, board: BoardState, data: dict[str, Any]) -> Proposed | None:
    """What the table saw (nobody chose it): an option event that applies through its
    ruling (tablemodel.rulings.TABLE_OPTIONS), tried on a copy of the state first: None if it
    cannot be applied."""
    trial = copy.deepcopy(ctx.state)
    try:
        trial.apply(Event(trial.seq + 1, EventType.OPTION, 0.0, board.number, data))
    except (ValueError, RuntimeError):
        return None
    return Proposed("option", board.number, data)


def _lead_option(ctx: Context, seat: Seat, key: str, board: BoardState) -> Outcome:
    """Laws 53-56: the non-offending side chooses on the keypad what happens to the lead
    faced out of turn: 1 accept, 2 refuse, 3 declarer becomes dummy (54A)."""
    play = board.play
    assert play is not None and play.faced_lead is not None
    if seat not in play.lead_choosers():
        return Outcome().tell([seat], Notice("lead_wait", error=False))
    option = LEAD_OPTION_KEYS.get(key)
    if option is None or option not in LEAD_OPTIONS[play.faced_lead.law]:
        return Outcome().tell([seat], Notice("lead_how", error=False))
    return _chosen_option(ctx, board, seat, {"kind": "lead_option", "option": option.value})


def _penalty_lead(ctx: Context, seat: Seat, key: str, entry: SeatEntry,
                  board: BoardState) -> Outcome:
    """Law 50D2: declarer, on the keypad: a suit key (with penalty cards in more than
    one suit), then 1 require, 2 forbid, 3 leave the lead free."""
    if key in SUIT_KEYS:
        entry.keys[:] = [key]
        return Outcome()
    option = PENALTY_LEAD_OPTION_KEYS[key]
    data: dict[str, Any] = {"kind": "penalty_lead", "lead": option.value}
    if entry.keys and entry.keys[0] in SUIT_KEYS and option is not PenaltyLeadOption.FREE:
        data["suit"] = entry.keys[0]
    entry.keys.clear()
    return _chosen_option(ctx, board, seat, data)


def _simultaneous_choice(ctx: Context, seat: Seat, key: str, board: BoardState) -> Outcome:
    """Law 58B2: the player who showed two cards at once designates on the keypad which
    is played: 1 the first the reader took, 2 the second."""
    assert board.simultaneous is not None
    player = board.simultaneous[0]
    if board.play is not None:
        player = board.play.controller(player)
    if seat is not player or key not in ("1", "2"):
        return Outcome().tell([seat], Notice("lead_wait", error=False))
    data = {"kind": "simultaneous_choice", "played": "first" if key == "1" else "second",
            "by": str(seat)}
    trial = copy.deepcopy(ctx.state)
    try:
        trial.apply(Event(trial.seq + 1, EventType.OPTION, 0.0, board.number, data))
    except (ValueError, RuntimeError) as error:
        return Outcome().tell([seat], Notice("law", {"reason": str(error)}, "58B2"))
    return Outcome([Proposed("option", board.number, data)])


def _substitute_key(ctx: Context, seat: Seat, key: str, board: BoardState) -> Outcome:
    """Law 58B3: an opponent who played to the trick after the 58B offender's card keeps
    it with OK; another card of theirs at the reader replaces it (``played_card``)."""
    play = board.play
    assert play is not None
    # Declarer keeps or changes dummy's card (Law 45B).
    changer = next((s for s in board.may_substitute if play.controller(s) is seat), None)
    if changer is None:
        return Outcome().tell([seat], Notice("lead_wait", error=False))
    if key != "OK":
        return Outcome().tell([seat], Notice("substitute_how", error=False))
    return Outcome([Proposed("option", board.number, {
        "kind": "substitute", "seat": str(changer), "by": str(seat)})])


def _substitute_card(ctx: Context, card: Card, seat: Seat | None, board: BoardState) -> Outcome:
    """Law 58B3: the card that replaces the one an opponent played after the offender's;
    anybody else's card waits."""
    if seat is None or seat not in board.may_substitute:
        return Outcome().tell(Seat, Notice("lead_wait", error=False))
    assert board.play is not None
    data = {"kind": "substitute", "seat": str(seat), "card": str(card),
            "by": str(board.play.controller(seat))}
    trial = copy.deepcopy(ctx.state)
    try:
        trial.apply(Event(trial.seq + 1, EventType.OPTION, 0.0, board.number, data))
    except (ValueError, RuntimeError) as error:
        return Outcome().tell([board.play.controller(seat)],
                              Notice("law", {"reason": str(error)}, "58B3"))
    return Outcome([Proposed("option", board.number, data)])


def _premature_option(ctx: Context, seat: Seat, key: str, entry: SeatEntry,
                      board: BoardState) -> Outcome:
    """Law 57A: declarer, on the keypad: 1 highest, 2 lowest of the suit led; a suit key
    then 3 to require or 4 to forbid a card of that suit."""
    if key in SUIT_KEYS:
        entry.keys[:] = [key]
        return Outcome()
    option = PREMATURE_OPTION_KEYS[key]
    data: dict[str, Any] = {"kind": "premature_option", "premature": option.value}
    if option in (PrematureOption.REQUIRE, PrematureOption.FORBID):
        if not (entry.keys and entry.keys[0] in SUIT_KEYS):
            return Outcome().tell([seat], Notice("premature_suit", error=False))
        data["suit"] = entry.keys[0]
    entry.keys.clear()
    return _chosen_option(ctx, board, seat, data)


def _face_down(ctx: Context, seat: Seat, key: str, entry: SeatEntry,
               board: BoardState) -> Outcome:
    """Law 41A: the opening lead lies face down while the leader's partner and the
    presumed declarer may ask about the auction (41B); then it is faced (41C): by the
    leader's OK, or behind screens by the leader's screenmate's, who says the questions
    are over. Until then the auction period goes on (22B1): a call may still be changed
    (25A3)."""
    confirmer = board.lead_confirmer(ctx.state.conduct.screens)
    if key == "OK" and seat is confirmer and not entry.keys and not entry.replacing:
        if any(q.answer is None for q in board.questions):
            return Outcome().tell([seat], Notice("questions_first", error=False))
        return Outcome([Proposed("faced", board.number, {"seat": str(seat)})])
    if entry.replacing or entry.keys or key == "UNDO":
        return _keyed_in_play(ctx, seat, key, entry, board)
    if key in LEVELS or key in STRAINS or key in CALL_KEYS:
        return call_key(ctx, seat, key, entry)
    return Outcome().tell([seat], Notice("face_down", {"seat": str(confirmer)},
                                         error=False))


def _breach_option(ctx: Context, seat: Seat, key: str, board: BoardState) -> Outcome:
    """Law 52B: a defender led or played another card where a penalty card had to be:
    declarer, on the keypad, 1 accepts it (52B1: it is played, the penalty card stays),
    2 does not (52B2: the penalty card is played in its place and the other card becomes
    a major penalty card)."""
    play = board.play
    assert play is not None
    if seat is not play.declarer:
        return Outcome().tell([seat], Notice("lead_wait", error=False))
    if key not in ("1", "2"):
        return Outcome().tell([seat], Notice("breach_how", error=False))
    return _chosen_option(ctx, board, seat, {"kind": "breach_option",
                                             "breach": "accept" if key == "1" else "refuse"})


def played_card(ctx: Context, card: Card, reader_seat: Seat | None, board: BoardState,
                now: float | None = None) -> Outcome:
    play = board.play
    assert play is not None
    owner = play.owner(card)
    # The known hands say whose card it is; otherwise the reader's slot, or the turn.
    seat = owner or reader_seat or play.turn
    told = list(Seat) if seat is None else [play.controller(seat)]
    if board.face_down:
        return Outcome().tell(told, Notice("face_down_wait", error=False))
    if board.simultaneous is not None:
        return Outcome().tell(told, Notice("lead_wait", error=False))
    if board.may_substitute:
        return _substitute_card(ctx, card, owner or reader_seat, board)
    if not board.cards and not board.auction_crossed:
        return Outcome().tell(told, Notice("tray_away"))
    if (owner is not None and reader_seat is not None
            and play.controller(owner) is not play.controller(reader_seat)):
        # Laws 15, 87: the player at this reader holds a card the deal puts in another
        # hand: the board is turned or fouled; no player's irregularity (declarer's and
        # dummy's cards may come through either of their readers).
        return fouled(ctx, reader_seat, ("read_at_other_reader", {
            "card": str(card), "seat": str(reader_seat), "owner": str(owner)}), board)
    kept = board.out_of_turn
    if (kept is not None and now is not None and seat is not None and seat is play.turn
            and reader_seat is not None and ctx.out_of_turn_at_reader == kept[:2]
            and kept[0] is not seat
            and now - kept[2] <= ctx.state.conduct.profile.simultaneous):
        # Law 58A: the legal card of the hand on turn, read with another player's card
        # that the table took first as out of turn: that one counts as played after it.
        both = _seen_option(ctx, board, {"kind": "simultaneous_play", "seat": str(seat),
                                         "card": str(card), "by": None})
        if both is not None:
            return Outcome([both]).tell(Seat, Notice(
                "simultaneous_play", {"seat": str(kept[0]), "card": str(kept[1])},
                "58A", error=False))
    if play.faced_lead is not None and seat is not None:
        return _after_faced_lead(ctx, card, seat, board)
    if play.breach is not None and seat is not None:
        return _after_breach(ctx, card, seat, board)
    try:
        play.check(card, seat)
    except IllegalActionError as error:
        assert seat is not None
        ctx.out_of_turn_at_reader = None if reader_seat is None else (seat, card)
        together = (now is not None and bool(board.card_ts)
                    and now - board.card_ts[-1]
                    <= ctx.state.conduct.profile.simultaneous)  # Law 58B's tempo
        return _seen_out_of_turn(ctx, card, seat, board, error, together)
    assert seat is not None
    data: dict[str, Any] = {"seat": str(seat), "card": str(card)}
    if board.lead_made_face_down:
        data["face_down"] = True  # Law 41A: the opening lead is made face down
    return Outcome([Proposed("card", board.number, data)])


def _seen_out_of_turn(ctx: Context, card: Card, seat: Seat, board: BoardState,
                      error: IllegalActionError, together: bool = False) -> Outcome:
    """A card refused by the play. The player whose card it is is told why. If the card
    was faced the table cannot undo that it was seen: a lead out of turn is kept for the
    opponents' option (Laws 55-56), a defender's card played out of turn, or withdrawn
    to correct a revoke, becomes a major penalty card (Laws 57A, 62B1), a card played in
    a penalty card's place waits for declarer's option (52B); the director is called
    (Law 9B1). An opening lead is made face down (41A): one by a player not on lead was
    seen by nobody, and goes back to the hand on the director's word."""
    play = board.play
    assert play is not None
    owner = play.controller(seat)
    outcome = Outcome().tell([owner], refusal(error))
    if (together and error.law in ("54", "55", "56", "57") and board.cards
            and board.cards[-1][0] is seat and play.current.cards
            and play.current.cards[-1][0] is seat):
        # Law 58B: the hand that has just played shows a second card to the trick: the
        # two came together; the player designates which is played.
        # Nobody chose it: the table saw it ("by" null; the wire requires the field).
        both = _seen_option(ctx, board, {"kind": "simultaneous", "seat": str(seat),
                                         "card": str(card), "by": None})
        if both is not None:
            return Outcome([both]).tell(Seat, Notice(
                "simultaneous", {"seat": str(seat), "card": str(card)}, "58B"))
        return outcome
    if error.law == "54":
        # Law 41A: made face down, nobody saw it; Law 54E, 24 for declarer's side.
        law = "24" if seat.side is play.declarer.side else "41A"
        outcome.tell([owner], refusal(error, law))
        said = {"seat": str(seat), "card": str(card), "turn": str(play.turn)}
        outcome.events.append(director(
            ctx, seat, "lead_out_of_turn", law, message("lead_face_down_out_of_turn", said),
            "lead_face_down_out_of_turn", said))
        return outcome
    if board.lead_made_face_down:
        return outcome  # the opening lead, made face down (41A): nobody saw this card
    defender = seat.side is not play.declarer.side
    data: dict[str, Any] | None = None
    public: Notice | None = None
    reason = "premature_play"
    law = error.law
    if error.law in ("55", "56"):
        data = {"kind": "lead_out_of_turn", "seat": str(seat), "card": str(card)}
        reason = "lead_out_of_turn"
        public = Notice("lead_out_of_turn", {"seat": str(seat), "card": str(card)}, law)
    elif error.law == "60B":
        # Law 60B: a defender's card after declarer's lead from the wrong hand went back
        # and before declarer led from the right one: a major penalty card.
        data = {"kind": "penalty_card", "seat": str(seat), "card": str(card),
                "major": "major", "law": "60B"}
    elif error.law == "57":
        # Law 57A: before partner has played to the trick, a premature play; else a card
        # exposed through deliberate play (50B). A major penalty card either way.
        early = play.current.card_of(seat.partner) is None
        data = {"kind": "penalty_card", "seat": str(seat), "card": str(card),
                "major": "major", "law": "57A" if early else "50B"}
    elif defender and isinstance(error, PenaltyCardError) and not any(
            p.card == card for p in play.penalty_cards):
        # Law 52B: another card where a penalty card must be played: declarer accepts
        # it or has the penalty card played instead.
        data = {"kind": "penalty_breach", "seat": str(seat), "card": str(card)}
        reason, law = "penalty_breach", "52B"
        public = Notice("breach", {"seat": str(seat), "card": str(card),
                                   "due": str(error.card)}, "52B")
    elif defender and error.law == "50D2":
        # Law 50D2: led before declarer chose: a card exposed, Law 49 (major: played).
        data = {"kind": "penalty_card", "seat": str(seat), "card": str(card),
                "major": "major", "law": "49"}
    elif defender and (error.law == "44C" or isinstance(error, LeadRestrictionError)
                       or (error.law == "57A" and play.premature is None)):
        # Law 61A: failing to follow suit, or to comply when able with a rectification's
        # lead or play, is a revoke; the table corrects it at once (62A): the card,
        # played from a defender's hand, becomes a major penalty card (2017 62B1).
        data = {"kind": "penalty_card", "seat": str(seat), "card": str(card),
                "major": "major", "law": "62B1"}
        reason, law = "revoke", "62B1"
    if data is None:
        return outcome  # declarer's or dummy's card goes back to the hand (48A, 62B2)
    kept = _chosen_option(ctx, board, seat, data)
    if not kept.events:
        return outcome
    outcome.events.extend(kept.events)
    outcome.tell(Seat, public or Notice("premature_play",
                                        {"seat": str(seat), "card": str(card)}, law))
    outcome.tell([owner], refusal(error))
    outcome.events.append(director(ctx, seat, reason, law, error.reason, error.code,
                                   error.params))
    return outcome


def _after_faced_lead(ctx: Context, card: Card, seat: Seat, board: BoardState) -> Outcome:
    """Law 53A: the lead out of turn is accepted when the next hand in rotation plays
    a card to it; any other card waits for the option."""
    play = board.play
    assert play is not None and play.faced_lead is not None
    faced = play.faced_lead
    if seat is not faced.seat.next() or card == faced.card:
        return Outcome().tell([play.controller(seat)], Notice("lead_wait", error=False))
    trial = copy.deepcopy(play)
    try:
        trial.choose_lead_option(LeadOption.ACCEPT)
        trial.play(faced.card, faced.seat)
        trial.check(card, seat)
    except IllegalActionError as error:
        return Outcome().tell([play.controller(seat)], refusal(error))
    return Outcome([
        Proposed("option", board.number, {"kind": "lead_option", "option": "accept",
                                          "by": str(seat)}),
        Proposed("card", board.number, {"seat": str(seat), "card": str(card)})])


def _after_breach(ctx: Context, card: Card, seat: Seat, board: BoardState) -> Outcome:
    """Law 52B1(b): declarer accepts the card played in the penalty card's place by
    playing next from his own or dummy's hand; any other card waits for the option."""
    play = board.play
    assert play is not None and play.breach is not None
    offender, played, _ = play.breach
    controller = play.controller(seat)
    if seat is not offender.next() or controller is not play.declarer:
        return Outcome().tell([controller], Notice("lead_wait", error=False))
    trial = copy.deepcopy(play)
    try:
        trial.choose_breach_option(True)
        trial.play(played, offender)
        trial.check(card, seat)
    except IllegalActionError as error:
        return Outcome().tell([controller], refusal(error))
    return Outcome([
        Proposed("option", board.number, {"kind": "breach_option", "breach": "accept",
                                          "by": str(controller)}),
        Proposed("card", board.number, {"seat": str(seat), "card": str(card)})])
