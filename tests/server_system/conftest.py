"""The server against a real private Mosquitto (the fixtures of tests/mqtt)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from bidbox.broker import Broker, BrokerUsers
from server import create_app
from server.services import Services
from tests.fixtures.broker import EVENT, TIMEOUT


def wait_until(services: Services, predicate: Callable[[], bool],
               timeout: float = TIMEOUT) -> None:
    """Wait on the live hub (woken by every stored batch) until ``predicate`` holds."""
    deadline = time.monotonic() + timeout
    seen = services.hub.version
    while not predicate():
        left = deadline - time.monotonic()
        assert left > 0, "timed out waiting for the server"
        seen = services.hub.wait(seen, left).version


ServerFactory = Callable[..., Flask]


@pytest.fixture
def start_server(broker: Broker, broker_users: BrokerUsers,
                 tmp_path: Path) -> Iterator[ServerFactory]:
    """``start_server(**config)``: an app ingesting from the broker; stopped afterwards.

    Each call on the same test shares the database file, so a second call is a restart."""
    apps: list[Flask] = []
    creds = broker_users.server

    def start(**config: Any) -> Flask:
        app = create_app({
            "TESTING": True, "DATABASE": str(tmp_path / "server.db"), "EVENT": EVENT,
            "SECRET_KEY": "test", "DIRECTOR_PASSWORD": "pw", "ANALYSIS": False,
            "BROKER_URL": f"mqtt://{creds.username}:{creds.password}@{broker.host}:"
                          f"{broker.port}", **config})
        apps.append(app)
        services(app).bus.connected.wait(TIMEOUT)
        return app

    yield start
    for app in apps:
        services(app).close()


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def director(app: Flask, password: str = "pw") -> tuple[FlaskClient, str]:
    """A console client logged in as the director, and the console's CSRF token."""
    client = app.test_client()
    token = CSRF.search(client.get("/console/login").get_data(as_text=True))
    assert token is not None
    client.post("/console/login", data={"username": "director", "password": password,
                                        "csrf": token[1]})
    found = CSRF.search(client.get("/console/").get_data(as_text=True))
    assert found is not None
    return client, found[1]
