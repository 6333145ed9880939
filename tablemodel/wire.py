"""The wire format: MQTT topics and the JSON payloads of events, commands and state.

One module that both ends import: the table encodes with it and the server decodes with it,
so a payload that one accepts the other does too. Every decoder validates and raises
:class:`WireError` with a reason; nothing here trusts a payload.

An event is ``{"v":1,"seq":N,"type":...,"ts":...,"board":...,"data":{...}}``
(../shared/ARCHITECTURE.md); a command is ``{"v":1,"id":...,"type":...,"data":{...}}``.
docs/mqtt.md describes each event and command type.
"""

from __future__ import annotations

import builtins
import enum
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from laws import Call, Card, Deal, RulesError, Seat, Suit, Vulnerability, parse_contract

from .regulation import PROFILES, Screens
from .roundclock import MAX_WARNING, RoundClock
from .rulings import FIELDS, KINDS, RulingDataError, kind_of
from .rulings import Field as RulingField
from .syscard import CardError, SystemCard
from .table import Conduct, Guidance
from .table import RulingData as RulingData  # re-exported: the ruling and option events' value

VERSION = 1
ROOT = "bidbox/v1"
MAX_SEQ = 2**31 - 1
"""A journal's numbers fit a 4-byte integer: a table makes a few thousand events a session."""
MAX_TS = 2**32
"""Seconds since 1970 up to the year 2106: a time beyond is a broken clock or a forgery."""
MAX_PAYLOAD = 64 * 1024
"""Bytes: the biggest payload either end accepts (a command with 36 deals is ~4 KB)."""
TOPIC_KINDS = ("status", "events", "state", "cmd")
ONLINE = b"online"
_NUMBER = re.compile(r"-?[0-9]{1,6}")  # ASCII digits only: int() would take " 1" or "١"
OFFLINE = b"offline"


class WireError(ValueError):
    """A payload or topic that does not follow the wire format; the message says why."""


# -- topics ------------------------------------------------------------------------------------

def table_topic(event: str, table: int, kind: str) -> str:
    if kind not in TOPIC_KINDS:
        raise ValueError(f"unknown topic kind {kind!r}")
    return f"{ROOT}/{event}/table/{table}/{kind}"


def clock_topic(event: str) -> str:
    """``bidbox/v1/<event>/clock``: the round clock, retained, one for the whole field."""
    return f"{ROOT}/{event}/clock"


def parse_topic(topic: str) -> tuple[str, int, str]:
    """``bidbox/v1/<event>/table/<t>/<kind>`` -> (event, t, kind)."""
    parts = topic.split("/")
    if (len(parts) != 6 or f"{parts[0]}/{parts[1]}" != ROOT or parts[3] != "table"
            or parts[5] not in TOPIC_KINDS or not parts[2]):
        raise WireError(f"not a bidbox table topic: {topic!r}")
    if not _NUMBER.fullmatch(parts[4]):
        raise WireError(f"table number {parts[4]!r} in {topic!r} is not a number")
    table = int(parts[4])
    if table < 1:
        raise WireError(f"table number {table} in {topic!r} is not positive")
    return parts[2], table, parts[5]


# -- the table's phases -------------------------------------------------------------------------

class Phase(enum.StrEnum):
    """Where a table is (tablemodel.state.TableState.phase); its retained state carries it."""

    WAITING = "waiting"      # no round assigned yet
    PLAYERS = "players"      # round assigned: players enter their numbers
    BOARD = "board"          # choose the next board of the round
    SETUP = "setup"          # board on the table: hands may be scanned; dealer calls first
    AUCTION = "auction"
    LEAD = "lead"            # auction over: waiting for the opening lead (questions now)
    PLAY = "play"
    RESULT = "result"        # the result, waiting for a player of each side to confirm
    ROUND_END = "round_end"  # every board of the round played: movement guidance


# -- field checks ------------------------------------------------------------------------------

Check = Callable[[Any], Any]


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WireError(f"{value!r} is not an integer")
    return value


def _count(low: int, high: int) -> Check:
    def check(value: Any) -> int:
        number = _int(value)
        if not low <= number <= high:
            raise WireError(f"{number} is not between {low} and {high}")
        return number
    return check


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise WireError(f"{value!r} is not true or false")
    return value


def _timestamp(value: Any) -> float:
    """Seconds since the epoch, as the table's clock gives them."""
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not math.isfinite(value) or not 0 <= value <= MAX_TS):
        raise WireError(f"{value!r} is not a time")
    return float(value)


def _text(limit: int) -> Check:
    def check(value: Any) -> str:
        if not isinstance(value, str) or len(value) > limit:
            raise WireError(f"{value!r} is not a text of at most {limit} characters")
        if any(ch < " " or "\ud800" <= ch <= "\udfff" for ch in value):
            # a NUL, a control character or half a surrogate pair: no store takes it
            raise WireError(f"{value[:40]!r} holds a control character or a lone surrogate")
        return value
    return check


def _parsed(kind: Callable[[str], Any], *, canonical: bool = False) -> Check:
    """A text the laws engine reads; ``canonical``: kept as the engine writes it (``"north"``
    becomes ``"N"``), so what is stored and compared has one spelling."""
    known: dict[str, str] = {}  # the spellings read before, as the engine writes them

    def check(value: Any) -> str:
        if isinstance(value, str) and value in known:
            return known[value]  # a seat, card or call: one of a few dozen, met every event
        if not isinstance(value, str) or len(value) > 80:
            raise WireError(f"{value!r:.90} is not a text of at most 80 characters")
        try:
            parsed = kind(value)
        except RulesError as error:
            raise WireError(str(error)) from None
        written = str(parsed) if canonical else value
        if len(known) < _KNOWN_SPELLINGS:  # only what parsed, and never without bound
            known[value] = written
        return written
    return check


_KNOWN_SPELLINGS = 512
_P = TypeVar("_P")


def _optional(inner: Check) -> Check:
    def check(value: Any) -> Any:
        return None if value is None else inner(value)
    return check


MAX_BOARD = 9999
"""Board numbers, like table numbers, up to four digits: a session numbers its boards 1 to
tables x boards a round, and one Mitchell of 1,000 tables at one board needs 1,000."""
MAX_PAIR = 2 * 9999
"""A pair's (or a participant's) number in an assignment: two pairs a table, so a field of
5,000 tables (a national simultaneous, issue 29) numbers its pairs up to 10,000, past four
digits."""


def _boards(value: Any) -> list[int]:
    if not isinstance(value, list) or not 1 <= len(value) <= 64:
        raise WireError(f"{value!r} is not a list of 1 to 64 board numbers")
    boards = [_count(1, MAX_BOARD)(b) for b in value]
    if len(set(boards)) != len(boards):
        raise WireError(f"a board appears twice in {boards}")
    return boards


def _deals(value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or len(value) > 64:
        raise WireError(f"{value!r} is not a map of at most 64 board numbers to PBN deals")
    for board, pbn in value.items():
        if not isinstance(board, str) or not _NUMBER.fullmatch(board) or int(board) > MAX_BOARD:
            raise WireError(f"deal key {board!r} is not a board number")
        _parsed(Deal.from_pbn)(pbn)
    return value


DEALING = ("table",)
"""How a session's boards are dealt when not by the server: "table", shuffled and dealt at the
table by the first table to play each board (docs/players.md#boards-dealt-at-the-table)."""


def _dealing(value: Any) -> str:
    if value not in DEALING:
        raise WireError(f"{value!r:.40} is not a way of dealing: {', '.join(DEALING)}")
    return str(value)


def _whole_deal(value: Any) -> str:
    """A deal of four hands of 13 cards, in PBN: what a table captured."""
    text = _parsed(Deal.from_pbn)(value)
    if len(Deal.from_pbn(text).hands) != 4:
        raise WireError(f"{value!r} does not give all four hands")
    return str(text)


def _table_ref(value: Any) -> int | str:
    """A table as the room names it ("B3", "bilbao-3"), or its number."""
    if isinstance(value, str):
        if not value.strip():
            raise WireError("a table's name is empty")
        return str(_text(MAX_LABEL)(value))
    number: int = _count(1, 9999)(value)
    return number


def _guidance(value: Any) -> dict[str, Any]:
    """Where each part goes after the round: a table (its name, or its number), or null to
    stay."""
    if not isinstance(value, dict) or set(value) - {"ns", "ew", "boards"}:
        raise WireError(f"{value!r} is not a movement guidance {{ns, ew, boards}}")
    for part in value.values():
        _optional(_table_ref)(part)
    return value


def _pair_names(value: Any) -> dict[str, str]:
    """The pairs seated as the pages name them: {"ns": "B4", "ew": "B1"}."""
    if not isinstance(value, dict) or not value or set(value) - {"ns", "ew"}:
        raise WireError(f"{value!r} is not the pairs' names {{ns, ew}}")
    for name in value.values():
        _text(MAX_LABEL)(name)
    return value


SEAT = _parsed(Seat.from_str, canonical=True)
CARD = _parsed(Card.from_str, canonical=True)
CALL = _parsed(Call.from_str, canonical=True)
SUIT = _parsed(Suit.from_str, canonical=True)
BOARD = _count(1, MAX_BOARD)
TRICKS = _count(0, 13)
LAW = _optional(_text(16))
ID = _text(64)

_REQUIRED = object()


@dataclass(frozen=True)
class Schema:
    """The fields of one payload type: name -> (check, required)."""

    fields: Mapping[str, tuple[Check, bool]] = field(default_factory=dict)

    def validate(self, what: str, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise WireError(f"{what}: data is not an object")
        unknown = data.keys() - self.fields.keys()
        if unknown:
            raise WireError(f"{what}: unknown fields {sorted(unknown)}")
        clean: dict[str, Any] = {}
        for name, (check, required) in self.fields.items():
            if name not in data:
                if required:
                    raise WireError(f"{what}: missing field {name!r}")
                continue
            try:
                clean[name] = check(data[name])
            except WireError as error:
                raise WireError(f"{what}.{name}: {error}") from None
        return clean


def _schema(**fields: Check | tuple[Check, bool]) -> Schema:
    return Schema({name: spec if isinstance(spec, tuple) else (spec, True)
                   for name, spec in fields.items()})


def _opt(check: Check) -> tuple[Check, bool]:
    return (_optional(check), False)


def _one_of(values: tuple[str, ...]) -> Check:
    def check(value: Any) -> str:
        if value not in values:
            raise WireError(f"{value!r:.40} is not one of {', '.join(values)}")
        return str(value)
    return check


def _ruling_check(spec: RulingField) -> Check:
    """The wire's check of one field of the rulings (tablemodel.rulings.Field)."""
    if spec.kind == "seat":
        return SEAT
    if spec.kind == "suit":
        return SUIT
    if spec.kind == "card":
        return CARD
    if spec.kind == "side":
        return _one_of(("NS", "EW"))
    if spec.kind == "count":
        return _count(spec.low, spec.high)
    if spec.kind == "text":
        return _text(spec.limit)
    if all(isinstance(choice.value, bool) for choice in spec.choices):
        return _bool
    return _one_of(tuple(str(choice.value) for choice in spec.choices))


def _conditions(value: Any) -> dict[str, Any]:
    """Dealer and vulnerability of boards that do not follow the cycle of 16 (the seed 004
    individual deals each partida from South with its own vulnerability)."""
    if not isinstance(value, dict) or len(value) > 64:
        raise WireError(f"{value!r} is not a map of at most 64 boards to dealer and vul")
    for board, facts in value.items():
        if not isinstance(board, str) or not _NUMBER.fullmatch(board) or int(board) > MAX_BOARD:
            raise WireError(f"conditions key {board!r} is not a board number")
        if not isinstance(facts, dict) or set(facts) != {"dealer", "vul"}:
            raise WireError(f"conditions of board {board}: {facts!r} is not {{dealer, vul}}")
        SEAT(facts["dealer"])
        _parsed(Vulnerability.from_str)(facts["vul"])
    return value


def _conduct(value: Any) -> dict[str, Any]:
    """Screens, the alert profile and the sides' system cards (tablemodel.state.Conduct)."""
    if not isinstance(value, dict) or set(value) - {"screens", "profile", "cards"}:
        raise WireError(f"conduct {value!r} is not {{screens, profile, cards}}")
    screens = value.get("screens")
    if screens is not None:
        if not isinstance(screens, dict) or set(screens) - {"north_with", "tray_delay"}:
            raise WireError(f"screens {screens!r} is not {{north_with, tray_delay}}")
        delay = screens.get("tray_delay", 0)
        if type(delay) not in (int, float) or not math.isfinite(delay):
            raise WireError(f"tray_delay {delay!r} is not a number of seconds")
        try:
            Screens(Seat.from_str(SEAT(screens.get("north_with", "E"))), float(delay))
        except ValueError as error:
            raise WireError(f"screens: {error}") from None
    profile = value.get("profile")
    if profile is not None and profile not in PROFILES:
        raise WireError(f"profile {profile!r} is not one of {', '.join(PROFILES)}")
    cards = value.get("cards")
    if cards is not None:
        if not isinstance(cards, dict) or set(cards) - {"NS", "EW"}:
            raise WireError("cards is a map of NS and EW to system cards")
        for side, card in cards.items():
            try:
                SystemCard.from_json(card)
            except CardError as error:
                raise WireError(f"card of {side}: {error}") from None
    return value


def _round_clock(value: Any) -> dict[str, Any]:
    """The round's end on the server's clock and the warning in minutes (tablemodel.roundclock);
    optional, so a server without a clock and a table before it still agree."""
    return CLOCK.validate("clock", value)


MAX_ROSTER = 1000
"""Players in a session's roster: a club's register with its visitors. The roster goes with
every assignment, inside the payload limit (1,000 numbers and names of 30 letters are ~45 KB)."""
MAX_PLAYER = 10**9
"""Player numbers, as the keypad types them (nine digits at most)."""
_PLAYER_KEY = re.compile(r"[1-9][0-9]{0,8}")  # as the keypad types it: no sign, no leading 0
MAX_NAME = 40
"""A player's name on the wire: the seat display shows twenty characters of it."""


def _roster(value: Any) -> dict[str, str]:
    """The session's players (issue 17's register): player number -> name. Only a number in
    it may sit at the table; a table given none takes any number."""
    if not isinstance(value, dict) or len(value) > MAX_ROSTER:
        raise WireError(f"roster is not a map of at most {MAX_ROSTER} player numbers to names")
    name = _text(MAX_NAME)
    for number, text in value.items():
        if not isinstance(number, str) or not _PLAYER_KEY.fullmatch(number):
            raise WireError(f"roster key {number!r:.20} is not a player number")
        name(text)
    return value


_CODE = re.compile(r"[a-z][a-z0-9_]{0,39}")
_PARAM_NAME = re.compile(r"[a-z][a-z_]{0,15}")
MAX_PARAMS = 8


def _message_code(value: Any) -> str:
    """A message's code (laws/messages.py): a name; one this table's engine does
    not know is kept (a newer table's): the English ``detail`` or ``reason`` says it."""
    if not isinstance(value, str) or not _CODE.fullmatch(value):
        raise WireError(f"{value!r:.40} is not a message code")
    return value


def _message_params(value: Any) -> dict[str, str | int]:
    """A message's params: at most eight names, each a number or a text (a seat's letter, a
    call, a card, a suit's letter, a law)."""
    if not isinstance(value, dict) or len(value) > MAX_PARAMS:
        raise WireError(f"params are not a map of at most {MAX_PARAMS} names")
    text = _text(200)
    for name, param in value.items():
        if not isinstance(name, str) or not _PARAM_NAME.fullmatch(name):
            raise WireError(f"param {name!r:.20} is not a name")
        if isinstance(param, bool) or not isinstance(param, int | str):
            raise WireError(f"param {name} is not a number or a text")
        if isinstance(param, int) and not -MAX_SEQ <= param <= MAX_SEQ:
            raise WireError(f"param {name} is out of range")
        if isinstance(param, str):
            text(param)
    return value


def message_of(data: Mapping[str, Any]) -> tuple[str, dict[str, str | int]] | None:
    """The message a director call or a refused command carries (its ``code`` and
    ``params``), or None for one without (an old journal's: its English alone)."""
    code = data.get("code")
    if not isinstance(code, str):
        return None
    params = data.get("params")
    return code, dict(params) if isinstance(params, Mapping) else {}


MAX_LABEL = 16
"""A table's name in a session of sections ("B3", a club's "bilbao-3"): the seat displays
give it a line of its own when the round's line has no room for it (tabled.seat_lines)."""

CLOCK = _schema(round=_opt(_count(1, 999)), ends_at=_timestamp,
                warning=_opt(_count(0, MAX_WARNING)))

_ASSIGNMENT: dict[str, Check | tuple[Check, bool]] = dict(
    round=_count(1, 999), ns=_count(0, MAX_PAIR), ew=_count(0, MAX_PAIR), boards=_boards,
    section=_opt(_text(16)), label=_opt(_text(MAX_LABEL)), switch=_opt(_bool),
    deals=_opt(_deals), next=_opt(_guidance), names=_opt(_pair_names),
    dealing=_opt(_dealing),
    conditions=_opt(_conditions), conduct=_opt(_conduct), clock=_opt(_round_clock),
    roster=_opt(_roster))

class EventType(enum.StrEnum):
    """The kinds of a table's events (docs/mqtt.md); a payload's ``type`` is decoded into one."""

    ASSIGN = "assign"
    PLAYER = "player"
    BOARD = "board"
    HAND_CARD = "hand_card"
    DEAL = "deal"
    CALL = "call"
    CHANGE = "change"
    ALERT = "alert"
    QUESTION = "question"
    ANSWER = "answer"
    TRAY = "tray"
    CARD = "card"
    FACED = "faced"
    CLAIM = "claim"
    CLAIM_ANSWER = "claim_answer"
    RESULT = "result"
    CONFIRM = "confirm"
    DIRECTOR = "director"
    RULING = "ruling"
    OPTION = "option"
    ROSTER = "roster"
    REFUSED = "refused"


#: The table's events. Each is an accepted input, or (result) what the laws make of them.
EVENTS: dict[EventType, Schema] = {
    EventType.ASSIGN: _schema(cmd=ID, **_ASSIGNMENT),
    EventType.PLAYER: _schema(seat=SEAT, number=_optional(_count(1, MAX_PLAYER))),
    EventType.BOARD: _schema(board=BOARD, dealer=SEAT, vul=_parsed(Vulnerability.from_str)),
    EventType.HAND_CARD: _schema(seat=SEAT, card=CARD),
    # Boards dealt at the table: the four hands the first table to play the board scanned,
    # once its 52nd card is read; the server keeps it as the board's hand record.
    EventType.DEAL: _schema(deal=_whole_deal),
    EventType.CALL: _schema(seat=SEAT, call=CALL, alert=_opt(_bool)),
    EventType.CHANGE: _schema(seat=SEAT, call=CALL, alert=_opt(_bool)),
    EventType.ALERT: _schema(seat=SEAT, index=_count(0, 400), late=_opt(_bool)),
    EventType.QUESTION: _schema(seat=SEAT, index=_count(0, 400), to=SEAT),
    EventType.ANSWER: _schema(seat=SEAT, question=_count(1, MAX_SEQ), code=_count(0, 9999)),
    EventType.TRAY: _schema(calls=_count(1, 400)),
    EventType.CARD: _schema(seat=SEAT, card=CARD, face_down=_opt(_bool)),
    EventType.FACED: _schema(seat=SEAT),
    EventType.CLAIM: _schema(seat=SEAT, tricks=TRICKS),
    EventType.CLAIM_ANSWER: _schema(seat=SEAT, agree=_bool),
    EventType.RESULT: _schema(contract=_optional(_text(8)), declarer=_optional(SEAT),
                      tricks=_optional(TRICKS), score_ns=_count(-10000, 10000),
                      adjusted=_opt(_text(16)), transferred=_opt(_count(-13, 13)),
                      lead=_opt(CARD)),
    EventType.CONFIRM: _schema(seat=SEAT),
    EventType.DIRECTOR: _schema(seat=_optional(SEAT), reason=_text(32), law=_opt(_text(16)),
                        detail=_opt(_text(200)), code=_opt(_message_code),
                        params=_opt(_message_params)),
    # The fields of every kind of ruling (tablemodel.rulings), each optional here: what a kind
    # requires is checked with its kind (Command.from_payload, the table's controller).
    EventType.RULING: _schema(cmd=ID, kind=_text(32),
                      **{name: _opt(_ruling_check(spec)) for name, spec in FIELDS.items()}),
    # What the table records itself when a card is seen out of turn, or a player chooses an
    # option the laws give (Laws 50D2, 53-57): a ruling's kind and fields, with no command;
    # ``by`` is the seat whose card or key made it.
    EventType.OPTION: _schema(kind=_text(32), by=_optional(SEAT),
                      **{name: _opt(_ruling_check(spec)) for name, spec in FIELDS.items()}),
    # Players the director added to the session's roster while it runs (a visitor).
    EventType.ROSTER: _schema(cmd=ID, players=_roster),
    EventType.REFUSED: _schema(cmd=ID, reason=_text(200), code=_opt(_message_code),
                       params=_opt(_message_params)),
}
EVENT_TYPES = frozenset(t.value for t in EventType)
if set(EVENTS) != set(EventType):
    raise AssertionError("an event type without its schema, or the reverse")

RULINGS = tuple(KINDS)

#: Commands from the server, each answered by an event carrying its id.
COMMANDS: dict[str, Schema] = {
    "assign": _schema(**_ASSIGNMENT),
    "ruling": Schema({k: v for k, v in EVENTS[EventType.RULING].fields.items()
                      if k != "cmd"}),
    "resend": _schema(since=_count(0, 10**9), until=_opt(_count(0, 10**9))),
    "roster": _schema(players=_roster),
}


# -- the events' values: one frozen value a type, with named, typed fields ----------------------
#
# ``Event.payload`` is the event's data decoded into the value of its type (``PAYLOADS``,
# checked below to have one for every type); everything above the wire reads those fields, and
# nothing reads ``Event.data``, the JSON object the journal stores and the wire carries, but
# the wire itself (and the table's controller, until it is converted). Seats, cards, calls and
# vulnerabilities are the laws engine's values; a board's PBN deal and a contract stay text,
# as the hand record and the results keep them.

@dataclass(frozen=True)
class Assign:
    """``assign``: the round the server gave the table (its ``cmd``), as the state keeps it."""

    cmd: str
    round: int
    ns: int
    ew: int
    boards: tuple[int, ...]
    section: str | None = None
    label: str | None = None
    switch: bool = False
    deals: Mapping[int, str] = field(default_factory=dict)  # board -> PBN deal
    next: Guidance | None = None
    names: Mapping[str, str] = field(default_factory=dict)  # "ns"/"ew" -> the pair's name
    dealing: str | None = None
    conditions: Mapping[int, tuple[Seat, Vulnerability]] = field(default_factory=dict)
    clock: RoundClock | None = None
    # The conduct and the roster as the wire carries them, read as values when asked for: the
    # server reads an assignment's pairs and boards often, its system cards seldom.
    conduct_json: Mapping[str, Any] | None = field(default=None, repr=False)
    roster_json: Mapping[str, str] | None = field(default=None, repr=False)

    @cached_property
    def conduct(self) -> Conduct:
        """Screens, the alert profile and the sides' system cards."""
        return Conduct.from_json(self.conduct_json)

    @cached_property
    def roster(self) -> Mapping[int, str] | None:
        """The session's players, number -> name; None: any number may sit."""
        if self.roster_json is None:
            return None
        return {int(number): name for number, name in self.roster_json.items()}


@dataclass(frozen=True)
class Player:
    """``player``: who sat down at ``seat`` (None: the seat emptied)."""

    seat: Seat
    number: int | None = None


@dataclass(frozen=True)
class BoardPut:
    """``board``: a board put on the table, with its dealer and vulnerability."""

    board: int
    dealer: Seat
    vul: Vulnerability


@dataclass(frozen=True)
class Scanned:
    """``hand_card``: one card of ``seat``'s hand read before the auction."""

    seat: Seat
    card: Card


@dataclass(frozen=True)
class DealCaptured:
    """``deal``: the four hands the first table to play a board scanned (PBN)."""

    deal: str


@dataclass(frozen=True)
class CallMade:
    """``call`` and ``change``: ``seat``'s call (a change replaces its last one)."""

    seat: Seat
    call: Call
    alert: bool = False


@dataclass(frozen=True)
class Alerted:
    """``alert``: ``seat`` alerted the call at ``index``; ``late`` after the moment due."""

    seat: Seat
    index: int
    late: bool = False


@dataclass(frozen=True)
class Asked:
    """``question``: ``seat`` asked ``to`` about the call at ``index`` (Law 20F)."""

    seat: Seat
    index: int
    to: Seat


@dataclass(frozen=True)
class Answered:
    """``answer``: ``seat`` answered the question of event ``question`` with ``code``."""

    seat: Seat
    question: int
    code: int


@dataclass(frozen=True)
class TrayCrossed:
    """``tray``: the tray crossed the screen with ``calls`` calls on it."""

    calls: int


@dataclass(frozen=True)
class CardPlayed:
    """``card``: ``seat`` played ``card`` (``face_down``: an opening lead made face down)."""

    seat: Seat
    card: Card
    face_down: bool = False


@dataclass(frozen=True)
class SeatOnly:
    """``faced`` (the lead turned up) and ``confirm`` (a result confirmed): who did it."""

    seat: Seat


@dataclass(frozen=True)
class Claimed:
    """``claim``: ``seat`` claimed ``tricks`` (declarer's count)."""

    seat: Seat
    tricks: int


@dataclass(frozen=True)
class ClaimAnswered:
    """``claim_answer``: ``seat`` agreed to the claim, or not."""

    seat: Seat
    agree: bool


@dataclass(frozen=True)
class ResultMade:
    """``result``: the board's result as the table scored it (``contract`` as text, ``4HX``;
    None passed out)."""

    contract: str | None
    declarer: Seat | None
    tricks: int | None
    score_ns: int
    adjusted: str | None = None
    transferred: int | None = None  # Law 64A: tricks transferred for revokes
    lead: Card | None = None


@dataclass(frozen=True)
class DirectorCalled:
    """``director``: the director called, by ``seat`` (None: the table itself)."""

    seat: Seat | None
    reason: str
    law: str | None = None
    detail: str | None = None


@dataclass(frozen=True)
class RosterAdded:
    """``roster``: players the director added while the session runs (answers ``cmd``)."""

    cmd: str
    players: Mapping[int, str]


@dataclass(frozen=True)
class Refused:
    """``refused``: the table refused command ``cmd``, and why."""

    cmd: str
    reason: str


@dataclass(frozen=True)
class Resend:
    """The ``resend`` command: events ``since`` (exclusive) to ``until``."""

    since: int
    until: int | None = None


Payload = (Assign | Player | BoardPut | Scanned | DealCaptured | CallMade | Alerted | Asked
           | Answered | TrayCrossed | CardPlayed | SeatOnly | Claimed | ClaimAnswered
           | ResultMade | DirectorCalled | RulingData | RosterAdded | Refused)
CommandPayload = Assign | RulingData | Resend | RosterAdded


def _seat_of(text: Any) -> Seat | None:
    return None if text is None else Seat.from_str(text)


def _assign(data: Mapping[str, Any], cmd: str | None = None) -> Assign:
    guidance = data.get("next")
    return Assign(
        cmd if cmd is not None else data["cmd"], data["round"], data["ns"], data["ew"],
        tuple(data["boards"]), data.get("section"), data.get("label"),
        bool(data.get("switch")),
        {int(board): pbn for board, pbn in (data.get("deals") or {}).items()},
        None if not guidance else Guidance(guidance.get("ns"), guidance.get("ew"),
                                           guidance.get("boards")),
        dict(data.get("names") or {}), data.get("dealing"),
        {int(board): (Seat.from_str(facts["dealer"]), Vulnerability.from_str(facts["vul"]))
         for board, facts in (data.get("conditions") or {}).items()},
        RoundClock.from_json(data["round"], data["clock"]) if data.get("clock") else None,
        data.get("conduct"), data.get("roster"))


def _ruling(data: Mapping[str, Any]) -> RulingData:
    return RulingData(**{name: value for name, value in data.items() if value is not None})


#: How each event type's data becomes its value: one entry a type, checked below.
PAYLOADS: dict[EventType, Callable[[Mapping[str, Any]], Payload]] = {
    EventType.ASSIGN: _assign,
    EventType.PLAYER: lambda d: Player(Seat.from_str(d["seat"]), d.get("number")),
    EventType.BOARD: lambda d: BoardPut(d["board"], Seat.from_str(d["dealer"]),
                                        Vulnerability.from_str(d["vul"])),
    EventType.HAND_CARD: lambda d: Scanned(Seat.from_str(d["seat"]), Card.from_str(d["card"])),
    EventType.DEAL: lambda d: DealCaptured(d["deal"]),
    EventType.CALL: lambda d: CallMade(Seat.from_str(d["seat"]), Call.from_str(d["call"]),
                                       bool(d.get("alert"))),
    EventType.CHANGE: lambda d: CallMade(Seat.from_str(d["seat"]), Call.from_str(d["call"]),
                                         bool(d.get("alert"))),
    EventType.ALERT: lambda d: Alerted(Seat.from_str(d["seat"]), d["index"],
                                       bool(d.get("late"))),
    EventType.QUESTION: lambda d: Asked(Seat.from_str(d["seat"]), d["index"],
                                        Seat.from_str(d["to"])),
    EventType.ANSWER: lambda d: Answered(Seat.from_str(d["seat"]), d["question"], d["code"]),
    EventType.TRAY: lambda d: TrayCrossed(d["calls"]),
    EventType.CARD: lambda d: CardPlayed(Seat.from_str(d["seat"]), Card.from_str(d["card"]),
                                         bool(d.get("face_down"))),
    EventType.FACED: lambda d: SeatOnly(Seat.from_str(d["seat"])),
    EventType.CLAIM: lambda d: Claimed(Seat.from_str(d["seat"]), d["tricks"]),
    EventType.CLAIM_ANSWER: lambda d: ClaimAnswered(Seat.from_str(d["seat"]), d["agree"]),
    EventType.RESULT: lambda d: ResultMade(
        d["contract"], _seat_of(d.get("declarer")), d["tricks"], d["score_ns"],
        d.get("adjusted"), d.get("transferred"),
        None if d.get("lead") is None else Card.from_str(d["lead"])),
    EventType.CONFIRM: lambda d: SeatOnly(Seat.from_str(d["seat"])),
    EventType.DIRECTOR: lambda d: DirectorCalled(_seat_of(d.get("seat")), d["reason"],
                                                 d.get("law"), d.get("detail")),
    EventType.RULING: _ruling,
    EventType.OPTION: _ruling,
    EventType.ROSTER: lambda d: RosterAdded(d["cmd"], {int(n): name
                                                       for n, name in d["players"].items()}),
    EventType.REFUSED: lambda d: Refused(d["cmd"], d["reason"]),
}
if set(PAYLOADS) != set(EventType):
    raise AssertionError(f"event types without a value: {set(EventType) - set(PAYLOADS)}")

#: How each command type's data becomes its value (the command's id is its ``cmd``).
COMMAND_PAYLOADS: dict[str, Callable[[str, Mapping[str, Any]], CommandPayload]] = {
    "assign": lambda ident, d: _assign(d, ident),
    "ruling": lambda ident, d: _ruling({**d, "cmd": ident}),
    "resend": lambda ident, d: Resend(d["since"], d.get("until")),
    "roster": lambda ident, d: RosterAdded(ident, {int(n): name
                                                   for n, name in d["players"].items()}),
}
if set(COMMAND_PAYLOADS) != set(COMMANDS):
    raise AssertionError("a command type without its value, or the reverse")


def payload_of(kind: EventType, data: Mapping[str, Any], what: str = "event") -> Payload:
    """``data`` of an event of type ``kind`` as its value. Data the wire did not check (a row
    stored by another version) that does not fit raises WireError, never a KeyError."""
    try:
        return PAYLOADS[kind](data)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        # RulesError (a seat, card or call that does not parse) is a ValueError too
        raise WireError(f"{what} ({kind}): data does not fit: {type(error).__name__}: "
                        f"{error}") from None


# -- envelopes ---------------------------------------------------------------------------------

def _load(payload: bytes | str, what: str) -> dict[str, Any]:
    size = len(payload.encode() if isinstance(payload, str) else payload)
    if size > MAX_PAYLOAD:
        raise WireError(f"{what} of {size} bytes is over the {MAX_PAYLOAD}-byte limit")
    try:
        # UTF-8, as the wire is: json.loads would otherwise guess the bytes' encoding first.
        value = json.loads(payload.decode() if isinstance(payload, bytes) else payload)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise WireError(f"{what} is not JSON: {type(error).__name__}: {error}") from None
    if not isinstance(value, dict):
        raise WireError(f"{what} is not a JSON object")
    version = value.get("v")
    if type(version) is not int or version != VERSION:  # true and 1.0 are not 1
        raise WireError(f"{what} has wire version {version!r}, not {VERSION}")
    return value


def _dump(value: Mapping[str, Any]) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


@dataclass(frozen=True)
class Event:
    """One numbered event of a table's journal."""

    seq: int
    type: EventType
    ts: float
    board: int | None
    data: Mapping[str, Any]
    # False for an event rebuilt from a store (from_row) that this version's wire has not
    # checked: its data is checked when its payload is first read.
    checked: bool = field(default=True, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"v": VERSION, "seq": self.seq, "type": self.type, "ts": self.ts,
                "board": self.board, "data": dict(self.data)}

    def to_payload(self) -> bytes:
        return _dump(self.to_json())

    @cached_property
    def payload(self) -> Payload:
        """The event's data as the value of its type (``PAYLOADS``): what is read of it.
        WireError if it does not fit its type."""
        data = self.data
        if not self.checked:
            data = EVENTS[self.type].validate(f"event {self.seq} ({self.type})", dict(data))
        return payload_of(self.type, data, f"event {self.seq}")

    def value(self, kind: builtins.type[_P]) -> _P:
        """The payload, as the value ``kind`` that the caller's dispatch by type expects."""
        payload = self.payload
        if not isinstance(payload, kind):
            raise WireError(f"event {self.seq} ({self.type}) holds no {kind.__name__}")
        return payload

    @classmethod
    def from_row(cls, seq: int, kind: str, ts: float, board: int | None,
                 data: str | Mapping[str, Any], *, checked: bool = False) -> Event:
        """An event as a journal or the server's store kept it: every stored event is
        rebuilt through here. A type this version does not know, or data that is not JSON,
        raises WireError; data that does not fit its type raises it when its payload is
        read (then checked as the wire checks a payload, unless ``checked``: stored by this
        version's wire a moment ago, as the ingest reads its own rows)."""
        try:
            kind_type = EventType(kind)
        except ValueError:
            raise WireError(f"event {seq}: unknown type {kind!r}") from None
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError as error:
                raise WireError(f"event {seq}: data is not JSON: {error}") from None
        if not isinstance(data, Mapping):
            raise WireError(f"event {seq}: data is not an object")
        return cls(seq, kind_type, ts, board, data, checked)

    @classmethod
    def from_payload(cls, payload: bytes | str) -> Event:
        return cls.from_json(_load(payload, "event"))

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Event:
        unknown = value.keys() - _EVENT_FIELDS
        if unknown:
            raise WireError(f"event: unknown fields {sorted(unknown)}")
        seq = _SEQ(value.get("seq"))
        kind = value.get("type")
        known = _EVENT_SCHEMAS.get(kind) if isinstance(kind, str) else None
        if known is None:
            raise WireError(f"event {seq}: unknown type {kind!r}")
        kind_type, schema = known
        try:
            ts = _timestamp(value.get("ts"))
        except WireError:
            raise WireError(f"event {seq}: ts {value.get('ts')!r} is not a time") from None
        board = _BOARD_OR_NONE(value.get("board"))
        data = schema.validate(f"event {seq} ({kind})", value.get("data"))
        return cls(seq, kind_type, float(ts), board, data)


_EVENT_FIELDS = frozenset({"v", "seq", "type", "ts", "board", "data"})
_EVENT_SCHEMAS: dict[str, tuple[EventType, Schema]] = {
    kind.value: (kind, schema) for kind, schema in EVENTS.items()}
_SEQ = _count(1, MAX_SEQ)
_BOARD_OR_NONE = _optional(BOARD)


@dataclass(frozen=True)
class Command:
    """One command from the server to a table; ``id`` makes it idempotent."""

    id: str
    type: str
    data: Mapping[str, Any]

    def to_payload(self) -> bytes:
        return _dump({"v": VERSION, "id": self.id, "type": self.type, "data": dict(self.data)})

    @classmethod
    def from_row(cls, ident: str, kind: str, data: str | Mapping[str, Any]) -> Command:
        """A command as the server stored it when it sent it (checked then): every stored
        command is rebuilt through here."""
        if kind not in COMMANDS:
            raise WireError(f"command {ident}: unknown type {kind!r}")
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError as error:
                raise WireError(f"command {ident}: data is not JSON: {error}") from None
        if not isinstance(data, Mapping):
            raise WireError(f"command {ident}: data is not an object")
        return cls(ident, kind, data)

    @cached_property
    def payload(self) -> CommandPayload:
        """The command's data as the value of its type (``COMMAND_PAYLOADS``)."""
        try:
            return COMMAND_PAYLOADS[self.type](self.id, self.data)
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise WireError(f"command {self.id} ({self.type}): data does not fit: "
                            f"{type(error).__name__}: {error}") from None

    def value(self, kind: builtins.type[_P]) -> _P:
        """The payload, as the value ``kind`` that the caller's dispatch by type expects."""
        payload = self.payload
        if not isinstance(payload, kind):
            raise WireError(f"command {self.id} ({self.type}) holds no {kind.__name__}")
        return payload

    @classmethod
    def from_payload(cls, payload: bytes | str) -> Command:
        value = _load(payload, "command")
        unknown = set(value) - {"v", "id", "type", "data"}
        if unknown:
            raise WireError(f"command: unknown fields {sorted(unknown)}")
        ident = value.get("id")
        if not isinstance(ident, str) or not 1 <= len(ident) <= 64:
            raise WireError(f"command id {ident!r} is not a text of 1 to 64 characters")
        kind = value.get("type")
        schema = COMMANDS.get(kind) if isinstance(kind, str) else None
        if schema is None:
            raise WireError(f"command {ident}: unknown type {kind!r}")
        data = schema.validate(f"command {ident} ({kind})", value.get("data", {}))
        if kind == "ruling":
            # What the kind requires, and its own check (tablemodel.rulings): a table would
            # otherwise refuse it unexplained.
            try:
                kind_of(data["kind"]).validate(data)
            except RulingDataError as error:
                raise WireError(f"command {ident}: {error}") from None
        return cls(ident, str(kind), data)


#: A table's retained state (tabled.daemon.snapshot): where it is, with no hidden information.
STATE = _schema(
    seq=_count(0, MAX_SEQ), ts=_opt(_timestamp), phase=_one_of(tuple(p.value for p in Phase)),
    round=_opt(_count(0, MAX_BOARD)), board=_opt(_count(0, MAX_BOARD)),
    boards_done=_opt(_count(0, MAX_BOARD)), boards_left=_opt(_count(0, MAX_BOARD)),
    director=_opt(_count(0, MAX_SEQ)), calls=_opt(_count(0, 400)), cards=_opt(_count(0, 52)))
MAX_STATE = 4096


def state_payload(snapshot: Mapping[str, Any]) -> bytes:
    """The retained state as the table publishes it, checked as the server will read it."""
    payload = _dump({"v": VERSION, **snapshot})
    state_from_payload(payload)
    return payload


def state_from_payload(payload: bytes | str) -> dict[str, Any]:
    """A table's retained state, validated: every field known and in range."""
    size = len(payload.encode() if isinstance(payload, str) else payload)
    if size > MAX_STATE:
        raise WireError(f"state of {size} bytes is too big")
    value = _load(payload, "state")
    del value["v"]
    return STATE.validate("state", value)


def clock_payload(clock: RoundClock) -> bytes:
    """The retained round clock (``clock_topic``), as the server publishes it."""
    payload = _dump({"v": VERSION, **clock.to_json()})
    clock_from_payload(payload)
    return payload


def clock_from_payload(payload: bytes | str) -> RoundClock:
    """The retained round clock, validated; it names its round."""
    value = _load(payload, "clock")
    del value["v"]
    data = CLOCK.validate("clock", value)
    if "round" not in data:
        raise WireError("clock: missing field 'round'")
    return RoundClock.from_json(data["round"], data)


# -- after the board (issue 32): what the server lets one table show --------------------------

def afterboard_topic(event: str, table: int | str) -> str:
    """``bidbox/v1/<event>/table/<t>/afterboard``: server -> that table only, retained: what
    its displays may show of the boards it finished (tablemodel.afterboard). Not a
    ``TOPIC_KINDS`` leaf: a table never writes it, and the server never reads it. ``table``
    may be the ACL's ``+``."""
    return f"{ROOT}/{event}/table/{table}/afterboard"


MAX_TRAVELLER = 500
"""Lines of one board's traveller: a Mitchell of 500 tables plays each board 500 times."""
MAX_AFTER_BOARDS = 40
"""Boards of one message: the newest a table finished (a session of 13 rounds of 3 has 39)."""
_SCORE_TEXT = _text(16)  # an artificial adjusted score as the director wrote it ("A60/40")
_PAIR = _count(0, 9999)
_TRICKS_DD = _count(0, 13)
_DD_SEATS = ("N", "E", "S", "W")


def _contract_text(value: Any) -> str:
    """A contract as laws writes one (``4HX``) or ``Pass``."""
    if not isinstance(value, str) or len(value) > 8:
        raise WireError(f"{value!r:.20} is not a contract")
    try:
        parse_contract(value)
    except RulesError as error:
        raise WireError(str(error)) from None
    return value


def _traveller_line(value: Any) -> list[Any]:
    """``[table, ns, ew, contract, declarer, tricks, score_ns, adjusted]``: a list, not an
    object, so that a traveller of a big field stays well inside the payload limit."""
    if not isinstance(value, list) or len(value) != 8:
        raise WireError(f"{value!r:.60} is not a traveller line of 8 fields")
    table, ns, ew, contract, declarer, tricks, score, adjusted = value
    return [_count(1, 9999)(table), _PAIR(ns), _PAIR(ew), _optional(_contract_text)(contract),
            _optional(SEAT)(declarer), _optional(TRICKS)(tricks),
            _optional(_count(-10000, 10000))(score), _optional(_SCORE_TEXT)(adjusted)]


def _percent_or_imps(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value) or not -1000 <= value <= 1000:
        raise WireError(f"{value!r:.20} is not a score on the board")
    return float(value)


_SHOWN_SCORE = _schema(ns=_percent_or_imps, ew=_percent_or_imps, unit=_one_of(("%", "imp")))


def _dd_tricks(value: Any) -> dict[str, list[int]]:
    """Seat -> the tricks it takes double dummy in C D H S NT."""
    if not isinstance(value, dict) or set(value) - set(_DD_SEATS):
        raise WireError(f"{value!r:.60} is not a map of seats to tricks")
    for numbers in value.values():
        if not isinstance(numbers, list) or len(numbers) != 5:
            raise WireError(f"{numbers!r:.40} is not five numbers of tricks")
        for n in numbers:
            _TRICKS_DD(n)
    return value


def _par(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or set(value) != {"score", "contracts"}:
        raise WireError(f"{value!r:.60} is not a par {{score, contracts}}")
    _count(-10000, 10000)(value["score"])
    contracts = value["contracts"]
    if not isinstance(contracts, list) or len(contracts) > 8:
        raise WireError("par: contracts is not a list of at most 8")
    for text in contracts:
        if text != "Pass":
            if not isinstance(text, str) or len(text) < 3:
                raise WireError(f"par contract {text!r:.20} is not a contract and seat")
            _contract_text(text[:-1])
            SEAT(text[-1])
    return value


def _traveller(value: Any) -> list[list[Any]]:
    if not isinstance(value, list) or len(value) > MAX_TRAVELLER:
        raise WireError(f"traveller is not a list of at most {MAX_TRAVELLER} lines")
    return [_traveller_line(line) for line in value]


_SHOWN_BOARD = _schema(board=BOARD, released=_bool, traveller=_opt(_traveller),
                       score=_opt(lambda v: _SHOWN_SCORE.validate("score", v)),
                       tricks=_opt(_dd_tricks), par=_opt(_par))
_SHOWN_PAGES = _schema(score=_bool, traveller=_bool, record=_bool)


def _shown_boards(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or len(value) > MAX_AFTER_BOARDS:
        raise WireError(f"boards is not a list of at most {MAX_AFTER_BOARDS}")
    return [_SHOWN_BOARD.validate("board", board) for board in value]


AFTERBOARD = _schema(table=_count(1, 9999),
                     show=lambda v: _SHOWN_PAGES.validate("show", v), boards=_shown_boards)


def afterboard_board(value: Mapping[str, Any]) -> Mapping[str, Any]:
    """One board of an after-board message, checked as a table will read it (the server
    checks each board's part once, not once for every table it goes to)."""
    _SHOWN_BOARD.validate("board", value)
    return value


def afterboard_payload(value: Mapping[str, Any], *, boards_checked: bool = False) -> bytes:
    """What the server publishes on ``afterboard_topic``, checked as the table will read it;
    ``boards_checked``: each board already passed :func:`afterboard_board`, so only the
    rest and the size are checked here."""
    payload = _dump({"v": VERSION, **value})
    if not boards_checked:
        afterboard_from_payload(payload)
        return payload
    _load(payload, "afterboard")  # the size, the version
    AFTERBOARD.validate("afterboard", {**value, "boards": []})
    if len(value["boards"]) > MAX_AFTER_BOARDS:
        raise WireError(f"boards is not a list of at most {MAX_AFTER_BOARDS}")
    return payload


@dataclass(frozen=True)
class Line:
    """One table's result on a traveller: pairs, contract (``4HX``, ``Pass``; None for an
    artificial adjusted score, then ``adjusted`` says it), declarer, tricks, North-South's
    score."""

    table: int
    ns: int
    ew: int
    contract: str | None
    declarer: str | None
    tricks: int | None
    score_ns: int | None
    adjusted: str | None = None


@dataclass(frozen=True)
class Shown:
    """What the table may show of one board it finished. ``released``: the release rule lets
    the room see its results; nothing else is sent otherwise. ``score``: this table's pair
    scores on it, North-South's and East-West's, as ``unit`` says (``%`` or ``imp``);
    ``tricks``: double-dummy tricks, seat -> five numbers in the order of
    ``tablemodel.afterboard.DD_STRAINS``;
    ``par``: par from North-South's side, with its contracts (``4SN``)."""

    board: int
    released: bool
    traveller: tuple[Line, ...] = ()
    score: tuple[float, float] | None = None
    unit: str = "%"
    tricks: Mapping[str, tuple[int, ...]] | None = None
    par: int | None = None
    par_contracts: tuple[str, ...] = ()


@dataclass(frozen=True)
class AfterBoard:
    """The server's word to one table: which pages the director turned on, this table's
    number (to mark its own line) and what it may show of each board it finished."""

    table: int
    score: bool = True
    traveller: bool = True
    record: bool = True
    boards: tuple[Shown, ...] = ()

    @property
    def on(self) -> bool:
        return self.score or self.traveller or self.record

    def of(self, board: int) -> Shown | None:
        return next((b for b in self.boards if b.board == board), None)


def afterboard_from_payload(payload: bytes | str) -> AfterBoard:
    """The server's word to a table after its boards, validated, as an :class:`AfterBoard`."""
    value = _load(payload, "afterboard")
    del value["v"]
    data = AFTERBOARD.validate("afterboard", value)
    boards = []
    for board in data["boards"]:
        score = board.get("score")
        par = board.get("par")
        tricks = board.get("tricks")
        boards.append(Shown(
            board["board"], board["released"],
            tuple(Line(*line) for line in board.get("traveller") or ()),
            None if score is None else (score["ns"], score["ew"]),
            "%" if score is None else score["unit"],
            None if tricks is None else {seat: tuple(n) for seat, n in tricks.items()},
            None if par is None else par["score"],
            () if par is None else tuple(par["contracts"])))
    show = data["show"]
    return AfterBoard(data["table"], show["score"], show["traveller"], show["record"],
                      tuple(boards))
