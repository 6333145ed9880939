"""Publication: the final results as a self-contained static website folder a club can upload
anywhere (or open from a disk, ``file://``): no server, no address outside it, and no script
but the hand viewer's own, beside its pages.

``write_site(db, session, folder)`` writes ``index.html`` (the choice of language), and for
each of Spanish and English ``<lang>/index.html`` (the rankings, the penalties, a link per
board) and ``<lang>/board-<n>.html`` (the traveller and the hand record with its double-dummy
table and par), with ``site.css`` beside them; every link is relative. The session's exports
go in too, for scoring programs: each ``FORMATS`` entry that names a site file (PBN, USEBIO,
CSV, LIN, the rankings).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from server.outputs import exports, handviewer, usebio
from server.outputs.report import TEMPLATES, environment
from server.outputs.report.data import pack
from server.scoring.standings import all_results
from server.setup.session import Session
from server.storage.db import Database
from tablemodel.texts import LANGUAGES, Words


@dataclass(frozen=True)
class ExportFormat:
    """One export of a session, defined once: how it is written, its name on the console,
    its download, and the file the static site carries it as (None: not on the site)."""

    name: str
    write: Callable[[Database, Session], str]
    words: Words
    content_type: str
    extension: str
    site_file: str | None


FORMATS: dict[str, ExportFormat] = {f.name: f for f in (
    ExportFormat("pbn", exports.pbn, Words(es="PBN", en="PBN"),
                 "application/x-pbn; charset=utf-8", "pbn", "results.pbn"),
    ExportFormat("usebio", usebio.usebio, Words(es="USEBIO (XML)", en="USEBIO (XML)"),
                 "application/xml; charset=utf-8", "xml", "results.xml"),
    ExportFormat("csv", exports.csv_text, Words(es="CSV", en="CSV"),
                 "text/csv; charset=utf-8", "csv", "results.csv"),
    ExportFormat("lin", exports.lin, Words(es="LIN (BBO)", en="LIN (BBO)"),
                 "text/plain; charset=utf-8", "lin", "results.lin"),
    ExportFormat("rankings", exports.rankings_csv,
                 Words(es="Clasificación (CSV)", en="Rankings (CSV)"),
                 "text/csv; charset=utf-8", "rankings.csv", "rankings.csv"),
)}


def check_formats(formats: dict[str, ExportFormat]) -> None:
    """Run when the module loads: each format under its own name, with a label in both
    languages, a content type and an extension, and no two writing the same file of the site
    or the same download."""
    for name, form in formats.items():
        if name != form.name or not (form.words.es and form.words.en and form.content_type
                                     and form.extension):
            raise AssertionError(f"export format {name!r} is not whole")
    for what in ("extension", "site_file"):
        values = [getattr(form, what) for form in formats.values()
                  if getattr(form, what) is not None]
        if len(set(values)) != len(values):
            raise AssertionError(f"two export formats have the same {what}")


check_formats(FORMATS)


def pages(db: Database, session: Session) -> dict[str, str | bytes]:
    """Every file of the site: its path inside the folder -> its content."""
    data = pack(db, session)
    files: dict[str, str | bytes] = {
        "site.css": (TEMPLATES / "site.css").read_text(encoding="utf-8")}
    boards = list(data.travellers)
    for language in LANGUAGES:
        env = environment(language)
        files[f"{language}/index.html"] = env.get_template("site_index.html").render(
            pack=data, boards=boards, languages=LANGUAGES)
        for at, board in enumerate(boards):
            files[f"{language}/board-{board}.html"] = env.get_template(
                "site_board.html").render(
                pack=data, board=board, lines=data.travellers[board],
                record=data.hands.get(board),
                previous=boards[at - 1] if at else None,
                following=boards[at + 1] if at + 1 < len(boards) else None)
    carried: list[tuple[ExportFormat, str]] = []
    missing: list[tuple[ExportFormat, str]] = []  # a format the session cannot have: why
    for form in FORMATS.values():
        if form.site_file is None:
            continue
        try:
            files[form.site_file] = form.write(db, session)
        except exports.ExportError as error:
            missing.append((form, str(error)))
        else:
            carried.append((form, form.site_file))
    files.update(_hand_viewer(db, session, boards))
    files["index.html"] = environment(LANGUAGES[0]).get_template("site_languages.html").render(
        pack=data, languages=LANGUAGES, carried=carried, missing=missing)
    return files


def _hand_viewer(db: Database, session: Session, boards: list[int]) -> dict[str, str]:
    """The hand viewer's pages (server/outputs/handviewer.py): each board's every table's play with
    its analysis, and the pairs' tricks given away; the script and style beside them."""

    rows = all_results(db, session)
    files = {name: (handviewer.STATIC / name).read_text(encoding="utf-8")
             for name in handviewer.ASSETS}
    for language in LANGUAGES:
        for board in boards:
            view = handviewer.board_plays(db, session, board, rows, language)
            files[f"{language}/hands-{board}.html"] = handviewer.board_page(
                view, session, language, assets="../",
                links={"back": f"board-{board}.html", "summary": "hands.html"})
        files[f"{language}/hands.html"] = handviewer.summary_page(
            db, session, rows, boards, language, assets="../",
            links={"back": "index.html"}, board_link="hands-{board}.html")
    return files


def write_site(db: Database, session: Session, folder: Path) -> list[Path]:
    """Write the site into ``folder`` (made if missing); the files written."""
    written = []
    for name, content in pages(db, session).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        written.append(path)
    return written


def site_zip(db: Database, session: Session) -> bytes:
    """The site as one ZIP file, its files under a folder named after the event."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in pages(db, session).items():
            archive.writestr(f"{session.event}/{name}", content)
    return out.getvalue()
