"""The server's MQTT side: the ingest worker and the command outbox.

paho-mqtt 2, MQTT v5, QoS 1, a persistent session (``clean_start`` false with a session expiry)
and manual acknowledgement: a message is acknowledged to the broker only after the transaction
that stored it commits, so nothing is lost while the server restarts; the broker redelivers
what was not acknowledged, and ingest stores each event once.

One thread does it all: a ``mqttlink.NetworkLoop`` of the Bus's own reads the socket (paho's
callbacks only put what came on the inbox) and, between its reads, stores a batch once one is
due (``BATCH`` messages, or ``LINGER`` after the first), acknowledges it, publishes the commands
ingest asks for (resend) and those the console queued in ``commands``.

Why not a network thread and a worker thread, as it was: both are Python, so they take turns
at the GIL, and every ``recv``, ``epoll`` and SQLite call of either hands it to the other.
Under load each hand-over waits for the kernel to run the other thread: on the ingest bench
at load 10 the two threads used 1.55 s of CPU for 10,000 events and took 3.7 s to store them,
a single-threaded bare subscriber 0.6 s and 1.4 s. On one thread there is nothing to hand
over. What it costs: while a batch is stored the socket is not read (the broker holds what
comes, up to ``WINDOW``), and a batch that waits on the database holds the keepalive too (the
database's busy timeout, 10 s, is below the broker's 1.5 x ``keepalive``).

A batch the database refuses (its disk full, locked past the busy timeout, read-only, a
PostgreSQL server restarting or out of reach) is not dropped: the Bus holds it and tries it
again after a growing pause (``RETRY``), while it keeps reading the socket and answering the
broker's pings. The broker resends what was not acknowledged only when the connection starts
again, so waiting for it would store nothing until a restart. While it holds one, ``fault``
says why and since when (the console's status line, the log), and the first batch stored
afterwards ends it: what waited is stored, and what came meanwhile follows, nothing lost.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from sqlalchemy import select, update
from sqlalchemy.exc import DBAPIError

from mqttlink import BrokerSettings, NetworkLoop, close_sockets, connect_persistent, mqtt_client
from server.link import round_times as roundclock
from server.link.centre import ClubTables
from server.link.centre import subscriptions as centre_subscriptions
from server.link.ingest import Ingest, Outcome
from server.link.ingest.trouble import StorageFault, database_away, trouble
from server.link.live import Hub
from server.setup.running import announcement, running_event
from server.setup.session import current
from server.storage import schema as s
from tablemodel.roundclock import RoundClock
from tablemodel.running import SESSION_TOPIC, RunningSession
from tablemodel.wire import (
    ROOT,
    Command,
    WireError,
    afterboard_topic,
    clock_payload,
    clock_topic,
    table_topic,
)

log = logging.getLogger(__name__)

SESSION_EXPIRY = 24 * 3600
"""Seconds the broker keeps our subscriptions and queued messages while the server is away."""
BATCH = 500
WINDOW = 2 * BATCH
"""Messages the broker may send before the worker has acknowledged them (MQTT v5 Receive
Maximum). The worker acknowledges a batch once it is stored: with Mosquitto's default of 20
it could never store more than 20 a transaction, however far behind it was (the load test at
200 tables: key press to stored p50 0.56 s with the server at 29 % of a core). Twice a batch
lets the next one arrive while one is stored."""
LINGER = 0.02
"""Seconds the worker waits after a message for more to join its batch. Under load, one
transaction (and one wake-up of the live pages) for a few messages costs less than one each;
alone, a message waits this long at most (see ``FLOWING`` for a stream)."""

FLOWING = 1
"""While a stream keeps coming, a batch may wait up to this many ``LINGER`` to fill. One: a
batch does not wait for a stream past its first linger, since what comes while one batch is
stored makes the next one (the socket is not read meanwhile) and a full backlog fills
``BATCH`` at once. At 5 (up to 100 ms a batch) a replay of 2,000 tables at a club's pace
stored with p50 188 ms from the broker, at 1, 81 ms (docs/loadtest.md, issue 29)."""
RETRY = (0.25, 5.0)
"""Seconds before a batch the database refused is tried again: the first pause, doubled at
each refusal up to the second. Once the disk has room again (or the database is back), what
waited is stored within the longer pause."""
SAY_AGAIN = 60.0
"""Seconds between two log lines about the same refusal, while it lasts."""


@dataclass
class _Connected:
    ok: bool
    detail: str
    said: bool = False


@dataclass(frozen=True)
class _Published:
    command_id: str


class _Wake:
    pass


@dataclass(frozen=True)
class _AfterBoard:
    """Each table's after-board message, made by ``Services._watch_after_board``."""

    payloads: dict[int, bytes]


class _StoredButAfter(Exception):
    """A batch was stored and acknowledged, but what follows (commands, the pages' wake-up)
    failed: only that is tried again."""


def _nothing() -> None:
    pass


class Inbox:
    """What paho's callbacks (and the console's ``wake``) hand the Bus's thread, taken by the
    batch: a put is a deque append (a ``queue.Queue`` takes a lock and notifies at every put
    and get), and the lock is taken only while someone waits for the inbox to hold so many
    (``wait_size``, for the tests)."""

    def __init__(self) -> None:
        self._items: deque[Any] = deque()
        self._changed = threading.Condition(threading.Lock())
        self._want = 0  # the size the waiting side wants; 0: nobody waits

    def put(self, item: Any) -> None:
        self._items.append(item)
        # _want is set under the lock before the waiting side looks at the deque, so an
        # append it did not see finds _want set here and notifies.
        if self._want and len(self._items) >= self._want:
            with self._changed:
                self._changed.notify_all()

    def __len__(self) -> int:
        return len(self._items)

    def wait_size(self, size: int, timeout: float | None = None) -> bool:
        """Wait until at least ``size`` items are waiting; False at ``timeout``."""
        with self._changed:
            self._want = size
            try:
                return self._changed.wait_for(lambda: len(self._items) >= size, timeout)
            finally:
                self._want = 0

    def take_now(self, most: int) -> list[Any]:
        """What is waiting, at most ``most``, oldest first."""
        return [self._items.popleft() for _ in range(min(most, len(self._items)))]


_settled = threading.Lock()
_SETTLED: list[bool] = []


def settle_heap() -> None:
    """Once a process: collect, then move every object the process holds so far (the app,
    its modules, the session's settings) out of the cyclic collector's reach (``gc.freeze``).

    Each message makes short-lived objects (paho's message and its MQTT v5 properties, the
    event, its outcome), and every so many collections of the young ones Python walks the
    whole heap. On the ingest bench that was 9 full collections of about 115 ms each while
    10,000 events were stored: 1.05 s of the Bus's 2.5 s. Frozen objects are still freed
    when nothing refers to them; only a cycle among them that becomes garbage later stays."""
    with _settled:
        if _SETTLED:
            return
        gc.collect()
        gc.freeze()
        _SETTLED.append(True)


def split_tables(tables: Iterable[int], workers: int) -> list[list[int]]:
    """``tables`` dealt to ``workers`` ingest workers in turn (1, 3, 5... and 2, 4, 6...), so
    that tables playing at the same pace spread evenly."""
    if workers < 1:
        raise ValueError("at least one worker")
    ordered = sorted(set(tables))
    return [ordered[k::workers] for k in range(workers)]


SUBSCRIBE_BYTES = 4096
"""The most topic filters' bytes one SUBSCRIBE packet carries: well under the broker's
largest packet (``bidbox.broker.MAX_PACKET``), whatever the event's name."""


def subscription_packets(topics: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """``topics`` in SUBSCRIBE packets of at most ``SUBSCRIBE_BYTES`` of filters each (each
    filter costs its UTF-8 bytes, two of length and one of options)."""
    packets: list[list[tuple[str, int]]] = []
    size = SUBSCRIBE_BYTES
    for topic, qos in topics:
        cost = len(topic.encode()) + 3
        if size + cost > SUBSCRIBE_BYTES:
            packets.append([])
            size = 0
        packets[-1].append((topic, qos))
        size += cost
    return packets


def changed_tables(outcomes: list[Outcome]) -> set[int] | None:
    """The tables whose rows in the console's grid a batch changed: a message changes only
    its own table's row (its status, its stored events and the calls among them). None if
    one changed the grid without naming its table, so the pages fetch the whole grid."""
    tables: set[int] = set()
    for outcome in outcomes:
        if "tables" in outcome.changed:
            if outcome.table is None:
                return None
            tables.add(outcome.table)
    return tables


class Bus:
    """Subscribes to every table of one event; stores, acknowledges, sends commands."""

    def __init__(self, ingest: Ingest, hub: Hub, settings: BrokerSettings, *,
                 client_id: str | None = None, shared_group: str | None = None,
                 tables: Iterable[int] | None = None,
                 clock: Callable[[], float] = time.time, linger: float = LINGER,
                 centre: ClubTables | None = None) -> None:
        """``tables``: subscribe to these tables' topics only, for a worker that shares the
        event with others, each given its own tables (:func:`split_tables`): every table's
        stream then reaches one worker, whole and in order. ``shared_group`` shares one
        subscription among workers instead (MQTT v5 ``$share``): the broker deals each
        message to any of them, so each sees parts of every table's stream. ``centre``: this
        is a centre's server (server/link/centre.py): it reads every club's tables through the
        bridges, each as its section's table, and sends them nothing."""
        # A worker on a shared subscription runs its own ingest, with the grace before a gap
        # is asked for: another worker holds part of each table's stream.
        self.ingest = ingest.sharing_the_stream() if shared_group else ingest
        self.db = ingest.db
        self.event = ingest.event
        self.hub = hub
        self.clock = clock
        self.linger = linger
        self.inbox = Inbox()
        self.connected = threading.Event()
        self.subscribed = threading.Event()  # the broker granted the subscriptions
        self._subscribing: set[int] = set()  # SUBSCRIBE packets not yet granted
        self.stored = 0
        self.batches = 0
        if shared_group and tables is not None:
            raise ValueError("a worker has its own tables or a shared subscription, not both")
        # MQTT v5 shared subscription: several ingest workers split one stream.
        prefix = f"$share/{shared_group}/" if shared_group else ""
        numbers = ["+"] if tables is None else [str(n) for n in sorted(set(tables))]
        if not numbers:
            raise ValueError("a worker with no table")
        self.topics = [(f"{prefix}{ROOT}/{self.event}/table/{n}/{kind}", 1)
                       for n in numbers for kind in ("events", "status", "state")]
        self.centre = centre
        if centre is not None:
            if tables is not None:
                raise ValueError("a centre reads every club's tables: no worker's own tables")
            self.topics = [(f"{prefix}{topic}", qos)
                           for topic, qos in centre_subscriptions(self.event)]
        self.client_id = client_id or f"bidbox-server-{self.event}"
        self.client = mqtt_client(settings, self.client_id, manual_ack=True, read_ahead=True)
        self.client.max_inflight_messages_set(200)
        self.client.max_queued_messages_set(0)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        self.client.on_subscribe = self._on_subscribe
        self.settings = settings
        self._pending: dict[int, str] = {}  # mid -> command id, until PUBACK
        self._clock_sent: RoundClock | None = None  # the retained round clock last published
        self._session_sent: RunningSession | None = None  # the running session last told
        self._after_sent: dict[int, bytes] = {}  # table -> its after-board message last sent
        self._after_made: dict[int, bytes] = {}  # table -> the newest made (server/link/afterboard)
        self._lock = threading.Lock()
        self._network: NetworkLoop | None = None
        self._first: float | None = None  # when the oldest item of the inbox came
        self._seen = 0  # the inbox's size at the end of the last turn
        self._held: list[Any] = []  # a batch the database refused, to try again
        self._retry_at = 0.0  # time.monotonic() when it is tried again
        self._pause = RETRY[0]
        self._said_at = 0.0  # when the log last told of the refusal
        self._connected_at = 0.0  # paho's clock at the last CONNACK: older messages' ids
        #: Why results are not being stored right now, and since when; None while they are.
        self.fault: StorageFault | None = None

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> None:
        settle_heap()
        connect_persistent(self.client, self.settings, SESSION_EXPIRY, receive_maximum=WINDOW)
        self._network = NetworkLoop(name=f"ingest-{self.client_id}", turn=self._turn).start()
        self._network.add(self.client)

    def stop(self, timeout: float = 5.0) -> None:
        """Disconnect and end the thread; what was not stored stays unacknowledged at the
        broker, which sends it again to the next worker of this session."""
        self.client.disconnect()
        if self._network is not None:
            self._network.remove(self.client, timeout)
            self._network.close(timeout)
        close_sockets(self.client)

    def hand_afterboard(self, payloads: dict[int, bytes]) -> None:
        """Each table's after-board message (server/link/afterboard.py), made on another thread:
        this one publishes it, between its reads."""
        self.inbox.put(_AfterBoard(payloads))
        if self._network is not None:
            self._network.call(_nothing)

    def wake(self) -> None:
        """New commands are waiting in the outbox (called by the console)."""
        self.inbox.put(_Wake())
        if self._network is not None:
            self._network.call(_nothing)  # the loop's wait ends: its turn sees the inbox

    # -- the thread's work between reads ---------------------------------------------------

    def _turn(self) -> float | None:
        """Called by the network loop after each of its turns: store a batch if one is due
        (``BATCH`` items, or ``linger`` seconds since the oldest came, or a refused batch's
        pause over); how long the loop may wait for the socket before the next one is due."""
        now = time.monotonic()
        if self._held:
            if now < self._retry_at:
                return self._retry_at - now
            items, self._held = self._held, []
        else:
            waiting = len(self.inbox)
            flowing, self._seen = waiting > self._seen, waiting
            if not waiting:
                self._first = None
                return None
            if self._first is None:
                self._first = now
            age = now - self._first
            # While messages keep coming (this turn read some), the batch grows to BATCH, for
            # at most FLOWING lingers: under a stream one transaction and one status write
            # serve as many as it can. Once the stream pauses, it waits ``linger`` at most.
            if age < self.linger and waiting < BATCH:
                return self._first + self.linger - now
            if flowing and age < FLOWING * self.linger and waiting < BATCH:
                return self.linger  # the next read, or a pause of a linger: then it is stored
            items = self.inbox.take_now(BATCH)
            self._seen = len(self.inbox)
            self._first = now if self._seen else None
        try:
            self._handle(items)
        except _StoredButAfter as error:
            self._refused([_Wake()], error.__cause__ or error)
        except Exception as error:
            self._refused(items, error)
        else:
            self._stored_again()
        if self._held:
            return max(0.0, self._retry_at - time.monotonic())
        return 0.0 if len(self.inbox) >= BATCH else self.linger if len(self.inbox) else None

    def _refused(self, items: list[Any], error: BaseException) -> None:
        """The database refused the batch: hold it, and try it again after a pause that grows
        with each refusal. Said in ``fault`` and the log: at once, when the reason changes,
        and once a minute while it lasts."""
        now = time.monotonic()
        previous = self.fault
        self._held = items
        self._pause = RETRY[0] if previous is None else min(RETRY[1], self._pause * 2)
        self._retry_at = now + self._pause
        found = trouble(error)
        waiting = sum(isinstance(i, mqtt.MQTTMessage) for i in items)
        self.fault = StorageFault(found.reason, found.detail,
                                  self.clock() if previous is None else previous.since,
                                  1 if previous is None else previous.tries + 1, waiting)
        news = previous is None or previous.reason != found.reason
        if news:
            self.hub.notify({"status"}, tables=frozenset())  # the console's status line
        if news or now - self._said_at >= SAY_AGAIN:
            self._said_at = now
            log.error("results not being stored: %s (%s); %d messages wait, unacknowledged; "
                      "trying again every %.0f s at most", found.reason, found.detail, waiting,
                      RETRY[1], exc_info=previous is None and not isinstance(error, DBAPIError))

    def _stored_again(self) -> None:
        if self.fault is None:
            return
        fault, self.fault = self.fault, None
        log.warning("results stored again, after %.0f s and %d refused tries (%s)",
                    self.clock() - fault.since, fault.tries, fault.reason)
        self.hub.notify({"status"}, tables=frozenset())

    def _handle(self, items: list[Any]) -> None:
        """Store a batch and acknowledge it; then what follows (commands, the pages). Raises
        if the database refused it, before anything is acknowledged, so that it can be held
        and tried again; ``_StoredButAfter`` if only what follows the store failed."""
        messages = [i for i in items if isinstance(i, mqtt.MQTTMessage)]
        send = any(isinstance(i, _Wake) for i in items)
        made = [i for i in items if isinstance(i, _AfterBoard)]
        if made:
            self._after_made = made[-1].payloads
        for item in items:
            if isinstance(item, _Connected):
                if item.ok:
                    send = True
                    # A broker without its persistence lost them.
                    self._clock_sent, self._session_sent = None, None
                    self._after_sent = {}
                if not item.said:
                    item.said = True  # a batch tried again does not say it twice
                    log.info("broker: %s", item.detail)
            elif isinstance(item, _Published):
                self._mark_sent(item.command_id)
        if messages:
            outcomes = self._store([(m.topic, bytes(m.payload)) for m in messages])
            for message in messages:  # stored (or rejected for good): the broker may forget
                # Only on the connection that delivered it: after a reconnection the broker
                # sends it again, and its old packet id may name another message by now.
                if message.qos > 0 and message.timestamp >= self._connected_at:
                    self.client.ack(message.mid, message.qos)
        try:
            if messages:
                self._after(outcomes)
            if send:
                self.publish_session()
                self.send_pending()
                self.publish_clock()
            if send or made:
                self.publish_afterboard()
        except Exception as error:
            raise _StoredButAfter() from error

    def _store(self, pairs: list[tuple[str, bytes]]) -> list[Outcome]:
        """The batch in one transaction; if it fails for something other than the database
        being away, each message alone, and one that can never be stored is recorded as
        rejected. A message left unacknowledged would come back first at every restart and
        hold the broker's window for everyone else."""
        if self.centre is not None:
            pairs, refused = self._from_clubs(pairs)
        else:
            refused = []
        try:
            return refused + self.ingest.many(pairs)
        except Exception as error:
            if database_away(error):
                raise  # nothing is acknowledged: the batch is held and tried again
            log.exception("a batch of %d failed; storing its messages one by one", len(pairs))
        outcomes: list[Outcome] = list(refused)
        for topic, payload in pairs:
            try:
                outcomes += self.ingest.many([(topic, payload)])
            except Exception as error:
                if database_away(error):
                    raise
                reason = f"cannot be stored: {type(error).__name__}: {error}"[:300]
                outcomes.append(self.ingest.reject(topic, payload, reason))
        return outcomes

    def _from_clubs(self, pairs: list[tuple[str, bytes]]
                    ) -> tuple[list[tuple[str, bytes]], list[Outcome]]:
        """A centre's batch: each club's topic as its section's table's; one of no club or
        table of the central session is recorded as rejected with the reason."""
        assert self.centre is not None
        kept: list[tuple[str, bytes]] = []
        refused: list[Outcome] = []
        for topic, payload in pairs:
            try:
                kept.append((self.centre.translate(topic), payload))
            except WireError as error:
                refused.append(self.ingest.reject(topic, payload, str(error)[:300]))
        return kept, refused

    def _after(self, outcomes: list[Outcome]) -> None:
        changed: set[str] = set()
        online: set[int] = set()
        for outcome in outcomes:
            self.stored += outcome.stored
            changed |= outcome.changed
            online |= outcome.online
            for table, command in outcome.commands:
                self._publish(table, command)
        if online:
            self.send_unanswered(online)
        self.batches += 1
        self.hub.notify(changed, tables=changed_tables(outcomes))

    # -- commands ----------------------------------------------------------------------------

    def send_pending(self) -> None:
        """Publish every queued command not yet acknowledged by the broker."""
        if self.client.is_connected():
            self._send_where(s.commands.c.sent_at.is_(None))

    def send_unanswered(self, tables: set[int]) -> None:
        """A table that comes online gets again every command it has not answered: one sent
        before its first connection (no session at the broker yet) was never queued for it.
        Command ids make a second delivery harmless."""
        self._send_where(s.commands.c.table_no.in_(sorted(tables)),
                         s.commands.c.answer_seq.is_(None))

    def publish_clock(self) -> None:
        """The current round's clock, retained on ``bidbox/v1/<event>/clock`` when it
        changed (a round started, extended, its length changed) or after a (re)connection:
        every table reads its extension from there, also one that comes back later."""
        if not self.client.is_connected() or self.centre is not None:
            return  # a centre has no say over the clubs' clocks
        session = current(self.db, self.event)
        clock = None if session is None else roundclock.round_clock(self.db, session)
        if clock is None or clock == self._clock_sent:
            return
        info = self.client.publish(clock_topic(self.event), clock_payload(clock), qos=1,
                                   retain=True)
        if info.rc == mqtt.MQTT_ERR_SUCCESS:
            self._clock_sent = clock

    def publish_afterboard(self) -> None:
        """Each table's after-board message (server/link/afterboard.py), retained on its own
        topic, when it changed (a result stored, a board released or corrected, the
        analysis in, the director's switches) or after a (re)connection."""
        if not self.client.is_connected() or self.centre is not None:
            return  # a centre sends the clubs' tables nothing
        for table, payload in self._after_made.items():
            if self._after_sent.get(table) == payload:
                continue
            info = self.client.publish(afterboard_topic(self.event, table), payload, qos=1,
                                       retain=True)
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                self._after_sent[table] = payload

    def publish_session(self) -> None:
        """The session the server runs, retained on ``bidbox/v1/session`` (tablemodel.running)
        when it changed or after a (re)connection: the tables provisioned once follow it,
        also one switched on later. Only the bus of the running session says so (another
        process's, not yet moved on, would name the session before)."""
        if not self.client.is_connected() or self.centre is not None:
            return  # a centre has no tables of its own
        session = current(self.db, self.event)
        if session is None or running_event(self.db) != self.event:
            return
        told = announcement(session)
        if told == self._session_sent:
            return
        info = self.client.publish(SESSION_TOPIC, told.to_payload(), qos=1, retain=True)
        if info.rc == mqtt.MQTT_ERR_SUCCESS:
            self._session_sent = told

    def _send_where(self, *conditions: Any) -> None:
        """Publish this event's commands that meet ``conditions``, oldest first; the unsent
        ones are marked sent on the broker's PUBACK. A centre sends the clubs' tables
        nothing: it does not even look."""
        if self.centre is not None:
            return
        with self.db.read() as conn:
            rows = conn.execute(select(s.commands).where(
                s.commands.c.event == self.event, *conditions).order_by(
                s.commands.c.created_at)).all()
        for row in rows:
            self._publish(row.table_no, Command.from_row(row.id, row.type, row.data),
                          track=row.sent_at is None)

    def _publish(self, table: int, command: Command, *, track: bool = False) -> None:
        if self.centre is not None:
            # A centre sends no club's table anything (a resend would not cross the bridge):
            # the club's own server asks its tables for what it lacks.
            return
        info = self.client.publish(table_topic(self.event, table, "cmd"),
                                   command.to_payload(), qos=1)
        if track and info.rc == mqtt.MQTT_ERR_SUCCESS:
            with self._lock:
                self._pending[info.mid] = command.id

    def _mark_sent(self, command_id: str) -> None:
        with self.db.write() as conn:
            conn.execute(update(s.commands).where(s.commands.c.id == command_id).values(
                sent_at=self.clock()))
        self.hub.notify({"commands"})

    # -- paho callbacks: queue and return ----------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                    properties: Any) -> None:
        if reason_code.is_failure:
            self.inbox.put(_Connected(False, f"refused: {reason_code}"))
            return
        # Messages delivered from here on are this connection's: only they are acknowledged.
        self._connected_at = mqtt.time_func()
        # In packets the broker takes: a worker of its own 2,500 tables has 7,500 filters,
        # more than one packet may hold (bidbox.broker.MAX_PACKET), and the broker drops a
        # client that sends a larger one.
        self._subscribing = set()
        for part in subscription_packets(self.topics):
            _result, mid = client.subscribe(part)
            if mid is not None:
                self._subscribing.add(mid)
        self.connected.set()
        self.inbox.put(_Connected(True, "session resumed" if flags.session_present
                                  else "connected"))

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reason_codes: Any,
                      properties: Any) -> None:
        if all(not code.is_failure for code in reason_codes):
            self._subscribing.discard(mid)
            if not self._subscribing:
                self.subscribed.set()
        else:
            log.error("the broker refused a subscription: %s", reason_codes)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        self.connected.clear()
        self.inbox.put(_Connected(False, f"disconnected: {reason_code}"))

    def _on_message(self, client: mqtt.Client, userdata: Any,
                    message: mqtt.MQTTMessage) -> None:
        self.inbox.put(message)

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason_code: Any,
                    properties: Any) -> None:
        with self._lock:
            command_id = self._pending.pop(mid, None)
        if command_id is None:
            return
        if reason_code.is_failure:
            log.error("the broker refused command %s: %s", command_id, reason_code)
            return
        self.inbox.put(_Published(command_id))
