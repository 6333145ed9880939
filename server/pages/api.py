"""The JSON API, version 1 (docs/api.md).

Public, read-only, and under the same release rule as the pages: a board's results appear only
once every table scheduled to play it has finished it or the director released it. A signed-in
director sees every result (``?all=1``).
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, g, jsonify, request

from laws import Side
from server.link.round_times import server_now
from server.link.tables import table_grid
from server.pages import rankview, vugraph
from server.pages.display import (
    group_key,
    localised,
    progress_shown,
    recent_boards,
    section_of_group,
    shown_result,
    vugraph_delay,
    vugraph_now,
)
from server.pages.progress import STAGES, session_progress
from server.scoring import standings
from server.scoring.swiss import swiss_of
from server.services import services
from server.setup.session import participants_of
from server.texts.i18n import language
from tablemodel import words

bp = Blueprint("api", __name__, url_prefix="/api/v1")
PUBLIC_TABLE_FIELDS = ("table", "online", "round", "board")
STAGE_NAMES = frozenset(STAGES.values()) | {"offline"}


def _no_session() -> Response:
    response = jsonify({"error": "no session has been set up"})
    response.status_code = 404
    return response


def _director() -> bool:
    """A signed-in director whose sign-in has not ended (server/pages/auth.py)."""
    return bool(g.get("director"))


MAX_RECENT = 50
"""The most boards ``?recent=`` asks for."""


class BadQuery(ValueError):
    """A query argument the API cannot take; the message says which and why."""


def _count(name: str, low: int, high: int) -> int | None:
    """The whole number ``?name=`` between ``low`` and ``high``; None when not given."""
    raw = request.args.get(name, "").strip()
    if not raw:
        return None
    if not raw.isascii() or not raw.isdigit() or not low <= int(raw) <= high:
        raise BadQuery(f"{name} {raw[:8]!r}: a number from {low} to {high}")
    return int(raw)


def _boards() -> list[int] | None:
    """``?boards=3,5,7``: those boards only; None when not given."""
    raw = request.args.get("boards", "").strip()
    if not raw:
        return None
    parts = raw.split(",")
    if len(parts) > MAX_RECENT or not all(p.strip().isascii() and p.strip().isdigit()
                                           for p in parts):
        raise BadQuery(f"boards {raw[:16]!r}: up to {MAX_RECENT} board numbers, "
                       "separated by commas")
    return [int(p) for p in parts]


def _section() -> str:
    section = request.args.get("section", "").strip().upper()
    if section and not (section.isascii() and section.isalpha() and len(section) <= 4):
        raise BadQuery(f"section {section[:8]!r}: a section's letters, such as A or AB")
    return section


def _refused(error: Exception) -> Response:
    response = jsonify({"error": str(error)})
    response.status_code = 400
    return response


@bp.get("/results")
def results() -> Any:
    """The released boards' results (a director with ``?all=1``: every result). What the
    live page draws, and no more, with ``?boards=3,5`` (those boards), ``?recent=N`` (the N
    highest-numbered boards, of those), ``?section=B`` (the results at B's tables) and
    ``?per_board=K`` (at most K results a board: half the best and half the worst for
    North-South); ``counts`` then says how many results each board has in all."""
    found = services().session
    if found is None:
        return _no_session()
    try:
        recent, boards = _count("recent", 1, MAX_RECENT), _boards()
        section, per_board = _section(), _count("per_board", 2, 10_000)
    except BadQuery as error:
        return _refused(error)
    everything = _director() and request.args.get("all") == "1"
    released: set[int] | frozenset[int]
    if everything:  # as stored, scored or not: the director's view may not score yet
        rows = standings.all_results(services().db, found)
        released = standings.released_boards(services().db, found, rows)
    else:
        scores = services().scored(found)
        rows, released = scores.shown, scores.released
    counts: dict[str, int] | None = None
    if recent is not None or boards is not None or section or per_board is not None:
        chosen = recent_boards(rows, boards=recent, section=section,
                               most=per_board or len(rows) + 1, only=boards)
        rows = [row for board in chosen for row in board.rows]
        counts = {str(board.board): board.total for board in chosen}
    east_west = words.side(Side.EW, language())
    labels = {n: localised(p.label, east_west)
              for n, p in participants_of(services().db, found).items()}
    # Each row also as the room says it ("shown", in the asker's language: ?lang= or the
    # cookie), so that display.js draws it without spelling a bridge word itself.
    return jsonify({"event": found.event, "released": sorted(released), "language": language(),
                    "counts": counts,
                    "results": [{**row.to_json(), "shown": {
                        **shown_result(row), "ns": _label(labels, row.ns_pair),
                        "ew": _label(labels, row.ew_pair)}} for row in rows]})


def _label(labels: dict[int, str], pair: int | None) -> str:
    return "" if pair is None else labels.get(pair, "")


@bp.get("/rankings")
def rankings() -> Any:
    found = services().session
    if found is None:
        return _no_session()
    try:  # ?q= ?section= ?page=: a page of them (server/pages/rankview.py); else all of them
        query = (rankview.RankingQuery.from_args(request.args)
                 if request.args.keys() & {"q", "section", "page"} else None)
    except rankview.QueryError as error:
        return _refused(error)
    scored = services().scored(found).field
    participants = participants_of(services().db, found)
    swiss = (swiss_of(services().db, found, public=True, scored_field=scored).to_json()
             if found.kind.paired else None)  # a Swiss's VP standings and matches
    rows, view = scored.standings, None
    east_west = words.side(Side.EW, language())
    if query is not None:
        page = rankview.select(rows, query, labels={
            n: (p.label, p.names) for n, p in participants.items()}, order=group_key,
            section_of=section_of_group)
        rows, view = page.rows, {**page.to_json(), "first": page.first}
    # "shown": the pair's label in the asker's language ("3 Este-Oeste"), as the page says it.
    return jsonify({"event": found.event, "method": scored.method, "swiss": swiss,
                    "view": view, "rankings": [
        {"participant": st.participant, "label": participants[st.participant].label
         if st.participant in participants else str(st.participant),
         "shown": localised(participants[st.participant].label, east_west)
         if st.participant in participants else str(st.participant),
         "names": participants[st.participant].names if st.participant in participants
         else "", "group": st.group, "boards": st.boards, "score": round(st.score, 2),
         "percent": None if st.percent is None else round(st.percent, 2),
         "rank": st.rank, "rank_label": st.rank_label,
         "penalty": round(st.penalty, 2)} for st in rows]})


@bp.get("/tables")
def tables() -> Any:
    found = services().session
    now = time.time()
    rows = [row.to_json(now) for row in table_grid(services().db, services().event)]
    if not _director():
        # The phase sequence, event counts and director calls say things about boards not
        # released yet (a passed-out board has no lead, say): the public sees only where each
        # table is.
        rows = [{key: row[key] for key in PUBLIC_TABLE_FIELDS} for row in rows]
    return jsonify({"event": services().event, "round": found.current_round if found else 0,
                    "tables": rows})


@bp.get("/progress")
def progress() -> Any:
    """Where the session is (server/pages/progress.py): public, and nothing the release rule
    hides. ``?section=B`` and ``?stage=offline`` list those tables alone, ``?limit=N`` the
    first N of them (``tables_matched``: how many before it); the summary stays the
    field's."""
    found = services().session
    if found is None:
        return _no_session()
    try:  # ?section=B, ?stage=offline, ?limit=60: those tables alone (a big field's page)
        section, stage = _section(), request.args.get("stage", "").strip()
        if stage and stage not in STAGE_NAMES:
            raise BadQuery(f"stage {stage[:12]!r}: one of {', '.join(sorted(STAGE_NAMES))}")
        limit = _count("limit", 1, 100_000)
    except BadQuery as error:
        return _refused(error)
    db = services().db
    shown, matched = progress_shown(
        session_progress(db, found, len(services().scored(found).released), server_now()),
        found, section, stage, limit)
    progress = {**shown.to_json(), "tables_matched": matched}
    for row in progress["tables"]:  # each table as the room names it ("B3")
        row["name"] = found.table_label(row["table"])
    return jsonify({"event": found.event, **progress})


@bp.get("/vugraph/<int:table>")
def table_vugraph(table: int) -> Any:
    """One table's board as the public sees it, by the session's rule (server/pages/vugraph.py):
    a board once released, or live for a single match; 404 when the director turned it
    off."""
    found = services().session
    if found is None:
        return _no_session()
    if not 1 <= table <= found.tables:
        response = jsonify({"error": f"the session has no table {table}"})
        response.status_code = 404
        return response
    try:
        shown = vugraph.vugraph(services().db, found, table, now=vugraph_now(),
                                delay=vugraph_delay(), language=language())
    except vugraph.VugraphOff as error:
        response = jsonify({"error": str(error)})
        response.status_code = 404
        return response
    return jsonify({"event": found.event, "language": language(), **shown.to_json()})
