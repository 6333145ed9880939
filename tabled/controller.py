"""From inputs to events: what a key, a scanned card or a server command means now.

The controller reads the state and never changes it. For each input it answers with the
events to append (each one checked with the laws engine first) and the notices to show; a
refused input changes nothing and tells the seat why, naming the law. The keys and what
they do in each phase are in docs/keypad.md.

What a seat has typed but not confirmed (``SeatEntry``) is not an accepted input: it lives
here, not in the journal, and a power cut forgets it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tabled.rules import (
    DOUBLE,
    PASS,
    REDOUBLE,
    Bid,
    Call,
    Card,
    IllegalActionError,
    Seat,
    Strain,
)
from tabled.rules.auction import Auction

from .regulation import alert_required
from .rulings import KINDS
from .state import BoardState, Phase, TableState
from .syscard import STANDARD_ANSWERS
from .wire import Command, Event, EventType

LEVELS = {"1", "2", "3", "4", "5", "6", "7"}
STRAINS = {"C": Strain.C, "D": Strain.D, "H": Strain.H, "S": Strain.S, "NT": Strain.NT}
CALL_KEYS: dict[str, Call] = {"PASS": PASS, "X": DOUBLE, "XX": REDOUBLE}
DIGITS = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "C": 8, "D": 9, "S": 0}
MAX_DIGITS = 9


@dataclass(frozen=True)
class Notice:
    """Something to tell a seat: ``key`` names a text of tabled.i18n, ``law`` the law."""

    key: str
    args: Mapping[str, Any] = field(default_factory=dict)
    law: str | None = None
    error: bool = True


@dataclass
class SeatEntry:
    keys: list[str] = field(default_factory=list)
    replacing: bool = False  # Law 25A: the next call replaces this seat's unintended call
    review: bool = False     # Law 20B: the seat is reviewing the auction
    alert: bool = False      # self-alerting: ALERT pressed with the call being typed
    page: str | None = None  # "ask" (Law 20F) or "card" (Law 40B2(c)): INFO's further pages
    pick: int | None = None  # the opponents' call the page is about (auction index)
    scroll: int = 0          # the card page: how far down the meaning
    answer: int = 0          # answering a question: which answer of the list is shown


@dataclass(frozen=True)
class Proposed:
    """An event the controller wants appended: type, board and data."""

    type: str
    board: int | None
    data: Mapping[str, Any]


@dataclass
class Outcome:
    events: list[Proposed] = field(default_factory=list)
    notices: dict[Seat, Notice] = field(default_factory=dict)
    resend: tuple[int, int | None] | None = None  # a resend command's range
    repeat: int | None = None  # a repeated command: the seq of the event that answered it

    def tell(self, seats: Any, notice: Notice) -> Outcome:
        for seat in seats:
            self.notices[seat] = notice
        return self


def _refusal(error: IllegalActionError) -> Notice:
    return Notice("law", {"reason": error.reason}, error.law)


class Controller:
    """Turns inputs into proposed events for one table. One thread calls it."""

    def __init__(self, state: TableState, *,
                 digit: Callable[[str], int | None] = DIGITS.get) -> None:
        self.state = state
        self.digit = digit
        self.entries: dict[Seat, SeatEntry] = {seat: SeatEntry() for seat in Seat}

    def forget_entries(self) -> None:
        """The phase or the board changed: half-typed keys and a pending change of call
        belong to what is gone."""
        for entry in self.entries.values():
            entry.keys.clear()
            entry.replacing = False
            entry.alert = False
            entry.page = None

    # -- keys ----------------------------------------------------------------------------------

    def key(self, seat: Seat, key: str) -> Outcome:
        entry = self.entries[seat]
        if key == "DIR":
            # Law 9B1(a): anyone may summon the director; the call goes out at once.
            return Outcome([self._director(seat, "player")]).tell(
                Seat, Notice("director_called", {"seat": str(seat)}, error=False))
        if key == "INFO":
            return self._info(seat, entry)
        board = self.state.board
        if board is not None and board.open_questions(seat):
            return self._answering(seat, key, entry, board)
        if entry.page is not None and board is not None:
            if key in ("UNDO", "OK"):
                return self._page_key(seat, key, entry, board)
            entry.page = None  # any other key leaves the page and does what it does
        phase = self.state.phase
        handler = {
            Phase.WAITING: self._waiting,
            Phase.PLAYERS: self._players,
            Phase.BOARD: self._choose_board,
            Phase.SETUP: self._calling,
            Phase.AUCTION: self._calling,
            Phase.LEAD: self._playing,
            Phase.PLAY: self._playing,
            Phase.RESULT: self._result,
            Phase.ROUND_END: self._round_end,
        }[phase]
        return handler(seat, key, entry)

    def _director(self, seat: Seat | None, reason: str, law: str | None = None,
                  detail: str | None = None) -> Proposed:
        data: dict[str, Any] = {"seat": None if seat is None else str(seat), "reason": reason}
        if law:
            data["law"] = law
        if detail:
            data["detail"] = detail[:200]
        return Proposed("director", self._board_number(), data)

    def _board_number(self) -> int | None:
        return None if self.state.board is None else self.state.board.number

    def _waiting(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        return Outcome().tell([seat], Notice("waiting", error=False))

    def _number(self, seat: Seat, key: str, entry: SeatEntry) -> tuple[bool, int | None]:
        """Digit entry: (confirmed, number). UNDO rubs out the last digit."""
        if key == "UNDO":
            if entry.keys:
                entry.keys.pop()
            return False, None
        if key == "OK":
            digits = "".join(str(d) for d in map(self.digit, entry.keys) if d is not None)
            entry.keys.clear()
            return True, int(digits) if digits else None
        if self.digit(key) is not None and len(entry.keys) < MAX_DIGITS:
            entry.keys.append(key)
        return False, None

    def _players(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        done, number = self._number(seat, key, entry)
        if not done:
            return Outcome()
        if number == 0:
            return Outcome().tell([seat], Notice("bad_number"))
        return Outcome([Proposed("player", None, {"seat": str(seat), "number": number})])

    def _choose_board(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        done, number = self._number(seat, key, entry)
        if not done:
            return Outcome()
        state = self.state
        if number is None:
            number = state.next_board()
        if number is None or number not in state.boards_left:
            return Outcome().tell([seat], Notice("not_this_round", {"board": number}))
        dealer, vulnerability = state.board_facts(number)
        return Outcome([Proposed("board", number, {"board": number, "dealer": str(dealer),
                                                   "vul": str(vulnerability)})])

    # -- the auction ---------------------------------------------------------------------------

    def _entered_call(self, entry: SeatEntry) -> Call | None:
        keys = entry.keys
        if len(keys) == 1 and keys[0] in CALL_KEYS:
            return CALL_KEYS[keys[0]]
        if len(keys) == 2 and keys[0] in LEVELS and keys[1] in STRAINS:
            return Bid(int(keys[0]), STRAINS[keys[1]])
        return None

    def _calling(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        board = self.state.board
        assert board is not None
        if key in LEVELS:
            entry.keys = [key]
        elif key in STRAINS:
            if not entry.keys or entry.keys[0] not in LEVELS:
                return Outcome().tell([seat], Notice("level_first"))
            entry.keys = [entry.keys[0], key]
        elif key in CALL_KEYS:
            entry.keys = [key]
        elif key == "UNDO":
            return self._undo_call(seat, entry, board)
        elif key == "ALERT":
            return self._alert(seat, board, entry)
        elif key == "OK":
            return self._confirm_call(seat, entry, board)
        return Outcome()

    def _undo_call(self, seat: Seat, entry: SeatEntry, board: BoardState) -> Outcome:
        if entry.keys:
            entry.keys.clear()
            return Outcome()
        # Law 25A: an unintended call may be replaced until partner calls (25A1-2) or, at the
        # end of the auction, until the opening lead is faced (25A3).
        index = board.auction.can_replace(seat)
        tray = board.tray
        if board.cards or index is None or (tray is not None and index < tray.crossed):
            # Screens: a call may be replaced without penalty until the tray crosses.
            entry.replacing = False
            return Outcome().tell([seat], Notice("law", {"reason": "change"}, "25A"))
        entry.replacing = True
        return Outcome().tell([seat], Notice("replace", error=False))

    def _self_alerting(self) -> bool:
        conduct = self.state.conduct
        return conduct.screens is not None or conduct.profile.self_alert

    def _alert(self, seat: Seat, board: BoardState, entry: SeatEntry) -> Outcome:
        """ALERT: the alert norms say who alerts (tabled.regulation). Self-alerting, ALERT
        while a call is typed alerts it with the call; with nothing typed, ALERT alerts the
        newest call of one's own side one has seen (one's own, or partner's under screens)."""
        if entry.keys and self._self_alerting():
            entry.alert = not entry.alert
            return Outcome()
        entries = board.auction.entries
        screens = self.state.conduct.screens
        if screens is not None:
            seen = board.seen_by_side(screens, screens.side(seat))
            mine = [i for i in range(seen) if entries[i].seat in (seat, seat.partner)]
        elif self._self_alerting():
            mine = [i for i, e in enumerate(entries) if e.seat is seat]
        else:
            mine = [i for i, e in enumerate(entries) if e.seat is seat.partner]
        if not mine:
            return Outcome().tell([seat], Notice("alert_partner" if not self._self_alerting()
                                                 else "alert_nothing"))
        index = mine[-1]
        if any(a.by is seat for a in board.alerted(index)):
            return Outcome()
        # Late: a call was made over it (without screens), or it has crossed on the tray.
        if screens is not None:
            late = board.tray is not None and (
                (index < board.tray.crossed and entries[index].seat is seat)
                or screens.side(seat) != board.tray.side)
        else:
            late = index < len(entries) - 1
        data: dict[str, Any] = {"seat": str(seat), "index": index}
        outcome = Outcome()
        if late:
            data["late"] = True
            # Failing to alert is misinformation (AEB note to Law 21): the director decides
            # whether the opponents may change a call (Law 21B1).
            outcome.events.append(self._director(
                seat, "late_alert", "21B",
                f"{seat} alerts {entries[index].seat}'s {entries[index].call} late"))
        outcome.events.insert(0, Proposed("alert", board.number, data))
        return outcome

    def _reminder(self, seat: Seat, board: BoardState, call: Call,
                  alerted: bool) -> Notice | None:
        """Self-alerting: the caller's own card says the call is alertable and it was not
        alerted. Only the caller is told; telling partner would be unauthorized (Law 16B)."""
        if alerted or not self._self_alerting():
            return None
        conduct = self.state.conduct
        card = conduct.card_of(seat)
        if card is None:
            return None
        trial = board.auction.copy()
        trial.make_call(call, seat)
        index = len(trial) - 1
        found = card.lookup(trial, index)
        if alert_required(None if found is None else found.alert, trial, index,
                          conduct.screens, penalty=None if found is None else found.penalty,
                          opening_natural=self._opening_natural(trial, seat)):
            return Notice("remind_alert", {"call": str(call)}, "40B", error=False)
        return None

    def _opening_natural(self, auction: Auction, seat: Seat) -> bool:
        """Whether the opening is natural, by its own side's card (norm 8 asks): a call the
        card calls alertable is not."""
        first = next((i for i, e in enumerate(auction.entries) if e.call.is_bid), None)
        if first is None:
            return False
        card = self.state.conduct.card_of(auction.entries[first].seat)
        found = None if card is None else card.lookup(auction, first)
        return found is None or not found.alert

    def _confirm_call(self, seat: Seat, entry: SeatEntry, board: BoardState) -> Outcome:
        call = self._entered_call(entry)
        if call is None:
            return Outcome().tell([seat], Notice("enter_call"))
        alert = entry.alert and self._self_alerting()
        entry.keys.clear()
        entry.alert = False
        try:
            if entry.replacing:
                index = board.auction.can_replace(seat)
                if board.tray is not None and index is not None \
                        and index < board.tray.crossed:
                    entry.replacing = False  # screens: the call crossed meanwhile
                    return Outcome().tell([seat], Notice("law", {"reason": "change"}, "25A"))
                trial = board.auction.copy()
                trial.replace_call(seat, call)  # Law 25A (screens: until the tray crosses)
                entry.replacing = False
                data: dict[str, Any] = {"seat": str(seat), "call": str(call)}
                if alert:
                    data["alert"] = True
                return Outcome([Proposed("change", board.number, data)])
            board.auction.check(call, seat)
        except IllegalActionError as error:
            if board.auction.can_replace(seat) is None:
                entry.replacing = False  # Law 25A: too late now; the next call is a new call
            return Outcome().tell([seat], _refusal(error))
        if board.tray_away(self.state.conduct.screens, seat):
            # Screens: a player calls once the tray has brought the other side's calls.
            return Outcome().tell([seat], Notice("tray_away"))
        data = {"seat": str(seat), "call": str(call)}
        if alert:
            data["alert"] = True
        outcome = Outcome([Proposed("call", board.number, data)])
        reminder = self._reminder(seat, board, call, alert)
        if reminder is not None:
            outcome.tell([seat], reminder)
        return outcome

    # -- questions, answers and the opponents' card (Laws 20F, 40B2(c)) -------------------------

    def _opponent_calls(self, seat: Seat, board: BoardState) -> list[int]:
        """The opponents' calls ``seat`` has seen (under screens, what reached its side)."""
        screens = self.state.conduct.screens
        seen = (len(board.auction) if screens is None
                else board.seen_by_side(screens, screens.side(seat)))
        entries = board.auction.entries
        return [i for i in range(seen) if entries[i].seat.side is not seat.side]

    def _at_turn(self, seat: Seat, board: BoardState) -> bool:
        phase = self.state.phase
        if phase in (Phase.SETUP, Phase.AUCTION):
            return board.auction.turn is seat
        play = board.play
        if phase is Phase.PLAY and play is not None and play.turn is not None:
            # Declarer plays dummy's cards (Law 45B): dummy's turn is declarer's too.
            turn = play.declarer if play.turn is play.dummy else play.turn
            return turn is seat
        return False

    def _may_ask(self, seat: Seat, board: BoardState) -> bool:
        """Law 20F1: in the auction, at one's turn; 20F2 and 41B: in the clarification period
        (the auction over, the lead not faced); in the play, at one's turn to play."""
        play = board.play
        if self.state.phase is Phase.LEAD:
            return play is None or seat is not play.dummy
        return self._at_turn(seat, board) and (play is None or seat is not play.dummy)

    def _may_consult(self, seat: Seat, board: BoardState) -> bool:
        """Law 40B2(c): the opponents' card (i) before the auction begins, (ii) in the
        clarification period, (iii) in the auction and the play at one's turn."""
        phase = self.state.phase
        if phase is Phase.SETUP or phase is Phase.LEAD:
            return True
        return self._at_turn(seat, board)

    def _info(self, seat: Seat, entry: SeatEntry) -> Outcome:
        """INFO goes round the pages: the review of the auction (Law 20B), a question about
        the opponents' calls, the opponents' system card, and back to the plain display."""
        board = self.state.board
        order: list[str | None] = [None, "review", "ask", "card"]
        current = "review" if entry.review and entry.page is None else entry.page
        start = order.index(current)
        for step in range(1, len(order) + 1):
            page = order[(start + step) % len(order)]
            if page == "ask" and (board is None or not self._may_ask(seat, board)
                                  or not self._opponent_calls(seat, board)):
                continue
            if page == "card" and (board is None or not self._may_consult(seat, board)
                                   or self.state.conduct.cards.get(
                                       seat.side.other) is None):
                continue
            entry.review = page == "review"
            entry.page = page if page in ("ask", "card") else None
            entry.scroll = 0
            if entry.page is not None and board is not None:
                calls = self._opponent_calls(seat, board)
                bids = [i for i in calls if board.auction.entries[i].call != PASS]
                newest = bids or calls  # the newest that says something, else the newest
                entry.pick = newest[-1] if newest else None
            return Outcome()
        return Outcome()

    def _page_key(self, seat: Seat, key: str, entry: SeatEntry, board: BoardState) -> Outcome:
        calls = self._opponent_calls(seat, board)
        if key == "UNDO":  # the opponents' call before, round to the newest
            if calls:
                at = calls.index(entry.pick) if entry.pick in calls else 0
                entry.pick = calls[at - 1]
            entry.scroll = 0
            return Outcome()
        if entry.page == "card":
            entry.scroll += 1  # OK: the next lines of the meaning (or of the card)
            return Outcome()
        # OK on the question page: ask about the call shown.
        if not self._may_ask(seat, board):
            entry.page = None
            return Outcome().tell([seat], Notice("ask_turn", law="20F"))
        index = entry.pick
        if index is None or index not in calls:
            return Outcome().tell([seat], Notice("ask_nothing"))
        if any(q.asker is seat and q.index == index and q.answer is None
               for q in board.questions):
            return Outcome()
        screens = self.state.conduct.screens
        caller = board.auction.entries[index].seat
        # Law 20F1: the caller's partner answers; under screens, in writing, the screenmate.
        to = caller.partner if screens is None else screens.screenmate(seat)
        entry.page = None
        return Outcome([Proposed("question", board.number,
                                 {"seat": str(seat), "index": index, "to": str(to)})]).tell(
            [seat], Notice("asked", error=False))

    def _answering(self, seat: Seat, key: str, entry: SeatEntry,
                   board: BoardState) -> Outcome:
        """A question waits for this seat: its keys answer it, from the list (UNDO shows the
        next answer, OK gives it) or by code (digits, then OK)."""
        question = board.open_questions(seat)[0]
        offered = self.state.offered_answers(seat, question)
        if key == "DIR":
            return self.key(seat, key)
        if key == "UNDO":
            if entry.keys:
                entry.keys.pop()
            else:
                entry.answer = (entry.answer + 1) % len(offered)
            return Outcome()
        if key == "OK":
            if entry.keys:
                digits = "".join(str(self.digit(k)) for k in entry.keys
                                 if self.digit(k) is not None)
                entry.keys.clear()
                code = int(digits) if digits else -1
                card = self.state.conduct.card_of(seat)
                if code not in STANDARD_ANSWERS and (card is None
                                                     or card.by_code(code) is None):
                    return Outcome().tell([seat], Notice("bad_code", {"code": code}))
            else:
                code = offered[entry.answer % len(offered)]
            entry.answer = 0
            told = [question.asker]
            if self.state.conduct.screens is None:
                told.append(question.asker.partner)  # Law 20F1: the asker's side
            return Outcome([Proposed("answer", board.number,
                                     {"seat": str(seat), "question": question.seq,
                                      "code": code})]).tell(
                told, Notice("answered", {"call": str(board.auction.entries[question.index]
                                                      .call), "code": code, "by": str(seat)},
                             error=False))
        if self.digit(key) is not None and len(entry.keys) < 4:
            entry.keys.append(key)
            return Outcome()
        return Outcome().tell([seat], Notice("answer_first"))

    def tick(self, now: float) -> Outcome:
        """Screens: the tray crosses once it is due (tabled.state.BoardState.tray_due)."""
        due = self.next_tick()
        board = self.state.board
        if due is None or now < due or board is None:
            return Outcome()
        return Outcome([Proposed("tray", board.number, {"calls": len(board.auction)})])

    def next_tick(self) -> float | None:
        """When ``tick`` has something to do, or None."""
        board = self.state.board
        screens = self.state.conduct.screens
        if board is None or screens is None:
            return None
        return board.tray_due(screens)

    # -- the play ------------------------------------------------------------------------------

    def _playing(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        board = self.state.board
        assert board is not None and board.play is not None
        play = board.play
        if board.face_down:
            return self._face_down(seat, key, board)
        claim = play.claim
        if claim is not None:
            return self._claim_answer(seat, key, board)
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
            return Outcome().tell([seat], _refusal(error))
        return Outcome([Proposed("claim", board.number,
                                 {"seat": str(seat), "tricks": tricks})]).tell(
            Seat, Notice("claimed", {"seat": str(seat), "tricks": tricks}, error=False))

    def _face_down(self, seat: Seat, key: str, board: BoardState) -> Outcome:
        """Screens: the opening lead lies face down until the leader's screenmate says the
        questions are over (OK); then all see it and dummy goes down."""
        confirmer = board.lead_confirmer(self.state.conduct.screens)
        if key == "OK" and seat is confirmer:
            return Outcome([Proposed("faced", board.number, {"seat": str(seat)})])
        return Outcome().tell([seat], Notice("face_down", {"seat": str(confirmer)},
                                             error=False))

    def _is_call(self, entry: SeatEntry) -> bool:
        return self._entered_call(entry) is not None and any(
            self.digit(k) is None for k in entry.keys)

    def _claim_answer(self, seat: Seat, key: str, board: BoardState) -> Outcome:
        assert board.play is not None
        if key not in ("OK", "UNDO"):
            return Outcome()
        agree = key == "OK"
        trial = copy.deepcopy(board.play)
        try:
            claim = trial.respond_to_claim(seat, agree)  # Laws 68B2, 69A
        except IllegalActionError as error:
            return Outcome().tell([seat], _refusal(error))
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

    def _round_end(self, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
        return Outcome().tell([seat], Notice("round_over", error=False))

    # -- cards ---------------------------------------------------------------------------------

    def card(self, card: Card | None, reader_seat: Seat | None) -> Outcome:
        phase = self.state.phase
        if card is None:
            return Outcome().tell(Seat, Notice("unknown_card"))
        board = self.state.board
        if phase is Phase.SETUP and board is not None:
            return self._hand_scan(card, reader_seat, board)
        if phase in (Phase.LEAD, Phase.PLAY) and board is not None:
            return self._card_played(card, reader_seat, board)
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

    def _card_played(self, card: Card, reader_seat: Seat | None,
                     board: BoardState) -> Outcome:
        play = board.play
        assert play is not None
        screens = self.state.conduct.screens
        if board.face_down:
            return Outcome().tell(Seat, Notice("face_down_wait", error=False))
        if not board.cards and not board.auction_crossed:
            return Outcome().tell(Seat, Notice("tray_away"))
        # The known hands say whose card it is; otherwise the reader's slot, or the turn.
        seat = play.owner(card) or reader_seat or play.turn
        try:
            play.check(card, seat)
        except IllegalActionError as error:
            outcome = Outcome().tell(Seat, _refusal(error))
            if error.law in ("54", "55", "56"):
                # A lead out of turn gives the opponents options: the director explains them.
                outcome.events.append(self._director(seat, "lead_out_of_turn", error.law,
                                                     error.reason))
            return outcome
        assert seat is not None
        data: dict[str, Any] = {"seat": str(seat), "card": str(card)}
        if not board.cards and screens is not None:
            data["face_down"] = True  # screens: the opening lead is made face down
        return Outcome([Proposed("card", board.number, data)])

    # -- what follows from an event ------------------------------------------------------------

    def follow_up(self) -> list[Proposed]:
        """Events the laws add after the last one: the result once the play is over, the
        director once a revoke comes to light."""
        state = self.state
        board = state.board
        if board is None:
            return []
        if board.result is None:
            result = state.board_result()
            if result is not None:
                return [Proposed("result", board.number, {
                    "contract": result.contract_text, "score_ns": result.score_ns,
                    "declarer": None if result.declarer is None else str(result.declarer),
                    "tricks": result.tricks})]
        play = board.play
        if play is not None:
            for revoke in play.revokes:
                detail = f"{revoke.seat} revoked on trick {revoke.trick + 1} ({revoke.card})"
                if not any(c.detail == detail for c in state.director_calls):
                    # Law 64: the director settles the rectification at the end of play.
                    return [self._director(None, "revoke", "61", detail)]
        return []

    # -- commands from the server --------------------------------------------------------------

    def command(self, command: Command) -> Outcome:
        state = self.state
        answered = state.commands.get(command.id)
        if answered is not None:
            return Outcome(repeat=answered)  # idempotent: the same answer again
        if command.type == "resend":
            return Outcome(resend=(command.data["since"], command.data.get("until")))
        if command.type == "assign":
            busy = state.board is not None and state.phase is not Phase.RESULT
            if busy:
                return self._refuse(command, f"board {state.board.number if state.board else ''}"
                                             " is being played; end the round first")
            proposed = Proposed("assign", None, {"cmd": command.id, **command.data})
            reason = self._trial(proposed)
            if reason is not None:
                return self._refuse(command, reason)
            return Outcome([proposed])
        reason = self._ruling_refusal(command.data)
        if reason is not None:
            return self._refuse(command, reason)
        return Outcome([Proposed("ruling", self._board_number(),
                                 {"cmd": command.id, **command.data})]).tell(
            Seat, Notice("ruling", {"kind": command.data["kind"]}, error=False))

    def _refuse(self, command: Command, reason: str) -> Outcome:
        return Outcome([Proposed("refused", self._board_number(),
                                 {"cmd": command.id, "reason": reason})])

    def _trial(self, proposed: Proposed) -> str | None:
        """Apply ``proposed`` to a copy of the state: why it cannot be applied, or None.
        What comes from outside is tried before it is journalled: a journal must replay."""
        trial = copy.deepcopy(self.state)
        try:
            trial.apply(Event(trial.seq + 1, EventType(proposed.type), 0.0, proposed.board,
                              proposed.data))
        except (IllegalActionError, ValueError, KeyError, TypeError, RuntimeError) as error:
            return str(error) or type(error).__name__
        return None

    def _ruling_refusal(self, data: Mapping[str, Any]) -> str | None:
        """Why this ruling cannot be applied now, or None. A trial copy takes it first.
        When a kind may be applied is its own (tabled.rulings)."""
        kind = KINDS[data["kind"]]
        if not kind.needs_board:
            return None
        board = self.state.board
        if board is None:
            return "no board on the table"
        reason = self._trial(Proposed("ruling", board.number, {"cmd": "trial", **data}))
        if reason is not None:
            return f"{kind.name}: {reason}"
        if kind.before_play and board.cards:
            return f"{kind.name}: the play has started"
        return None
