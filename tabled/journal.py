"""The table's journal: a numbered, durable log of accepted events and the MQTT outbox.

Every accepted input is appended here, and committed with ``synchronous=FULL``, before the
table applies it or says anything about it; the table state is the replay of this log
(tablemodel.state). The outbox holds the sequence numbers not yet acknowledged by the broker: a
row goes only when its PUBACK arrives, so a broker or network outage, or a power cut, loses
nothing. Both live in one SQLite file so an event and its outbox row commit together.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from tablemodel.wire import Event, EventType

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq   INTEGER PRIMARY KEY,
    type  TEXT NOT NULL,
    ts    REAL NOT NULL,
    board INTEGER,
    data  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY REFERENCES events(seq));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class JournalError(OSError):
    """The journal cannot be written: the table must refuse new input and say so."""


class JournalFullError(JournalError):
    """No space left for the journal (the SD card is full)."""


class Journal:
    """One table's event log in one SQLite file. Only the table thread writes to it."""

    def __init__(self, path: str | Path, *, identity: Mapping[str, str] | None = None) -> None:
        self.path = str(path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()  # the bench and tests read from other threads
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # a committed event survives power loss
        self._db.executescript(_SCHEMA)
        row = self._db.execute("SELECT max(seq) FROM events").fetchone()
        self._seq: int = row[0] or 0
        if identity:
            try:
                self._check_identity(identity)
            except JournalError:
                self._db.close()
                raise

    def _check_identity(self, identity: Mapping[str, str]) -> None:
        """Refuse to continue another table's or another event's journal."""
        stored = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        for key, value in identity.items():
            if key in stored and stored[key] != value:
                raise JournalError(f"journal {self.path} belongs to {key} {stored[key]!r}, "
                                   f"not {value!r}; move it away to start afresh")
        with self._lock:
            self._db.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", identity.items())

    @property
    def last_seq(self) -> int:
        return self._seq

    def append(self, type: str, board: int | None, data: Mapping[str, Any],
               ts: float) -> Event:
        """Append one event and its outbox row in one durable transaction."""
        seq = self._seq + 1
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                                 (seq, type, ts, board, text))
                self._db.execute("INSERT INTO outbox VALUES (?)", (seq,))
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(error, sqlite3.OperationalError) and "full" in str(error):
                    raise JournalFullError(f"journal {self.path}: {error}") from error
                raise JournalError(f"journal {self.path}: {error}") from error
        self._seq = seq
        return Event(seq, EventType(type), ts, board, data)

    def events(self, since: int = 0, until: int | None = None) -> Iterator[Event]:
        """The events with ``since < seq <= until``, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, type, ts, board, data FROM events WHERE seq > ? AND seq <= ? "
                "ORDER BY seq", (since, self._seq if until is None else until)).fetchall()
        for seq, kind, ts, board, data in rows:
            yield Event(seq, EventType(kind), ts, board, json.loads(data))

    def unacknowledged(self) -> list[Event]:
        """The outbox: events the broker has not acknowledged, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT e.seq, e.type, e.ts, e.board, e.data FROM outbox o "
                "JOIN events e ON e.seq = o.seq ORDER BY o.seq").fetchall()
        return [Event(seq, EventType(kind), ts, board, json.loads(data))
                for seq, kind, ts, board, data in rows]

    def acknowledge(self, seqs: list[int]) -> None:
        """The broker has these events: drop them from the outbox."""
        if not seqs:
            return
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany("DELETE FROM outbox WHERE seq = ?", [(s,) for s in seqs])
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                # Harmless: the rows stay and those events go out again after a restart.
                raise JournalError(f"journal {self.path}: {error}") from error

    def outbox_size(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM outbox").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
