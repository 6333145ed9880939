"""The after-board pages (tabled/afterboard.py, issue 32): what a seat display shows of a
board once its result is confirmed, from what the server lets the table show."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabled import afterboard
from tabled.afterboard import Browsing, Line
from tabled.state import TableState
from tabled.wire import WireError, afterboard_from_payload, afterboard_payload
from tests.tabled.afterboard_example import MESSAGE, block, example, screens

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "afterboard.md"


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_guide_draws_the_pages_as_the_table_does(language: str) -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for _, lines in screens(language):
        assert block(lines) in text


@pytest.mark.parametrize("language", ["es", "en"])
def test_every_page_fits_twenty_columns_and_cuts_nothing(language: str) -> None:
    for _, lines in screens(language):
        assert len(lines) == 4 and all(len(line) <= afterboard.WIDTH for line in lines)
    # The widest lines a traveller can have: the pair numbers go, the result stays whole.
    widest = Line(1, 12, 13, "7NTXX", "N", 0, -7600)
    line = afterboard.traveller_line(widest, True, language)
    assert len(line) <= afterboard.WIDTH and line.endswith("-13 -7600") and line[0] == "*"
    assert afterboard.traveller_line(Line(2, 1, 3, "4H", "S", 10, 420), False, "es") \
        == "1-3 4♥ S = +420"


def test_a_board_not_released_shows_when_its_results_come_and_nothing_else() -> None:
    shown = example()
    state = TableState()
    assert afterboard.pages(shown, 6, state, "es") == [
        ("title_result", "Resultados cuando", "lo jueguen todos")]
    # A board the server has not spoken of yet (its result just confirmed) waits the same way.
    assert afterboard.pages(shown, 9, state, "en")[0][1:] == ("Results once every",
                                                             "table has played it")


def test_the_switches_leave_their_pages_out() -> None:
    state = TableState()
    message = {**MESSAGE, "show": {"score": False, "traveller": True, "record": False}}
    kinds = {p[0] for p in afterboard.pages(
        afterboard_from_payload(afterboard_payload(message)), 5, state, "es")}
    assert kinds == {"title_traveller"}
    off = {**MESSAGE, "show": {"score": False, "traveller": False, "record": False}}
    shown = afterboard_from_payload(afterboard_payload(off))
    assert afterboard.pages(shown, 5, state, "es") == []
    assert afterboard.key(None, "INFO", False, state, shown, "es") == (False, None)


def test_the_wire_refuses_what_a_table_cannot_show() -> None:
    bad = [
        {**MESSAGE, "show": {"score": True}},
        {**MESSAGE, "boards": [{"board": 5, "released": True,
                                "traveller": [[1, 1, 3, "4Z", "S", 10, 420, None]]}]},
        {**MESSAGE, "boards": [{"board": 5, "released": True,
                                "score": {"ns": 50, "ew": 50, "unit": "points"}}]},
        {**MESSAGE, "boards": [{"board": 5, "released": True,
                                "tricks": {"N": [1, 2, 3, 4, 14]}}]},
        {**MESSAGE, "boards": [{"board": 5, "released": False, "secret": "4S"}]},
    ]
    for value in bad:
        with pytest.raises(WireError):
            afterboard_payload(value)
    with pytest.raises(WireError, match="not JSON"):
        afterboard_from_payload(b"{")


def test_texts_are_written_in_both_languages_and_fit() -> None:
    for key in afterboard.TEXTS:
        for language in ("es", "en"):
            text = re.sub(r"\{[a-z]+\}", "99", afterboard.TEXTS[key][language])
            assert len(text) <= afterboard.WIDTH, (key, language, text)
    assert "aún" in afterboard.TEXTS["no_score"]["es"]  # written as a Spanish club writes


def test_a_page_past_the_end_is_none() -> None:
    assert afterboard.page_lines(Browsing(5, 99), example(), TableState(), "es") is None
