"""The hand viewer (issue 31): every table's auction and play of a released board, trick by
trick, with the double-dummy analysis of each card (server/outputs/playanalysis.py), and each pair's
tricks given away in play over the session.

The same pages serve the live results (``/board/<n>/hands`` and ``/hands``, server/pages/hands.py,
public once the board is released, as the board's traveller) and the static site
(``<lang>/hands-<n>.html`` and ``<lang>/hands.html``, server/outputs/publish.py). The page is HTML
that reads without a script (the auction and the tricks, each card that gave a trick away
marked); ``handviewer.js`` adds the table with the four hands to step through, card by card.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from laws import Deal, Seat
from laws.records import Record
from server.outputs import playanalysis
from server.outputs.exports import table_records
from server.outputs.playanalysis import PlayAnalysis
from server.outputs.report import environment as printouts
from server.outputs.report import texts  # noqa: F401 (the viewer's words)
from server.scoring.standings import ResultRow
from server.setup.session import Session, board_conditions, deals_of, participants_of
from server.storage.db import Database
from server.texts.i18n import PAGES
from tablemodel import words

TEMPLATES = Path(__file__).resolve().parents[1] / "templates" / "hands"
STATIC = Path(__file__).resolve().parents[1] / "static"
ASSETS = ("handviewer.js", "handviewer.css")


@dataclass(frozen=True)
class TablePlay:
    """One table's play of the board, ready for the page and its script."""

    table: str
    ns: str
    ew: str
    contract: str | None
    declarer: str | None
    tricks: int | None
    score_ns: int | None
    data: dict[str, Any]  # what handviewer.js reads: auction, tricks, analysis
    given: tuple[int, int] | None  # tricks given away: (declarer's side, defence)


def _label(participants: dict[int, Any], number: int | None, lang: str) -> str:
    row = participants.get(number or 0)
    if row is None:
        return str(number or "")
    text = str(row.label)
    if lang == "es" and text.endswith(" EW"):
        text = f"{text[:-2]}EO"
    return f"{text} · {row.names}" if row.names else text


def table_play(session: Session, row: ResultRow, record: Record, analysis: PlayAnalysis | None,
               participants: dict[int, Any], lang: str) -> TablePlay:
    """The page's and the script's view of one table's play: the auction with its alerts, each
    trick's cards in the order played, and each card's double-dummy figures."""
    by_card = {} if analysis is None else {
        (str(c.seat), str(c.card)): c for c in analysis.cards}
    declarer = None if analysis is None else analysis.declarer
    calls = [{"call": str(item.call), "alert": bool(item.alert or (item.note or "").startswith(
        "Alert")), "note": item.note or ""} for item in record.auction]
    tricks = []
    for trick in record.play:
        cards = []
        for seat, card in trick.items():
            found = by_card.get((str(seat), str(card)))
            cards.append({"seat": str(seat), "card": str(card),
                          "before": None if found is None else found.before,
                          "after": None if found is None else found.after,
                          "gave": 0 if found is None or declarer is None
                          else found.given_away(declarer)})
        tricks.append(cards)
    data = {"table": session.table_label(row.table), "dealer": str(record.auction_dealer
                                                                     or record.dealer or "N"),
            "calls": calls, "tricks": tricks, "contract": row.contract,
            "declarer": row.declarer, "result": row.tricks, "score_ns": row.score_ns,
            "analysed": analysis is not None}
    return TablePlay(session.table_label(row.table), _label(participants, row.ns_pair, lang),
                     _label(participants, row.ew_pair, lang), row.contract, row.declarer,
                     row.tricks, row.score_ns, data,
                     None if analysis is None else analysis.given_away())


def board_plays(db: Database, session: Session, board: int, rows: list[ResultRow],
                lang: str) -> dict[str, Any]:
    """Everything the board's page shows: the deal and every table's play."""

    participants = participants_of(db, session)
    analyses = playanalysis.stored(db, session, board)
    deals = deals_of(db, session)
    plays, deal = [], deals.get(board)
    for row, record in table_records(db, session, [r for r in rows if r.board == board]):
        if deal is None and record.deal is not None:
            deal = record.deal.to_pbn()  # no hand record: the hands a table scanned
        plays.append(table_play(session, row, record, analyses.get((row.table, board)),
                                participants, lang))
    dealer, vulnerability = board_conditions(session, board)
    hands: dict[str, list[str]] = {}
    if deal is not None:
        parsed = Deal.from_pbn(deal)
        hands = {str(seat): [str(card) for card in sorted(
            parsed[seat], key=lambda c: ("SHDC".index(str(c.suit)), -c.rank.value))]
            for seat in Seat if seat in parsed}
    return {"board": board, "dealer": str(dealer),
            "vulnerability": words.vulnerability(vulnerability, lang), "hands": hands,
            "plays": plays}


def environment(lang: str) -> jinja2.Environment:
    """The printouts' environment (server/outputs/report: t, suit, contract, seat in ``lang``) with
    the viewer's templates first, and a card's markup."""
    env = printouts(lang)
    loader = env.loader
    assert loader is not None
    env.loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(TEMPLATES), loader])
    suit = env.globals["suit"]

    def card(text: str) -> Markup:
        return Markup("{}{}").format(suit(text[0]), text[1:].replace("T", "10"))  # type: ignore[operator]

    env.globals.update(card=card)
    return env


def _script_data(view: dict[str, Any], lang: str) -> Markup:
    """The board's plays as JSON safe inside <script>."""
    body = {"hands": view["hands"], "plays": [p.data for p in view["plays"]],
            "texts": {key: PAGES.text(key, lang) for key in SCRIPT_TEXTS},
            "seats": {s: ("O" if s == "W" and lang == "es" else s) for s in "NESW"}}
    text = json.dumps(body, ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


SCRIPT_TEXTS = ("hands_trick", "hands_start", "hands_can_take", "hands_gave_away",
                "hands_not_analysed", "hands_first", "hands_previous", "hands_next",
                "hands_last", "hands_lead", "hands_end")


def board_page(view: dict[str, Any], session: Session, lang: str, *, assets: str,
               links: dict[str, str]) -> str:
    env = environment(lang)
    return env.get_template("board.html").render(
        session=session, view=view, script=_script_data(view, lang), assets=assets,
        links=links)


def summary_page(db: Database, session: Session, rows: list[ResultRow], boards: list[int],
                 lang: str, *, assets: str, links: dict[str, str],
                 board_link: str) -> str:
    participants = participants_of(db, session)
    analyses = playanalysis.stored(db, session)
    given = playanalysis.summary([r for r in rows if r.board in set(boards)], analyses)
    pairs = [(_label(participants, pair, lang), *figures) for pair, figures in given.items()]
    env = environment(lang)
    return env.get_template("summary.html").render(
        session=session, pairs=pairs, boards=boards, assets=assets, links=links,
        board_link=board_link)
