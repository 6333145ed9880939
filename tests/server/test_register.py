"""The player register (issue 17): the CSV files clubs keep, refused whole with the bad lines
named; a session's own copy taken when it is created; a visitor sent to a running session's
tables; the names in the assignments, the console and every export."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from server.link.rounds import create_session, start_round
from server.outputs import exports
from server.outputs.usebio import usebio
from server.services import Services
from server.setup import player_register as register
from server.setup.player_register import Member, RegisterError
from server.setup.session import Session, participants_of
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.wire import Command, Event, table_topic
from tests.server import usebio_read
from tests.server.conftest import EVENT

Director = tuple[FlaskClient, str]

SPANISH = [(101, "Íñigo Muñoz Ibáñez", "28/1234"), (102, "Begoña Ñúñez", "28/0042"),
           (103, "José María García-Peña", None), (104, "Ángeles Sáenz de Santa María", "08/77")]


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


def _csv(rows: list[tuple[int, str, str | None]], delimiter: str = ",",
         header: list[str] | None = None) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    if header:
        writer.writerow(header)
    for number, name, licence in rows:
        writer.writerow([number, name, licence or ""])
    return out.getvalue()


# -- reading the files clubs keep ------------------------------------------------------------

@pytest.mark.parametrize(("data", "encoding", "delimiter", "header"), [
    (_csv(SPANISH).encode("utf-8"), "utf-8", ",", False),
    (b"\xef\xbb\xbf" + _csv(SPANISH, ";", ["Número", "Nombre", "Licencia"]).encode(),
     "utf-8-sig", ";", True),
    (_csv(SPANISH, ";", ["Nº socio", "Apellidos y nombre", "Licencia federativa"]).encode(
        "cp1252"), "cp1252", ";", True),
    (_csv(SPANISH, ",", ["number", "name", "licence"]).encode("cp1252"), "cp1252", ",", True),
])
def test_the_files_clubs_keep_are_read_with_their_accents(
        data: bytes, encoding: str, delimiter: str, header: bool) -> None:
    members, read = register.parse_csv(data)
    assert [(m.number, m.name, m.licence) for m in members] == SPANISH
    assert (read.encoding, read.delimiter, read.header) == (encoding, delimiter, header)


def test_a_header_names_the_columns_in_any_order_and_excel_blanks_are_ignored() -> None:
    text = "Licencia;NOMBRE;Número;;\r\n28/1;Ana Ruiz;7;;\r\n;;;;\r\n;Luis Gil;8;;\r\n"
    members, read = register.parse_csv(text.encode("cp1252"))
    assert members == [Member(7, "Ana Ruiz", "28/1"), Member(8, "Luis Gil", None)]
    assert read.header


def test_surnames_in_a_column_of_their_own_follow_the_given_name() -> None:
    text = "Socio;Apellidos;Nombre;Licencia\r\n7;García Peña;María José;28/7\r\n8;Núñez;;\r\n"
    members, _ = register.parse_csv(text.encode("cp1252"))
    assert members == [Member(7, "María José García Peña", "28/7"), Member(8, "Núñez", None)]


def test_headings_the_page_does_not_know_are_named_as_such() -> None:
    with pytest.raises(RegisterError) as raised:
        register.parse_csv("Código;Jugador;Federación\r\n7;Ana;\r\n".encode("cp1252"))
    assert str(raised.value).startswith("nothing was imported: line 1: neither a header row "
                                        "this page knows nor a player")
    assert "los títulos son Número, Nombre" in raised.value.text("es")


def test_a_quoted_name_may_hold_the_delimiter_and_decomposed_accents_are_composed() -> None:
    text = '5,"Pérez, José",\n6,"Jose\u0301 Nu\u0301n\u0303ez",X1\n'
    members, _ = register.parse_csv(text.encode())
    assert [m.name for m in members] == ["Pérez, José", "José Núñez"]
    assert len(members[1].name) == len("José Núñez")


@pytest.mark.parametrize(("text", "message"), [
    ("1,Ana\nx,Luis\n", "line 2: number 'x' is not a player number"),
    ("1,Ana\n0,Luis\n", "line 2: number '0' is not a player number"),
    ("1,Ana\n2,\n", "line 2: the name is empty"),
    ("1,Ana\n1,Luis\n", "line 2: number 1 is already on line 1"),
    ("1,Ana\n\n\n2,Luis,L,extra\n", "line 4: 4 fields; at most 3 are expected"),
    ("1,Ana\n2," + "x" * 81 + "\n", "line 2: the name has 81 characters; at most 80"),
    ("1,Ana,123456789012345678901\n", "line 1: the licence"),
    (",Ana\n", "line 1: no player number"),
    ("Número;Nombre\n", "the file lists no players"),
])
def test_a_bad_row_is_named_by_its_line(text: str, message: str) -> None:
    with pytest.raises(RegisterError, match=message):
        register.parse_csv(text.encode())


def test_every_bad_row_is_named_at_once() -> None:
    with pytest.raises(RegisterError) as raised:
        register.parse_csv(b"Numero,Nombre\n1,Ana\nuno,Luis\n3,Eva\n4,\n")
    assert str(raised.value) == ("nothing was imported: line 3: number 'uno' is not a player "
                                 "number (1 to 9 digits, not 0); line 5: the name is empty")
    assert raised.value.text("es") == (
        "no se ha importado nada: línea 3: el número 'uno' no es un número de jugador (de 1 "
        "a 9 cifras, no 0); línea 5: el nombre está vacío")
    with pytest.raises(RegisterError) as many:
        register.parse_csv(b"".join(b"x,Ana\n" for _ in range(25)))
    assert str(many.value).endswith("line 20: number 'x' is not a player number (1 to 9 "
                                    "digits, not 0); and 5 more bad rows")


def test_bytes_that_are_no_text_are_refused() -> None:
    with pytest.raises(RegisterError, match="neither UTF-8 nor Windows-1252"):
        register.parse_csv(b"1,Ana \x81\n")
    with pytest.raises(RegisterError, match="starts as UTF-8"):
        register.parse_csv(b"\xef\xbb\xbf1,Ana \xe9\n")


# -- the register and the sessions' copies (SQLite and PostgreSQL) ---------------------------


def _session(db: Database, event: str = EVENT) -> Session:
    return create_session(db, event=event, title="Martes", kind="mitchell", participants=8,
                          boards_per_round=2, seed=7)


def test_a_bad_file_imports_nothing_and_a_good_one_adds_and_updates(db: Database) -> None:
    register.import_csv(db, _csv(SPANISH[:2]).encode())
    with pytest.raises(RegisterError, match="line 3"):
        register.import_csv(db, b"103,Nuevo\n101,Cambiado\nmal,Fila\n")
    assert [(m.number, m.name) for m in register.members(db)] == [
        (101, "Íñigo Muñoz Ibáñez"), (102, "Begoña Ñúñez")]
    done = register.import_csv(db, "101,Íñigo Muñoz\n105,Eva Díaz,L5\n".encode("cp1252"))
    assert (done.added, done.updated) == (1, 1)
    assert [(m.number, m.name, m.licence) for m in register.members(db)] == [
        (101, "Íñigo Muñoz", None), (102, "Begoña Ñúñez", "28/0042"), (105, "Eva Díaz", "L5")]


def test_a_session_keeps_the_register_it_was_created_with(db: Database) -> None:
    register.import_csv(db, _csv(SPANISH).encode())
    first = _session(db)
    register.edit(db, 101, "Íñigo Muñoz (cambiado)", "99")
    register.remove(db, 104)
    register.import_csv(db, b"200,Nuevo Socio\n")
    kept = register.session_members(db, first)
    assert [(m.number, m.name, m.licence) for m in kept.values()] == SPANISH
    start_round(db, first, 1)
    with db.read() as conn:
        data = json.loads(conn.execute(select(s.commands.c.data)).scalars().first())
    assert data["roster"] == {str(n): name for n, name, _ in SPANISH}
    later = _session(db, "otro")
    assert sorted(register.session_members(db, later)) == [101, 102, 103, 200]
    assert register.session_members(db, later)[101].name == "Íñigo Muñoz (cambiado)"


def test_a_session_with_no_register_sends_no_roster(db: Database) -> None:
    session = _session(db)
    start_round(db, session, 1)
    with db.read() as conn:
        assert all("roster" not in json.loads(text)
                   for text in conn.execute(select(s.commands.c.data)).scalars())


def test_a_visitor_goes_into_the_register_and_the_running_session(db: Database) -> None:
    register.import_csv(db, _csv(SPANISH).encode())
    session = _session(db)
    sent = register.add_visitor(db, 5001, "  Visitante   Ñandú ", "ARG-7", session=session,
                                by="director")
    assert len(sent) == session.tables
    assert register.member(db, 5001) == Member(5001, "Visitante Ñandú", "ARG-7", visitor=True)
    assert register.session_members(db, session)[5001].visitor
    with db.read() as conn:
        rows = conn.execute(select(s.commands).where(s.commands.c.type == "roster")).all()
    assert sorted(row.table_no for row in rows) == list(range(1, session.tables + 1))
    for row in rows:  # each as the table will read it
        command = Command.from_payload(Command(row.id, row.type, json.loads(row.data))
                                       .to_payload())
        assert command.data == {"players": {"5001": "Visitante Ñandú"}}
    with pytest.raises(RegisterError, match=r"5001 is already in the register \(Visitante"):
        register.add_visitor(db, 5001, "Otro", session=session)
    with pytest.raises(RegisterError, match="the name is empty"):
        register.add_visitor(db, 5002, "  ", session=session)
    assert register.member(db, 5002) is None
    outside = register.add_visitor(db, 5003, "Sin Sesión")
    assert outside == [] and 5003 not in register.session_members(db, session)


def test_the_roster_command_id_is_fixed_so_resending_changes_nothing(db: Database) -> None:
    session = _session(db)
    with db.write() as conn:
        first = register._queue_roster(conn, session, {7: "Ana"}, None, 1.0)
        again = register._queue_roster(conn, session, {7: "Ana"}, None, 2.0)
        other = register._queue_roster(conn, session, {7: "Ana María"}, None, 3.0)
        count = len(conn.execute(select(s.commands.c.id)).all())
    assert first == again and set(first).isdisjoint(other)
    assert count == 2 * session.tables


# -- a played round: the roster answered, the pairs named, the exports -----------------------

def _send(app: Flask, table: int, seq: int, kind: str, board: int | None, /,
          **data: Any) -> None:
    outcome = services(app).ingest(table_topic(EVENT, table, "events"),
                                   Event(seq, kind, 1_000.0 + seq, board, data).to_payload())
    assert outcome.rejected is None, outcome.rejected


def _play_table_one(app: Flask, seated: dict[str, int]) -> Session:
    """Round 1 of an 8-pair Mitchell, one board at each table; at table 1 the players typed
    ``seated``, at the others nobody typed a number."""
    db = services(app).db
    register.import_csv(db, _csv(SPANISH).encode())
    session = create_session(db, event=EVENT, title="Martes", kind="mitchell",
                             participants=8, boards_per_round=2, seed=7)
    start_round(db, session, 1)
    with db.read() as conn:
        rows = conn.execute(select(s.commands).order_by(s.commands.c.table_no)).all()
    for row in rows:
        data = json.loads(row.data)
        _send(app, row.table_no, 1, "assign", None, cmd=row.id, **data)
        seq = 1
        for seat, number in (seated.items() if row.table_no == 1 else ()):
            seq += 1
            _send(app, 1, seq, "player", None, seat=seat, number=number)
        board = data["boards"][0]
        _send(app, row.table_no, seq + 1, "board", board, board=board, dealer="N",
              vul="None")
        _send(app, row.table_no, seq + 2, "result", board, contract="3NT", declarer="S",
              tricks=9, score_ns=400)
    found = services(app).session
    assert found is not None
    return found


SEATED = {"N": 101, "E": 102, "S": 103, "W": 104}


def test_the_pairs_are_named_and_every_export_shows_the_names(app: Flask) -> None:
    session = _play_table_one(app, SEATED)
    db = services(app).db
    seating = session.plan.round(1)[0]
    names = {n: p.names for n, p in participants_of(db, session).items()}
    assert names[seating.ns] == "Íñigo Muñoz Ibáñez & José María García-Peña"
    assert names[seating.ew] == "Begoña Ñúñez & Ángeles Sáenz de Santa María"
    pbn = exports.pbn(db, session)
    assert '[North "Íñigo Muñoz Ibáñez"]' in pbn and '[West "Ángeles Sáenz de Santa María"]' in pbn
    rows = {r["table"]: r for r in csv.DictReader(io.StringIO(exports.csv_text(db, session)))}
    assert (rows["2"]["north"], rows["2"]["west"]) == ("", "")  # nobody typed a number there
    row = rows["1"]
    assert (row["north"], row["east"], row["south"], row["west"]) == (
        "Íñigo Muñoz Ibáñez", "Begoña Ñúñez", "José María García-Peña",
        "Ángeles Sáenz de Santa María")
    text = usebio(db, session)
    read = usebio_read.loads(text)  # as a scoring program reads it: every element in place
    assert read.pairs[seating.ns].players == [
        "Íñigo Muñoz Ibáñez", "José María García-Peña"]
    root = ET.fromstring(text)
    pairs = {pair.findtext("PAIR_NUMBER"): pair for pair in root.iter("PAIR")}
    players = [(p.findtext("PLAYER_NAME"), p.findtext("NATIONAL_ID_NUMBER"))
               for p in pairs[str(seating.ns)].iter("PLAYER")]
    assert players == [("Íñigo Muñoz Ibáñez", "28/1234"), ("José María García-Peña", None)]
    ranked = {r["participant"]: r for r in csv.DictReader(io.StringIO(
        exports.rankings_csv(db, session)))}
    assert ranked[str(seating.ew)]["names"] == names[seating.ew]


def test_a_name_the_director_gave_a_pair_stands(app: Flask) -> None:
    db = services(app).db
    register.import_csv(db, _csv(SPANISH).encode())
    session = create_session(db, event=EVENT, title="Martes", kind="mitchell",
                             participants=8, boards_per_round=2, seed=7,
                             names={1: "Los de siempre"})
    assert session.plan.round(1)[0].ns == 1
    _play = session  # the pairs at table 1 in round 1 are 1 and 5
    start_round(db, _play, 1)
    with db.read() as conn:
        row = conn.execute(select(s.commands).where(s.commands.c.table_no == 1)).one()
    _send(app, 1, 1, "assign", None, cmd=row.id, **json.loads(row.data))
    for seq, (seat, number) in enumerate(SEATED.items(), start=2):
        _send(app, 1, seq, "player", None, seat=seat, number=number)
    names = {n: p.names for n, p in participants_of(db, session).items()}
    assert names[1] == "Los de siempre"


def test_the_table_answers_the_roster_command(app: Flask) -> None:
    db = services(app).db
    register.import_csv(db, _csv(SPANISH).encode())
    session = create_session(db, event=EVENT, title="Martes", kind="mitchell",
                             participants=8, boards_per_round=2, seed=7)
    [first, *_] = register.add_visitor(db, 5001, "Visitante", session=session)
    _send(app, 1, 1, "roster", None, cmd=first, players={"5001": "Visitante"})
    with db.read() as conn:
        answer = conn.execute(select(s.commands.c.answer, s.commands.c.answer_seq).where(
            s.commands.c.id == first)).one()
    assert tuple(answer) == ("roster", 1)


# -- the console's Register page ---------------------------------------------------------------

def _page(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def _upload(client: FlaskClient, token: str, data: bytes, name: str = "socios.csv") -> str:
    response = client.post("/console/register/import", data={
        "csrf": token, "csv": (io.BytesIO(data), name)},
        content_type="multipart/form-data", follow_redirects=True)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_the_register_page_imports_lists_adds_and_edits(app: Flask, director: Director) -> None:
    client, token = director
    empty = _page(client, "/console/register")
    assert "Registro de jugadores" in empty and "El registro está vacío" in empty
    assert 'href="/console/register"' in _page(client, "/console/")  # in the menu
    text = _upload(client, token, _csv(SPANISH, ";", ["Número", "Nombre", "Licencia"])
                   .encode("cp1252"))
    assert "Registro importado: 4 nuevos, 0 actualizados." in text
    assert "Ángeles Sáenz de Santa María" in text and "28/1234" in text
    refused = _upload(client, token, b"7,Ana\nsiete,Luis\n")
    assert "No se ha hecho" in refused
    assert "línea 2: el número &#39;siete&#39; no es un número de jugador" in refused
    assert register.member(services(app).db, 7) is None
    added = client.post("/console/register/visitor", data={
        "csrf": token, "number": "5001", "name": "Visitante Ñandú", "licence": ""},
        follow_redirects=True).get_data(as_text=True)
    assert "Visitante 5001 (Visitante Ñandú) añadido." in added
    bad = client.post("/console/register/visitor", data={
        "csrf": token, "number": "cinco", "name": "X"}, follow_redirects=True)
    assert "«cinco» no es un número" in bad.get_data(as_text=True)
    client.post("/console/register/102", data={"csrf": token, "name": "Begoña Núñez",
                                               "licence": "28/0043"})
    assert register.member(services(app).db, 102) == Member(102, "Begoña Núñez", "28/0043")
    english = _page(client, "/console/register?lang=en")
    assert "Player register" in english and "Add a visitor" in english


def test_a_visitor_added_during_a_session_is_sent_to_its_tables(app: Flask,
                                                                director: Director) -> None:
    client, token = director
    register.import_csv(services(app).db, _csv(SPANISH).encode())
    session = create_session(services(app).db, event=EVENT, title="Martes", kind="mitchell",
                             participants=8, boards_per_round=2, seed=7)
    version = services(app).hub.version
    added = client.post("/console/register/visitor", data={
        "csrf": token, "number": "5001", "name": "Visitante"}, follow_redirects=True)
    assert (f"Visitante 5001 (Visitante) añadido y enviado a {session.tables} mesas."
            in added.get_data(as_text=True))
    assert "commands" in services(app).hub.wait(version, 0).kinds
    page = _page(client, "/console/register")
    assert "La sesión en curso tiene 5 jugadores" in page


def test_the_console_shows_who_sits_where_by_name(app: Flask, director: Director) -> None:
    client, _ = director
    _play_table_one(app, {"N": 101, "E": 102, "S": 103, "W": 999})
    seated = _page(client, "/console/fragment/seated")
    assert "101 · Íñigo Muñoz Ibáñez" in seated
    assert "999 <span class=\"warn\">no está en el registro</span>" in seated
    assert "Jugadores en las mesas" in _page(client, "/console/")


REGISTER_POSTS = ["/console/register/import", "/console/register/visitor",
                  "/console/register/101"]


@pytest.mark.parametrize("path", [*REGISTER_POSTS, "/console/register",
                                  "/console/fragment/seated"])
def test_a_stranger_is_sent_to_sign_in(app: Flask, client: FlaskClient, path: str) -> None:
    client.get("/console/login")
    with client.session_transaction() as cookie:
        token = str(cookie["csrf"])
    response = (client.post(path, data={"csrf": token, "number": "5001", "name": "X"})
                if path in REGISTER_POSTS else client.get(path))
    assert response.status_code == 302
    assert register.members(services(app).db) == []
    assert response.headers["Location"].startswith("/console/login")


@pytest.mark.parametrize("path", REGISTER_POSTS)
@pytest.mark.parametrize("token", [None, "forged"])
def test_a_change_without_the_token_is_refused(app: Flask, director: Director, path: str,
                                               token: str | None) -> None:
    client, _ = director
    register.import_csv(services(app).db, _csv(SPANISH).encode())
    data: dict[str, Any] = {"number": "5001", "name": "Cambiado", "licence": "",
                            "csv": (io.BytesIO(b"900,Intruso\n"), "x.csv")}
    if token is not None:
        data["csrf"] = token
    response = client.post(path, data=data, content_type="multipart/form-data")
    assert response.status_code == 400
    assert [(m.number, m.name) for m in register.members(services(app).db)] == [
        (n, name) for n, name, _ in SPANISH]


def test_the_live_page_shows_the_pairs_by_the_register(app: Flask) -> None:
    from server.scoring import standings

    session = _play_table_one(app, SEATED)
    db = services(app).db
    seating = session.plan.round(1)[0]
    standings.release(db, session, seating.boards[0], by="director")
    live = app.test_client().get("/").get_data(as_text=True)
    assert "Íñigo Muñoz Ibáñez &amp; José María García-Peña" in live
    assert "Begoña Ñúñez &amp; Ángeles Sáenz de Santa María" in live


def test_a_register_the_tables_could_not_take_is_refused_whole(app: Flask) -> None:
    db = services(app).db
    register.import_csv(db, _csv(SPANISH).encode())
    many = "".join(f"{n},Jugador {n}\n" for n in range(2000, 2997))  # 997 new + 4
    with pytest.raises(RegisterError, match="would hold 1001 players; the tables take at "
                                            "most 1000"):
        register.import_csv(db, many.encode())
    long_names = "".join(f"{n},{'Ñúñez-Ibáñez ' * 3}{n}\n" for n in range(2000, 2800))
    with pytest.raises(RegisterError, match="the list of players would take") as raised:
        register.import_csv(db, long_names.encode())
    assert "ocuparía" in raised.value.text("es")
    assert len(register.members(db)) == 4  # nothing of either file stored


def test_a_visitor_leaves_a_session_without_a_register_as_it_was(app: Flask) -> None:
    db = services(app).db
    session = create_session(db, event=EVENT, title="Martes", kind="mitchell",
                             participants=8, boards_per_round=2, seed=7)
    assert register.add_visitor(db, 5001, "Visitante", session=session) == []
    assert register.member(db, 5001) is not None
    assert register.session_members(db, session) == {}  # its tables still take any number
    with db.read() as conn:
        assert conn.execute(select(s.commands.c.id)).all() == []
