"""The ingest worker's window at the broker: how many events may be on their way to it before
it has stored (and so acknowledged) any. Mosquitto's default is 20, which capped one worker at
20 events a transaction however far behind it was; the worker asks for ``WINDOW``."""

from __future__ import annotations

import threading
from typing import Any

import paho.mqtt.client as mqtt
from flask import Flask
from paho.mqtt.enums import CallbackAPIVersion

from bidbox.broker import Broker, BrokerUsers
from mqttlink import BrokerSettings
from server.link.bus import BATCH, WINDOW, Bus
from tablemodel.wire import Event, table_topic
from tests.server.conftest import EVENT, services

SENT = 300  # more than Mosquitto's 20, fewer than one batch
assert 20 < SENT < BATCH <= WINDOW
LINGER = 3.0  # the worker's wait for a batch to fill: every event queued arrives well within


class CountingBus(Bus):
    """The real worker, noting the size of each batch it stores."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.batch_sizes: list[int] = []

    def _store(self, pairs: list[tuple[str, bytes]]) -> Any:
        self.batch_sizes.append(len(pairs))
        return super()._store(pairs)


def test_the_broker_sends_the_worker_more_than_twenty_before_an_acknowledgement(
        app: Flask, broker: Broker, broker_users: BrokerUsers) -> None:
    """The events wait at the broker for the worker's persistent session; when it connects,
    the broker sends as many as the window lets it before any acknowledgement, and the worker
    (lingering for a full batch) stores them in its first batch: all of them, not 20."""
    creds = broker_users.server
    settings = BrokerSettings(broker.host, broker.port, creds.username, creds.password)
    first = CountingBus(services(app).ingest, services(app).hub, settings)
    first.start()  # the session and its subscriptions, at the broker from now on
    try:
        assert first.subscribed.wait(10.0)
    finally:
        first.stop()
    table = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="table-1", protocol=mqtt.MQTTv5)
    table_creds = broker_users.table(1)
    table.username_pw_set(table_creds.username, table_creds.password)
    acked = threading.Semaphore(0)
    table.on_publish = lambda *_: acked.release()
    bus = CountingBus(services(app).ingest, services(app).hub, settings, linger=LINGER)
    try:
        table.connect(broker.host, broker.port)
        table.loop_start()
        topic = table_topic(EVENT, 1, "events")
        for seq in range(1, SENT + 1):
            payload = Event(seq, "confirm", 1_000.0 + seq, 1, {"seat": "N"}).to_payload()
            table.publish(topic, payload, qos=1)
        for _ in range(SENT):  # all at the broker, queued for the worker's session
            assert acked.acquire(timeout=10.0)
        bus.start()
        hub = services(app).hub
        seen = hub.version
        while bus.stored < SENT:  # the hub hears of every stored batch
            seen, kinds = hub.wait(seen, 10.0)[:2]
            assert kinds, f"stored {bus.stored} of {SENT}, then nothing for 10 s"
        assert bus.stored == SENT
        assert bus.batch_sizes == [SENT]
    finally:
        table.disconnect()
        table.loop_stop()
        bus.stop()
