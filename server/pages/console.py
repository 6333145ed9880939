"""The director's console (docs/console.md): sign-in required on every page.

The tables' live grid and the director calls queue; the session's set-up and its rounds; the
rulings sent to tables; results, missing boards, late play and rankings; corrections after a
table has moved on, and the record of both; exports. Pages keep themselves current: each live
part is a fragment (``/console/fragment/<name>``) that ``console.js`` fetches again when the
stream (``/console/stream``) says its kind of data changed; of the tables grid, only the rows
of the tables the stream names (``?only=3,17``).

Views parse the form and call the service layer (session, standings, rulings, tables); none
holds SQL.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    g,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from markupsafe import Markup

from server.errors import Refused
from server.link import (
    afterboard,
    conflicts,
    rounds,
)
from server.link import (
    director_calls as rulings,
)
from server.link import (
    round_times as roundclock,
)
from server.link.live import MAX_TABLES
from server.link.tables import TableRow, table_grid
from server.outputs import exports, publish
from server.pages import rankview, tableview, vugraph
from server.pages.auth import login_required
from server.pages.display import HELPERS as DISPLAY_HELPERS
from server.pages.display import group_key, read_session, section_of_group, table_name
from server.scoring import standings
from server.scoring.swiss import rematches, swiss_of
from server.services import services
from server.setup import pair_cards as syscards
from server.setup import running
from server.setup import session as sessions
from server.setup.movements import IN_SECTIONS, KINDS, Section, section_letters
from server.setup.scorings import ENTRIES, Method
from server.setup.session import Session, SessionError
from server.texts import (
    clock_texts,  # noqa: F401 (registers the round clock's texts)
    console_texts,  # registers the console's texts; table_message
    rankview_texts,  # noqa: F401 (registers the rankings' search and pages)
)
from server.texts.i18n import PAGES, language, t
from tablemodel.regulation import DEFAULT_TRAY_DELAY, PROFILES

# Each movement's name on the console, from its kind (server/setup/movements.py KINDS).
PAGES.add({f"console_movement_{name}": kind.words for name, kind in KINDS.items()})
# Each scoring's name, from its entry (server/setup/scorings.py ENTRIES).
PAGES.add({f"console_scoring_{scoring}": entry.words for scoring, entry in ENTRIES.items()})

bp = Blueprint("console", __name__, url_prefix="/console")


@bp.after_request
def not_kept(response: Response) -> Response:
    """Console pages hold unreleased results: no browser or proxy may keep a copy (Back after
    signing out on the club's shared computer shows nothing)."""
    response.headers.setdefault("Cache-Control", "no-store")  # the stream says no-cache
    return response


@bp.context_processor
def rows_max() -> dict[str, Any]:
    """The most rows console.js may ask for by number: past it, it fetches the whole grid."""
    return {"rows_max": MAX_TABLES, "clock_text": DISPLAY_HELPERS["clock_text"]}


@bp.before_app_request
def page_started() -> None:
    """When this request began (the server's clock), before it read anything: a console page
    built from what it read tells console.js, whose stream's hello says when the last change
    was; a change between the two (one the stream, opened after it, would not tell) makes the
    page fetch its live parts again."""
    g.page_started = time.time()


@bp.app_context_processor
def clock_words() -> dict[str, Any]:
    """The round clock's words, for every page built on the console's layout (the scoring
    page is another blueprint's)."""
    return {"clock_texts": _clock_texts}


def _clock_texts() -> Markup:
    """The round clock's words for console.js, as JSON safe inside <script>."""
    text = json.dumps({key: t(key) for key in ("display_clock", "display_clock_warning",
                                               "display_clock_over")}, ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e")
                  .replace("&", "\\u0026"))


STREAM_KINDS = frozenset({"tables", "results", "calls", "commands", "status", "conflicts",
                          "seated"})
EXPORTS = publish.FORMATS  # each export format defined once (server/outputs/publish.py)
PAGES.add({f"console_export_{name}": form.words for name, form in EXPORTS.items()})


class FormError(Refused):
    """A form field the director must fix; the message is already in the page's language.
    ``field`` names the field (its ``name``), when one is to blame: the form marks it."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _optional(name: str) -> int | None:
    text = request.form.get(name, "").strip()
    return None if not text else _number(name)


def _number(name: str) -> int:
    text = request.form.get(name, "").strip()
    try:
        return int(text)
    except ValueError:
        # A row's field ("section_pairs-2") is named by its column.
        what = t(f"console_{name.partition('-')[0]}")
        raise FormError(t("console_not_a_number", what=what, value=text), name) from None


def _seconds(name: str) -> float:
    """A number of seconds from the form; blank is the default tray delay."""
    text = request.form.get(name, "").strip().replace(",", ".")
    if not text:
        return DEFAULT_TRAY_DELAY
    try:
        return float(text)
    except ValueError:
        raise FormError(t("console_not_a_number", what=t(f"console_{name}"),
                          value=text), name) from None


def _rounds(name: str) -> tuple[int, ...]:
    """Round numbers typed as "7, 8" or "7 8"; blank is none."""
    text = request.form.get(name, "").replace(",", " ").split()
    try:
        return tuple(sorted({int(word) for word in text}))
    except ValueError:
        raise FormError(t("console_not_a_number", what=t(f"console_{name.split('-')[0]}"),
                          value=" ".join(text)), name) from None


#: How many rows for more sections the set-up form shows (its button adds more).
SECTION_ROWS = 3


def _more_sections(boards_per_round: int, first_board: int) -> list[Section]:
    """Sections B, C, ... from the set-up form's rows (``section_movement-N`` and the
    rest); a row with no pairs is left out. Every section plays the same boards per round,
    from the same first board, so that a board can be compared across the field."""
    found: list[Section] = []
    rows = _section_row_numbers(request.form)
    letters = section_letters(len(rows) + 1)
    for row in rows:
        if not request.form.get(f"section_pairs-{row}", "").strip():
            continue
        letter = letters[len(found) + 1]
        found.append(Section(letter, request.form.get(f"section_movement-{row}", ""),
                             _number(f"section_pairs-{row}"), boards_per_round,
                             _optional(f"section_rounds-{row}"), first_board,
                             _rounds(f"section_arrow_rounds-{row}")))
    return found


def _section_row_numbers(form: Any) -> list[int]:
    """The numbers N of the form's ``section_pairs-N`` rows, in order."""
    return sorted({int(key.rpartition("-")[2]) for key in form
                   if key.startswith("section_pairs-") and key.rpartition("-")[2].isdigit()})


def _named(sections: list[Section]) -> tuple[Section, list[Section]]:
    """The sections with the names the form gives (``section_names``: "bilbao, madrid"),
    in order; blank keeps the letters. A centre names its sections after the clubs."""
    text = request.form.get("section_names", "").strip()
    if not text:
        return sections[0], sections[1:]
    names = [name.strip() for name in text.replace(";", ",").split(",") if name.strip()]
    if len(names) != len(sections):
        raise FormError(t("console_section_names_count", names=len(names),
                          sections=len(sections)), "section_names")
    named = [replace(section, letter=name) for section, name in zip(sections, names,
                                                                    strict=True)]
    return named[0], named[1:]


def _refused(error: Exception) -> None:
    flash(t("console_refused", reason=str(error)))


def _session_or_none() -> Session | None:
    return services().session


def _needs_session() -> Session:
    found = _session_or_none()
    if found is None:
        flash(t("console_no_session"))
        abort(redirect(url_for("console.index")))
    return found


def chosen_session() -> Session:
    """The session a download is for: ``?session=<id>``, one of the sessions run before (the
    list of sessions offers their exports), else the running one."""
    ident = request.args.get("session", type=int)
    if ident is None:
        return _needs_session()
    found = running.session_by_id(services().db, ident)
    if found is None:
        abort(404)
    return found


# -- the live fragments ----------------------------------------------------------------------

def tables_shown(found: Session | None) -> tuple[tableview.TablesView, str | None]:
    """The part of the field the request's ``section`` and ``page`` ask the grid to show
    (server/pages/tableview.py), and the refusal of a bad one (the first page then)."""
    try:
        return tableview.tables_view(found, request.args), None
    except tableview.QueryError as error:
        return tableview.default_view(found), str(error)


def _tables(found: Session | None, only: frozenset[int] | None = None) -> dict[str, Any]:
    """The tables grid, the page of it the request asks for; the rows of the tables in
    ``only`` alone when given. A session's table that has not spoken yet is there, offline."""
    view, error = tables_shown(found)
    if only is None and view.paged:  # a page of a large field: its tables alone
        only = frozenset(view.tables)
    rows = {row.table: row for row in table_grid(services().db, services().event, only)}
    for number in range(1, (found.tables if found else 0) + 1):
        if only is None or number in only:
            rows.setdefault(number, TableRow(number, False, None, None, None, 0, 0, None, 0))
    return {"tables": [rows[n] for n in sorted(rows)], "now": time.time(),
            "tables_view": view, "tables_view_error": error}


def _calls(found: Session | None) -> dict[str, Any]:
    return {"calls": rulings.calls(services().db, services().event), "now": time.time()}


def _results(found: Session | None) -> dict[str, Any]:
    """The results grid: of a big field a section or a page of tables at a time, as the
    request's ``section`` and ``grid`` ask (server/pages/rankview.py ``grid_page``)."""
    if found is None:
        return {"boards": [], "table_numbers": [], "cells": {}, "grid": None,
                "correct_tables": []}
    sections: dict[str, list[int]] = {}
    if len(found.sections) > 1:
        for table in range(1, found.tables + 1):
            sections.setdefault(found.section_of_table(table), []).append(table)
    grid = rankview.grid_page(found.tables, list(sections.items()), request.args)
    shown = set(grid.tables)
    rows = [row for row in standings.all_results(services().db, found) if row.table in shown]
    boards = (found.plan.boards() if len(shown) == found.tables else sorted(
        {board for seat in found.plan.seatings if seat.table in shown for board in seat.boards}
        | {row.board for row in rows}))
    # The correction form offers the tables of the grid, and the one a cell's link named.
    asked = request.args.get("table", type=int)
    extra = [asked] if asked and 1 <= asked <= found.tables and asked not in shown else []
    return {"boards": boards, "table_numbers": grid.tables, "grid": grid,
            "correct_tables": sorted(shown | set(extra)),
            "cells": {(row.board, row.table): row for row in rows}}


def _progress(found: Session | None) -> dict[str, Any]:
    if found is None:
        return {"missing": [], "late": []}
    db = services().db
    rows = standings.all_results(db, found)
    released = standings.released_boards(db, found, rows)
    missing = standings.missing(db, found)
    waiting: dict[int, list[int]] = defaultdict(list)
    for _round, table, board in missing:
        waiting[board].append(table)
    done = Counter(row.board for row in rows)
    late = []
    for board in found.plan.boards():
        plays = [seat for seat in found.plan.schedule(board) if not seat.sit_out]
        # Late: every table that plays the board should have by now, and it is still hidden.
        if board in released or not plays or max(p.round for p in plays) > found.current_round:
            continue
        late.append((board, done[board], len(plays), sorted(waiting[board])))
    return {"missing": missing, "late": late}


def _clock(found: Session | None) -> dict[str, Any]:
    """The round clock: the time left, the late tables (Law 90 material), the lengths set."""
    if found is None:
        return {"clock": None, "late": [], "setting": None}
    db, now = services().db, roundclock.server_now()
    return {"clock": roundclock.clock_json(roundclock.round_clock(db, found), now),
            "late": roundclock.late_tables(db, found, now),
            "setting": roundclock.session_setting(db, found)}


def _rankings(found: Session | None) -> dict[str, Any]:
    """The rankings, a page of them as the request's ``q``, ``section`` and ``page`` ask
    (server/pages/rankview.py): a field of thousands of pairs is read by search and by page."""
    nothing: dict[str, Any] = {
        "standings": [], "method": Method.MP, "participants": {}, "error": None,
        "swiss": None, "view": None, "query_error": None,
        "ranking_endpoint": "console.results_page"}
    if found is None:
        return nothing
    try:
        # Scored once per change for every reader (server/services.py FieldScores).
        scored = services().scored(found, public=False).field
    except ValueError as error:  # e.g. a pair with two results on a board: fix it first
        return {**nothing, "error": str(error)}
    participants = sessions.participants_of(services().db, found)
    query_error = None
    try:
        query = rankview.RankingQuery.from_args(request.args)
    except rankview.QueryError as refused:
        query, query_error = rankview.RankingQuery(), str(refused)
    view = rankview.select(scored.standings, query, labels={
        n: (p.label, p.names) for n, p in participants.items()}, order=group_key,
        section_of=section_of_group)
    return {**nothing, "standings": view.rows, "method": scored.method,
            "participants": participants, "view": view, "query_error": query_error,
            "swiss": swiss_of(services().db, found, public=False, scored_field=scored)
            if found.kind.paired else None}


def _history(found: Session | None) -> dict[str, Any]:
    return {"entries": rulings.history(services().db, services().event)}


def _storage(found: Session | None) -> dict[str, Any]:
    """Whether results are being stored: the ingest worker's refusal, if it holds one."""
    bus = services().bus
    fault = None if bus is None else bus.fault
    return {"storage": fault,
            "storage_since": None if fault is None else time.strftime(
                "%H:%M:%S", time.localtime(fault.since))}


def _conflicts(found: Session | None) -> dict[str, Any]:
    """Tables whose events came twice with different content (server/link/conflicts.py)."""
    return {"conflicts": [
        (c, time.strftime("%H:%M:%S", time.localtime(c.latest_at)))
        for c in conflicts.conflicts_of(services().db, services().event)]}


FRAGMENTS: dict[str, Callable[[Session | None], dict[str, Any]]] = {
    "tables": _tables, "calls": _calls, "results": _results, "progress": _progress,
    "clock": _clock, "storage": _storage, "conflicts": _conflicts,
    "rankings": _rankings, "history": _history,
}

#: The fragments whose rows console.js fetches alone (``?only=3,17``): the data of the rows
#: of the tables named, and the template that draws those rows alone.
ROWS: dict[str, tuple[Callable[[Session | None, frozenset[int]], dict[str, Any]], str]] = {
    "tables": (_tables, "console/_table_rows.html"),
}


def _page(template: str, found: Session | None, parts: tuple[str, ...],
          **extra: Any) -> str:
    context: dict[str, Any] = {"current": found, **extra}
    for name in parts:
        context.update(FRAGMENTS[name](found))
    return render_template(template, **context)


@bp.context_processor
def ruling_helpers() -> dict[str, Any]:
    """How the rulings form and record word a ruling's fields (tablemodel.rulings defines them)."""
    return {"field_label": rulings.field_label, "field_value": rulings.field_value,
            "choice_value": rulings.choice_value, "words": _words,
            "seat_letter": DISPLAY_HELPERS["seat_letter"],
            "table_message": console_texts.table_message}


def _words(words: Any) -> str:
    return str(words[language()])


@bp.get("/fragment/<name>")
@login_required
def fragment(name: str) -> Any:
    found = _session_or_none()
    read_session(found)  # the rows' table names, from the session read here
    if name.startswith("vugraph-") and name[8:].isdigit():
        return render_template("console/_vugraph.html", current=found,
                               **_director_vugraph(found, int(name[8:])))
    if name not in FRAGMENTS:
        abort(404)
    if "only" in request.args:
        return _rows(name, found, request.args["only"])
    return render_template(f"console/_{name}.html", current=found, **FRAGMENTS[name](found))


def _rows(name: str, found: Session | None, only: str) -> Any:
    """``/console/fragment/tables?only=3,17`` (or ``seated``): those tables' rows alone, for
    console.js to put in place of the ones it shows when the stream names them."""
    try:
        if name not in ROWS:
            raise ValueError(f"only= picks rows of the {' and '.join(sorted(ROWS))} "
                             f"fragments, not of {name!r}")
        wanted = _only(only)
    except ValueError as error:
        return Response(f"{error}\n", status=400, mimetype="text/plain")
    rows, template = ROWS[name]
    return render_template(template, current=found, **rows(found, wanted))


_TABLE_NUMBER = re.compile(r"[0-9]{1,6}")  # tablemodel.wire's table numbers; ASCII digits only


def _only(text: str) -> frozenset[int]:
    """The table numbers of ``only=3,17``: at most ``MAX_TABLES`` (a change never names more;
    past it, the page fetches the whole grid)."""
    parts = text.split(",")
    if len(parts) > MAX_TABLES:
        raise ValueError(f"only= names {len(parts)} tables; at most {MAX_TABLES}")
    for part in parts:
        if not _TABLE_NUMBER.fullmatch(part) or int(part) < 1:
            raise ValueError(f"only= wants table numbers such as only=3,17; "
                             f"{part[:20]!r} is not one")
    return frozenset(int(part) for part in parts)


@bp.get("/stream")
@login_required
def stream() -> Response:
    generator = services().hub.stream(STREAM_KINDS)
    return Response(stream_with_context(generator), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# -- pages -----------------------------------------------------------------------------------

@bp.get("/")
@login_required
def index() -> Any:
    found = _session_or_none()
    if found is None:
        return _setup_page(request.form)
    return _page("console/index.html", found,
                 ("tables", "calls", "clock", "storage", "conflicts", "seated"))


def _section_rows(form: Any) -> list[tuple[int, str]]:
    """The rows of more sections the form shows, with their letters (B, C, ...): those the
    director sent (kept when the form comes back refused), and at least SECTION_ROWS."""
    sent = _section_row_numbers(form)
    rows = sent if len(sent) >= SECTION_ROWS else list(range(1, SECTION_ROWS + 1))
    return list(zip(rows, section_letters(len(rows) + 1)[1:], strict=True))


def _setup_page(form: Any, error: Exception | None = None) -> str:
    """The set-up form (of the next session once one is running); refused, with ``error``
    above it, the field to blame marked and focused (else the message is)."""
    before = _session_or_none()
    return _page("console/setup.html", before, ("tables",) if before is None else (),
                 form=form, error=error, error_field=getattr(error, "field", None),
                 movements=sessions.MOVEMENTS, scorings=sessions.SCORINGS,
                 section_kinds=IN_SECTIONS, scopes=sessions.SCOPES,
                 section_rows=_section_rows(form),
                 screens=sessions.SCREENS, profiles=PROFILES,
                 default_tray_delay=DEFAULT_TRAY_DELAY, vugraph_modes=sessions.VUGRAPH_MODES,
                 dealings=sessions.DEALINGS, after_kinds=afterboard.KINDS, before=before,
                 next_event=running.new_event_name(services().db, services().name))


@bp.get("/sessions")
@login_required
def sessions_page() -> Any:
    """Every session of this server: the running one, and those before with their exports,
    any of which can be made the running one again."""
    return _page("console/sessions.html", _session_or_none(), (),
                 listed=running.sessions(services().db), exports=EXPORTS,
                 downloads=SESSION_DOWNLOADS)


#: The printouts of the scoring page, offered for every session of the list too.
SESSION_DOWNLOADS = {"scoring.report_pdf": "scoring_report_pdf",
                     "scoring.hands_pdf": "scoring_hands_pdf",
                     "scoring.site_zip": "scoring_site_zip"}


@bp.post("/sessions/<int:ident>/run")
@login_required
def run_session(ident: int) -> Any:
    """Make a session of the list the running one again: its tables follow it back, each
    once it is between boards (docs/director.en.md)."""
    try:
        found = running.run_session(services().db, ident)
    except SessionError as error:
        _refused(error)
        return redirect(url_for("console.sessions_page"))
    services().follow_running()
    flash(t("console_session_running", title=found.title, event=found.event))
    return redirect(url_for("console.index"))


@bp.post("/vugraph")
@login_required
def vugraph_switch() -> Any:
    """The public vugraph's switch: released boards only, off, or live (a single match)."""
    found = _needs_session()
    try:
        running.set_vugraph(services().db, found, request.form.get("vugraph", ""))
    except SessionError as error:
        _refused(error)
    else:
        flash(t("console_vugraph_set_" + request.form["vugraph"]))
        services().hub.notify({"tables"})  # open public vugraph pages fetch again
    return redirect(url_for("console.session_page") + "#public-vugraph")


@bp.post("/afterboard")
@login_required
def after_board_switch() -> Any:
    """What the tables show after each board (server/link/afterboard.py): each page on or off."""
    found = _needs_session()
    chosen = _after_board_pages(request.form)
    afterboard.set_pages(services().db, found, chosen, g.director)
    services().results_changed()  # the bus tells the tables at once
    named = [t(f"console_after_board_{kind}") for kind in afterboard.KINDS
             if getattr(chosen, kind)]
    named = [name[:1].lower() + name[1:] for name in named]  # inside a sentence
    flash(t("console_after_board_set",
            pages="; ".join(named) or t("console_after_board_none")))
    return redirect(url_for("console.session_page") + "#after-board")


def _after_board_pages(form: Any) -> afterboard.Pages:
    """The after-board switches as the set-up or the session page's form has them ticked."""
    return afterboard.Pages(**{kind: form.get(f"after_{kind}") == "on"
                               for kind in afterboard.KINDS})


@bp.get("/session")
@login_required
def session_page() -> Any:
    found = _needs_session()
    db = services().db
    return _page("console/session.html", found, ("clock",),
                 participants=sessions.participants_of(db, found).values(),
                 deals=len(sessions.deals_of(db, found)), boards=len(found.plan.boards()),
                 cards=syscards.loaded(db, found), profiles=PROFILES,
                 vugraph_modes=sessions.VUGRAPH_MODES,
                 after_board=afterboard.pages_of(db, found), after_kinds=afterboard.KINDS)


@bp.get("/cards/<int:participant>")
@login_required
def card_page(participant: int) -> Any:
    found = _needs_session()
    loaded = syscards.card_of(services().db, found, participant)
    if loaded is None:
        abort(404)
    label = sessions.participants_of(services().db, found).get(participant)
    return _page("console/card.html", found, (), loaded=loaded, participant=label,
                 lang=language())


@bp.get("/vugraph/<int:table>")
@login_required
def vugraph_page(table: int) -> Any:
    """The director's vugraph: the table as the director sees it (view_for("director")),
    now, hands and every explanation included."""
    found = _needs_session()
    if not 1 <= table <= found.tables:
        abort(404)
    return _page("console/vugraph.html", found, (), **_director_vugraph(found, table))


def _director_vugraph(found: Session | None, table: int) -> dict[str, Any]:
    if found is None:
        abort(404)
    shown = vugraph.vugraph(services().db, found, table, now=time.time(), delay=0.0,
                            language=language(), director=True)
    return {"vg": shown, **DISPLAY_HELPERS}


@bp.get("/rulings")
@login_required
def rulings_page() -> Any:
    found = _needs_session()
    return _page("console/rulings.html", found, ("history",), kinds=rulings.CONSOLE_KINDS,
                 laws=rulings.LAWS, form_fields=rulings.form_fields(),
                 chosen_table=request.args.get("table", type=int))


@bp.get("/results")
@login_required
def results_page() -> Any:
    found = _needs_session()
    prefill = {name: request.args.get(name, "") for name in ("table", "board")}
    return _page("console/results.html", found, ("results", "progress", "rankings"),
                 prefill=prefill, exports=EXPORTS)


@bp.get("/corrections")
@login_required
def corrections_page() -> Any:
    return _page("console/corrections.html", _session_or_none(), ("history",))


@bp.get("/export/<kind>")
@login_required
def export(kind: str) -> Any:
    if kind not in EXPORTS:
        abort(404)
    found = chosen_session()
    form = EXPORTS[kind]
    mimetype, extension = form.content_type, form.extension
    try:
        text = form.write(services().db, found)
    except exports.ExportError as error:  # e.g. a field that cannot be scored
        flash(str(error))
        return redirect(url_for("console.results_page"))
    return Response(text, content_type=mimetype, headers={
        "Content-Disposition": f'attachment; filename="{found.event}.{extension}"'})


# -- the session: set-up, names, hand records, rounds ----------------------------------------

@bp.get("/new")
@login_required
def new_session_page() -> Any:
    """The set-up form for the next session, while one runs: the tables move to the new one
    once it is created (server/setup/running.py); the one before stays in the list of sessions."""
    return _setup_page(request.form)


@bp.post("/setup")
@login_required
def setup() -> Any:
    form = request.form
    db = services().db
    before = _session_or_none()
    # The form names the session that ran when it was shown: a second press of "Create"
    # (or a form from before another director's new session) creates nothing.
    if before is not None and form.get("after") != str(before.id):
        flash(t("console_created_meanwhile", title=before.title))
        return redirect(url_for("console.session_page"))
    upload = request.files.get("pbn")
    seed: int | None = None
    try:
        title = form.get("title", "").strip()
        if not title:
            raise FormError(t("console_title_required"), "title")
        event = running.new_event_name(db, services().name,
                                       typed=form.get("event", "").strip())
        dealing = form.get("dealing") or "server"
        if dealing == "table":
            if (upload and upload.filename) or form.get("seed", "").strip():
                raise FormError(t("console_dealing_no_hands"), "seed")
            upload = None
        elif not (upload and upload.filename):
            seed = _optional("seed")
            seed = secrets.randbelow(1_000_000) if seed is None else seed
        kind = form.get("movement", "")
        boards_per_round = _number("boards_per_round")
        first_board = _optional("first_board") or 1
        first = Section("A", kind, _number("participants"), boards_per_round,
                        _optional("rounds"), first_board, _rounds("arrow_rounds"))
        more = _more_sections(boards_per_round, first_board)
        first, more = _named([first, *more])
        if upload and upload.filename:
            # The file is checked before the session is made: one that is not a PBN file of
            # deals makes none (whether its boards are the session's is told after).
            sessions.read_deals(upload.read(), None)
            upload.stream.seek(0)
        found = rounds.create_session(
            db, event=event, title=title, kind=kind,
            participants=first.pairs, boards_per_round=boards_per_round,
            rounds=first.rounds, first_board=first_board, sections=[first, *more] if more else None,
            arrow_rounds=first.arrow_rounds, scope=form.get("scope") or "section",
            scoring=form.get("scoring") or None, seed=seed,
            screens=form.get("screens") or None, tray_delay=_seconds("tray_delay"),
            profile=form.get("profile") or PROFILES["feb"].name,
            round_minutes=_optional("round_minutes"),
            warning_minutes=_optional("warning_minutes") or 0,
            vugraph=form.get("vugraph") or "released", dealing=dealing)
    except (FormError, SessionError) as error:
        return _setup_page(form, error), 400
    if form.get("after_board"):  # the set-up's switches (a form without them: every page)
        afterboard.set_pages(db, found, _after_board_pages(form), g.director)
    services().follow_running()  # the bus and the tables move to it
    flash(t("console_created", title=found.title, tables=found.tables, rounds=found.rounds))
    if before is not None:
        flash(t("console_created_next", event=found.event, before=before.title))
    if found.dealt_at_table:
        flash(t("console_dealt_at_table"))
    elif seed is not None:
        flash(t("console_dealt", seed=seed))
    else:
        _import(found)
    services().hub.notify({"tables", "results"})
    return redirect(url_for("console.session_page"))


def _import(found: Session) -> None:
    upload = request.files.get("pbn")
    if upload is None or not upload.filename:
        flash(t("console_refused", reason=t("console_no_file")))
        return
    try:
        count = sessions.import_deals(services().db, found, upload.read())
    except SessionError as error:
        _refused(error)
        return
    flash(t("console_imported", n=count))


@bp.post("/deals")
@login_required
def deals() -> Any:
    _import(_needs_session())
    return redirect(url_for("console.session_page"))


@bp.post("/names")
@login_required
def names() -> Any:
    found = _needs_session()
    known = sessions.participants_of(services().db, found)
    given = {number: request.form[f"name-{number}"].strip() for number in known
             if f"name-{number}" in request.form}
    sessions.set_names(services().db, found, given)
    flash(t("console_names_saved"))
    services().hub.notify({"results"})
    return redirect(url_for("console.session_page"))


@bp.post("/cards")
@login_required
def load_card() -> Any:
    """Give a pair a system card: an uploaded JSON file, or the example card (seed 004). A
    file that is not a card is refused with the reason and changes nothing."""
    found = _needs_session()
    db = services().db
    try:
        participant = _number("participant")
        if request.form.get("example"):
            card = syscards.store_example(db, found, participant, by=g.director)
        else:
            upload = request.files.get("card")
            if upload is None or not upload.filename:
                raise FormError(t("console_no_file"))
            card = syscards.store_file(db, found, participant, upload.read(), by=g.director)
    except (FormError, SessionError) as error:
        _refused(error)
        return redirect(url_for("console.session_page") + "#cards")
    flash(t("console_card_loaded", name=card.name, participant=participant))
    return redirect(url_for("console.session_page") + "#cards")


@bp.post("/cards/<int:participant>/remove")
@login_required
def remove_card(participant: int) -> Any:
    found = _needs_session()
    if syscards.remove(services().db, found, participant):
        flash(t("console_card_removed", participant=participant))
    return redirect(url_for("console.session_page") + "#cards")


@bp.post("/conflicts/<int:table>")
@login_required
def resolve_conflict(table: int) -> Any:
    """The director's choice between a table's stored events and the ones that came later
    with the same numbers (server/link/conflicts.py)."""
    choice = request.form.get("choice")
    if choice == "later":
        done = conflicts.take_later(services().ingest, table)
        flash(t("console_conflict_taken", n=done, table=table_name(table)))
    elif choice == "stored":
        done = conflicts.keep_stored(services().db, services().event, table)
        flash(t("console_conflict_kept", n=done, table=table_name(table)))
    else:
        abort(400)
    services().hub.notify({"tables", "results", "calls", "commands", "conflicts", "seated"})
    return redirect(url_for("console.index"))


@bp.post("/round")
@login_required
def start_round() -> Any:
    found = _needs_session()
    hand = request.form.get("pairing", "").strip() or None  # a Swiss paired by the director
    try:
        number = _number("round")
        sent = rounds.start_round(services().db, found, number, by=g.director,
                                    clock=roundclock.server_now, hand=hand)
    except (FormError, SessionError) as error:
        _refused(error)
        return redirect(url_for("console.session_page"))
    services().commands_queued()
    flash(t("console_round_sent", n=number, tables=len(sent)))
    if hand is not None and (again := rematches(services().db, found, number)):
        flash(t("console_rematches", matches=", ".join(f"{h}-{a}" for h, a in again)))
    return redirect(url_for("console.index"))


@bp.post("/clock")
@login_required
def set_clock() -> Any:
    """The rounds' length and warning: every round's (round blank), or one round's."""
    found = _needs_session()
    try:
        number = _optional("round")
        warning = _optional("warning_minutes") or 0
        if number is None:
            roundclock.set_session_length(services().db, found,
                                          _optional("round_minutes"), warning)
        else:
            clock = roundclock.set_round_length(
                services().db, found, number, _number("round_minutes"), warning,
                by=g.director, now=roundclock.server_now())
            if clock is not None and number == found.current_round:
                _clock_changed()
    except (FormError, SessionError) as error:
        _refused(error)
        return redirect(url_for("console.index"))
    flash(t("console_clock_saved"))
    services().hub.notify({"tables"})
    return redirect(url_for("console.index"))


@bp.post("/clock/extend")
@login_required
def extend_clock() -> Any:
    """The current round ends later; the tables learn it from the retained clock."""
    found = _needs_session()
    try:
        clock = roundclock.extend(services().db, found, found.current_round,
                                  _number("extend_minutes"), by=g.director,
                                  now=roundclock.server_now())
    except (FormError, SessionError) as error:
        _refused(error)
        return redirect(url_for("console.index"))
    _clock_changed()
    flash(t("console_clock_extended", round=clock.round,
            time=time.strftime("%H:%M", time.localtime(clock.ends_at))))
    return redirect(url_for("console.index"))


def _clock_changed() -> None:
    """The bus publishes the retained clock again; pages fetch the progress again."""
    services().commands_queued()
    services().hub.notify({"tables"})


# -- calls, rulings, releases, corrections ---------------------------------------------------

@bp.post("/calls/<int:call_id>/ack")
@login_required
def acknowledge(call_id: int) -> Any:
    try:
        rulings.acknowledge(services().db, services().event, call_id, by=g.director)
    except rulings.RulingError as error:
        _refused(error)
        return redirect(url_for("console.index"))
    services().commands_queued()
    services().hub.notify({"calls"})
    return redirect(url_for("console.index"))


@bp.post("/calls/<int:call_id>/resolve")
@login_required
def resolve(call_id: int) -> Any:
    try:
        table = rulings.resolve(services().db, services().event, call_id, by=g.director)
    except rulings.RulingError as error:
        _refused(error)
        return redirect(url_for("console.index"))
    services().commands_queued()  # the director_ack of a call resolved unacknowledged
    services().hub.notify({"calls", "tables"}, tables={table})  # its open calls in the grid
    return redirect(url_for("console.index"))




@bp.post("/ruling")
@login_required
def ruling() -> Any:
    found = _needs_session()
    kind = request.form.get("kind", "")
    try:
        table = _number("table")
        if kind not in rulings.CONSOLE_KINDS:
            raise FormError(t("console_unknown_ruling", kind=kind))
        rulings.queue_ruling(services().db, found, table, kind, request.form, by=g.director,
                             note=request.form.get("note"), board=_optional("board"))
    except (FormError, rulings.RulingError) as error:
        _refused(error)
        return redirect(url_for("console.rulings_page", table=request.form.get("table")))
    services().commands_queued()
    flash(t("console_ruling_queued", kind=t(f"console_kind_{kind}"),
            table=table_name(table)))
    return redirect(url_for("console.rulings_page", table=table))


@bp.post("/release")
@login_required
def release() -> Any:
    found = _needs_session()
    try:
        board = _number("board")
        if board not in found.plan.boards():
            raise FormError(t("console_no_board", board=board))
    except FormError as error:
        _refused(error)
        return redirect(url_for("console.results_page"))
    standings.release(services().db, found, board, g.director)
    services().results_changed()  # the pages, and the tables' after-board pages
    flash(t("console_released", board=board))
    return redirect(url_for("console.results_page"))


@bp.post("/correct")
@login_required
def correct() -> Any:
    found = _needs_session()
    form = request.form
    try:
        table, board = _number("table"), _number("board")
        after = rulings.correct_result(
            services().db, found, table, board, contract=form.get("contract"),
            declarer=form.get("declarer"), tricks=_optional("tricks"),
            adjusted=form.get("adjusted"), score_ns=_optional("score_ns"), by=g.director,
            note=form.get("note"))
    except (FormError, rulings.RulingError) as error:
        _refused(error)
        return redirect(url_for("console.results_page", table=form.get("table"),
                                board=form.get("board")) + "#correct")
    services().results_changed()
    score = after["score_ns"] if after["score_ns"] is not None else after["adjusted"]
    flash(t("console_corrected", table=table_name(table), board=board, score=score))
    return redirect(url_for("console.results_page"))


# -- template helpers ------------------------------------------------------------------------

@bp.app_template_filter("console_age")
def age(seconds: float | None) -> str:
    """Minutes and seconds (hours when it comes to that): how long something has waited."""
    if seconds is None:
        return "–"
    whole = int(max(0.0, seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@bp.app_template_filter("console_clock")
def clock(at: float | None) -> str:
    return "–" if at is None else time.strftime("%H:%M:%S", time.localtime(at))


@bp.app_template_filter("console_day")
def day(at: float) -> str:
    """A session's day and hour, as the club reads a date: 28/11/2026 19:30."""
    return time.strftime("%d/%m/%Y %H:%M", time.localtime(at))


# -- texts -----------------------------------------------------------------------------------
