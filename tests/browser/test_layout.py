"""The pages at a room's screen, a laptop's and a phone's size (issue 34), for a field larger
than a screen: nothing is wider than the window (no sideways scrolling, no column cut), the
text keeps its size when the window narrows (so the browser's zoom scales it), the static
site's suits have names, and the live page fetches nothing its HTML already holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from server.outputs.publish import write_site
from tests.browser import field as fields
from tests.browser.test_live import connected


@pytest.fixture
def base_url(field_url: str) -> str:
    return field_url


SIZES = {"screen": (1920, 1080), "laptop": (1280, 800), "phone": (390, 844)}
PAGES = ("/", "/?lang=en", "/board/1", "/board/30?lang=en", "/vugraph/1")
SITE = ("index.html", "es/index.html", "es/board-1.html", "en/board-30.html")

# How far the page reaches past the window's right edge, and the elements that do.
REACH = """() => {
  const width = document.documentElement.clientWidth;
  const past = [];
  for (const node of document.querySelectorAll("main *, header *")) {
    // A wide table in a box of its own that scrolls sideways (the console's grids) is in
    // reach; the box itself must fit.
    const box = node.getBoundingClientRect();
    const scroller = node.parentElement && node.parentElement.closest(".grid, .scroll");
    if (scroller && getComputedStyle(scroller).overflowX === "auto") continue;
    if (box.width && (box.right > width + 0.5 || box.left < -0.5)) {
      past.push(node.tagName + "." + node.className + ": " + Math.round(box.left) + "-"
                + Math.round(box.right) + " " + (node.textContent || "").slice(0, 40));
    }
  }
  return {scroll: document.documentElement.scrollWidth, width: width, past: past.slice(0, 5)};
}"""


@pytest.fixture
def site(field: fields.Field, tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    write_site(fields.services(field.app).db, field.session, folder)
    return folder


def reach(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(REACH)
    return found


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_nothing_is_wider_than_the_window(page: Any, site: Path,
                                          size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    addresses = [*PAGES, *((site / name).as_uri() for name in SITE)]
    wide = {}
    for address in addresses:
        page.goto(address)
        found = reach(page)
        if found["scroll"] > found["width"] or found["past"]:
            wide[address] = found
    assert wide == {}


def test_a_board_on_a_phone(page: Any, site: Path) -> None:
    """Every column of the traveller, the chart and the four hands are on the phone's
    screen, on the live board page and on the static site's (which has no script)."""
    page.set_viewport_size({"width": 390, "height": 844})
    for address in ("/board/1", (site / "es" / "board-1.html").as_uri()):
        page.goto(address)
        for part in ("table.traveller tr:last-child td:last-child", ".hand-E, .hand.E",
                     ".hand-W, .hand.W", "svg.chart"):
            if address.startswith("file:") and part == "svg.chart":
                continue
            box = page.locator(part).last.bounding_box()
            assert box is not None, (address, part)
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (address, part, box)


def test_the_text_keeps_its_size_as_the_window_narrows(page: Any) -> None:
    """Browser zoom at 200 % is a window half as wide in CSS pixels: a text whose size does
    not change with the window's width is twice as large on the screen."""
    measured = {}
    for width, height in ((1920, 1080), (1280, 800), (960, 540), (640, 400)):
        page.set_viewport_size({"width": width, "height": height})
        sizes = []
        for address, part in (("/", ".ranking td.names"), ("/", ".traveller td"),
                              ("/board/1", ".traveller td"), ("/board/1", ".hand li")):
            page.goto(address)
            sizes.append(page.locator(part).first.evaluate(
                "(node) => parseFloat(getComputedStyle(node).fontSize)"))
        measured[width] = sizes
    print(f"\nfont sizes by window width: {measured}")
    assert len({tuple(sizes) for sizes in measured.values()}) == 1, measured
    assert min(measured[1920]) >= 16


def test_the_language_link_reads_on_the_bar(page: Any) -> None:
    page.goto("/")
    link = page.locator(".languages a")
    expect(link).to_have_text("English")
    colours = link.evaluate("""(node) => [getComputedStyle(node).color,
        getComputedStyle(node.closest('.bar')).backgroundColor]""")
    assert contrast(*colours) >= 4.5, colours


def contrast(foreground: str, background: str) -> float:
    """WCAG 2.1's contrast ratio of two CSS rgb() colours."""
    def luminance(colour: str) -> float:
        red, green, blue = (int(part) / 255 for part in
                            colour[colour.index("(") + 1:-1].split(",")[:3])
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
                  for c in (red, green, blue)]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_static_sites_suits_and_home_link_have_names(page: Any, site: Path) -> None:
    page.goto((site / "es" / "board-1.html").as_uri())
    suits = page.locator("span.suit")
    assert suits.count() > 10
    names = set(suits.evaluate_all("(nodes) => nodes.map((n) => n.getAttribute('aria-label'))"))
    assert names == {"picas", "corazones", "diamantes", "tréboles"}
    assert suits.evaluate_all("(nodes) => nodes.every((n) => n.getAttribute('role') === 'img')")
    expect(page.get_by_role("link", name="Inicio")).to_have_attribute("href", "../index.html")


def test_the_live_page_fetches_nothing_its_html_holds(page: Any) -> None:
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url)
            if "/api/" in request.url or request.url.endswith("/board/1") else None)
    for address in ("/", "/board/1"):
        response = page.goto(address)
        assert response is not None
        # Compressed for a browser that takes it (Chromium does).
        assert response.headers.get("content-encoding") in ("gzip", "br", "zstd")
        if address == "/":
            connected(page)
        else:
            expect(page.locator("#live-status")).to_contain_text("En directo")
    assert [url for url in fetched if "/api/" in url] == []
    assert len([url for url in fetched if url.endswith("/board/1")]) == 1  # the page itself


def test_the_console_on_a_phone(page: Any) -> None:
    """No console page is wider than a phone; form controls in the page's text size."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/console/login")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", fields.DIRECTOR_PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url("**/console/")
    wide: dict[str, Any] = {}
    for address in ("/console/", "/console/session", "/console/rulings", "/console/results",
                    "/console/scoring", "/console/register", "/console/corrections",
                    "/console/vugraph/1"):
        page.goto(address)
        found = reach(page)
        if found["scroll"] > found["width"] or found["past"]:
            wide[address] = found
        controls = page.locator("main input:not([type=hidden]), main select, main button")
        sizes = controls.evaluate_all(
            "(nodes) => nodes.map((n) => parseFloat(getComputedStyle(n).fontSize))")
        assert min(sizes, default=16) >= 16, (address, sizes)
    assert wide == {}
