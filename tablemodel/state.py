"""The table's state: nothing but the replay of its journal.

``TableState.apply(event)`` is the only way state changes, and ``TableState.replay(events)``
rebuilds it after a restart, so a table that lost power comes back exactly where it was.
The laws are the engine's (laws): applying an event that the engine would refuse
raises, which means the journal is corrupt, never that a player did something wrong (the
controller checks every input before it becomes an event).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from laws import Board, Card, Deal, Seat, Side, Vulnerability, parse_contract
from laws.play import Play
from laws.scoring import score_ns

from .rulings import KINDS, TABLE_OPTIONS
from .syscard import STANDARD_ANSWERS
from .table import (  # re-exported: the values the replay builds are tablemodel.table's
    AlertMark as AlertMark,
)
from .table import Assignment as Assignment
from .table import BoardState as BoardState
from .table import Conduct as Conduct
from .table import DirectorCall as DirectorCall
from .table import Guidance as Guidance
from .table import LateChange as LateChange
from .table import OverCall as OverCall
from .table import Question as Question
from .table import Result as Result
from .table import StateError as StateError
from .table import Tray as Tray
from .wire import (
    Alerted,
    Answered,
    Asked,
    Assign,
    BoardPut,
    CallMade,
    CardPlayed,
    ClaimAnswered,
    Claimed,
    DealCaptured,
    DirectorCalled,
    Event,
    EventType,
    Player,
    Refused,
    ResultMade,
    RosterAdded,
    RulingData,
    Scanned,
    SeatOnly,
    TrayCrossed,
)
from .wire import Phase as Phase  # re-exported: the phases are the wire's (retained state)


@dataclass
class TableState:
    seq: int = 0
    last_ts: float = 0.0
    assignment: Assignment | None = None
    players: dict[Seat, int | None] = field(default_factory=dict)
    # The session's roster (player number -> name), when the server sent one: only its
    # numbers may sit down. None: any number, as before the register (issue 17).
    roster: dict[int, str] | None = None
    results: dict[int, Result] = field(default_factory=dict)
    board: BoardState | None = None
    director_calls: list[DirectorCall] = field(default_factory=list)
    commands: dict[str, int] = field(default_factory=dict)  # command id -> answering event

    @classmethod
    def replay(cls, events: Iterable[Event]) -> TableState:
        state = cls()
        for event in events:
            state.apply(event)
        return state

    # -- what phase the table is in ------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self.assignment is None:
            return Phase.WAITING
        board = self.board
        if board is None:
            if len(self.players) < 4:
                return Phase.PLAYERS
            return Phase.BOARD if self.boards_left else Phase.ROUND_END
        if board.result is not None:
            return Phase.RESULT
        if board.play is not None:
            return Phase.PLAY if board.cards and not board.face_down else Phase.LEAD
        return Phase.AUCTION if len(board.auction) else Phase.SETUP

    @property
    def boards_left(self) -> list[int]:
        if self.assignment is None:
            return []
        return [b for b in self.assignment.boards if b not in self.results]

    @property
    def conduct(self) -> Conduct:
        return Conduct() if self.assignment is None else self.assignment.conduct

    def offered_answers(self, seat: Seat, question: Question) -> list[int]:
        """The answers ``seat`` is offered to ``question``, in order: the standard answers
        (tablemodel.syscard). Never its own card's meaning of the call: the player answers from
        memory, and showing it would be an aid to memory (Laws 20G2, 40B2(b); 2017 40C3(a));
        a code of the card may be typed."""
        return list(STANDARD_ANSWERS)

    @property
    def open_director_calls(self) -> list[DirectorCall]:
        return [c for c in self.director_calls if not c.acknowledged]

    # -- applying events -----------------------------------------------------------------------

    def apply(self, event: Event, *, gaps: bool = False) -> None:
        """Apply the journal's next event. ``gaps``: the events of one board as the server
        stored them (server.outputs.exports), numbered in order but not one after another."""
        if event.seq != self.seq + 1 and not (gaps and event.seq > self.seq):
            raise StateError(f"event {event.seq} after event {self.seq}")
        handler = _APPLY.get(event.type)
        if handler is None:
            raise StateError(f"event {event.seq}: no such event type {event.type!r}")
        handler(self, event)
        self.seq = event.seq
        self.last_ts = event.ts

    def _board(self, event: Event) -> BoardState:
        if self.board is None:
            raise StateError(f"event {event.seq} ({event.type}) with no board on the table")
        return self.board

    def _play(self, event: Event) -> Play:
        play = self._board(event).play
        if play is None:
            raise StateError(f"event {event.seq} ({event.type}) before the play")
        return play

    def _on_assign(self, event: Event) -> None:
        data = event.value(Assign)
        self.assignment = Assignment(
            data.cmd, data.round, data.ns, data.ew, data.boards, data.section or "",
            {board: Deal.from_pbn(pbn) for board, pbn in data.deals.items()}, data.next,
            dict(data.conditions), data.conduct, data.clock, data.label or "", data.switch,
            dict(data.names), data.dealing == "table")
        self.roster = None if data.roster is None else dict(data.roster)
        self.players = {}
        self.results = {}
        self.board = None
        self.commands[data.cmd] = event.seq

    def _on_player(self, event: Event) -> None:
        data = event.value(Player)
        self.players[data.seat] = data.number

    def _on_board(self, event: Event) -> None:
        data = event.value(BoardPut)
        number = data.board
        known: dict[Seat, frozenset[Card]] = {}
        if self.assignment is not None and number in self.assignment.deals:
            known = dict(self.assignment.deals[number].hands)
        dealer = data.dealer
        self.board = BoardState(number, dealer, data.vul, known, started=event.ts)
        screens = self.conduct.screens
        if screens is not None:
            self.board.tray = Tray(screens.side(dealer), 0, event.ts)

    def _on_hand_card(self, event: Event) -> None:
        data = event.value(Scanned)
        board = self._board(event)
        seat = data.seat
        scans = board.scans[seat]
        scans.append(data.card)
        if len(scans) == 13 and seat not in board.known:
            board.known[seat] = frozenset(scans)  # the first table to play it records it

    def _on_deal(self, event: Event) -> None:
        board = self._board(event)
        if Deal.from_pbn(event.value(DealCaptured).deal).hands != board.known:
            raise StateError(f"event {event.seq}: the deal is not the hands scanned")

    def _on_call(self, event: Event) -> None:
        data = event.value(CallMade)
        board = self._board(event)
        seat = data.seat
        if board.late_change is not None and seat is board.late_change.seat.lho:
            board.late_change = None  # Law 25B1: the opponent calls over it: accepted
        if board.over_change is not None and seat is board.over_change.seat:
            board.over_change = None  # Law 25A4: it calls again: the call over is withdrawn
        before = len(board.auction)
        # Law 28A: the call of the left-hand opponent of a seat that must pass comes in
        # rotation, the pass recorded first: each new entry has this time.
        board.auction.make_call(data.call, seat, alert=data.alert)
        board.call_ts.extend([event.ts] * (len(board.auction) - before))
        if data.alert:
            board.alerts.append(AlertMark(len(board.auction) - 1, seat, event.ts))
        self.after_call(board)

    def after_call(self, board: BoardState) -> None:
        """After the auction changed: the play starts when it is over (and not passed out),
        and is gone otherwise."""
        if board.auction.is_over and not board.auction.is_passed_out:
            board.start_play()
        else:
            board.play = None

    def _on_change(self, event: Event) -> None:
        data = event.value(CallMade)
        board = self._board(event)
        seat = data.seat
        index = board.auction.can_replace(seat)
        if index is None:
            raise StateError(f"event {event.seq}: {seat} has no call to replace")
        tray = board.tray
        if tray is not None and index < tray.crossed:
            raise StateError(f"event {event.seq}: {seat}'s call has crossed on the tray")
        replaced = board.auction.entries[index].call
        over = tuple(OverCall(e.seat, e.call, board.call_ts[i], e.alert)
                     for i, e in enumerate(board.auction.entries[index + 1:], start=index + 1))
        pause = self.conduct.profile.change_pause
        board.over_change = None
        if tray is None and event.ts - board.call_ts[index] > pause:
            # Law 25B: not without pause for thought (Law 25A1, the profile's tempo): the
            # left-hand opponent may accept it.
            board.late_change = LateChange(seat, index, replaced, over)
        else:
            board.late_change = None
            if over and tray is None:
                # Law 25A4: the left-hand opponent may withdraw its call made over the
                # unintended one, or let it stand (behind screens it is always withdrawn).
                board.over_change = over[0]
        if board.cards:
            # Law 22B1: the auction period lasts until the opening lead is faced; the lead
            # lying face down goes back to its hand (Law 41A) as the auction reopens.
            board.withdraw_face_down_lead()
        board.auction.replace_call(seat, data.call, alert=data.alert)
        # The replaced call and any made over it are gone, with their alerts and timing.
        del board.call_ts[index:]
        board.call_ts.append(event.ts)
        board.alerts = [a for a in board.alerts if a.index < index]
        if data.alert:
            board.alerts.append(AlertMark(index, seat, event.ts))
        self.after_call(board)

    def _on_alert(self, event: Event) -> None:
        data = event.value(Alerted)
        board = self._board(event)
        index = data.index
        if not 0 <= index < len(board.auction):
            raise StateError(f"event {event.seq}: no call {index} to alert")
        board.auction.annotate(index, alert=True)
        board.alerts.append(AlertMark(index, data.seat, event.ts, data.late))

    def _on_question(self, event: Event) -> None:
        data = event.value(Asked)
        board = self._board(event)
        index = data.index
        if not 0 <= index < len(board.auction):
            raise StateError(f"event {event.seq}: no call {index} to ask about")
        board.questions.append(Question(event.seq, data.seat, index, data.to, event.ts))

    def _on_answer(self, event: Event) -> None:
        data = event.value(Answered)
        board = self._board(event)
        question = next((q for q in board.questions if q.seq == data.question), None)
        if question is None or question.answer is not None \
                or question.answerer is not data.seat:
            raise StateError(f"event {event.seq}: no open question {data.question} "
                             f"for {data.seat}")
        question.answer = data.code
        question.answer_ts = event.ts

    def _on_tray(self, event: Event) -> None:
        calls = event.value(TrayCrossed).calls
        board = self._board(event)
        tray = board.tray
        if tray is None or calls != len(board.auction) or tray.crossed >= calls:
            raise StateError(f"event {event.seq}: the tray cannot cross with those calls")
        board.tray = Tray(1 - tray.side, calls, event.ts)

    def _on_faced(self, event: Event) -> None:
        board = self._board(event)
        if not board.face_down:
            raise StateError(f"event {event.seq}: no face-down lead to face")
        board.face_down = False
        board.faced_ts = event.ts

    def _on_card(self, event: Event) -> None:
        data = event.value(CardPlayed)
        board = self._board(event)
        seat, card = data.seat, data.card
        self._play(event).play(card, seat)
        board.cards.append((seat, card))
        board.card_ts.append(event.ts)
        board.out_of_turn = None
        if data.face_down:
            board.face_down = True

    def _on_claim(self, event: Event) -> None:
        data = event.value(Claimed)
        self._play(event).make_claim(data.seat, data.tricks)

    def _on_claim_answer(self, event: Event) -> None:
        data = event.value(ClaimAnswered)
        self._play(event).respond_to_claim(data.seat, data.agree)

    def _on_result(self, event: Event) -> None:
        data = event.value(ResultMade)
        board = self._board(event)
        board.result = Result(board.number, parse_contract(data.contract or "Pass"),
                              data.declarer, data.tricks, data.score_ns, data.adjusted,
                              data.transferred or 0)
        board.confirmed = set()

    def _on_confirm(self, event: Event) -> None:
        board = self._board(event)
        if board.result is None:
            raise StateError(f"event {event.seq}: a confirmation before the result")
        board.confirmed.add(event.value(SeatOnly).seat)
        self.finish_if_confirmed(board)

    def finish_if_confirmed(self, board: BoardState) -> None:
        """The board leaves the table once a player of each side confirmed its result, and
        the director has ruled on a revoke (Law 64C)."""
        if (board.result is not None and not board.revoke_pending
                and {seat.side for seat in board.confirmed} == {Side.NS, Side.EW}):
            self.results[board.number] = board.result
            self.board = None

    def _on_option(self, event: Event) -> None:
        data = event.value(RulingData)
        board = self._board(event)
        if data.kind in TABLE_OPTIONS:  # Laws 16B, 25B, 58B: their own ruling's way
            KINDS[data.kind].apply(self, board, data, event)
            return
        self._play(event)
        try:
            board.apply_play_action(data, event.ts)
        except ValueError as error:
            raise StateError(f"event {event.seq}: {error}") from None

    def _on_director(self, event: Event) -> None:
        data = event.value(DirectorCalled)
        self.director_calls.append(DirectorCall(
            event.seq, data.seat, data.reason, data.law, data.detail, event.ts,
            board=event.board))

    def _on_roster(self, event: Event) -> None:
        """Players added to the session's roster while it runs: a visitor the director
        entered while the table waited; a name given again is the director's correction."""
        data = event.value(RosterAdded)
        self.roster = {**(self.roster or {}), **data.players}
        self.commands[data.cmd] = event.seq

    def player_name(self, number: int | None) -> str | None:
        """The roster's name for a player number, or None (no roster, no number)."""
        if number is None or self.roster is None:
            return None
        return self.roster.get(number)

    def _on_refused(self, event: Event) -> None:
        self.commands[event.value(Refused).cmd] = event.seq

    def _on_ruling(self, event: Event) -> None:
        data = event.value(RulingData)
        if data.cmd is not None:
            self.commands[data.cmd] = event.seq
        kind = KINDS.get(data.kind)
        if kind is None:
            raise StateError(f"event {event.seq}: unknown ruling {data.kind!r}")
        board = self._board(event) if kind.needs_board else self.board
        kind.apply(self, board, data, event)  # tablemodel.rulings: how each kind applies

    # -- derived facts ---------------------------------------------------------------------

    def board_result(self) -> Result | None:
        """The result the laws give the board on the table now, once the play is over."""
        board = self.board
        if board is None:
            return None
        auction = board.auction
        if auction.is_passed_out:
            return Result(board.number, None, None, None, 0)
        play = board.play
        if play is None or not play.is_over or auction.contract is None:
            return None
        declarer = play.declarer  # Law 54A: declarer may have become dummy
        # Law 64A gives the transfer; once the director has ruled (64C), the director's.
        transferred = (play.revoke_transfer() if board.ruled_transfer is None
                       else board.ruled_transfer)
        tricks = play.declarer_tricks(transferred)
        transferred = tricks - play.tricks_in_play()  # what the count could take
        return Result(board.number, auction.contract, declarer, tricks,
                      score_ns(auction.contract, declarer, tricks, board.vulnerability),
                      transferred=transferred)

    def next_board(self) -> int | None:
        left = self.boards_left
        return left[0] if left else None

    def board_facts(self, number: int) -> tuple[Seat, Vulnerability]:
        """Dealer and vulnerability: as the assignment says for a board that has its own
        (the seed 004 individual), else Law 2 and the conventional cycle of 16."""
        if self.assignment is not None and number in self.assignment.conditions:
            return self.assignment.conditions[number]
        board = Board(number)
        return board.dealer, board.vulnerability


_Apply = Callable[[TableState, Event], None]
#: How each event type changes the table's state: one entry a type, checked below.
_APPLY: dict[EventType, _Apply] = {
    EventType.ASSIGN: TableState._on_assign, EventType.PLAYER: TableState._on_player,
    EventType.BOARD: TableState._on_board, EventType.HAND_CARD: TableState._on_hand_card,
    EventType.DEAL: TableState._on_deal,
    EventType.CALL: TableState._on_call, EventType.CHANGE: TableState._on_change,
    EventType.ALERT: TableState._on_alert, EventType.QUESTION: TableState._on_question,
    EventType.ANSWER: TableState._on_answer, EventType.TRAY: TableState._on_tray,
    EventType.CARD: TableState._on_card, EventType.FACED: TableState._on_faced,
    EventType.CLAIM: TableState._on_claim, EventType.CLAIM_ANSWER: TableState._on_claim_answer,
    EventType.RESULT: TableState._on_result, EventType.CONFIRM: TableState._on_confirm,
    EventType.DIRECTOR: TableState._on_director, EventType.RULING: TableState._on_ruling,
    EventType.OPTION: TableState._on_option, EventType.ROSTER: TableState._on_roster,
    EventType.REFUSED: TableState._on_refused,
}
if set(_APPLY) != set(EventType):  # a new event type needs its entry here
    raise AssertionError(f"event types without a state change: {set(EventType) - set(_APPLY)}")
