"""The after-board pages (tablemodel/afterboard.py, issue 32): what a seat display shows of a
board once its result is confirmed, from what the server lets the table show."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from laws import Seat
from tablemodel import afterboard
from tablemodel.afterboard import Browsing
from tablemodel.state import Phase, TableState
from tablemodel.wire import AfterBoard, Line, WireError, afterboard_from_payload, afterboard_payload
from tests.tabled.afterboard_example import MESSAGE, block, example, screens
from tests.tabled.helpers import Table, reach

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


# -- at the table: the daemon opens the pages and turns them on the keys ---------------------

def _message(board: int, released: bool, on: bool = True) -> AfterBoard:
    value: dict[str, object] = {
        "table": 1, "show": {"score": on, "traveller": on, "record": on},
        "boards": [{"board": board, "released": released}]}
    if released:
        value["boards"] = [{"board": board, "released": True,
                            "traveller": [[1, 3, 4, "1NT", "N", 7, 90, None],
                                          [2, 1, 2, "Pass", None, None, 0, None]],
                            "score": {"ns": 100, "ew": 0, "unit": "%"}}]
    return afterboard_from_payload(afterboard_payload(value))


def test_the_pages_open_once_the_result_is_confirmed_even_when_the_word_comes_later(
        table: Table) -> None:
    reach(table, Phase.RESULT, boards=[1, 2])
    table.confirm()  # the server has said nothing yet: the plain display
    assert table.phase is Phase.BOARD
    assert table.view(Seat.N)[1] == "Board? OK = 2", table.view(Seat.N)
    table.daemon.handle(_message(1, released=False))
    assert table.view(Seat.N)[:3] == ["B1 Result        1/1", "Results once every",
                                      "table has played it"]
    assert table.view(Seat.N)[3] == "INFO: leave"
    table.daemon.handle(_message(1, released=True))  # released while they look
    view = table.view(Seat.E)
    assert view[0] == "B1 Result        1/2" and view[2] == "NS 100.00% EW 0.00%", view
    assert view[1] == "1NT N 8 +120"  # the table's own result, from its own record
    table.press(Seat.E, "INFO")
    assert table.view(Seat.E)[1:3] == ["*3-4 1NT N = +90", "1-2 Passed out 0"]
    assert table.view(Seat.N)[0] == "B1 Result        1/2"  # each seat turns its own
    table.press(Seat.E, "C")  # a digit typed shows on the last line, the page stays
    assert table.view(Seat.E)[3] == "> 8"
    table.press(Seat.E, "UNDO")  # rubs the digit out: not a page key while typing
    assert table.view(Seat.E)[0].startswith("B1 Traveller")
    table.press(Seat.E, "INFO")  # past the last: the plain display
    assert table.view(Seat.E)[1] == "Board? OK = 2"
    table.press(Seat.N, "OK")  # the next board is never held up by the pages
    assert table.phase is Phase.SETUP
    assert table.view(Seat.N)[0].startswith("B2"), table.view(Seat.N)
    assert table.daemon.browsing == {}  # closed: the board after it opens its own


def test_with_every_page_off_the_table_shows_none(table: Table) -> None:
    table.daemon.handle(_message(1, released=True, on=False))
    reach(table, Phase.ROUND_END)
    guidance = table.view(Seat.S)
    assert not guidance[0].startswith("B1"), guidance
    table.press(Seat.S, "INFO")
    assert table.view(Seat.S) == guidance


def test_a_new_round_closes_the_pages_and_the_last_rounds_boards_stay_a_key_away(
        table: Table) -> None:
    table.daemon.handle(_message(1, released=False))
    reach(table, Phase.ROUND_END)
    assert table.view(Seat.W)[1] == "Results once every"
    table.command("assign-2", "assign", {"round": 2, "ns": 3, "ew": 4, "boards": [2]})
    assert table.daemon.browsing == {}
    table.seat_players()
    assert table.phase is Phase.BOARD and table.view(Seat.W)[1] == "Board? OK = 2"
    table.daemon.handle(_message(1, released=True))  # released during round 2
    assert table.view(Seat.W)[1] == "Board? OK = 2"  # the players are not interrupted
    table.press(Seat.W, "INFO")  # round 1's board, from what the server says of it
    view = table.view(Seat.W)
    assert view[0] == "B1 Result        1/2" and view[1] == "1NT N 7 +90", view
