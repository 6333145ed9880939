"""The pages' structure and words for every director and every player (issue 34), through
Flask's test client: the room's screen and the choice in its address, the table's messages in
the console's language, a refused set-up form, what is compressed and what is not."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from server.pages import room
from server.texts.console_texts import table_message
from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tablemodel.state import Phase
from tests.clock import Clock
from tests.server.conftest import login, services
from tests.server.test_console import Director, make_session, page, send
from tests.server.test_display import Room
from tests.tabled.helpers import Table, reach

# -- the room's screen ------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "parts", "seconds", "boards"), [
    ({}, room.PARTS, 15, None),
    ({"show": ["rankings"]}, ("rankings",), 15, None),
    ({"show": ["progress", "boards"], "seconds": ["30"], "boards": ["6"]},
     ("progress", "boards"), 30, 6),
    ({"show": ["boards", "rankings"]}, ("boards", "rankings"), 15, None),  # check boxes
    ({"show": ["boards,boards"], "boards": ["all"]}, ("boards",), 15, None),
])
def test_the_room_screens_choice_in_its_address(args: dict[str, list[str]],
                                                 parts: tuple[str, ...], seconds: int,
                                                 boards: int | None, app: Flask) -> None:
    with app.test_request_context("/room"):
        choice = room.choice_from(MultiDict([(k, v) for k, vs in args.items() for v in vs]))
    assert (choice.parts, choice.seconds, choice.boards) == (parts, seconds, boards)
    with app.test_request_context("/room"):
        assert room.choice_from(MultiDict(
            [tuple(item.split("=")) for item in choice.query().split("&")])) == choice


@pytest.mark.parametrize(("query", "says"), [
    ("show=weather", "«weather»"), ("seconds=4", "no 4"), ("seconds=301", "no 301"),
    ("seconds=quince", "«quince» no es un número"), ("boards=0", "«0»"),
    ("boards=-2", "«-2» no es un número"),
])
def test_a_choice_the_room_cannot_show_is_a_clear_400(client: FlaskClient, query: str,
                                                      says: str) -> None:
    for path in ("/room", "/room/parts"):
        response = client.get(f"{path}?{query}")
        assert response.status_code == 400
        assert says in response.get_data(as_text=True)


def test_the_room_shows_released_boards_only_the_newest_first(client: FlaskClient,
                                                              app: Flask) -> None:
    played = Room(app)
    for board in (2, 1):  # board 2 finishes first, board 1 last: board 1 is the newest
        for seat in played.tables(board):
            played.play(seat.table, board, "4S", "N", 10, lead="HK")
    late = played.play_all_but_one(3, "6CX", "W", 12)
    assert late
    html = page(client, "/room")
    headings = re.findall(r"<h2>Tablero (\d+)</h2>", html)
    assert headings == ["1", "2"]
    assert "6♣" not in html and "board-3" not in html
    assert "Clasificación Norte-Sur" in html and "Cómo va la sesión" in html
    parts = page(client, "/room/parts?show=boards&boards=1")
    assert re.findall(r"<h2>Tablero (\d+)</h2>", parts) == ["1"]
    assert "Clasificación" not in parts
    assert room.pair_number("3 NS") == "3" and room.pair_number("B12 EO") == "B12"
    assert room.pair_number("7") == "7"


# -- the console ------------------------------------------------------------------------------

@pytest.mark.parametrize(("english", "spanish"), [
    ("E led out of turn; it is W's lead", "E salió fuera de turno; la salida es de O"),
    ("W played out of turn; it is N's turn", "O jugó fuera de turno; le toca a N"),
    ("S alerts N's 1NT late", "S alerta tarde el 1ST de N"),
    ("W disputes S's claim of 10", "O no acepta la reclamación de 10 bazas de S"),
    ("HT scanned in W's hand and in N's", "♥10 leída en la mano de O y en la de N"),
    ("SQ scanned in E's hand; the board has it in W's",
     "♠Q leída en la mano de E; el tablero la tiene en la de O"),
    ("C2 scanned in N's hand; the board does not have it there",
     "♣2 leída en la mano de N; el tablero no la tiene ahí"),
    ("a fourteenth card (DA) scanned in S's hand",
     "una decimocuarta carta (♦A) leída en la mano de S"),
    ("N changed 2H (call 5) after a pause; E may accept it (25B1) or not (25B2)",
     "N cambió 2♥ (voz 5) tras una pausa; E puede aceptar el cambio (25B1) o no (25B2)"),
    ("board 3: revoke, +2 trick(s) to declarer", "tablero 3: renuncio, +2 baza(s) al carteador"),
    ("W revoked on trick 4 (HT)", "O renunció en la baza 4 (♥10)"),
    ("the hands of N W differ from the deal captured first",
     "las manos de N O no son las del reparto leído primero"),
    ("W did not comply with Law 57A on trick 4 (HT) when able: a revoke",
     "O no cumplió la Ley 57A en la baza 4 (♥10) pudiendo hacerlo: renuncio"),
    ("something the table says that the console does not know",
     "something the table says that the console does not know"),
])
def test_a_tables_message_in_the_consoles_language(english: str, spanish: str) -> None:
    assert table_message(english, "es") == spanish
    assert table_message(english, "en").replace("♥10", "HT").replace("♠Q", "SQ").replace(
        "♣2", "C2").replace("♦A", "DA").replace("2♥", "2H").replace("1NT", "1NT") == english


@pytest.mark.parametrize(("reason", "spanish"), [
    ("no board on the table", "no hay tablero en la mesa"),
    ("board 5 is being played; end the round first",
     "se está jugando el tablero 5; termine antes la ronda"),
    ("penalty_card: the play has started", "Carta penalizada: el carteo ya ha empezado"),
    ("lead_restriction: not now", "Restricción de salida: not now"),
    ("not_a_kind: the play has started", "not_a_kind: the play has started"),
])
def test_a_tables_refusal_in_the_consoles_language(reason: str, spanish: str) -> None:
    """Issue 33: the table's refusals of the director's commands, on the record in Spanish
    (what the engine says in detail stays as it said it)."""
    assert table_message(reason, "es") == spanish


def test_the_calls_queue_speaks_the_consoles_language(app: Flask, director: Director) -> None:
    client, _token = director
    make_session(app)
    send(app, 3, 1, "board", 6, board=6, dealer="E", vul="EW")
    send(app, 3, 2, "director", 6, seat="W", reason="lead_out_of_turn", law="54",
         detail="W led out of turn; it is N's lead")
    calls = page(client, "/console/fragment/calls")
    assert "O salió fuera de turno; la salida es de N" in calls
    assert "<td>O</td>" in calls and "led out of turn" not in calls
    english = page(client, "/console/fragment/calls?lang=en")
    assert "W led out of turn; it is N&#39;s lead" in english and "<td>W</td>" in english


def test_a_real_tables_refusal_shows_on_the_spanish_console_in_spanish(
        app: Flask, director: Director, tmp_path: Path) -> None:
    """Issue 33: what the laws engine refused at a table reaches the console as its code
    and params, and a Spanish console says it in Spanish (a sentence the console never
    knew in English: a defender's failure to follow suit, corrected at once)."""
    journal = Journal(tmp_path / "table.db")
    try:
        table = Table(TableDaemon(journal, clock=Clock()))
        reach(table, Phase.LEAD)
        table.play("D4 D6")
        table.mark()
        table.scan("C6")  # West holds diamonds: a revoke, corrected into a penalty card
        called = [e for e in table.new_events() if e.type == "director"]
    finally:
        journal.close()
    assert [c.data["code"] for c in called] == ["must_follow_suit"]
    client, _token = director
    make_session(app)
    send(app, 3, 1, "board", 1, board=1, dealer="N", vul="None")
    send(app, 3, 2, "director", 1, **called[0].data)
    calls = page(client, "/console/fragment/calls")
    assert "O debe asistir a ♦" in calls and "follow suit" not in calls
    english = page(client, "/console/fragment/calls?lang=en")
    assert "W must follow suit in ♦" in english


@pytest.mark.parametrize(("message", "spanish"), [
    (("auction_back_out_of_range", {"length": 2, "count": 1, "ruling": "take_back"}),
     "Retroceder la subasta: no se puede volver a la voz 2 de 1"),
    (("no_board", {}), "no hay tablero en la mesa"),
    (("insufficient_bid", {"call": "1S", "last": "2H"}), "1♠ es insuficiente sobre 2♥"),
    (("revoke_transfer", {"board": 3, "tricks": "+2", "revokes": "W 4 HT; N 6 S2"}),
     "tablero 3: +2 baza(s) al carteador; renuncios: O baza 4 (♥10); N baza 6 (♠2)"),
    # a code this console does not know (a newer table's): the English it came with
    (("a_newer_code", {"seat": "W"}), "W did something new"),
])
def test_a_tables_coded_message_in_the_consoles_language(
        message: tuple[str, dict[str, Any]], spanish: str) -> None:
    assert table_message("W did something new", "es", message) == spanish


def test_each_console_page_has_its_own_title_and_heading(app: Flask,
                                                         director: Director) -> None:
    client, _token = director
    make_session(app)
    seen = {}
    for path in ("/console/", "/console/session", "/console/rulings", "/console/results",
                 "/console/corrections", "/console/scoring", "/console/register"):
        html = page(client, path)
        title = re.search(r"<title>(.*?)</title>", html, re.S)
        headings = re.findall(r"<h1[^>]*>(.*?)</h1>", html, re.S)
        assert title and len(headings) == 1, path
        assert title.group(1).startswith(headings[0].strip()), path
        seen[path] = title.group(1)
        assert 'class="skip-link" href="#main"' in html and '<main id="main"' in html
        assert 'aria-current="page"' in html or path == "/console/session"
    assert len(set(seen.values())) == len(seen), seen
    session = page(client, "/console/session")
    assert session.count('aria-label="Nombres de ') == 8  # each pair's names field


def test_a_refused_setup_marks_the_field_and_keeps_what_was_typed(
        client: FlaskClient) -> None:
    token = login(client)
    response = client.post("/console/setup", data={
        "csrf": token, "title": "Martes", "movement": "mitchell", "participants": "8",
        "boards_per_round": "2", "arrow_rounds": "siete"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    field = re.search(r'<input name="arrow_rounds"[^>]*>', html)
    assert field is not None
    assert 'aria-invalid="true"' in field.group(0) and "autofocus" in field.group(0)
    assert 'aria-describedby="setup-error"' in field.group(0)
    assert html.count('aria-invalid="true"') == 1
    assert re.search(r'id="setup-error"[^>]*>No se ha hecho: [^<]*«siete»', html)
    assert 'value="Martes"' in html


# -- compression -------------------------------------------------------------------------------

def test_public_answers_are_compressed_and_the_consoles_are_not(client: FlaskClient,
                                                               app: Flask) -> None:
    played = Room(app)
    for seat in played.tables(1):
        played.play(seat.table, 1, "4S", "N", 10, lead="HK")
    accepts = {"Accept-Encoding": "gzip, deflate"}  # Chromium's, over plain HTTP
    for path in ("/", "/board/1", "/room", "/api/v1/results", "/static/display.css",
                 "/static/display.js"):
        plain = client.get(path)
        packed = client.get(path, headers=accepts)
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert packed.headers.get("Content-Encoding") == "gzip", path
        body = gzip.decompress(packed.get_data())
        assert len(packed.get_data()) < len(body) / 2, path
        if path != "/room":  # the room's page has the hub's version in it
            assert body == plain.get_data(), path
    login(client)
    for path in ("/console/login", "/console/", "/console/session"):
        answer = client.get(path, headers={"Accept-Encoding": "gzip, br"})
        assert "Content-Encoding" not in answer.headers, path
    assert services(app).hub is not None


def test_before_any_release_the_room_shows_the_progress(client: FlaskClient,
                                                        app: Flask) -> None:
    Room(app)
    html = page(client, "/room/parts")
    assert "Cómo va la sesión" in html and "Aún no hay resultados" not in html
    alone = page(client, "/room/parts?show=boards,rankings")
    assert "Aún no hay resultados publicados." in alone
    assert "Aún no hay tableros terminados por todas las mesas." in alone
