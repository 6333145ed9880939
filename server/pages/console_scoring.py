"""The console's scoring page (docs/console.md): penalties (Laws 90, 91), the session's figures
for artificial scores (Law 12C2), weighted and split assigned scores (Law 12C1), and the
printouts and publication (the results pack, the hand records, the static website).

Views parse the form and call the service layer (server.scoring.penalties,
server.scoring.adjusted); a bad form is refused with the reason and changes nothing.
"""

from __future__ import annotations

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
    url_for,
)

from server.outputs import handrecords, publish, report
from server.pages.auth import login_required
from server.pages.console import FormError, _needs_session, _number, chosen_session
from server.scoring import adjusted, penalties
from server.services import services
from server.setup import session as sessions
from server.texts import (
    scoring_texts,  # noqa: F401 (registers the texts)
)
from server.texts.i18n import PAGES, language, t
from tablemodel.texts import LANGUAGES

bp = Blueprint("scoring", __name__, url_prefix="/console")


@bp.after_request
def not_kept(response: Response) -> Response:
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def _refused(error: Exception) -> None:
    flash(t("console_refused", reason=str(error)))


@bp.get("/scoring")
@login_required
def page() -> Any:
    found = _needs_session()
    db = services().db
    return render_template(
        "console/scoring.html", current=found,
        penalties=penalties.given(db, found), units=found.scoring.penalty_units,
        laws=penalties.LAWS, rules=adjusted.rules_of(db, found),
        participants=sessions.participants_of(db, found), languages=LANGUAGES,
        downloads=DOWNLOADS, assigned=sorted(adjusted.assigned_of(db, found).items(),
                                             key=lambda item: (item[0][1], item[0][0])))


# Each dealing file's name, from its entry (server/outputs/handrecords.py DEALING_FILES).
PAGES.add({f"scoring_hands_{form.extension}": form.words
           for form in handrecords.DEALING_FILES.values()})

#: The printouts and publication the page offers: (endpoint, its arguments, text key); the
#: files for dealing machines come from their registry.
DOWNLOADS: tuple[tuple[str, dict[str, str], str], ...] = (
    ("scoring.report_pdf", {}, "scoring_report_pdf"),
    ("scoring.hands_pdf", {}, "scoring_hands_pdf"),
    ("scoring.cards_pdf", {}, "scoring_cards_pdf"),
    *(("scoring.dealing_file", {"extension": form.extension},
       f"scoring_hands_{form.extension}") for form in handrecords.DEALING_FILES.values()),
    ("scoring.site_zip", {}, "scoring_site_zip"))


def _language() -> str:
    """The printout's language: ``?language=`` (not ``?lang=``, which would change the
    console's own), else the console's."""
    chosen = request.args.get("language", "")
    return chosen if chosen in LANGUAGES else language()


def _download(body: bytes | str, mimetype: str, name: str) -> Response:
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/report.pdf")
@login_required
def report_pdf() -> Any:
    found = chosen_session()
    chosen = _language()
    try:
        body = report.results_pdf(services().db, found, chosen)
    except report.ReportError as error:
        _refused(error)
        return redirect(url_for("scoring.page") + "#printouts")
    return _download(body, "application/pdf", f"{found.event}-results-{chosen}.pdf")


@bp.get("/hand-records.pdf")
@login_required
def hands_pdf() -> Any:
    found = chosen_session()
    chosen = _language()
    db = services().db
    try:
        deals = handrecords.of_session(db, found)
        body = report.hand_records_pdf(deals, found.title, chosen,
                                       conditions=handrecords.conditions_of(found))
    except (handrecords.HandRecordError, report.ReportError) as error:
        _refused(error)
        return redirect(url_for("scoring.page") + "#printouts")
    return _download(body, "application/pdf", f"{found.event}-hands-{chosen}.pdf")


@bp.get("/table-cards.pdf")
@login_required
def cards_pdf() -> Any:
    """The table cards and guide cards of the movement set up, in the language asked."""
    found = chosen_session()
    chosen = _language()
    try:
        body = report.cards_pdf(services().db, found, chosen)
    except report.ReportError as error:
        _refused(error)
        return redirect(url_for("scoring.page") + "#printouts")
    return _download(body, "application/pdf", f"{found.event}-cards-{chosen}.pdf")


@bp.get("/hand-records.<extension>")
@login_required
def dealing_file(extension: str) -> Any:
    """The deals as a dealing machine reads them: PBN, Duplimate's DUP or BRI
    (``handrecords.DEALING_FILES``; docs/exports.md says which machines read which)."""
    form = handrecords.DEALING_BY_EXTENSION.get(extension)
    if form is None:
        abort(404)
    found = chosen_session()
    try:
        body = form.write(handrecords.of_session(services().db, found), found.title,
                          handrecords.conditions_of(found))
    except handrecords.HandRecordError as error:
        _refused(error)
        return redirect(url_for("scoring.page") + "#printouts")
    return _download(body, form.content_type, f"{found.event}-deals.{form.extension}")


@bp.get("/site.zip")
@login_required
def site_zip() -> Any:
    found = chosen_session()
    return _download(publish.site_zip(services().db, found), "application/zip",
                     f"{found.event}-site.zip")


def _amount(name: str) -> float:
    text = request.form.get(name, "").strip().replace(",", ".")
    try:
        return float(text)
    except ValueError:
        raise FormError(t("console_not_a_number", what=t(f"scoring_{name}"),
                          value=text)) from None


@bp.post("/penalty")
@login_required
def give_penalty() -> Any:
    found = _needs_session()
    form = request.form
    try:
        participant = _number("participant")
        penalties.give(services().db, found, participant, form.get("law", ""),
                       form.get("unit", ""), _amount("amount"), form.get("note", ""),
                       by=g.director)
    except (FormError, penalties.PenaltyError) as error:
        _refused(error)
        return redirect(url_for("scoring.page") + "#penalties")
    services().hub.notify({"results"})
    flash(t("scoring_given", participant=participant))
    return redirect(url_for("scoring.page") + "#penalties")


@bp.post("/penalty/<int:ident>/withdraw")
@login_required
def withdraw_penalty(ident: int) -> Any:
    found = _needs_session()
    try:
        penalties.withdraw(services().db, found, ident, by=g.director)
    except penalties.PenaltyError as error:
        _refused(error)
        return redirect(url_for("scoring.page") + "#penalties")
    services().hub.notify({"results"})
    flash(t("scoring_withdrawn"))
    return redirect(url_for("scoring.page") + "#penalties")


@bp.post("/scoring-rules")
@login_required
def scoring_rules() -> Any:
    found = _needs_session()
    try:
        rules = adjusted.ScoringRules(_number("avg_plus"), _number("avg"), _number("avg_minus"),
                                      bool(request.form.get("session_percent")))
        adjusted.set_rules(services().db, found, rules, by=g.director)
    except (FormError, adjusted.AdjustedError) as error:
        _refused(error)
        return redirect(url_for("scoring.page") + "#rules")
    services().hub.notify({"results"})
    flash(t("scoring_rules_saved"))
    return redirect(url_for("scoring.page") + "#rules")


@bp.post("/assign")
@login_required
def assign() -> Any:
    found = _needs_session()
    form = request.form
    try:
        table, board = _number("table"), _number("board")
        given = adjusted.assign(services().db, found, table, board, form.get("ns", ""),
                                form.get("ew") or None, by=g.director, note=form.get("note"))
    except (FormError, adjusted.AdjustedError) as error:
        _refused(error)
        return redirect(url_for("scoring.page") + "#assigned")
    services().hub.notify({"results"})
    flash(t("scoring_assigned_done", table=found.table_label(table), board=board,
            text=given.text))
    return redirect(url_for("scoring.page") + "#assigned")
