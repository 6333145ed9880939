"""The bridge words (tablemodel/words.py), each form in both languages: the seat displays' letters,
the pages' pieces, and the pieces written out as text, HTML and JSON."""

from __future__ import annotations

import pytest

from laws import Call, Contract, Rank, Seat, Side, Strain, Suit, Vulnerability
from tablemodel import words
from tablemodel.words import SuitMark

ES_HEARTS = SuitMark(Suit.H, "corazones")
EN_HEARTS = SuitMark(Suit.H, "hearts")


# -- the seat displays --------------------------------------------------------------------

@pytest.mark.parametrize(("seat", "es", "en"), [
    (Seat.N, "N", "N"), (Seat.E, "E", "E"), (Seat.S, "S", "S"), (Seat.W, "O", "W"),
    ("W", "O", "W"), ("", "", ""), ("NS", "NS", "NS")])
def test_seat_letters(seat: Seat | str, es: str, en: str) -> None:
    assert words.seat_letter(seat, "es") == es
    assert words.seat_letter(seat, "en") == en


@pytest.mark.parametrize(("seat", "es", "en"), [
    (Seat.N, "Norte", "North"), (Seat.E, "Este", "East"), (Seat.S, "Sur", "South"),
    (Seat.W, "Oeste", "West")])
def test_seat_names(seat: Seat, es: str, en: str) -> None:
    assert (words.seat_name(seat, "es"), words.seat_name(seat, "en")) == (es, en)


@pytest.mark.parametrize(("side", "es", "en"), [(Side.NS, "NS", "NS"), (Side.EW, "EO", "EW")])
def test_sides(side: Side, es: str, en: str) -> None:
    assert (words.side(side, "es"), words.side(side, "en")) == (es, en)


@pytest.mark.parametrize(("vulnerability", "es", "en"), [
    (Vulnerability.NONE, "Nadie", "None"), (Vulnerability.NS, "NS", "NS"),
    (Vulnerability.EW, "EO", "EW"), (Vulnerability.BOTH, "Todos", "Both")])
def test_vulnerability(vulnerability: Vulnerability, es: str, en: str) -> None:
    assert words.vulnerability(vulnerability, "es") == es
    assert words.vulnerability(vulnerability, "en") == en


@pytest.mark.parametrize(("strain", "es", "en"), [
    (Strain.NT, "ST", "NT"), (Strain.S, "S", "S"), (Strain.H, "H", "H"), (Strain.D, "D", "D"),
    (Strain.C, "C", "C")])
def test_strain_letters(strain: Strain, es: str, en: str) -> None:
    assert (words.strain(strain, "es"), words.strain(strain, "en")) == (es, en)


@pytest.mark.parametrize(("call", "es", "en", "keyed_es", "keyed_en"), [
    ("1NT", "1ST", "1NT", "1ST", "1NT"),
    ("4H", "4♥", "4♥", "4♥", "4♥"),
    ("2C", "2♣", "2♣", "2♣", "2♣"),
    ("Pass", "P", "P", "Paso", "Pass"),
    ("X", "X", "X", "Doblo", "X"),
    ("XX", "XX", "XX", "Redoblo", "XX"),
])
def test_calls_on_a_display_line(call: str, es: str, en: str, keyed_es: str,
                                 keyed_en: str) -> None:
    assert words.call(call, "es") == es and words.call(call, "en") == en
    assert words.call(Call.from_str(call), "es") == es  # a Call reads as its text
    assert words.call(call, "es", keyed=True) == keyed_es
    assert words.call(call, "en", keyed=True) == keyed_en


@pytest.mark.parametrize(("contract", "es", "en"), [
    ("4HX", "4♥X", "4♥X"), ("3NT", "3ST", "3NT"), ("6NTXX", "6STXX", "6NTXX"),
    ("1C", "1♣", "1♣")])
def test_contracts_on_a_display_line(contract: str, es: str, en: str) -> None:
    parsed = Contract.from_str(contract)
    assert (words.contract(parsed, "es"), words.contract(parsed, "en")) == (es, en)


@pytest.mark.parametrize(("card", "shown"), [
    ("SQ", "♠Q"), ("HT", "♥10"), ("D4", "♦4"), ("CA", "♣A"), ("no card", "no card")])
def test_cards_on_a_display_line(card: str, shown: str) -> None:
    assert words.card(card) == shown


def test_cards_run_together_on_a_display_line() -> None:
    assert words.cards(["CJ", "HQ", "DT"]) == "♣J♥Q♦10"


def test_passed_out() -> None:
    assert (words.passed_out("es"), words.passed_out("en")) == ("Todos pasan", "Passed out")


# -- the pages: pieces --------------------------------------------------------------------

@pytest.mark.parametrize(("text", "adjusted", "es", "en"), [
    ("4HX", None, ("4", ES_HEARTS, "X"), ("4", EN_HEARTS, "X")),
    ("3NT", None, ("3", "ST"), ("3", "NT")),
    ("2S", None, ("2", SuitMark(Suit.S, "picas")), ("2", SuitMark(Suit.S, "spades"))),
    ("7CXX", None, ("7", SuitMark(Suit.C, "tréboles"), "XX"),
     ("7", SuitMark(Suit.C, "clubs"), "XX")),
    ("Pass", None, ("Todos pasan",), ("Passed out",)),
    (None, "A60/40", ("A60/40",), ("A60/40",)),
    (None, None, (), ()),
    ("8Q", None, ("8Q",), ("8Q",)),  # no contract: as it is
])
def test_contract_pieces(text: str | None, adjusted: str | None, es: words.Pieces,
                         en: words.Pieces) -> None:
    assert words.contract_pieces(text, "es", adjusted) == es
    assert words.contract_pieces(text, "en", adjusted) == en


@pytest.mark.parametrize(("call", "es", "en"), [
    ("1NT", ("1", "ST"), ("1", "NT")),
    ("2H", ("2", ES_HEARTS), ("2", EN_HEARTS)),
    ("Pass", ("Paso",), ("Pass",)),
    ("X", ("Doblo",), ("Double",)),
    ("XX", ("Redoblo",), ("Redouble",)),
    ("??", ("??",), ("??",)),
])
def test_call_pieces(call: str, es: words.Pieces, en: words.Pieces) -> None:
    assert words.call_pieces(call, "es") == es
    assert words.call_pieces(call, "en") == en


@pytest.mark.parametrize(("card", "es", "en"), [
    ("SQ", (SuitMark(Suit.S, "picas"), "Q"), (SuitMark(Suit.S, "spades"), "Q")),
    ("HT", (ES_HEARTS, "10"), (EN_HEARTS, "10")),
    ("D2", (SuitMark(Suit.D, "diamantes"), "2"), (SuitMark(Suit.D, "diamonds"), "2")),
    ("", (), ()), (None, (), ()), ("Z9", ("Z9",), ("Z9",)),
])
def test_card_pieces(card: str | None, es: words.Pieces, en: words.Pieces) -> None:
    assert words.card_pieces(card, "es") == es
    assert words.card_pieces(card, "en") == en


def test_ranks_and_strain_pieces() -> None:
    assert [words.rank_text(r) for r in (Rank.TEN, Rank.ACE, Rank.TWO)] == ["10", "A", "2"]
    assert words.strain_pieces(Strain.NT, "es") == ("ST",)
    assert words.strain_pieces(Strain.H, "en") == (EN_HEARTS,)
    assert words.suit_mark(Suit.C, "es") == SuitMark(Suit.C, "tréboles")


# -- the pieces written out ---------------------------------------------------------------

def test_pieces_as_plain_text() -> None:
    assert words.plain(words.contract_pieces("4HX", "es")) == "4♥X"
    assert words.plain(words.card_pieces("ST", "en")) == "♠10"
    assert words.plain(words.contract_pieces("3NT", "es")) == "3ST"


def test_pieces_as_html() -> None:
    assert words.html(words.contract_pieces("4HX", "es")) == (
        '4<span class="suit suit-H" role="img" aria-label="corazones">♥</span>X')
    assert words.html(words.card_pieces("CA", "en")) == (
        '<span class="suit suit-C" role="img" aria-label="clubs">♣</span>A')
    # Text is escaped as markupsafe escapes it, so a page shows what it showed before.
    assert words.html(("<b>&\"'",)) == "&lt;b&gt;&amp;&#34;&#39;"


def test_pieces_as_json() -> None:
    assert words.to_json(words.contract_pieces("2DX", "es")) == [
        "2", {"suit": "D", "symbol": "♦", "name": "diamantes"}, "X"]
    assert words.to_json(words.contract_pieces("Pass", "en")) == ["Passed out"]
    assert words.to_json(()) == []
