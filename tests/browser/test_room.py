"""The room mode in Chromium (issue 34): the results on the room's big screen at 1920x1080, for
a field larger than a screen (30 pairs, 30 boards of 12 results each). The results text is at
least 40 px; every ranking line and every traveller line is shown whole on one of the screens,
which turn by themselves; the newest board comes first; nothing is cut or scrolled."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from tests.browser import field as fields

HD = {"width": 1920, "height": 1080}

# What the screen shown holds: each line of a ranking or traveller with its box, the font size
# of its cells, and whether any column holds more than it shows.
SCREEN = """() => {
  const stage = document.getElementById("room-stage");
  const screen = stage.querySelector(".room-screen:not([hidden])");
  const lines = [];
  for (const row of screen.querySelectorAll("tbody tr")) {
    const box = row.getBoundingClientRect();
    const part = row.closest("[data-part]").dataset.part;
    const sizes = Array.from(row.cells, (cell) => parseFloat(getComputedStyle(cell).fontSize));
    lines.push({part: part, key: row.dataset.participant || row.dataset.table || "",
                left: box.left, right: box.right, top: box.top, bottom: box.bottom,
                smallest: Math.min(...sizes)});
  }
  const cut = Array.from(screen.querySelectorAll(".room-column")).some((column) =>
    column.scrollHeight > column.clientHeight + 1 || column.scrollWidth > column.clientWidth + 1);
  const heading = screen.querySelector("h2").textContent;
  return {lines: lines, cut: cut, heading: heading,
          width: document.documentElement.scrollWidth,
          height: document.documentElement.scrollHeight,
          summary: document.getElementById("room-summary").textContent};
}"""


@pytest.fixture
def field(tmp_path: Path) -> Iterator[fields.Field]:
    yield from fields.field_app(tmp_path, hold=1)


@pytest.fixture
def base_url(field_url: str) -> str:
    return field_url


def screens(page: Any) -> int:
    return int(page.locator("#room-stage").get_attribute("data-screens"))


def every_screen(page: Any, size: dict[str, int]) -> list[dict[str, Any]]:
    """Each screen in turn, turned by hand (→), as the room sees it."""
    shown = []
    count = screens(page)
    for number in range(count):
        expect(page.locator("#room-stage")).to_have_attribute("data-screen", str(number))
        screen = page.evaluate(SCREEN)
        assert not screen["cut"], f"screen {number + 1}: a column holds more than it shows"
        assert screen["width"] <= size["width"] and screen["height"] <= size["height"]
        for line in screen["lines"]:  # every line whole on the screen
            assert line["left"] >= 0 and line["right"] <= size["width"], line
            assert line["top"] >= 0 and line["bottom"] <= size["height"], line
        shown.append(screen)
        page.keyboard.press("ArrowRight")
    expect(page.locator("#room-stage")).to_have_attribute("data-screen", "0")  # round again
    return shown


def test_the_whole_field_a_screenful_at_a_time_in_large_type(page: Any,
                                                             field: fields.Field) -> None:
    page.set_viewport_size(HD)
    page.goto("/room?seconds=300")  # turned by hand here; the next test waits for the timer
    shown = every_screen(page, HD)
    assert len(shown) > 2  # the field is larger than a screen
    lines = [line for screen in shown for line in screen["lines"]]
    smallest = min(line["smallest"] for line in lines)
    print(f"\n{len(shown)} screens at 1920x1080; smallest results text {smallest} px")
    assert smallest >= 40

    # Every pair's ranking line once, every table's result on each released board once.
    rankings = [line["key"] for line in lines if line["part"].startswith("ranking-")]
    assert sorted(rankings, key=int) == [str(n) for n in range(1, 31)]
    travellers = [(line["part"], line["key"]) for line in lines
                  if line["part"].startswith("board-")]
    assert len(travellers) == len(set(travellers)) == field.results - 11  # board 30 waits
    progress = [line["key"] for line in lines if line["part"] == "progress"]
    assert sorted(progress, key=int) == [str(n) for n in range(1, 16)]

    # The newest results first: board 29 finished last of the released boards.
    assert shown[0]["heading"].startswith("Tablero 29")
    # The session's progress is on every screen.
    assert all("tableros terminados" in screen["summary"] for screen in shown)


def test_the_screens_turn_by_themselves_and_follow_the_results(page: Any,
                                                              field: fields.Field) -> None:
    page.set_viewport_size(HD)
    page.goto("/room?seconds=5&show=boards,rankings")
    stage = page.locator("#room-stage")
    expect(stage).to_have_attribute("data-screen", "0")
    page.evaluate("window.bidboxSamePage = true")  # gone if the page reloads
    expect(stage).to_have_attribute("data-screen", "1", timeout=20_000)
    expect(stage).to_have_attribute("data-screen", "2", timeout=20_000)
    before = screens(page)

    # The last result of board 30 arrives: the board is released, the rotation starts again
    # from it, the newest, with no reload.
    while field.held:
        field.send_held()
    shown = page.locator(".room-screen:not([hidden]) h2").first
    expect(shown).to_have_text("Tablero 30", timeout=10_000)
    assert screens(page) >= before
    assert page.evaluate("window.bidboxSamePage") is True


def test_a_laptop_and_the_browser_zoom(page: Any, field: fields.Field) -> None:
    """On a 1280x800 laptop, and at 200 % zoom of the 1920x1080 screen (960x540 CSS pixels),
    the text keeps its size in CSS pixels (the zoom doubles it) and nothing is cut."""
    for size in ({"width": 1280, "height": 800}, {"width": 960, "height": 540}):
        page.set_viewport_size(size)
        page.goto("/room?seconds=300&show=boards&boards=4")
        shown = every_screen(page, size)
        assert min(line["smallest"] for screen in shown for line in screen["lines"]) >= 40


def test_a_choice_the_screen_cannot_show_is_refused_plainly(page: Any,
                                                           field: fields.Field) -> None:
    for query, says in (("show=boards,weather", "weather"), ("seconds=2", "2"),
                        ("boards=0", "0"), ("seconds=ten", "ten")):
        response = page.goto(f"/room?{query}")
        assert response is not None and response.status == 400
        expect(page.locator("[role=alert]")).to_contain_text(says)


def test_pictures_for_the_guide(page: Any, field: fields.Field, tmp_path: Path) -> None:
    """The room's screen at 1920x1080 and a board's page on a phone, as docs/display.md shows
    them (``BIDBOX_SCREENSHOTS=docs/screenshots`` writes them there)."""
    from tests.browser.test_screenshots import _folder

    folder = _folder(tmp_path)
    page.set_viewport_size(HD)
    page.goto("/room?seconds=300")
    expect(page.locator(".room-screen:not([hidden]) h2").first).to_have_text("Tablero 29")
    page.screenshot(path=str(folder / "room.png"))
    page.keyboard.press("End")  # not a key the screen takes: nothing turns
    for _ in range(screens(page) - 3):
        page.keyboard.press("ArrowRight")
    expect(page.locator(".room-screen:not([hidden]) h2").first).to_contain_text(
        "Clasificación")
    page.screenshot(path=str(folder / "room-rankings.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/board/1")
    expect(page.locator(".hand-E")).to_be_visible()
    page.screenshot(path=str(folder / "board-phone.png"), full_page=True)
    assert (folder / "room.png").stat().st_size > 10_000
