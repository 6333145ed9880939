"""USEBIO for every kind of event (issue 31): a two-section pairs event and a Swiss, each read
back by the project's reader (tests/server/usebio_read.py: places, totals, lines) and checked
against the structure (tests/server/data/usebio.dtd, with lxml), the club's identity, the
version, and the static site holding them."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from flask import Flask

from server.link.director_calls import correct_result
from server.link.rounds import create_session, start_round
from server.outputs import publish
from server.outputs.usebio import usebio
from server.scoring.swiss import swiss_of
from server.setup import player_register as register
from server.setup.movements import Section
from server.setup.session import Session
from tests.server import usebio_read
from tests.server.conftest import EVENT, services

DTD = Path(__file__).parent / "data" / "usebio.dtd"
# Results to cycle through, so that the boards score differently: contract, declarer, tricks.
RESULTS = [("3NT", "N", 9), ("4S", "E", 10), ("2H", "S", 7), ("3NT", "N", 10),
           ("1NT", "W", 6), ("4H", "N", 11), ("3C", "E", 9)]


def _validate(text: str) -> None:
    """The document against the DTD; lxml says where it is not valid."""
    etree = pytest.importorskip("lxml.etree")
    dtd = etree.DTD(str(DTD))
    body = text.split("\n", 2)[2]  # the document without its declaration and DOCTYPE
    root = etree.fromstring(body.encode())
    assert dtd.validate(root), dtd.error_log.filter_from_errors()


def _play(app: Flask, session: Session, rounds: range) -> None:
    """The director enters every table's result of each round (as at a club without
    tables' results), the results cycling through RESULTS."""
    db = services(app).db
    results = itertools.cycle(RESULTS)
    for number in rounds:
        start_round(db, session, number)
        fresh = services(app).session
        assert fresh is not None
        for seating in fresh.plan.round(number):
            if seating.sit_out:
                continue
            for board in seating.boards:
                contract, declarer, tricks = next(results)
                correct_result(db, fresh, seating.table, board, contract=contract,
                               declarer=declarer, tricks=tricks, adjusted=None, score_ns=None,
                               by="td", note=None)


def test_a_two_section_event_is_written_section_by_section(app: Flask, tmp_path: Path) -> None:
    db = services(app).db
    register.set_club(db, "Club de Bridge Bilbao", "BI-0042", by="td")
    session = create_session(db, event=EVENT, title="Martes", kind="mitchell", participants=0,
                             boards_per_round=2, sections=[
                                 Section("A", "mitchell", 8, 2, 3),
                                 Section("B", "howell", 6, 2, 3)], seed=5)
    _play(app, session, range(1, 4))
    text = usebio(db, session)
    _validate(text)
    read = usebio_read.loads(text)  # places, totals and lines agree within each section
    assert read.sections == ["A", "B"] and read.club == "Club de Bridge Bilbao"
    assert read.kind == "PAIRS" and read.winner_type == 2
    assert {p.section for p in read.pairs.values()} == {"A", "B"}
    assert {p.direction for p in read.pairs.values() if p.section == "B"} == {None}
    assert "<CLUB_ID_NUMBER>BI-0042</CLUB_ID_NUMBER>" in text
    # 1.3 is 1.2 with its version changed: the same document otherwise
    later = usebio(db, session, version="1.3")
    assert usebio_read.loads(later).version == "1.3"
    assert later.replace("1.3", "1.2").replace("1_3", "1_2") == text
    # the static site holds it
    publish.write_site(db, session, tmp_path)
    assert (tmp_path / "results.xml").read_text(encoding="utf-8") == text


def test_a_swiss_is_written_with_its_matches_in_victory_points(app: Flask) -> None:
    db = services(app).db
    session = create_session(db, event=EVENT, title="Suizo", kind="swiss", participants=5,
                             boards_per_round=3, rounds=3, seed=8)
    _play(app, session, range(1, 4))
    session = services(app).session
    assert session is not None
    text = usebio(db, session)
    _validate(text)
    read = usebio_read.loads(text)  # each team's total is its matches' VPs
    assert read.kind == "SWISS_TEAMS" and set(read.pairs) == {1, 2, 3, 4, 5}
    swiss = swiss_of(db, session, public=False)
    assert {p.number: p.total for p in read.pairs.values()} == {
        line.team: line.vp for line in swiss.standings}
    assert {p.number: p.place for p in read.pairs.values()} == {
        line.team: line.rank_label for line in swiss.standings}
    byes = [m for m in read.matches if m.opponents is None]
    assert len(byes) == 3 and all(m.score == 12 for m in byes)  # a bye scores 12 VPs
    played = [m for m in read.matches if m.opponents is not None]
    assert len(played) == 6
    assert all(m.opposing_score is not None and m.score + m.opposing_score == pytest.approx(20)
               for m in played)
    assert all(len(m.boards) == 3 and all(len(lines) == 2 for lines in m.boards.values())
               for m in played)


def test_only_the_versions_that_exist(app: Flask) -> None:
    db = services(app).db
    session = create_session(db, event=EVENT, title="X", kind="howell", participants=4,
                             boards_per_round=2, seed=1)
    with pytest.raises(ValueError, match=r"1\.2 or 1\.3"):
        usebio(db, session, version="2.0")


def test_the_club_is_set_once_with_its_name_and_number(app: Flask) -> None:
    db = services(app).db
    assert register.club(db) is None
    register.set_club(db, "  Club   Náutico ", "E-17", by="td")
    register.set_club(db, "Club Náutico", "E-18", by="td")
    assert register.club(db) == register.Club("Club Náutico", "E-18")
    with pytest.raises(ValueError, match="club number"):
        register.set_club(db, "Club", "", by="td")
