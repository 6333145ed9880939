"""The table's state: nothing but the replay of its journal.

``TableState.apply(event)`` is the only way state changes, and ``TableState.replay(events)``
rebuilds it after a restart, so a table that lost power comes back exactly where it was.
The laws are the engine's (laws): applying an event that the engine would refuse
raises, which means the journal is corrupt, never that a player did something wrong (the
controller checks every input before it becomes an event).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from laws import (
    Board,
    Call,
    Card,
    Contract,
    Deal,
    Seat,
    Side,
    Vulnerability,
    format_contract,
    parse_contract,
)
from laws.auction import Auction
from laws.play import LeadRestriction, Play
from laws.scoring import score_ns

from .regulation import DEFAULT_PROFILE, PROFILES, Profile, Screens
from .roundclock import RoundClock
from .rulings import KINDS, SEEN_PLAYED, TABLE_OPTIONS, Recorded, play_action
from .syscard import STANDARD_ANSWERS, SystemCard
from .wire import Event, EventType
from .wire import Phase as Phase  # re-exported: the phases are the wire's (retained state)


class StateError(RuntimeError):
    """An event that cannot follow the state: the journal is not a log this code wrote."""


@dataclass(frozen=True)
class Guidance:
    """Where each part goes after the round: a table (as the room names it, "B3", or its
    number), or None to stay."""

    ns: int | str | None = None
    ew: int | str | None = None
    boards: int | str | None = None


@dataclass(frozen=True)
class Conduct:
    """How the round is played: screens or not, the regulator's alert profile, and each
    side's system card (Law 40B2(a)), as the server's assignment says."""

    screens: Screens | None = None
    profile: Profile = DEFAULT_PROFILE
    cards: Mapping[Side, SystemCard] = field(default_factory=dict)

    @classmethod
    def from_json(cls, value: Mapping[str, Any] | None) -> Conduct:
        if not value:
            return cls()
        screens = value.get("screens")
        return cls(
            Screens(Seat.from_str(screens.get("north_with") or "E"),
                    float(screens.get("tray_delay", Screens.tray_delay)))
            if screens else None,
            PROFILES[value.get("profile") or DEFAULT_PROFILE.name],
            {Side.NS if side == "NS" else Side.EW: SystemCard.from_json(card)
             for side, card in (value.get("cards") or {}).items()})

    def card_of(self, seat: Seat) -> SystemCard | None:
        return self.cards.get(seat.side)


@dataclass
class Assignment:
    cmd: str
    round: int
    ns: int
    ew: int
    boards: tuple[int, ...]
    section: str = ""
    deals: dict[int, Deal] = field(default_factory=dict)
    guidance: Guidance | None = None
    conditions: dict[int, tuple[Seat, Vulnerability]] = field(default_factory=dict)
    conduct: Conduct = field(default_factory=Conduct)
    clock: RoundClock | None = None  # the round's end and warning, if the director set one
    label: str = ""  # the table's name in a session of sections ("B3")
    switch: bool = False  # an arrow-switch round: the pair numbered EW sits North-South
    # The pairs as the pages name them ({"ns": "B4", "ew": "B1"}); a side not named goes by
    # its number.
    names: dict[str, str] = field(default_factory=dict)
    # Boards dealt at the table (Law 6): every hand is scanned before the first call; the
    # first table to play a board captures its deal, the later ones are checked against it.
    dealt_at_table: bool = False

    def pair_name(self, side: str) -> str:
        """The NS or EW pair seated here as the room calls it: "B4", or its number."""
        return self.names.get(side) or str(self.ns if side == "ns" else self.ew)


@dataclass(frozen=True)
class AlertMark:
    """``by`` alerted the call at ``index`` (its own, or partner's) at ``ts``; ``late`` if
    after the moment the norms ask for (the next call, or the tray crossing)."""

    index: int
    by: Seat
    ts: float
    late: bool = False


@dataclass
class Question:
    """``asker`` asked about the call at ``index`` (Law 20F); ``answerer`` answers with a
    code of their card or a standard answer."""

    seq: int
    asker: Seat
    index: int
    answerer: Seat
    ts: float
    answer: int | None = None
    answer_ts: float | None = None


@dataclass
class Tray:
    """Screens: the side of the screen (0 North's, 1 South's) that holds the tray, the
    calls that have crossed (the other side has seen them), and when it arrived."""

    side: int
    crossed: int
    arrived: float


@dataclass(frozen=True)
class Result:
    board: int
    contract: Contract | None
    declarer: Seat | None
    tricks: int | None
    score_ns: int
    adjusted: str | None = None
    # Law 64A: of ``tricks``, those transferred for a revoke (from declarer's view: positive
    # won from the defenders, negative given to them); kept apart from the tricks won.
    transferred: int = 0

    @property
    def contract_text(self) -> str:
        return "Pass" if self.contract is None else format_contract(self.contract)


@dataclass
class DirectorCall:
    seq: int
    seat: Seat | None
    reason: str
    law: str | None
    detail: str | None
    ts: float
    acknowledged: bool = False
    board: int | None = None


@dataclass(frozen=True)
class OverCall:
    """A call made over another that a change of call took away: who, what, when, and
    whether it was alerted."""

    seat: Seat
    call: Call
    ts: float
    alert: bool = False


@dataclass(frozen=True)
class LateChange:
    """Law 25B: ``seat`` changed its call at ``index`` (``call``, the one replaced) after a
    pause; ``over``: the calls made over it, which stand again if the change is cancelled
    (25B2: the original call stands, and the auction with it)."""

    seat: Seat
    index: int
    call: Call
    over: tuple[OverCall, ...] = ()


@dataclass
class BoardState:
    number: int
    dealer: Seat
    vulnerability: Vulnerability
    known: dict[Seat, frozenset[Card]]
    scans: dict[Seat, list[Card]] = field(default_factory=lambda: {s: [] for s in Seat})
    auction: Auction = field(init=False)
    play: Play | None = None
    cards: list[tuple[Seat, Card]] = field(default_factory=list)
    lead_restrictions: list[LeadRestriction] = field(default_factory=list)
    result: Result | None = None
    confirmed: set[Seat] = field(default_factory=set)
    started: float = 0.0
    call_ts: list[float] = field(default_factory=list)   # when each call of the auction came
    card_ts: list[float] = field(default_factory=list)   # when each card was played
    alerts: list[AlertMark] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    tray: Tray | None = None       # screens only
    face_down: bool = False        # the opening lead is made face down and not faced yet
    faced_ts: float | None = None
    records: list[Recorded] = field(default_factory=list)  # rulings that record a fact
    # Penalty cards, leads out of turn and the options chosen (tablemodel.rulings.play_action),
    # each with how many cards had been played: the play is rebuilt with them.
    play_actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    # Law 64C: the tricks the director transferred for revokes, once ruled (revoke_transfer)
    ruled_transfer: int | None = None
    # Law 25B: a change of call made after a pause, until the left-hand opponent accepts it
    # (25B1) or it is cancelled (25B2)
    late_change: LateChange | None = None
    # Law 25A4 (2017: 25A5): the left-hand opponent's call made over a call changed under
    # 25A, until that player withdraws it or lets it stand (call_over_change)
    over_change: OverCall | None = None
    # Law 58B: two cards from one hand at once: (seat, the card played, the card seen with
    # it), until the player designates which is played (58B2)
    simultaneous: tuple[Seat, Card, Card] | None = None
    # Law 58A: the card the table kept last as seen out of turn (a lead out of turn, a card
    # played too soon), and when, until the next card is played: a legal card read with it
    # was played at the same time, and the other counts as played after it.
    out_of_turn: tuple[Seat, Card, float] | None = None
    # Law 58B3: once the offender of 58B withdrew a visible card, the opponents who had played
    # to that trick after it may each take their card back and play another (or keep it, OK);
    # the play waits for them.
    may_substitute: list[Seat] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.auction = Auction(self.dealer)

    @property
    def revoke_pending(self) -> bool:
        """Law 64C: a revoke came to light and the director has not yet confirmed or changed
        the transfer: the board stays on the table (unless the director scored it)."""
        play = self.play
        return (play is not None and bool(play.revokes) and self.ruled_transfer is None
                and (self.result is None or self.result.adjusted is None))

    def hesitation_open(self, seat: Seat, hesitation: float) -> int | None:
        """Law 16B2: the index of the newest call made after a hesitation (more than
        ``hesitation`` seconds since the call before it, Law 16B1: the profile's) by an
        opponent of ``seat``, while its partner has not called since and ``seat``'s side has
        not yet reserved its rights on it; None otherwise. The first call (the hands were
        being scanned) and calls behind screens (the tray hides the tempo) are not
        counted."""
        if self.tray is not None or (self.play is not None and self.cards):
            return None
        entries = self.auction.entries
        for index in range(len(self.call_ts) - 1, 0, -1):
            if self.call_ts[index] - self.call_ts[index - 1] <= hesitation:
                continue
            hesitator = entries[index].seat
            if hesitator.side is seat.side:
                return None
            if any(e.seat is hesitator.partner for e in entries[index + 1:]):
                return None
            if any(r.kind == "unauthorised_information" and r.calls > index
                   and r.data.get("side") == hesitator.side.name for r in self.records):
                return None
            return index
        return None

    def alerted(self, index: int) -> list[AlertMark]:
        return [a for a in self.alerts if a.index == index]

    def open_questions(self, seat: Seat) -> list[Question]:
        """Questions waiting for ``seat``'s answer, oldest first."""
        return [q for q in self.questions if q.answerer is seat and q.answer is None]

    def tray_due(self, screens: Screens) -> float | None:
        """When the tray must cross (calls on it, and the next caller is on the other side
        or the auction is over), never sooner than ``tray_delay`` after it arrived."""
        tray = self.tray
        auction = self.auction
        if tray is None or len(auction) <= tray.crossed:
            return None
        turn = auction.turn
        if turn is not None and screens.side(turn) == tray.side:
            return None
        return max(self.call_ts[-1], tray.arrived + screens.tray_delay)

    def tray_away(self, screens: Screens | None, seat: Seat) -> bool:
        """Screens: ``seat`` may not call yet: the tray is on the other side, or has calls
        still to bring over."""
        tray = self.tray
        if screens is None or tray is None:
            return False
        return tray.side != screens.side(seat) or self.tray_due(screens) is not None

    @property
    def auction_crossed(self) -> bool:
        """Every call of the auction has reached both sides (always so without screens):
        the opening lead waits for it."""
        return self.tray is None or self.tray.crossed >= len(self.auction)

    def lead_confirmer(self, screens: Screens | None) -> Seat:
        """Who turns the face-down opening lead up (Law 41C): the leader, once partner and
        declarer have asked what they wished (41B); behind screens the leader's screenmate,
        who says the questions are over."""
        leader = self.cards[0][0]
        return leader if screens is None else screens.screenmate(leader)

    def seen_by_side(self, screens: Screens, side: int) -> int:
        """How many calls of the auction a side of the screen has seen: those that crossed,
        and those made on its own side since."""
        tray = self.tray
        crossed = 0 if tray is None else tray.crossed
        if tray is not None and tray.side == side:
            return len(self.auction)
        return crossed

    @property
    def deal(self) -> Deal:
        return Deal(dict(self.known))

    def scanned_owner(self, card: Card) -> Seat | None:
        for seat, cards in self.scans.items():
            if card in cards:
                return seat
        return None

    @property
    def lead_made_face_down(self) -> bool:
        """The opening lead is still to be made, face down (Law 41A): no card played, and
        no lead faced out of turn (which ended the auction period, 22B1)."""
        return not self.cards and not any(action["kind"] == "lead_out_of_turn"
                                          for _, action in self.play_actions)

    def withdraw_face_down_lead(self) -> None:
        """The opening lead lying face down goes back to the leader's hand (Law 41A)."""
        if self.cards and not self.face_down:
            raise StateError("the opening lead is faced: the auction period is over")
        self.cards.clear()
        self.card_ts.clear()
        self.play_actions.clear()
        self.face_down = False
        self.out_of_turn = None

    def start_play(self) -> None:
        contract, declarer = self.auction.contract, self.auction.declarer
        if contract is None or declarer is None:
            raise StateError("no contract to play")
        # Law 44C can only be enforced for hands the table knows; with unknown hands a revoke
        # stands until evidence shows it (Laws 61-64).
        self.play = Play(contract, declarer, self.deal,
                         lead_restrictions=tuple(self.lead_restrictions))

    def replay_cards(self) -> None:
        """Rebuild the play from its cards and its irregularities (after the director takes
        cards back or restricts a lead)."""
        self.start_play()
        play = self.play
        assert play is not None
        for index in range(len(self.cards) + 1):
            for at, action in self.play_actions:
                if at == index:
                    play_action(play, action)  # an accepted lead is the next card
            if index < len(self.cards):
                seat, card = self.cards[index]
                play.play(card, seat)

    def apply_play_action(self, data: Mapping[str, Any], ts: float) -> None:
        """A penalty card, a lead out of turn or an option on them; an accepted lead out
        of turn is played at once (Law 53A)."""
        play = self.play
        assert play is not None
        action = {k: v for k, v in data.items() if k not in ("cmd", "by") and v is not None}
        lead = play_action(play, action)
        self.play_actions.append((len(self.cards), action))
        if action["kind"] == "lead_out_of_turn" or (
                action["kind"] == "penalty_card" and action.get("law") in SEEN_PLAYED):
            self.out_of_turn = (Seat.from_str(action["seat"]), Card.from_str(action["card"]), ts)
        if lead is not None:
            seat, card = lead
            play.play(card, seat)
            self.cards.append((seat, card))
            self.card_ts.append(ts)
            self.out_of_turn = None


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
        handler(self, event.data, event)
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

    def _on_assign(self, data: Mapping[str, Any], event: Event) -> None:
        guidance = data.get("next")
        self.assignment = Assignment(
            data["cmd"], data["round"], data["ns"], data["ew"], tuple(data["boards"]),
            data.get("section") or "",
            {int(b): Deal.from_pbn(pbn) for b, pbn in (data.get("deals") or {}).items()},
            Guidance(guidance.get("ns"), guidance.get("ew"), guidance.get("boards"))
            if guidance else None,
            {int(b): (Seat.from_str(c["dealer"]), Vulnerability.from_str(c["vul"]))
             for b, c in (data.get("conditions") or {}).items()},
            Conduct.from_json(data.get("conduct")),
            RoundClock.from_json(data["round"], data["clock"]) if data.get("clock") else None,
            data.get("label") or "", bool(data.get("switch")), dict(data.get("names") or {}),
            data.get("dealing") == "table")
        roster = data.get("roster")
        self.roster = None if roster is None else {int(n): name for n, name in roster.items()}
        self.players = {}
        self.results = {}
        self.board = None
        self.commands[data["cmd"]] = event.seq

    def _on_player(self, data: Mapping[str, Any], event: Event) -> None:
        self.players[Seat.from_str(data["seat"])] = data["number"]

    def _on_board(self, data: Mapping[str, Any], event: Event) -> None:
        number = data["board"]
        known: dict[Seat, frozenset[Card]] = {}
        if self.assignment is not None and number in self.assignment.deals:
            known = dict(self.assignment.deals[number].hands)
        dealer = Seat.from_str(data["dealer"])
        self.board = BoardState(number, dealer, Vulnerability.from_str(data["vul"]), known,
                                started=event.ts)
        screens = self.conduct.screens
        if screens is not None:
            self.board.tray = Tray(screens.side(dealer), 0, event.ts)

    def _on_hand_card(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        seat = Seat.from_str(data["seat"])
        scans = board.scans[seat]
        scans.append(Card.from_str(data["card"]))
        if len(scans) == 13 and seat not in board.known:
            board.known[seat] = frozenset(scans)  # the first table to play it records it

    def _on_deal(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        if Deal.from_pbn(data["deal"]).hands != board.known:
            raise StateError(f"event {event.seq}: the deal is not the hands scanned")

    def _on_call(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        seat = Seat.from_str(data["seat"])
        if board.late_change is not None and seat is board.late_change.seat.lho:
            board.late_change = None  # Law 25B1: the opponent calls over it: accepted
        if board.over_change is not None and seat is board.over_change.seat:
            board.over_change = None  # Law 25A4: it calls again: the call over is withdrawn
        before = len(board.auction)
        # Law 28A: the call of the left-hand opponent of a seat that must pass comes in
        # rotation, the pass recorded first: each new entry has this time.
        board.auction.make_call(Call.from_str(data["call"]), seat,
                                alert=bool(data.get("alert")))
        board.call_ts.extend([event.ts] * (len(board.auction) - before))
        if data.get("alert"):
            board.alerts.append(AlertMark(len(board.auction) - 1, seat, event.ts))
        self.after_call(board)

    def after_call(self, board: BoardState) -> None:
        """After the auction changed: the play starts when it is over (and not passed out),
        and is gone otherwise."""
        if board.auction.is_over and not board.auction.is_passed_out:
            board.start_play()
        else:
            board.play = None

    def _on_change(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        seat = Seat.from_str(data["seat"])
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
        board.auction.replace_call(seat, Call.from_str(data["call"]),
                                   alert=bool(data.get("alert")))
        # The replaced call and any made over it are gone, with their alerts and timing.
        del board.call_ts[index:]
        board.call_ts.append(event.ts)
        board.alerts = [a for a in board.alerts if a.index < index]
        if data.get("alert"):
            board.alerts.append(AlertMark(index, seat, event.ts))
        self.after_call(board)

    def _on_alert(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        index = data["index"]
        if not 0 <= index < len(board.auction):
            raise StateError(f"event {event.seq}: no call {index} to alert")
        board.auction.annotate(index, alert=True)
        board.alerts.append(AlertMark(index, Seat.from_str(data["seat"]), event.ts,
                                      bool(data.get("late"))))

    def _on_question(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        index = data["index"]
        if not 0 <= index < len(board.auction):
            raise StateError(f"event {event.seq}: no call {index} to ask about")
        board.questions.append(Question(event.seq, Seat.from_str(data["seat"]), index,
                                        Seat.from_str(data["to"]), event.ts))

    def _on_answer(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        question = next((q for q in board.questions if q.seq == data["question"]), None)
        if question is None or question.answer is not None \
                or question.answerer is not Seat.from_str(data["seat"]):
            raise StateError(f"event {event.seq}: no open question {data['question']} "
                             f"for {data['seat']}")
        question.answer = data["code"]
        question.answer_ts = event.ts

    def _on_tray(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        tray = board.tray
        if tray is None or data["calls"] != len(board.auction) or tray.crossed >= data["calls"]:
            raise StateError(f"event {event.seq}: the tray cannot cross with those calls")
        board.tray = Tray(1 - tray.side, data["calls"], event.ts)

    def _on_faced(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        if not board.face_down:
            raise StateError(f"event {event.seq}: no face-down lead to face")
        board.face_down = False
        board.faced_ts = event.ts

    def _on_card(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        seat, card = Seat.from_str(data["seat"]), Card.from_str(data["card"])
        self._play(event).play(card, seat)
        board.cards.append((seat, card))
        board.card_ts.append(event.ts)
        board.out_of_turn = None
        if data.get("face_down"):
            board.face_down = True

    def _on_claim(self, data: Mapping[str, Any], event: Event) -> None:
        self._play(event).make_claim(Seat.from_str(data["seat"]), data["tricks"])

    def _on_claim_answer(self, data: Mapping[str, Any], event: Event) -> None:
        self._play(event).respond_to_claim(Seat.from_str(data["seat"]), data["agree"])

    def _on_result(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        declarer = data.get("declarer")
        board.result = Result(board.number, parse_contract(data["contract"] or "Pass"),
                              Seat.from_str(declarer) if declarer else None, data["tricks"],
                              data["score_ns"], data.get("adjusted"),
                              data.get("transferred") or 0)
        board.confirmed = set()

    def _on_confirm(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        if board.result is None:
            raise StateError(f"event {event.seq}: a confirmation before the result")
        board.confirmed.add(Seat.from_str(data["seat"]))
        self.finish_if_confirmed(board)

    def finish_if_confirmed(self, board: BoardState) -> None:
        """The board leaves the table once a player of each side confirmed its result, and
        the director has ruled on a revoke (Law 64C)."""
        if (board.result is not None and not board.revoke_pending
                and {seat.side for seat in board.confirmed} == {Side.NS, Side.EW}):
            self.results[board.number] = board.result
            self.board = None

    def _on_option(self, data: Mapping[str, Any], event: Event) -> None:
        board = self._board(event)
        if data["kind"] in TABLE_OPTIONS:  # Laws 16B, 25B, 58B: their own ruling's way
            KINDS[data["kind"]].apply(self, board, data, event)
            return
        self._play(event)
        try:
            board.apply_play_action(data, event.ts)
        except ValueError as error:
            raise StateError(f"event {event.seq}: {error}") from None

    def _on_director(self, data: Mapping[str, Any], event: Event) -> None:
        seat = data.get("seat")
        self.director_calls.append(DirectorCall(
            event.seq, Seat.from_str(seat) if seat else None, data["reason"], data.get("law"),
            data.get("detail"), event.ts, board=event.board))

    def _on_roster(self, data: Mapping[str, Any], event: Event) -> None:
        """Players added to the session's roster while it runs: a visitor the director
        entered while the table waited; a name given again is the director's correction."""
        self.roster = {**(self.roster or {}),
                       **{int(n): name for n, name in data["players"].items()}}
        self.commands[data["cmd"]] = event.seq

    def player_name(self, number: int | None) -> str | None:
        """The roster's name for a player number, or None (no roster, no number)."""
        if number is None or self.roster is None:
            return None
        return self.roster.get(number)

    def _on_refused(self, data: Mapping[str, Any], event: Event) -> None:
        self.commands[data["cmd"]] = event.seq

    def _on_ruling(self, data: Mapping[str, Any], event: Event) -> None:
        self.commands[data["cmd"]] = event.seq
        kind = KINDS.get(data["kind"])
        if kind is None:
            raise StateError(f"event {event.seq}: unknown ruling {data['kind']!r}")
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


_Apply = Callable[[TableState, Mapping[str, Any], Event], None]
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
