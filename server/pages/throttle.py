"""Slowing down whoever guesses the director's password.

Every sign-in attempt is recorded (``sign_ins``: when, from which address, as whom, and how
it ended). Wrong passwords count against two keys: the address they came from and the user
name they tried. A key's first ``FREE`` failures cost nothing; each further one doubles the
wait before that key may try again (1 s, 2 s, 4 s ... up to ``MAX_WAIT``); ``LOCK_AT``
failures within ``WINDOW`` lock the key for ``LOCK``. A success clears its keys. While a
key must wait, an attempt is refused with 429 before its password is looked at, so guessing
on gains nothing and learns nothing, and is recorded as refused.

The per-user lock would let anybody on the club's network lock the director out by typing
wrong passwords under the director's name. It therefore does not hold for the machine
itself (loopback): the director at the server can always sign in. The per-address wait
holds for everybody, loopback included.

Each attempt is counted before its password is looked at (``begin``, then ``finish`` with how
it ended): an attempt being checked counts as a failure until it is known, and ``begin``
reads and writes in one transaction that no other ``begin`` runs beside (SQLite's ``BEGIN
IMMEDIATE``; on PostgreSQL a lock on the table), so thirty attempts sent at once are judged
one after another, not all against the same empty record.

Nothing here sleeps: a request that must wait is answered at once, so a flood of attempts
ties up no web thread. The counts come from the database, so a restart forgets nothing.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Connection, delete, func, insert, select, update

from server.storage import schema as s
from server.storage.db import Database

FREE = 3              # failures of a key before it must wait
MAX_WAIT = 60.0       # the longest wait between two attempts of a key, seconds
LOCK_AT = 10          # failures of a key within WINDOW that lock it
WINDOW = 15 * 60.0    # seconds
LOCK = 15 * 60.0      # seconds a key stays locked after its last failure
KEEP = 7 * 24 * 3600.0  # attempts older than this are forgotten
OK, WRONG, REFUSED = "ok", "wrong", "refused"
CHECKING = "checking"  # counted, its password being looked at: a failure until it is known
_LONGEST = 64         # user names and addresses are cut to the column's width


def wait_after(failures: int) -> float:
    """Seconds a key waits after its ``failures``-th failure in a row (no lock yet)."""
    if failures < FREE:
        return 0.0
    return min(MAX_WAIT, 2.0 ** (failures - FREE))


def is_local(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Verdict:
    """Whether an attempt may go ahead now; if not, for how long it waits and why."""
    wait: float          # seconds until the next attempt is looked at; 0: go ahead
    locked: bool         # the wait is a lock (LOCK_AT failures), not a growing delay

    @property
    def allowed(self) -> bool:
        return self.wait <= 0


@dataclass(frozen=True)
class Failures:
    """Attempts that did not sign anybody in, for the director to see."""
    wrong: int           # wrong passwords
    refused: int         # attempts refused while their key had to wait
    addresses: int       # distinct addresses they came from
    last_at: float | None
    last_address: str | None


def _cut(text: str) -> str:
    return text[:_LONGEST]


class Throttle:
    def __init__(self, db: Database) -> None:
        self.db = db

    def check(self, address: str, username: str, now: float) -> Verdict:
        """May an attempt from ``address`` as ``username`` be looked at at ``now``?"""
        with self.db.read() as conn:
            return self._verdict(conn, address, username, now)

    def _verdict(self, conn: Connection, address: str, username: str, now: float) -> Verdict:
        verdicts = [self._key(conn, s.sign_ins.c.address == _cut(address), now)]
        if not is_local(address):
            verdicts.append(self._key(conn, s.sign_ins.c.username == _cut(username), now))
        return max(verdicts, key=lambda v: (v.wait, v.locked))

    def begin(self, address: str, username: str, now: float) -> tuple[int, Verdict]:
        """Count an attempt, then judge it: its row's id and whether its password may be
        looked at. Recorded as refused when it may not; else as being checked (a failure
        until ``finish`` says how it ended)."""
        with self.db.write() as conn:
            if conn.dialect.name == "postgresql":  # SQLite's BEGIN IMMEDIATE does this
                conn.exec_driver_sql("LOCK TABLE sign_ins IN SHARE ROW EXCLUSIVE MODE")
            verdict = self._verdict(conn, address, username, now)
            attempt = conn.execute(insert(s.sign_ins).values(
                at=now, address=_cut(address), username=_cut(username),
                outcome=CHECKING if verdict.allowed else REFUSED)).inserted_primary_key
            conn.execute(delete(s.sign_ins).where(s.sign_ins.c.at < now - KEEP))
        assert attempt is not None
        return int(attempt[0]), verdict

    def finish(self, attempt: int, outcome: str) -> None:
        """How an attempt ``begin`` let through ended: ``OK`` or ``WRONG``."""
        with self.db.write() as conn:
            conn.execute(update(s.sign_ins).where(s.sign_ins.c.id == attempt).values(
                outcome=outcome))

    @staticmethod
    def _key(conn: Connection, which: ColumnElement[bool], now: float) -> Verdict:
        """The verdict for one key, from its failures since its last success."""
        rows = conn.execute(
            select(s.sign_ins.c.at, s.sign_ins.c.outcome)
            .where(which, s.sign_ins.c.at > now - WINDOW - LOCK,
                   s.sign_ins.c.outcome != REFUSED)
            .order_by(s.sign_ins.c.at.desc(), s.sign_ins.c.id.desc())).all()
        failures: list[float] = []  # newest first
        for at, outcome in rows:
            if outcome == OK:
                break
            failures.append(at)
        if not failures:
            return Verdict(0.0, False)
        last = failures[0]
        if last + LOCK > now and sum(at > last - WINDOW for at in failures) >= LOCK_AT:
            return Verdict(last + LOCK - now, True)  # LOCK_AT failures within a WINDOW
        recent = sum(at > now - WINDOW for at in failures)
        return Verdict(max(0.0, last + wait_after(recent) - now), False)

    def failures_since(self, since: float) -> Failures:
        """Every attempt after ``since`` that signed nobody in, whatever user name it tried."""
        table = s.sign_ins
        failed = table.c.outcome != OK
        with self.db.read() as conn:
            counts = conn.execute(
                select(func.count().filter(table.c.outcome == WRONG),
                       func.count().filter(table.c.outcome == REFUSED),
                       func.count(table.c.address.distinct()))
                .where(failed, table.c.at > since)).one()
            last = conn.execute(
                select(table.c.at, table.c.address).where(failed, table.c.at > since)
                .order_by(table.c.at.desc()).limit(1)).first()
        return Failures(counts[0], counts[1], counts[2],
                        None if last is None else last[0], None if last is None else last[1])

    def last_success(self, username: str, before: float) -> float | None:
        """When ``username`` last signed in before ``before``; None if never (or forgotten)."""
        with self.db.read() as conn:
            at: float | None = conn.execute(
                select(func.max(s.sign_ins.c.at))
                .where(s.sign_ins.c.username == _cut(username),
                       s.sign_ins.c.outcome == OK, s.sign_ins.c.at < before)).scalar()
        return at


