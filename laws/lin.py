"""LIN (Bridge Base Online): read boards into a visitor, write records one board per line.

LIN is a stream of ``key|value|`` pairs. A single-deal file has a board per line, each
starting with ``pn``; a vugraph file has a header (``vg``, ``rs``, ``pn``) and then boards
that each start with ``qx|o1|`` or ``qx|c1|`` (open or closed room, board 1), over as many
lines as the operator typed. The reader finds where each board starts, gathers its pairs,
and tells a visitor the board with PBN's tag names, so one :class:`Record` serves both formats.

Cards are kept in the order played (``play_sequence``): who played each depends on the
winner of the trick before, which is the engine's business (Law 44), not the reader's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Generic, TypeVar

from .board import Deal, Hand, Vulnerability
from .calls import DOUBLE, PASS, REDOUBLE, Call
from .cards import Card, Rank, Seat, Suit
from .errors import InvalidDealError, InvalidNotationError
from .records import Reading, Record, Visitor

T = TypeVar("T")

# md: the dealer's digit, then the hands in this order.
_HAND_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)
_DEALER_DIGIT = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}
_DIGIT_OF = {seat: digit for digit, seat in _DEALER_DIGIT.items()}
_VULNERABILITY = {Vulnerability.NONE: "o", Vulnerability.NS: "n", Vulnerability.EW: "e",
                  Vulnerability.BOTH: "b"}
_SCORING = {"I": "IMP", "P": "MP", "B": "BAM"}  # vg's third field
_SCORING_LETTER = {name: letter for letter, name in _SCORING.items()}
_ROOM = {"o": "Open", "c": "Closed"}
_ROOM_LETTER = {name: letter for letter, name in _ROOM.items()}
_PLAYER_TAGS = ("South", "West", "North", "East")  # pn's order
_VG_TAGS = ("Event", "Stage", "HomeTeam", "VisitTeam")

_SESSION = frozenset({"vg", "rs", "bn", "pw", "px", "mp"})  # header: the whole session
# Layout, chat and client state that say nothing about the board.
_IGNORED = frozenset({"st", "rh", "pg", "sk", "mn", "hs", "pf", "up", "cr", "cg", "at"})
_SUBSTANTIAL = frozenset({"md", "mb", "pc", "mc", "ah", "sv"})  # what makes a board a board
_NUMBER = re.compile(r"\d+")


@dataclass
class _Board:
    pairs: list[tuple[str, str, int]] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def has(self, *keys: str) -> bool:
        return any(key in keys for key, _, _ in self.pairs)


def _vugraph_tags(value: str) -> dict[str, str]:
    """vg: event, segment, scoring (I, P, B), first and last board, team, carry-over,
    team, carry-over. The board range and carry-overs are not tags of a game."""
    fields = [part.strip() for part in value.split(",")] + [""] * 9
    tags = {"Event": fields[0], "Stage": fields[1], "Scoring": _SCORING.get(fields[2], ""),
            "HomeTeam": fields[5], "VisitTeam": fields[7]}
    return {name: text for name, text in tags.items() if text}


def _hand(text: str) -> Hand:
    """A hand as LIN writes it: ``SKH4579QKAD69C58K`` (a suit letter, then its ranks)."""
    cards: list[Card] = []
    suit: Suit | None = None
    text = text.strip().upper().replace("10", "T")
    for char in text:
        if char in "SHDC":
            suit = Suit.from_str(char)
            continue
        if suit is None:
            raise InvalidDealError("lin_rank_before_suit", text=text)
        try:
            cards.append(Card(suit, Rank.from_str(char)))
        except InvalidNotationError:
            raise InvalidDealError("lin_bad_rank", char=char, text=text) from None
    hand = frozenset(cards)
    if len(hand) != len(cards):
        raise InvalidDealError("lin_card_twice", text=text)
    return hand


def _deal(value: str, problems: list[str], where: str) -> tuple[Seat | None, Deal | None]:
    """md: the dealer's digit (1=S, 2=W, 3=N, 4=E), then S, W, N, E hands; a fourth hand
    left out follows from the other three."""
    text = value.strip()
    dealer: Seat | None = None
    if text[:1].isdigit():
        dealer = _DEALER_DIGIT.get(text[0])
        if dealer is None:
            problems.append(f"{where}: md dealer {text[0]!r} is not 1 to 4")
        text = text[1:]
    hands: dict[Seat, Hand] = {}
    for seat, part in zip(_HAND_ORDER, text.split(","), strict=False):
        try:
            hand = _hand(part)
        except InvalidDealError as error:
            problems.append(f"{where}: {error}")
            continue
        if hand:
            hands[seat] = hand
    if not hands:
        return dealer, None
    try:
        return dealer, Deal(hands).completed()
    except InvalidDealError as error:
        problems.append(f"{where}: md {value!r}: {error}")
        return dealer, None


def _call(value: str) -> tuple[Call, bool]:
    """mb: ``p``, ``d``, ``r``, ``1N``..., with ``!`` when the call was alerted."""
    text = value.strip()
    alert = text.endswith("!")
    return Call.from_str(text.rstrip("!")), alert


class _Reader(Generic[T]):
    """Splits the pair stream into boards and tells a visitor each board."""

    def __init__(self, visitor: Visitor[T]) -> None:
        self.visitor = visitor
        self.index = 0
        self.rest = ""  # text of a pair not yet closed by its second bar
        self.session: dict[str, str] = {}
        self.players: list[str] = []
        self.vugraph = False  # a qx has been seen: boards start at qx or md, not at pn
        self.board = _Board()
        self.first = self.last = 0

    def feed(self, number: int, text: str) -> Iterator[T]:
        if not self.rest.strip():
            self.rest = ""
        self.rest = f"{self.rest}\n{text}" if self.rest else text
        while True:
            bar = self.rest.find("|")
            end = self.rest.find("|", bar + 1) if bar >= 0 else -1
            if end < 0:
                return
            key, value = self.rest[:bar].strip().lower(), self.rest[bar + 1:end]
            self.rest = self.rest[end + 1:]
            yield from self._pair(key, value, number)

    def close(self, number: int) -> Iterator[T]:
        if self.rest.strip():
            self.board.problems.append(f"line {number}: an unfinished pair {self.rest.strip()!r}")
        if self.board.has(*_SUBSTANTIAL):
            yield self._finish()

    def _add(self, key: str, value: str, line: int) -> None:
        if not self.board.pairs:
            self.board.players = list(self.players)
            self.first = line
        self.board.pairs.append((key, value, line))
        self.last = line

    def _pair(self, key: str, value: str, line: int) -> Iterator[T]:
        board = self.board
        substantial = board.has(*_SUBSTANTIAL)
        if key in _SESSION:
            if substantial:
                yield self._finish()
            if key == "vg":
                self.session = _vugraph_tags(value)
        elif key == "qx":
            if substantial or board.has("qx"):
                yield self._finish()
            self.vugraph = True
            self._add(key, value, line)
        elif key == "pn":
            if not self.vugraph and substantial:
                yield self._finish()
            self.players = [name.strip() for name in value.split(",")]
            if not self.board.has(*_SUBSTANTIAL):  # not yet dealt: these are its players
                self.board.players = list(self.players)
        elif key in _IGNORED:
            pass
        else:
            if (key == "md" and board.has("md", "mb", "pc")) or (
                    key == "ah" and board.has("ah", "mb", "pc")):
                yield self._finish()  # a second deal or title is the next board's
            self._add(key, value, line)

    def _finish(self) -> T:
        board, self.board = self.board, _Board()
        visitor = self.visitor
        visitor.begin_record(self.index, self.first)
        self.index += 1
        tags = dict(self.session)
        problems = list(board.problems)
        dealer: Seat | None = None
        deal: Deal | None = None
        vulnerability: Vulnerability | None = None
        room: str | None = None
        number: str | None = None
        calls: list[tuple[Call, bool, list[str]]] = []
        cards: list[Card] = []
        claim: int | None = None
        commentary: list[str] = []
        for key, value, line in board.pairs:
            where = f"line {line}"
            if key == "qx":
                room = _ROOM.get(value.strip()[:1].lower())
                digits = _NUMBER.search(value)
                number = digits.group() if digits else number
            elif key == "md":
                dealer, deal = _deal(value, problems, where)
            elif key == "sv":
                try:
                    vulnerability = Vulnerability.from_str(value)
                except InvalidNotationError:
                    problems.append(f"{where}: sv {value!r} is not a vulnerability")
            elif key == "ah":
                digits = _NUMBER.search(value)
                if digits and number is None:
                    number = digits.group()
            elif key == "mb":
                try:
                    call, alert = _call(value)
                except InvalidNotationError:
                    problems.append(f"{where}: mb {value!r} is not a call")
                    continue
                calls.append((call, alert, []))
            elif key == "an":
                if not calls:
                    problems.append(f"{where}: an explanation before any call: {value!r}")
                elif value.strip():
                    calls[-1][2].append(value.strip())
            elif key == "pc":
                try:
                    cards.append(Card.from_str(value))
                except InvalidNotationError:
                    problems.append(f"{where}: pc {value!r} is not a card")
            elif key == "mc":
                try:
                    claim = int(value)
                except ValueError:
                    problems.append(f"{where}: mc {value!r} is not a number of tricks")
            elif key == "nt":
                if value.strip():
                    commentary.append(value.strip())
            else:
                problems.append(f"{where}: unknown LIN key {key!r} ignored")

        players = board.players[4:8] if room == "Closed" and len(board.players) >= 8 \
            else board.players[:4]
        if number is not None:
            tags["Board"] = str(int(number))
        for name, player in zip(_PLAYER_TAGS, players, strict=False):
            if player:
                tags[name] = player
        if room is not None:
            tags["Room"] = room
        if dealer is not None:
            tags["Dealer"] = str(dealer)
        if vulnerability is not None:
            tags["Vulnerable"] = str(vulnerability)
        if deal is not None:
            tags["Deal"] = deal.to_pbn(dealer or Seat.N)
        if calls:
            if dealer is None:
                problems.append("calls without a dealer (md gives none)")
            else:
                tags["Auction"] = str(dealer)
        for name, value in tags.items():
            visitor.tag(name, value)
        ref = 0
        for call, alert, notes in calls:
            if notes:
                ref += 1
                visitor.call(call, alert, ref, ())
                visitor.note(ref, " ".join(notes))
            else:
                visitor.call(call, alert, None, ())
        for card in cards:
            visitor.card(card)
        if claim is not None:
            visitor.claim(claim)
        for text in commentary:
            visitor.commentary(text)
        for problem in problems:
            visitor.problem(problem)
        return visitor.end_record(self.last)


def _read(lines: Iterator[str], visitor: Visitor[T]) -> Iterator[T]:
    reader = _Reader(visitor)
    number = 0
    for number, text in enumerate(lines, 1):
        yield from reader.feed(number, text)
    yield from reader.close(number)


_READING = Reading(_read)
iter_records = _READING.iter_records
loads = _READING.loads
load = _READING.load


# -- writing -------------------------------------------------------------------------------


def _text(value: str, *, comma: bool = False) -> str:
    """LIN has no escapes: a bar would end the value, a comma split a list, a line end the
    board. They become a slash, a space and a space."""
    value = " ".join(value.replace("|", "/").splitlines())
    return value.replace(",", " ") if comma else value


def _lin_call(call: Call) -> str:
    if call == PASS:
        return "p"
    if call == DOUBLE:
        return "d"
    if call == REDOUBLE:
        return "r"
    return str(call).replace("NT", "N")


def _lin_hand(hand: Hand) -> str:
    return "".join(suit.name + "".join(card.rank.char for card in sorted(hand, reverse=True)
                                       if card.suit is suit)
                   for suit in (Suit.S, Suit.H, Suit.D, Suit.C))


def dumps(records: Iterable[Record], *, newline: str = "\n") -> str:
    """One board per line. Every line names its session (vg) and players (pn) when any
    board has them, so that no board inherits another's."""
    records = list(records)
    with_vg = any(_vugraph_value(record) is not None for record in records)
    with_pn = any(name in record.tags for record in records for name in _PLAYER_TAGS)
    return "".join(_board_line(record, with_vg, with_pn) + newline for record in records)


def dump(records: Iterable[Record], fp: IO[str], *, newline: str = "\n") -> None:
    fp.write(dumps(records, newline=newline))


def _vugraph_value(record: Record) -> str | None:
    tags = record.tags
    scoring = _SCORING_LETTER.get(tags.get("Scoring", ""), "")
    if not scoring and not any(tags.get(name) for name in _VG_TAGS):
        return None
    board = str(record.board or "")
    fields = [tags.get("Event", ""), tags.get("Stage", ""), scoring, board, board,
              tags.get("HomeTeam", ""), "0", tags.get("VisitTeam", ""), "0"]
    return ",".join(_text(part, comma=True) for part in fields)


def _board_line(record: Record, with_vg: bool, with_pn: bool) -> str:
    pairs: list[tuple[str, str]] = []
    if with_vg:
        pairs.append(("vg", _vugraph_value(record) or ",,,,,,,,"))
    room = _ROOM_LETTER.get(record.tags.get("Room", ""))
    if room is not None:
        pairs.append(("qx", f"{room}{record.board or ''}"))
    if with_pn:
        names = [_text(record.tags.get(name, ""), comma=True) for name in _PLAYER_TAGS]
        pairs.append(("pn", ",".join(names)))
    digit = _DIGIT_OF[record.dealer] if record.dealer is not None else ""
    hands = ""
    if record.deal is not None:
        hands = ",".join(_lin_hand(record.deal.hands[seat]) if seat in record.deal else ""
                         for seat in _HAND_ORDER)
    pairs.append(("md", digit + hands))  # always: it is where a board starts
    if record.vulnerability is not None:
        pairs.append(("sv", _VULNERABILITY[record.vulnerability]))
    if record.board is not None:
        pairs.append(("ah", f"Board {record.board}"))
    for item in record.auction:
        pairs.append(("mb", _lin_call(item.call) + "!" * item.alert))
        note = item.note if item.note is not None else record.notes.get(item.note_ref or -1)
        if note:
            pairs.append(("an", _text(note)))
    for i, card in enumerate(record.play_sequence):
        if i % 4 == 0:
            pairs.append(("pg", ""))
        pairs.append(("pc", str(card)))
    if record.claim is not None:
        pairs.append(("mc", str(record.claim)))
    for text in record.commentary:
        pairs.append(("nt", _text(text)))
    return "".join(f"{key}|{value}|" for key, value in pairs)
