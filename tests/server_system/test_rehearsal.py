"""``bidbox simulate --server``: the rehearsal command plays a session created in the console
to the end, through a real broker and the real server, and its field is a field.

The server runs here (waitress, its bus on the broker); the director creates a 4-table Howell
in the console; the command is the real process, with the broker's users file as its
credentials and the director's password in its environment, and starts the rounds itself.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from bidbox.broker import Broker, BrokerUsers
from server import create_app
from server.scoring.standings import all_results, public_field
from server.serve import serve
from tests.fixtures.broker import EVENT, TIMEOUT
from tests.processes import run
from tests.server_system.conftest import director, services

pytestmark = pytest.mark.slow  # the whole command

PASSWORD = "mesa siete norte"


@pytest.fixture
def served(broker: Broker, broker_users: BrokerUsers,
           tmp_path: Path) -> Iterator[tuple[Flask, str]]:
    creds = broker_users.server
    app = create_app({
        "DATABASE": str(tmp_path / "bidbox.db"), "EVENT": EVENT, "SECRET_KEY": "test",
        "DIRECTOR_PASSWORD": PASSWORD, "ANALYSIS": False,
        "PASSWORD_METHOD": "pbkdf2:sha256:1000",
        "BROKER_URL": f"mqtt://{creds.username}:{creds.password}@127.0.0.1:{broker.port}"})
    assert services(app).bus.connected.wait(TIMEOUT)
    serving = serve(app, host="127.0.0.1", port=0, threads=12)
    try:
        yield app, str(serving.address)
    finally:
        serving.stop()


def set_up_in_the_console(app: Flask) -> None:
    client, token = director(app, PASSWORD)
    response = client.post("/console/setup", data={
        "csrf": token, "title": "Ensayo", "movement": "howell", "participants": "8",
        "boards_per_round": "2", "rounds": "3", "seed": "11"})
    assert response.status_code == 302, response.get_data(as_text=True)


def test_the_rehearsal_plays_the_consoles_session_to_the_end(
        served: tuple[Flask, str], broker: Broker, broker_users: BrokerUsers,
        tmp_path: Path) -> None:
    app, address = served
    set_up_in_the_console(app)
    session = services(app).session
    assert session is not None and session.tables == 4
    credentials = tmp_path / "credentials.json"
    credentials.write_text(broker_users.dumps())
    done = run([sys.executable, "-m", "bidbox", "simulate", "--server", address,
                "--broker", broker.url, "--credentials", str(credentials),
                "--speed", "0", "--start-rounds", "--journals", str(tmp_path / "pis")],
               timeout=600, text=True, env={**os.environ, "BIDBOX_DIRECTOR_PASSWORD": PASSWORD})
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert not done.left
    assert f"session {EVENT}: 4 simulated tables, 3 rounds" in done.stdout
    assert "the session is over: 24 boards played at 4 tables" in done.stdout

    db = services(app).db
    session = services(app).session
    assert session is not None and session.current_round == 3
    played = {(row.table, row.board) for row in all_results(db, session)}
    scheduled = {(seat.table, board) for seat in session.plan.seatings for board in seat.boards}
    assert played == scheduled and len(played) == 24
    # A field, not eight pairs at 50 %: the pairs' styles differ, and so do their scores.
    percents = [row.percent for row in public_field(db, session).standings]
    assert len(percents) == 8 and max(percents) - min(percents) >= 10, percents
    # Every board was played in the session's own journals, one folder a table.
    for table in range(1, 5):
        assert (tmp_path / "pis" / f"table-{table}" / f"{EVENT}.db").exists()


def test_with_no_session_the_rehearsal_says_to_create_one(
        served: tuple[Flask, str], broker: Broker, broker_users: BrokerUsers,
        tmp_path: Path) -> None:
    _, address = served
    credentials = tmp_path / "credentials.json"
    credentials.write_text(broker_users.dumps())
    args = [sys.executable, "-m", "bidbox", "simulate", "--server", address,
            "--broker", broker.url, "--credentials", str(credentials)]
    done = run(args, timeout=120, text=True)
    assert done.returncode == 1 and "create it in the console first" in done.stderr
    done = run([*args, "--start-rounds"], timeout=120, text=True,
               env={k: v for k, v in os.environ.items() if k != "BIDBOX_DIRECTOR_PASSWORD"})
    assert done.returncode == 2 and "$BIDBOX_DIRECTOR_PASSWORD" in done.stderr
    done = run(args[:-2], timeout=120, text=True)
    assert done.returncode == 2 and "--credentials" in done.stderr
