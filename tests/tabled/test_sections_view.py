"""A table of a session of sections is told its name ("B3") and, in an arrow-switch round,
that the pairs sit the other way: the seats show both before the first board."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from laws import Seat
from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tabled.seat_lines import WIDTH
from tablemodel.state import Phase
from tablemodel.wire import Command

from .helpers import Table


@pytest.fixture
def make(tmp_path: Path) -> Iterator[object]:
    journals: list[Journal] = []

    def made(language: str) -> Table:
        journal = Journal(tmp_path / f"t{len(journals)}.db")
        journals.append(journal)
        return Table(TableDaemon(journal, language=language))

    yield made
    for journal in journals:
        journal.close()


@pytest.mark.parametrize(("language", "name", "switch"), [
    ("en", "Round 8 Table B3", "Switch: NS play EW"),
    ("es", "Ronda 8 Mesa B3", "Cambio: NS juega EO"),
])
def test_the_seats_show_the_table_name_and_the_arrow_switch(make: object, language: str,
                                                            name: str, switch: str) -> None:
    table = make(language)  # type: ignore[operator]
    table.daemon.handle(Command("assign-8", "assign", {
        "round": 8, "ns": 12, "ew": 3, "boards": [15, 16], "section": "B", "label": "B3",
        "switch": True}))
    assert table.phase is Phase.PLAYERS
    assert table.state.assignment is not None and table.state.assignment.switch
    for seat in Seat:
        lines = table.view(seat)
        assert lines[0] == name and switch in lines
        assert all(len(line) <= WIDTH for line in lines)
    table.seat_players()
    assert table.phase is Phase.BOARD
    assert switch in table.view(Seat.N)


def test_a_round_without_a_switch_or_a_section_shows_neither(make: object) -> None:
    table = make("en")  # type: ignore[operator]
    table.daemon.handle(Command("assign-1", "assign", {"round": 1, "ns": 3, "ew": 12,
                                                       "boards": [1, 2]}))
    lines = table.view(Seat.N)
    assert lines[0] == "Round 1" and not any("Switch" in line for line in lines)
