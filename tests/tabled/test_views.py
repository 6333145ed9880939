"""What the seat displays show: four lines of at most twenty characters, in English or
Spanish, in every phase; Spanish bidding terms (Paso, Doblo, Redoblo, ST)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from laws import Seat
from tabled import i18n
from tabled.control import Notice, SeatEntry
from tabled.seat_lines import WIDTH, seat_view
from tablemodel.state import Phase
from tablemodel.texts import wrap
from tablemodel.wire import RULINGS

from .conftest import MakeTable
from .helpers import Table, reach

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
LANGUAGES = ("en", "es")


def claim_pending(table: Table) -> None:
    reach(table, Phase.PLAY)
    table.claim(N, 7)


def claim_disputed(table: Table) -> None:
    claim_pending(table)
    table.press(E, "UNDO")


def mid_trick(table: Table) -> None:
    reach(table, Phase.PLAY)
    table.play("DJ D3")


def typing(table: Table) -> None:
    reach(table, Phase.AUCTION)
    table.press(E, "7", "NT")


def reviewing(table: Table) -> None:
    reach(table, Phase.LEAD)
    table.press(E, "INFO")


def refused(table: Table) -> None:
    reach(table, Phase.AUCTION)
    table.press(E, "1", "C", "OK")   # Law 27
    table.press(W, "X", "OK")        # out of turn, Law 32


def director(table: Table) -> None:
    reach(table, Phase.AUCTION)
    table.press(S, "DIR")
    table.press(S, "1", "UNDO")      # South's notice goes with a key press


def at(phase: Phase) -> Callable[[Table], None]:
    def drive(table: Table) -> None:
        reach(table, phase)
    return drive


SITUATIONS: dict[str, Callable[[Table], None]] = {
    **{phase.value: at(phase) for phase in Phase},
    "claim_pending": claim_pending, "claim_disputed": claim_disputed, "mid_trick": mid_trick,
    "typing": typing, "reviewing": reviewing, "refused": refused, "director": director,
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("situation", list(SITUATIONS))
def test_every_display_has_four_lines_that_fit(make_table: MakeTable, situation: str,
                                               language: str) -> None:
    table = make_table(language)
    SITUATIONS[situation](table)
    for seat in Seat:
        lines = table.view(seat)
        assert len(lines) == 4
        assert all(isinstance(line, str) and len(line) <= WIDTH for line in lines), lines
        assert any(lines), f"{seat}'s display is blank"


@pytest.mark.parametrize(("language", "lines"), [
    ("en", ["Waiting for the", "director's round", "", ""]),
    ("es", ["Esperando la ronda", "del árbitro", "", ""]),
])
def test_waiting_for_the_round(make_table: MakeTable, language: str, lines: list[str]) -> None:
    assert make_table(language).view(N) == lines


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["Round 1", "NS 3  EW 4", "Your player number"]),
    ("es", ["Ronda 1", "NS 3  EO 4", "Su número de jugador"]),
])
def test_players_phase(make_table: MakeTable, language: str, expected: list[str]) -> None:
    table = make_table(language)
    table.assign()
    assert table.view(N)[:3] == expected
    table.press(N, "1", "2", "OK")
    assert table.view(N)[2] == ("Player 12" if language == "en" else "Jugador 12")
    assert table.view(E)[2] == expected[2]


@pytest.mark.parametrize(("keys", "en", "es"), [
    (["PASS"], "> Pass", "> Paso"),
    (["X"], "> X", "> Doblo"),
    (["XX"], "> XX", "> Redoblo"),
    (["3", "NT"], "> 3NT", "> 3ST"),
    (["4", "H"], "> 4♥", "> 4♥"),
])
def test_typed_call_is_shown_in_the_seats_language(make_table: MakeTable, keys: list[str],
                                                    en: str, es: str) -> None:
    for language, shown in (("en", en), ("es", es)):
        table = make_table(language)
        reach(table, Phase.SETUP)
        table.press(N, *keys)
        assert table.view(N)[3] == shown
        assert table.view(E)[3] == ""   # nobody sees what another seat types


@pytest.mark.parametrize(("language", "calls_line", "turn"), [
    ("en", "1NT X P", "Turn: W"),
    ("es", "1ST X P", "Turno: O"),      # the short forms: P and X in both languages
])
def test_auction_shows_the_recent_calls_and_the_turn(make_table: MakeTable, language: str,
                                                     calls_line: str, turn: str) -> None:
    table = make_table(language)
    reach(table, Phase.AUCTION)
    table.calls("X", "Pass")
    assert table.view(N)[1:3] == [calls_line, turn]
    assert table.view(W)[2] == ("Your call" if language == "en" else "Su turno")


def test_auction_line_keeps_the_last_five_calls_with_alerts(table: Table) -> None:
    reach(table, Phase.SETUP)
    table.calls("1C", "1D", "1H")
    table.press(E, "ALERT")              # not South's partner: refused
    table.press(N, "ALERT")              # South's partner alerts the 1H
    table.calls("1S", "1NT", "2C")
    assert table.view(E)[1] == "1♦ 1♥! 1♠ 1NT 2♣"


def test_a_long_auction_keeps_the_newest_calls_that_fit(table: Table) -> None:
    reach(table, Phase.SETUP)
    table.calls("1H", "1S", "2C", "2D", "2H", "2S", "3C", "Pass")
    table.press(W, "INFO")               # Law 20B: the review of the auction
    line = table.view(W)[1]
    assert line.endswith("3♣ P") and len(line) <= 20, line
    assert table.view(N)[1] == "2♦ 2♥ 2♠ 3♣ P"   # the auction line: the last five


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["B1 Dlr N Vul None", "1NT by N", "Your lead"]),
    ("es", ["T1 Rep N Vul Nadie", "1ST por N", "Su salida"]),
])
def test_opening_lead(make_table: MakeTable, language: str, expected: list[str]) -> None:
    table = make_table(language)
    reach(table, Phase.LEAD)
    assert table.view(E)[:3] == expected
    assert table.view(S)[2] == ("Lead: E" if language == "en" else "Sale: E")


@pytest.mark.parametrize(("language", "trick", "cue", "dummy"), [
    ("en", "E:♦4 S:♦J W:♦3", "Your card", "Play from dummy"),
    ("es", "E:♦4 S:♦J O:♦3", "Su carta", "Juegue del muerto"),
])
def test_play_shows_the_trick_and_whose_card(make_table: MakeTable, language: str, trick: str,
                                             cue: str, dummy: str) -> None:
    table = make_table(language)
    mid_trick(table)
    assert table.view(N)[1:3] == [trick, cue]
    table.play("D5")                         # dummy won: declarer plays from dummy
    assert table.view(N)[2] == dummy
    assert table.view(E)[1:3] == (["NS 1 EW 0", "NS 1 EW 0"] if language == "en"
                                  else ["NS 1 EO 0", "NS 1 EO 0"])


@pytest.mark.parametrize(("language", "claim", "ask", "disputed"), [
    ("en", "N claims 7", "OK agree UNDO no", "Claim: director"),
    ("es", "N reclama 7", "OK acepta UNDO no", "Reclamación: árbitro"),
])
def test_claim_lines(make_table: MakeTable, language: str, claim: str, ask: str,
                     disputed: str) -> None:
    table = make_table(language)
    claim_pending(table)
    assert table.view(W)[1:3] == [claim, ask]
    table.press(E, "UNDO")
    assert table.view(W)[2] == disputed


@pytest.mark.parametrize(("language", "first", "passed", "confirm"), [
    ("en", "1NT N 7", "Passed out", "OK to confirm"),
    ("es", "1ST N 7", "Todos pasan", "OK para confirmar"),
])
def test_result_lines(make_table: MakeTable, language: str, first: str, passed: str,
                      confirm: str) -> None:
    table = make_table(language)
    reach(table, Phase.PLAY)
    table.claim(N, 7)
    table.press(E, "OK")
    table.press(W, "OK")
    assert table.view(S)[1:3] == [f"{first} NS +90", confirm]
    other = make_table(language)
    reach(other, Phase.SETUP)
    other.calls("Pass", "Pass", "Pass", "Pass")
    assert other.view(S)[1:3] == [f"{passed} NS 0", confirm]


@pytest.mark.parametrize(("language", "law_line", "turn_line"), [
    ("en", "Insufficient: 1♣ L27", "Not allowed"),
    ("es", "Insuficiente: 1♣ L27", "No permitido"),
])
def test_refusal_names_its_law_on_the_display(make_table: MakeTable, language: str,
                                              law_line: str, turn_line: str) -> None:
    table = make_table(language)
    refused(table)
    assert table.view(E)[3] == law_line
    notice = table.notice(W)
    assert notice is not None and notice.law == "32"
    # the engine's code, in the seat's language: whose turn it is
    assert table.view(W)[3] == {"en": "It is E's turn L32", "es": "Le toca a E L32"}[language]
    # A law the texts do not know is still named.
    line = seat_view(N, table.state, SeatEntry(), Notice("law", {}, "99"), language)[3]
    assert line == f"{turn_line} L99"


def test_director_call_stays_on_the_last_line_until_acknowledged(table: Table) -> None:
    director(table)
    assert table.view(S)[3] == "Director called"
    table.command("ack", "ruling", {"kind": "director_ack"})
    table.press(S, "1", "UNDO")
    assert table.view(S)[3] == ""


def test_review_shows_the_auction_during_the_lead(table: Table) -> None:
    reviewing(table)
    assert table.view(E)[1] == "1NT P P P"
    assert table.view(N)[1] == "1NT by N"
    table.press(E, "INFO")  # the next page: the leader asks about the opponents' calls (20F2)
    assert table.view(E)[1] == "Ask: 1NT by N"
    table.press(E, "INFO")  # no card to consult: back to the plain display
    assert table.view(E)[1] == "1NT by N"
    table.press(W, "INFO", "INFO")  # West asks once the lead lies face down (41B), not now
    assert table.view(W)[1] == "1NT by N"


def test_view_is_a_pure_function_of_the_state(table: Table) -> None:
    mid_trick(table)
    seq = table.state.seq
    first = {seat: seat_view(seat, table.state, SeatEntry()) for seat in Seat}
    again = {seat: seat_view(seat, table.state, SeatEntry()) for seat in Seat}
    assert first == again
    assert table.state.seq == seq
    # Only the seat's own entry and notice are added to what the state shows.
    assert seat_view(N, table.state, SeatEntry(keys=["2", "C"]))[:3] == first[N][:3]
    # keyed in the play, 2 C is a call (refused, Law 39), never a claim of 28
    assert seat_view(N, table.state, SeatEntry(keys=["2", "C"]))[3] == "> 2♣"


# -- faults found in review, now fixed -----------------------------------------------------

def test_spanish_west_is_o_everywhere(make_table: MakeTable) -> None:
    table = make_table("es")
    table.assign([4])                    # board 4: West deals
    table.seat_players()
    table.choose_board()
    table.calls("1NT", "Pass", "Pass", "Pass")   # West declares
    lines = table.view(N)
    assert lines[0] == "T4 Rep O Vul Todos"
    assert lines[1] == "1ST por O"


@pytest.mark.parametrize(("keys", "shown"), [(["1", "C"], "> 18"), (["1", "S"], "> 10")])
def test_typed_number_shows_its_digits(table: Table, keys: list[str], shown: str) -> None:
    table.assign()
    table.press(N, *keys)
    assert table.view(N)[3] == shown


def overlong(texts: dict[str, str]) -> dict[str, str]:
    return {key: text for key, text in texts.items() if len(text) > WIDTH}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_law_text_fits_two_lines_with_its_number_whole(language: str) -> None:
    for law in i18n.LAW_TEXTS:
        lines = wrap(i18n.law_text(law, language))
        assert len(lines) <= 2 and lines[-1].endswith(f"L{law}"), lines


@pytest.mark.parametrize(("law", "language"), [
    ("27", "en"), ("27", "es"), ("30", "en"), ("44C", "en"), ("44C", "es"), ("54", "en")])
def test_short_law_texts_keep_their_number(law: str, language: str) -> None:
    assert i18n.law_text(law, language).endswith(f" L{law}")
    assert len(i18n.law_text(law, language)) <= WIDTH


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_ruling_notice_fits_the_two_lines_of_a_notice(language: str) -> None:
    texts = {kind: i18n.text("ruling", language, kind=i18n.ruling(kind, language))
             for kind in RULINGS}
    assert {kind: text for kind, text in texts.items() if len(wrap(text)) > 2} == {}
