"""Issue 33's screens, driven on a real table: what a player needs is never cut away.

Penalty cards keep the play cue (Law 50A), the arrow-switch players step keeps its question,
a section's table of 16 characters is accepted and shown whole, answers and system-card
meanings are read whole page by page, an answer's code is typed as digits, an adjusted score
shows no meaningless NS points.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from laws import Seat
from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tablemodel.state import Phase
from tablemodel.syscard import example
from tablemodel.texts import MORE, WIDTH, pages
from tests.clock import Clock

from .conftest import MakeTable
from .helpers import PBN, Table, reach

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
LABEL = "bilbao-centro-12"


def read(rows: list[str]) -> list[str]:
    """The words on a screen's rows, the read-on mark left out."""
    return [w for row in rows for w in row.replace(MORE, " ").split()]


def fits(rows: list[str]) -> bool:
    return len(rows) == 4 and all(len(row) <= WIDTH for row in rows)


@pytest.mark.parametrize(("language", "cue", "lead"), [
    ("en", "Your lead", "Lead: E"), ("es", "Su salida", "Sale: E")])
def test_four_penalty_cards_keep_the_lead_cue_and_every_card(make_table: MakeTable,
                                                             language: str, cue: str,
                                                             lead: str) -> None:
    table = make_table(language)
    reach(table, Phase.LEAD)
    for n, card in enumerate(["CJ", "HQ", "D3", "S7"]):
        table.command(f"r-{n}", "ruling", {"kind": "penalty_card", "seat": "W", "card": card,
                                           "major": "major"})
    table.command("r-9", "ruling", {"kind": "penalty_card", "seat": "E", "card": "D8",
                                    "major": "minor"})
    table.press(N, "3")                     # Law 50D2: declarer leaves the lead free
    west = "O" if language == "es" else "W"
    for seat in Seat:
        rows = table.view(seat)
        assert fits(rows), rows
        assert rows[1] == (cue if seat is E else lead), rows
        shown = " ".join(rows[2:])
        assert f"{west}:♣J♥Q♦3♠7" in shown and "E:(♦8)" in shown, rows


def test_the_arrow_switch_keeps_the_player_number_question(make_table: MakeTable) -> None:
    table = make_table("es")
    table.assign(switch=True)
    assert table.view(N) == ["Ronda 1", "NS 3  EO 4", "Cambio: NS juega EO",
                             "Su número de jugador"]
    table.press(N, "1", "2")                # the digits take the question's line
    assert table.view(N)[3] == "> 12"
    table.press(N, "OK")
    assert table.view(N)[3] == "Jugador 12"


@pytest.mark.parametrize(("language", "rows"), [
    ("es", ["Ronda 999", LABEL, "NS 9999  EO 9999", "Su número de jugador"]),
    ("en", ["Round 999", LABEL, "NS 9999  EW 9999", "Your player number"])])
def test_a_section_table_of_sixteen_characters_is_accepted_and_shown_whole(
        make_table: MakeTable, language: str, rows: list[str]) -> None:
    table = make_table(language)
    table.command("assign-1", "assign", {"round": 999, "ns": 9999, "ew": 9999,
                                         "boards": [1], "section": "bilbao-centro",
                                         "label": LABEL})
    assert table.phase is Phase.PLAYERS     # not refused: no "waiting for the director"
    assert table.view(N) == rows


def test_a_short_section_table_shares_the_rounds_line(make_table: MakeTable) -> None:
    table = make_table("es")
    table.assign(section="B", label="B3", switch=True)
    assert table.view(N) == ["Ronda 1 Mesa B3", "NS 3  EO 4", "Cambio: NS juega EO",
                             "Su número de jugador"]


@pytest.mark.parametrize("language", ["es", "en"])
def test_a_long_register_name_is_shown_whole(make_table: MakeTable, language: str) -> None:
    table = make_table(language)
    name = "María de los Ángeles Fernández-Castañón"
    table.assign(roster={"104": name}, switch=True)
    table.press(S, "1", "S", "4", "OK")
    rows = table.view(S)
    assert fits(rows) and " ".join(read(rows[2:])) == name, rows
    for seat in (N, E, W):
        table.press(seat, "OK")               # no number: skipped
    assert table.phase is Phase.BOARD         # choosing the board: the name still whole
    rows = table.view(S)
    assert fits(rows) and " ".join(read(rows[2:])) == name, rows


@pytest.fixture
def carded(tmp_path: Path) -> Any:
    journals: list[Journal] = []

    def make(language: str) -> Table:
        journal = Journal(tmp_path / f"t{len(journals)}.db")
        journals.append(journal)
        table = Table(TableDaemon(journal, language=language, clock=Clock()))
        card = example().to_json()
        table.assign([1, 2], deals={"1": PBN}, conduct={"profile": "feb",
                                                        "cards": {"NS": card, "EW": card}})
        table.seat_players()
        table.choose_board(1)
        return table

    yield make
    for journal in journals:
        journal.close()


@pytest.mark.parametrize("language", ["es", "en"])
def test_every_meaning_of_the_card_is_read_whole_on_the_card_page(carded: Any,
                                                                  language: str) -> None:
    table = carded(language)                  # before the auction (Law 40B2(c)(i))
    for _ in range(4):
        if table.daemon.controller.entries[E].page == "card":
            break
        table.press(E, "INFO")
    assert table.daemon.controller.entries[E].page == "card"
    card = example()
    count = sum(len(pages(f"{e.sequence}: {e.meaning(language)}", 2)) for e in card.entries)
    seen: list[str] = []
    for _ in range(count):                    # OK reads on, round the whole card once
        rows = table.view(E)
        assert fits(rows), rows
        seen.extend(read(rows[2:]))
        table.press(E, "OK")
    text = " ".join(seen)
    for entry in card.entries:
        assert " ".join(entry.meaning(language).split()) in text, entry.meaning(language)
    assert read(table.view(E)[2:]) == seen[:len(read(table.view(E)[2:]))]  # round again


def test_a_meaning_longer_than_a_line_is_split_between_words(carded: Any) -> None:
    table = carded("es")
    table.call(N, "1C")
    table.press(E, "INFO", "INFO", "INFO")
    rows = table.view(E)
    words_shown = read(rows[2:])
    meaning = example().lookup(table.state.board.auction, 0).meaning("es").split()
    assert words_shown == meaning[:len(words_shown)]   # whole words, in order
    assert rows[1] == "Convenios NS: 1♣"


def test_an_answer_code_typed_is_shown_as_digits_not_a_call(carded: Any) -> None:
    table = carded("en")
    table.call(N, "1C")
    table.press(S, "ALERT")
    table.press(E, "INFO", "INFO", "OK")     # East asks about 1C; South answers
    table.press(S, "1", "S")                  # code 10: S is the digit 0
    assert table.view(S)[3] == "> 10"


@pytest.mark.parametrize("language", ["es", "en"])
def test_a_long_answer_is_read_whole_by_both_sides(carded: Any, language: str) -> None:
    table = carded(language)
    table.call(N, "1C")
    table.press(S, "ALERT")
    table.press(E, "INFO", "INFO", "OK")
    table.press(S, "1", "S", "OK")           # the card's code 10
    meaning = example().by_code(10)
    assert meaning is not None
    wanted = meaning.meaning(language).split()
    # the asker's partner reads the start in the notice; the asker reads it all on the page
    table.press(E, "INFO", "INFO")
    assert table.daemon.controller.entries[E].page == "ask"
    seen: list[str] = []
    for _ in range(10):
        seen.extend(read(table.view(E)[2:]))
        if seen[-len(wanted[-2:]):] == wanted[-2:]:
            break
        table.press(E, "OK")                  # reads on
    assert " ".join(wanted) in " ".join(seen)


def test_the_answerer_reads_a_long_answer_before_the_next_is_offered(carded: Any) -> None:
    table = carded("en")
    table.call(N, "1C")
    table.press(S, "ALERT")
    table.press(E, "INFO", "INFO", "OK")
    first = table.view(S)[2:]
    assert re.match(r"\d+ ", first[0]) and len(first) == 2


@pytest.mark.parametrize("language", ["es", "en"])
def test_an_adjusted_score_shows_no_meaningless_points(make_table: MakeTable,
                                                       language: str) -> None:
    table = make_table(language)
    reach(table, Phase.RESULT)
    table.command("r-1", "ruling", {"kind": "score", "adjusted": "A60/40"})
    rows = table.view(N)
    assert rows[1] == "A60/40" and "NS 0" not in " ".join(rows), rows
