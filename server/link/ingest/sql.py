"""Ingest's statements compiled once per dialect and handed to the driver as they are.

SQLAlchemy's ``conn.execute(statement)`` builds the statement object, its cache key and its
parameters through the compiler at every call: 60-150 us each on this machine, where SQLite
takes 10-20 us to run an indexed SELECT. Ingest runs a few such statements for each result,
assignment or answer it projects, and every microsecond of the worker is one the MQTT thread
of the same process waits for (one GIL). A :class:`Prepared` statement is compiled once for
each dialect; each call then only orders its parameters and calls ``exec_driver_sql``.

What is given up: SQLAlchemy's type processing of parameters and rows. The statements here
bind and read only integers, floats, text and NULL, which both drivers take and give as
they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, CursorResult
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.expression import Executable

_NAMED = re.compile(r"%\((\w+)\)s")


class Prepared:
    """One statement, compiled at its first use on each dialect."""

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._compiled: dict[str, tuple[str, tuple[str, ...], dict[str, Any]]] = {}

    def compiled(self, dialect: Dialect) -> tuple[str, tuple[str, ...], dict[str, Any]]:
        """The dialect's SQL with positional parameters, their names in order, and the
        values the statement itself holds (its literals)."""
        found = self._compiled.get(dialect.name)
        if found is None:
            compiled = self.statement.compile(dialect=dialect)  # type: ignore[attr-defined]
            if any(getattr(p, "expanding", False) for p in compiled.binds.values()):
                raise ValueError("an expanding IN cannot be prepared once for every size")
            string, defaults = compiled.string, dict(compiled.params)
            if compiled.positiontup is not None:
                found = (string, tuple(compiled.positiontup), defaults)
            else:  # a named paramstyle (psycopg's %(name)s): made positional
                found = (_NAMED.sub("%s", string), tuple(_NAMED.findall(string)), defaults)
            self._compiled[dialect.name] = found
        return found

    def __call__(self, conn: Connection, **params: Any) -> CursorResult[Any]:
        sql, names, defaults = self.compiled(conn.dialect)
        return conn.exec_driver_sql(sql, tuple(
            params[name] if name in params else defaults[name] for name in names))

    def many(self, conn: Connection, rows: Iterable[Mapping[str, Any]]) -> None:
        """One executemany of ``rows``, each a mapping of the statement's parameters."""
        sql, names, defaults = self.compiled(conn.dialect)
        values = [tuple(row[name] if name in row else defaults[name] for name in names)
                  for row in rows]
        if values:
            conn.exec_driver_sql(sql, values)


def insert_returning(conn: Connection, table: str, columns: Sequence[str],
                     pg_types: Sequence[str], rows: Sequence[Sequence[Any]],
                     conflict: Sequence[str], returning: Sequence[str], *,
                     chunk: int = 500) -> list[Any]:
    """Insert many rows in one statement, those whose ``conflict`` key is taken left out;
    the new ones' ``returning`` columns.

    SQLite (3.35 and later): ``INSERT ... VALUES (?, ...), (?, ...) ON CONFLICT (...) DO
    NOTHING RETURNING ...``, ``chunk`` rows a statement (under its 32,766 parameters).
    PostgreSQL: one array a column, ``INSERT ... SELECT * FROM unnest(%s::type[], ...)``:
    psycopg parses a query's placeholders in Python and caches only short queries, and the
    multi-row VALUES of a batch of 500 events (4,000 placeholders) took it 13 ms to parse at
    every batch, 30 % of ingest on PostgreSQL."""
    tail = (f" ON CONFLICT ({', '.join(conflict)}) DO NOTHING "
            f"RETURNING {', '.join(returning)}")
    if conn.dialect.name == "postgresql":
        arrays = ", ".join(f"%s::{kind}[]" for kind in pg_types)
        sql = f"INSERT INTO {table} ({', '.join(columns)}) SELECT * FROM unnest({arrays})" + tail
        return list(conn.exec_driver_sql(sql, tuple(
            [row[i] for row in rows] for i in range(len(columns)))).all()) if rows else []
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    one = "(" + ", ".join(mark for _ in columns) + ")"
    head = f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
    new: list[Any] = []
    for start in range(0, len(rows), chunk):
        part = rows[start:start + chunk]
        sql = head + ", ".join(one for _ in part) + tail
        flat = tuple(value for row in part for value in row)
        new += conn.exec_driver_sql(sql, flat).all()
    return new


def select_in(conn: Connection, table: str, columns: Sequence[str], key: str, value: Any,
              column: str, among: Sequence[Any]) -> list[Any]:
    """``SELECT columns FROM table WHERE key = value AND column IN (among)``, the IN list
    written out for its size (SQLAlchemy's expanding IN compiles it afresh at each call)."""
    if not among:
        return []
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = (f"SELECT {', '.join(columns)} FROM {table} WHERE {key} = {mark} AND {column} IN ("
           + ", ".join(mark for _ in among) + ")")
    return list(conn.exec_driver_sql(sql, (value, *among)).all())
