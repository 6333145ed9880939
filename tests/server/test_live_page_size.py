"""The live results of a big field carry what they show (issue 29): a 1,000-table field in
sections of 25 (2,000 pairs), every board released. The live page, its API and the console's
results page weigh what a page of them shows, not what the field holds; a club of ten
tables sees everything on one page as before."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from server.pages import rankview
from server.pages.display import BOARD_ROWS, PROGRESS_TABLES, RECENT_BOARDS
from tests.fixtures.bigfield import played_field
from tests.server.conftest import login, make_app, services

TABLES, SECTION = 1000, 25

# What one thing on the page weighs at most, in bytes, measured on the page as it is drawn
# (a ranking row with a pair's names; a result with its suit symbols; a table's progress
# line), and the page around them (headings, forms, the script's words).
ROW_BYTES = {"ranking": 400, "result": 500, "progress": 260, "label": 40}
FRAME_BYTES = 20_000


def page_budget() -> int:
    """What the live page may weigh: its frame, a page of rankings, the newest boards'
    results, the tables' progress it lists, and the labels of the pairs it shows."""
    results = RECENT_BOARDS * BOARD_ROWS
    labels = rankview.PAGE_ROWS + 2 * results
    return (FRAME_BYTES + rankview.PAGE_ROWS * ROW_BYTES["ranking"]
            + results * ROW_BYTES["result"] + PROGRESS_TABLES * ROW_BYTES["progress"]
            + labels * ROW_BYTES["label"])


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = make_app(str(tmp_path_factory.mktemp("big") / "field.db"))
    try:
        played_field(app, TABLES, SECTION)
        yield app
    finally:
        services(app).close()


@pytest.fixture
def visitor(big: Flask) -> FlaskClient:
    client = big.test_client()
    client.set_cookie("lang", "es")
    return client


def texts_of(page: str) -> dict[str, Any]:
    found = re.search(r'id="display-texts">(.*?)</script>', page, re.S)
    assert found
    loaded: dict[str, Any] = json.loads(found.group(1))
    return loaded


def test_the_live_page_weighs_what_it_shows(visitor: FlaskClient) -> None:
    budget = page_budget()
    page = visitor.get("/").get_data(as_text=True)
    assert len(page.encode()) < budget, (len(page.encode()), budget)
    texts = texts_of(page)
    assert "tables" not in texts  # the tables' names come with the progress the API sends
    shown = set(map(int, re.findall(r'data-participant="(\d+)"', page)))
    assert len(shown) == rankview.PAGE_ROWS
    assert shown <= set(map(int, texts["labels"]))  # the labels of the pairs on the page
    assert len(texts["labels"]) <= rankview.PAGE_ROWS + 2 * RECENT_BOARDS * BOARD_ROWS
    boards = re.findall(r'<article class="board" id="board-(\d+)"', page)
    assert len(boards) == RECENT_BOARDS
    for board in boards:  # 40 results each: the best and worst 20, and a link to them all
        body = page.split(f'id="board-{board}"')[1].split("</article>")[0]
        assert body.count("<tr data-table=") == BOARD_ROWS
        assert f'href="/board/{board}"' in body and "de los 40 resultados" in body
    # The vugraph: no link to each of 1,000 tables, a box that asks for one by name.
    assert page.count('href="/vugraph/') == 0 and 'action="/vugraph"' in page
    assert len(re.findall(r'<li class="stage-', page)) <= PROGRESS_TABLES


def test_a_section_of_the_live_page_shows_that_section(visitor: FlaskClient) -> None:
    page = visitor.get("/?section=B").get_data(as_text=True)
    assert len(page.encode()) < page_budget()
    links = re.findall(r'href="/vugraph/(\d+)"', page)
    assert len(links) == SECTION and "Mesa B1<" in page
    # Its boards' results are B's: 2 of each board's 40, all shown (no link to the rest).
    assert 'class="board-trimmed"' not in page
    tables = set(map(int, re.findall(r'<tr data-table="(\d+)"', page)))
    assert tables and all(SECTION < table <= 2 * SECTION for table in tables)
    progress = re.findall(r'<li class="stage-\w+" data-table="(\d+)"', page)
    assert len(progress) == SECTION


def test_the_vugraph_box_finds_a_table_by_name(visitor: FlaskClient) -> None:
    found = visitor.get("/vugraph?table=b3")
    assert found.status_code == 302 and found.headers["Location"].endswith(
        f"/vugraph/{SECTION + 3}")
    missing = visitor.get("/vugraph?table=zz9")
    assert missing.status_code == 302 and "vugraph=ZZ9" in missing.headers["Location"]
    assert "No hay mesa «ZZ9»" in visitor.get(missing.headers["Location"]).get_data(
        as_text=True)


def test_the_api_sends_what_the_page_draws(visitor: FlaskClient) -> None:
    every = visitor.get("/api/v1/results").get_json()
    assert len(every["results"]) == TABLES and every["counts"] is None  # as before
    asked = visitor.get(f"/api/v1/results?recent={RECENT_BOARDS}&per_board={BOARD_ROWS}")
    data = asked.get_json()
    boards = sorted({row["board"] for row in data["results"]}, reverse=True)
    assert boards == sorted(every["released"], reverse=True)[:RECENT_BOARDS]
    assert len(data["results"]) == RECENT_BOARDS * BOARD_ROWS
    assert data["counts"] == {str(board): 40 for board in boards}
    assert len(asked.data) < RECENT_BOARDS * BOARD_ROWS * 400
    first = [row for row in data["results"] if row["board"] == boards[0]]
    scores = [row["score_ns"] for row in first]
    assert scores == sorted(scores, reverse=True)  # the best for North-South, then the worst
    assert first[0]["shown"]["ns"].endswith("NS") and first[0]["shown"]["ew"].endswith("EO")
    section = visitor.get("/api/v1/results?boards=1,2&section=C").get_json()
    assert {row["board"] for row in section["results"]} <= {1, 2}
    assert all(2 * SECTION < row["table"] <= 3 * SECTION for row in section["results"])
    for bad in ("recent=0", "recent=x", "boards=1;2", "per_board=1", "section=B1"):
        refused = visitor.get(f"/api/v1/results?{bad}")
        assert refused.status_code == 400 and "error" in refused.get_json(), bad
    progress = visitor.get(f"/api/v1/progress?stage=waiting&limit={PROGRESS_TABLES}")
    listed = progress.get_json()
    assert len(listed["tables"]) == PROGRESS_TABLES
    assert listed["tables_matched"] == TABLES and listed["scheduled"] == TABLES
    named = visitor.get("/api/v1/progress?section=B").get_json()["tables"]
    assert [row["name"] for row in named] == [f"B{n}" for n in range(1, SECTION + 1)]


def test_the_consoles_results_page_shows_a_section_at_a_time(big: Flask) -> None:
    client = big.test_client()
    login(client)
    page = client.get("/console/results").get_data(as_text=True)
    # The grid of section A (25 tables, its boards), the rankings' page, the correction form.
    assert len(page.encode()) < 200_000, len(page.encode())
    assert len(re.findall(r"<th>Mesa ", page)) == SECTION
    assert 'href="/console/results?section=B"' in page
    second = client.get("/console/results?section=B").get_data(as_text=True)
    cells = set(map(int, re.findall(r'data-result="t(\d+)-b\d+"', second)))
    assert cells == set(range(SECTION + 1, 2 * SECTION + 1))
    fragment = client.get("/console/fragment/results?section=B").get_data(as_text=True)
    assert set(map(int, re.findall(r'data-result="t(\d+)-b\d+"', fragment))) == cells


def test_scored_once_the_big_field_is_read_fast(visitor: FlaskClient) -> None:
    """The second reader of the same field does not score it again: a page of the rankings
    is a fraction of a scoring (about 0.2 s here at 1,000 tables on a loaded machine)."""
    visitor.get("/api/v1/rankings?page=1")
    began = time.monotonic()
    for _ in range(5):
        assert visitor.get("/api/v1/rankings?page=1").status_code == 200
    assert (time.monotonic() - began) / 5 < 1.0


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(str(tmp_path / "club.db"))
    try:
        played_field(app, 10, 10)
        yield app
    finally:
        services(app).close()


def test_a_club_of_ten_tables_sees_everything_on_one_page(club: Flask) -> None:
    client = club.test_client()
    page = client.get("/").get_data(as_text=True)
    assert len(re.findall(r'href="/vugraph/(\d+)"', page)) == 10
    assert 'action="/vugraph"' not in page
    assert len(re.findall(r'<li class="stage-', page)) == 10
    assert 'class="board-trimmed"' not in page
    assert len(set(re.findall(r'data-participant="(\d+)"', page))) == 20
    login(client)
    console = client.get("/console/results").get_data(as_text=True)
    assert len(re.findall(r"<th>Mesa ", console)) == 10 and "grid-pages" not in console
