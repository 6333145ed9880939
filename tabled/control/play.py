"""The play: cards scanned (the hands before the auction, then each card played), claims,
the result and its confirmation, and what the laws add after an event."""

from __future__ import annotations

import copy
from typing import Any

from tabled.rules import (
    Card,
    Deal,
    IllegalActionError,
    LeadRestrictionError,
    PenaltyCardError,
    Seat,
    Suit,
)
from tabled.rules.messages import text as message
from tabled.rules.penalty import LEAD_OPTIONS, LeadOption, PenaltyLeadOption, PrematureOption
from tabled.rulings import play_action

from ..state import BoardState, Phase
from ..wire import Event, EventType
from .auction import AuctionInput
from .base import DETAIL
from .keys import CALL_KEYS, LEVELS, STRAINS, SeatEntry
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


class PlayInput(AuctionInput):
    """What a key and a card mean in the play and after it. A call key still goes to the
    auction (Law 25A3 until the lead is faced, Law 39 after), so this builds on it."""

    # Law 58A: the card out of turn last read at a seat's own reader. Only two cards read at
    # two seats' readers can tell the table they were played at the same time: one reader for
    # the table reads the cards one after the other whenever they were played (then the
    # director rules 58A). Not journalled: it only matters for the next second or so.
    _read_at_seat: tuple[Seat, Card] | None = None

    def _playing(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        board = self.state.board
        assert board is not None and board.play is not None
        play = board.play
        if board.face_down:
            return self._face_down(seat, key, entry, board)
        claim = play.claim
        if claim is not None:
            return self._claim_answer(seat, key, board)
        if board.simultaneous is not None:
            return self._simultaneous_choice(seat, key, board)
        if board.may_substitute:
            return self._substitute_key(seat, key, board)
        if play.faced_lead is not None:
            return self._lead_option(seat, key, board)
        if play.penalty_lead_pending is not None and seat is play.declarer \
                and key in PENALTY_LEAD_KEYS:
            return self._penalty_lead(seat, key, entry, board)
        if play.premature is not None and seat is play.declarer and key in PREMATURE_KEYS:
            return self._premature_option(seat, key, entry, board)
        chooser = play.penalty_choice_pending
        if chooser is not None and seat is play.declarer and key in DESIGNATE_KEYS:
            choices = play.penalty_choices(chooser)
            index = DESIGNATE_KEYS[key]
            if index >= len(choices):
                return Outcome().tell([seat], Notice("designate_how", error=False))
            return self._option(board, seat, {"kind": "penalty_choice",
                                              "card": str(choices[index].card)})
        if play.breach is not None:
            return self._breach_option(seat, key, board)
        return self._keyed_in_play(seat, key, entry, board)

    def _keyed_in_play(self, seat: Seat, key: str, entry: SeatEntry,
                       board: BoardState) -> Outcome:
        """Keys with nothing of the play to answer: the keys of a call. Until the lead is
        faced a call may still be changed (Law 25A3); any other call after the auction is
        refused as Law 39, on the caller's display only. Nothing typed here is a claim: a
        claim is made on its own page (INFO, ``_claim_key``)."""
        calling = key in LEVELS or key in STRAINS or key in CALL_KEYS
        if entry.replacing:
            return self._calling(seat, key, entry) if calling or key in ("OK", "UNDO") \
                else Outcome()
        if key == "UNDO":
            if not entry.keys and board.cards and not board.face_down:
                if board.auction.can_replace(seat) is None:
                    return Outcome()  # nothing to rub out, no call to change
                # Law 25A3: the lead faced, the auction period is over (22B1)
                return Outcome().tell([seat], Notice("law", {"reason": "change"}, "25A"))
            return self._calling(seat, key, entry)  # Law 25A3: until the lead is faced
        if key == "OK":
            if not entry.keys:
                return Outcome()
            if self._entered_call(entry) is None:
                entry.keys.clear()  # a number is no claim: say where claims are made
                if board.play is not None and seat is board.play.dummy:
                    return Outcome().tell([seat], Notice("law", {"reason": "dummy"},
                                                         "43A1(c)"))  # dummy does not claim
                return Outcome().tell([seat], Notice("claim_info"))
            return self._calling(seat, key, entry)  # Law 39
        return self._calling(seat, key, entry) if calling else Outcome()

    def _claim_key(self, seat: Seat, key: str, entry: SeatEntry,
                   board: BoardState) -> Outcome | None:
        """The claim page (Law 68): the tricks of the remaining ones the side will take,
        typed as a number, OK, then shown back to be confirmed with OK (UNDO goes back).
        None: the key leaves the page and does what it does."""
        play = board.play
        assert play is not None
        if key == "UNDO":
            if entry.claim is not None:
                entry.claim = None
            elif entry.keys:
                entry.keys.pop()
            else:
                entry.page = None
            return Outcome()
        if key == "OK":
            if entry.claim is not None:
                claimed, entry.claim, entry.page = entry.claim, None, None
                return Outcome([Proposed("claim", board.number,
                                         {"seat": str(seat), "tricks": claimed})]).tell(
                    Seat, Notice("claimed", {"seat": str(seat), "tricks": claimed},
                                 error=False))
            _, tricks = self._number(seat, key, entry)
            if tricks is None:
                return Outcome().tell([seat], Notice("claim_how"))
            trial = copy.deepcopy(play)
            try:
                trial.make_claim(seat, tricks)  # Law 68
            except IllegalActionError as error:
                return Outcome().tell([seat], refusal(error))
            entry.claim = tricks  # shown back: OK claims, UNDO goes back
            return Outcome()
        if self.digit(key) is not None:
            if entry.claim is not None:
                entry.claim = None
                entry.keys.clear()
            if len(entry.keys) < 2:
                entry.keys.append(key)
            return Outcome()
        entry.page = None
        entry.claim = None
        entry.keys.clear()
        return None

    def _option(self, board: BoardState, seat: Seat, data: dict[str, Any]) -> Outcome:
        """Propose an option of the play after trying it on a copy (the engine's refusal
        goes to the seat, with its law)."""
        assert board.play is not None
        trial = copy.deepcopy(board.play)
        try:
            play_action(trial, data)
        except IllegalActionError as error:
            return Outcome().tell([seat], refusal(error))
        return Outcome([Proposed("option", board.number, {**data, "by": str(seat)})])

    def _trial_option(self, board: BoardState, data: dict[str, Any]) -> Proposed | None:
        """An option event that applies through its ruling (tabled.rulings.TABLE_OPTIONS),
        tried on a copy of the state first: None if it cannot be applied."""
        trial = copy.deepcopy(self.state)
        try:
            trial.apply(Event(trial.seq + 1, EventType.OPTION, 0.0, board.number, data))
        except (ValueError, RuntimeError):
            return None
        return Proposed("option", board.number, data)

    def _lead_option(self, seat: Seat, key: str, board: BoardState) -> Outcome:
        """Laws 53-56: the non-offending side chooses on the keypad what happens to the lead
        faced out of turn: 1 accept, 2 refuse, 3 declarer becomes dummy (54A)."""
        play = board.play
        assert play is not None and play.faced_lead is not None
        if seat not in play.lead_choosers():
            return Outcome().tell([seat], Notice("lead_wait", error=False))
        option = LEAD_OPTION_KEYS.get(key)
        if option is None or option not in LEAD_OPTIONS[play.faced_lead.law]:
            return Outcome().tell([seat], Notice("lead_how", error=False))
        return self._option(board, seat, {"kind": "lead_option", "option": option.value})

    def _penalty_lead(self, seat: Seat, key: str, entry: SeatEntry,
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
        return self._option(board, seat, data)

    def _simultaneous_choice(self, seat: Seat, key: str, board: BoardState) -> Outcome:
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
        trial = copy.deepcopy(self.state)
        try:
            trial.apply(Event(trial.seq + 1, EventType.OPTION, 0.0, board.number, data))
        except (ValueError, RuntimeError) as error:
            return Outcome().tell([seat], Notice("law", {"reason": str(error)}, "58B2"))
        return Outcome([Proposed("option", board.number, data)])

    def _substitute_key(self, seat: Seat, key: str, board: BoardState) -> Outcome:
        """Law 58B3: an opponent who played to the trick after the 58B offender's card keeps
        it with OK; another card of theirs at the reader replaces it (``_card_played``)."""
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

    def _substitute_card(self, card: Card, seat: Seat | None, board: BoardState) -> Outcome:
        """Law 58B3: the card that replaces the one an opponent played after the offender's;
        anybody else's card waits."""
        if seat is None or seat not in board.may_substitute:
            return Outcome().tell(Seat, Notice("lead_wait", error=False))
        assert board.play is not None
        data = {"kind": "substitute", "seat": str(seat), "card": str(card),
                "by": str(board.play.controller(seat))}
        trial = copy.deepcopy(self.state)
        try:
            trial.apply(Event(trial.seq + 1, EventType.OPTION, 0.0, board.number, data))
        except (ValueError, RuntimeError) as error:
            return Outcome().tell([board.play.controller(seat)],
                                  Notice("law", {"reason": str(error)}, "58B3"))
        return Outcome([Proposed("option", board.number, data)])

    def _premature_option(self, seat: Seat, key: str, entry: SeatEntry,
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
        return self._option(board, seat, data)

    def _face_down(self, seat: Seat, key: str, entry: SeatEntry,
                   board: BoardState) -> Outcome:
        """Law 41A: the opening lead lies face down while the leader's partner and the
        presumed declarer may ask about the auction (41B); then it is faced (41C): by the
        leader's OK, or behind screens by the leader's screenmate's, who says the questions
        are over. Until then the auction period goes on (22B1): a call may still be changed
        (25A3)."""
        confirmer = board.lead_confirmer(self.state.conduct.screens)
        if key == "OK" and seat is confirmer and not entry.keys and not entry.replacing:
            if any(q.answer is None for q in board.questions):
                return Outcome().tell([seat], Notice("questions_first", error=False))
            return Outcome([Proposed("faced", board.number, {"seat": str(seat)})])
        if entry.replacing or entry.keys or key == "UNDO":
            return self._keyed_in_play(seat, key, entry, board)
        if key in LEVELS or key in STRAINS or key in CALL_KEYS:
            return self._calling(seat, key, entry)
        return Outcome().tell([seat], Notice("face_down", {"seat": str(confirmer)},
                                             error=False))

    def _claim_answer(self, seat: Seat, key: str, board: BoardState) -> Outcome:
        assert board.play is not None
        if key not in ("OK", "UNDO"):
            return Outcome()
        agree = key == "OK"
        trial = copy.deepcopy(board.play)
        try:
            claim = trial.respond_to_claim(seat, agree)  # Laws 68B2, 69A
        except IllegalActionError as error:
            return Outcome().tell([seat], refusal(error))
        events = [Proposed("claim_answer", board.number, {"seat": str(seat), "agree": agree})]
        if trial.claim is claim and claim.state.value == "disputed":
            # Law 68D: play stops and the director is summoned.
            events.append(self._director(seat, "claim", "68D",
                                         f"{seat} disputes {claim.seat}'s claim of "
                                         f"{claim.tricks}", "claim_disputed",
                                         {"seat": str(seat), "other": str(claim.seat),
                                          "tricks": claim.tricks}))
        elif trial.claim is None:
            # Law 68B2: a defender's concession that partner objects to at once did not
            # happen; play goes on, but unauthorised information may exist: the director
            # is summoned at once.
            events.append(self._director(seat, "concession", "68B2",
                                         f"{seat} objects to partner {claim.seat}'s "
                                         f"concession ({claim.tricks} of the tricks left): "
                                         f"void, play goes on", "concession_voided",
                                         {"seat": str(seat), "other": str(claim.seat),
                                          "tricks": claim.tricks}))
            return Outcome(events).tell(Seat, Notice("concession_void", error=False))
        return Outcome(events)

    def _breach_option(self, seat: Seat, key: str, board: BoardState) -> Outcome:
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
        return self._option(board, seat, {"kind": "breach_option",
                                          "breach": "accept" if key == "1" else "refuse"})

    def _result(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        board = self.state.board
        assert board is not None
        if key != "OK":
            return Outcome().tell([seat], Notice("confirm_how", error=False))
        if seat in board.confirmed:
            return Outcome()
        return Outcome([Proposed("confirm", board.number, {"seat": str(seat)})])

    def card(self, card: Card | None, reader_seat: Seat | None, *,
             now: float | None = None) -> Outcome:
        """A card at the reader; ``now`` (the table's clock) tells two cards read together
        (Law 58B) from a card played too soon. What is refused is said to the player whose
        card it is (its slot's player, with one reader the table's); what the laws make
        public (a card faced: a penalty card, a lead out of turn) is said to all."""
        phase = self.state.phase
        told = list(Seat) if reader_seat is None else [reader_seat]
        if card is None:
            return Outcome().tell(told, Notice("unknown_card"))
        board = self.state.board
        if phase in (Phase.SETUP, Phase.AUCTION) and board is not None:
            # Law 7B: a hand may be counted, and checked on the reader, until the play.
            return self._hand_scan(card, reader_seat, board)
        if phase in (Phase.LEAD, Phase.PLAY) and board is not None:
            return self._card_played(card, reader_seat, board, now)
        return Outcome().tell(told, Notice("no_card_now", {"card": str(card)}))

    def _fouled(self, seat: Seat | None, problem: tuple[str, dict[str, Any]],
                board: BoardState) -> Outcome:
        """Laws 15 and 87: a wrong or fouled board; the director decides (one call a
        board, while it is open). ``problem``: a message's code and params."""
        code, params = problem
        detail = message(code, params)
        outcome = Outcome().tell(Seat, Notice("fouled", {"detail": detail}, "87"))
        if not any(c.reason == "fouled_board" and c.board == board.number
                   for c in self.state.open_director_calls):
            outcome.events.append(self._director(seat, "fouled_board", "87", detail, code,
                                                 params))
        return outcome

    def _hand_scan(self, card: Card, reader_seat: Seat | None, board: BoardState) -> Outcome:
        seat = reader_seat
        if seat is None:  # one reader: hands are scanned in turn, North first
            seat = next((s for s in Seat if len(board.scans[s]) < 13), None)
            if seat is None:
                return Outcome()
        scanned = board.scanned_owner(card)
        if scanned is seat:
            return Outcome()  # the same card read twice
        known = next((s for s, hand in board.known.items() if card in hand), None)
        problem: tuple[str, dict[str, Any]] | None = None
        said = {"card": str(card), "seat": str(seat)}
        if scanned is not None:
            problem = ("scanned_twice", {**said, "owner": str(scanned)})
        elif known is not None and known is not seat:
            problem = ("scanned_elsewhere", {**said, "owner": str(known)})
        elif seat in board.known and card not in board.known[seat]:
            problem = ("scanned_not_there", said)
        elif len(board.scans[seat]) >= 13:
            problem = ("scanned_fourteenth", said)
        if problem is None:
            taken = Outcome([Proposed("hand_card", board.number,
                                      {"seat": str(seat), "card": str(card)})])
            captured = self._captured(board, seat, card)
            if captured is not None:
                taken.events.append(Proposed("deal", board.number,
                                             {"deal": captured.to_pbn()}))
            return taken
        return self._fouled(seat, problem, board)

    def _captured(self, board: BoardState, seat: Seat, card: Card) -> Deal | None:
        """The deal the 52nd card scanned completes, when the board was dealt here (Law 6):
        the assignment did not bring it, so this table is the first to play it and its four
        hands, 13 distinct cards each, become the board's hand record."""
        assignment = self.state.assignment
        if (assignment is None or not assignment.dealt_at_table
                or board.number in assignment.deals):
            return None
        if any(len(board.scans[s]) != (12 if s is seat else 13) for s in Seat):
            return None
        return Deal({s: frozenset([*board.scans[s], *([card] if s is seat else [])])
                     for s in Seat})

    def _card_played(self, card: Card, reader_seat: Seat | None, board: BoardState,
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
            return self._substitute_card(card, owner or reader_seat, board)
        if not board.cards and not board.auction_crossed:
            return Outcome().tell(told, Notice("tray_away"))
        if (owner is not None and reader_seat is not None
                and play.controller(owner) is not play.controller(reader_seat)):
            # Laws 15, 87: the player at this reader holds a card the deal puts in another
            # hand: the board is turned or fouled; no player's irregularity (declarer's and
            # dummy's cards may come through either of their readers).
            return self._fouled(reader_seat, ("read_at_other_reader", {
                "card": str(card), "seat": str(reader_seat), "owner": str(owner)}), board)
        kept = board.out_of_turn
        if (kept is not None and now is not None and seat is not None and seat is play.turn
                and reader_seat is not None and self._read_at_seat == kept[:2]
                and kept[0] is not seat
                and now - kept[2] <= self.state.conduct.profile.simultaneous):
            # Law 58A: the legal card of the hand on turn, read with another player's card
            # that the table took first as out of turn: that one counts as played after it.
            both = self._trial_option(board, {"kind": "simultaneous_play", "seat": str(seat),
                                              "card": str(card), "by": None})
            if both is not None:
                return Outcome([both]).tell(Seat, Notice(
                    "simultaneous_play", {"seat": str(kept[0]), "card": str(kept[1])},
                    "58A", error=False))
        if play.faced_lead is not None and seat is not None:
            return self._after_faced_lead(card, seat, board)
        if play.breach is not None and seat is not None:
            return self._after_breach(card, seat, board)
        try:
            play.check(card, seat)
        except IllegalActionError as error:
            assert seat is not None
            self._read_at_seat = None if reader_seat is None else (seat, card)
            together = (now is not None and bool(board.card_ts)
                        and now - board.card_ts[-1]
                        <= self.state.conduct.profile.simultaneous)  # Law 58B's tempo
            return self._seen_out_of_turn(card, seat, board, error, together)
        assert seat is not None
        data: dict[str, Any] = {"seat": str(seat), "card": str(card)}
        if board.lead_made_face_down:
            data["face_down"] = True  # Law 41A: the opening lead is made face down
        return Outcome([Proposed("card", board.number, data)])

    def _seen_out_of_turn(self, card: Card, seat: Seat, board: BoardState,
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
            both = self._trial_option(board, {"kind": "simultaneous", "seat": str(seat),
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
            outcome.events.append(self._director(
                seat, "lead_out_of_turn", law, message("lead_face_down_out_of_turn", said),
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
        kept = self._option(board, seat, data)
        if not kept.events:
            return outcome
        outcome.events.extend(kept.events)
        outcome.tell(Seat, public or Notice("premature_play",
                                            {"seat": str(seat), "card": str(card)}, law))
        outcome.tell([owner], refusal(error))
        outcome.events.append(self._director(seat, reason, law, error.reason, error.code,
                                             error.params))
        return outcome

    def _after_faced_lead(self, card: Card, seat: Seat, board: BoardState) -> Outcome:
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

    def _after_breach(self, card: Card, seat: Seat, board: BoardState) -> Outcome:
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

    def follow_up(self) -> list[Proposed]:
        """Events the laws add after the last one: the result once the play is over, the
        director once a revoke comes to light, a call over a changed call that can no
        longer stand withdrawn."""
        state = self.state
        board = state.board
        if board is None:
            return []
        late = board.late_change
        if late is not None:
            # Law 25B: a change of call after a pause: the director, with its options.
            said: dict[str, Any] = {"seat": str(late.seat), "call": str(late.call),
                                    "number": late.index + 1, "other": str(late.seat.lho)}
            detail = message("change_after_pause", said)
            if not any(c.detail == detail and c.board == board.number
                       for c in state.director_calls):
                return [self._director(late.seat, "change_of_call", "25B", detail,
                                       "change_after_pause", said)]
        over = board.over_change
        if over is not None and not board.auction.is_legal(over.call, over.seat):
            # Law 25A4: the call made over the changed one is not legal over the new call:
            # it cannot stand; it is withdrawn, and its maker calls again.
            return [Proposed("option", board.number, {
                "kind": "call_over_change", "seat": str(over.seat), "lho_call": "withdraw",
                "by": None})]
        if board.result is None:
            result = state.board_result()
            if result is not None:
                data: dict[str, Any] = {
                    "contract": result.contract_text, "score_ns": result.score_ns,
                    "declarer": None if result.declarer is None else str(result.declarer),
                    "tricks": result.tricks}
                if result.transferred:
                    data["transferred"] = result.transferred  # Law 64A, kept apart
                if board.play is not None and board.play.tricks[0].cards:
                    # The lead that stood (Law 41A): not a face-down card that went back to
                    # the hand with a change of call (25A), nor a lead out of turn retracted
                    # (Law 54), which the board's first card event may be.
                    data["lead"] = str(board.play.tricks[0].cards[0][1])
                return [Proposed("result", board.number, data)]
        elif board.revoke_pending and board.play is not None:
            # Law 64C: at the end of play the director confirms or changes the transfer;
            # the call lists every revoke the table saw.
            seen = "; ".join(f"{r.seat} trick {r.trick + 1} ({r.card})"
                             for r in board.play.revokes)
            detail = (f"board {board.number}: {board.result.transferred:+d} trick(s) to "
                      f"declarer; revokes: {seen}")[:DETAIL]
            said = {"board": board.number, "tricks": f"{board.result.transferred:+d}",
                    "revokes": "; ".join(f"{r.seat} {r.trick + 1} {r.card}"
                                         for r in board.play.revokes)[:DETAIL]}
            if not any(c.reason == "revoke_transfer" and c.detail == detail
                       for c in state.director_calls):
                return [self._director(None, "revoke_transfer", "64C", detail,
                                       "revoke_transfer", said)]
        play = board.play
        if play is not None:
            for revoke in play.revokes:
                said = {"seat": str(revoke.seat), "number": revoke.trick + 1,
                        "card": str(revoke.card)}
                code, law = "revoke", "61"
                if revoke.law != "61":
                    # Law 61A: the hand unknown, a later card shows it could have complied
                    # with the option of Law 57A (or the lead restriction of 26, 50D2).
                    code, law = "revoke_when_able", "61A"
                    said["rule"] = revoke.law
                detail = message(code, said)
                if not any(c.reason == "revoke" and c.board == board.number
                           and c.seat is revoke.seat and c.law in ("61", "61A")
                           for c in state.director_calls):
                    # Law 64: the director settles the rectification at the end of play; one
                    # call a board and offender (the end of play's call lists them all).
                    return [self._director(revoke.seat, "revoke", law, detail, code, said)]
        return []
