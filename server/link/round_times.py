"""The round clock (docs/console.md): the round's length and warning the director sets, the
clock each round starts with, extensions, and the tables still playing when a round ends.

The server's clock decides: a round's end is stored as a moment of the server's clock when
the director starts the round, and travels to the tables inside the round's ``assign``
command (and, when extended, in the retained ``bidbox/v1/<event>/clock`` message that
``server/link/bus.py`` publishes). Pages get the seconds left from the server, never from the
browser's clock. Every function takes ``now`` (the app's ``CLOCK``) so tests inject time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import insert, select, update

from server.link.tables import table_grid
from server.scoring.standings import all_results
from server.setup.movements import PHANTOM
from server.setup.session import Session, SessionError
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.roundclock import MAX_WARNING, RoundClock

MAX_MINUTES = 300  # a round of five hours is a mistake in the form
MAX_EXTENSION = 60


def server_now() -> float:
    """The server's clock (config ``CLOCK``): what the round clock is measured by."""
    return float(current_app.config["CLOCK"]())


@dataclass(frozen=True)
class Setting:
    """A length (minutes) and a warning (minutes before the end; 0: none)."""

    minutes: int | None
    warning: int


@dataclass(frozen=True)
class Late:
    """Table ``table`` was still playing round ``round`` when it ended: ``finished_at`` when
    it finished its last board (None: still playing); Law 90 material for the director."""

    table: int
    round: int
    boards_left: int
    finished_at: float | None
    minutes: int  # minutes past the end: until it finished, or until now


def check(minutes: int | None, warning: int) -> Setting:
    """A setting the tables can show, or a :class:`SessionError` that says why not."""
    if minutes is not None and not 1 <= minutes <= MAX_MINUTES:
        raise SessionError(f"a round lasts 1 to {MAX_MINUTES} minutes, not {minutes}")
    if not 0 <= warning <= MAX_WARNING:
        raise SessionError(f"the warning is 0 to {MAX_WARNING} minutes before the end, "
                           f"not {warning}")
    if minutes is not None and warning >= minutes:
        raise SessionError(f"a warning {warning} minutes before the end of a "
                           f"{minutes}-minute round would come at its start")
    return Setting(minutes, warning)


def set_session_length(db: Database, session: Session, minutes: int | None,
                       warning: int) -> Setting:
    """Every round's length and warning, unless a round has its own (None: no clock)."""
    setting = check(minutes, warning)
    with db.write() as conn:
        conn.execute(update(s.sessions).where(s.sessions.c.id == session.id).values(
            round_minutes=minutes, warning_minutes=warning))
    return setting


def set_round_length(db: Database, session: Session, number: int, minutes: int,
                     warning: int, *, by: str | None, now: float) -> RoundClock | None:
    """Round ``number``'s own length and warning. A round already started keeps its start:
    its end moves to the start plus the new length (and its extensions)."""
    if not 1 <= number <= session.rounds:
        raise SessionError(f"round {number} is not between 1 and {session.rounds}")
    check(minutes, warning)
    with db.write() as conn:
        row = conn.execute(select(s.round_clocks).where(
            s.round_clocks.c.session_id == session.id,
            s.round_clocks.c.round == number)).first()
        if row is None:
            conn.execute(insert(s.round_clocks).values(
                session_id=session.id, round=number, minutes=minutes, warning=warning,
                extended=0, set_by=by, set_at=now))
        else:
            ends = (None if row.started_at is None
                    else row.started_at + (minutes + row.extended) * 60)
            conn.execute(update(s.round_clocks).where(
                s.round_clocks.c.session_id == session.id,
                s.round_clocks.c.round == number).values(
                minutes=minutes, warning=warning, ends_at=ends, set_by=by, set_at=now))
    return round_clock(db, session, number)


def session_setting(db: Database, session: Session) -> Setting:
    with db.read() as conn:
        row = conn.execute(select(s.sessions.c.round_minutes, s.sessions.c.warning_minutes)
                           .where(s.sessions.c.id == session.id)).one()
    return Setting(row.round_minutes, row.warning_minutes or 0)


def round_setting(db: Database, session: Session, number: int) -> Setting:
    """The length and warning round ``number`` has or will start with."""
    with db.read() as conn:
        row = conn.execute(select(s.round_clocks).where(
            s.round_clocks.c.session_id == session.id,
            s.round_clocks.c.round == number)).first()
    if row is not None and row.minutes is not None:
        return Setting(row.minutes, row.warning or 0)
    return session_setting(db, session)


def start(db: Database, session: Session, number: int, now: float) -> RoundClock | None:
    """Round ``number`` starts now: its clock, if it has a length. Pressing "Start round"
    again (a table refused the round while mid-board) keeps the first start."""
    clock = round_clock(db, session, number)
    if clock is not None:
        return clock
    setting = round_setting(db, session, number)
    if setting.minutes is None:
        return None
    with db.write() as conn:
        values = {"minutes": setting.minutes, "warning": setting.warning, "started_at": now,
                  "ends_at": now + setting.minutes * 60}
        done = conn.execute(update(s.round_clocks).where(
            s.round_clocks.c.session_id == session.id,
            s.round_clocks.c.round == number).values(**values))
        if not done.rowcount:
            conn.execute(insert(s.round_clocks).values(
                session_id=session.id, round=number, extended=0, **values))
    return round_clock(db, session, number)


def extend(db: Database, session: Session, number: int, minutes: int, *, by: str | None,
           now: float) -> RoundClock:
    """Round ``number`` ends ``minutes`` later (Law 8B: the director ends the round).
    A round whose end has passed is extended from its end, not from now."""
    if not 1 <= minutes <= MAX_EXTENSION:
        raise SessionError(f"a round is extended by 1 to {MAX_EXTENSION} minutes, "
                           f"not {minutes}")
    clock = round_clock(db, session, number)
    if clock is None:
        raise SessionError(f"round {number} has no clock running: start it with a length")
    with db.write() as conn:
        conn.execute(update(s.round_clocks).where(
            s.round_clocks.c.session_id == session.id,
            s.round_clocks.c.round == number).values(
            ends_at=s.round_clocks.c.ends_at + minutes * 60,
            extended=s.round_clocks.c.extended + minutes, set_by=by, set_at=now))
    found = round_clock(db, session, number)
    assert found is not None
    return found


def round_clock(db: Database, session: Session, number: int | None = None) -> RoundClock | None:
    """Round ``number``'s clock (the current round's by default), once the round started."""
    number = session.current_round if number is None else number
    with db.read() as conn:
        row = conn.execute(select(s.round_clocks).where(
            s.round_clocks.c.session_id == session.id,
            s.round_clocks.c.round == number)).first()
    if row is None or row.ends_at is None:
        return None
    return RoundClock(number, row.ends_at, row.warning or 0)


def clock_json(clock: RoundClock | None, now: float) -> dict[str, Any] | None:
    """What the API and the pages get: ``left`` in seconds on the server's clock (pages
    count down from it on their own timer, never from the browser's date)."""
    if clock is None:
        return None
    return {"round": clock.round, "ends_at": clock.ends_at, "now": now,
            "left": round(clock.left(now), 1), "minutes_left": clock.minutes_left(now),
            "warning": clock.warning, "stage": clock.stage(now)}


def late_tables(db: Database, session: Session, now: float) -> list[Late]:
    """The tables still playing the current round when its clock ran out, and those that
    finished it after the end: each with the minutes past the end."""
    clock = round_clock(db, session)
    if clock is None or now < clock.ends_at:
        return []
    finished: dict[tuple[int, int], float] = {
        (r.table, r.board): r.finished_at for r in all_results(db, session)}
    rows = {row.table: row for row in table_grid(db, session.event)}
    late = []
    for seating in session.plan.round(clock.round):
        if PHANTOM in (seating.ns, seating.ew) or not seating.boards:
            continue
        times = [finished.get((seating.table, b)) for b in seating.boards]
        left = sum(t is None for t in times)
        row = rows.get(seating.table)
        ended = row is not None and row.round == clock.round and row.phase == "round_end"
        if left == 0 or ended:
            last = max((t for t in times if t is not None), default=clock.ends_at)
            if last > clock.ends_at:
                late.append(Late(seating.table, clock.round, left, last,
                                 int((last - clock.ends_at) // 60)))
        else:
            late.append(Late(seating.table, clock.round, left, None,
                             int((now - clock.ends_at) // 60)))
    return late
