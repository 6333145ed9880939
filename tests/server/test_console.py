"""The director's console through its pages: sign-in and CSRF on everything, set-up and
rounds, rulings and calls, results and corrections, the live stream, exports."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from server.link.live import MAX_TABLES
from server.link.rounds import create_session, start_round
from server.scoring import standings
from server.services import Services
from server.setup.movements import PHANTOM
from server.setup.session import Session, dealt, participants_of
from server.storage import schema as s
from tablemodel.wire import Command, Event, table_topic
from tests.server.conftest import login

EVENT = "test"
Director = tuple[FlaskClient, str]

PAGES = ["/console/", "/console/session", "/console/rulings", "/console/results",
         "/console/corrections", "/console/stream", "/console/fragment/tables",
         "/console/fragment/calls", "/console/fragment/results", "/console/fragment/progress",
         "/console/fragment/rankings", "/console/fragment/history",
         "/console/fragment/tables?only=1", "/console/export/pbn",
         "/console/export/usebio", "/console/export/csv"]
POSTS = ["/console/setup", "/console/deals", "/console/names", "/console/round",
         "/console/calls/1/ack", "/console/calls/1/resolve", "/console/ruling",
         "/console/release", "/console/correct"]


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


def make_session(app: Flask, **more: Any) -> Session:
    return create_session(services(app).db, event=EVENT, title="Martes", kind="mitchell",
                          participants=8, boards_per_round=2, seed=7, **more)


def send(app: Flask, table: int, seq: int, kind: str, board: int | None, /,
         **data: Any) -> None:
    outcome = services(app).ingest(table_topic(EVENT, table, "events"),
                                   Event(seq, kind, 1_000.0 + seq, board, data).to_payload())
    assert outcome.rejected is None, outcome.rejected


def commands(app: Flask) -> list[Any]:
    with services(app).db.read() as conn:
        return list(conn.execute(select(s.commands).order_by(s.commands.c.table_no)).all())


def changed_since(app: Flask, version: int) -> frozenset[str]:
    """The kinds the hub was told of after ``version`` (what the open pages refetch)."""
    return services(app).hub.wait(version, 0).kinds


def page(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


# -- signed in, with a token, or not at all --------------------------------------------------

@pytest.mark.parametrize("path", PAGES)
def test_every_page_sends_a_stranger_to_sign_in(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/console/login?next=")


@pytest.mark.parametrize("path", POSTS)
def test_every_action_sends_a_stranger_to_sign_in(app: Flask, client: FlaskClient,
                                                  path: str) -> None:
    make_session(app)
    client.get("/console/login")
    token = _token(client)
    response = client.post(path, data={"csrf": token, "round": "1", "table": "1",
                                       "kind": "end_round", "note": "x"})
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/console/login")
    assert commands(app) == []


def _token(client: FlaskClient) -> str:
    with client.session_transaction() as cookie:
        return str(cookie["csrf"])


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("token", [None, "forged"])
def test_an_action_without_the_token_is_refused_even_signed_in(
        app: Flask, director: Director, path: str, token: str | None) -> None:
    client, _ = director
    make_session(app)
    data = {"round": "1", "table": "1", "kind": "end_round", "note": "x", "title": "T"}
    if token is not None:
        data["csrf"] = token
    response = client.post(path, data=data)
    assert response.status_code == 400
    assert commands(app) == []


def test_a_wrong_password_does_not_sign_in(client: FlaskClient) -> None:
    client.get("/console/login")
    response = client.post("/console/login", data={
        "username": "director", "password": "wrong", "csrf": _token(client)})
    assert response.status_code == 200
    assert "Usuario o contraseña incorrectos." in response.get_data(as_text=True)
    assert client.get("/console/").status_code == 302


# -- set-up, names, hand records and rounds --------------------------------------------------

def test_set_up_makes_the_session_and_a_round_assigns_every_playing_table(
        app: Flask, director: Director) -> None:
    client, token = director
    assert "Preparar la sesión" in page(client, "/console/")
    response = client.post("/console/setup", data={
        "csrf": token, "title": "Martes", "movement": "mitchell", "participants": "8",
        "boards_per_round": "2", "rounds": "", "scoring": "mp", "seed": "42"})
    assert response.status_code == 302
    session = services(app).session
    assert session is not None
    assert (session.title, session.movement, session.scoring, session.participants) == (
        "Martes", "mitchell", "mp", 8)
    text = page(client, "/console/session")
    assert "Manos repartidas con la semilla 42." in text
    assert f"{len(session.plan.boards())} de {len(session.plan.boards())} tableros" in text

    version = services(app).hub.version
    response = client.post("/console/round", data={"csrf": token, "round": "1"})
    assert response.status_code == 302
    assert "commands" in changed_since(app, version)
    playing = [seat for seat in session.plan.round(1) if PHANTOM not in (seat.ns, seat.ew)]
    queued = commands(app)
    assert len(queued) == len(playing) == session.tables == 4
    for seating, command in zip(playing, queued, strict=True):
        data = json.loads(command.data)
        assert (command.type, command.table_no, command.created_by) == (
            "assign", seating.table, "director")
        assert (data["round"], data["ns"], data["ew"], data["boards"]) == (
            1, seating.ns, seating.ew, list(seating.boards))
        assert data["deals"] == {str(b): dealt(42, b) for b in seating.boards}
        Command.from_payload(Command(command.id, "assign", data).to_payload())
    boards = [b for command in queued for b in json.loads(command.data)["boards"]]
    assert sorted(boards) == list(range(1, 9))  # each board once in round 1
    assert services(app).session.current_round == 1  # type: ignore[union-attr]
    assert "Ronda 1 enviada a 4 mesas." in page(client, "/console/")


@pytest.mark.parametrize(("field", "value", "message"), [
    ("participants", "ocho", "«ocho» no es un número"),
    ("movement", "pivot", "unknown movement"),
    ("scoring", "bam", "unknown scoring"),
    ("scoring", "teams", "scored with"),
    ("boards_per_round", "0", "board"),
    ("title", " ", "La sesión necesita un título."),
])
def test_a_bad_set_up_is_refused_and_makes_nothing(app: Flask, director: Director,
                                                   field: str, value: str, message: str) -> None:
    client, token = director
    form = {"csrf": token, "title": "Martes", "movement": "mitchell", "participants": "8",
            "boards_per_round": "2", "scoring": "mp", field: value}
    response = client.post("/console/setup", data=form)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert services(app).session is None


def test_a_blank_scoring_is_the_movements_usual(app: Flask, director: Director) -> None:
    client, token = director
    response = client.post("/console/setup", data={
        "csrf": token, "title": "Copa", "movement": "teams", "participants": "2",
        "boards_per_round": "8", "rounds": "2", "scoring": "", "seed": ""})
    assert response.status_code == 302
    session = services(app).session
    assert session is not None and (session.scoring, session.tables) == ("teams", 2)
    assert "Manos repartidas con la semilla" in page(client, "/console/session")


def pbn_file(boards: range) -> bytes:
    games = [f'[Board "{b}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{dealt(3, b)}"]\n'
             for b in boards]
    return "\n".join(games).encode()


def test_hand_records_come_from_a_pbn_file(app: Flask, director: Director) -> None:
    client, token = director
    response = client.post("/console/setup", data={
        "csrf": token, "title": "Jueves", "movement": "mitchell", "participants": "8",
        "boards_per_round": "2", "scoring": "mp",
        "pbn": (io.BytesIO(pbn_file(range(1, 9))), "jueves.pbn")},
        content_type="multipart/form-data")
    assert response.status_code == 302
    assert "8 manos importadas." in page(client, "/console/session")
    response = client.post("/console/deals", data={
        "csrf": token, "pbn": (io.BytesIO(b"not a pbn at all"), "x.pbn")},
        content_type="multipart/form-data", follow_redirects=True)
    assert "No se ha hecho" in response.get_data(as_text=True)


def test_names_are_edited(app: Flask, director: Director) -> None:
    client, token = director
    session = make_session(app)
    response = client.post("/console/names", data={"csrf": token, "name-1": "Ana - Luis",
                                                   "name-5": " Eva - Juan "})
    assert response.status_code == 302
    names = {n: p.names for n, p in participants_of(services(app).db, session).items()}
    assert (names[1], names[5], names[2]) == ("Ana - Luis", "Eva - Juan", "")
    assert 'value="Ana - Luis"' in page(client, "/console/session")


# -- rulings and calls -----------------------------------------------------------------------

RULINGS = [
    ("take_back", {"calls": "4"}, {"calls": 4}),
    ("require_pass", {"seat": "E", "law": "31A2", "scope": "auction"},
     {"seat": "E", "law": "31A2", "scope": "auction"}),
    ("lead_restriction", {"seat": "S", "suit": "D", "required": "forbidden", "law": "26B"},
     {"seat": "S", "suit": "D", "required": False, "law": "26B"}),
    ("undo_cards", {"cards": "1"}, {"cards": 1}),
    ("claim", {"tricks": ""}, {"tricks": None}),
    ("score", {"adjusted": "A60/40", "score_ns": ""}, {"adjusted": "A60/40"}),
    ("score", {"adjusted": "", "score_ns": "-200"}, {"score_ns": -200, "adjusted": "assigned"}),
    ("unauthorised_information", {"side": "EW", "law": "16B1"}, {"side": "EW", "law": "16B1"}),
    ("end_round", {}, {}),
]


@pytest.mark.parametrize(("kind", "fields", "expected"), RULINGS)
def test_each_ruling_is_queued_for_its_table(app: Flask, director: Director, kind: str,
                                             fields: dict[str, str],
                                             expected: dict[str, Any]) -> None:
    client, token = director
    make_session(app)
    version = services(app).hub.version
    response = client.post("/console/ruling", data={
        "csrf": token, "table": "2", "board": "3", "kind": kind, "note": "Ley aplicada",
        **fields}, follow_redirects=True)
    assert response.status_code == 200
    assert "commands" in changed_since(app, version)
    assert "enviada a la mesa 2" in response.get_data(as_text=True)
    [command] = commands(app)
    assert (command.type, command.table_no, command.board) == ("ruling", 2, 3)
    assert (command.created_by, command.note) == ("director", "Ley aplicada")
    data = json.loads(command.data)
    assert data == {"kind": kind, **expected}
    assert dict(Command.from_payload(Command(command.id, "ruling", data).to_payload()).data) == data
    assert "Ley aplicada" in page(client, "/console/corrections")


@pytest.mark.parametrize(("fields", "message"), [
    ({"kind": "require_pass", "seat": "Q", "law": "31"}, "not a seat"),
    ({"kind": "require_pass", "seat": "N", "law": "31", "note": ""}, "say why"),
    ({"kind": "take_back", "calls": "dos"}, "not a number"),
    ({"kind": "director_ack"}, "decisión desconocida"),
    ({"kind": "end_round", "table": "9"}, "table 9"),
    ({"kind": "end_round", "table": "uno"}, "«uno» no es un número"),
])
def test_a_bad_ruling_is_refused_with_a_message_and_nothing_queued(
        app: Flask, director: Director, fields: dict[str, str], message: str) -> None:
    client, token = director
    make_session(app)
    response = client.post("/console/ruling", data={
        "csrf": token, "table": "1", "note": "why", **fields}, follow_redirects=True)
    assert "No se ha hecho" in response.get_data(as_text=True)
    assert message in response.get_data(as_text=True)
    assert commands(app) == []


def test_a_call_is_acknowledged_then_resolved(app: Flask, director: Director) -> None:
    client, token = director
    make_session(app)
    send(app, 3, 1, "board", 6, board=6, dealer="E", vul="EW")
    send(app, 3, 2, "director", 6, seat="N", reason="player")
    calls = page(client, "/console/fragment/calls")
    assert "Llamada de un jugador" in calls
    call_id = int(calls.split('data-call="')[1].split('"')[0])
    version = services(app).hub.version
    assert client.post(f"/console/calls/{call_id}/ack", data={"csrf": token}).status_code == 302
    assert {"calls", "commands"} <= changed_since(app, version)
    [command] = commands(app)
    assert (command.table_no, command.created_by, json.loads(command.data)) == (
        3, "director", {"kind": "director_ack", "call": 2})
    assert "Atendida por director" in page(client, "/console/fragment/calls")
    version = services(app).hub.version
    client.post(f"/console/calls/{call_id}/resolve", data={"csrf": token})
    assert "calls" in changed_since(app, version)
    assert services(app).hub.wait(version, 0).tables == {3}  # its open calls in the grid
    assert "No hay llamadas pendientes." in page(client, "/console/fragment/calls")


# -- results, missing boards, late play, corrections -----------------------------------------

def test_results_and_missing_boards_follow_what_the_tables_send(any_app: Flask) -> None:
    client = any_app.test_client()
    client.get("/console/login")
    client.post("/console/login", data={"username": "director", "password": "secret-director",
                                        "csrf": _token(client)})
    session = make_session(any_app)
    start_round(services(any_app).db, session, 1)
    seating = next(iter(session.plan.round(1)))
    first, second = seating.boards[:2]
    before = page(client, "/console/fragment/progress")
    assert f'data-missing="r1-t{seating.table}-b{first}"' in before
    send(any_app, seating.table, 1, "result", first, contract="4S", declarer="N", tricks=10,
         score_ns=999)
    text = page(client, "/console/results")
    cell = text.split(f'data-result="t{seating.table}-b{first}"')[1].split("</td>")[0]
    expected = standings.all_results(services(any_app).db, session)[0].score_ns
    assert "4S N 10" in cell and str(expected) in cell and "la mesa dijo 999" in cell
    after = page(client, "/console/fragment/progress")
    assert f'data-missing="r1-t{seating.table}-b{first}"' not in after
    assert f'data-missing="r1-t{seating.table}-b{second}"' in after
    assert f'data-late="{first}"' not in after  # hidden, but other tables play it later


def test_a_board_is_released_for_late_play(app: Flask, director: Director) -> None:
    client, token = director
    session = make_session(app)
    start_round(services(app).db, session, 1)
    assert 'data-late="1"' not in page(client, "/console/fragment/progress")  # still in play
    start_round(services(app).db, session, session.rounds)
    progress = page(client, "/console/fragment/progress")
    assert 'data-late="1"' in progress and "falta: mesa 1, 2, 3, 4" in progress
    version = services(app).hub.version
    response = client.post("/console/release", data={"csrf": token, "board": "1"},
                           follow_redirects=True)
    assert "results" in changed_since(app, version)
    assert "Tablero 1 publicado." in response.get_data(as_text=True)
    assert 1 in standings.released_boards(services(app).db, session)
    assert 'data-late="1"' not in page(client, "/console/fragment/progress")
    client.post("/console/release", data={"csrf": token, "board": "77"})
    assert 77 not in standings.released_boards(services(app).db, session)


def test_a_correction_through_the_console_is_scored_and_kept(app: Flask,
                                                            director: Director) -> None:
    client, token = director
    session = make_session(app)
    table = session.plan.schedule(2)[0].table
    send(app, table, 1, "result", 2, contract="4S", declarer="N", tricks=10, score_ns=620)
    version = services(app).hub.version
    response = client.post("/console/correct", data={
        "csrf": token, "table": str(table), "board": "2", "contract": "4S", "declarer": "N",
        "tricks": "9", "adjusted": "", "score_ns": "5000", "note": "revoke, Law 64"},
        follow_redirects=True)
    assert f"Mesa {table}, tablero 2: -100." in response.get_data(as_text=True)
    assert "results" in changed_since(app, version)
    [row] = standings.all_results(services(app).db, session)
    assert (row.score_ns, row.tricks, row.corrected_by) == (-100, 9, "director")
    record = page(client, "/console/corrections")
    assert "revoke, Law 64" in record and "Resultado corregido" in record
    response = client.post("/console/correct", data={
        "csrf": token, "table": str(table), "board": "2", "contract": "9S", "note": "x"},
        follow_redirects=True)
    assert "No se ha hecho" in response.get_data(as_text=True)


def test_rankings_show_on_the_results_page(app: Flask, director: Director) -> None:
    client, _ = director
    session = make_session(app)
    table = session.plan.schedule(1)[0].table
    send(app, table, 1, "result", 1, contract="3NT", declarer="S", tricks=9, score_ns=400)
    text = page(client, "/console/fragment/rankings")
    assert "data-participant=" in text and "Aún no hay clasificación." not in text


def test_the_console_speaks_english_when_asked(app: Flask, director: Director) -> None:
    client, _ = director
    assert "Set up the session" in page(client, "/console/?lang=en")
    make_session(app)
    assert "Director calls" in page(client, "/console/")  # the choice is kept in a cookie


def test_an_unknown_fragment_is_not_found(director: Director) -> None:
    client, _ = director
    assert client.get("/console/fragment/secrets").status_code == 404


# -- the tables grid, whole or by rows -------------------------------------------------------

ROW = re.compile(r'<tr data-table="(\d+)".*?</tr>', re.S)


def rows(html: str) -> dict[int, str]:
    """Each table's row as the page gets it; the ticking age left out (it moves each second)."""
    return {int(m.group(1)): re.sub(r'(<span data-since="[^"]*">)[^<]*', r"\1", m.group(0))
            for m in ROW.finditer(html)}


def test_the_tables_fragment_gives_the_rows_asked_for_and_no_other(any_app: Flask) -> None:
    client = any_app.test_client()
    login(client)
    make_session(any_app)  # four tables
    send(any_app, 3, 1, "board", 6, board=6, dealer="E", vul="EW")
    send(any_app, 3, 2, "director", 6, seat="N", reason="player")
    send(any_app, 2, 1, "board", 1, board=1, dealer="N", vul="None")
    send(any_app, 9, 1, "board", 2, board=2, dealer="E", vul="NS")  # not in the session
    whole = rows(page(client, "/console/fragment/tables"))
    assert sorted(whole) == [1, 2, 3, 4, 9]

    some = page(client, "/console/fragment/tables?only=3,1,9")
    assert "<table" not in some and "<thead" not in some  # rows alone, to put in place
    assert rows(some) == {n: whole[n] for n in (1, 3, 9)}  # the same markup as in the grid
    assert 'class="offline"' in whole[1] and "Desconectada" in whole[1]  # never spoke
    assert "<td>2</td>" in whole[3] and "calling" in whole[3]  # two events, a call open
    # A table the session does not have and that never spoke: no row at all.
    assert rows(page(client, "/console/fragment/tables?only=4,77")) == {4: whole[4]}


@pytest.mark.parametrize("only", ["", "x", "3,x", "0", "-1", "3,,4", " 3", "3.0", "1234567",
                                  "٣", ",".join(str(n) for n in range(1, MAX_TABLES + 2))])
def test_rows_asked_for_badly_are_refused_with_the_reason(app: Flask, director: Director,
                                                          only: str) -> None:
    client, _ = director
    make_session(app)
    response = client.get("/console/fragment/tables", query_string={"only": only})
    assert response.status_code == 400
    assert response.mimetype == "text/plain"
    assert "only=" in response.get_data(as_text=True)


def test_only_the_tables_fragment_has_rows_to_pick(director: Director) -> None:
    client, _ = director
    response = client.get("/console/fragment/calls?only=1")
    assert response.status_code == 400
    assert "tables fragment" in response.get_data(as_text=True)


# -- the live stream -------------------------------------------------------------------------

def test_the_stream_says_hello_then_what_changed(app: Flask, director: Director) -> None:
    client, _ = director
    response = client.get("/console/stream", buffered=False)
    try:
        assert response.status_code == 200
        assert response.mimetype == "text/event-stream"
        assert response.headers["Cache-Control"] == "no-cache"
        chunks = iter(response.response)
        first = next(chunks)
        assert (first.decode() if isinstance(first, bytes) else first).startswith("retry:")
        services(app).hub.notify({"analysis"})  # not the console's: left out
        services(app).hub.notify({"results", "calls"})
        second = next(chunks)
        text = second.decode() if isinstance(second, bytes) else second
        assert text.startswith("event: change\n")
        assert json.loads(text.split("data: ")[1])["kinds"] == ["calls", "results"]
    finally:
        response.close()


# -- exports ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "mimetype", "extension"), [
    ("pbn", "application/x-pbn", "pbn"), ("usebio", "application/xml", "xml"),
    ("csv", "text/csv", "csv")])
def test_exports_are_attachments(app: Flask, director: Director, kind: str, mimetype: str,
                                 extension: str) -> None:
    pytest.importorskip("server.outputs.exports",
                        reason="server/outputs/exports.py is another engineer's")
    client, _ = director
    session = make_session(app)
    table = session.plan.schedule(1)[0].table
    send(app, table, 1, "result", 1, contract="3NT", declarer="S", tricks=9, score_ns=400)
    response = client.get(f"/console/export/{kind}")
    assert response.status_code == 200
    assert response.mimetype == mimetype
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="{EVENT}.{extension}"')
    assert response.get_data(as_text=True).strip()


def test_exports_need_a_session(director: Director) -> None:
    client, _ = director
    response = client.get("/console/export/csv")
    assert response.status_code == 302 and response.headers["Location"] == "/console/"
    assert client.get("/console/export/doc").status_code == 404


def test_the_rulings_form_and_record_come_from_the_ruling_kinds(app: Flask,
                                                                director: Director) -> None:
    """Each kind of tablemodel.rulings is offered with its fields; the record words them."""
    from tablemodel.rulings import KINDS

    client, token = director
    make_session(app)
    form = page(client, "/console/rulings")
    for name, kind in KINDS.items():
        assert (f'<option value="{name}">' in form) is kind.console, name
        if kind.console:
            assert kind.words["es"] in form
    assert '<fieldset data-kinds="unauthorised_information">' in form
    # in Spanish the sides and seats are written NS / EO, N E S O; the form sends NS / EW
    assert ('<select name="side"><option value="NS">NS</option>'
            '<option value="EW">EO</option></select>') in form
    assert '<option value="W">O</option>' in form
    client.post("/console/ruling", data={
        "csrf": token, "table": "1", "board": "2", "kind": "lead_restriction", "seat": "S",
        "suit": "D", "required": "forbidden", "law": "26B", "note": "palo prohibido"})
    record = page(client, "/console/corrections")
    assert "Restricción de salida" in record
    assert "Palo: Diamantes" in record and "Restricción de salida: Prohibida" in record


def test_the_record_shows_what_the_players_chose_at_the_table(app: Flask,
                                                             director: Director) -> None:
    """Law 16B2: a reservation of rights made on a keypad is on the director's record."""
    client, _ = director
    make_session(app)
    services: Services = app.extensions["bidbox"]
    outcome = services.ingest(table_topic(EVENT, 2, "events"), Event(
        1, "option", 1_000.0, 3, {"kind": "unauthorised_information", "side": "NS",
                                  "law": "16B2", "by": "W"}).to_payload())
    assert outcome.rejected is None
    record = page(client, "/console/corrections")
    assert "Información no autorizada" in record and "Elegido en la mesa" in record


def test_set_up_offers_every_movement_kind_and_the_first_board(
        app: Flask, director: Director) -> None:
    """The set-up lists the movement kinds from their registry, in the page's words, and a
    session may start at any board (issue 31): a share-and-relay Mitchell from board 25."""
    client, token = director
    text = page(client, "/console/")
    assert "Mitchell con mesas compartidas y atril de relevo (mesas pares)" in text
    assert "Mitchell con mesa apéndice (media mesa)" in text and "Primer tablero" in text
    response = client.post("/console/setup", data={
        "csrf": token, "title": "Jueves", "movement": "mitchell_relay", "participants": "16",
        "boards_per_round": "3", "first_board": "25", "seed": "7"})
    assert response.status_code == 302
    session = services(app).session
    assert session is not None
    assert (session.movement, session.first_board, session.tables) == ("mitchell_relay", 25, 8)
    assert session.plan.boards() == list(range(25, 49))
