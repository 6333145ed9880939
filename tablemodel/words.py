"""The bridge words in Spanish and English: one renderer for the table's displays and the pages.

Calls, contracts, seats, sides, strains, suits, cards and vulnerability are written here and
nowhere else, in the forms their readers need:

- the seat displays (``tabled.seat_lines``): a twenty-character line, suits as their symbols
  (the LCD draws ♠♥♦♣, hardware/charset.py): ``2♣``, ``1ST`` / ``1NT``, ``P`` for a pass,
  ``♠Q`` for a card, ``O`` for West in Spanish (``seat_letter``, ``call``, ``contract``,
  ``card``, ``side``, ``vulnerability``);
- the pages (``server.pages.display``): ``Pieces``, text with suit marks, written out as HTML
  (``html``: the suit's symbol with its name for screen readers) or as JSON for the scripts
  (``to_json``), which draw them without knowing any bridge word (``server/static/display.js``).

Spanish follows the federation's usage: Paso, Doblo, Redoblo, Sin Triunfo (ST); the seats keep
their letters but West is O (Oeste), East-West is EO. Standard library and ``laws``
only: the table daemon imports it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from laws import (
    Bid,
    Call,
    Card,
    Contract,
    Rank,
    RulesError,
    Seat,
    Side,
    Strain,
    Suit,
    Vulnerability,
    parse_contract,
)
from laws.messages import MESSAGES, PARAM_KINDS

from .texts import TextTable, Words, table

BRIDGE: TextTable[str] = table("bridge words", {
    "letter_N": Words(es="N", en="N"),
    "letter_E": Words(es="E", en="E"),
    "letter_S": Words(es="S", en="S"),
    "letter_W": Words(es="O", en="W"),
    "seat_N": Words(es="Norte", en="North"),
    "seat_E": Words(es="Este", en="East"),
    "seat_S": Words(es="Sur", en="South"),
    "seat_W": Words(es="Oeste", en="West"),
    "side_NS": Words(es="NS", en="NS"),
    "side_EW": Words(es="EO", en="EW"),
    "strain_NT": Words(es="ST", en="NT"),
    "suit_S": Words(es="picas", en="spades"),
    "suit_H": Words(es="corazones", en="hearts"),
    "suit_D": Words(es="diamantes", en="diamonds"),
    "suit_C": Words(es="tréboles", en="clubs"),
    "vul_NONE": Words(es="Nadie", en="None"),
    "vul_NS": Words(es="NS", en="NS"),
    "vul_EW": Words(es="EO", en="EW"),
    "vul_BOTH": Words(es="Todos", en="Both"),
    # A call in full, as the pages say it.
    "call_Pass": Words(es="Paso", en="Pass"),
    "call_X": Words(es="Doblo", en="Double"),
    "call_XX": Words(es="Redoblo", en="Redouble"),
    # A call on a display line: a pass is P in both languages.
    "short_Pass": Words(es="P", en="P"),
    # A call as the display echoes it while a seat keys it in: English keeps the bidding
    # cards' X and XX.
    "keyed_Pass": Words(es="Paso", en="Pass"),
    "keyed_X": Words(es="Doblo", en="X"),
    "keyed_XX": Words(es="Redoblo", en="XX"),
    "passed_out": Words(es="Todos pasan", en="Passed out"),
    # a revoke in a message: "N trick 3 (♠Q)"
    "revoke_on": Words(es="{seat} baza {number} ({card})", en="{seat} trick {number} ({card})"),
})

_LETTERS = frozenset("NESW")
_OTHER_CALLS = frozenset({"Pass", "X", "XX"})


# -- the seat displays: plain letters ----------------------------------------------------

def seat_letter(seat: Seat | str, language: str) -> str:
    """``W`` as ``O`` in Spanish; any other text (no seat, "") as it is."""
    letter = str(seat)
    return BRIDGE.text(f"letter_{letter}", language) if letter in _LETTERS else letter


def seat_name(seat: Seat, language: str) -> str:
    """``North`` / ``Norte``."""
    return BRIDGE.text(f"seat_{seat.name}", language)


def side(side: Side, language: str) -> str:
    """``NS``; ``EW`` / ``EO``."""
    return BRIDGE.text(f"side_{side.name}", language)


def strain(strain: Strain, language: str) -> str:
    """A strain's letters: ``NT`` / ``ST``, ``S``, ``H``, ``D``, ``C``."""
    return BRIDGE.text("strain_NT", language) if strain is Strain.NT else strain.name


def vulnerability(vulnerability: Vulnerability, language: str) -> str:
    """``None`` / ``Nadie``, ``NS``, ``EW`` / ``EO``, ``Both`` / ``Todos``."""
    return BRIDGE.text(f"vul_{vulnerability.name}", language)


def passed_out(language: str) -> str:
    return BRIDGE.text("passed_out", language)


def call(text: Call | str, language: str, *, keyed: bool = False) -> str:
    """A call on a display line, suits as their symbols (the LCD draws them, hardware/
    charset.py): ``2♣``, ``1NT`` / ``1ST``, ``P``, ``X``, ``XX``; ``keyed`` as the display
    echoes a call being keyed in: ``Pass`` / ``Paso``, ``X`` / ``Doblo``. A text that is no
    call is shown as it is."""
    name = str(text)
    if name in _OTHER_CALLS:
        if keyed:
            return BRIDGE.text(f"keyed_{name}", language)
        if name == "Pass":
            return BRIDGE.text("short_Pass", language)
        return name
    try:
        parsed = Call.from_str(name)
    except RulesError:
        return name.replace("NT", strain(Strain.NT, language))
    if isinstance(parsed, Bid):
        return f"{parsed.level}{strain_symbol(parsed.strain, language)}"
    return name


def strain_symbol(strain_: Strain, language: str) -> str:
    """A strain on a display line: the suit's symbol (``♥``), or ``NT`` / ``ST``."""
    suit = strain_.suit
    return strain(strain_, language) if suit is None else suit.symbol


def contract(contract: Contract, language: str) -> str:
    """A contract on a display line: ``4♥X``; ``3NT`` / ``3ST``."""
    return f"{contract.level}{strain_symbol(contract.strain, language)}{contract.doubling}"


def card(card: Card | str) -> str:
    """A card on a display line: ``♠Q``, ``♦10``; a text that is no card as it is."""
    try:
        found = card if isinstance(card, Card) else Card.from_str(card)
    except RulesError:
        return str(card)
    return f"{found.suit.symbol}{rank_text(found.rank)}"


def cards(cards: Iterable[Card | str]) -> str:
    """Cards run together on a display line: ``♣J♥Q♦10``."""
    return "".join(card(c) for c in cards)


def message(code: str, params: Mapping[str, Any], language: str) -> str | None:
    """A laws engine's message (``laws/messages.py``) in ``language``, its params as
    the language writes them: seats by their letter (O for West), calls and cards with their
    suit's symbol (``1♥``, ``Paso``, ``♠Q``), a suit as its symbol. None for a code the
    table does not have (a newer table's): the caller shows the English it came with."""
    found = MESSAGES.get(code)
    if found is None:
        return None
    try:
        return (found.es if language == "es" else found.en).format(
            **message_params(params, language))
    except (KeyError, IndexError, ValueError):
        return None  # params that are not the code's (a newer table's): its English


def _revoke_on(parts: list[str], language: str) -> str:
    if len(parts) != 3:
        return " ".join(parts)
    return BRIDGE.text("revoke_on", language, seat=seat_letter(parts[0], language),
                       number=parts[1], card=card(parts[2]))


def message_params(params: Mapping[str, Any], language: str) -> dict[str, Any]:
    """A message's params as ``language`` writes them (``PARAM_KINDS`` says which is a seat,
    a call, a card or a suit); numbers and other text as they are."""
    shown: dict[str, Any] = {}
    for name, value in params.items():
        kind = PARAM_KINDS.get(name)
        text = str(value)
        if kind == "seat":
            value = seat_letter(text, language)
        elif kind == "call":
            value = plain(call_pieces(text, language))
        elif kind == "card":
            value = card(text)
        elif kind == "suit" and text in Suit.__members__:
            value = Suit[text].symbol
        elif kind == "revokes":  # "N 3 SQ; E 5 HT": seat, trick, card
            value = "; ".join(_revoke_on(item.split(), language) for item in text.split("; "))
        shown[name] = value
    return shown


# -- the pages: pieces of text and suit marks --------------------------------------------

@dataclass(frozen=True, slots=True)
class SuitMark:
    """A suit drawn as its symbol, named in the language for those who cannot see it."""

    suit: Suit
    name: str

    @property
    def symbol(self) -> str:
        return self.suit.symbol


Piece = str | SuitMark
Pieces = tuple[Piece, ...]


def suit_name(suit: Suit, language: str) -> str:
    """``hearts`` / ``corazones``."""
    return BRIDGE.text(f"suit_{suit.name}", language)


def suit_mark(suit: Suit, language: str) -> SuitMark:
    return SuitMark(suit, suit_name(suit, language))


def strain_pieces(strain_: Strain, language: str) -> Pieces:
    """``NT`` / ``ST``, or the suit's mark."""
    suit = strain_.suit
    return (strain(strain_, language),) if suit is None else (suit_mark(suit, language),)


def call_pieces(text: str, language: str) -> Pieces:
    """A call as the pages say it: ``2H`` as 2♥, ``1NT`` as 1NT / 1ST, Pass / Paso,
    Double / Doblo, Redouble / Redoblo; a text that is no call as it is."""
    try:
        parsed = Call.from_str(text)
    except RulesError:
        return (text,)
    if isinstance(parsed, Bid):
        return (str(parsed.level), *strain_pieces(parsed.strain, language))
    return (BRIDGE.text(f"call_{parsed}", language),)


def contract_pieces(text: str | None, language: str, adjusted: str | None = None) -> Pieces:
    """``4HX`` as 4♥X, ``3NT`` as 3NT / 3ST, ``Pass`` as passed out; no contract (an
    adjusted score) as the ``adjusted`` text; a text that is no contract as it is."""
    if text is None:
        return _pieces(adjusted or "")
    try:
        parsed = parse_contract(text)
    except RulesError:
        return _pieces(text)
    if parsed is None:
        return (passed_out(language),)
    return _pieces(str(parsed.level), *strain_pieces(parsed.strain, language),
                   str(parsed.doubling))


def rank_text(rank: Rank) -> str:
    """The rank as the pages print it: ``10`` for the ten."""
    return "10" if rank is Rank.TEN else rank.char


def card_pieces(text: str | None, language: str) -> Pieces:
    """A card ``SQ`` as ♠Q, ``HT`` as ♥10; a text that is no card as it is."""
    if not text:
        return ()
    try:
        card = Card.from_str(text)
    except RulesError:
        return (text,)
    return (suit_mark(card.suit, language), rank_text(card.rank))


def _pieces(*pieces: Piece) -> Pieces:
    return tuple(piece for piece in pieces if piece != "")


def decimal(value: float | None, language: str, places: int = 2) -> str:
    """A score or percentage as the pages and the printouts write it: ``places`` decimals
    with the language's decimal mark (a comma in Spanish), a fraction's trailing zeros
    dropped (55.50 is 55,5; 60 stays 60); no value as nothing."""
    if value is None:
        return ""
    text = f"{value:.{places}f}"
    if "." in text:  # 60 with no places stays 60: only a fraction's zeros go
        text = text.rstrip("0").rstrip(".")
    return text.replace(".", ",") if language == "es" else text


def plain(pieces: Iterable[Piece]) -> str:
    """The pieces as text, suits as their symbols: ``4♥X``."""
    return "".join(p.symbol if isinstance(p, SuitMark) else p for p in pieces)


def escape(text: str) -> str:
    """Text made safe inside HTML, character for character as markupsafe escapes it."""
    return (text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
            .replace("'", "&#39;").replace('"', "&#34;"))


def html(pieces: Iterable[Piece]) -> str:
    """The pieces as HTML: text escaped, each suit a ``<span class="suit suit-H">`` with its
    symbol, read out by its name."""
    return "".join(
        f'<span class="suit suit-{p.suit.name}" role="img" aria-label="{escape(p.name)}">'
        f"{p.symbol}</span>" if isinstance(p, SuitMark) else escape(p) for p in pieces)


def to_json(pieces: Iterable[Piece]) -> list[Any]:
    """The pieces for a script: text as strings, each suit as
    ``{"suit": "H", "symbol": "♥", "name": "hearts"}``."""
    return [{"suit": p.suit.name, "symbol": p.symbol, "name": p.name}
            if isinstance(p, SuitMark) else p for p in pieces]
