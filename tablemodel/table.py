"""The table's values, as a replay of its journal builds them: its assignment, the board on
the table (auction, play, alerts, questions, the tray, rulings recorded), its results and the
director's calls; and :class:`StateError`, what an event that cannot follow them raises.

Below the rulings and the wire: ``tablemodel.rulings`` says how each kind of ruling changes these
values, ``tablemodel.wire`` decodes events, and ``tablemodel.state`` applies events to them
(``TableState``). Nothing here imports those, so the three import in one direction
(docs/architecture.md; an import-linter contract in pyproject.toml keeps it so).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from laws import (
    Call,
    Card,
    Contract,
    Deal,
    Seat,
    Side,
    Suit,
    Vulnerability,
    format_contract,
)
from laws.auction import Auction
from laws.penalty import LeadOption, PenaltyLeadOption, PrematureOption
from laws.play import LeadRestriction, Play

from .regulation import DEFAULT_PROFILE, PROFILES, Profile, Screens
from .roundclock import RoundClock
from .syscard import SystemCard

_T = TypeVar("_T")


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


@dataclass(frozen=True)
class RulingData:
    """A ruling's data, typed: its kind and every field any kind has (``tablemodel.rulings.FIELDS``
    checks at import that these are its fields), None where this ruling has none. ``cmd``: the
    director's command it answers (none for what the table records itself, an ``option``);
    ``by``: the seat whose card or key made an option. Values are as the wire carries them
    (a seat ``"N"``, a card ``"SQ"``), as the rulings' fields define them."""

    kind: str
    cmd: str | None = None
    by: str | None = None
    calls: int | None = None
    seat: str | None = None
    law: str | None = None
    scope: str | None = None
    bids_allowed: bool | None = None
    suit: str | None = None
    required: bool | None = None
    cards: int | None = None
    tricks: int | None = None
    adjusted: str | None = None
    score_ns: int | None = None
    side: str | None = None
    card: str | None = None
    major: str | None = None
    lead: str | None = None
    option: str | None = None
    lho_call: str | None = None
    change: str | None = None
    played: str | None = None
    breach: str | None = None
    premature: str | None = None
    transferred: int | None = None
    call: int | None = None

    def fields(self, *, leave: tuple[str, ...] = ("kind", "cmd")) -> dict[str, Any]:
        """The fields given, as the wire carries them, but those named in ``leave``."""
        return {spec.name: value for spec in dataclasses.fields(self)
                if spec.name not in leave and (value := getattr(self, spec.name)) is not None}


RULING_NAMES = frozenset(spec.name for spec in dataclasses.fields(RulingData))


@dataclass(frozen=True)
class Recorded:
    """A ruling that records a fact on the board for the director, with no rectification at
    the table: its data, how far the auction and the play were, and its event."""

    ruling: RulingData
    calls: int
    cards: int
    seq: int

    @property
    def kind(self) -> str:
        return self.ruling.kind

    @property
    def data(self) -> Mapping[str, Any]:
        """Its fields as the wire carries them, as the exports and the console list them."""
        return self.ruling.fields()


# -- cards seen out of turn: penalty cards (Laws 49-52), leads out of turn (53-56) -------------
#
# These are the director's rulings and also what the table itself records when a card is seen
# out of turn or a player chooses an option on the keypad (the ``option`` event): the same
# data, applied the same way, and kept on the board (``BoardState.play_actions``) so that the
# play is rebuilt with them when cards are taken back.

#: The laws of a penalty card that come from a card played (out of turn, too soon), not one
#: dropped: such a card may have been played at the same time as a legal one (Law 58A).
SEEN_PLAYED = frozenset({"57A", "50B", "60B"})


def play_action(play: Play, data: RulingData) -> tuple[Seat, Card] | None:
    """Apply one of the play's irregularities to ``play``; the card the option makes a
    correct lead, which is then played (Laws 53A, 54A), or None."""
    kind = data.kind
    if kind == "penalty_card":  # Laws 49, 50B
        play.expose(Seat.from_str(given(data.seat)), Card.from_str(given(data.card)),
                    (data.major or "major") == "major", data.law or "50")
    elif kind == "pick_up":  # Law 50: the director designates otherwise
        play.pick_up(Card.from_str(given(data.card)))
    elif kind == "penalty_lead":  # Law 50D2
        play.choose_penalty_lead(PenaltyLeadOption(data.lead),
                                 None if data.suit is None else Suit.from_str(data.suit))
    elif kind == "lead_out_of_turn":  # Laws 54-56: the card stays faced
        play.face_lead(Seat.from_str(given(data.seat)), Card.from_str(given(data.card)))
    elif kind == "penalty_choice":  # Law 51A
        play.designate_penalty_card(Card.from_str(given(data.card)))
    elif kind == "premature_option":  # Law 57A (59 when partner cannot comply)
        play.choose_premature_option(PrematureOption(data.premature),
                                     None if data.suit is None else Suit.from_str(data.suit))
    elif kind == "penalty_breach":  # Law 52B: another card in a penalty card's place
        play.breach_penalty(Seat.from_str(given(data.seat)), Card.from_str(given(data.card)))
    elif kind == "breach_option":  # Law 52B1 accepted (the card is played), 52B2 not
        return play.choose_breach_option(data.breach == "accept")
    elif kind == "lead_option":  # Laws 53A, 54A, 54B, 54D, 55, 56
        option = LeadOption(data.option)
        faced = play.choose_lead_option(option)
        if option is not LeadOption.REFUSE:
            return faced.seat, faced.card
    else:
        raise ValueError(f"{kind} is not an action of the play")
    return None


def given(value: _T | None) -> _T:
    """A field a ruling's kind requires (the wire checked it is there when it came)."""
    if value is None:
        raise StateError("a ruling without a field its kind requires")
    return value


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
    # Penalty cards, leads out of turn and the options chosen (play_action),
    # each with how many cards had been played: the play is rebuilt with them.
    play_actions: list[tuple[int, RulingData]] = field(default_factory=list)
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
                   and r.ruling.side == hesitator.side.name for r in self.records):
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
        return not self.cards and not any(action.kind == "lead_out_of_turn"
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

    def apply_play_action(self, data: RulingData, ts: float) -> None:
        """A penalty card, a lead out of turn or an option on them; an accepted lead out
        of turn is played at once (Law 53A)."""
        play = self.play
        assert play is not None
        action = dataclasses.replace(data, cmd=None, by=None)
        lead = play_action(play, action)
        self.play_actions.append((len(self.cards), action))
        if action.kind == "lead_out_of_turn" or (
                action.kind == "penalty_card" and action.law in SEEN_PLAYED):
            self.out_of_turn = (Seat.from_str(given(action.seat)),
                                Card.from_str(given(action.card)), ts)
        if lead is not None:
            seat, card = lead
            play.play(card, seat)
            self.cards.append((seat, card))
            self.card_ts.append(ts)
            self.out_of_turn = None


class Stamped(Protocol):
    """What a change of state needs of its event: its number (for the error that names it)
    and its time. ``tablemodel.wire.Event`` is one."""

    @property
    def seq(self) -> int: ...

    @property
    def ts(self) -> float: ...


class Table(Protocol):
    """The table's state as a ruling changes it (``tablemodel.rulings``);
    ``tablemodel.state.TableState`` is the one there is."""

    assignment: Assignment | None
    results: dict[int, Result]
    board: BoardState | None
    director_calls: list[DirectorCall]

    def after_call(self, board: BoardState) -> None: ...

    def finish_if_confirmed(self, board: BoardState) -> None: ...
