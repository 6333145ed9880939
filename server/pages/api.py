"""The JSON API, version 1 (docs/api.md).

Public, read-only, and under the same release rule as the pages: a board's results appear only
once every table scheduled to play it has finished it or the director released it. A signed-in
director sees every result (``?all=1``).
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, g, jsonify, request

from server.link.round_times import server_now
from server.link.tables import table_grid
from server.pages import rankview, vugraph
from server.pages.display import (
    group_key,
    section_of_group,
    shown_result,
    vugraph_delay,
    vugraph_now,
)
from server.pages.progress import session_progress
from server.scoring import standings
from server.scoring.swiss import swiss_of
from server.services import services
from server.setup.session import participants_of
from server.texts.i18n import language

bp = Blueprint("api", __name__, url_prefix="/api/v1")
PUBLIC_TABLE_FIELDS = ("table", "online", "round", "board")


def _no_session() -> Response:
    response = jsonify({"error": "no session has been set up"})
    response.status_code = 404
    return response


def _director() -> bool:
    """A signed-in director whose sign-in has not ended (server/pages/auth.py)."""
    return bool(g.get("director"))


@bp.get("/results")
def results() -> Any:
    found = services().session
    if found is None:
        return _no_session()
    everything = _director() and request.args.get("all") == "1"
    rows = (standings.all_results(services().db, found) if everything
            else standings.public_results(services().db, found))
    released = sorted(standings.released_boards(services().db, found))
    # Each row also as the room says it ("shown", in the asker's language: ?lang= or the
    # cookie), so that display.js draws it without spelling a bridge word itself.
    return jsonify({"event": found.event, "released": released, "language": language(),
                    "results": [{**row.to_json(), "shown": shown_result(row)}
                                for row in rows]})


@bp.get("/rankings")
def rankings() -> Any:
    found = services().session
    if found is None:
        return _no_session()
    try:  # ?q= ?section= ?page=: a page of them (server/pages/rankview.py); else all of them
        query = (rankview.RankingQuery.from_args(request.args)
                 if request.args.keys() & {"q", "section", "page"} else None)
    except rankview.QueryError as error:
        response = jsonify({"error": str(error)})
        response.status_code = 400
        return response
    scored = standings.public_field(services().db, found)
    participants = participants_of(services().db, found)
    swiss = (swiss_of(services().db, found, public=True, scored_field=scored).to_json()
             if found.kind.paired else None)  # a Swiss's VP standings and matches
    rows, view = scored.standings, None
    if query is not None:
        page = rankview.select(rows, query, labels={
            n: (p.label, p.names) for n, p in participants.items()}, order=group_key,
            section_of=section_of_group)
        rows, view = page.rows, {**page.to_json(), "first": page.first}
    return jsonify({"event": found.event, "method": scored.method, "swiss": swiss,
                    "view": view, "rankings": [
        {"participant": st.participant, "label": participants[st.participant].label
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
    hides."""
    found = services().session
    if found is None:
        return _no_session()
    db = services().db
    shown = session_progress(db, found, len(standings.released_boards(db, found)),
                             server_now())
    return jsonify({"event": found.event, **shown.to_json()})


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
