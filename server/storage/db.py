"""The database: an engine set up for many readers and one writer at a time.

SQLite (the default, a file beside the director): WAL so the pages read while ingest writes, a
busy timeout so a second writer waits instead of failing, and ``BEGIN IMMEDIATE`` for writes so
two writers never deadlock upgrading their locks. PostgreSQL when given its URL. The schema is
made and upgraded by Alembic (``server/storage/migrations``), never by ``create_all``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

MIGRATIONS = Path(__file__).with_name("migrations")
BUSY_TIMEOUT_MS = 10_000


def database_url(value: str) -> str:
    """A SQLAlchemy URL from what a director types: a URL, or a path to a SQLite file."""
    if "://" in value:
        url = make_url(value)
        if url.drivername in ("postgresql", "postgres"):
            url = url.set(drivername="postgresql+psycopg")  # psycopg 3, not psycopg2
        return url.render_as_string(hide_password=False)
    return f"sqlite:///{os.path.abspath(value)}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # The driver's own transaction handling would issue a plain BEGIN at its first write;
    # we issue BEGIN (IMMEDIATE) ourselves in the begin listener below.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at checkpoint, no torn DB
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    immediate = conn.get_execution_options().get("immediate", False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


class Database:
    """One engine; ``read()`` and ``write()`` give a connection inside a transaction."""

    def __init__(self, url: str, *, pool_size: int = 8) -> None:
        self.url = database_url(url)
        self.sqlite = self.url.startswith("sqlite")
        options: dict[str, Any] = {"future": True}
        if not self.sqlite:
            options.update(pool_size=pool_size, max_overflow=pool_size, pool_pre_ping=True)
        self.engine: Engine = create_engine(self.url, **options)
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "begin", _sqlite_begin)

    @contextlib.contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextlib.contextmanager
    def write(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            conn = conn.execution_options(immediate=True)
            with conn.begin():
                yield conn

    @property
    def conninfo(self) -> str | None:
        """PostgreSQL's own URL of the database, for a plain psycopg connection (LISTEN
        needs one of its own, outside the pool); None for SQLite."""
        if self.sqlite:
            return None
        url = make_url(self.url).set(drivername="postgresql")
        return url.render_as_string(hide_password=False)

    def upgrade(self, revision: str = "head") -> None:
        """Bring the schema to ``revision`` with the Alembic migrations."""
        with self.engine.connect() as conn:
            command.upgrade(alembic_config(conn), revision)
            conn.commit()

    def dispose(self) -> None:
        self.engine.dispose()


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config
