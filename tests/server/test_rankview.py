"""The rankings of a field too big to read whole (issue 29): a page at a time, by section, by a
pair's number or a player's name, on the live page, its API and the director's console."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from laws import Board, Seat, parse_contract
from laws.scoring import score_ns
from server.link.rounds import create_session
from server.pages.rankview import PAGE_ROWS, QueryError, RankingQuery, fold
from server.setup.movements import Section
from server.setup.session import set_names
from tablemodel.wire import Event, table_topic
from tests.server.conftest import EVENT, login, services

SECTIONS = ("A", "B", "C")
TABLES = 25  # a section: 50 pairs, so the field's 150 pairs fill two pages


@pytest.fixture
def field(app: Flask) -> dict[int, Any]:
    """Three sections of 25 tables, one board each, every table finished: the field's
    rankings are released. Pair 12 is "Ana García / Íñigo Núñez"."""
    db = services(app).db
    session = create_session(
        db, event=EVENT, title="Simultáneo", kind="mitchell", participants=150,
        boards_per_round=1, rounds=1, seed=7,
        sections=[Section(letter, "mitchell", 2 * TABLES, 1, rounds=1) for letter in SECTIONS])
    set_names(db, session, {12: "Ana García / Íñigo Núñez", 77: "Pedro Ruiz / Eva Gil"})
    seq: dict[int, int] = {}
    for seat in session.plan.round(1):
        seq[seat.table] = 0
        for kind, board, data in (
                ("assign", None, {"cmd": f"assign-{EVENT}-r1-t{seat.table}", "round": 1,
                                  "ns": seat.ns, "ew": seat.ew, "boards": list(seat.boards)}),
                ("result", seat.boards[0], {
                    "contract": "4H", "declarer": "S", "tricks": 8 + seat.table % 5,
                    "score_ns": score_ns(parse_contract("4H"), Seat.S, 8 + seat.table % 5,
                                         Board(seat.boards[0]).vulnerability)})):
            seq[seat.table] += 1
            outcome = services(app).ingest(
                table_topic(EVENT, seat.table, "events"),
                Event(seq[seat.table], kind, 1.7e9 + seq[seat.table], board, data).to_payload())
            assert outcome.rejected is None, outcome.rejected
    return {p.number: p for p in session.plan.participants}


def pairs_shown(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr data-participant="(\d+)"', html)]


def test_the_query_is_read_or_refused_with_its_reason() -> None:
    assert RankingQuery.from_args({}) == RankingQuery("", "", 1)
    assert RankingQuery.from_args({"q": "  ana   garcía ", "section": "b", "page": "3"}) == \
        RankingQuery("ana garcía", "B", 3)
    for args, part in (({"page": "0"}, "page"), ({"page": "x"}, "page"),
                       ({"page": "٣"}, "page"), ({"section": "A1"}, "section"),
                       ({"q": "x" * 65}, "q")):
        with pytest.raises(QueryError, match=part):
            RankingQuery.from_args(args)
    assert fold("  García  ÑÚÑEZ ") == "garcia nunez"
    assert RankingQuery("x", "", 2).args(page=1) == {"q": "x"}


def test_the_live_page_shows_the_rankings_a_page_at_a_time(
        client: FlaskClient, field: dict[int, Any]) -> None:
    first = client.get("/?lang=en").get_data(as_text=True)
    shown = pairs_shown(first)
    assert len(shown) == PAGE_ROWS and len(set(shown)) == PAGE_ROWS
    assert "Pairs 1 to 100 of 150" in first and "Page 1 of 2" in first
    assert 'rel="next" href="/?page=2"' in first and 'rel="prev"' not in first
    second = client.get("/?page=2&lang=en").get_data(as_text=True)
    rest = pairs_shown(second)
    assert len(rest) == 50 and not set(rest) & set(shown)
    assert set(shown) | set(rest) == set(field)
    assert 'rel="prev" href="/"' in second and "Page 2 of 2" in second
    # Past the last page: the last page, not an empty one.
    assert pairs_shown(client.get("/?page=9").get_data(as_text=True)) == rest
    # The rankings' order holds across pages: section by section, as the whole list.
    sections = [field[n].group.split(" ")[0] for n in shown + rest]
    assert sections == sorted(sections)


def test_a_section_a_number_or_a_name_finds_its_pairs(
        client: FlaskClient, field: dict[int, Any]) -> None:
    b = pairs_shown(client.get("/?section=B").get_data(as_text=True))
    assert sorted(b) == sorted(n for n, p in field.items() if p.group.startswith("B"))
    page = client.get("/?q=garcia&lang=es").get_data(as_text=True)
    assert pairs_shown(page) == [12]
    assert "1 de 150 parejas coinciden" in page and "Ana García" in page
    assert pairs_shown(client.get("/?q=NÚÑEZ").get_data(as_text=True)) == [12]
    # A number: the pair of that number, and each section's pairs of that number in it.
    twelve = pairs_shown(client.get("/?q=12").get_data(as_text=True))
    labelled = {n for n, p in field.items() if re.fullmatch(r"[A-C]12 (NS|EW)", p.label)}
    assert set(twelve) == labelled | {12} and len(labelled) == 6
    only_c = pairs_shown(client.get("/?q=12&section=C").get_data(as_text=True))
    assert {field[n].label for n in only_c} == {"C12 NS", "C12 EW"}
    assert {field[n].label for n in pairs_shown(
        client.get("/?q=b3+ns").get_data(as_text=True))} == {"B3 NS"}
    none = client.get("/?q=nadie&lang=es").get_data(as_text=True)
    assert pairs_shown(none) == [] and "Ninguna pareja coincide" in none


def test_a_query_out_of_bounds_is_refused_and_the_rankings_stay(
        client: FlaskClient, field: dict[int, Any]) -> None:
    page = client.get("/?page=-1&lang=en")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Search refused: page" in text and len(pairs_shown(text)) == PAGE_ROWS
    api = client.get("/api/v1/rankings?section=%3Cb%3E")
    assert api.status_code == 400 and "section" in api.get_json()["error"]


def test_the_api_gives_the_page_asked_and_where_it_stands(
        client: FlaskClient, field: dict[int, Any]) -> None:
    whole = client.get("/api/v1/rankings").get_json()
    assert len(whole["rankings"]) == 150 and whole["view"] is None  # as before: all of it
    page = client.get("/api/v1/rankings?page=2").get_json()
    assert page["view"] == {"q": "", "section": "", "page": 2, "pages": 2, "matched": 150,
                            "total": 150, "page_rows": PAGE_ROWS,
                            "sections": list(SECTIONS), "first": 101}
    first = {r["participant"] for r in client.get("/api/v1/rankings?page=1").get_json()[
        "rankings"]}
    second = [r["participant"] for r in page["rankings"]]
    assert len(first) == PAGE_ROWS and len(second) == 50 and not first & set(second)
    assert first | set(second) == {r["participant"] for r in whole["rankings"]}
    # Section C's pairs close the list, in the order the live page shows them.
    assert {field[n].group.split(" ")[0] for n in second} == {"C"}
    found = client.get("/api/v1/rankings?q=ruiz").get_json()
    assert [r["participant"] for r in found["rankings"]] == [77]
    assert found["view"]["matched"] == 1


def test_the_console_rankings_follow_the_directors_search(
        client: FlaskClient, field: dict[int, Any]) -> None:
    login(client)
    page = client.get("/console/results?section=A&lang=en").get_data(as_text=True)
    shown = pairs_shown(page)
    assert sorted(shown) == sorted(n for n, p in field.items() if p.group.startswith("A"))
    assert 'name="q"' in page and 'data-query="1"' in page
    fragment = client.get("/console/fragment/rankings?q=garcia").get_data(as_text=True)
    assert pairs_shown(fragment) == [12]
    every = client.get("/console/fragment/rankings?page=2").get_data(as_text=True)
    assert len(pairs_shown(every)) == 50
    assert 'href="/console/results?page=1"' not in every  # the first page has no page=1
    assert 'rel="prev" href="/console/results"' in every
