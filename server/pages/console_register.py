"""The console's Register page (docs/director.en.md, "Register"): import the club's members
from a CSV file, list and edit them, add a visitor (sent at once to the running session's
tables), and see who sits at each table by name.

Views parse the form and call server.setup.player_register; a bad file or form is refused with the
reason and changes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, flash, g, redirect, render_template, request, url_for

from laws import Seat
from server.pages import console
from server.pages.auth import login_required
from server.pages.console import FormError, _refused, _session_or_none
from server.services import services
from server.setup import player_register as register
from server.setup.session import Session
from server.texts import (
    player_register_texts as register_texts,  # noqa: F401 (registers the texts)
)
from server.texts.i18n import language, t
from tablemodel import words

bp = Blueprint("register", __name__, url_prefix="/console")


@bp.after_request
def not_kept(response: Response) -> Response:
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def seated(found: Session | None, only: frozenset[int] | None = None) -> dict[str, Any]:
    """Who sits at each table now, by the session's register: the ``seated`` fragment, of
    the tables the grid shows (its page of a large field), or of those in ``only``."""
    if found is None:
        return {"seated": [], "seats": list(Seat)}
    view, _error = console.tables_shown(found)
    if only is None and view.paged:
        only = frozenset(view.tables)
    db = services().db
    players = register.session_members(db, found)
    now, _boards = register.seated(db, found.event, tables=only)
    lines = []
    for table in sorted(now):
        seats = now[table]
        if not seats:
            continue
        cells = []
        for seat in Seat:
            number = seats.get(seat)
            known = players.get(number) if number is not None else None
            cells.append({"seat": words.seat_letter(seat, language()), "number": number,
                          "name": known.name if known else None,
                          "unknown": number is not None and bool(players) and known is None})
        lines.append({"table": table, "cells": cells})
    return {"seated": lines}


# The console's live fragments: the page's section fetches it again when the tables change.
console.FRAGMENTS["seated"] = seated
console.ROWS["seated"] = (seated, "console/_seated_rows.html")


def _player_number() -> int:
    text = request.form.get("number", "").strip()
    if not text.isascii() or not text.isdigit():
        raise FormError(t("console_not_a_number", what=t("register_number"), value=text))
    return int(text)


@bp.get("/register")
@login_required
def page() -> Any:
    found = _session_or_none()
    db = services().db
    listed = register.members(db)
    in_session = register.session_members(db, found) if found is not None else {}
    return render_template("console/register.html", current=found, members=listed,
                           in_session=in_session, club=register.club(db), **seated(found))


@bp.post("/register/club")
@login_required
def set_club() -> Any:
    """The club's name and federation club number, for every session's exports."""
    form = request.form
    try:
        done = register.set_club(services().db, form.get("name", ""), form.get("number", ""),
                                 by=g.director)
    except ValueError as error:
        return _refused_back(error)
    flash(t("register_club_saved", name=done.name, number=done.number))
    return _back()


def _back() -> Any:
    """To the Register page, as a POST's answer (303: the browser GETs it)."""
    return redirect(url_for("register.page")), 303


def _refused_back(error: Exception) -> Any:
    """The refusal said in the console's language, then back to the page; nothing changed."""
    if isinstance(error, register.RegisterError):
        flash(t("console_refused", reason=error.text(language())))
    else:
        _refused(error)
    return _back()


@bp.post("/register/import")
@login_required
def import_csv() -> Any:
    upload = request.files.get("csv")
    try:
        if upload is None or not upload.filename:
            raise FormError(t("register_no_file"))
        done = register.import_csv(services().db, upload.read(), by=g.director)
    except (register.RegisterError, FormError) as error:
        return _refused_back(error)
    flash(t("register_imported", added=done.added, updated=done.updated))
    return _back()


@bp.post("/register/visitor")
@login_required
def add_visitor() -> Any:
    found = _session_or_none()
    form = request.form
    try:
        number = _player_number()
        name = form.get("name", "")
        sent = register.add_visitor(services().db, number, name, form.get("licence"),
                                    session=found, by=g.director)
    except (register.RegisterError, FormError) as error:
        return _refused_back(error)
    added = register.member(services().db, number)
    shown = added.name if added else name
    if sent:
        services().commands_queued()
        flash(t("register_visitor_sent", number=number, name=shown, tables=len(sent)))
    else:
        flash(t("register_visitor_added", number=number, name=shown))
    return _back()


@bp.post("/register/<int:number>")
@login_required
def edit(number: int) -> Any:
    try:
        register.edit(services().db, number, request.form.get("name", ""),
                      request.form.get("licence"))
    except register.RegisterError as error:
        return _refused_back(error)
    flash(t("register_saved", number=number))
    return redirect(url_for("register.page") + f"#player-{number}"), 303
