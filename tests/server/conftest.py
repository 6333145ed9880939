"""Fixtures of the server tests: an app on a real SQLite file, or on a real PostgreSQL.

``app`` is SQLite (a file in tmp_path, WAL, migrated by Alembic). ``any_app`` runs the test on
both SQLite and PostgreSQL: a fresh database on the server at ``BIDBOX_TEST_PG`` (default the
local 127.0.0.1:5432 with trust auth), dropped afterwards; it skips when no server answers.
"""

from __future__ import annotations

import atexit
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from server import create_app
from server.services import Services
from server.storage.db import Database

EVENT = "test"
PASSWORD = "secret-director"


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "bidbox.db")
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def db(database: str) -> Iterator[Database]:
    """The database, at the schema's head, on each of SQLite and PostgreSQL; a test module
    may define its own ``db`` instead."""
    made = Database(database)
    made.upgrade()
    yield made
    made.dispose()


FAST_HASH = "pbkdf2:sha256:1000"
"""The director's password hashed cheaply: every app a test builds hashes it, and scrypt's
80 ms a time was half of the unit tests' minute. tests/server/test_hardening.py checks that
an app told nothing hashes with scrypt."""


_MIGRATED: list[Path] = []  # this process's SQLite file at the schema's head, once made


def _migrated_copy(database: str) -> None:
    """A new SQLite file starts as a copy of one that Alembic migrated in this process: the
    same file every app would make, without running every migration for each of a thousand
    apps (the app's own upgrade then finds it at head)."""
    if "://" in database or Path(database).exists():
        return
    if not _MIGRATED:
        folder = Path(tempfile.mkdtemp(prefix="bidbox-migrated-"))
        atexit.register(shutil.rmtree, folder, True)
        head = folder / "head.db"
        made = Database(str(head))
        made.upgrade()
        made.dispose()  # the last connection closes: the WAL is checkpointed into the file
        if Path(f"{head}-wal").exists():
            return  # not a plain file to copy: let the app migrate its own
        _MIGRATED.append(head)
    shutil.copyfile(_MIGRATED[0], database)


def make_app(database: str, **config: Any) -> Flask:
    _migrated_copy(database)
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
