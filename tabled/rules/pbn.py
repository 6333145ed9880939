"""PBN 2.1 (Portable Bridge Notation): read games into a visitor, write records back.

The reader takes a game at a time (games are separated by an empty line), so a large file
streams. It follows the standard and the habits of real archives: ``%`` lines, ``;`` and
``{...}`` commentary (which real files nest), escapes in tag values, ``#`` and ``##``
inheritance (PBN 4.8), and games that omit the tags of the board they share with the previous
game. Nothing is checked against the Laws; text it cannot read is reported as a problem.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Generic, TypeVar, overload

from .board import Deal, Vulnerability
from .calls import PASS, Call
from .cards import Card, Seat
from .errors import InvalidNotationError, RecordError
from .records import (
    Record,
    RecordBuilder,
    Source,
    Visitor,
    decode,
    lines_of,
    passes_to_close,
    split_note,
)

T = TypeVar("T")

#: The tags of the identification section, in the order PBN export format writes them.
MANDATORY_TAGS = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
                  "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")

# PBN 4.8: "#" may not stand for these; we still inherit, and report it.
_NO_INHERITANCE = frozenset({"Dealer", "Vulnerable", "Deal", "Declarer", "Contract",
                             "Auction", "Play"})
# What one table did: a game that continues the previous board never inherits these.
_PER_TABLE = frozenset({"Room", "Table", "Declarer", "Contract", "Result", "Auction", "Play",
                        "Time", "UTCTime", "Termination", "ActionTable", "AuctionTimeTable",
                        "PlayTimeTable"})
_PLAYER_PREFIXES = ("West", "North", "East", "South", "Score", "BidSystem")

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_WORD = re.compile(r"[^\s\[{;]+")
_ANNOTATION = re.compile(r"(=\d+=|\$\d+|[!?]+)")
_NOTE_REF = re.compile(r"=(\d+)=")
_NO_CARD = re.compile(r"-+")


def _is_per_table(name: str) -> bool:
    return name in _PER_TABLE or name.startswith(_PLAYER_PREFIXES)


def _is_table(name: str) -> bool:
    """A supplemental section (PBN 5): its rows follow the tag."""
    return name.endswith("Table")


def _unescape(value: str) -> str:
    return re.sub(r'\\([\\"])', r"\1", value)


def _escape(value: str) -> str:
    # Only backslashes that would be read as escapes are doubled, so "\2R" in a table header
    # stays as real files write it; tag values are one line.
    value = " ".join(value.splitlines())
    return re.sub(r'\\(?=[\\"]|$)', r"\\\\", value).replace('"', '\\"')


# -- reading -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "tag", "word", "comment", "eol", "error"
    line: int
    text: str = ""
    value: str = ""  # a tag's value
    start: int = 0  # a word's columns
    end: int = 0


class _Lexer:
    """Splits lines into tokens; commentary in braces may span lines and nest."""

    def __init__(self) -> None:
        self.depth = 0
        self.parts: list[str] = []
        self.opened = 0  # the line of the open brace

    def lex(self, number: int, text: str) -> list[_Token]:
        tokens: list[_Token] = []
        if self.depth == 0 and text.startswith("%"):
            return tokens  # an escape line (PBN 2.4): directives for other programs
        if self.depth > 0 and not text:
            self.parts.append("")  # an empty line inside commentary is part of it
        i = 0
        while i < len(text):
            if self.depth > 0:
                i = self._commentary(number, text, i, tokens)
                continue
            char = text[i]
            if char.isspace():
                i += 1
            elif char == "{":
                self.depth, self.parts, self.opened = 1, [], number
                i += 1
            elif char == ";":
                tokens.append(_Token("comment", number, text[i + 1:].strip()))
                break
            elif char == "[":
                match = _TAG.match(text, i)
                if match is None:
                    tokens.append(_Token("error", number, f"not a tag: {text[i:].strip()!r}"))
                    break
                tokens.append(_Token("tag", number, match.group(1), _unescape(match.group(2))))
                i = match.end()
            else:
                word = _WORD.match(text, i)
                assert word is not None  # any other character starts a word
                tokens.append(_Token("word", number, word.group(), start=i, end=word.end()))
                i = word.end()
        tokens.append(_Token("eol", number))
        return tokens

    def _commentary(self, number: int, text: str, i: int, tokens: list[_Token]) -> int:
        start = i
        while i < len(text):
            if text[i] == "{":
                self.depth += 1
            elif text[i] == "}":
                self.depth -= 1
                if self.depth == 0:
                    self.parts.append(text[start:i])
                    tokens.append(_Token("comment", number, "\n".join(self.parts).strip()))
                    return i + 1
            i += 1
        self.parts.append(text[start:])
        return i

    def close(self, number: int) -> list[_Token]:
        if self.depth == 0:
            return []
        self.depth = 0
        return [_Token("error", self.opened, "commentary in braces is not closed"),
                _Token("comment", number, "\n".join(self.parts).strip())]


class _AuctionSection:
    """The calls after an Auction tag; AP is told as the passes it stands for."""

    def __init__(self, visitor: Visitor[object]) -> None:
        self.visitor = visitor
        self.calls: list[Call] = []
        self.pending: tuple[Call, bool, int | None, list[str]] | None = None
        self.ended = False

    def _flush(self) -> None:
        if self.pending is not None:
            call, alert, ref, nags = self.pending
            self.visitor.call(call, alert, ref, tuple(nags))
            self.pending = None

    def _start(self, call: Call) -> None:
        self._flush()
        self.calls.append(call)
        self.pending = (call, False, None, [])

    def word(self, token: _Token) -> None:
        for piece in filter(None, _ANNOTATION.split(token.text)):
            self._piece(piece, token.line)

    def _piece(self, piece: str, line: int) -> None:
        where = f"line {line}"
        if _ANNOTATION.fullmatch(piece):
            if self.pending is None:
                self.visitor.problem(f"{where}: annotation {piece!r} follows no call")
                return
            call, alert, ref, nags = self.pending
            note = _NOTE_REF.fullmatch(piece)
            if piece == "!":
                alert = True
            elif note is None:
                nags.append(piece)
            elif ref is None:
                ref = int(note.group(1))
            else:
                self.visitor.problem(f"{where}: a second note {piece} on {call}; kept ={ref}=")
            self.pending = (call, alert, ref, nags)
        elif piece == "*":
            self._flush()
            self.ended = True
        elif piece == "-":
            pass  # PBN's filler for a call not made; nothing to record
        elif piece.upper() == "AP":
            if self.ended:
                self.visitor.problem(f"{where}: AP after the end of the auction")
                return
            for _ in range(passes_to_close(self.calls)):
                self._start(PASS)
            self.ended = True
        else:
            try:
                call = Call.from_str(piece)
            except InvalidNotationError:
                self.visitor.problem(f"{where}: not a call in the auction: {piece!r}")
                return
            if self.ended:
                self.visitor.problem(f"{where}: {piece!r} after the end of the auction")
                return
            self._start(call)

    def finish(self) -> None:
        self._flush()


class _PlaySection:
    """The rows after a Play tag: four columns, clockwise from the Play tag's seat."""

    def __init__(self, visitor: Visitor[object], leader: Seat | None) -> None:
        self.visitor = visitor
        self.leader = leader
        self.row: list[Card | None] = []
        self.ended = False
        self.skipping = False
        self.line = 0

    def word(self, token: _Token) -> None:
        where = f"line {token.line}"
        if self.leader is None:
            if not self.skipping:
                self.visitor.problem(f"{where}: a play section without a leading seat; skipped")
                self.skipping = True
            return
        for piece in filter(None, _ANNOTATION.split(token.text)):
            if _ANNOTATION.fullmatch(piece):
                continue  # annotations of cards are not kept
            if piece == "*":
                self._emit(token.line)
                self.ended = True
            elif self.ended:
                self.visitor.problem(f"{where}: {piece!r} after the end of the play")
            elif _NO_CARD.fullmatch(piece):
                if piece != "-":
                    self.visitor.problem(f"{where}: {piece!r} read as '-' (no card)")
                self._add(None, token.line)
            else:
                try:
                    self._add(Card.from_str(piece), token.line)
                except InvalidNotationError:
                    self.visitor.problem(f"{where}: not a card in the play: {piece!r}")
                    self._add(None, token.line)

    def _add(self, card: Card | None, line: int) -> None:
        self.row.append(card)
        if len(self.row) == 4:
            self._emit(line)

    def _emit(self, line: int) -> None:
        if not self.row or self.leader is None:
            return
        if len(self.row) < 4:
            self.visitor.problem(f"line {line}: a play row of {len(self.row)} columns, not 4")
        seats = Seat.clockwise_from(self.leader)
        cards = zip(seats, self.row, strict=False)  # a short row leaves the last seats out
        self.visitor.trick({seat: card for seat, card in cards if card})
        self.row = []

    def eol(self, line: int) -> None:
        self.line = line
        self._emit(line)

    def finish(self) -> None:
        self._emit(self.line)


class _Reader(Generic[T]):
    """Groups lines into games, resolves inheritance, and tells a visitor each game."""

    def __init__(self, visitor: Visitor[T]) -> None:
        self.visitor = visitor
        self.lexer = _Lexer()
        self.tokens: list[_Token] = []
        self.texts: dict[int, str] = {}
        self.index = 0
        self.previous: dict[str, str] | None = None
        self.previous_sections: dict[str, list[str]] = {}
        self.history: dict[str, str] = {}  # the latest real value of each tag
        self.headers: dict[str, str] = {}  # tags set with "##" for all later games

    def feed(self, number: int, text: str) -> Iterator[T]:
        if self.lexer.depth == 0 and not text.strip():
            if any(token.kind == "tag" for token in self.tokens):
                yield self._game()
            return
        self.texts[number] = text
        self.tokens.extend(self.lexer.lex(number, text))

    def close(self, number: int) -> Iterator[T]:
        self.tokens.extend(self.lexer.close(number))
        if any(token.kind == "tag" for token in self.tokens):
            yield self._game()

    def _resolve(self, name: str, value: str, line: int) -> str:
        if not value.startswith("#"):
            return value
        if name in _NO_INHERITANCE:
            self.visitor.problem(f"line {line}: PBN forbids '#' in the {name} tag; inherited")
        if value.startswith("##") and value[2:]:
            self.headers[name] = value[2:]
            return value[2:]
        if value in ("#", "##"):
            inherited = self.history.get(name, "")
            if value == "##":
                self.headers[name] = inherited
            return inherited
        return value

    def _game(self) -> T:
        tokens, self.tokens = self.tokens, []
        texts, self.texts = self.texts, {}
        visitor = self.visitor
        first, last = tokens[0].line, tokens[-1].line
        visitor.begin_record(self.index, first)
        self.index += 1

        own: dict[str, str] = {}
        for token in tokens:
            if token.kind == "tag" and token.text != "Note" and token.text not in own:
                own[token.text] = self._resolve(token.text, token.value, token.line)
        inherited: dict[str, str] = {n: v for n, v in self.headers.items() if n not in own}
        sections: dict[str, list[str]] = {}
        previous = self.previous
        if previous is not None and "Deal" not in own and (
                "Board" not in own or own["Board"] == previous.get("Board")):
            for name, value in previous.items():
                if name not in own and name not in inherited and not _is_per_table(name):
                    inherited[name] = value
        for name, value in inherited.items():
            visitor.tag(name, value)
            for row in self.previous_sections.get(name, []):
                visitor.section_row(name, row)
                sections.setdefault(name, []).append(row)

        self._walk(tokens, own, texts, sections)
        self.previous = {**inherited, **own}
        self.previous_sections = sections
        self.history.update(self.previous)
        return visitor.end_record(last)

    def _walk(self, tokens: list[_Token], own: dict[str, str], texts: dict[int, str],
              sections: dict[str, list[str]]) -> None:
        visitor = self.visitor
        seen: set[str] = set()
        section: str | None = None
        auction: _AuctionSection | None = None
        play: _PlaySection | None = None
        after_play = False
        words: list[_Token] = []
        for token in tokens:
            if token.kind == "word":
                if auction is not None:
                    auction.word(token)
                elif play is not None:
                    play.word(token)
                else:
                    words.append(token)
                continue
            if token.kind == "eol":
                if play is not None:
                    play.eol(token.line)
                if words:
                    row = texts[token.line][words[0].start:words[-1].end]
                    if section is not None and _is_table(section):
                        visitor.section_row(section, row)
                        sections.setdefault(section, []).append(row)
                    elif section != "":
                        visitor.problem(f"line {token.line}: text outside a section: {row!r}")
                    words = []
                continue
            if token.kind == "comment":
                visitor.commentary(token.text)
                continue
            if token.kind == "error":
                visitor.problem(f"line {token.line}: {token.text}")
                continue
            # a tag ends the section before it
            if auction is not None:
                auction.finish()
                auction = None
            if play is not None:
                play.finish()
                play = None
                after_play = True
            name = token.text
            if name == "Note":
                section = None
                note = split_note(token.value)
                if note is None:
                    visitor.problem(f"line {token.line}: a Note without a number: "
                                    f"{token.value!r}")
                elif after_play:
                    visitor.play_note(*note)
                else:
                    visitor.note(*note)
                continue
            if name in seen:
                visitor.problem(f"line {token.line}: the {name} tag again; the first is kept")
                section = ""  # its section, if any, is skipped quietly
                continue
            seen.add(name)
            section = name
            visitor.tag(name, own[name])
            if name == "Auction":
                auction = _AuctionSection(visitor)
            elif name == "Play":
                try:
                    leader: Seat | None = Seat.from_str(own[name])
                except InvalidNotationError:
                    leader = None
                play = _PlaySection(visitor, leader)
        if auction is not None:
            auction.finish()
        if play is not None:
            play.finish()


@overload
def iter_records(source: Source) -> Iterator[Record]: ...


@overload
def iter_records(source: Source, visitor: Visitor[T]) -> Iterator[T]: ...


def iter_records(source: Source,
                 visitor: Visitor[T] | None = None) -> Iterator[T] | Iterator[Record]:
    """Read games one at a time, telling ``visitor`` (a :class:`RecordBuilder` by default)
    each game and yielding what it returns. ``source`` is text, bytes, or lines."""
    if visitor is None:
        return _read(source, RecordBuilder())
    return _read(source, visitor)


def _read(source: Source, visitor: Visitor[T]) -> Iterator[T]:
    reader = _Reader(visitor)
    number = 0
    for number, text in enumerate(lines_of(source), 1):
        yield from reader.feed(number, text)
    yield from reader.close(number)


def loads(text: str | bytes) -> list[Record]:
    return list(iter_records(text))


def load(fp: IO[str] | IO[bytes]) -> list[Record]:
    """Read an open file, text or binary (bytes are UTF-8, else Latin-1)."""
    data = fp.read()
    return loads(decode(data) if isinstance(data, bytes) else data)


def load_path(path: str | os.PathLike[str]) -> list[Record]:
    return loads(Path(path).read_bytes())


# -- writing -------------------------------------------------------------------------------


def dumps(records: Iterable[Record], *, newline: str = "\n") -> str:
    """PBN 2.1: the identification tags in the standard order, then the auction with its
    notes, the play, and the other tags as read, a blank line after each game."""
    lines = ["% PBN 2.1"]
    for record in records:
        lines.extend(_game_lines(record))
        lines.append("")
    return newline.join(lines) + newline


def dump(records: Iterable[Record], fp: IO[str], *, newline: str = "\n") -> None:
    fp.write(dumps(records, newline=newline))


def _kept(old: str | None, new: object, parse: Callable[[str], object]) -> bool:
    """Whether the tag's text already says ``new`` (so it is written as it was read)."""
    if old is None:
        return False
    try:
        return parse(old.strip()) == new
    except ValueError:
        return False


def _tag_values(record: Record) -> dict[str, str]:
    values = dict(record.tags)
    values.pop("Note", None)

    def put(name: str, new: object, parse: Callable[[str], object], text: str) -> None:
        if new is not None and not _kept(values.get(name), new, parse):
            values[name] = text

    put("Board", record.board, int, str(record.board))
    put("Dealer", record.dealer, Seat.from_str, str(record.dealer))
    put("Vulnerable", record.vulnerability, Vulnerability.from_str, str(record.vulnerability))
    if record.deal is not None:
        put("Deal", record.deal, Deal.from_pbn, record.deal.to_pbn(record.dealer or Seat.N))
    for name, raw in (("Declarer", record.declarer_tag), ("Contract", record.contract_tag),
                      ("Result", record.result_tag), ("Score", record.score_tag)):
        if raw is not None:
            values[name] = raw
    first = record.auction_dealer or (record.dealer if record.auction else None)
    if record.auction and first is None:
        raise RecordError("an auction needs the seat of its first call (auction_dealer)")
    put("Auction", first, Seat.from_str, str(first))
    if record.play and record.play_leader is None:
        raise RecordError("a play section needs the seat that led (play_leader)")
    put("Play", record.play_leader, Seat.from_str, str(record.play_leader))
    return values


def _game_lines(record: Record) -> list[str]:
    values = _tag_values(record)
    order = [name for name in MANDATORY_TAGS if name in values]
    order += [name for name in ("Auction", "Play") if name in values]
    order += [name for name in values if name not in order]
    lines: list[str] = []
    for name in order:
        lines.append(f'[{name} "{_escape(values[name])}"]')
        if name == "Auction":
            lines.extend(_auction_lines(record))
        elif name == "Play":
            lines.extend(_play_lines(record))
        lines.extend(record.sections.get(name, []))
    for text in record.commentary:
        lines.extend(_commentary_lines(text))
    return lines


def _auction_lines(record: Record) -> list[str]:
    notes = dict(record.notes)
    next_free = max(notes, default=0) + 1
    tokens: list[str] = []
    for item in record.auction:
        ref = item.note_ref
        if ref is None and item.note is not None:
            ref, next_free = next_free, next_free + 1
        if ref is not None and item.note is not None:
            notes.setdefault(ref, item.note)
        parts = [str(item.call)] + ["!"] * item.alert
        parts += [f"={ref}="] * (ref is not None) + list(item.nags)
        tokens.append(" ".join(parts))
    lines = [" ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)]
    if record.auction and not record.auction_complete:
        lines.append("*")
    lines += [f'[Note "{number}:{_escape(text)}"]' for number, text in notes.items()]
    return lines


def _play_lines(record: Record) -> list[str]:
    lines: list[str] = []
    if record.play_leader is not None:
        seats = Seat.clockwise_from(record.play_leader)
        for trick in record.play:
            lines.append(" ".join(str(trick[seat]) if seat in trick else "-" for seat in seats))
        if record.play and (len(record.play) < 13 or any(len(t) < 4 for t in record.play)):
            lines.append("*")
    lines += [f'[Note "{number}:{_escape(text)}"]' for number, text in record.play_notes.items()]
    return lines


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _commentary_lines(text: str) -> list[str]:
    if _balanced(text):
        return ("{" + text + "}").split("\n")
    # No brace can be escaped: unbalanced text goes out as ";" comments, one per line.
    return ["; " + line for line in text.split("\n")]
