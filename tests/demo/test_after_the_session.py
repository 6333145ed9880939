"""After the last board: a session played by simulated tables (``bidbox demo``: the real table
daemons on simulated keypads and card readers, a real Mosquitto, the real server), then the
director's paperwork on its database: one penalty (Law 90), one split score (Law 12C1(d)) and
one weighted score (Law 12C1(c)). The rankings are checked against matchpoints computed here
from the laws; then the printed results pack (rendered to PNG and read back as text), the
USEBIO 1.2 file read back by a parser of its own, and the static website.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from bidbox.broker import find_mosquitto
from server.outputs import publish, report
from server.outputs.usebio import usebio
from server.scoring import adjusted, penalties, standings
from server.setup.session import Session, current
from server.storage.db import Database
from tests.processes import run
from tests.server import usebio_read

DEADLINE = 300.0
Scores = list[tuple[Fraction, int]]  # an NS score distribution: (weight, NS points)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if find_mosquitto() is None:
        pytest.skip("no mosquitto: scripts/setup.py installs it")
    folder = tmp_path_factory.mktemp("session") / "demo"
    done = run([sys.executable, "-m", "bidbox", "demo", "--tables", "4", "--rounds", "3",
                "--movement", "mitchell", "--speed", "0", "--port", "0", "--folder",
                str(folder), "--exit-when-done"],
               text=True, timeout=DEADLINE)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not done.left, "the demo left processes running"
    return folder / "bidbox.db"


def _session(db: Database) -> Session:
    from sqlalchemy import select

    from server.storage import schema as s
    with db.read() as conn:
        event = conn.execute(select(s.sessions.c.event)).scalar_one()
    found = current(db, event)
    assert found is not None
    return found


def by_law(lines: list[tuple[int, int, Scores, Scores]], expected: int
           ) -> list[tuple[Fraction, Fraction]]:
    """Law 78A on one board: 2 for each score beaten and 1 for each equalled, each side with
    the same side of the others (a split score gives each side its own, Law 12C1(d)), a
    weighted score counted score by score times its weight (Law 12C1(c)); Neuberg's formula
    when the board has fewer results than the session expects."""
    def beaten(ours: Scores, theirs: Scores) -> Fraction:
        return sum((w * v * (2 if a > b else 1 if a == b else 0)
                    for w, a in ours for v, b in theirs), Fraction(0))
    played_here = len(lines)
    out = []
    for i, (_, _, ns, ew) in enumerate(lines):
        ns_raw = sum((beaten(ns, o_ns) for j, (_, _, o_ns, _) in enumerate(lines) if j != i),
                     Fraction(0))
        ew_raw = sum((beaten([(w, -a) for w, a in ew], [(v, -b) for v, b in o_ew])
                      for j, (_, _, _, o_ew) in enumerate(lines) if j != i), Fraction(0))
        out.append(((ns_raw + 1) * expected / played_here - 1,
                    (ew_raw + 1) * expected / played_here - 1))
    return out


def test_the_paperwork_after_a_simulated_session(played: Path, tmp_path: Path) -> None:
    db = Database(str(played))
    try:
        _check(db, _session(db), tmp_path)
    finally:
        db.dispose()


def _check(db: Database, session: Session, tmp_path: Path) -> None:
    rows = standings.all_results(db, session)
    assert len(rows) == 4 * 3 * 2  # every table played every board of its three rounds
    first, second = sorted({(r.table, r.board) for r in rows if r.round == 1})[:2]
    # The director's rulings after the session: a weighted score at one table, a split one
    # at another (different boards), and a procedural penalty of 25 % of a top.
    adjusted.assign(db, session, first[0], first[1], "30% 4H S 10 + 70% 4H S 9",
                    by="director", note="Law 12C1(c): misinformation")
    adjusted.assign(db, session, second[0], second[1], "3NT N 9", "3NT N 8",
                    by="director", note="Law 12C1(d): split")
    penalties.give(db, session, 2, "90", "top", 25, "Slow play", by="director")

    # The field, computed here from the laws.
    rows = standings.all_results(db, session)
    assigned = adjusted.assigned_of(db, session)
    boards: dict[int, list[tuple[int, int, Scores, Scores]]] = {}
    for row in rows:
        assert row.ns_pair is not None and row.ew_pair is not None
        given = assigned.get((row.table, row.board))
        if row.adjusted in ("weighted", "split") and given is not None:
            ns = [(Fraction(p.weight, 100), p.score_ns) for p in given.ns]
            ew = [(Fraction(p.weight, 100), p.score_ns) for p in given.ew]
        else:
            assert row.score_ns is not None
            ns = ew = [(Fraction(1), row.score_ns)]
        boards.setdefault(row.board, []).append((row.ns_pair, row.ew_pair, ns, ew))
    expected = max(len(lines) for lines in boards.values())
    top = 2 * (expected - 1)
    earned: dict[int, Fraction] = {}
    played_boards: dict[int, int] = {}
    for lines in boards.values():
        for (ns_pair, ew_pair, _, _), (ns_mp, ew_mp) in zip(lines, by_law(lines, expected),
                                                           strict=True):
            for pair, mp in ((ns_pair, ns_mp), (ew_pair, ew_mp)):
                earned[pair] = earned.get(pair, Fraction(0)) + mp
                played_boards[pair] = played_boards.get(pair, 0) + 1
    earned[2] -= Fraction(25, 100) * top  # Law 90: 25 % of a board's top
    percent = {pair: 100 * mp / (played_boards[pair] * top) for pair, mp in earned.items()}

    field = standings.field(db, session, public=False)
    got = {st.participant: st for st in field.standings}
    assert set(got) == set(percent)
    for pair, value in percent.items():
        assert got[pair].percent == pytest.approx(float(value), abs=1e-9), pair
        assert got[pair].score == pytest.approx(float(earned[pair]), abs=1e-9), pair
    assert got[2].penalty == pytest.approx(top / 4)
    for group in {st.group for st in field.standings}:
        ours = sorted((p for p in percent if got[p].group == group),
                      key=lambda p: (-percent[p], p))
        ranked = [st.participant for st in field.standings if st.group == group]
        assert [round(float(percent[p]), 9) for p in ours] == \
            [round(float(percent[p]), 9) for p in ranked]

    _results_pack(db, session, field, tmp_path)
    _usebio(db, session, field)
    _site(db, session, tmp_path)


def _results_pack(db: Database, session: Session, field: standings.Field, tmp_path: Path
                  ) -> None:
    if shutil.which("pdftotext") is None or shutil.which("pdftoppm") is None:
        pytest.skip("no poppler-utils: scripts/setup.py installs it")
    for language, words in (("en", ("Final rankings", "Travellers", "Score cards",
                                    "Penalties", "Double dummy", "30% 4H S 10",
                                    "NS 3NT N 9")),
                            ("es", ("Clasificación final", "Planillas de los tableros",
                                    "Tarjetas de puntuación", "Penalizaciones",
                                    "Doble muerto"))):
        path = tmp_path / f"results-{language}.pdf"
        path.write_bytes(report.results_pdf(db, session, language))
        text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True,
                              text=True, check=True, timeout=60).stdout
        for word in words:
            assert word in text, (language, word)
        # The winner's line on the rankings page, with its percentage as printed.
        winner = field.standings[0]
        shown = f"{winner.percent:.2f}"
        assert (shown if language == "en" else shown.replace(".", ",")) in text
        subprocess.run(["pdftoppm", "-r", "50", "-png", "-f", "1", "-l", "1", str(path),
                        str(tmp_path / f"page-{language}")], check=True, timeout=60)
        png = next(tmp_path.glob(f"page-{language}*.png"))
        header = png.read_bytes()[:24]
        assert header[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24],
                                                                               "big")
        assert abs(height / width - 297 / 210) < 0.01  # an A4 page, portrait


def _usebio(db: Database, session: Session, field: standings.Field) -> None:
    read = usebio_read.loads(usebio(db, session))
    assert (read.kind, read.description, read.method) == ("PAIRS", session.title,
                                                          "MATCH_POINTS")
    assert read.winner_type == 2  # a Mitchell: North-South and East-West ranked apart
    for st in field.standings:
        pair = read.pairs[st.participant]
        assert pair.place == st.rank_label
        assert pair.total == pytest.approx(st.score, abs=0.01)
        assert pair.percentage == pytest.approx(st.percent, abs=0.005)
        assert pair.penalty == pytest.approx(st.penalty, abs=0.01)
    lines = {(line.ns, board): line for board, found in read.boards.items() for line in found}
    for board, scored in field.scored.items():
        for x in scored:
            line = lines[(x.result.ns, board)]
            assert (line.ns_points, line.ew_points) == (pytest.approx(x.ns, abs=0.01),
                                                        pytest.approx(x.ew, abs=0.01))


def _site(db: Database, session: Session, tmp_path: Path) -> None:
    folder = tmp_path / "site"
    written = publish.write_site(db, session, folder)
    assert (folder / "index.html") in written and (folder / "results.xml") in written
    pages = list(folder.rglob("*.html"))
    assert {p.parent.name for p in pages} >= {"es", "en"}
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "http://" not in html and "https://" not in html
        # One script of the site's own, the hand viewer's, beside its pages (no request).
        scripts = re.findall(r"<script[^>]*>", html)
        assert scripts == ([] if not page.name.startswith("hands-") else [
            '<script id="plays" type="application/json">',
            '<script src="../handviewer.js" defer>'])
        for link in re.findall(r'(?:href|src)="([^"#]+)"', html):
            assert (page.parent / link).resolve().is_file(), (page, link)
    en = (folder / "en" / "index.html").read_text(encoding="utf-8")
    es = (folder / "es" / "index.html").read_text(encoding="utf-8")
    assert "Final rankings" in en and "Clasificación final" in es
    assert "Slow play" in en
