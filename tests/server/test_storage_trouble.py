"""The reasons a director reads when the database refuses a write (server/link/ingest/trouble.py),
from the errors real databases raise."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from server.link.ingest.trouble import database_away, trouble


def _error_of(url: str, statement: str, *, before: str | None = None) -> DBAPIError:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            if before:
                conn.exec_driver_sql(before)
            with pytest.raises(DBAPIError) as caught:
                conn.execute(text(statement))
                conn.commit()
        return caught.value
    finally:
        engine.dispose()


def test_a_read_only_file_is_read_only(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    error = _error_of(f"sqlite:///file:{path}?mode=ro&uri=true", "INSERT INTO t VALUES (1)")
    assert trouble(error).reason == "read_only" and database_away(error)


def test_a_lock_held_elsewhere_is_locked(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    try:
        error = _error_of(f"sqlite:///{path}", "INSERT INTO t VALUES (1)",
                          before="PRAGMA busy_timeout = 10")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert trouble(error).reason == "locked" and database_away(error)


def test_a_full_disk_and_a_bad_row_are_told_apart() -> None:
    full = OSError(errno.ENOSPC, "No space left on device")
    assert trouble(full).reason == "disk_full" and database_away(full)
    bad = IntegrityError("INSERT", {}, sqlite3.IntegrityError("UNIQUE constraint failed"))
    assert trouble(bad).reason == "error" and not database_away(bad)
    assert not database_away(ValueError("connection to nowhere"))
