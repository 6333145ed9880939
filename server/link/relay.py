"""The live hub across processes, over PostgreSQL's LISTEN/NOTIFY.

Ingest workers sharing one event's stream (an MQTT v5 shared subscription) each store a part
of it, but a page is served by one process, whose hub would hear only what that process
stored. So every process sends each change its hub makes to the others with ``pg_notify``,
and listens for theirs:

- One channel per event: ``bidbox_live_`` and a hash of the event, since any text may name an
  event and a channel is an identifier of at most 63 bytes. The payload is compact JSON,
  ``{"origin": ..., "kinds": [...], "tables": [...] or null}``, under PostgreSQL's limit of
  8,000 bytes; a process ignores its own origin, its hub having recorded the change already.
- A sender thread on a connection of its own sends what the hub forwards, so a batch of ingest
  never waits for the database to take a NOTIFY. Changes queued while it sends, or while the
  database is away, merge into one; after an error it connects again and sends it still.
- A listener thread on another autocommit connection waits on that connection's socket. When
  the connection drops it connects again after a growing pause; not knowing what was said in
  between, its hub then records that everything changed (every kind, every table), so each
  open page fetches all it shows.
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import selectors
import socket
import threading
import uuid
from typing import NamedTuple

import psycopg
from psycopg.conninfo import make_conninfo
from psycopg.rows import TupleRow

from server.link.live import KINDS, MAX_TABLES, Hub

log = logging.getLogger(__name__)

NOTIFY_LIMIT = 8000
"""Bytes: PostgreSQL refuses a NOTIFY payload this long or longer."""
BACKOFF = (0.1, 5.0)
"""Seconds before the first attempt to connect again, and the most it grows to."""
CONNECT_TIMEOUT = 3
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5,
              "keepalives_count": 3}
"""A listener only reads: without TCP keepalives a link that died without a word (a cable,
a suspended laptop) would keep it waiting for ever instead of connecting again."""

Connection = psycopg.Connection[TupleRow]


class Relayed(NamedTuple):
    """A hub's change as it travels: ``tables`` only with the ``tables`` kind (None: all)."""

    kinds: frozenset[str]
    tables: frozenset[int] | None

    @classmethod
    def of(cls, kinds: frozenset[str], tables: frozenset[int] | None) -> Relayed:
        return cls(kinds, tables if "tables" in kinds else None)

    def merge(self, later: Relayed) -> Relayed:
        """One change saying what both say, as a hub's waiter would merge them."""
        if "tables" not in self.kinds:
            rows = later.tables
        elif "tables" not in later.kinds:
            rows = self.tables
        elif self.tables is None or later.tables is None:
            rows = None
        else:
            rows = self.tables | later.tables
        return Relayed(self.kinds | later.kinds, rows)


EVERYTHING = Relayed(KINDS, None)


def channel(event: str) -> str:
    return "bidbox_live_" + hashlib.sha256(event.encode()).hexdigest()[:16]


def encode(origin: str, change: Relayed) -> str:
    """The NOTIFY payload: past ``MAX_TABLES`` tables, or past the size PostgreSQL takes, the
    tables become null (all of them), as in the pages' own messages."""
    tables = change.tables
    if tables is not None and len(tables) > MAX_TABLES:
        tables = None
    text = _dump(origin, Relayed(change.kinds, tables))
    if len(text.encode()) >= NOTIFY_LIMIT:
        text = _dump(origin, Relayed(change.kinds, None))
    if len(text.encode()) >= NOTIFY_LIMIT:  # kinds no page streams, by the hundred
        text = _dump(origin, EVERYTHING)
    return text


def _dump(origin: str, change: Relayed) -> str:
    tables = None if change.tables is None else sorted(change.tables)
    return json.dumps({"origin": origin, "kinds": sorted(change.kinds), "tables": tables},
                      separators=(",", ":"))


def decode(payload: str) -> tuple[str, Relayed]:
    """The origin and the change of a payload; ValueError if it is not one."""
    try:
        found = json.loads(payload)
        origin, kinds, tables = found["origin"], found["kinds"], found["tables"]
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"not a relayed change: {payload[:80]!r}") from error
    if not (isinstance(origin, str) and _list_of(kinds, str)
            and (tables is None or _list_of(tables, int))):
        raise ValueError(f"not a relayed change: {payload[:80]!r}")
    return origin, Relayed.of(frozenset(kinds), None if tables is None else frozenset(tables))


def _list_of(value: object, kind: type) -> bool:
    return isinstance(value, list) and all(type(item) is kind for item in value)  # no bools


class Relay:
    """Tells other processes on the database what ``hub`` changes, and ``hub`` what they do.
    ``send`` is the hub's ``forward``."""

    def __init__(self, hub: Hub, conninfo: str, event: str, *,
                 backoff: tuple[float, float] = BACKOFF) -> None:
        self.hub = hub
        self.conninfo = make_conninfo(conninfo, connect_timeout=CONNECT_TIMEOUT,
                                      application_name="bidbox live relay", **KEEPALIVES)
        self.channel = channel(event)
        self.origin = uuid.uuid4().hex
        self.backoff = backoff
        self.listening = threading.Event()
        self.listener_pid: int | None = None  # the backends, for a test to cut
        self.sender_pid: int | None = None
        self.sent = 0
        self.heard = 0
        self._outbox: queue.SimpleQueue[Relayed | None] = queue.SimpleQueue()  # None: stop
        self._stopping = threading.Event()
        # The listener waits on its connection's socket and on this one, which stop() writes.
        self._wake_r, self._wake_w = socket.socketpair()
        self._threads: list[threading.Thread] = []

    def start(self, timeout: float = 5.0) -> None:
        """Start both threads and wait for the first LISTEN: a page served before it would
        not hear what the other processes stored meanwhile."""
        for target, name in ((self._listen, "live-relay-listen"),
                             (self._send, "live-relay-send")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        if not self.listening.wait(timeout):
            log.warning("live relay: not listening yet; the live pages will hear the other "
                        "processes once it connects")

    def stop(self, timeout: float = 5.0) -> None:
        """Send what is queued (one try) and stop both threads; a second call does nothing."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        self._outbox.put(None)
        self._wake_w.send(b"\0")
        for thread in self._threads:
            thread.join(timeout)
        self._wake_r.close()
        self._wake_w.close()

    def send(self, kinds: frozenset[str], tables: frozenset[int] | None) -> None:
        """Queue a change made here for the other processes; never blocks."""
        self._outbox.put(Relayed.of(kinds, tables))

    def _connect(self) -> Connection:
        return psycopg.connect(self.conninfo, autocommit=True)

    # -- sending -------------------------------------------------------------------------------

    def _send(self) -> None:
        """The sender thread: each change, merged with those queued behind it, sent until it
        is sent. Only a lost connection is tried again; a change the database refuses for
        any other reason would be refused for ever, so it is logged and dropped."""
        conn: Connection | None = None
        pending: Relayed | None = None
        stopping = False
        delay = self.backoff[0]
        while pending is not None or not stopping:
            pending, stopping = self._gather(pending, stopping)
            if pending is None:
                continue
            try:
                if conn is None:
                    conn = self._connect()
                    self.sender_pid = conn.info.backend_pid
                conn.execute("SELECT pg_notify(%s, %s)",
                             (self.channel, encode(self.origin, pending)))
                pending, delay = None, self.backoff[0]
                self.sent += 1
            except psycopg.OperationalError as error:
                log.warning("live relay: could not send a change (%s); again in %.1f s",
                            _first_line(error), delay)
                _close(conn)
                conn = None
                if stopping:
                    break
                self._stopping.wait(delay)
                delay = min(2 * delay, self.backoff[1])
            except psycopg.Error:
                log.exception("live relay: the database refused a change; dropped")
                pending = None
        _close(conn)

    def _gather(self, pending: Relayed | None, stopping: bool) -> tuple[Relayed | None, bool]:
        """``pending`` merged with every change queued; waits for one when there is none."""
        if pending is None and not stopping:
            first = self._outbox.get()
            if first is None:
                return None, True
            pending = first
        while True:
            try:
                change = self._outbox.get_nowait()
            except queue.Empty:
                return pending, stopping
            if change is None:
                stopping = True
            else:
                pending = change if pending is None else pending.merge(change)

    # -- listening -----------------------------------------------------------------------------

    def _listen(self) -> None:
        """The listener thread: LISTEN, hand each change heard to the hub; when the connection
        drops, connect again, and tell the hub everything changed meanwhile."""
        missed = False
        delay = self.backoff[0]
        while not self._stopping.is_set():
            try:
                with self._connect() as conn:
                    conn.execute(f"LISTEN {self.channel}")
                    self.listener_pid = conn.info.backend_pid
                    if missed:
                        self.hub.record(EVERYTHING.kinds, EVERYTHING.tables)
                        log.info("live relay: listening again; the live pages fetch all")
                    missed, delay = False, self.backoff[0]
                    self.listening.set()
                    self._receive(conn)
            except psycopg.Error as error:
                self.listening.clear()
                missed = True
                log.warning("live relay: not listening (%s); again in %.1f s",
                            _first_line(error), delay)
                self._stopping.wait(delay)
                delay = min(2 * delay, self.backoff[1])

    def _receive(self, conn: Connection) -> None:
        """Until the relay stops: wait for the socket, then take what libpq read (a closed
        connection raises here, on the read after the server's goodbye)."""
        with selectors.DefaultSelector() as selector:
            selector.register(conn.fileno(), selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while not self._stopping.is_set():
                for note in conn.notifies(timeout=0):
                    self._heard(note.payload)
                selector.select()

    def _heard(self, payload: str) -> None:
        try:
            origin, change = decode(payload)
        except ValueError as error:
            log.warning("live relay: %s; the live pages fetch all", error)
            origin, change = "", EVERYTHING  # something changed, and we cannot say what
        if origin != self.origin:
            self.heard += 1
            self.hub.record(change.kinds, change.tables)


def _close(conn: Connection | None) -> None:
    if conn is not None:
        try:
            conn.close()
        except psycopg.Error:
            pass  # already broken: nothing to release


def _first_line(error: Exception) -> str:
    return str(error).strip().split("\n", 1)[0]
