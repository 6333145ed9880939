"""Hand records before the session: the PBN deal file a dealing machine reads, and the
printed hand-record sheet (server.outputs.report), from the session's deals or from deals generated
here with a seed (the same seed always gives the same deals, so a lost file is dealt again).

A dealing machine reads each board's ``Board``, ``Dealer``, ``Vulnerable`` and ``Deal`` tags
(PBN 2.1 import format); dealer and vulnerability follow from the board number (Law 2) unless
the session says otherwise.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from laws import Board, Card, Deal, RulesError, Seat, Suit, Vulnerability
from laws.pbn import dumps as dump_pbn
from laws.records import Record
from server.errors import Refused
from server.setup.session import Session, board_conditions, deals_of, dealt
from server.storage.db import Database
from tablemodel.texts import Words

MOST_BOARDS = 9999  # the wire's board numbers


class HandRecordError(Refused):
    """Boards or deals that cannot be written; the message says what to give instead."""


def parse_boards(text: str) -> list[int]:
    """Boards as a person writes them: "1-24", "1-12,25-36", "7"."""
    boards: list[int] = []
    for part in text.split(","):
        part = part.strip()
        first, _, last = part.partition("-")
        try:
            low, high = int(first), int(last or first)
        except ValueError:
            raise HandRecordError(f"boards are written 1-24 or 1-12,25-36, not {text!r}") \
                from None
        if not 1 <= low <= high <= MOST_BOARDS:
            raise HandRecordError(f"boards run from 1 to {MOST_BOARDS}, low to high: {part!r}")
        boards.extend(range(low, high + 1))
    return sorted(set(boards))


def generated(seed: int, boards: Iterable[int]) -> dict[int, str]:
    """Deals made here from ``seed``, one per board."""
    return {board: dealt(seed, board) for board in boards}


def of_session(db: Database, session: Session) -> dict[int, str]:
    found = deals_of(db, session)
    if not found and session.dealt_at_table:
        raise HandRecordError("the boards are dealt at the table: no table has captured a "
                              "deal yet (each board's hand record is the first table's scan)")
    if not found:
        raise HandRecordError("the session has no hand records: import a PBN file or deal "
                              "them with a seed when setting it up")
    return found


def conditions_of(session: Session) -> dict[int, tuple[Seat, Vulnerability]]:
    return {board: board_conditions(session, board) for board in session.plan.boards()}


def dealing_pbn(deals: Mapping[int, str], *, event: str, site: str = "?",
                date: datetime.date | None = None,
                conditions: Mapping[int, tuple[Seat, Vulnerability]] | None = None) -> str:
    """The PBN file a dealing machine reads: one game per board, its deal and conditions."""
    when = (date or datetime.date.today()).strftime("%Y.%m.%d")
    records = []
    for board, text in sorted(deals.items()):
        deal = _complete(board, text)
        dealer, vulnerability = (conditions or {}).get(board) or (
            Board(board).dealer, Board(board).vulnerability)
        record = Record(board=board, dealer=dealer, vulnerability=vulnerability, deal=deal)
        record.tags = {"Event": event, "Site": site, "Date": when}
        records.append(record)
    return dump_pbn(records)


# -- Duplimate's DUP and BRI files -----------------------------------------------------------
#
# The format as Jannersten publishes it (Duplimate's "convert" note): a DUP file is 156 bytes
# a board. Bytes 1-78 are the BRI part: North's, East's and South's thirteen cards as
# two-digit numbers, 01 the ace of spades to 52 the two of clubs (spades, hearts, diamonds,
# clubs, each ace to two); West has the rest. Bytes 79-146 are the DGE part: the four hands
# sorted, North first, 17 bytes each: a suit symbol then its cards, for spades, hearts,
# diamonds and clubs. Bytes 147-156 are the machine's settings: "random hands?" (Y/N),
# "backwards counting?" (Y/N), the lowest board of the set (3 bytes), the copies of each
# board (2 bytes) and the highest board (3 bytes), each left-aligned and padded with spaces.
# A BRI file is the BRI parts alone, 78 bytes a board.

BRI_BYTES = 78
DGE_BYTES = 68
DUP_BYTES = 156
_SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
_RANKS = "AKQJT98765432"
#: The suit symbols of the DGE part: the DOS code page's glyphs ♠ ♥ ♦ ♣ (bytes 6, 3, 4, 5),
#: which a Duplimate's software shows as the symbols.
_SYMBOLS = {Suit.S: 0x06, Suit.H: 0x03, Suit.D: 0x04, Suit.C: 0x05}
_BRI_SEATS = (Seat.N, Seat.E, Seat.S)


def card_number(card: Card) -> int:
    """01 (the ace of spades) to 52 (the two of clubs)."""
    return _SUITS.index(card.suit) * 13 + _RANKS.index(card.rank.char) + 1


def numbered_card(number: int) -> Card:
    if not 1 <= number <= 52:
        raise HandRecordError(f"a card is numbered 01 to 52, not {number:02d}")
    suit, rank = divmod(number - 1, 13)
    return Card.from_str(f"{_SUITS[suit]}{_RANKS[rank]}")


def _complete(board: int, text: str) -> Deal:
    try:
        deal = Deal.from_pbn(text)
    except RulesError as error:
        raise HandRecordError(f"board {board}: {error}") from None
    if not deal.is_complete_for_play:
        raise HandRecordError(f"board {board}: a dealing machine needs all four hands")
    return deal


def bri_part(deal: Deal) -> bytes:
    """North's, East's and South's cards as numbers, each hand in ascending order."""
    return "".join(f"{number:02d}" for seat in _BRI_SEATS
                   for number in sorted(card_number(card) for card in deal[seat])).encode()


def dge_part(deal: Deal) -> bytes:
    out = bytearray()
    for seat in (Seat.N, Seat.E, Seat.S, Seat.W):
        for suit in _SUITS:
            out.append(_SYMBOLS[suit])
            ranks = sorted((card for card in deal[seat] if card.suit is suit),
                           key=lambda card: _RANKS.index(card.rank.char))
            out += "".join(card.rank.char for card in ranks).encode()
    return bytes(out)


def _consecutive(deals: Mapping[int, str]) -> list[int]:
    boards = sorted(deals)
    if not boards:
        raise HandRecordError("no boards to write")
    if boards != list(range(boards[0], boards[-1] + 1)):
        missing = sorted(set(range(boards[0], boards[-1] + 1)) - set(boards))
        raise HandRecordError(f"a Duplimate file holds consecutive boards; boards "
                              f"{', '.join(map(str, missing))} are missing")
    if boards[-1] > 999:
        raise HandRecordError(f"a DUP file numbers boards up to 999, not {boards[-1]}")
    return boards


def dup_file(deals: Mapping[int, str], *, copies: int = 1) -> bytes:
    """The DUP file of ``deals`` (board -> PBN deal, consecutive boards): the machine deals
    the set from the lowest board to the highest, ``copies`` of each."""
    boards = _consecutive(deals)
    if not 1 <= copies <= 99:
        raise HandRecordError(f"copies of each board: 1 to 99, not {copies}")
    settings = (f"YN{boards[0]:<3d}{copies:<2d}{boards[-1]:<3d}").encode()
    out = bytearray()
    for board in boards:
        deal = _complete(board, deals[board])
        out += bri_part(deal) + dge_part(deal) + settings
    return bytes(out)


def bri_file(deals: Mapping[int, str]) -> bytes:
    """The BRI file: the BRI part of each board, from the lowest board to the highest."""
    return b"".join(bri_part(_complete(board, deals[board])) for board in _consecutive(deals))


def _bri_deal(part: bytes, board: int) -> Deal:
    text = part.decode("ascii", errors="replace")
    if not text.isdigit():
        raise HandRecordError(f"board {board}: the BRI part is not 39 two-digit numbers")
    numbers = [int(text[i:i + 2]) for i in range(0, BRI_BYTES, 2)]
    cards = [numbered_card(number) for number in numbers]
    if len(set(cards)) != 39:
        raise HandRecordError(f"board {board}: a card is given twice in the BRI part")
    hands = {seat: frozenset(cards[13 * i:13 * (i + 1)]) for i, seat in enumerate(_BRI_SEATS)}
    hands[Seat.W] = frozenset(Card.ALL) - set(cards)
    try:
        return Deal(hands)
    except RulesError as error:
        raise HandRecordError(f"board {board}: {error}") from None


def read_bri(data: bytes, first_board: int = 1) -> dict[int, str]:
    """The deals of a BRI file (board -> PBN deal), numbered from ``first_board``."""
    if not data or len(data) % BRI_BYTES:
        raise HandRecordError(f"a BRI file is {BRI_BYTES} bytes a board; this one has "
                              f"{len(data)} bytes")
    return {first_board + i: _bri_deal(data[at:at + BRI_BYTES], first_board + i).to_pbn()
            for i, at in enumerate(range(0, len(data), BRI_BYTES))}


def read_dup(data: bytes) -> dict[int, str]:
    """The deals of a DUP file (board -> PBN deal), numbered from the lowest board its
    settings give; the sorted DGE part must agree with the BRI part."""
    if not data or len(data) % DUP_BYTES:
        raise HandRecordError(f"a DUP file is {DUP_BYTES} bytes a board; this one has "
                              f"{len(data)} bytes")
    settings = data[BRI_BYTES + DGE_BYTES:DUP_BYTES].decode("ascii", errors="replace")
    try:
        first = int(settings[2:5])
    except ValueError:
        raise HandRecordError(f"the DUP file's settings give no lowest board: "
                              f"{settings!r}") from None
    found: dict[int, str] = {}
    for index, at in enumerate(range(0, len(data), DUP_BYTES)):
        board = first + index
        deal = _bri_deal(data[at:at + BRI_BYTES], board)
        if data[at + BRI_BYTES:at + BRI_BYTES + DGE_BYTES] != dge_part(deal):
            raise HandRecordError(f"board {board}: the sorted hands (DGE part) do not "
                                  "match the cards (BRI part)")
        found[board] = deal.to_pbn()
    return found


# -- the files for dealing machines, each defined once ----------------------------------------

Conditions = Mapping[int, tuple[Seat, Vulnerability]]


@dataclass(frozen=True)
class DealingFile:
    """One file of deals for a dealing machine, defined once: its name (the command line's
    ``--what``), how it is written from the deals (board -> PBN deal), the title and the
    boards' dealer and vulnerability, its name on the console's scoring page (text key
    ``scoring_hands_<extension>``), its content type and its extension (the console's
    ``/console/hand-records.<extension>``)."""

    name: str
    write: Callable[[Mapping[int, str], str, Conditions | None], str | bytes]
    words: Words
    content_type: str
    extension: str


DEALING_FILES: Mapping[str, DealingFile] = {form.name: form for form in (
    DealingFile("deals", lambda deals, title, conditions: dealing_pbn(
        deals, event=title, conditions=conditions),
        Words(es="Manos para la máquina de repartir (PBN)",
              en="Deals for the dealing machine (PBN)"),
        "application/x-pbn; charset=utf-8", "pbn"),
    DealingFile("dup", lambda deals, _title, _conditions: dup_file(deals),
                Words(es="Manos para Duplimate (DUP)", en="Deals for a Duplimate (DUP)"),
                "application/octet-stream", "dup"),
    DealingFile("bri", lambda deals, _title, _conditions: bri_file(deals),
                Words(es="Manos en formato BRI", en="Deals as a BRI file"),
                "application/octet-stream", "bri"),
)}
DEALING_BY_EXTENSION: Mapping[str, DealingFile] = {
    form.extension: form for form in DEALING_FILES.values()}


def check_dealing_files(files: Mapping[str, DealingFile]) -> None:
    """Run when the module loads: each under its own name, with both labels, a content type,
    and an extension of its own (the PDF sheet has ``pdf``)."""
    extensions = [form.extension for form in files.values()]
    if len(set(extensions)) != len(extensions) or "pdf" in extensions:
        raise AssertionError("two dealing files, or one and the PDF sheet, share an extension")
    for name, form in files.items():
        if name != form.name or not (form.words.es and form.words.en and form.content_type
                                     and form.extension):
            raise AssertionError(f"dealing file {name!r} is not whole")


check_dealing_files(DEALING_FILES)
