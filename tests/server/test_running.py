"""Sessions one after another on one server: each created in the console with its own event
name, the newest running, the ones before listed with their exports and able to run again
(server/setup/running.py, the console's Sessions page). Through the real broker:
tests/server_system/test_next_session.py."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from server.link.rounds import create_session
from server.setup import running
from server.setup.session import SessionError
from tests.server.conftest import EVENT, services

Director = tuple[FlaskClient, str]
FORM = {"movement": "mitchell", "participants": "6", "boards_per_round": "2", "seed": "3"}


def page(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.get_data(as_text=True)


def create(client: FlaskClient, token: str, title: str, **extra: str) -> Any:
    return client.post("/console/setup", data={"csrf": token, "title": title, **FORM, **extra})


def test_a_new_name_is_the_servers_then_dated_then_numbered(app: Flask) -> None:
    db = services(app).db
    day = datetime.date(2026, 11, 28)
    assert running.new_event_name(db, "club", today=lambda: day) == "club"
    for event in ("club", "club-2026-11-28"):
        create_session(db, event=event, title=event, kind="mitchell", participants=6,
                       boards_per_round=2)
        assert running.running_event(db) == event  # the newest runs
    assert running.new_event_name(db, "club", today=lambda: day) == "club-2026-11-28-2"
    assert running.new_event_name(db, "club", typed="simul-5") == "simul-5"
    with pytest.raises(SessionError, match="already"):
        running.new_event_name(db, "club", typed="club")
    with pytest.raises(SessionError, match="event name"):
        running.new_event_name(db, "club", typed="a b")


def test_the_next_session_is_created_while_one_runs_and_the_first_stays(
        app: Flask, director: Director) -> None:
    client, token = director
    assert create(client, token, "Lunes").status_code == 302
    first = services(app).session
    assert first is not None and first.event == EVENT == services(app).event

    form = page(client, "/console/new?lang=en")
    assert "Set up the next session" in form and f'name="after" value="{first.id}"' in form
    today = datetime.date.today().isoformat()
    assert f'placeholder="{EVENT}-{today}"' in form
    done = create(client, token, "Martes", after=str(first.id), vugraph="off")
    assert done.status_code == 302
    second = services(app).session
    assert second is not None and second.title == "Martes" and second.vugraph == "off"
    assert second.event == f"{EVENT}-{today}" == services(app).event
    assert services(app).ingest.event == second.event

    # Pressed twice, or a form from before: nothing more is created.
    again = create(client, token, "Martes", after=str(first.id))
    assert again.status_code == 302 and len(running.sessions(services(app).db)) == 2

    listed = page(client, "/console/sessions?lang=en")
    assert listed.index("Martes") < listed.index("Lunes")  # the running one first
    assert f"/console/export/pbn?session={first.id}" in listed
    assert f"/console/report.pdf?session={first.id}" in listed
    old = client.get(f"/console/export/csv?session={first.id}")
    assert old.status_code == 200
    assert f'filename="{EVENT}.csv"' in old.headers["Content-Disposition"]
    assert client.get("/console/export/csv?session=999").status_code == 404


def test_a_session_before_can_run_again(app: Flask, director: Director) -> None:
    client, token = director
    create(client, token, "Lunes")
    first = services(app).session
    assert first is not None
    create(client, token, "Martes", after=str(first.id), event="martes")
    assert services(app).event == "martes"
    version = services(app).hub.version
    done = client.post(f"/console/sessions/{first.id}/run", data={"csrf": token},
                       follow_redirects=True)
    assert "las mesas pasan a ella entre tableros" in done.get_data(as_text=True)
    assert services(app).event == EVENT and services(app).session == first
    assert "session" in services(app).hub.wait(version, 0).kinds
    assert client.post("/console/sessions/999/run",
                       data={"csrf": token}).status_code == 302  # refused, said
    assert services(app).event == EVENT


def test_a_name_taken_or_unusable_is_refused_and_creates_nothing(
        app: Flask, director: Director) -> None:
    client, token = director
    create(client, token, "Lunes")
    first = services(app).session
    assert first is not None
    for name, why in ((EVENT, "already"), ("dos palabras", "event name")):
        refused = create(client, token, "Martes", after=str(first.id), event=name)
        assert refused.status_code == 400 and why in refused.get_data(as_text=True)
    assert services(app).session == first
