"""The players' guides show the seat display as the code draws it (issue 33's proof).

``sim.screens`` drives a real table through a round in each language and renders each screen
as the 20x4 LCD shows it (custom characters included); the guides carry that output between
markers, and this test fails when they drift from it.
"""

from __future__ import annotations

import pytest

from hardware.charset import CGRAM_SLOTS, shown
from sim import screens
from tablemodel.texts import LANGUAGES, WIDTH


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_guide_shows_the_screens_the_code_draws(language: str) -> None:
    assert screens.guide_section(language) == screens.section(language), (
        f"docs/players.{language}.md is out of date: run python3 -m sim.screens --write")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_phase_is_shown_and_no_glyph_falls_back(language: str) -> None:
    drawn = list(screens.screens(language))
    assert [s.name for s in drawn] == list(screens.CAPTIONS)
    for screen in drawn:
        lines, glyphs = shown(screen.lines)
        assert glyphs <= CGRAM_SLOTS
        assert lines == screen.lines, screen.name  # every accent and suit as written
        assert len(screen.lines) == 4 and all(len(line) <= WIDTH for line in screen.lines)


def test_the_spanish_screens_are_written_as_a_spanish_club_writes_them() -> None:
    text = screens.section("es")
    for word in ("árbitro", "número", "¿Tablero?", "♣", "T13 Rep N Vul Todos", "Penaliz."):
        assert word in text, word
    for wrong in ("Numero", "Tab 13 Da", "Cast ", "director"):
        assert wrong not in text, wrong
