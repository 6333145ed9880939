"""Every kind of director's ruling, defined once.

A ruling is what the director decides at a table: calls taken back, a player barred, a lead
restricted, cards taken back, a claim ruled, a score given, a fact recorded. Each kind here
says, in one place:

- its **fields**: name, type, limits, whether it is required, and its words in both
  languages (the console's form and record);
- its **laws**;
- its **words**: the short name a seat display shows and the console's label;
- **when** it may be applied (a board on the table; before the play starts);
- **how it applies** to the table's state (``apply``);
- its **effect on the server** once the table has applied it (``effect``: the director's
  score replaces the board's result, or the table has taken the director's answer to a
  call), which server.link.director_calls and server.link.ingest look up rather than test
  kind names.

Everything else derives from it: the wire's ``ruling`` schema and what it requires
(tablemodel.wire), the table's state and controller (tablemodel.state, tabled.control), the
seat displays' words (tabled.i18n), the server's checks and the console's form and record
(server.link.director_calls, server.pages.console, templates/console/rulings.html,
_history.html), and the server's replay of a board (it is the table's own state). Adding a
kind is adding a ``RulingKind`` below, with its texts, and its tests.

Below the wire and the state (the wire imports this module, the state applies its kinds): it
imports laws, tablemodel.texts and the values it changes, tablemodel.table, and neither of
those.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from laws import Card, IllegalActionError, Seat, Suit
from laws.auction import PassScope
from laws.penalty import is_honour
from laws.play import ClaimState, LeadRestriction, Play

from .table import (
    RULING_NAMES,
    AlertMark,
    BoardState,
    Recorded,
    Result,
    Stamped,
    StateError,
    Table,
    given,
)
from .table import RulingData as RulingData  # re-exported: a ruling's typed data
from .texts import Words


class RulingDataError(ValueError):
    """A ruling's data that its kind does not allow; the message says why."""


@dataclass(frozen=True)
class Choice:
    """One value a choice field may take (as the wire carries it), and its words."""

    value: str | bool
    words: Words


@dataclass(frozen=True)
class Field:
    """One field of a ruling.

    ``kind`` is its type on the wire: ``seat`` (N, E, S, W), ``side`` (NS, EW), ``suit``
    (S, H, D, C), ``card`` (SQ, HT, C2), ``count`` (a whole number from ``low`` to
    ``high``), ``text`` (up to ``limit`` characters), ``choice`` (one of ``choices``; a
    choice of booleans is a flag).
    A field of the same name means the same thing in every kind.
    """

    name: str
    kind: str
    words: Words
    required: bool = False
    low: int = 0
    high: int = 0
    limit: int = 0
    choices: tuple[Choice, ...] = ()
    help: Words | None = None
    placeholder: str = ""

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"field {self.name}: no such type {self.kind!r}")

    def value_of(self, value: Any) -> Any:
        """``value`` as the wire carries it (a form's text made typed); RulingDataError if
        this field cannot hold it. None for a blank optional value."""
        if isinstance(value, str):
            value = value.strip()
        if value is None or value == "":
            return None
        if self.kind in ("seat", "suit", "side"):
            text = str(value).upper()
            allowed = {"seat": tuple(str(s) for s in Seat), "suit": ("S", "H", "D", "C"),
                       "side": ("NS", "EW")}[self.kind]
            if text not in allowed:
                raise RulingDataError(f"{self.name} {value!r} is not a {self.kind} "
                                      f"({', '.join(allowed)})")
            return text
        if self.kind == "card":
            try:
                return str(Card.from_str(str(value).upper()))
            except ValueError:
                raise RulingDataError(f"{self.name} {value!r} is not a card (SQ, HT, C2)"
                                      ) from None
        if self.kind == "count":
            if isinstance(value, bool):
                raise RulingDataError(f"{self.name} {value!r} is not a number")
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise RulingDataError(f"{self.name} {value!r} is not a number") from None
            if not isinstance(value, int) or not self.low <= value <= self.high:
                raise RulingDataError(f"{self.name} {value!r} is not between {self.low} "
                                      f"and {self.high}")
            return value
        if self.kind == "text":
            text = str(value)
            if len(text) > self.limit:
                raise RulingDataError(f"{self.name} is longer than {self.limit} characters")
            return text
        for choice in self.choices:  # choice
            if value == choice.value or str(value) == str(choice.value) or (
                    isinstance(choice.value, bool) and value == _FLAG_WORDS[choice.value]):
                return choice.value
        raise RulingDataError(f"{self.name} is {' or '.join(self.choice_names)}, "
                              f"not {value!r}")

    @property
    def choice_names(self) -> tuple[str, ...]:
        return tuple(choice_name(c.value) for c in self.choices)


FIELD_KINDS = ("seat", "side", "suit", "card", "count", "text", "choice")
#: A flag's values as a form posts them.
_FLAG_WORDS = {True: "required", False: "forbidden"}

def choice_name(value: str | bool) -> str:
    """A choice's value as a form posts it: a flag as "required" or "forbidden"."""
    return _FLAG_WORDS[value] if isinstance(value, bool) else value


Apply = Callable[["Table", "BoardState | None", "RulingData", "Stamped"], None]
Check = Callable[[dict[str, Any]], None]


class Effect(enum.Enum):
    """What the server does with a ruling the table has applied, beyond answering its command
    (server/link/ingest/project.py): each kind says which, so no server module tests kind names."""

    NONE = "none"
    SCORE = "score"  # the director's score replaces the board's result (Law 12C)
    ACKNOWLEDGE = "acknowledge"  # the table has taken the director's answer to a call (Law 9B1)


@dataclass(frozen=True)
class RulingKind:
    """One kind of ruling (see the module's docstring)."""

    name: str
    laws: str
    words: Words                 # the console's name of it
    short: Words                 # a seat display's (at most 12 characters)
    fields: tuple[Field, ...]
    apply: Apply
    needs_board: bool = True     # refused with no board on the table
    before_play: bool = False    # refused once the play has started
    console: bool = True         # offered on the console's rulings form
    check: Check | None = None   # what the fields alone cannot say
    effect: Effect = Effect.NONE  # what the server does once the table has applied it

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.required)

    def data(self, fields: Mapping[str, Any]) -> dict[str, Any]:
        """The ruling's data from ``fields`` (a form's texts or typed values): typed,
        checked, blank optional fields left out, fields of other kinds ignored.
        RulingDataError says what is wrong."""
        data: dict[str, Any] = {"kind": self.name}
        for spec in self.fields:
            value = spec.value_of(fields.get(spec.name))
            if value is None:
                if spec.required:
                    raise RulingDataError(f"{self.name}: {spec.name} is required")
                continue
            data[spec.name] = value
        if self.check is not None:
            self.check(data)
        return data

    def validate(self, data: Mapping[str, Any]) -> None:
        """Check data as the wire decoded it (types already checked): what it requires,
        and what the kind's own check says."""
        missing = [name for name in self.required if data.get(name) is None]
        if missing:
            raise RulingDataError(f"a {self.name} ruling needs {', '.join(missing)}")
        if self.check is not None:
            self.check(dict(data))


# -- the fields ------------------------------------------------------------------------------

def _law(required: bool, placeholder: str) -> Field:
    return Field("law", "text", Words(es="Ley", en="Law"), required=required, limit=16,
                 placeholder=placeholder)


_SEAT = Field("seat", "seat", Words(es="Asiento", en="Seat"), required=True)
_CARD = Field("card", "card", Words(es="Carta", en="Card"), required=True, placeholder="SQ")


# -- how each applies to the table's state -----------------------------------------------------

def _take_back(table: Table, board: BoardState | None, data: RulingData,
               event: Stamped) -> None:
    # Laws 17E2, 36A, 38B, 39A: the director cancels calls back to a point; the play with them.
    assert board is not None
    board.auction.take_back(given(data.calls))
    kept = len(board.auction)
    del board.call_ts[kept:]
    board.alerts = [a for a in board.alerts if a.index < kept]
    if board.tray is not None:
        board.tray.crossed = min(board.tray.crossed, kept)
    board.cards.clear()
    board.card_ts.clear()
    board.play_actions.clear()
    board.out_of_turn = None
    board.simultaneous = None
    board.may_substitute = []
    board.face_down = False
    board.result = None
    board.confirmed = set()
    table.after_call(board)


def _require_pass(table: Table, board: BoardState | None, data: RulingData,
                  event: Stamped) -> None:
    # Laws 23, 30, 31, 32: the offender's partner must pass (for the auction or one turn);
    # Law 30B2(b): partner may pass or bid at that turn, but not double or redouble.
    assert board is not None
    bids = bool(data.bids_allowed)
    scope = "next_turn" if bids else data.scope or "auction"  # 30B2(b): "that turn"
    board.auction.require_pass(Seat.from_str(given(data.seat)), data.law or "",
                               PassScope(scope), bids_allowed=bids)


def _lead_restriction(table: Table, board: BoardState | None, data: RulingData,
                      event: Stamped) -> None:
    # Laws 26, 50D: the restriction takes effect at the offender's partner's first lead.
    assert board is not None
    board.lead_restrictions.append(LeadRestriction(
        Seat.from_str(given(data.seat)), Suit.from_str(given(data.suit)), bool(data.required),
        data.law or "26"))
    if board.play is not None:
        board.replay_cards()


def _undo_cards(table: Table, board: BoardState | None, data: RulingData,
                event: Stamped) -> None:
    # Laws 45C4(b), 47: cards designated by mistake or retracted go back to the hand.
    assert board is not None
    board.simultaneous = None  # Law 58B: the cards it waited on are taken back too
    board.may_substitute = []
    board.out_of_turn = None
    del board.cards[len(board.cards) - given(data.cards):]
    del board.card_ts[len(board.cards):]
    board.play_actions = [(at, action) for at, action in board.play_actions
                          if at <= len(board.cards)]
    if not board.cards:
        board.face_down = False
    board.result = None
    board.replay_cards()


def _claim(table: Table, board: BoardState | None, data: RulingData,
           event: Stamped) -> None:
    # Laws 68D, 70: the director rules a disputed claim's tricks, or lets play go on.
    play = None if board is None else board.play
    if play is None or play.claim is None or play.claim.state is not ClaimState.DISPUTED:
        raise StateError(f"event {event.seq}: no disputed claim to rule on")
    play.rule_on_claim(data.tricks)


def _score(table: Table, board: BoardState | None, data: RulingData,
           event: Stamped) -> None:
    # Law 12C: the director's score stands for the board's result.
    assert board is not None
    board.result = Result(board.number, board.auction.contract, board.auction.declarer, None,
                          data.score_ns or 0, data.adjusted or "assigned")
    board.confirmed = set()


ASSIGNED_WORDS = frozenset({"assigned", "asignada", "asignado"})


def _check_score(data: dict[str, Any]) -> None:
    # Law 12C1: an assigned score is a real score, in points; Law 12C2: an artificial score
    # (A60/40) is percentages only. Which artificial scores there are is the server's
    # (server.scoring.fieldscore.parse_adjusted), since it scores them.
    adjusted = data.get("adjusted")
    if adjusted is None and data.get("score_ns") is None:
        raise RulingDataError("score: needs score_ns or adjusted: give an adjusted score "
                              "(A60/40) or an assigned score (the NS points)")
    # "assigned" is the wire's word; the Spanish console's "asignada" says the same
    if adjusted is None or adjusted.lower() in ASSIGNED_WORDS:
        if data.get("score_ns") is None:
            raise RulingDataError("score: an assigned score needs the NS points")
        data["adjusted"] = "assigned"
    elif "score_ns" in data:
        raise RulingDataError("score: an artificial score (A60/40) has no NS points")


def _director_ack(table: Table, board: BoardState | None, data: RulingData,
                  event: Stamped) -> None:
    # Law 9B1: the director, summoned, is on the way.
    for call in table.director_calls:
        if data.call in (None, call.seq):
            call.acknowledged = True


def _end_round(table: Table, board: BoardState | None, data: RulingData,
               event: Stamped) -> None:
    # Law 8B: the round ends when the director says so; the boards not played stay unplayed.
    if table.assignment is not None:
        table.assignment.boards = tuple(b for b in table.assignment.boards
                                        if b in table.results)
    table.board = None


def _record(table: Table, board: BoardState | None, data: RulingData,
            event: Stamped) -> None:
    """Keep the ruling on the board (``BoardState.records``): exports and the console show
    it; the table plays on."""
    assert board is not None
    board.records.append(Recorded(data, len(board.auction), len(board.cards), event.seq))





@contextmanager
def _engine_refusal(event: Stamped) -> Iterator[None]:
    """The laws engine's refusal (a ValueError) inside as the state's: the journal is not
    ours."""
    try:
        yield
    except ValueError as error:
        raise StateError(f"event {event.seq}: {error}") from None


def _play_ruling(table: Table, board: BoardState | None, data: RulingData,
                 event: Stamped) -> None:
    if board is None or board.play is None:
        raise StateError(f"event {event.seq}: {data.kind} before the play")
    with _engine_refusal(event):
        board.apply_play_action(data, event.ts)


def _revoke_transfer(table: Table, board: BoardState | None, data: RulingData,
                     event: Stamped) -> None:
    # Law 64C: at the end of play the director confirms the transfer Law 64A gives, or
    # changes it to restore equity (64B7: both sides revoked; 64C: damage not made good).
    assert board is not None
    play = board.play
    if play is None or not play.is_over:
        raise StateError(f"event {event.seq}: revoke_transfer before the end of play")
    ruled = given(data.transferred)
    board.ruled_transfer = ruled
    result = board.result
    if result is not None and result.adjusted is None and result.transferred == ruled:
        table.finish_if_confirmed(board)  # confirmed: the players' OKs stand
        return
    board.result = None  # changed: the table gives the result again, to be confirmed again
    board.confirmed = set()


def _change_of_call(table: Table, board: BoardState | None, data: RulingData,
                    event: Stamped) -> None:
    # Law 25B (2007): a change of call not allowed under 25A (made after a pause): the
    # left-hand opponent may accept it (25B1: the second call stands) or not (25B2: the
    # change is cancelled and the original call stands); Law 16D for what was withdrawn.
    assert board is not None
    late = board.late_change
    if late is None:
        raise StateError(f"event {event.seq}: no change of call waits for an answer")
    seat, index = late.seat, late.index
    board.late_change = None
    if given(data.change) == "cancel":
        if board.auction.can_replace(seat) != index:
            raise StateError(f"event {event.seq}: {seat}'s changed call is not the last")
        board.auction.replace_call(seat, late.call, lho_withdraws=False)
        del board.call_ts[index + 1:]
        board.alerts = [a for a in board.alerts if a.index < index]
        # 25B2: the original call stands, and so do the calls made over it (an auction that
        # had closed is closed again).
        with _engine_refusal(event):
            for over in late.over:
                board.auction.make_call(over.call, over.seat, alert=over.alert)
                board.call_ts.append(over.ts)
                if over.alert:
                    board.alerts.append(AlertMark(len(board.auction) - 1, over.seat,
                                                  over.ts))
        table.after_call(board)
    _record(table, board, data, event)


def _call_over_change(table: Table, board: BoardState | None, data: RulingData,
                      event: Stamped) -> None:
    # Law 25A4 (2017: 25A5): after a change of an unintended call, the left-hand opponent may
    # withdraw the call made over it; its information is authorised for that side only
    # (16D). Or it lets it stand, if it is still legal over the new call.
    assert board is not None
    over = board.over_change
    if over is None or over.seat is not Seat.from_str(given(data.seat)):
        raise StateError(f"event {event.seq}: no call of {given(data.seat)} over a changed call "
                         f"waits for a choice")
    board.over_change = None
    if given(data.lho_call) == "stand":
        with _engine_refusal(event):
            board.auction.make_call(over.call, over.seat, alert=over.alert)
        board.call_ts.append(over.ts)
        if over.alert:
            board.alerts.append(AlertMark(len(board.auction) - 1, over.seat, over.ts))
        table.after_call(board)
    _record(table, board, data, event)


def _simultaneous_position(board: BoardState, seat: Seat, event: Stamped) -> int:
    """Where in ``board.cards`` is the card of ``seat`` that came with another: its last
    card, if the trick it went to is not behind both sides' cards to the next trick (58B4)."""
    index = next((i for i in range(len(board.cards) - 1, -1, -1)
                  if board.cards[i][0] is seat), None)
    if index is None:
        raise StateError(f"event {event.seq}: {seat} has not played a card")
    trick_end = (index // 4 + 1) * 4
    later = {who.side for who, _ in board.cards[trick_end:]}
    if len(later) == 2:
        # Law 58B4: undiscovered until both sides have played to the next trick: Law 67.
        raise StateError(f"event {event.seq}: Law 58B4: both sides have played to the next "
                         f"trick: a defective trick (Law 67B: rule defective_trick)")
    return index


def _simultaneous(table: Table, board: BoardState | None, data: RulingData,
                  event: Stamped) -> None:
    # Law 58B: a second card seen from a hand with the card it played: the player designates
    # which is played (58B2); until then the play waits. The table sees it with the hand's
    # last card; the director may rule it for an earlier card of the trick (58B3 then lets
    # the opponents who played after it change their card), or of the trick before, until
    # both sides have played to the next (58B4, Law 67A2).
    assert board is not None
    seat, card = Seat.from_str(given(data.seat)), Card.from_str(given(data.card))
    play = board.play
    if play is None or board.simultaneous is not None or board.may_substitute:
        raise StateError(f"event {event.seq}: the play is waiting for another choice")
    index = _simultaneous_position(board, seat, event)
    hand = play.remaining(seat)
    if card in play.played_cards() or (hand is not None and card not in hand):
        raise StateError(f"event {event.seq}: {card} is not in {seat}'s hand")
    board.simultaneous = (seat, board.cards[index][1], card)


def _simultaneous_choice(table: Table, board: BoardState | None,
                         data: RulingData, event: Stamped) -> None:
    # Law 58B2: the card the player designates is played; for a defender the other card is
    # a penalty card (Law 50B: major if an honour); declarer's goes back to the hand. 58B1
    # (the director's): only one card's face was visible: it is played, the other picked up,
    # no rectification. 58B3: the opponents who played to the trick after it may change.
    assert board is not None
    pending = board.simultaneous
    if pending is None or board.play is None:
        raise StateError(f"event {event.seq}: no two cards wait for a designation")
    seat, first, second = pending
    index = next((i for i, played in enumerate(board.cards) if played == (seat, first)), None)
    if index is None:
        raise StateError(f"event {event.seq}: {seat}'s {first} is no longer played")
    board.simultaneous = None
    played = given(data.played)
    kept, other = (second, first) if played in ("second", "second_only") else (first, second)
    board.cards[index] = (seat, kept)
    penalty: RulingData | None = None
    if seat.side is not board.play.declarer.side and played in ("first", "second"):
        penalty = RulingData("penalty_card", seat=str(seat), card=str(other),
                             major="major" if is_honour(other) else "minor", law="58B2")
        board.play_actions.append((len(board.cards), penalty))
    if played in ("first", "second"):  # 58B3: a visible card was withdrawn
        trick_end = (index // 4 + 1) * 4
        board.may_substitute = [who for who, _ in board.cards[index + 1:trick_end]
                                if who.side is not seat.side]
    try:
        board.replay_cards()
    except ValueError:
        # The card designated makes a card played after it illegal (another suit led, say):
        # the cards after it go back to their hands and are played again.
        del board.cards[index + 1:]
        del board.card_ts[index + 1:]
        board.play_actions = [(at, action) for at, action in board.play_actions
                              if at <= index + 1 and action is not penalty]
        if penalty is not None:
            board.play_actions.append((index + 1, penalty))
        board.may_substitute = []
        with _engine_refusal(event):
            board.replay_cards()


def _substitute(table: Table, board: BoardState | None, data: RulingData,
                event: Stamped) -> None:
    # Law 58B3: an opponent who played to the trick after the 58B offender's card takes it
    # back and plays ``card`` instead, without further rectification (16C for what was
    # seen); with no card, keeps the one played.
    assert board is not None
    seat = Seat.from_str(given(data.seat))
    if seat not in board.may_substitute:
        raise StateError(f"event {event.seq}: {seat} may not change its card (Law 58B3)")
    board.may_substitute.remove(seat)
    card = data.card
    if card is None:
        return
    index = max(i for i, (who, _) in enumerate(board.cards) if who is seat)
    board.cards[index] = (seat, Card.from_str(card))
    with _engine_refusal(event):
        board.replay_cards()


def _defective_trick(table: Table, board: BoardState | None, data: RulingData,
                     event: Stamped) -> None:
    # Law 58B4, 67B2: two cards from one hand found after both sides played to the next
    # trick: the card faced (the one the table recorded) stays played, ownership of the
    # trick does not change, the extra card goes back to the hand (if the table took it as
    # a penalty card, it is picked up). Recorded: a failure to play it since may be a revoke.
    assert board is not None
    seat, card = Seat.from_str(given(data.seat)), Card.from_str(given(data.card))
    play = board.play
    if play is None:
        raise StateError(f"event {event.seq}: defective_trick before the play")
    if play.played_cards().get(card) is seat:
        raise StateError(f"event {event.seq}: {card} is the card {seat} played; name the "
                         f"extra card that goes back to the hand")
    if any(p.card == card and p.seat is seat for p in play.penalty_cards):
        board.apply_play_action(RulingData("pick_up", card=str(card)), event.ts)
    elif card in play.played_cards():
        raise StateError(f"event {event.seq}: {card} was played by "
                         f"{play.played_cards()[card]}")
    _record(table, board, data, event)


def out_of_turn_action(play: Play, seat: Seat, card: Card,
                       law: str) -> RulingData | None:
    """What a card the play refuses (with ``law``) becomes once it has been seen: a lead out
    of turn kept for the opponents' option (Laws 54-56), a defender's card a major penalty
    card (57A before partner has played to the trick, else 50B; 60B after declarer's lead
    went back); None for declarer's or dummy's, which goes back to the hand (Law 48A)."""
    if law in ("54", "55", "56"):
        return RulingData("lead_out_of_turn", seat=str(seat), card=str(card))
    if seat.side is play.declarer.side:
        return None
    if law == "60B":
        return RulingData("penalty_card", seat=str(seat), card=str(card), major="major",
                          law="60B")
    trick = play.current
    early = bool(trick.cards) and trick.card_of(seat.partner) is None
    return RulingData("penalty_card", seat=str(seat), card=str(card), major="major",
                      law="57A" if early else "50B")


def _simultaneous_play(table: Table, board: BoardState | None, data: RulingData,
                       event: Stamped) -> None:
    # Law 58A: a lead or play made at the same time as another player's legal one counts as
    # made after it. The card the table kept as seen out of turn (the reader took it first)
    # gives way to the legal card of ``seat``, then is played if it is now in turn, or is what
    # a card out of turn is (Laws 53-57: a lead out of turn, a defender's penalty card).
    assert board is not None
    seat, card = Seat.from_str(given(data.seat)), Card.from_str(given(data.card))
    kept = board.out_of_turn
    if board.play is None or kept is None or kept[0] is seat or not board.play_actions:
        raise StateError(f"event {event.seq}: no card of another player seen out of turn "
                         f"to have been played with {seat}'s {card}")
    other, other_card, _ = kept
    at, action = board.play_actions[-1]
    if at != len(board.cards) or action.card != str(other_card) \
            or action.kind not in ("lead_out_of_turn", "penalty_card"):
        raise StateError(f"event {event.seq}: {other}'s {other_card} is no longer the last "
                         f"thing the table kept (an option was chosen on it)")
    del board.play_actions[-1]
    board.out_of_turn = None
    with _engine_refusal(event):
        board.replay_cards()
        play = board.play
        assert play is not None
        play.play(card, seat)
    board.cards.append((seat, card))
    board.card_ts.append(event.ts)
    try:
        play.check(other_card, other)
    except IllegalActionError as error:
        after = out_of_turn_action(play, other, other_card, error.law)
        if after is not None:
            try:
                board.apply_play_action(after, event.ts)
            except ValueError as refused:
                raise StateError(f"event {event.seq}: {refused}") from None
            board.out_of_turn = None  # judged once: it is after the legal card, for good
        return
    play.play(other_card, other)  # now in turn: simply its play
    board.cards.append((other, other_card))
    board.card_ts.append(event.ts)


def _default_scope(data: dict[str, Any]) -> None:
    if data.get("bids_allowed"):
        data["scope"] = "next_turn"  # Law 30B2(b): "at that turn"
    data.setdefault("scope", "auction")  # Law 30-32: the rest of the auction, unless said


def _at_least_one_card(data: dict[str, Any]) -> None:
    if data.get("cards") == 0:
        raise RulingDataError("undo_cards: at least one card goes back")


def _play_on(data: dict[str, Any]) -> None:
    data.setdefault("tricks", None)  # Law 70: null = the director lets play go on


# -- the kinds ---------------------------------------------------------------------------------

KINDS: dict[str, RulingKind] = {kind.name: kind for kind in (
    RulingKind(
        "take_back", "39A, 82A",
        Words(es="Retroceder la subasta", en="Take the auction back"),
        Words(es="voces", en="calls back"),
        (Field("calls", "count", Words(es="Voces que quedan", en="Calls that stay"),
               required=True, high=400),),
        _take_back, before_play=True),
    RulingKind(
        "require_pass", "27B, 30, 31, 32",
        Words(es="Un asiento debe pasar", en="A seat must pass"),
        Words(es="debe pasar", en="must pass"),
        (_SEAT, _law(True, "31A2"),
         Field("scope", "choice", Words(es="Alcance", en="Scope"), choices=(
             Choice("auction", Words(es="Toda la subasta", en="The rest of the auction")),
             Choice("next_turn", Words(es="Su próximo turno", en="Its next turn")))),
         Field("bids_allowed", "choice", Words(es="Qué puede decir", en="What it may call"),
               choices=(
                   Choice(False, Words(es="Solo paso", en="Pass only")),
                   Choice(True, Words(es="Paso o cualquier declaración, sin doblo ni "
                                         "redoblo (30B2(b))",
                                      en="Pass or any bid, no double or redouble "
                                         "(30B2(b))"))),
               help=Words(es="30B2(b): solo en ese turno",
                          en="30B2(b): at that turn only"))),
        _require_pass, before_play=True, check=_default_scope),
    RulingKind(
        "lead_restriction", "26, 50D",
        Words(es="Restricción de salida", en="Lead restriction"),
        Words(es="salida", en="lead limit"),
        (_SEAT,
         Field("suit", "suit", Words(es="Palo", en="Suit"), required=True),
         Field("required", "choice", Words(es="Restricción de salida", en="Lead restriction"),
               required=True, choices=(
                   Choice(True, Words(es="Obligada", en="Required")),
                   Choice(False, Words(es="Prohibida", en="Forbidden")))),
         _law(True, "26B")),
        _lead_restriction),
    RulingKind(
        "undo_cards", "45C4(b), 47",
        Words(es="Deshacer cartas", en="Undo cards"),
        Words(es="cartas", en="cards back"),
        (Field("cards", "count", Words(es="Cartas que se deshacen", en="Cards to undo"),
               required=True, high=52),),
        _undo_cards, check=_at_least_one_card),
    RulingKind(
        "claim", "68D, 70",
        Words(es="Reclamación disputada", en="Disputed claim"),
        Words(es="reclamación", en="claim"),
        (Field("tricks", "count", Words(es="Bazas", en="Tricks"),
               high=13, help=Words(es="vacío: se sigue jugando", en="blank: play on")),),
        _claim, check=_play_on),
    RulingKind(
        "score", "12C1, 12C2",
        Words(es="Resultado ajustado", en="Adjusted score"),
        Words(es="resultado", en="score"),
        (Field("adjusted", "text", Words(es="Ajustado (A60/40)", en="Adjusted (A60/40)"),
               limit=16,
               placeholder="A60/40"),
         Field("score_ns", "count", Words(es="Marca NS asignada", en="Assigned NS score"),
               low=-10000, high=10000)),
        _score, check=_check_score, effect=Effect.SCORE),
    RulingKind(
        "unauthorised_information", "16B",
        Words(es="Información no autorizada", en="Unauthorised information"),
        Words(es="inf. no aut.", en="UI noted"),
        (Field("side", "side", Words(es="Pareja que la tuvo", en="Pair that had it"),
               required=True),
         _law(False, "16B1")),
        # Law 16B: a pair had unauthorised information from partner (a hesitation, a
        # remark); the record stays with the board for a later adjustment (16B3, 12C).
        _record),
    RulingKind(
        "penalty_card", "49, 50B, 57A",
        Words(es="Carta penalizada", en="Penalty card"),
        Words(es="penalizada", en="penalty card"),
        (_SEAT, _CARD,
         Field("major", "choice", Words(es="Tipo", en="Kind"), required=True, choices=(
             Choice("major", Words(es="Mayor", en="Major")),
             Choice("minor", Words(es="Menor", en="Minor")))),
         _law(False, "50B")),
        _play_ruling),
    RulingKind(
        "pick_up", "50",
        Words(es="Devolver carta penalizada", en="Penalty card picked up"),
        Words(es="devuelta", en="picked up"),
        (_CARD,), _play_ruling),
    RulingKind(
        "penalty_lead", "50D2, 51B",
        Words(es="Salida con carta penalizada", en="Lead with a penalty card"),
        Words(es="salida pen", en="lead choice"),
        (Field("lead", "choice", Words(es="Opción del carteador", en="Declarer's option"),
               required=True, choices=(
                   Choice("require", Words(es="Exige el palo", en="Require the suit")),
                   Choice("forbid", Words(es="Prohíbe el palo", en="Forbid the suit")),
                   Choice("free", Words(es="Salida libre; la carta sigue",
                                        en="Any lead; the card stays")))),
         Field("suit", "suit", Words(es="Palo", en="Suit"))),
        _play_ruling),
    RulingKind(
        "lead_out_of_turn", "53, 54, 55, 56",
        Words(es="Salida fuera de turno", en="Lead out of turn"),
        Words(es="sale fuera", en="wrong lead"),
        (_SEAT, _CARD), _play_ruling),
    RulingKind(
        "lead_option", "53A, 54A, 54B, 54D, 55, 56",
        Words(es="Opción sobre la salida fuera de turno",
              en="Option on the lead out of turn"),
        Words(es="opción", en="lead option"),
        (Field("option", "choice", Words(es="Opción", en="Option"), required=True, choices=(
            Choice("accept", Words(es="Se acepta", en="Accepted")),
            Choice("dummy", Words(es="El carteador pasa a ser muerto",
                                  en="Declarer becomes dummy")),
            Choice("refuse", Words(es="Se rechaza", en="Refused")))),),
        _play_ruling),
    RulingKind(
        "call_over_change", "25A4, 16D",
        Words(es="Voz sobre una voz cambiada", en="Call over a changed call"),
        Words(es="voz encima", en="call over"),
        (_SEAT,
         Field("lho_call", "choice", Words(es="El oponente de la izquierda",
                                           en="Left-hand opponent"),
               required=True, choices=(
                   Choice("withdraw", Words(es="La retira (información solo para su bando, "
                                               "16D)",
                                            en="Withdraws it (its information is for its "
                                               "side only, 16D)")),
                   Choice("stand", Words(es="La mantiene", en="Lets it stand"))))),
        _call_over_change, before_play=True),
    RulingKind(
        "change_of_call", "25B, 16D",
        Words(es="Cambio de voz con pausa", en="Change of call after a pause"),
        Words(es="cambio voz", en="call change"),
        (Field("change", "choice", Words(es="El oponente de la izquierda",
                                         en="Left-hand opponent"),
               required=True, choices=(
                   Choice("accept", Words(es="Acepta la segunda voz (25B1)",
                                          en="Accepts the second call (25B1)")),
                   Choice("cancel", Words(es="No: queda la voz original (25B2)",
                                          en="Does not: the first call stands (25B2)")))),),
        _change_of_call, before_play=True),
    RulingKind(
        "simultaneous", "58B",
        Words(es="Dos cartas a la vez", en="Two cards at once"),
        Words(es="dos cartas", en="two cards"),
        (_SEAT, _CARD), _simultaneous),
    RulingKind(
        "simultaneous_choice", "58B2",
        Words(es="Carta que se juega de las dos", en="Which of the two cards is played"),
        Words(es="una de dos", en="one of two"),
        (Field("played", "choice", Words(es="Se juega", en="Played"), required=True,
               choices=(Choice("first", Words(es="La primera leída", en="The first read")),
                        Choice("second", Words(es="La segunda", en="The second")),
                        Choice("first_only", Words(
                            es="Solo se vio la primera (58B1): la otra se recoge",
                            en="Only the first was seen (58B1): the other goes back")),
                        Choice("second_only", Words(
                            es="Solo se vio la segunda (58B1): la otra se recoge",
                            en="Only the second was seen (58B1): the other goes back")))),),
        _simultaneous_choice),
    RulingKind(
        "substitute", "58B3, 16C",
        Words(es="Cambio de carta tras dos a la vez", en="Card changed after two at once"),
        Words(es="cambia", en="changes"),
        (_SEAT, Field("card", "card", Words(es="Carta", en="Card"), placeholder="SQ",
                      help=Words(es="vacío: mantiene la suya", en="blank: keeps its card"))),
        _substitute),
    RulingKind(
        "defective_trick", "58B4, 67B2",
        Words(es="Baza defectuosa: carta de más", en="Defective trick: an extra card"),
        Words(es="baza def", en="defect trick"),
        (_SEAT, _CARD), _defective_trick),
    RulingKind(
        "simultaneous_play", "58A",
        Words(es="Jugada simultánea de dos jugadores",
              en="Two players' cards at the same time"),
        Words(es="a la vez", en="same time"),
        (_SEAT, _CARD), _simultaneous_play),
    RulingKind(
        "penalty_breach", "52B",
        Words(es="Otra carta en lugar de la penalizada",
              en="Another card in a penalty card's place"),
        Words(es="otra carta", en="not pen card"),
        (_SEAT, _CARD), _play_ruling),
    RulingKind(
        "breach_option", "52B1, 52B2",
        Words(es="Opción del carteador sobre esa carta", en="Declarer's option on that card"),
        Words(es="opción 52B", en="52B option"),
        (Field("breach", "choice", Words(es="Opción del carteador", en="Declarer's option"),
               required=True, choices=(
                   Choice("accept", Words(es="La acepta; la penalizada sigue (52B1)",
                                          en="Accepts it; the penalty card stays (52B1)")),
                   Choice("refuse", Words(es="Juega la penalizada; la otra queda penalizada "
                                             "mayor (52B2)",
                                          en="The penalty card is played; the other becomes "
                                             "a major penalty card (52B2)")))),),
        _play_ruling),
    RulingKind(
        "penalty_choice", "51A",
        Words(es="Carta penalizada que se juega", en="Penalty card to play"),
        Words(es="cuál juega", en="which card"),
        (_CARD,), _play_ruling),
    RulingKind(
        "premature_option", "57A, 59",
        Words(es="Opción por juego prematuro", en="Option on a premature play"),
        Words(es="prematuro", en="too soon"),
        (Field("premature", "choice", Words(es="Al compañero del infractor",
                                            en="Offender's partner"),
               required=True, choices=(
                   Choice("highest", Words(es="La más alta del palo salido",
                                           en="Highest card of the suit led")),
                   Choice("lowest", Words(es="La más baja del palo salido",
                                          en="Lowest card of the suit led")),
                   Choice("require", Words(es="Una carta de otro palo (el palo)",
                                           en="A card of another suit (the suit)")),
                   Choice("forbid", Words(es="Ninguna de otro palo (el palo)",
                                          en="No card of another suit (the suit)")))),
         Field("suit", "suit", Words(es="Palo", en="Suit"))),
        _play_ruling),
    RulingKind(
        "revoke_transfer", "64A, 64B, 64C",
        Words(es="Bazas transferidas por renuncio", en="Tricks transferred for a revoke"),
        Words(es="renuncio", en="revoke"),
        (Field("transferred", "count",
               Words(es="Bazas al carteador (-: a la defensa)",
                     en="Tricks to declarer (-: to the defence)"),
               required=True, low=-13, high=13,
               help=Words(es="la cifra de la mesa la confirma", en="the table's figure "
                          "confirms it")),),
        _revoke_transfer),
    RulingKind(
        "end_round", "8B",
        Words(es="Terminar la ronda", en="End the round"),
        Words(es="fin ronda", en="round over"),
        (), _end_round, needs_board=False),
    RulingKind(
        "director_ack", "9B1",
        Words(es="Árbitro en camino", en="Director on the way"),
        Words(es="en camino", en="coming"),
        (Field("call", "count", Words(es="Llamada", en="Call"), low=1, high=10**9),),
        _director_ack, needs_board=False, console=False, effect=Effect.ACKNOWLEDGE),
)}


#: The kinds the table records as an ``option`` event that apply as their ruling does (Laws
#: 16B2, 25B, 58A, 58B); the others are options of the play (``play_action``).
TABLE_OPTIONS = frozenset({"unauthorised_information", "change_of_call", "call_over_change",
                           "simultaneous", "simultaneous_choice", "simultaneous_play",
                           "substitute"})


def kind_of(name: str) -> RulingKind:
    """The kind called ``name``; RulingDataError if there is none."""
    found = KINDS.get(name)
    if found is None:
        raise RulingDataError(f"unknown ruling {name!r}")
    return found


def all_fields() -> dict[str, Field]:
    """Every field of every kind by name (a name means one thing in every kind)."""
    fields: dict[str, Field] = {}
    for kind in KINDS.values():
        for spec in kind.fields:
            seen = fields.setdefault(spec.name, spec)
            if (seen.kind, seen.low, seen.high, seen.limit,
                    tuple(c.value for c in seen.choices)) != (
                    spec.kind, spec.low, spec.high, spec.limit,
                    tuple(c.value for c in spec.choices)):
                raise AssertionError(f"field {spec.name} differs between rulings")
    return fields


FIELDS = all_fields()
if set(FIELDS) | {"kind", "cmd", "by"} != RULING_NAMES:  # tablemodel.table.RulingData
    raise AssertionError(f"the fields of the rulings and of RulingData differ: "
                         f"{sorted(set(FIELDS) ^ (RULING_NAMES - {'kind', 'cmd', 'by'}))}")


def check_kinds(kinds: Mapping[str, RulingKind]) -> None:
    """Run when the module loads: a kind whose effect needs a board needs one on the table
    (a board-less score would have nothing to replace), and only a kind the server sends by
    itself, not the director, goes without the note that is its record."""
    for name, kind in kinds.items():
        if kind.effect is Effect.SCORE and not kind.needs_board:
            raise AssertionError(f"ruling {name!r} replaces a board's result but needs no board")
        if kind.effect is Effect.ACKNOWLEDGE and kind.console:
            raise AssertionError(f"ruling {name!r} is the table's acknowledgement: the server "
                                 "sends it, not the console")


check_kinds(KINDS)
