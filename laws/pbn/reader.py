"""PBN 2.1 (Portable Bridge Notation): read games into a visitor.

The reader takes a game at a time (games are separated by an empty line), so a large file
streams. It follows the standard and the habits of real archives: ``%`` lines, ``;`` and
``{...}`` commentary (which real files nest), escapes in tag values, ``#`` and ``##``
inheritance (PBN 4.8), and games that omit the tags of the board they share with the previous
game. Nothing is checked against the Laws; text it cannot read is reported as a problem.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Generic, TypeVar

from ..calls import PASS, Call
from ..cards import Card, Seat
from ..errors import InvalidNotationError
from ..records import Reading, Record, Visitor, passes_to_close, split_note

T = TypeVar("T")

# PBN 4.8: "#" may not stand for these; we still inherit, and report it.
_NO_INHERITANCE = frozenset({"Dealer", "Vulnerable", "Deal", "Declarer", "Contract",
                             "Auction", "Play"})
# What one table did: a game that continues the previous board never inherits these.
_PER_TABLE = frozenset({"Room", "Table", "Declarer", "Contract", "Result", "Auction", "Play",
                        "Time", "UTCTime", "Termination", "ActionTable", "AuctionTimeTable",
                        "PlayTimeTable"})
_PLAYER_PREFIXES = ("West", "North", "East", "South", "Score", "BidSystem")

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]')
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


# A token: (kind, text, value, start, end); its line is kept beside it. ``text`` is a tag's
# name, a word, a row, a comment or an error message; ``value`` a tag's value; ``start`` and
# ``end`` a word's columns. A tag read alone on its line has an ``end`` of 1: its line's end
# has come with it. Tokens hold no line, so the reader reuses the tokens of a line it has read
# before: real files repeat most of their lines.
_Tok = tuple[int, str, str, int, int]
_TAG_T, _WORD_T, _EOL_T, _COMMENT_T, _ERROR_T, _ROW_T = range(6)
# _ROW_T is a whole line of words and nothing else (no tag, brace or ";"), the row stripped:
# what the lexer would give as its words and an end of line, told at once.
_EOL: _Tok = (_EOL_T, "", "", 0, 0)
# A tag token's ``start`` tells what the walk does with it.
_PLAIN, _TABLE, _NOTE, _AUCTION, _PLAY = range(5)


def _tag_token(name: str, value: str, alone: int) -> _Tok:
    sort = (_NOTE if name == "Note" else _AUCTION if name == "Auction" else
            _PLAY if name == "Play" else _TABLE if _is_table(name) else _PLAIN)
    return (_TAG_T, name, value, sort, alone)


# A line that is one tag and nothing else, as the lexer reads it: the common line, read by one
# match instead of the lexer's walk.
_TAG_LINE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]\s*')


# Tag names the regex has read: [A-Za-z0-9_]+.
_TAG_NAMES: set[str] = set()


class _Lexer:
    """Splits lines into tokens; commentary in braces may span lines and nest."""

    def __init__(self) -> None:
        self.depth = 0
        self.parts: list[str] = []
        self.opened = 0  # the line of the open brace

    def lex(self, number: int, text: str) -> list[_Tok]:
        """The tokens of a line (all of it: its number is the lines's)."""
        tokens: list[_Tok] = []
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
                tokens.append((_COMMENT_T, text[i + 1:].strip(), "", 0, 0))
                break
            elif char == "[":
                match = _TAG.match(text, i)
                if match is None:
                    tokens.append((_ERROR_T, f"not a tag: {text[i:].strip()!r}", "", 0, 0))
                    break
                tokens.append(_tag_token(match.group(1), _unescape(match.group(2)), 0))
                i = match.end()
            else:
                word = _WORD.match(text, i)
                assert word is not None  # any other character starts a word
                tokens.append((_WORD_T, word.group(), "", i, word.end()))
                i = word.end()
        tokens.append(_EOL)
        return tokens

    def _commentary(self, number: int, text: str, i: int, tokens: list[_Tok]) -> int:
        start = i
        while i < len(text):
            if text[i] == "{":
                self.depth += 1
            elif text[i] == "}":
                self.depth -= 1
                if self.depth == 0:
                    self.parts.append(text[start:i])
                    tokens.append((_COMMENT_T, "\n".join(self.parts).strip(), "", 0, 0))
                    return i + 1
            i += 1
        self.parts.append(text[start:])
        return i

    def close(self, number: int) -> list[tuple[_Tok, int]]:
        """The tokens, each with its line, of commentary still open at the end."""
        if self.depth == 0:
            return []
        self.depth = 0
        return [((_ERROR_T, "commentary in braces is not closed", "", 0, 0), self.opened),
                ((_COMMENT_T, "\n".join(self.parts).strip(), "", 0, 0), number)]


# Words that are a call and nothing else (no annotation), as Call.from_str reads them; filled
# as they are met. "-" is PBN's filler, not a call, so it is never here.
_CALL_WORDS: dict[str, Call] = {}
# The commonest note references, "=1=" and so on, and their numbers.
_NOTE_WORDS: dict[str, int] = {f"={number}=": number for number in range(100)}
# Words that are one card, as Card.from_str reads them; filled as met.
_CARD_WORDS: dict[str, Card] = {str(card): card for card in Card.ALL}
# For each seat, by its value, the one-entry dict {seat: card} of each card as PBN writes it
# ("SA"): a trick is merged from them, as merging dicts reuses their keys' hashes and a Seat
# hashes in Python.
_SEAT_CARDS: tuple[dict[str, dict[Seat, Card]], ...] = tuple(
    {str(card): {seat: card} for card in Card.ALL} for seat in Seat)


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

    def row(self, text: str, line: int) -> None:
        """A line of words and nothing else."""
        calls = _CALL_WORDS
        for word in text.split():
            call = calls.get(word)
            if call is not None and not self.ended:  # self._start(call), inlined
                pending = self.pending
                if pending is not None:
                    self.visitor.call(pending[0], pending[1], pending[2], tuple(pending[3]))
                self.calls.append(call)
                self.pending = (call, False, None, [])
                continue
            pending = self.pending
            ref = _NOTE_WORDS.get(word)
            if ref is not None and pending is not None and pending[2] is None:
                self.pending = (pending[0], pending[1], ref, pending[3])  # as _piece does
            else:
                self.word(word, line)

    def word(self, text: str, line: int) -> None:
        call = _CALL_WORDS.get(text)
        if call is not None and not self.ended:
            self._start(call)
            return
        for piece in filter(None, _ANNOTATION.split(text)):
            self._piece(piece, line)

    def _piece(self, piece: str, line: int) -> None:
        where = f"line {line}"
        if _ANNOTATION.fullmatch(piece):
            if self.pending is None:
                self.visitor.problem(f"{where}: annotation {piece!r} follows no call")
                return
            call, alert, ref, nags = self.pending
            note = _NOTE_REF.fullmatch(piece)
            # PBN 3.5.3: "!" is the suffix annotation "good call" ($1), as "?" is "poor call"
            # ($2); an alert is a note (3.5.4). Both are kept as written, with the NAGs.
            if note is None:
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
            if len(_CALL_WORDS) < 4096:
                _CALL_WORDS[piece] = call
            self._start(call)

    def finish(self) -> None:
        self._flush()


class _PlaySection:
    """The rows after a Play tag: four columns, clockwise from the Play tag's seat."""

    def __init__(self, visitor: Visitor[object], leader: Seat | None) -> None:
        self.visitor = visitor
        self.leader = leader
        self.seats = None if leader is None else Seat.clockwise_from(leader)
        self.parts = (None if self.seats is None else
                      tuple(_SEAT_CARDS[seat.value] for seat in self.seats))  # by column
        self.row: list[Card | None] = []
        self.ended = False
        self.skipping = False
        self.line = 0

    def whole_row(self, text: str, line: int) -> None:
        """A line of words and nothing else: most often one trick, or "*"."""
        parts, seats = self.parts, self.seats
        if parts is not None and seats is not None and not self.row:
            if text == "*":
                self.ended = True  # as word("*") and eol() do
                self.line = line
                return
            words = text.split()
            if len(words) == 4 and not self.ended:
                one, two, three, four = (parts[0].get(words[0]), parts[1].get(words[1]),
                                         parts[2].get(words[2]), parts[3].get(words[3]))
                if one and two and three and four:  # four cards as PBN writes them
                    self.visitor.trick({**one, **two, **three, **four})
                    self.line = line
                    return
                # other forms of cards, or "-" for a card not played
                get = _CARD_WORDS.get
                cards = (get(words[0]), get(words[1]), get(words[2]), get(words[3]))
                if all(card or word == "-" for card, word in zip(cards, words, strict=True)):
                    self.visitor.trick({seat: card for seat, card
                                        in zip(seats, cards, strict=True) if card})
                    self.line = line
                    return
        for word in text.split():
            self.word(word, line)
        self.eol(line)

    def word(self, text: str, line: int) -> None:
        where = f"line {line}"
        if self.leader is None:
            if not self.skipping:
                self.visitor.problem(f"{where}: a play section without a leading seat; skipped")
                self.skipping = True
            return
        for piece in filter(None, _ANNOTATION.split(text)):
            if _ANNOTATION.fullmatch(piece):
                continue  # annotations of cards are not kept
            if piece == "*":
                self._emit(line)
                self.ended = True
            elif self.ended:
                self.visitor.problem(f"{where}: {piece!r} after the end of the play")
            elif _NO_CARD.fullmatch(piece):
                if piece != "-":
                    self.visitor.problem(f"{where}: {piece!r} read as '-' (no card)")
                self._add(None, line)
            else:
                card: Card | None = _CARD_WORDS.get(piece)
                if card is None:
                    try:
                        card = Card.from_str(piece)
                    except InvalidNotationError:
                        self.visitor.problem(f"{where}: not a card in the play: {piece!r}")
                        self._add(None, line)
                        continue
                    if len(_CARD_WORDS) < 4096:
                        _CARD_WORDS[piece] = card
                self._add(card, line)

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
        self.tokens: list[_Tok] = []
        self.numbers: list[int] = []  # the line of each token
        self.firsts: dict[str, _Tok] = {}  # the first tag token of each name among tokens
        self.texts: dict[int, str] = {}
        self.index = 0
        self.previous: dict[str, str] | None = None
        self.previous_sections: dict[str, list[str]] = {}
        self.history: dict[str, str] = {}  # the latest real value of each tag
        self.headers: dict[str, str] = {}  # tags set with "##" for all later games

    def read(self, lines: Iterable[str]) -> Iterator[T]:
        """Every game of the lines. Outside commentary, a line that is one tag, a line of
        words only, an empty line or a "%" line is read at once (and its token kept for the
        line's next time); any other goes through the lexer, which gives the same tokens."""
        lexer = self.lexer
        lex = lexer.lex
        tag_line = _TAG_LINE.fullmatch
        tokens, numbers, firsts = self.tokens, self.numbers, self.firsts
        names = _TAG_NAMES
        known: dict[str, _Tok] = {}  # the token of each plain line read
        get = known.get
        depth = 0  # the lexer's
        number = 0
        for number, text in enumerate(lines, 1):
            if not depth:
                token = get(text)
                if token is not None:
                    tokens.append(token)
                    numbers.append(number)
                    if token[0] == _TAG_T and token[1] not in firsts:
                        firsts[token[1]] = token
                    continue
                if not text:
                    if firsts:
                        yield self._game()
                        tokens, numbers, firsts = self.tokens, self.numbers, self.firsts
                    continue
                first = text[0]
                if first == "[":
                    # [Name "value"] with a name met before and neither quote nor backslash
                    # in the value: what the regex would read, read by str.partition
                    name, quote, value = text[1:-2].partition(' "')
                    if not (quote and name in names and text[-2:] == '"]' and '"' not in value
                            and "\\" not in value):
                        match = tag_line(text)
                        if match is None:
                            name = ""
                        else:
                            name, value = match.groups()
                            if len(names) < 1024:
                                names.add(name)
                            if "\\" in value:
                                value = _unescape(value)
                    if name:
                        token = _tag_token(name, value, 1)
                        tokens.append(token)
                        numbers.append(number)
                        if name not in firsts:
                            firsts[name] = token
                        if len(known) >= 8192:
                            known.clear()
                        known[text] = token
                        continue
                elif first == "%":
                    continue  # an escape line (PBN 2.4): directives for other programs
                elif "[" not in text and "{" not in text and ";" not in text:
                    row = text.strip()
                    if row:
                        token = (_ROW_T, row, "", 0, 0)
                        tokens.append(token)
                        numbers.append(number)
                        if len(known) >= 8192:
                            known.clear()
                        known[text] = token
                    elif firsts:
                        yield self._game()
                        tokens, numbers, firsts = self.tokens, self.numbers, self.firsts
                    continue
            self.texts[number] = text
            new = lex(number, text)
            depth = lexer.depth
            tokens.extend(new)
            numbers.extend([number] * len(new))
            for token in new:
                if token[0] == _TAG_T and token[1] not in firsts:
                    firsts[token[1]] = token
        for token, line in lexer.close(number):
            tokens.append(token)
            numbers.append(line)
        if firsts:
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
        numbers, self.numbers = self.numbers, []
        firsts, self.firsts = self.firsts, {}
        texts, self.texts = self.texts, {}
        visitor = self.visitor
        visitor.begin_record(self.index, numbers[0])
        self.index += 1

        own = {name: token[2] for name, token in firsts.items()}
        own.pop("Note", None)
        if "\0#" in "\0" + "\0".join(own.values()):  # a value starts with "#"
            for name, value in own.items():
                if value[:1] == "#":  # the first of the tokens equal to it is this one
                    own[name] = self._resolve(name, value, numbers[tokens.index(firsts[name])])
        headers = self.headers
        inherited: dict[str, str] = (
            {n: v for n, v in headers.items() if n not in own} if headers else {})
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

        self._walk(tokens, numbers, own, texts, sections)
        self.previous = {**inherited, **own}
        self.previous_sections = sections
        self.history.update(self.previous)
        return visitor.end_record(numbers[-1])

    def _walk(self, tokens: list[_Tok], numbers: list[int], own: dict[str, str],
              texts: dict[int, str], sections: dict[str, list[str]]) -> None:
        visitor = self.visitor
        tag = visitor.tag
        section_row = visitor.section_row
        seen: set[str] = set()
        section: str | None = None
        table = False  # whether the section is a table, whose rows are kept
        rows: list[str] | None = None  # the table's rows in ``sections``
        auction: _AuctionSection | None = None
        play: _PlaySection | None = None
        after_play = False
        words: list[_Tok] = []
        for token, line in zip(tokens, numbers, strict=True):
            kind = token[0]
            if kind == _TAG_T:
                # a tag ends the section before it
                if auction is not None:
                    auction.finish()
                    auction = None
                if play is not None:
                    play.finish()
                    play = None
                    after_play = True
                name, sort = token[1], token[3]
                if sort == _NOTE:
                    section, table, rows = None, False, None
                    note = split_note(token[2])
                    if note is None:
                        visitor.problem(f"line {line}: a Note without a number: {token[2]!r}")
                    elif after_play:
                        visitor.play_note(*note)
                    else:
                        visitor.note(*note)
                elif name in seen:
                    visitor.problem(f"line {line}: the {name} tag again; the first is kept")
                    section, table, rows = "", False, None  # its section is skipped quietly
                else:
                    seen.add(name)
                    section, table, rows = name, sort == _TABLE, None
                    tag(name, own[name])
                    if sort == _AUCTION:
                        auction = _AuctionSection(visitor)
                    elif sort == _PLAY:
                        try:
                            leader: Seat | None = Seat.from_str(own[name])
                        except InvalidNotationError:
                            leader = None
                        play = _PlaySection(visitor, leader)
                        if token[4]:
                            play.line = line  # the end of the tag's line
            elif kind == _ROW_T:
                if auction is not None:
                    auction.row(token[1], line)
                elif play is not None:
                    play.whole_row(token[1], line)
                elif table:
                    row = token[1]
                    section_row(section, row)  # type: ignore[arg-type]
                    if rows is None:
                        rows = sections.setdefault(section, [])  # type: ignore[arg-type]
                    rows.append(row)
                elif section != "":
                    visitor.problem(f"line {line}: text outside a section: {token[1]!r}")
            elif kind == _WORD_T:
                if auction is not None:
                    auction.word(token[1], line)
                elif play is not None:
                    play.word(token[1], line)
                else:
                    words.append(token)
            elif kind == _EOL_T:
                if play is not None:
                    play.eol(line)
                if words:
                    row = texts[line][words[0][3]:words[-1][4]]
                    if table:
                        section_row(section, row)  # type: ignore[arg-type]
                        if rows is None:
                            rows = sections.setdefault(section, [])  # type: ignore[arg-type]
                        rows.append(row)
                    elif section != "":
                        visitor.problem(f"line {line}: text outside a section: {row!r}")
                    words = []
            elif kind == _COMMENT_T:
                visitor.commentary(token[1])
            else:  # _ERROR_T
                visitor.problem(f"line {line}: {token[1]}")
        if auction is not None:
            auction.finish()
        if play is not None:
            play.finish()


def _read(lines: Iterator[str], visitor: Visitor[T]) -> Iterator[T]:
    yield from _Reader(visitor).read(lines)


_READING = Reading(_read)
iter_records = _READING.iter_records
loads = _READING.loads
load = _READING.load


def load_path(path: str | os.PathLike[str]) -> list[Record]:
    return loads(Path(path).read_bytes())
