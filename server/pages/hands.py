"""The hand viewer's live pages: ``/board/<n>/hands`` (every table's play of a released
board) and ``/hands`` (each pair's tricks given away), public once the board is released. The
pages themselves are made by server/outputs/handviewer.py, which the published site uses too."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request

from server.outputs.handviewer import board_page, board_plays, summary_page
from server.scoring.standings import public_results, released_boards
from server.services import services
from server.texts.i18n import PAGES, language

bp = Blueprint("hands", __name__)


# -- the live pages ----------------------------------------------------------------------------

@bp.get("/board/<int:number>/hands")
def board(number: int) -> Any:
    session = services().session
    db = services().db
    if session is None or number not in released_boards(db, session):
        return Response(PAGES.text("hands_not_shown", language()), status=404,
                        mimetype="text/plain")
    lang = language()
    rows = public_results(db, session)
    view = board_plays(db, session, number, rows, lang)
    if any(not p.data["analysed"] for p in view["plays"]):
        services().analyse_plays({number})  # in the background; the page shows it next time
    return board_page(view, session, lang, assets=request.script_root + "/static/",
                      links={"back": f"{request.script_root}/board/{number}",
                             "summary": f"{request.script_root}/hands"})


@bp.get("/hands")
def summary() -> Any:
    session = services().session
    db = services().db
    if session is None:
        return Response(PAGES.text("hands_not_shown", language()), status=404,
                        mimetype="text/plain")
    released = sorted(released_boards(db, session))
    return summary_page(db, session, public_results(db, session), released, language(),
                        assets=request.script_root + "/static/",
                        links={"back": f"{request.script_root}/"},
                        board_link=request.script_root + "/board/{board}/hands")
