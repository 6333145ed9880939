"""What one table event costs at the least, measured bare in the same run as the table (the
baseline of bench.table).

Every accepted input does two things that cannot be skipped: one SQLite transaction committed
with the journal's settings (WAL, ``synchronous=FULL``) and one paho QoS 1 publish through the
broker to the server. Here each is done alone: the commit on the same disk as the table's
journal, the publish through the same Mosquitto to the same kind of subscriber.
"""

from __future__ import annotations

import json
import math
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from bidbox.broker import Broker, Credentials
from tablemodel.wire import Event

TIMEOUT = 10.0  # seconds any single wait may take before the bench gives up

# A played card: the commonest event, so its payload is the size the bare runs send.
CARD = Event(1, "card", 0.0, 12, {"seat": "N", "card": "SA"})


class BenchError(RuntimeError):
    """Something the bench waited for did not happen in time."""


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest rank: the smallest value with at least ``p`` % of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


@dataclass(frozen=True)
class Spread:
    """A set of latencies in seconds."""

    n: int
    p50: float
    p99: float
    max: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Spread:
        if not seconds:
            raise BenchError("no samples")
        return cls(len(seconds), percentile(seconds, 50), percentile(seconds, 99), max(seconds))

    def ms(self) -> str:
        return (f"n={self.n:<5d} p50 {self.p50 * 1e3:6.2f}  p99 {self.p99 * 1e3:6.2f}  "
                f"max {self.max * 1e3:6.2f} ms")


class Subscriber:
    """The server's end of one events topic: paho 2, MQTT v5, QoS 1.

    ``arrived[seq]`` is the ``perf_counter`` instant ``on_message`` first saw event ``seq``:
    the callback notes it and returns, as any callback should.
    """

    def __init__(self, broker: Broker, creds: Credentials, topic: str) -> None:
        self.broker = broker
        self.topic = topic
        self.arrived: dict[int, float] = {}
        self.changed = threading.Condition()
        self._subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-server",
                                  protocol=mqtt.MQTTv5)
        self.client.username_pw_set(creds.username, creds.password)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message

    def start(self) -> Subscriber:
        self.client.connect(self.broker.host, self.broker.port, keepalive=30)
        self.client.loop_start()
        if not self._subscribed.wait(TIMEOUT):
            raise BenchError(f"no SUBACK for {self.topic}")
        return self

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def reset(self) -> None:
        with self.changed:
            self.arrived.clear()

    def wait(self, seq: int, timeout: float = TIMEOUT) -> float:
        """The instant event ``seq`` arrived, once it has."""
        with self.changed:
            if not self.changed.wait_for(lambda: seq in self.arrived, timeout):
                raise BenchError(f"event {seq} did not reach the subscriber in {timeout} s")
            return self.arrived[seq]

    def wait_all(self, last: int, timeout: float = TIMEOUT) -> float:
        """The instant the last of events 1..``last`` arrived, once all have."""
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.arrived) >= last, timeout):
                missing = last - len(self.arrived)
                raise BenchError(f"{missing} of {last} events missing at the subscriber")
            return max(self.arrived[seq] for seq in range(1, last + 1))

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                    properties: Any) -> None:
        client.subscribe(self.topic, qos=1)

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reason_codes: Any,
                      properties: Any) -> None:
        self._subscribed.set()

    def _on_message(self, client: mqtt.Client, userdata: Any,
                    message: mqtt.MQTTMessage) -> None:
        now = time.perf_counter()
        seq = json.loads(message.payload)["seq"]
        with self.changed:
            self.arrived.setdefault(seq, now)
            self.changed.notify_all()


@dataclass(frozen=True)
class SqliteFigures:
    commits: list[float]  # seconds each insert and its commit took
    elapsed: float

    @property
    def rate(self) -> float:
        """Commits per second."""
        return len(self.commits) / self.elapsed

    @property
    def commit(self) -> Spread:
        return Spread.of(self.commits)

    def __add__(self, other: SqliteFigures) -> SqliteFigures:
        return SqliteFigures(self.commits + other.commits, self.elapsed + other.elapsed)


def sqlite_commits(directory: Path, seconds: float) -> SqliteFigures:
    """Insert one event-sized row and commit it, again and again for ``seconds``."""
    path = directory / "bare.db"
    db = sqlite3.connect(path, isolation_level=None)
    times: list[float] = []
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, "
                   "ts REAL NOT NULL, board INTEGER, data TEXT NOT NULL)")
        data = json.dumps(dict(CARD.data), separators=(",", ":"))
        start = time.perf_counter()
        deadline = start + seconds
        while (begun := time.perf_counter()) < deadline:
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                       (len(times) + 1, CARD.type, time.time(), CARD.board, data))
            db.execute("COMMIT")
            times.append(time.perf_counter() - begun)
        elapsed = time.perf_counter() - start
    finally:
        db.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    return SqliteFigures(times, elapsed)


@dataclass(frozen=True)
class MqttFigures:
    latencies: list[float]  # one publish at a time: publish() called -> on_message
    sent: int               # published back to back ...
    busy: float             # ... and all at the subscriber in this many seconds

    @property
    def deliver(self) -> Spread:
        return Spread.of(self.latencies)

    @property
    def rate(self) -> float:
        """Messages per second reaching the subscriber, published back to back."""
        return self.sent / self.busy

    def __add__(self, other: MqttFigures) -> MqttFigures:
        return MqttFigures(self.latencies + other.latencies, self.sent + other.sent,
                           self.busy + other.busy)


def mqtt_publishes(broker: Broker, creds: Credentials, subscriber: Subscriber,
                   seconds: float, *, max_inflight: int = 100) -> MqttFigures:
    """A client set up as the table's uplink is (v5, QoS 1, ``max_inflight``), logged in
    with ``creds`` (the table's: only a table may write its events topic), publishes card
    events to ``subscriber``'s topic while no table is there: one at a time for half of
    ``seconds``, then in bursts as fast as paho takes them for the other half."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-bare",
                         protocol=mqtt.MQTTv5)
    client.username_pw_set(creds.username, creds.password)
    client.max_inflight_messages_set(max_inflight)
    connected = threading.Event()
    client.on_connect = lambda *_: connected.set()
    client.connect(broker.host, broker.port, keepalive=30)
    client.loop_start()
    try:
        if not connected.wait(TIMEOUT):
            raise BenchError("the bare publisher got no CONNACK")
        subscriber.reset()
        seq = 0
        latencies: list[float] = []
        deadline = time.perf_counter() + seconds / 2
        while time.perf_counter() < deadline:
            seq += 1
            payload = Event(seq, CARD.type, time.time(), CARD.board, CARD.data).to_payload()
            published = time.perf_counter()
            client.publish(subscriber.topic, payload, qos=1)
            latencies.append(subscriber.wait(seq) - published)
        burst, sent, busy = 1000, 0, 0.0
        deadline = time.perf_counter() + seconds / 2
        while time.perf_counter() < deadline:
            payloads = [Event(s, CARD.type, time.time(), CARD.board, CARD.data).to_payload()
                        for s in range(seq + 1, seq + burst + 1)]
            start = time.perf_counter()
            for payload in payloads:
                client.publish(subscriber.topic, payload, qos=1)
            seq += burst
            busy += subscriber.wait_all(seq) - start
            sent += burst
        return MqttFigures(latencies, sent, busy)
    finally:
        client.disconnect()
        client.loop_stop()
