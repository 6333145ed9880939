"""Fixtures of the server tests: an app on a real SQLite file, or on a real PostgreSQL.

``app`` is SQLite (a file in tmp_path, WAL, migrated by Alembic). ``any_app`` runs the test on
both SQLite and PostgreSQL: a fresh database on the server at ``BIDBOX_TEST_PG`` (default the
local 127.0.0.1:5432 with trust auth), dropped afterwards; it skips when no server answers.
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from server import create_app
from server.services import Services
from tests.mqtt.conftest import broker, broker_users, mosquitto_bin  # noqa: F401 (the real broker)

PG_ADMIN = os.environ.get("BIDBOX_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
EVENT = "test"
PASSWORD = "secret-director"


def _pg_admin() -> Any:
    try:
        import psycopg
        return psycopg.connect(PG_ADMIN, connect_timeout=2, autocommit=True)
    except Exception as error:  # no server, no driver: the PostgreSQL half skips
        pytest.skip(f"PostgreSQL not available at {PG_ADMIN}: {error}")


@pytest.fixture
def pg_url() -> Iterator[str]:
    admin = _pg_admin()
    name = f"bidbox_test_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    base = PG_ADMIN.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "bidbox.db")
    url: str = request.getfixturevalue("pg_url")
    return url


FAST_HASH = "pbkdf2:sha256:1000"
"""The director's password hashed cheaply: every app a test builds hashes it, and scrypt's
80 ms a time was half of the unit tests' minute. tests/server/test_hardening.py checks that
an app told nothing hashes with scrypt."""


def make_app(database: str, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE": database, "EVENT": EVENT,
                       "SECRET_KEY": "test-secret", "DIRECTOR_PASSWORD": PASSWORD,
                       "ANALYSIS": False, "PASSWORD_METHOD": FAST_HASH, **config})


@pytest.fixture
def app(tmp_path: Any) -> Iterator[Flask]:
    app = make_app(str(tmp_path / "bidbox.db"))
    yield app
    services(app).close()


@pytest.fixture
def any_app(database: str) -> Iterator[Flask]:
    app = make_app(database)
    yield app
    services(app).close()


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def csrf_of(client: FlaskClient, path: str) -> str:
    page = client.get(path)
    found = CSRF.search(page.get_data(as_text=True))
    assert found, f"no CSRF token on {path}"
    return found.group(1)


def login(client: FlaskClient, password: str = PASSWORD) -> str:
    """Sign in as the director; the session's CSRF token for later posts."""
    token = csrf_of(client, "/console/login")
    response = client.post("/console/login", data={"username": "director",
                                                    "password": password, "csrf": token})
    assert response.status_code == 302, response.get_data(as_text=True)
    return csrf_of(client, "/console/")


@pytest.fixture
def director(client: FlaskClient) -> tuple[FlaskClient, str]:
    return client, login(client)
