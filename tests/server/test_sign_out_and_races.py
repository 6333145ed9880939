"""Signing out ends the session on the server, and guesses sent all at once are counted
against each other (issue 27, items 8 and 9)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from server.pages.throttle import CHECKING, FREE, OK, REFUSED, WRONG, Throttle
from server.storage.db import Database
from tests.server.conftest import PASSWORD, login, make_app, services

ATTACKER = "192.168.1.66"


def test_a_cookie_copied_before_sign_out_no_longer_opens_the_console(
        app: Flask, client: FlaskClient) -> None:
    token = login(client)
    cookie = client.get_cookie("session")
    assert cookie is not None
    copy = app.test_client()
    copy.set_cookie("session", cookie.value)
    assert copy.get("/console/").status_code == 200  # the copy works while signed in
    client.post("/console/logout", data={"csrf": token})
    page = copy.get("/console/")
    assert page.status_code == 302 and "/console/login" in page.headers["Location"]
    refused = copy.post("/console/round", data={"csrf": token, "round": "1"})
    assert refused.status_code == 302 and "/console/login" in refused.headers["Location"]
    assert copy.get("/api/v1/tables").get_json() == client.get("/api/v1/tables").get_json()


def test_signing_out_ends_only_that_sign_in(app: Flask) -> None:
    laptop, phone = app.test_client(), app.test_client()
    token = login(laptop)
    login(phone)
    laptop.post("/console/logout", data={"csrf": token})
    assert laptop.get("/console/").status_code == 302
    assert phone.get("/console/").status_code == 200


@pytest.fixture
def throttle(database: str) -> Iterator[Throttle]:
    db = Database(database)
    db.upgrade()
    yield Throttle(db)
    db.dispose()


def test_guesses_sent_at_once_are_counted_before_they_are_checked(
        throttle: Throttle) -> None:
    """Thirty wrong passwords from one address at the same moment: the first FREE are looked
    at, every other one is refused, on SQLite and on PostgreSQL."""
    now = 1_800_000_000.0
    start = threading.Barrier(30)
    allowed: list[int] = []
    errors: list[BaseException] = []

    def guess() -> None:
        try:
            start.wait(30.0)
            attempt, verdict = throttle.begin(ATTACKER, "director", now)
            if verdict.allowed:
                allowed.append(attempt)
                throttle.finish(attempt, WRONG)
        except BaseException as error:  # reported by the test's thread
            errors.append(error)

    threads = [threading.Thread(target=guess) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60.0)
    assert not errors, errors
    assert len(allowed) == FREE
    with throttle.db.read() as conn:
        outcomes = [row[0] for row in conn.exec_driver_sql("SELECT outcome FROM sign_ins")]
    assert sorted(set(outcomes)) == [REFUSED, WRONG]
    assert outcomes.count(REFUSED) == 30 - FREE


def test_an_attempt_being_checked_counts_as_a_failure(throttle: Throttle) -> None:
    now = 1_800_000_000.0
    pending = [throttle.begin(ATTACKER, "director", now)[0] for _ in range(FREE)]
    assert not throttle.check(ATTACKER, "director", now).allowed
    for attempt in pending:
        throttle.finish(attempt, OK)
    assert throttle.check(ATTACKER, "director", now).allowed
    with throttle.db.read() as conn:
        outcomes = {row[0] for row in conn.exec_driver_sql("SELECT outcome FROM sign_ins")}
    assert outcomes == {OK} and CHECKING not in outcomes


@pytest.fixture
def served_app(tmp_path: Any) -> Iterator[Flask]:
    app = make_app(str(tmp_path / "race.db"))
    yield app
    services(app).close()


def test_the_sign_in_page_counts_simultaneous_guesses(served_app: Flask) -> None:
    """The same through the sign-in form: thirty clients post a wrong password at once; the
    right password afterwards is refused too (the address must wait)."""
    clients = [served_app.test_client() for _ in range(30)]
    tokens = []
    for client in clients:
        page = client.get("/console/login", environ_base={"REMOTE_ADDR": ATTACKER})
        found = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True))
        assert found is not None
        tokens.append(found.group(1))
    start = threading.Barrier(len(clients))
    codes: list[int] = []

    def post(client: FlaskClient, token: str) -> None:
        start.wait(30.0)
        answer = client.post("/console/login", environ_base={"REMOTE_ADDR": ATTACKER},
                             data={"username": "director", "password": "wrong guess",
                                   "csrf": token})
        codes.append(answer.status_code)

    threads = [threading.Thread(target=post, args=pair) for pair in zip(clients, tokens,
                                                                         strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60.0)
    assert codes.count(200) == FREE and codes.count(429) == len(clients) - FREE, codes
    last = clients[0].post("/console/login", environ_base={"REMOTE_ADDR": ATTACKER},
                           data={"username": "director", "password": PASSWORD,
                                 "csrf": tokens[0]})
    assert last.status_code == 429


def test_the_api_guide_says_which_answer_has_which_fields(
        app: Flask, client: FlaskClient) -> None:
    """docs/api.md's table of ``/api/v1/tables``: the fields it gives everyone are the public
    answer's, and the director's answer has every field it names (issue 27, item 15)."""
    from pathlib import Path

    from server.link.ingest import Ingest
    from server.pages.api import PUBLIC_TABLE_FIELDS
    from tablemodel.wire import ONLINE, table_topic
    from tests.server.conftest import EVENT

    guide = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    part = guide[guide.index("## `GET /api/v1/tables`"):guide.index("## `GET /api/v1/progress`")]
    rows = re.findall(r"^\| `tables\[\]\.(\w+)`(?:, `(\w+)`)? \| (\w+) \|", part, re.M)
    named = {who: set() for who in ("everyone", "director")}
    for first, second, who in rows:
        named[who] |= {first, *([second] if second else [])}
    assert named["everyone"] == set(PUBLIC_TABLE_FIELDS)
    Ingest(services(app).db, EVENT)(table_topic(EVENT, 1, "status"), ONLINE)
    [public] = client.get("/api/v1/tables").get_json()["tables"]
    assert set(public) == named["everyone"]
    login(client)
    [full] = client.get("/api/v1/tables").get_json()["tables"]
    assert set(full) == named["everyone"] | named["director"]
