"""A Swiss's printed pack and static site (issue 31): the standings in victory points and
every round's matches with both teams' IMPs and VPs, as the console and live page show them.
The PDF is read back as text (pdftotext)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from server.link.rounds import create_session
from server.outputs import publish, report
from server.scoring.swiss import swiss_of
from tablemodel import words
from tests.server.conftest import EVENT, services
from tests.server.test_printouts import needs_poppler, pdf_text
from tests.server.test_usebio import _play


@pytest.fixture
def swiss(app: Flask) -> Flask:
    db = services(app).db
    session = create_session(db, event=EVENT, title="Suizo de otoño", kind="swiss",
                             participants=5, boards_per_round=3, rounds=3, seed=8)
    _play(app, session, range(1, 4))
    return app


def _figure(value: float) -> str:
    """A VP figure as the pages and the printouts write it in English (tablemodel.words)."""
    return words.decimal(value, "en")


@needs_poppler
def test_the_pack_ranks_a_swiss_in_victory_points_round_by_round(swiss: Flask,
                                                                 tmp_path: Path) -> None:
    db = services(swiss).db
    session = services(swiss).session
    assert session is not None
    found = swiss_of(db, session, public=False)
    text = pdf_text(report.results_pdf(db, session, "en"), tmp_path)
    assert "VPs" in text and "Round 1" in text and "Round 3" in text and "bye" in text
    for line in found.standings:  # every team's VPs, as the console's standings
        assert _figure(line.vp) in text
    for match in found.matches:
        if not match.bye:  # each match's VPs, home then away
            assert f"{_figure(match.home_vp)} – {_figure(match.away_vp)}" in text
    spanish = report.results_html(db, session, "es")  # the same page, in Spanish
    assert "PV" in spanish and "Ronda 2" in spanish and "descansa" in spanish


def test_the_site_ranks_a_swiss_in_victory_points_round_by_round(swiss: Flask) -> None:
    db = services(swiss).db
    session = services(swiss).session
    assert session is not None
    found = swiss_of(db, session, public=False)
    files = publish.pages(db, session)
    index = str(files["en/index.html"])
    assert 'class="ranking swiss"' in index and index.count('class="swiss-round"') == 3
    first = found.standings[0]
    assert f'data-team="{first.team}"' in index and _figure(first.vp) in index
    assert all(f"{_figure(m.home_vp)} – {_figure(m.away_vp)}" in index
               for m in found.matches if not m.bye)
    assert "results.xml" in files and "rankings.csv" in files
