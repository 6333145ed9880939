"""Every seat display text, in both languages, with its longest arguments: nothing is cut.

A seat display has four lines of twenty characters (issue 33). Each text is rendered with
the longest arguments the table can give it (board 999, four-digit pairs, a player number
of ten digits, a register name of 40 characters, a section label of 16, a 160-character
meaning, the longest seat, vulnerability, contract, card and ruling words), and must fit the
lines its screen gives it: one line for most, two for the texts that say so (a notice may
take the line above the last, an option list two lines of the cue), pages for the texts read
on with a key (answers, meanings, long names). A text with a field this test does not know
fails, so a new text cannot escape it.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from itertools import product
from types import SimpleNamespace
from typing import Any

import pytest

from laws import Seat, Vulnerability
from laws.messages import REFUSALS
from tabled import i18n, seat_lines
from tabled.control import Notice
from tablemodel import words
from tablemodel.rulings import KINDS
from tablemodel.syscard import MAX_MEANING
from tablemodel.texts import (
    KEEP,
    LANGUAGES,
    MORE,
    WIDTH,
    TooWide,
    first_fitting,
    fit,
    page,
    pages,
    wrap,
)
from tablemodel.wire import MAX_LABEL, MAX_NAME, MAX_PAIR, MAX_PLAYER

LABEL = "bilbao-centro-12"
assert len(LABEL) == MAX_LABEL
NAME = "María de los Ángeles Fernández-Castañón"[:MAX_NAME]
MEANING = ("13-14 o 19-20 balanceada, o 13-20 con tréboles; forcing una vuelta; "
           "la respuesta de 1♦ niega cuatro cartas de un mayor; vea la carta de convenios")
assert len(MEANING) <= MAX_MEANING


def worst(language: str) -> dict[str, list[Any]]:
    """The longest arguments each field can have on a display, in ``language``."""
    seats = [words.seat_letter(s, language) for s in Seat]
    return {
        "board": [999], "round": [999], "ns": [MAX_PAIR], "ew": [MAX_PAIR], "table": [LABEL],
        "number": [MAX_PLAYER], "name": [NAME], "count": [13], "left": [13],
        "tricks": [13], "code": [9999], "minutes": [999], "score": ["+7600", "-7600"],
        "seat": [*seats, "N/S", "E/O" if language == "es" else "E/W"],
        "asker": seats, "declarer": seats, "dealer": seats, "seats": ["".join(seats)],
        "vul": [words.vulnerability(v, language) for v in Vulnerability],
        "side": [words.side(s.side, language) for s in Seat],
        "call": ["7ST" if language == "es" else "7NT", "7♠", "XX"],
        "contract": ["7STXX" if language == "es" else "7NTXX", "7♥XX"],
        "card": ["♦10"], "due": ["♦10"], "first": ["♦10"], "second": ["♣10"],
        "suit": ["♠"], "cards": ["1 ♦10 2 ♣10 3 ♥10 4 ♠10"],
        "kind": [i18n.ruling(k, language) for k in KINDS] + [i18n.text("ruling_bids",
                                                                       language)],
        "where": [i18n.text("stay", language), i18n.text("to_table", language, table=9999)],
        "text": [MEANING],
    }


#: Texts that may take two lines: a notice over the last two lines, an option list or a
#: hint as the cue's two lines, the round and a section's table.
TWO_LINES = {"round_table", "alert_partner", "journal_full", "lead_out_of_turn",
             "lead_options_54", "penalty_lead", "hesitation", "simultaneous_play",
             "premature_options", "designate", "breach", "remind_alert", "faced_lead",
             "unknown_player", "penalty_line", "ruling"}
#: Texts read page by page (docs/keypad.md): any length.
PAGED = {"answer", "answered", "player_named"}
#: Texts tried first and given up for a shorter form when they do not fit
#: (``tablemodel.texts.first_fitting``): the table's label alone.
FALLBACK = {"table_only"}
#: Where a field is narrower than its worst elsewhere: the round's guidance names a
#: table by its number.
NARROWER: dict[str, dict[str, list[Any]]] = {"to_table": {"table": [9999]}}


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def renderings(key: str, language: str) -> Iterator[str]:
    template = i18n.TEXTS[key][language]
    values = {**worst(language), **NARROWER.get(key, {})}
    names = _fields(template)
    unknown = [n for n in names if n not in values]
    assert not unknown, f"{key}: no worst case for {unknown}: add one to this test"
    for combo in product(*(values[n] for n in names)):
        yield template.format(**dict(zip(names, combo, strict=True)))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", sorted(i18n.TEXTS))
def test_every_seat_text_fits_its_lines_with_the_longest_arguments(key: str,
                                                                   language: str) -> None:
    allowed = 2 if key in TWO_LINES else 1
    if key in FALLBACK:
        assert len(LABEL) <= WIDTH  # what it falls back to
        return
    for text in renderings(key, language):
        lines = wrap(text)
        assert all(len(line) <= WIDTH for line in lines), lines
        if key not in PAGED:
            assert len(lines) <= allowed, (key, language, lines)


@pytest.mark.parametrize("language", LANGUAGES)
def test_two_line_texts_are_only_those_that_need_it(language: str) -> None:
    """The TWO_LINES list is kept honest: a text listed there that fits one line in both
    languages is moved out of it."""
    needing = {key for key in TWO_LINES for lang in LANGUAGES
               for text in renderings(key, lang) if len(wrap(text)) > 1}
    assert needing == TWO_LINES


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_law_refusal_fits_with_its_number(language: str) -> None:
    for law in i18n.LAW_TEXTS:
        lines = wrap(i18n.law_text(law, language))
        assert len(lines) <= 2 and lines[-1].endswith(f"L{law}"), lines


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_ruling_short_name_fits_the_ruling_notice(language: str) -> None:
    for kind in KINDS:
        text = i18n.text("ruling", language, kind=i18n.ruling(kind, language))
        assert len(wrap(text)) <= 2, text


@pytest.mark.parametrize(("language", "number", "dealer", "vul"), [
    (language, number, dealer, vul) for language in LANGUAGES
    for number in (1, 9, 10, 13, 99, 100, 999) for dealer in Seat for vul in Vulnerability])
def test_the_header_keeps_board_dealer_and_vulnerability(language: str, number: int,
                                                         dealer: Seat,
                                                         vul: Vulnerability) -> None:
    board = SimpleNamespace(number=number, dealer=dealer, vulnerability=vul)
    header = seat_lines._header(board, language)  # type: ignore[arg-type]
    assert len(header) <= WIDTH, header
    assert str(number) in header
    assert f" {words.seat_letter(dealer, language)} " in header
    assert header.endswith(words.vulnerability(vul, language))


def test_the_issue_headers_now_keep_the_vulnerability() -> None:
    both = SimpleNamespace(number=13, dealer=Seat.N, vulnerability=Vulnerability.BOTH)
    assert seat_lines._header(both, "es") == "T13 Rep N Vul Todos"  # type: ignore[arg-type]
    late = SimpleNamespace(number=999, dealer=Seat.W, vulnerability=Vulnerability.NONE)
    assert seat_lines._header(late, "en") == "B999 Dlr W Vul None"  # type: ignore[arg-type]


# -- the layout tools ---------------------------------------------------------------------

def test_wrap_breaks_between_words_and_keeps_every_character() -> None:
    lines = wrap(MEANING)
    assert all(len(line) <= WIDTH for line in lines)
    assert " ".join(lines).split() == MEANING.split()
    assert wrap("") == [""]
    assert wrap("x" * 45) == ["x" * 20, "x" * 20, "x" * 5]  # a word longer than a line
    assert wrap(f"1{KEEP}require 2{KEEP}forbid 3{KEEP}free") == ["1 require 2 forbid", "3 free"]


def test_pages_mark_that_more_follows_and_lose_nothing() -> None:
    split = pages(MEANING, 2)
    assert len(split) > 1
    assert all(p[-1].endswith(MORE) and len(p[-1]) == WIDTH for p in split[:-1])
    assert not split[-1][-1].endswith(MORE)
    text = " ".join(line.rstrip(MORE) for p in split for line in p)
    assert text.split() == MEANING.split()
    assert page(MEANING, 2, len(split)) == split[0]  # round to the first again
    assert pages("natural", 2) == [["natural"]]
    with pytest.raises(ValueError):
        pages("x", 0)


def test_fit_refuses_a_line_too_long_instead_of_cutting_it() -> None:
    assert fit("x" * WIDTH) == "x" * WIDTH
    with pytest.raises(TooWide, match="21 characters"):
        fit("x" * (WIDTH + 1))
    assert first_fitting("Ronda 999 Mesa " + LABEL, LABEL) == LABEL
    with pytest.raises(TooWide):
        first_fitting("x" * 21, "y" * 22)


def test_a_line_too_long_is_logged_and_marked_never_cut_silently(
        caplog: pytest.LogCaptureFixture) -> None:
    rows = seat_lines.layout(["x" * 25], [])
    assert rows[0] == "x" * 19 + MORE and len(rows) == 4
    assert "25 characters" in caplog.text
    assert seat_lines.layout(["a", "b", "c", "d", "e"], ["z"]) == ["a", "b", "c", "z"]
    assert "body of 5 lines" in caplog.text


def test_no_seat_display_code_cuts_a_line_at_the_width() -> None:
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    for path in [*(root / "tabled").glob("*.py"), *(root / "tablemodel").glob("*.py"),
                 root / "hardware" / "selftest.py"]:
        text = path.read_text(encoding="utf-8")
        for cut in ("[:WIDTH]", "[:20]", "[:COLUMNS]"):
            assert cut not in text, f"{path.name} cuts lines with {cut}"


#: The longest params a laws engine's refusal can have, as the engine gives them (the seat's
#: words render them: O for West, Redoblo, ♦10); the longest law a refusal names.
REFUSAL_WORST: dict[str, list[Any]] = {
    "seat": ["W", "N"], "turn": ["W"], "owner": ["W"], "other": ["W"], "partner": ["W"],
    "call": ["7NT", "XX", "Pass"], "last": ["7NT"],
    "card": ["DT"], "wanted": ["DT"], "held": ["DT"], "due": ["DT"],
    "suit": ["S"], "rule": ["30B2(b)"], "option": ["dummy", "accept", "refuse"],
    "tricks": [13], "left": [13],
}
LONGEST_LAW = "30B2(b)"


def refusal_renderings(code: str, language: str) -> Iterator[str]:
    template = i18n.REFUSAL_TEXTS[code][language]
    names = _fields(template)
    unknown = [n for n in names if n not in REFUSAL_WORST]
    assert not unknown, f"{code}: no worst case for {unknown}: add one to this test"
    for combo in product(*(REFUSAL_WORST[n] for n in names)):
        params = dict(zip(names, combo, strict=True))
        yield i18n.refusal_text(code, LONGEST_LAW, language,
                                **words.message_params(params, language)) or ""


def test_every_refusal_of_the_engine_has_its_seat_text() -> None:
    assert set(i18n.REFUSAL_TEXTS) == set(REFUSALS)
    for code, texts in i18n.REFUSAL_TEXTS.items():
        for language in LANGUAGES:  # a seat text says only what the engine's error carries
            assert set(_fields(texts[language])) <= set(_fields(REFUSALS[code].en)), code


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_every_refusal_fits_the_notice_lines_with_the_longest_params(code: str,
                                                                     language: str) -> None:
    for text in refusal_renderings(code, language):
        lines = wrap(text)
        assert all(len(line) <= WIDTH for line in lines), lines
        assert len(lines) <= 2 and lines[-1].endswith(f"L{LONGEST_LAW}"), lines


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_coded_refusal_shows_in_the_seats_language(language: str) -> None:
    notice = Notice("law", {"code": "must_follow_suit", "reason": "W must follow suit in H",
                            "params": {"seat": "W", "suit": "H"}}, "44C")
    shown = seat_lines._notice_lines(notice, language)
    assert shown == [{"en": "Follow suit: ♥ L44C", "es": "Asista a ♥ L44C"}[language]]
    # a code this table does not know (a newer engine's) says the law's own text
    unknown = Notice("law", {"code": "a_newer_code", "params": {}}, "44C")
    assert seat_lines._notice_lines(unknown, language) == [i18n.law_text("44C", language)]
