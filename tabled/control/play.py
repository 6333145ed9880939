"""The play: cards scanned (the hands before the auction, then each card played), claims,
the result and its confirmation, and what the laws add after an event."""

from __future__ import annotations

import copy
from typing import Any

from tabled.rules import Card, IllegalActionError, Seat, Suit
from tabled.rules.penalty import LEAD_OPTIONS, LeadOption, PenaltyLeadOption, PrematureOption
from tabled.rulings import play_action

from ..state import BoardState, Phase
from ..wire import Event, EventType
from .auction import AuctionInput
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
            return self._face_down(seat, key, board)
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
        if not board.cards and key in ("UNDO", "OK") and (entry.replacing or key == "UNDO"):
            return self._calling(seat, key, entry)  # Law 25A3: until the lead is faced
        if entry.replacing and (key in LEVELS or key in STRAINS or key in CALL_KEYS):
            return self._calling(seat, key, entry)
        if key in CALL_KEYS or key in ("H", "NT") or (key == "OK" and self._is_call(entry)):
            # A call after the auction: the auction refuses it (Law 39), naming the law.
            return self._calling(seat, key, entry)
        done, tricks = self._number(seat, key, entry)
        if not done:
            return Outcome()
        if tricks is None:
            return Outcome().tell([seat], Notice("claim_how"))
        trial = copy.deepcopy(play)
        try:
            trial.make_claim(seat, tricks)  # Law 68
        except IllegalActionError as error:
            return Outcome().tell([seat], refusal(error))
        return Outcome([Proposed("claim", board.number,
                                 {"seat": str(seat), "tricks": tricks})]).tell(
            Seat, Notice("claimed", {"seat": str(seat), "tricks": tricks}, error=False))

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

    def _face_down(self, seat: Seat, key: str, board: BoardState) -> Outcome:
        """Screens: the opening lead lies face down until the leader's screenmate says the
        questions are over (OK); then all see it and dummy goes down."""
        confirmer = board.lead_confirmer(self.state.conduct.screens)
        if key == "OK" and seat is confirmer:
            return Outcome([Proposed("faced", board.number, {"seat": str(seat)})])
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
                                         f"{claim.tricks}"))
        return Outcome(events)

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
        (Law 58B) from a card played too soon."""
        phase = self.state.phase
        if card is None:
            return Outcome().tell(Seat, Notice("unknown_card"))
        board = self.state.board
        if phase is Phase.SETUP and board is not None:
            return self._hand_scan(card, reader_seat, board)
        if phase in (Phase.LEAD, Phase.PLAY) and board is not None:
            return self._card_played(card, reader_seat, board, now)
        return Outcome().tell(Seat, Notice("no_card_now", {"card": str(card)}))

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
        problem: str | None = None
        if scanned is not None:
            problem = f"{card} scanned in {scanned}'s hand and in {seat}'s"
        elif known is not None and known is not seat:
            problem = f"{card} scanned in {seat}'s hand; the board has it in {known}'s"
        elif seat in board.known and card not in board.known[seat]:
            problem = f"{card} scanned in {seat}'s hand; the board does not have it there"
        elif len(board.scans[seat]) >= 13:
            problem = f"a fourteenth card ({card}) scanned in {seat}'s hand"
        if problem is None:
            return Outcome([Proposed("hand_card", board.number,
                                     {"seat": str(seat), "card": str(card)})])
        # Laws 15 and 87: a wrong board or a fouled board; the director decides.
        outcome = Outcome().tell(Seat, Notice("fouled", {"detail": problem}, "87"))
        if not any(c.reason == "fouled_board" for c in self.state.open_director_calls):
            outcome.events.append(self._director(seat, "fouled_board", "87", problem))
        return outcome

    def _card_played(self, card: Card, reader_seat: Seat | None, board: BoardState,
                     now: float | None = None) -> Outcome:
        play = board.play
        assert play is not None
        screens = self.state.conduct.screens
        if board.face_down:
            return Outcome().tell(Seat, Notice("face_down_wait", error=False))
        if board.simultaneous is not None:
            return Outcome().tell(Seat, Notice("lead_wait", error=False))
        if board.may_substitute:
            return self._substitute_card(card, play.owner(card) or reader_seat, board)
        if not board.cards and not board.auction_crossed:
            return Outcome().tell(Seat, Notice("tray_away"))
        # The known hands say whose card it is; otherwise the reader's slot, or the turn.
        seat = play.owner(card) or reader_seat or play.turn
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
        if not board.cards and screens is not None:
            data["face_down"] = True  # screens: the opening lead is made face down
        return Outcome([Proposed("card", board.number, data)])

    def _seen_out_of_turn(self, card: Card, seat: Seat, board: BoardState,
                          error: IllegalActionError, together: bool = False) -> Outcome:
        """A card refused by the play. If it was faced out of turn the table cannot undo
        that it was seen: a lead out of turn is kept for the opponents' option (Laws 54-56),
        a defender's card played out of turn becomes a major penalty card (Law 57A); the
        director is called either way (Law 9B1)."""
        outcome = Outcome().tell(Seat, refusal(error))
        data: dict[str, Any] | None = None
        play = board.play
        assert play is not None
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
        if error.law in ("54", "55", "56"):
            data = {"kind": "lead_out_of_turn", "seat": str(seat), "card": str(card)}
            reason = "lead_out_of_turn"
        elif error.law == "60B":
            # Law 60B: a defender's card after declarer's lead from the wrong hand went back
            # and before declarer led from the right one: a major penalty card.
            data = {"kind": "penalty_card", "seat": str(seat), "card": str(card),
                    "major": "major", "law": "60B"}
            reason = "premature_play"
        elif error.law == "57":
            # Law 57A: before partner has played to the trick, a premature play; else a card
            # exposed through deliberate play (50B). A major penalty card either way.
            assert board.play is not None
            early = board.play.current.card_of(seat.partner) is None
            data = {"kind": "penalty_card", "seat": str(seat), "card": str(card),
                    "major": "major", "law": "57A" if early else "50B"}
            reason = "premature_play"
        if data is not None:
            kept = self._option(board, seat, data)
            outcome.events.extend(kept.events)
            if kept.events:
                outcome.tell(Seat, Notice(reason, {"seat": str(seat), "card": str(card)},
                                          error.law))
            if kept.events or reason == "lead_out_of_turn":
                outcome.events.append(self._director(seat, reason, error.law, error.reason))
        return outcome

    def _after_faced_lead(self, card: Card, seat: Seat, board: BoardState) -> Outcome:
        """Law 53A: the lead out of turn is accepted when the next hand in rotation plays
        a card to it; any other card waits for the option."""
        play = board.play
        assert play is not None and play.faced_lead is not None
        faced = play.faced_lead
        if seat is not faced.seat.next() or card == faced.card:
            return Outcome().tell(Seat, Notice("lead_wait", error=False))
        trial = copy.deepcopy(play)
        try:
            trial.choose_lead_option(LeadOption.ACCEPT)
            trial.play(faced.card, faced.seat)
            trial.check(card, seat)
        except IllegalActionError as error:
            return Outcome().tell(Seat, refusal(error))
        return Outcome([
            Proposed("option", board.number, {"kind": "lead_option", "option": "accept",
                                              "by": str(seat)}),
            Proposed("card", board.number, {"seat": str(seat), "card": str(card)})])

    def follow_up(self) -> list[Proposed]:
        """Events the laws add after the last one: the result once the play is over, the
        director once a revoke comes to light."""
        state = self.state
        board = state.board
        if board is None:
            return []
        late = board.late_change
        if late is not None:
            # Law 25B: a change of call after a pause: the director, with its options.
            detail = (f"{late[0]} changed {late[2]} (call {late[1] + 1}) after a pause; "
                      f"{late[0].lho} may accept it (25B1) or not (25B2)")
            if not any(c.detail == detail for c in state.director_calls):
                return [self._director(late[0], "change_of_call", "25B", detail)]
        if board.result is None:
            result = state.board_result()
            if result is not None:
                data: dict[str, Any] = {
                    "contract": result.contract_text, "score_ns": result.score_ns,
                    "declarer": None if result.declarer is None else str(result.declarer),
                    "tricks": result.tricks}
                if result.transferred:
                    data["transferred"] = result.transferred  # Law 64A, kept apart
                return [Proposed("result", board.number, data)]
        elif board.revoke_pending:
            # Law 64C: at the end of play the director confirms or changes the transfer.
            detail = (f"board {board.number}: revoke, {board.result.transferred:+d} "
                      f"trick(s) to declarer")
            if not any(c.reason == "revoke_transfer" and c.detail == detail
                       for c in state.director_calls):
                return [self._director(None, "revoke_transfer", "64C", detail)]
        play = board.play
        if play is not None:
            for revoke in play.revokes:
                detail = f"{revoke.seat} revoked on trick {revoke.trick + 1} ({revoke.card})"
                law = "61"
                if revoke.law != "61":
                    # Law 61A: the hand unknown, a later card shows it could have complied
                    # with the option of Law 57A (or the lead restriction of 26, 50D2).
                    detail = (f"{revoke.seat} did not comply with Law {revoke.law} on trick "
                              f"{revoke.trick + 1} ({revoke.card}) when able: a revoke")
                    law = "61A"
                if not any(c.detail == detail for c in state.director_calls):
                    # Law 64: the director settles the rectification at the end of play.
                    return [self._director(None, "revoke", law, detail)]
        return []
