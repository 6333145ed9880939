"""The record of one table's play of a board, as a file states it, and the visitor that reads it.

A reader (:mod:`.pbn`, :mod:`.lin`) turns text into a stream of events and feeds a
:class:`Visitor`: one parser then serves a builder, a validator or an exporter. Each reader
knows only how to read lines into a visitor; :class:`Reading` makes its ``iter_records``,
``loads`` and ``load`` from that. The default
visitor, :class:`RecordBuilder`, builds a plain :class:`Record`: the raw facts of the file, not
checked against the Laws. Text that cannot be read is a *problem* on the record, never an
exception: real archives hold odd tags and truncated sections, and a replay must report them.
"""

from __future__ import annotations

import abc
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Generic, Protocol, TypeVar, overload

from .board import Deal, Vulnerability
from .calls import PASS, Call
from .cards import Card, Seat
from .errors import InvalidNotationError

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

#: Text, bytes, or lines (a text file iterates as lines), as every reader accepts.
Source = str | bytes | Iterable[str]


@dataclass(frozen=True, slots=True)
class AuctionItem:
    """One call of a recorded auction, with what the record says about it."""

    call: Call
    alert: bool = False  # PBN "!" after the call; LIN "!" on the mb value
    note: str | None = None  # the text of the note the call refers to (PBN =n=, LIN an)
    note_ref: int | None = None  # the note's number in the record (PBN =n=; LIN: 1, 2, ...)
    nags: tuple[str, ...] = ()  # other PBN annotations, as written: "?", "!!", "$12"...


@dataclass
class Record:
    """One table's play of a board: what the record says, and what could not be read.

    ``tags`` holds every tag in the order read, inherited ones first (PBN ``#``, ``##`` and the
    omitted tags of a game that continues the previous board); Note tags are not in it but in
    ``notes`` (after the auction) and ``play_notes`` (after the play). The fields from ``board``
    to ``score_tag`` are read from their tags; when written, each field that is not None
    decides its tag, and a field left None leaves the tag as ``tags`` has it.

    The play is kept as the format states it. ``play`` holds PBN's rows: each trick maps the
    seat of each column (clockwise from ``play_leader``, every row) to its card; a ``-`` is a
    seat absent from the trick. ``play_sequence`` holds LIN's cards in the order played; who
    played each follows from the trick winners, which need the contract's strain, so the
    engine attributes them (Law 44), not the reader.
    """

    tags: dict[str, str] = field(default_factory=dict)
    board: int | None = None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    deal: Deal | None = None
    auction: list[AuctionItem] = field(default_factory=list)
    auction_dealer: Seat | None = None  # the Auction tag's seat: who made the first call
    play_leader: Seat | None = None  # the Play tag's seat: who led to the first trick
    play: list[dict[Seat, Card]] = field(default_factory=list)
    play_sequence: list[Card] = field(default_factory=list)
    contract_tag: str | None = None
    declarer_tag: str | None = None
    result_tag: str | None = None
    score_tag: str | None = None
    claim: int | None = None  # LIN mc: the total tricks declarer claimed
    notes: dict[int, str] = field(default_factory=dict)
    play_notes: dict[int, str] = field(default_factory=dict)
    sections: dict[str, list[str]] = field(default_factory=dict)  # rows of PBN tables
    commentary: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    source_index: int = 0
    raw_lines: tuple[int, int] | None = field(default=None, compare=False)

    @property
    def calls(self) -> list[Call]:
        return [item.call for item in self.auction]

    @property
    def auction_complete(self) -> bool:
        """Whether the calls close the auction: four passes, or three after the last other
        call. A count of the record's calls, not a judgement of their legality."""
        return bool(self.auction) and passes_to_close(self.calls) == 0


def passes_to_close(calls: Sequence[Call]) -> int:
    """How many passes would end the auction here: what PBN's ``AP`` (all pass) stands for."""
    trailing = 0
    for call in reversed(calls):
        if call != PASS:
            return max(0, 3 - trailing)
        trailing += 1
    return max(0, 4 - trailing)


class Visitor(abc.ABC, Generic[T_co]):
    """What a reader tells as it reads; override what you need. One visitor object reads
    every record of a file in turn: ``begin_record`` starts each, ``end_record`` returns its
    result. PBN's events come in file order; LIN's tags come before the board's calls,
    notes, cards, claim, commentary and problems, in that order."""

    def begin_record(self, index: int, line: int) -> None:
        """Record ``index`` (0-based in its file) starts at ``line`` (1-based)."""

    def tag(self, name: str, value: str) -> None:
        """A tag, its value already inherited where the file said so."""

    def section_row(self, tag: str, row: str) -> None:
        """A row of a supplemental section (a PBN table such as OptimumResultTable)."""

    def call(self, call: Call, alert: bool, note_ref: int | None, nags: tuple[str, ...]) -> None:
        """A call of the auction, PBN's ``AP`` already told as passes."""

    def note(self, number: int, text: str) -> None:
        """An auction note (PBN Note tag after the auction; LIN an)."""

    def play_note(self, number: int, text: str) -> None:
        """A PBN Note tag after the play section."""

    def trick(self, cards: Mapping[Seat, Card]) -> None:
        """A row of a PBN play section: each column's card under its seat."""

    def card(self, card: Card) -> None:
        """A card in the order played (LIN pc)."""

    def claim(self, tricks: int) -> None:
        """Declarer claims this many tricks in all (LIN mc)."""

    def commentary(self, text: str) -> None:
        """Free text: PBN ``{...}`` or ``;`` commentary, LIN nt."""

    def problem(self, message: str) -> None:
        """Text the reader could not read; it skipped it and went on."""

    @abc.abstractmethod
    def end_record(self, line: int) -> T_co:
        """The record ended at ``line``; return what this visitor made of it."""


_NOTE_TEXT = re.compile(r"^\s*(\d+)\s*:(.*)$", re.DOTALL)


def split_note(value: str) -> tuple[int, str] | None:
    """A PBN Note tag's value ``"1:text"`` as (1, "text"); None when it has no number."""
    match = _NOTE_TEXT.match(value)
    if match is None:
        return None
    return int(match.group(1)), match.group(2).strip()


# The tags that fill a field of the Record besides ``tags``: read, or kept as they are.
_PARSED_TAGS = frozenset({"Board", "Dealer", "Vulnerable", "Deal", "Auction", "Play"})
_RAW_TAGS = frozenset({"Contract", "Declarer", "Result", "Score"})
# The items of calls with nothing said about them, shared: an AuctionItem is frozen.
_PLAIN_ITEMS: dict[int, AuctionItem] = {}
_VULNERABILITIES: dict[str, Vulnerability] = {}  # Vulnerability.from_str's answers, by text


def _vulnerability(text: str) -> Vulnerability:
    vulnerability = _VULNERABILITIES.get(text)
    if vulnerability is None:
        vulnerability = Vulnerability.from_str(text)
        if len(_VULNERABILITIES) < 256:
            _VULNERABILITIES[text] = vulnerability
    return vulnerability


class RecordBuilder(Visitor[Record]):
    """Builds a :class:`Record`; tags whose value cannot be read become problems."""

    def __init__(self) -> None:
        self._record = Record()
        self._first_line = 0

    def begin_record(self, index: int, line: int) -> None:
        self._record = Record(source_index=index)
        self._first_line = line

    def tag(self, name: str, value: str) -> None:
        record = self._record
        record.tags[name] = value
        if name not in _PARSED_TAGS:
            if name in _RAW_TAGS:
                if name == "Contract":
                    record.contract_tag = value
                elif name == "Declarer":
                    record.declarer_tag = value
                elif name == "Result":
                    record.result_tag = value
                else:
                    record.score_tag = value
            return
        text = value.strip()
        try:
            if name == "Board":
                record.board = int(text) if text and text != "?" else None
            elif name == "Dealer":
                record.dealer = Seat.from_str(text) if text and text != "?" else None
            elif name == "Vulnerable":
                record.vulnerability = _vulnerability(text) if text != "?" else None
            elif name == "Deal":
                record.deal = Deal.from_pbn(text) if text and text != "?" else None
            elif name == "Auction":
                record.auction_dealer = Seat.from_str(text) if text and text != "?" else None
            elif name == "Play":
                record.play_leader = Seat.from_str(text) if text and text != "?" else None
        except (InvalidNotationError, ValueError) as error:
            record.problems.append(f"{name} tag {value!r}: {error}")

    def section_row(self, tag: str, row: str) -> None:
        rows = self._record.sections.get(tag)
        if rows is None:
            self._record.sections[tag] = [row]
        else:
            rows.append(row)

    def call(self, call: Call, alert: bool, note_ref: int | None, nags: tuple[str, ...]) -> None:
        if alert or note_ref is not None or nags:
            self._record.auction.append(AuctionItem(call, alert, None, note_ref, nags))
            return
        # by identity: calls hash slowly, and the readers give each call's one object
        item = _PLAIN_ITEMS.get(id(call))
        if item is None or item.call is not call:
            item = AuctionItem(call, alert, None, note_ref, nags)
            if len(_PLAIN_ITEMS) < 256:
                _PLAIN_ITEMS[id(call)] = item  # the item keeps the call, so its id
        self._record.auction.append(item)

    def note(self, number: int, text: str) -> None:
        self._record.notes[number] = text

    def play_note(self, number: int, text: str) -> None:
        self._record.play_notes[number] = text

    def trick(self, cards: Mapping[Seat, Card]) -> None:
        self._record.play.append(dict(cards))

    def card(self, card: Card) -> None:
        self._record.play_sequence.append(card)

    def claim(self, tricks: int) -> None:
        self._record.claim = tricks

    def commentary(self, text: str) -> None:
        self._record.commentary.append(text)

    def problem(self, message: str) -> None:
        self._record.problems.append(message)

    def end_record(self, line: int) -> Record:
        record = self._record
        items = []
        for item in record.auction:
            if item.note_ref is None:
                items.append(item)
                continue
            text = record.notes.get(item.note_ref)
            if text is None:
                record.problems.append(f"call {item.call} refers to note {item.note_ref}, "
                                       "which the record does not give")
            items.append(AuctionItem(item.call, item.alert, text, item.note_ref, item.nags))
        record.auction = items
        record.raw_lines = (self._first_line, line)
        return record


def decode(data: bytes) -> str:
    """UTF-8 (with or without a byte-order mark), else Latin-1: old archives are Latin-1."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


_LINE_END = re.compile(r"\r\n|\r|\n")


def lines_of(source: Source) -> Iterator[str]:
    """The lines of a source without their line ends (LF, CRLF or CR) or a leading BOM."""
    if isinstance(source, bytes):
        source = decode(source)
    if isinstance(source, str):
        # Not str.splitlines: it also splits at form feeds and U+2028, which notes may hold.
        lines = source.split("\n") if "\r" not in source else _LINE_END.split(source)
        if lines[-1] == "":
            lines.pop()  # the end of the last line, not an empty line after it
        if lines:
            lines[0] = lines[0].removeprefix("\ufeff")
        return iter(lines)  # no line holds a line end
    return _stripped(source)


def _stripped(source: Iterable[str]) -> Iterator[str]:
    first = True
    for line in source:
        if first:
            line = line.removeprefix("\ufeff")
            first = False
        yield line.rstrip("\r\n")


class _ReadLines(Protocol):
    def __call__(self, lines: Iterator[str], visitor: Visitor[T]) -> Iterator[T]: ...


class Reading:
    """What every reader offers (``iter_records``, ``loads``, ``load``), made once from the
    one thing a format knows: how to read lines into a visitor, a record at a time."""

    def __init__(self, read: _ReadLines) -> None:
        self._read = read

    @overload
    def iter_records(self, source: Source) -> Iterator[Record]: ...

    @overload
    def iter_records(self, source: Source, visitor: Visitor[T]) -> Iterator[T]: ...

    def iter_records(self, source: Source,
                     visitor: Visitor[T] | None = None) -> Iterator[T] | Iterator[Record]:
        """Read records one at a time, telling ``visitor`` (a :class:`RecordBuilder` by
        default) each record and yielding what it returns. ``source`` is text, bytes, or
        lines."""
        if visitor is None:
            return self._records(source, RecordBuilder())
        return self._records(source, visitor)

    def _records(self, source: Source, visitor: Visitor[T]) -> Iterator[T]:
        yield from self._read(lines_of(source), visitor)

    def loads(self, text: str | bytes) -> list[Record]:
        return list(self.iter_records(text))

    def load(self, fp: IO[str] | IO[bytes]) -> list[Record]:
        """Read an open file, text or binary (bytes are UTF-8, else Latin-1)."""
        data = fp.read()
        return self.loads(decode(data) if isinstance(data, bytes) else data)
