"""The console's tables grid of a large field (issue 29): a page of tables, or a section's, and
the seated players' list beside it; a club's room stays one page; the live parts that are not
a table's row fetch on their own kinds, not on every change of a table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from server.link.rounds import create_session, start_round
from server.pages import tableview
from server.pages.tableview import PAGE_TABLES, QueryError, tables_view
from server.setup.movements import Section
from server.setup.session import current
from tablemodel.wire import Event, table_topic
from tests.server.conftest import EVENT, login, services

SECTIONS = ("A", "B", "C")
TABLES = 60  # three sections of 60 tables: 180, past one page of the grid


def rows_of(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr data-table="(\d+)"', html)]


@pytest.fixture
def field(app: Flask) -> Any:
    """Three sections of 60 tables, round 1 started, a player seated at tables 1, 61 and 150."""
    db = services(app).db
    session = create_session(
        db, event=EVENT, title="Simultáneo", kind="mitchell", participants=6 * TABLES,
        boards_per_round=1, rounds=1, seed=7,
        sections=[Section(letter, "mitchell", 2 * TABLES, 1, rounds=1) for letter in SECTIONS])
    start_round(db, session, 1, by="test")
    for table in (1, 61, 150):
        for seq, (kind, data) in enumerate((
                ("assign", {"cmd": f"assign-{EVENT}-r1-t{table}", "round": 1,
                            **_assignment(session, table)}),
                ("player", {"seat": "N", "number": 1000 + table})), start=1):
            outcome = services(app).ingest(table_topic(EVENT, table, "events"),
                                           Event(seq, kind, 1.7e9 + seq, None, data).to_payload())
            assert outcome.rejected is None, outcome.rejected
    return current(db, EVENT)


def _assignment(session: Any, table: int) -> dict[str, Any]:
    seat = next(s for s in session.plan.round(1) if s.table == table)
    return {"ns": seat.ns, "ew": seat.ew, "boards": list(seat.boards)}


def test_the_view_pages_the_field_and_its_sections(field: Any) -> None:
    whole = tables_view(field, {})
    assert (whole.first, whole.last, whole.pages, whole.paged) == (1, PAGE_TABLES, 2, True)
    assert tables_view(field, {"page": "2"}).tables == range(PAGE_TABLES + 1, 3 * TABLES + 1)
    assert tables_view(field, {"page": "9"}).page == 2  # past the last: the last
    section = tables_view(field, {"section": "b"})
    assert section.tables == range(TABLES + 1, 2 * TABLES + 1) and section.pages == 1
    assert section.args() == {"section": "B"}
    for args, part in (({"page": "0"}, "page"), ({"page": "x"}, "page"),
                       ({"section": "Z"}, "no such section"), ({"section": "A1"}, "section")):
        with pytest.raises(QueryError, match=part):
            tables_view(field, args)


def test_a_clubs_room_is_one_page(app: Flask) -> None:
    session = create_session(services(app).db, event=EVENT, title="Club", kind="mitchell",
                             participants=20, boards_per_round=2, rounds=2, seed=3)
    view = tables_view(session, {})
    assert view.tables == range(1, 11) and not view.paged
    assert tableview.default_view(None).tables == range(1, 1)


def test_the_console_shows_a_page_of_the_grid_and_of_the_seated(
        client: FlaskClient, field: Any) -> None:
    login(client)
    page = client.get("/console/?lang=en").get_data(as_text=True)
    grid = page.split('data-fragment="tables"')[1].split("</section>")[0]
    assert rows_of(grid) == list(range(1, PAGE_TABLES + 1))
    assert f"Tables A1 to B{PAGE_TABLES - TABLES} of {3 * TABLES}" in grid
    assert 'rel="next" href="/console/?page=2"' in grid
    assert 'data-first="1" data-last="100"' in page
    seated = page.split('data-fragment="seated"')[1].split("</section>")[0]
    assert rows_of(seated) == [1, 61]  # table 150 sits on page 2
    second = client.get("/console/fragment/seated?page=2").get_data(as_text=True)
    assert rows_of(second) == [150]
    section = client.get("/console/fragment/tables?section=C").get_data(as_text=True)
    assert rows_of(section) == list(range(2 * TABLES + 1, 3 * TABLES + 1))
    refused = client.get("/console/fragment/tables?section=Q&lang=en").get_data(as_text=True)
    assert "Cannot show that" in refused and rows_of(refused)[:1] == [1]


def test_rows_are_fetched_alone_for_the_grid_and_the_seated(
        client: FlaskClient, field: Any) -> None:
    login(client)
    rows = client.get("/console/fragment/seated?only=61,62").get_data(as_text=True)
    assert rows_of(rows) == [61] and "<table" not in rows and "1061" in rows
    rows = client.get("/console/fragment/tables?only=150,3").get_data(as_text=True)
    assert rows_of(rows) == [3, 150]
    refused = client.get("/console/fragment/calls?only=1")
    assert refused.status_code == 400 and b"seated and tables" in refused.data


def test_the_storage_line_and_the_conflicts_fetch_on_their_own_kinds(
        client: FlaskClient, field: Any) -> None:
    login(client)
    page = client.get("/console/").get_data(as_text=True)
    assert 'data-fragment="storage" data-kinds="status"' in page
    assert 'data-fragment="conflicts" data-kinds="conflicts"' in page
    # A table's event that comes again with other content tells the conflicts' kind.
    outcome = services(client.application).ingest(
        table_topic(EVENT, 1, "events"),
        Event(2, "player", 1.7e9 + 9, None, {"seat": "E", "number": 7}).to_payload())
    assert outcome.rejected is not None and "conflicts" in outcome.changed


def test_a_player_sitting_down_tells_the_seated_list_and_a_board_does_not(
        app: Flask, field: Any) -> None:
    ingest = services(app).ingest
    sat = ingest(table_topic(EVENT, 2, "events"), Event(
        1, "assign", 1.7e9, None, {"cmd": f"assign-{EVENT}-r1-t2", "round": 1,
                                    **_assignment(field, 2)}).to_payload())
    assert {"tables", "seated"} <= sat.changed
    board = ingest(table_topic(EVENT, 2, "events"), Event(
        2, "board", 1.7e9 + 1, 2, {"board": 2, "dealer": "E", "vul": "NS"}).to_payload())
    assert board.rejected is None and "tables" in board.changed
    assert "seated" not in board.changed
