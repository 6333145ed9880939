"""The centre of a simultaneous across clubs (issue 19, docs/scale.md).

Each club's broker is bridged to the centre's (docs/mqtt.md, "Clubs and a centre"): a club's
table ``t`` arrives as ``clubs/<club>/bidbox/v1/<event>/table/<t>/<kind>``. The central
session is a session of sections named after the clubs (server/setup/movements.py), each with the
club's own movement, scored across the field. The central server subscribes to every club's
tables and gives each message the session's number of that club's table
(``Sectioned.table_of``) before the ingest sees it: from there on a club's table is a table
of the field like any other (stored once by (event, table, seq), released once every table of
every club that plays a board has finished it).

The centre sends nothing to the clubs' tables: their own servers run their rounds, and the
bridge carries no command in.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from server.setup.movements import MovementError, Sectioned
from server.setup.session import current
from server.storage.db import Database
from tablemodel.wire import ROOT, TOPIC_KINDS, WireError, parse_topic, table_topic

CLUBS = "clubs"
"""The centre's topics for a club's: ``clubs/<club>/`` before the club's own."""
KINDS = ("events", "status", "state")
"""What crosses the bridge from a club (not its commands, nor its clock)."""
REFRESH = 1.0
"""At most this often the session is read again for a club or table not known yet."""


def club_topic(club: str, topic: str) -> str:
    """A club's own topic as the centre's broker has it."""
    return f"{CLUBS}/{club}/{topic}"


def subscriptions(event: str) -> list[tuple[str, int]]:
    """Every club's tables' events, status and state, at QoS 1."""
    return [(f"{CLUBS}/+/{ROOT}/{event}/table/+/{kind}", 1) for kind in KINDS]


class ClubTables:
    """A club's topic at the centre -> the central session's topic for that table."""

    def __init__(self, db: Database, event: str, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.db = db
        self.event = event
        self.clock = clock
        self._lock = threading.Lock()
        self._plan: Sectioned | None = None
        self._read_at = -REFRESH

    def translate(self, topic: str) -> str:
        """``clubs/<club>/bidbox/v1/<event>/table/<t>/<kind>`` -> ``bidbox/v1/<event>/table/
        <n>/<kind>``, n the central number of the club's table t. A topic of no club, or of
        a club or table the central session does not have, raises WireError with the reason
        (the ingest records the message as rejected; nothing else is lost)."""
        parts = topic.split("/", 2)
        if len(parts) != 3 or parts[0] != CLUBS or not parts[1]:
            raise WireError(f"not a club's topic: {topic!r}")
        club, own = parts[1], parts[2]
        event, table, kind = parse_topic(own)
        if event != self.event:
            raise WireError(f"club {club}: event {event!r} is not the centre's {self.event!r}")
        if kind not in TOPIC_KINDS or kind not in KINDS:
            raise WireError(f"club {club}: {kind!r} does not come to the centre")
        return table_topic(self.event, self._central(club, table), kind)

    def _central(self, club: str, table: int) -> int:
        plan = self._plan
        if plan is not None:
            try:
                return plan.table_of(club, table)
            except MovementError:
                pass
        with self._lock:
            now = self.clock()
            if now - self._read_at >= REFRESH:
                self._read_at = now
                session = current(self.db, self.event)
                found = None if session is None else session.plan
                self._plan = found if isinstance(found, Sectioned) else None
            plan = self._plan
        if plan is None:
            raise WireError(f"club {club}: the centre has no session of clubs' sections for "
                            f"{self.event!r} yet")
        try:
            return plan.table_of(club, table)
        except MovementError as error:
            raise WireError(f"club {club}: {error}") from None
