"""The live results display: the club room's screen, public, read-only (docs/display.md).

``/`` shows the rankings and the released boards' results and keeps them current by itself:
``display.js`` listens to ``/live/stream`` (server-sent events) and, on each ``change``,
fetches ``/api/v1/rankings`` and ``/api/v1/results`` again. ``/board/<n>`` is one released
board: its traveller with the field's scores, the frequency of its scores as an SVG chart, and
its hand record with the double-dummy table and par.

Everything here passes through the release rule of :mod:`server.scoring.standings`: a board's
results and its hand record are shown only once every table scheduled to play it has finished it, or
the director released it. An unreleased board is a 404 that says nothing about it.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from markupsafe import Markup, escape

from laws import Card, Deal, RulesError, Seat, Side, Strain, Suit, Vulnerability
from server.link.round_times import server_now
from server.pages import rankview, vugraph
from server.pages.progress import Progress, session_progress
from server.scoring.analysis import Analysis, AnalysisError
from server.scoring.fieldscore import Scored, parse_adjusted
from server.scoring.standings import ResultRow
from server.scoring.swiss import swiss_of
from server.services import services
from server.setup.session import (
    Session,
    board_conditions,
    deals_of,
    participants_of,
    stored_analysis,
)
from server.storage.db import Database
from server.texts import (
    display_texts,  # noqa: F401 (registers the display's texts)
    rankview_texts,  # noqa: F401 (registers the rankings' search and pages)
)
from server.texts.i18n import language, t
from tablemodel import words

bp = Blueprint("display", __name__)

STREAM_KINDS = frozenset({"results", "analysis", "tables"})
"""What the display's pages show: a result stored or corrected, an analysis finished, a
table that moved on (the session's progress)."""
RECENT_BOARDS = 6
"""Released boards whose results the live page shows, the highest numbers first; every
released board is a link there to its own page."""
BOARD_ROWS = 20
"""The most results of one board the live page shows: a club's traveller whole; of a big
field's board, the results at the tables of the section the page shows, else the ten best
and the ten worst for North-South, and a link to the board's page, which has them all. At
5,000 tables the six newest boards held 1,200 rows, most of the page's weight."""
PROGRESS_TABLES = 60
"""The most tables whose stage the live page lists one by one: past it (a field of sections),
the tables of the section the page shows, else only the tables offline; the summary line
counts the whole field. 5,000 tables' lines were half the page and most of its drawing."""
VUGRAPH_LINKS = 60
"""The most tables the live page links to the vugraph of, one link each: past it (a field of
sections), the tables of the section the page shows, and a box to ask for any table by name;
5,000 links were a page's weight that nobody reads through."""


@bp.record_once
def _table_names(state: Any) -> None:
    """``table_name(n)`` for every template, pages and streamed fragments alike: "B3" in a
    session of sections, else the number."""
    state.app.jinja_env.globals["table_name"] = table_name


def read_session(session: Session | None) -> None:
    """The request has read the session already: ``table_name`` names tables by it rather
    than reading it again (a fragment of the console is fetched after every change)."""
    g.table_session = session


def table_name(table: int) -> str:
    if "table_session" not in g:  # the session read once a request, not once a table
        g.table_session = services().session
    session: Session | None = g.table_session
    return str(table) if session is None else session.table_label(table)


# -- the pages ----------------------------------------------------------------------------

@bp.get("/")
def index() -> Any:
    session = services().session
    if session is None:
        return _render("display/empty.html")
    version = services().hub.version  # read before the data: a change after it is told
    db = services().db
    scores = services().scored(session)
    scored = scores.field
    labels = labels_of(session)
    swiss = (swiss_of(db, session, public=True, scored_field=scored)
             if session.kind.paired else None)
    view, error = ranking_view(scored.standings, labels, request.args)
    section = view.query.section
    boards = recent_boards(scores.shown, section=section)
    asked = progress_query(session, section)
    progress, matched = progress_shown(
        session_progress(db, session, len(scores.released), server_now()), session,
        section, asked.get("stage", ""), int(asked["limit"]) if "limit" in asked else None)
    shown = ({row.participant for row in view.rows}
             | {pair for board in boards for row in board.rows
                for pair in (row.ns_pair, row.ew_pair)})
    return _render("display/index.html", session=session, method=scored.method,
                   groups=ranking_groups(view.rows), labels=labels, swiss=swiss,
                   view=view, query_error=error, ranking_endpoint="display.index",
                   search_action=url_for("display.index"), boards=boards,
                   released=sorted(scores.released), board_rows=BOARD_ROWS,
                   vugraph_tables=vugraph_links(session, section),
                   texts=_script_texts({n: labels[n] for n in shown if n in labels},
                                       session, version, section),
                   progress=progress, progress_matched=matched, progress_query=asked)


@bp.get("/board/<int:number>")
def board(number: int) -> Any:
    session = services().session
    if session is None:
        return _not_shown(number, "display_no_session")
    if number not in session.plan.boards():
        return _not_shown(number, "display_no_board")
    version = services().hub.version
    scores = services().scored(session)
    released = scores.released
    if number not in released:
        return _not_shown(number, "display_not_released")
    rows = [r for r in scores.rows if r.board == number]
    scored = scores.field
    lines = traveller(rows, scored.scored.get(number, []))
    record = hand_record(session, number)
    if record is not None and record.analysis is None and not record.analysis_failed:
        services().analyse_released({number})
    ordered = sorted(released)
    at = ordered.index(number)
    labels = labels_of(session)
    return _render(
        "display/board.html", session=session, number=number, method=scored.method,
        lines=lines, labels=labels, chart=frequency_chart(number, rows),
        texts=_script_texts({}, session, version),
        record=record, analysing=services().analyser is not None,
        previous=ordered[at - 1] if at > 0 else None,
        following=ordered[at + 1] if at + 1 < len(ordered) else None)


@bp.get("/vugraph")
def vugraph_find() -> Any:
    """``/vugraph?table=B3``: the vugraph of the table of that name (the live page's box for a
    field too big to link every table); back to the live page when there is none."""
    session = services().session
    asked = " ".join(request.args.get("table", "").split()).upper()
    if session is not None and asked:
        found = table_of_name(session, asked)
        if found is not None:
            return redirect(url_for("display.vugraph_page", table=found))
    return redirect(url_for("display.index", vugraph=asked[:8] or None) + "#vugraph-tables")


@bp.get("/vugraph/<int:table>")
def vugraph_page(table: int) -> Any:
    """One table's board as the public may see it, by the session's rule (server/pages/vugraph.py):
    a board once released; live, ``VUGRAPH_DELAY`` seconds late, only for a single match
    whose director chose it; nothing when the director turned it off."""
    session = services().session
    if session is None or not 1 <= table <= session.tables:
        abort(404)
    try:
        shown = vugraph.vugraph(services().db, session, table, now=vugraph_now(),
                                delay=vugraph_delay(), language=language())
    except vugraph.VugraphOff:
        return _render("display/vugraph_off.html", session=session), 404
    return _render("display/vugraph.html", session=session, vg=shown,
                   stream=f"/vugraph/{table}/stream", texts=vugraph_texts())


@bp.get("/vugraph/<int:table>/stream")
def vugraph_stream(table: int) -> Response:
    """The live hub's stream, each change told ``VUGRAPH_DELAY`` seconds late: when the public
    view shows it, never sooner (vugraph.delayed)."""
    session = services().session
    if session is None or not 1 <= table <= session.tables or session.vugraph == "off":
        abort(404)
    delay = vugraph_delay()
    soon = vugraph.held(services().db, session.event, table, now=vugraph_now(), delay=delay)
    generator = vugraph.delayed(services().hub, delay, soon=soon)
    return Response(stream_with_context(generator), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def vugraph_texts() -> Markup:
    """What vugraph.js says in the page's language, as JSON safe inside <script>."""
    text = json.dumps({"live": t("display_live"), "updated": t("display_updated"),
                       "offline": t("display_offline"), "language": language()},
                      ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def vugraph_delay() -> float:
    """Config ``VUGRAPH_DELAY``: seconds the public vugraph runs behind the tables."""
    return float(current_app.config.get("VUGRAPH_DELAY", vugraph.DEFAULT_DELAY))


def vugraph_now() -> float:
    """The server's clock, as the vugraph reads it: config ``VUGRAPH_CLOCK`` (a function
    giving seconds, for simulated time), else the wall clock that ingest stamps events with."""
    clock = current_app.config.get("VUGRAPH_CLOCK") or time.time
    return float(clock())


@bp.get("/live/stream")
def stream() -> Response:
    return Response(stream_with_context(services().hub.stream(STREAM_KINDS)),
                    mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _not_shown(number: int, reason: str) -> tuple[str, int]:
    # A board not played yet, one the session does not have, or no session: a 404 that names
    # the number asked for and the reason, and nothing about the board.
    return _render("display/not_shown.html", number=number, reason=reason), 404


# -- what the pages show --------------------------------------------------------------------

@dataclass(frozen=True)
class Label:
    text: str
    names: str


def labels_of(session: Session) -> dict[int, Label]:
    """Each participant's label in the visitor's language and names."""
    east_west = words.side(Side.EW, language())
    return {number: Label(localised(p.label, east_west), p.names)
            for number, p in participants_of(services().db, session).items()}


def localised(label: str, east_west: str | None = None) -> str:
    """A pair's label in the visitor's language: the movement labels a Mitchell's pairs
    "3 NS" and "3 EW"; Spanish says Este-Oeste (``east_west``: that word, when the caller
    has it already)."""
    if label.endswith(" EW"):
        return label[:-2] + (east_west or words.side(Side.EW, language()))
    return label


GROUP_ORDER = {"NS": 0, "EW": 1}
"""North-South's ranking first, as the club's sheets put it; any other group after."""


def _group_parts(group: str) -> tuple[str, str]:
    """A ranking group's section and direction: "A NS" -> ("A", "NS"), "B" -> ("B", ""),
    "EW" -> ("", "EW"), "" -> ("", "")."""
    if " " in group:
        section, _, direction = group.rpartition(" ")
        return section, direction
    return ("", group) if group in GROUP_ORDER else (group, "")


def group_key(group: str) -> tuple[int, str, int, str]:
    """The order of ranking groups: section by section (A before B, Z before AA), and North-
    South before East-West within each."""
    section, direction = _group_parts(group)
    return (len(section), section, GROUP_ORDER.get(direction, 2), direction)


def group_caption(group: str) -> str:
    """A ranking's caption: "North-South rankings", "Section A, North-South rankings",
    "Section B rankings"; "" for a field ranked as one."""
    section, direction = _group_parts(group)
    if not section:
        return t(f"display_group_{direction}") if direction else ""
    if not direction:
        return t("display_group_section", section=section)
    return t("display_group_section_direction", section=section,
             rankings=t(f"display_group_{direction}"))


def section_of_group(group: str) -> str:
    """A ranking group's section letter, "" for a field of one section."""
    return _group_parts(group)[0]


def ranking_view(rows: Sequence[Any], labels: dict[int, Label],
                 args: Any) -> tuple[rankview.RankingPage, str | None]:
    """The page of the rankings the request's ``q``, ``section`` and ``page`` ask for
    (server/pages/rankview.py); a query out of bounds shows the first page of them all, and why."""
    error = None
    try:
        query = rankview.RankingQuery.from_args(args)
    except rankview.QueryError as refused:
        query, error = rankview.RankingQuery(), str(refused)
    view = rankview.select(rows, query, labels={n: (label.text, label.names)
                                                for n, label in labels.items()},
                           order=group_key, section_of=section_of_group)
    return view, error


def ranking_groups(rows: Sequence[Any]) -> list[tuple[str, list[Any]]]:
    groups: dict[str, list[Any]] = {}
    for row in rows:
        groups.setdefault(row.group, []).append(row)
    return sorted(groups.items(), key=lambda item: group_key(item[0]))


@dataclass(frozen=True)
class RecentBoard:
    """A released board's results as the live page shows them: ``rows`` all of ``total``
    (in table order), or, trimmed, the best and the worst for North-South (in that order)."""

    board: int
    rows: list[ResultRow]
    total: int  # the board's results in the part of the field shown (a section, or all)

    @property
    def trimmed(self) -> bool:
        return len(self.rows) < self.total


def recent_boards(rows: Iterable[ResultRow], *, boards: int | None = RECENT_BOARDS,
                  section: str = "", most: int = BOARD_ROWS,
                  only: Iterable[int] | None = None) -> list[RecentBoard]:
    """The ``boards`` highest-numbered boards of ``rows`` (None: all; of those ``only`` names
    when given), each with its results at the tables of ``section`` ("": all), at most
    ``most`` of them (``BOARD_ROWS``): past it, half the best and half the worst for
    North-South by points (the field's scores of sections scored apart do not compare), the
    artificial scores, which have no points, left to the board's page."""
    wanted = None if only is None else set(only)
    by_board: dict[int, list[ResultRow]] = {}
    for row in rows:
        if (wanted is None or row.board in wanted) and (not section or row.section == section):
            by_board.setdefault(row.board, []).append(row)
    chosen = sorted(by_board, reverse=True)
    if boards is not None:
        chosen = chosen[:boards]
    recent = []
    for number in chosen:
        found = sorted(by_board[number], key=lambda r: r.table)
        if len(found) > most:
            ordered = sorted((r for r in found if r.score_ns is not None),
                             key=lambda r: (-(r.score_ns or 0), r.table))
            found = ordered[:most - most // 2] + ordered[max(most - most // 2,
                                                             len(ordered) - most // 2):]
        recent.append(RecentBoard(number, found, len(by_board[number])))
    return recent


def progress_query(session: Session, section: str = "") -> dict[str, str]:
    """Which tables' progress the live page lists, as ``/api/v1/progress`` arguments: every
    table of a field up to ``PROGRESS_TABLES``; of a bigger one, the tables of ``section``,
    or without one the first ``PROGRESS_TABLES`` tables offline."""
    if session.tables <= PROGRESS_TABLES:
        return {}
    if section:
        return {"section": section}
    return {"stage": "offline", "limit": str(PROGRESS_TABLES)}


def progress_shown(progress: Progress, session: Session, section: str = "",
                   stage: str = "", limit: int | None = None) -> tuple[Progress, int]:
    """``progress`` with the tables of ``section`` alone, of those at ``stage`` alone
    (each when given), the first ``limit`` of them; and how many there were before the
    limit. The summary stays the field's."""
    if not section and not stage and limit is None:
        return progress, len(progress.tables)
    kept = [row for row in progress.tables
            if (not section or session.section_of_table(row.table) == section)
            and (not stage or row.stage == stage)]
    return replace(progress, tables=kept[:limit]), len(kept)


def vugraph_links(session: Session, section: str = "") -> list[int]:
    """The tables the live page links to the vugraph of: every table of a field up to
    ``VUGRAPH_LINKS``; of a bigger one, the tables of ``section`` (none without one: the
    page's box asks for a table by name)."""
    if session.vugraph == "off":
        return []
    tables = range(1, session.tables + 1)
    if session.tables <= VUGRAPH_LINKS:
        return list(tables)
    if not section:
        return []
    return [table for table in tables if session.section_of_table(table) == section]


def table_of_name(session: Session, name: str) -> int | None:
    """The table a person names: "B3" in a session of sections (or its number), else its
    number; None for no table of the session."""
    if not session.sections or name.isdigit():
        number = int(name) if name.isdigit() else 0
        return number if 1 <= number <= session.tables else None
    return next((table for table in range(1, session.tables + 1)
                 if session.table_label(table).upper() == name), None)


@dataclass(frozen=True)
class TravellerLine:
    """One table's result on the board with its field score (None: not scored, e.g. a result
    the laws could not score, waiting for the director)."""

    row: ResultRow
    scored: Scored | None


def traveller(rows: Sequence[ResultRow], scored: Sequence[Scored]) -> list[TravellerLine]:
    """The board's results, best for North-South first, each with its field score."""
    by_table = {item.result.table: item for item in scored}
    lines = [TravellerLine(row, by_table.get(row.table)) for row in rows]

    def key(line: TravellerLine) -> tuple[float, int]:
        if line.scored is not None:
            return (-line.scored.ns, line.row.table)
        return (-(line.row.score_ns or 0), line.row.table)
    return sorted(lines, key=key)


# -- the score-frequency chart ------------------------------------------------------------

@dataclass(frozen=True)
class Bar:
    score: int
    count: int
    y: int
    width: float


@dataclass(frozen=True)
class Chart:
    board: int
    bars: list[Bar]
    adjusted: int  # artificial adjusted scores, which have no points to chart
    width: int
    height: int
    label_width: int
    bar_height: int


def artificial(row: ResultRow) -> bool:
    """An artificial adjusted score (Law 12C2): a percentage, no points to chart."""
    try:
        return parse_adjusted(row.adjusted) is not None
    except ValueError:
        return False


def frequency(rows: Iterable[ResultRow]) -> list[tuple[int, int]]:
    """(NS score, how many tables scored it), the best for North-South first."""
    counts = Counter(row.score_ns for row in rows
                     if row.score_ns is not None and not artificial(row))
    return sorted(counts.items(), key=lambda item: -item[0])


def frequency_chart(board: int, rows: Sequence[ResultRow]) -> Chart:
    bar_height, gap, label_width, plot = 28, 8, 90, 320
    counts = frequency(rows)
    most = max((count for _, count in counts), default=1)
    bars = [Bar(score, count, i * (bar_height + gap), plot * count / most)
            for i, (score, count) in enumerate(counts)]
    adjusted = sum(1 for row in rows if artificial(row))
    height = max(1, len(bars)) * (bar_height + gap)
    return Chart(board, bars, adjusted, label_width + plot + 50, height, label_width,
                 bar_height)


# -- the hand record ----------------------------------------------------------------------

@dataclass(frozen=True)
class HandRecord:
    board: int
    dealer: Seat
    vulnerability: Vulnerability
    hands: dict[Seat, dict[Suit, str]]  # seat -> suit -> ranks, highest first ("" = void)
    hcp: dict[Seat, int]
    analysis: Analysis | None  # None: not yet, or it failed (analysis_failed)
    analysis_failed: bool


def hand_record(session: Session, board: int) -> HandRecord | None:
    pbn = deals_of(services().db, session).get(board)
    if pbn is None:
        return None
    try:
        deal = Deal.from_pbn(pbn)
    except RulesError:
        return None
    analysis, error = analysis_of(services().db, session, board)
    hands = {seat: {suit: _holding(deal, seat, suit) for suit in SUITS}
             for seat in Seat if seat in deal}
    dealer, vulnerability = board_conditions(session, board)
    return HandRecord(board, dealer, vulnerability, hands,
                      {seat: deal.hcp(seat) for seat in Seat if seat in deal}, analysis,
                      error is not None)


def analysis_of(db: Database, session: Session, board: int) -> tuple[Analysis | None, str | None]:
    """The board's stored double-dummy analysis, and why it failed if it did."""
    text, error = stored_analysis(db, session, board)
    if text is None:
        return None, error
    try:
        return Analysis.from_json(text), None
    except (AnalysisError, ValueError) as failure:  # stored by another version: not shown
        return None, str(failure)


SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
STRAINS = (Strain.NT, Strain.S, Strain.H, Strain.D, Strain.C)
DD_SEATS = (Seat.N, Seat.S, Seat.E, Seat.W)


def dd_tricks(analysis: Analysis, strain: Strain, seat: Seat) -> int:
    """Double-dummy tricks for ``seat`` declaring in ``strain``."""
    return analysis.tricks[str(strain)][str(seat)]


def par_html(analysis: Analysis) -> Markup:
    """The par score from North-South's side and the contracts that reach it: "NS +620:
    4♠ N, 4♠ S"; a deal nobody makes anything on is passed out, 0."""
    pars = analysis.pars
    if not pars:
        return Markup(escape(t("display_par_none")))
    # Each contract with its tricks, as the scoring programs print par: "4♠+1 N".
    shown = Markup(", ").join(Markup("{}{} {}").format(contract_html(p.contract), p.result,
                                                         seat_letter(p.declarer))
                              for p in pars)
    return Markup("NS {:+d}: {}").format(analysis.par_score, shown)


def _holding(deal: Deal, seat: Seat, suit: Suit) -> str:
    return holding(deal[seat], suit)


# -- bridge words in the visitor's language (tablemodel.words: the table's displays say the same) --

def seat_letter(seat: str | Seat | None) -> str:
    """``W`` as ``O`` in Spanish; no seat as nothing."""
    return "" if seat is None else words.seat_letter(seat, language())


def seat_name(seat: Seat) -> str:
    """``North`` / ``Norte``."""
    return words.seat_name(seat, language())


def strain_html(strain: Strain) -> Markup:
    return Markup(words.html(words.strain_pieces(strain, language())))


def suit_html(suit: Suit) -> Markup:
    return Markup(words.html((words.suit_mark(suit, language()),)))


def contract_html(contract: str | None, adjusted: str | None = None) -> Markup:
    """``4HX`` as 4♥X, ``3NT`` as 3NT (3ST in Spanish), ``Pass`` as passed out."""
    return Markup(words.html(words.contract_pieces(contract, language(), adjusted)))


def call_html(text: str) -> Markup:
    """A call as the room says it: ``1NT`` as 1NT (1ST), ``2H`` as 2♥, Pass, Double,
    Redouble in the visitor's language."""
    return Markup(words.html(words.call_pieces(text, language())))


def holding(cards: Iterable[Card], suit: Suit) -> str:
    """The ranks of ``suit`` in ``cards``, highest first (``10`` for the ten)."""
    ranks = sorted((card.rank for card in cards if card.suit is suit), reverse=True)
    return " ".join(words.rank_text(rank) for rank in ranks)


def card_html(text: str | None) -> Markup:
    """A lead ``SQ`` as ♠Q, ``HT`` as ♥10."""
    return Markup(words.html(words.card_pieces(text, language())))


def vulnerability_name(vulnerability: Vulnerability) -> str:
    return words.vulnerability(vulnerability, language())


def shown_result(row: ResultRow) -> dict[str, Any]:
    """A result's bridge words for display.js, rendered here (tablemodel.words), so that the
    script spells none: the contract and the lead as pieces (``words.to_json``), the
    declarer's letter."""
    lang = language()
    return {"contract": words.to_json(words.contract_pieces(row.contract, lang, row.adjusted)),
            "declarer": seat_letter(row.declarer),
            "lead": words.to_json(words.card_pieces(row.lead, lang))}


def decimal(value: float | None, places: int = 2) -> str:
    return words.decimal(value, language(), places)


def _render(template: str, **context: Any) -> str:
    return render_template(template, **HELPERS, **context)


def clock_text(clock: dict[str, Any]) -> str:
    """The round clock's line (server/roundclock.clock_json) as display.js and console.js
    also write it: "Round 2: 12:05 left", warned, or "time is up"."""
    whole = max(0, math.ceil(clock["left"]))
    key = {"running": "display_clock", "warning": "display_clock_warning",
           "over": "display_clock_over"}[clock["stage"]]
    return t(key, round=clock["round"], time=f"{whole // 60}:{whole % 60:02d}")


HELPERS: dict[str, Any] = {
    "clock_text": clock_text, "group_caption": group_caption,
    "seat_letter": seat_letter, "seat_name": seat_name, "contract_html": contract_html,
    "card_html": card_html, "suit_html": suit_html, "strain_html": strain_html, "decimal": decimal,
    "call_html": call_html, "holding": holding, "COLUMNS": vugraph.COLUMNS,
    "vulnerability_name": vulnerability_name, "SUITS": SUITS, "STRAINS": STRAINS,
    "DD_SEATS": DD_SEATS, "Seat": Seat, "dd_tricks": dd_tricks, "par_html": par_html}


SCRIPT_TEXTS = (
    "rankings_count", "rankings_count_filtered", "rankings_none", "rankings_page",
    "rankings_previous", "rankings_next", "rankings_pages",
    "display_board", "display_board_trimmed", "display_no_results", "display_no_rankings",
    "display_rank", "display_pair",
    "display_names", "display_score_mp", "display_score_imps", "display_score_points",
    "display_percent", "display_penalty", "display_ns", "display_ew", "display_contract",
    "display_declarer", "display_lead", "display_tricks", "display_score_ns",
    "display_score_ew", "display_live", "display_updated", "display_offline",
    "display_progress_round", "display_progress_not_started", "display_progress_more",
    "display_progress_boards", "display_progress_round_boards", "display_stage_waiting",
    "display_stage_seating", "display_stage_between", "display_stage_playing",
    "display_stage_done", "display_stage_offline", "display_table_boards", "display_table",
    "display_clock", "display_clock_warning", "display_clock_over")


def script_texts(session: Session) -> Markup:
    """What display.js needs on a page of its own (the room's, for the round clock)."""
    return _script_texts({}, session, None)


def _script_texts(labels: dict[int, Label], session: Session, version: int | None,
                  section: str = "") -> Markup:
    """What display.js needs in the page's language, as JSON safe inside <script>; the live
    hub's ``version`` when the page's data was read: display.js fetches nothing again on
    connecting if the stream says that version still. ``labels``: those of the pairs the page
    shows (the API names the others, localised, as it sends them); the tables' names come
    with the progress the API sends, not here (5,000 tables' names and 10,000 pairs' labels
    were a third of the live page of a national simultaneous)."""
    texts: dict[str, Any] = {key: t(key) for key in SCRIPT_TEXTS}
    texts["version"] = version
    texts["language"] = language()
    named = sorted({p.group for p in session.plan.participants}, key=group_key)
    texts["groups"] = {group: group_caption(group) for group in named}
    texts["group_order"] = named
    texts["labels"] = {str(number): label.text for number, label in labels.items()}
    texts["progress_query"] = progress_query(session, section)
    texts["recent"] = RECENT_BOARDS
    texts["board_rows"] = BOARD_ROWS
    text = json.dumps(texts, ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
