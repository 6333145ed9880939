"""The printed results pack and hand-record sheet: Jinja HTML and CSS made into an A4 PDF by
WeasyPrint (docs/exports.md says why WeasyPrint).

``results_pdf(db, session, "es")``: the final rankings (with the penalties apart), every
board's traveller, the hand records with the double-dummy table and par, and a score card per
pair. ``hand_records_pdf(deals, title, "en")``: the hand-record sheet to print before the
session, from the session's deals or from deals generated with a seed. Both in Spanish or
English; the texts are the pages' own (server.texts.i18n), read for the language asked, so a
printout needs no web request.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from laws import Board, Seat, Strain, Suit, Vulnerability
from server.errors import Refused
from server.outputs.report import texts  # noqa: F401 (the Swiss's matches, cards, hand viewer)
from server.outputs.report.cards import guide_cards, table_cards
from server.outputs.report.data import (
    DD_SEATS,
    DD_STRAINS,
    SUITS,
    HandRecord,
    analysed,
    hand_record,
    pack,
)
from server.setup.session import Session, participants_of
from server.storage.db import Database
from server.texts import (
    display_texts,  # noqa: F401 (registers the texts the printouts share with the pages)
    scoring_texts,  # noqa: F401
)
from server.texts.i18n import PAGES
from tablemodel import words
from tablemodel.texts import LANGUAGES

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "report"


class ReportError(Refused):
    """A printout that cannot be made (no PDF library, an unknown language)."""


def environment(language: str) -> jinja2.Environment:
    if language not in LANGUAGES:
        raise ReportError(f"a printout is in {' or '.join(LANGUAGES)}, not {language!r}")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=jinja2.select_autoescape(["html"]),
                             undefined=jinja2.StrictUndefined)

    def t(key: str, **values: Any) -> str:
        if key not in PAGES:
            return key
        return PAGES.text(key, language, **values)

    # The bridge words and numbers as the live pages write them (tablemodel.words): one
    # vocabulary for the screen and the paper.
    def seat(letter: str | Seat | None) -> str:
        return "" if letter is None else words.seat_letter(letter, language)

    def suit(letter: str) -> Markup:
        # The symbol, read out by the suit's name ("corazones").
        return Markup(words.html((words.suit_mark(Suit.from_str(letter), language),)))

    def contract(text: str | None) -> Markup:
        """4HX -> 4♥X; NT in the language's words; Pass as the language says it."""
        return Markup(words.html(words.contract_pieces(text, language)))

    def decimal(value: float | None, places: int = 2) -> str:
        return words.decimal(value, language, places)

    def seat_name(letter: str) -> str:
        return words.seat_name(Seat.from_str(letter), language)

    def vulnerability(vul: Vulnerability) -> str:
        return words.vulnerability(vul, language)

    env.globals.update(t=t, seat=seat, suit=suit, contract=contract, decimal=decimal,
                       seat_name=seat_name, vulnerability=vulnerability,
                       notrump=words.strain(Strain.NT, language),
                       SUITS=[str(s) for s in SUITS], DD_SEATS=DD_SEATS,
                       DD_STRAINS=DD_STRAINS, language=language,
                       language_name=lambda code: PAGES.text("language_name", code))
    return env


def pdf(html: str) -> bytes:
    """The HTML laid out on A4 pages (the page size is the stylesheet's ``@page``)."""
    try:
        import weasyprint  # type: ignore[import-untyped]
    except ImportError:
        raise ReportError("the printouts need WeasyPrint: pip install 'bidbox[report]'") from None
    document: bytes = weasyprint.HTML(string=html, base_url=str(TEMPLATES)).write_pdf()
    return document


def results_html(db: Database, session: Session, language: str) -> str:
    env = environment(language)
    return env.get_template("results.html").render(pack=pack(db, session),
                                                   css=_css())


def results_pdf(db: Database, session: Session, language: str = "es") -> bytes:
    return pdf(results_html(db, session, language))


def hand_records_html(deals: Mapping[int, str], title: str, language: str, *,
                      conditions: Mapping[int, tuple[Seat, Any]] | None = None,
                      analyses: Mapping[int, str | None] | None = None,
                      seed: int | None = None) -> str:
    """The hand-record sheet of ``deals`` (board -> PBN deal): two boards to a page, each
    with its hands, high-card points, double-dummy table and par."""

    records: list[HandRecord] = []
    for board, text in sorted(deals.items()):
        given = (conditions or {}).get(board) or (Board(board).dealer,
                                                   Board(board).vulnerability)
        record = hand_record(board, text, analysed(board, text, (analyses or {}).get(board),
                                                   given), given)
        if record is not None:
            records.append(record)
    env = environment(language)
    return env.get_template("hand_records.html").render(title=title, records=records,
                                                        seed=seed, css=_css())


def hand_records_pdf(deals: Mapping[int, str], title: str, language: str = "es",
                     **more: Any) -> bytes:
    return pdf(hand_records_html(deals, title, language, **more))


def cards_html(db: Database, session: Session, language: str) -> str:
    """The table cards and the guide cards of the session's movement
    (server/outputs/report/cards.py) in ``language``, with the pairs' labels and names as the
    console has them."""
    env = environment(language)
    labels = participants_of(db, session)

    def name(number: int) -> str:
        row = labels.get(number)
        if row is None:
            return str(number)
        text = str(row.label)
        return f"{text[:-2]}EO" if language == "es" and text.endswith(" EW") else text

    def side(letters: str) -> str:
        if len(letters) == 1:
            return words.seat_name(Seat.from_str(letters), language)
        return str(PAGES.text(f"display_{letters.lower()}", language))

    return env.get_template("cards.html").render(
        session=session, tables=table_cards(session), guides=guide_cards(session),
        labels=labels, name=name, side=side, individual=session.kind.plays == "players",
        movement=session.kind.words[language],
        letter_w="W", css=_css())


def cards_pdf(db: Database, session: Session, language: str = "es") -> bytes:
    return pdf(cards_html(db, session, language))


def _css() -> Markup:
    return Markup((TEMPLATES / "report.css").read_text(encoding="utf-8"))
