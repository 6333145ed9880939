"""The printouts from the console and from ``bidbox report``: the results pack, the hand-record
sheet and the dealing machine's PBN, the static site as a ZIP. The PDFs are read back as text
(pdftotext), never judged by their size."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import Markup

from laws import Deal, Suit
from laws.pbn import loads as load_pbn
from server.outputs import report
from server.pages import display
from server.setup.session import dealt
from tablemodel import words
from tests.server.conftest import login
from tests.server.test_penalties import make_field

needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                   reason="no poppler-utils: scripts/setup.py installs it")


def pdf_text(body: bytes, tmp_path: Path) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(body)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True, timeout=60).stdout


@needs_poppler
def test_the_console_downloads_each_printout_in_either_language(
        app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    session = make_field(app)
    login(client)
    page = client.get("/console/scoring?lang=en").get_data(as_text=True)
    assert "/console/report.pdf?language=es" in page
    response = client.get("/console/report.pdf?language=es")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert "Clasificación final" in pdf_text(response.data, tmp_path)
    # The printout's language leaves the console's own alone.
    assert "Scoring" in client.get("/console/scoring").get_data(as_text=True)
    hands = pdf_text(client.get("/console/hand-records.pdf?language=en").data, tmp_path)
    assert "Hand records" in hands and "Board 8" in hands
    games = load_pbn(client.get("/console/hand-records.pbn").get_data(as_text=True))
    stored = {board: dealt(7, board) for board in session.plan.boards()}
    assert {g.board: g.deal for g in games} == {b: Deal.from_pbn(d) for b, d in stored.items()}
    # The same deals for a Duplimate, as its DUP and BRI files (issue 31).
    from server.outputs.handrecords import read_bri, read_dup
    assert read_dup(client.get("/console/hand-records.dup").data) == stored
    assert read_bri(client.get("/console/hand-records.bri").data) == stored
    archive = zipfile.ZipFile(io.BytesIO(client.get("/console/site.zip").data))
    names = set(archive.namelist())
    assert {"test/index.html", "test/en/index.html", "test/es/board-1.html",
            "test/results.xml"} <= names


@needs_poppler
def test_bidbox_report_writes_the_pack_and_deals_with_a_seed(app: Flask, tmp_path: Path) -> None:
    make_field(app)
    database = app.config["DATABASE"]
    out = tmp_path / "results.pdf"
    done = subprocess.run([sys.executable, "-m", "bidbox", "report", "--db", database, "--out",
                           str(out), "--language", "en"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Final rankings" in pdf_text(out.read_bytes(), tmp_path)
    deals = tmp_path / "deals.pbn"
    done = subprocess.run([sys.executable, "-m", "bidbox", "report", "--seed", "42",
                           "--boards", "1-3", "--what", "deals", "--out", str(deals)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    games = load_pbn(deals.read_text())
    assert [(g.board, g.deal) for g in games] == [(b, Deal.from_pbn(dealt(42, b)))
                                                 for b in (1, 2, 3)]
    sheet = tmp_path / "hands.pdf"
    done = subprocess.run([sys.executable, "-m", "bidbox", "report", "--seed", "42",
                           "--boards", "1-2", "--what", "hand-records", "--out", str(sheet),
                           "--language", "es"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    text = pdf_text(sheet.read_bytes(), tmp_path)
    assert "Hoja de manos" in text and "Repartidas con la semilla 42" in text
    bad = subprocess.run([sys.executable, "-m", "bidbox", "report", "--seed", "1", "--boards",
                          "9-3", "--what", "deals", "--out", str(deals)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "low to high" in bad.stderr


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_printouts_write_bridge_words_and_numbers_as_the_live_pages_do(
        app: Flask, language: str) -> None:
    """One vocabulary for the screen and the paper: the results pack's helpers and the live
    display's give the same text for a score, a percentage, a contract, a seat and a suit."""
    env = report.environment(language).globals
    values = (55.5, 60.0, 12.25, -3.0, 0.333)
    with app.test_request_context(f"/?lang={language}"):
        assert display.language() == language
        for value in values:
            assert env["decimal"](value) == display.decimal(value)
            assert env["decimal"](value, 0) == display.decimal(value, 0)
        for text in ("4HX", "3NT", "Pass", "1C", "7SXX"):
            assert env["contract"](text) == display.contract_html(text)
        for letter in "NESW":
            assert env["seat"](letter) == display.seat_letter(letter)
    assert env["decimal"](55.5) == ("55,5" if language == "es" else "55.5")
    assert env["seat"]("W") == ("O" if language == "es" else "W")
    assert env["suit"]("H") == Markup(words.html((words.suit_mark(Suit.H, language),)))
    assert ("3ST" if language == "es" else "3NT") in env["contract"]("3NT")
