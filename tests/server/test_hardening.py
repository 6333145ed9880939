"""What a review found a table, a visitor or a crowd could do, and what stops it now."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from server.link.live import Hub
from server.link.rounds import create_session, start_round
from server.scoring.standings import all_results
from tablemodel.wire import Event, table_topic
from tests.server.conftest import EVENT, PASSWORD, csrf_of, login, services


def _result(app: Flask, table: int, seq: int, board: int) -> str | None:
    outcome = services(app).ingest(table_topic(EVENT, table, "events"), Event(
        seq, "result", 1.0, board, {"contract": "3NT", "declarer": "N", "tricks": 9,
                                    "score_ns": 400}).to_payload())
    return outcome.rejected


def test_a_result_before_its_round_cannot_release_a_board(app: Flask) -> None:
    session = create_session(services(app).db, event=EVENT, title="Club", kind="mitchell",
                             participants=6, boards_per_round=2, seed=3)
    start_round(services(app).db, session, 1)
    later = next(seat for seat in session.plan.schedule(1) if seat.round == 3)
    refused = _result(app, later.table, 1, 1)
    assert refused is not None and "round 3" in refused
    assert "not played at table" in (_result(app, 1, 2, 50) or "")  # not in this session
    first = session.plan.at(1, 1)
    assert _result(app, first.table, 3, first.boards[0]) is None
    assert [(r.table, r.board) for r in all_results(services(app).db, session)] == [
        (first.table, first.boards[0])]


def test_login_never_sends_the_director_elsewhere(client: FlaskClient) -> None:
    for target in ("//evil.example", "/\tevil.example", "/\\evil.example",
                   "https://evil.example/", "/%09/evil.example"):
        token = csrf_of(client, "/console/login")
        answer = client.post("/console/login", query_string={"next": target},
                             data={"username": "director", "password": PASSWORD,
                                   "csrf": token})
        location = answer.headers["Location"]
        assert location.startswith("/") and not location.startswith("//"), (target, location)
        assert "evil" not in location.split("?")[0].lstrip("/").split("/")[0], location
        client.post("/console/logout", data={"csrf": csrf_of(client, "/console/")})


def test_a_garbled_csrf_token_is_a_400_not_a_crash(client: FlaskClient) -> None:
    login(client)
    assert client.post("/console/round", data={"csrf": "ñ" * 10}).status_code == 400


def test_console_pages_are_never_kept_by_the_browser(client: FlaskClient) -> None:
    login(client)
    assert client.get("/console/").headers["Cache-Control"] == "no-store"


def test_the_public_sees_where_tables_are_not_what_they_did(client: FlaskClient,
                                                            app: Flask) -> None:
    services(app).ingest(table_topic(EVENT, 2, "events"), Event(
        1, "director", 1.0, 4, {"seat": "E", "reason": "revoke"}).to_payload())
    [row] = client.get("/api/v1/tables").get_json()["tables"]
    assert set(row) == {"table", "online", "round", "board"}
    login(client)
    [row] = client.get("/api/v1/tables").get_json()["tables"]
    assert row["open_calls"] == 1 and row["events"] == 1


def test_live_streams_are_capped_so_the_console_keeps_its_threads() -> None:
    hub = Hub(max_streams=2)
    first, second = hub.stream(frozenset({"results"})), hub.stream(frozenset({"results"}))
    assert next(first).startswith("retry: 2000") and next(second).startswith("retry: 2000")
    third = hub.stream(frozenset({"results"}))
    assert next(third).startswith("retry: 30000") and list(third) == []
    first.close()  # a page closed: its slot is free again
    assert next(hub.stream(frozenset({"results"}))).startswith("retry: 2000")
    hub.close()


def test_the_directors_password_is_kept_as_a_scrypt_hash_by_default(tmp_path: Any) -> None:
    """Only the test suite asks for a cheap hash (PASSWORD_METHOD); a real server keeps the
    director's password as werkzeug's default, scrypt, and checks it against that."""
    from sqlalchemy import select
    from werkzeug.security import check_password_hash

    from server import create_app
    from server.storage import schema as s

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "club.db"),
                      "SECRET_KEY": "x", "DIRECTOR_PASSWORD": "a long phrase", "ANALYSIS": False})
    with app.extensions["bidbox"].db.read() as conn:
        stored = conn.execute(select(s.directors.c.password_hash)).scalar_one()
    assert stored.startswith("scrypt:") and check_password_hash(stored, "a long phrase")
    app.extensions["bidbox"].close()
