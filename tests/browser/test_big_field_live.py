"""The live page of a big field, in Chromium (issue 29): 200 tables in 40 sections of five,
each board played in every section (40 results a board). The page shows a board's best and
worst 20 and links to the rest, lists the vugraph and the progress of the section it shows,
and keeps all that as it is when the results change: display.js fetches only what it draws."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import update

from server import create_app
from server.pages.display import BOARD_ROWS
from server.storage import schema as s
from tests.browser.conftest import services
from tests.browser.test_rankings_pages import WATCH
from tests.fixtures.bigfield import played_field
from tests.fixtures.broker import TIMEOUT

TABLES, SECTION = 200, 5


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "field.db"),
                      "EVENT": "simultaneo", "SECRET_KEY": "big-field-test",
                      "DIRECTOR_PASSWORD": "big-field-director", "ANALYSIS": False})
    try:
        played_field(app, TABLES, SECTION)
        yield app
    finally:
        services(app).close()


@pytest.fixture
def base_url(app: Flask) -> Iterator[str]:
    from tests.browser.field import served
    yield from served(app)


def changed(page: Any, app: Flask, box: str, table: int, board: int, score: int) -> None:
    """A table's result changes (straight in the database, and the hub told as ingest tells
    it); wait until the page drew ``box`` again."""
    page.evaluate(WATCH, box)
    with services(app).db.write() as conn:
        conn.execute(update(s.results).where(
            s.results.c.table_no == table, s.results.c.board == board).values(score_ns=score))
    services(app).hub.notify({"results"})
    page.wait_for_function("() => window.__redrawn > 0", timeout=TIMEOUT * 1000)


def board_rows(page: Any, board: int) -> list[int]:
    rows = page.locator(f"#board-{board} tr[data-table]")
    return [int(n) for n in rows.evaluate_all("(rows) => rows.map((r) => r.dataset.table)")]


def test_the_page_draws_a_big_fields_boards_trimmed_and_keeps_them_so(page: Any,
                                                                       app: Flask) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    board = int(page.locator("#results article.board").first.get_attribute("data-board"))
    assert len(board_rows(page, board)) == BOARD_ROWS
    trimmed = page.locator(f"#board-{board} .board-trimmed a")
    assert "20 de los 40 resultados" in trimmed.inner_text()
    assert trimmed.get_attribute("href") == f"/board/{board}"
    # A table outside the best and the worst makes the best result of the board.
    shown = set(board_rows(page, board))
    table = next(seat.table for seat in services(app).session.plan.schedule(board)
                 if seat.table not in shown)
    changed(page, app, "#results", table, board, 7600)
    assert board_rows(page, board)[0] == table  # drawn by display.js, from the API's rows
    assert len(board_rows(page, board)) == BOARD_ROWS
    assert "20 de los 40 resultados" in page.locator(f"#board-{board} .board-trimmed").inner_text()
    pair = page.locator(f"#board-{board} tr[data-table='{table}'] td.pair").first.inner_text()
    assert re.fullmatch(r"[A-Z]+\d+ NS", pair), pair  # the API's label, as the page says it
    assert not errors


def test_a_section_shows_its_tables_vugraph_and_progress_as_results_change(
        page: Any, app: Flask) -> None:
    page.goto("/")
    assert page.locator("#vugraph-tables a").count() == 0
    page.get_by_label("Sección").select_option("B")
    page.get_by_role("button", name="Buscar").click()
    page.wait_for_url(re.compile(r"section=B"))
    names = [f"Mesa B{n}" for n in range(1, SECTION + 1)]
    assert page.locator("#vugraph-tables a").all_inner_texts() == names
    assert page.locator("#progress .table-name").all_inner_texts() == names
    labels = page.locator("#rankings td.pair").all_inner_texts()
    assert len(labels) == 2 * SECTION and all(label.startswith("B") for label in labels)
    board = int(page.locator("#results article.board").first.get_attribute("data-board"))
    table = board_rows(page, board)[0]  # B's table that played it: B's results only
    changed(page, app, "#progress", table, board, 7600)
    assert page.locator("#progress .table-name").all_inner_texts() == names
    assert board_rows(page, board) == [table]
    assert page.locator("#rankings td.pair").all_inner_texts() != [] and all(
        label.startswith("B") for label in page.locator("#rankings td.pair").all_inner_texts())


def test_the_vugraph_box_opens_a_table_by_its_name(page: Any) -> None:
    page.goto("/")
    page.locator(".vugraph-find input[name=table]").fill("c2")
    page.locator(".vugraph-find button").click()
    page.wait_for_url(re.compile(rf"/vugraph/{2 * SECTION + 2}$"))
    page.goto("/vugraph?table=Z99")
    page.wait_for_url(re.compile(r"vugraph=Z99"))
    assert "No hay mesa «Z99»" in page.locator(".vugraph-find").inner_text()
