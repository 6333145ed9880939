"""The server's MQTT side: the ingest worker and the command outbox.

paho-mqtt 2, MQTT v5, QoS 1, a persistent session (``clean_start`` false with a session expiry)
and manual acknowledgement: a message is acknowledged to the broker only after the transaction
that stored it commits, so nothing is lost while the server restarts; the broker redelivers
what was not acknowledged, and ingest stores each event once.

paho's callbacks only put items on a queue; one worker thread stores batches, acknowledges,
publishes the commands ingest asks for (resend) and those the console queued in ``commands``.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from sqlalchemy import select, update
from sqlalchemy.exc import OperationalError

from mqttlink import BrokerSettings, close_sockets, connect_persistent, mqtt_client
from server import roundclock
from server import schema as s
from server.centre import ClubTables
from server.centre import subscriptions as centre_subscriptions
from server.ingest import SHARED_GAP_GRACE, Ingest, Outcome
from server.live import Hub
from server.session import current
from tabled.roundclock import RoundClock
from tabled.wire import ROOT, Command, WireError, clock_payload, clock_topic, table_topic

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
alone, a message waits this long at most."""


@dataclass(frozen=True)
class _Connected:
    ok: bool
    detail: str


@dataclass(frozen=True)
class _Published:
    command_id: str


class _Wake:
    pass


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
                 clock: Callable[[], float] = time.time, linger: float = LINGER,
                 centre: ClubTables | None = None) -> None:
        """``centre``: this is a centre's server (server/centre.py): it reads every club's
        tables through the bridges, each as its section's table, and sends them nothing."""
        self.ingest = ingest
        self.db = ingest.db
        self.event = ingest.event
        self.hub = hub
        self.clock = clock
        self.linger = linger
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.connected = threading.Event()
        self.stored = 0
        self.batches = 0
        base = f"{ROOT}/{self.event}/table/+/"
        # MQTT v5 shared subscription: several ingest workers split one stream.
        prefix = f"$share/{shared_group}/" if shared_group else ""
        if shared_group:
            # Another worker holds part of each table's stream: a gap is often no gap.
            ingest.gap_grace = max(ingest.gap_grace, SHARED_GAP_GRACE)
        self.topics = [(f"{prefix}{base}events", 1), (f"{prefix}{base}status", 1),
                       (f"{prefix}{base}state", 1)]
        self.centre = centre
        if centre is not None:
            self.topics = [(f"{prefix}{topic}", qos)
                           for topic, qos in centre_subscriptions(self.event)]
        self.client = mqtt_client(settings, client_id or f"bidbox-server-{self.event}",
                                  manual_ack=True)
        self.client.max_inflight_messages_set(200)
        self.client.max_queued_messages_set(0)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        self.settings = settings
        self._pending: dict[int, str] = {}  # mid -> command id, until PUBACK
        self._clock_sent: RoundClock | None = None  # the retained round clock last published
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> None:
        connect_persistent(self.client, self.settings, SESSION_EXPIRY, receive_maximum=WINDOW)
        self._thread = threading.Thread(target=self.run, name="ingest", daemon=True)
        self._thread.start()
        self.client.loop_start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        self.inbox.put(_Wake())
        if self._thread is not None:
            self._thread.join(timeout)
        self.client.disconnect()
        self.client.loop_stop()
        close_sockets(self.client)

    def wake(self) -> None:
        """New commands are waiting in the outbox (called by the console)."""
        self.inbox.put(_Wake())

    # -- the worker thread -------------------------------------------------------------------

    def run(self) -> None:
        while not self._stopping.is_set():
            items = [self.inbox.get()]
            until = time.monotonic() + self.linger
            while len(items) < BATCH:
                try:
                    items.append(self.inbox.get(timeout=max(0.0, until - time.monotonic())))
                except queue.Empty:
                    break
            try:
                self._handle(items)
            except Exception:  # the database away for a moment: the broker will redeliver
                log.exception("ingest batch failed; its messages stay unacknowledged")

    def _handle(self, items: list[Any]) -> None:
        messages = [i for i in items if isinstance(i, mqtt.MQTTMessage)]
        send = any(isinstance(i, _Wake) for i in items)
        for item in items:
            if isinstance(item, _Connected):
                if item.ok:
                    send = True
                    self._clock_sent = None  # a broker without its persistence lost it
                log.info("broker: %s", item.detail)
            elif isinstance(item, _Published):
                self._mark_sent(item.command_id)
        if messages:
            outcomes = self._store([(m.topic, bytes(m.payload)) for m in messages])
            for message in messages:  # stored (or rejected for good): now the broker may forget
                if message.qos > 0:
                    self.client.ack(message.mid, message.qos)
            self._after(outcomes)
        if send:
            self.send_pending()
            self.publish_clock()

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
        except OperationalError:
            raise  # the database is away: nothing is acknowledged, the broker keeps it all
        except Exception:
            log.exception("a batch of %d failed; storing its messages one by one", len(pairs))
        outcomes: list[Outcome] = list(refused)
        for topic, payload in pairs:
            try:
                outcomes += self.ingest.many([(topic, payload)])
            except OperationalError:
                raise
            except Exception as error:
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
        if online and self.centre is None:
            self.send_unanswered(online)
        self.batches += 1
        self.hub.notify(changed, tables=changed_tables(outcomes))

    # -- commands ----------------------------------------------------------------------------

    def send_pending(self) -> None:
        """Publish every queued command not yet acknowledged by the broker."""
        if self.client.is_connected() and self.centre is None:
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

    def _send_where(self, *conditions: Any) -> None:
        """Publish this event's commands that meet ``conditions``, oldest first; the unsent
        ones are marked sent on the broker's PUBACK."""
        with self.db.read() as conn:
            rows = conn.execute(select(s.commands).where(
                s.commands.c.event == self.event, *conditions).order_by(
                s.commands.c.created_at)).all()
        for row in rows:
            self._publish(row.table_no, Command(row.id, row.type, json.loads(row.data)),
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
        client.subscribe(self.topics)
        self.connected.set()
        self.inbox.put(_Connected(True, "session resumed" if flags.session_present
                                  else "connected"))

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
