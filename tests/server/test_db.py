"""Storage: SQLite set up for one writer and many readers; the schema only from migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from server.storage.db import Database, database_url
from server.storage.schema import metadata
from tablemodel.regulation import DEFAULT_PROFILE, DEFAULT_TRAY_DELAY


@pytest.mark.parametrize(("given", "expected"), [
    ("bidbox.db", "sqlite:///"),
    ("sqlite:///x.db", "sqlite:///x.db"),
    ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
    ("postgres://u:p@h:5433/db", "postgresql+psycopg://u:p@h:5433/db"),
])
def test_database_url(given: str, expected: str) -> None:
    assert database_url(given).startswith(expected)


def test_sqlite_is_wal_with_a_busy_timeout(tmp_path: Path) -> None:
    db = Database(str(tmp_path / "x.db"))
    with db.read() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 10_000
    db.dispose()


def test_a_write_takes_the_write_lock_at_begin(tmp_path: Path) -> None:
    """BEGIN IMMEDIATE: a second writer cannot start while a write transaction is open, even
    before it has written anything; a reader still can."""
    path = tmp_path / "x.db"
    db = Database(str(path))
    db.upgrade()
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with db.write():
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
            other.execute("BEGIN")
            assert other.execute("SELECT count(*) FROM events").fetchone() == (0,)
            other.execute("ROLLBACK")
        other.execute("BEGIN IMMEDIATE")  # released at commit
        other.execute("ROLLBACK")
    finally:
        other.close()
        db.dispose()


def test_a_read_does_not_block_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    db = Database(str(path))
    db.upgrade()
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with db.read() as conn:
            conn.execute(text("SELECT count(*) FROM events")).scalar()
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
    finally:
        other.close()
        db.dispose()


def test_migrations_make_exactly_the_schema(database: str) -> None:
    """The Alembic revisions and server/storage/schema.py describe the same tables (both DBs)."""
    db = Database(database)
    db.upgrade()
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
        names = set(inspect(conn).get_table_names())
    db.dispose()
    assert diff == []
    assert set(metadata.tables) <= names
    assert "alembic_version" in names


def test_upgrade_twice_changes_nothing(tmp_path: Path) -> None:
    db = Database(str(tmp_path / "x.db"))
    db.upgrade()
    db.upgrade()
    with db.read() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
    db.dispose()


#: The highest-numbered migration file: where "upgrade head" must end.
HEAD = max(path.stem.split("_")[0] for path in
            (Path(__file__).resolve().parents[2] / "server" / "storage" / "migrations"
             / "versions").glob("0*.py"))


def test_0002_gives_an_existing_session_the_default_conduct(database: str) -> None:
    """A session stored under 0001 keeps its row: no screens, the tabled defaults (both DBs)."""
    db = Database(database)
    db.upgrade("0001")
    with db.write() as conn:
        conn.execute(text(
            "INSERT INTO sessions (id, event, title, movement, scoring, tables, rounds, "
            "boards_per_round, first_board, participants, current_round, created_at) VALUES "
            "(1, 'old', 'Old', 'mitchell', 'mp', 3, 3, 2, 1, 6, 1, 0)"))
    db.upgrade()
    with db.read() as conn:
        row = conn.execute(text("SELECT title, screens, tray_delay, profile FROM sessions"
                                " WHERE event = 'old'")).one()
        conn.execute(text("SELECT count(*) FROM system_cards")).scalar_one()
    db.dispose()
    assert tuple(row) == ("Old", None, DEFAULT_TRAY_DELAY, DEFAULT_PROFILE.name)


def test_0006_keeps_the_results_and_gives_them_no_transfer(database: str) -> None:
    """A result stored before 0006 keeps its row; its revoke transfer is unknown (both DBs)."""
    db = Database(database)
    db.upgrade("0004")
    with db.write() as conn:
        conn.execute(text(
            "INSERT INTO results (event, table_no, board, contract, declarer, tricks, "
            "score_ns, source_seq, finished_at) VALUES ('old', 1, 1, '3NT', 'S', 9, 400, 7, 0)"))
    db.upgrade()
    with db.read() as conn:
        row = conn.execute(text("SELECT tricks, score_ns, transferred FROM results"
                                " WHERE event = 'old'")).one()
    db.dispose()
    assert tuple(row) == (9, 400, None)
