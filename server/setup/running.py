"""The session the server runs, and the sessions it ran before (docs/director.en.md).

A club provisions its broker and tables once. Each session is created in the console and has
its own event name, the level of the MQTT topics below ``bidbox/v1/`` (the broker's ACL names
no session: docs/broker.md). The server runs one session at a time: the one the director
created or chose last (``sessions.selected_at``). It tells the tables which one on the
retained ``bidbox/v1/session`` (tablemodel.running; server/link/bus.py ``publish_session``), and the
tables follow it. The sessions before stay in the database as they were: the console lists
them with their exports, and any of them can be made the running one again.

A new session's event name is the server's name (``--event``, ``BIDBOX_EVENT``) while no
session has it, then that name with the day's date, ``club-2026-11-28``, and ``-2``, ``-3``
for a second and third session the same day; or the name the director types.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update

from server.setup.session import Session, SessionError, check_vugraph, current
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.running import RunningSession, check_event


def _chosen() -> tuple[Any, ...]:
    """The running session first: the one chosen last (created, or made running again)."""
    return (func.coalesce(s.sessions.c.selected_at, s.sessions.c.created_at).desc(),
            s.sessions.c.id.desc())


def running_event(db: Database) -> str | None:
    """The event name of the session the server runs; None before the first is created."""
    with db.read() as conn:
        found: str | None = conn.execute(select(s.sessions.c.event).order_by(
            *_chosen()).limit(1)).scalar()
    return found


def announcement(session: Session) -> RunningSession:
    """What the server tells the tables of the session it runs."""
    return RunningSession(session.event, session.title)


def new_event_name(db: Database, base: str, *, typed: str = "",
                   today: Callable[[], datetime.date] = datetime.date.today) -> str:
    """The event name of a session about to be created: ``typed`` if the director gave one
    (refused if taken or unusable), else ``base`` while free, else ``base-<date>``, then
    ``-2``, ``-3``... A name never changes once a session has it."""
    with db.read() as conn:
        taken = set(conn.execute(select(s.sessions.c.event)).scalars())
    if typed:
        try:
            check_event(typed)
        except ValueError as error:
            raise SessionError(str(error)) from None
        if typed in taken:
            raise SessionError(f"a session is named {typed!r} already; choose another name")
        return typed
    if base not in taken:
        return base
    dated = f"{base}-{today().isoformat()}"
    name, count = dated, 1
    while name in taken:
        count += 1
        name = f"{dated}-{count}"
    return check_event(name[:64])


@dataclass(frozen=True)
class SessionSummary:
    """One line of the console's list of sessions."""

    id: int
    event: str
    title: str
    movement: str
    tables: int
    rounds: int
    current_round: int
    created_at: float
    results: int
    running: bool


def sessions(db: Database) -> list[SessionSummary]:
    """Every session of the database, the running one first, then the newest."""
    with db.read() as conn:
        rows = conn.execute(select(s.sessions).order_by(*_chosen())).all()
        counts: dict[str, int] = {row.event: row.results for row in conn.execute(select(
            s.results.c.event, func.count().label("results")).group_by(s.results.c.event))}
    return [SessionSummary(row.id, row.event, row.title, row.movement, row.tables, row.rounds,
                           row.current_round, row.created_at, counts.get(row.event, 0),
                           index == 0)
            for index, row in enumerate(rows)]


def session_by_id(db: Database, ident: int) -> Session | None:
    with db.read() as conn:
        event = conn.execute(select(s.sessions.c.event).where(
            s.sessions.c.id == ident)).scalar()
    return None if event is None else current(db, event)


def run_session(db: Database, ident: int, *,
                clock: Callable[[], float] = time.time) -> Session:
    """Make session ``ident`` the one the server runs again: its tables follow it back."""
    with db.write() as conn:
        done = conn.execute(update(s.sessions).where(s.sessions.c.id == ident).values(
            selected_at=clock())).rowcount
    found = session_by_id(db, ident) if done else None
    if found is None:
        raise SessionError(f"there is no session {ident}")
    return found


def set_vugraph(db: Database, session: Session, mode: str) -> Session:
    """What the public vugraph shows of ``session`` from now on (session.VUGRAPH_MODES)."""
    check_vugraph(mode, session.movement)
    with db.write() as conn:
        conn.execute(update(s.sessions).where(s.sessions.c.id == session.id).values(
            vugraph=mode))
    found = current(db, session.event)
    assert found is not None
    return found
