"""The field scored once per change for every reader (server/services.py ``FieldScores``,
issue 29): the live page, the API, the room and the console read the same scoring until a
change that moves scores, told by the live hub or seen in the database's fingerprint."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert, update

from server.link.live import Hub
from server.link.rounds import create_session
from server.scoring import standings
from server.services import SCORING_KINDS
from server.setup.session import Session
from server.storage import schema as s
from tests.server.conftest import EVENT, services
from tests.server.test_display import Room

WAIT = 10.0  # seconds a thread of a test is waited for at most


@pytest.fixture
def tables(app: Flask) -> Room:
    """A Mitchell of three tables publishing through the real ingest, the hub told of what
    changed, as the bus does (tests/server/test_display.py's room)."""
    return Room(app)


@pytest.fixture
def scorings(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each scoring of the field, public or not, as it happens (the scorer wrapped)."""
    made: list[bool] = []
    real = standings.field

    def counted(*args: Any, **kwargs: Any) -> standings.Field:
        made.append(bool(kwargs.get("public")))
        return real(*args, **kwargs)
    monkeypatch.setattr(standings, "field", counted)
    return made


def ranked(client: FlaskClient) -> dict[int, float]:
    """The public rankings, by pair: its score."""
    data = client.get("/api/v1/rankings").get_json()
    return {row["participant"]: row["score"] for row in data["rankings"]}


def play_board_one(tables: Room) -> list[int]:
    """Board 1 at every table that plays it (so it is released); the tables, in order."""
    played = []
    for number, seat in enumerate(tables.tables(1)):
        tables.play(seat.table, 1, "4S" if number else "3NT", "N", 10 if number else 9)
        played.append(seat.table)
    return played


def test_a_result_stored_through_ingest_moves_the_rankings_at_once(
        client: FlaskClient, tables: Room) -> None:
    seats = tables.tables(1)
    for seat in seats[:-1]:
        tables.play(seat.table, 1, "4S", "N", 10)
    assert ranked(client) == {}  # board 1 not released: nothing public yet
    tables.play(seats[-1].table, 1, "3NT", "N", 9)
    before = ranked(client)
    assert before and len(set(before.values())) > 1  # released and scored
    tables.play(seats[-1].table, 1, "3NT", "N", 11)  # a later result: the table's ruling
    after = ranked(client)
    assert after != before
    assert after[seats[-1].ns] > before[seats[-1].ns]


def test_a_correction_through_the_console_moves_the_rankings_at_once(
        client: FlaskClient, tables: Room, director: tuple[FlaskClient, str]) -> None:
    _, token = director
    played = play_board_one(tables)
    before = ranked(client)
    console = client.get("/console/results").get_data(as_text=True)
    response = client.post("/console/correct", data={
        "csrf": token, "table": str(played[0]), "board": "1", "contract": "3NT",
        "declarer": "N", "tricks": "12", "adjusted": "", "score_ns": "", "note": "Law 64"})
    assert response.status_code == 302
    after = ranked(client)
    assert after != before
    assert client.get("/console/results").get_data(as_text=True) != console


def test_a_write_that_told_no_hub_is_still_seen(app: Flask, client: FlaskClient,
                                                tables: Room) -> None:
    """The fingerprint: a tool on the database, a process whose relay was down. Each kind of
    write the scoring reads, made straight in SQL with the hub left alone."""
    played = play_board_one(tables)
    db, session = services(app).db, tables.session
    before = ranked(client)
    version = services(app).hub.version_of(SCORING_KINDS)
    with db.write() as conn:  # a score changed under the server
        conn.execute(update(s.results).where(
            s.results.c.event == EVENT, s.results.c.table_no == played[0],
            s.results.c.board == 1).values(score_ns=1400))
    changed = ranked(client)
    assert changed != before
    with db.write() as conn:  # a penalty given (Law 90)
        conn.execute(insert(s.penalties).values(
            session_id=session.id, participant=tables.tables(1)[1].ns, law="90", unit="mp",
            amount=1.0, note="slow play", given_by="script", given_at=1.8e9))
    fined = ranked(client)
    assert fined[tables.tables(1)[1].ns] == changed[tables.tables(1)[1].ns] - 1.0
    assert services(app).hub.version_of(SCORING_KINDS) == version  # no hub was told
    # Board 2 is played by one table only, then released straight in the database.
    seat = tables.tables(2)[0]
    tables.play(seat.table, 2, "2H", "S", 8)
    version = services(app).hub.version_of(SCORING_KINDS)
    assert client.get("/api/v1/results").get_json()["released"] == [1]
    with db.write() as conn:
        conn.execute(insert(s.releases).values(event=EVENT, board=2, released_at=1.8e9,
                                               released_by="script"))
    assert client.get("/api/v1/results").get_json()["released"] == [1, 2]
    with db.write() as conn:  # the session's figures for artificial scores (Law 12C2)
        conn.execute(insert(s.scoring_rules).values(session_id=session.id, avg_plus=70,
                                                    avg=50, avg_minus=30))
        conn.execute(update(s.results).where(
            s.results.c.event == EVENT, s.results.c.table_no == played[0],
            s.results.c.board == 1).values(score_ns=None, contract=None, adjusted="A+/A-"))
    adjusted = ranked(client)
    assert adjusted != fined
    assert services(app).hub.version_of(SCORING_KINDS) == version  # no hub was told


def test_two_reads_with_nothing_changed_score_once(app: Flask, client: FlaskClient,
                                                   tables: Room,
                                                   scorings: list[bool]) -> None:
    play_board_one(tables)
    scorings.clear()
    for path in ("/", "/api/v1/rankings", "/api/v1/rankings?page=1", "/api/v1/results",
                 "/room", "/board/1", "/"):
        assert client.get(path).status_code == 200, path
    assert scorings == [True]  # the public view, once for every page and the API
    services(app).hub.notify({"tables", "calls", "analysis"})  # nothing that moves scores
    ranked(client)
    assert scorings == [True]
    services(app).hub.notify({"results"})
    ranked(client)
    client.get("/")
    assert scorings == [True, True]


def test_the_directors_view_is_kept_apart_from_the_publics(
        app: Flask, client: FlaskClient, tables: Room, scorings: list[bool],
        director: tuple[FlaskClient, str]) -> None:
    """Board 2 played by one table: the director's rankings count it, the public's not."""
    play_board_one(tables)
    seat = tables.tables(2)[0]
    tables.play(seat.table, 2, "2H", "S", 8)
    scorings.clear()
    public = ranked(client)
    console = client.get("/console/results").get_data(as_text=True)
    client.get("/console/results")
    assert scorings == [True, False]
    assert services(app).scored(tables.session, public=False).field.standings != \
        services(app).scored(tables.session).field.standings
    assert ranked(client) == public and "data-participant" in console
    assert scorings == [True, False]


def test_two_readers_at_once_score_once(app: Flask, tables: Room,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    play_board_one(tables)
    found = services(app)
    inside, go = threading.Event(), threading.Event()
    made: list[int] = []
    real = standings.public_field

    def slow(*args: Any, **kwargs: Any) -> standings.Field:
        made.append(1)
        inside.set()
        assert go.wait(WAIT)
        return real(*args, **kwargs)
    monkeypatch.setattr(standings, "public_field", slow)
    keyed = threading.Event()
    real_key = found.scores.key

    def key(session: Session, public: bool) -> Any:
        try:
            return real_key(session, public)
        finally:
            if threading.current_thread().name == "second":
                keyed.set()
    monkeypatch.setattr(found.scores, "key", key)
    got: dict[str, Any] = {}

    def read(name: str) -> None:
        got[name] = found.scored(tables.session)
    first = threading.Thread(target=read, args=("first",), name="first")
    second = threading.Thread(target=read, args=("second",), name="second")
    first.start()
    assert inside.wait(WAIT)  # the first is scoring
    second.start()
    assert keyed.wait(WAIT)  # the second has its key: the same, and waits for the first
    go.set()
    first.join(WAIT)
    second.join(WAIT)
    assert not first.is_alive() and not second.is_alive()
    assert made == [1]
    assert got["first"] is got["second"]


def changing_during(monkeypatch: pytest.MonkeyPatch, change: Callable[[], None]) -> list[int]:
    """The scorer wrapped: its first call makes ``change`` after the results were read, as a
    result that comes in while the field is being scored."""
    calls: list[int] = []
    real = standings.public_field

    def racing(*args: Any, **kwargs: Any) -> standings.Field:
        calls.append(1)
        if len(calls) == 1:
            change()
        return real(*args, **kwargs)
    monkeypatch.setattr(standings, "public_field", racing)
    return calls


@pytest.mark.parametrize("told", [True, False], ids=["hub-told", "hub-not-told"])
def test_a_change_during_a_scoring_is_not_lost(app: Flask, client: FlaskClient, tables: Room,
                                               monkeypatch: pytest.MonkeyPatch,
                                               told: bool) -> None:
    played = play_board_one(tables)

    def change() -> None:
        with services(app).db.write() as conn:
            conn.execute(update(s.results).where(
                s.results.c.event == EVENT, s.results.c.table_no == played[0],
                s.results.c.board == 1).values(score_ns=1400))
        if told:
            services(app).hub.notify({"results"})
    calls = changing_during(monkeypatch, change)
    raced = ranked(client)  # scored from the results read before the change
    fresh = ranked(client)
    assert len(calls) == 2  # the race's scoring was not kept as the newer one
    assert fresh != raced
    assert ranked(client) == fresh and len(calls) == 2


def test_the_scorings_kept_are_bounded(app: Flask, tables: Room) -> None:
    play_board_one(tables)
    found = services(app)
    for _ in range(3 * found.scores.kept):
        found.hub.notify({"results"})
        found.scored(tables.session)
        found.scored(tables.session, public=False)
    assert len(found.scores._kept) == found.scores.kept


def test_the_hub_says_the_version_of_the_last_change_of_given_kinds() -> None:
    hub = Hub(history=2)
    assert hub.version_of({"results"}) == 0
    hub.notify({"tables"})
    assert hub.version_of({"results", "session"}) == 0
    at = hub.notify({"results", "tables"})
    for _ in range(5):  # past the history the waiters keep: the kind's version stays known
        hub.notify({"tables"})
    assert hub.version_of({"results"}) == at
    assert hub.version_of({"results", "session"}) == at
    # A change another process made, relayed (server/link/relay.py records it here).
    relayed = hub.record({"session"})
    assert hub.version_of({"results", "session"}) == relayed
    assert hub.version_of({"results"}) == at
    assert hub.version_of(()) == 0


@pytest.fixture
def relayed_app(pg_url: str) -> Iterator[tuple[Flask, Flask]]:
    """Two processes' apps on one PostgreSQL database, their hubs relayed."""
    from tests.server.conftest import make_app
    first = make_app(pg_url)
    second = make_app(pg_url)
    yield first, second
    services(second).close()
    services(first).close()


def test_a_change_relayed_from_another_process_counts(
        relayed_app: tuple[Flask, Flask]) -> None:
    first, second = relayed_app
    hub = services(second).hub
    seen = hub.version
    services(first).hub.notify({"results"})
    change = hub.wait(seen, WAIT)
    while "results" not in change.kinds and change.version > seen:
        seen = change.version
        change = hub.wait(seen, WAIT)
    assert "results" in change.kinds
    assert hub.version_of(SCORING_KINDS) == change.version


def test_the_fingerprint_reads_on_both_databases(db: Any) -> None:
    """One aggregate query on SQLite and PostgreSQL alike; a result, a release, a penalty and
    the session's figures each change it."""
    from server.services import scoring_fingerprint
    session = create_session(db, event=EVENT, title="Martes", kind="mitchell", participants=6,
                             boards_per_round=2, seed=1)
    seen = [scoring_fingerprint(db, session)]
    seat = session.plan.schedule(1)[0]
    writes = [
        insert(s.results).values(event=EVENT, table_no=seat.table, board=1, round=1,
                                 ns=seat.ns, ew=seat.ew, contract="3NT", declarer="N",
                                 tricks=9, score_ns=400, source_seq=2, finished_at=1.8e9),
        update(s.results).where(s.results.c.event == EVENT).values(lead="SQ"),
        insert(s.releases).values(event=EVENT, board=2, released_at=1.8e9, released_by="x"),
        insert(s.penalties).values(session_id=session.id, participant=1, law="90", unit="mp",
                                   amount=1.0, note="x", given_by="x", given_at=1.8e9),
        insert(s.scoring_rules).values(session_id=session.id, avg_plus=70, avg=50,
                                       avg_minus=30)]
    for write in writes:
        with db.write() as conn:
            conn.execute(write)
        seen.append(scoring_fingerprint(db, session))
    assert len(set(seen)) == len(seen)
    assert scoring_fingerprint(db, session) == seen[-1]  # nothing written: the same
