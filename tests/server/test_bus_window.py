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
from server.bus import BATCH, WINDOW, Bus
from tabled.wire import Event, table_topic
from tests.server.conftest import EVENT, services

SENT = 300  # more than Mosquitto's 20, fewer than one batch
assert 20 < SENT < BATCH <= WINDOW


class HeldBus(Bus):
    """The real worker, whose first store waits until the test lets it go."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.release = threading.Event()
        self.batch_sizes: list[int] = []
        self.first = threading.Event()

    def _store(self, pairs: list[tuple[str, bytes]]) -> Any:
        self.batch_sizes.append(len(pairs))
        self.first.set()
        self.release.wait(30.0)
        return super()._store(pairs)


def test_the_broker_sends_the_worker_more_than_twenty_before_an_acknowledgement(
        app: Flask, broker: Broker, broker_users: BrokerUsers) -> None:
    creds = broker_users.server
    bus = HeldBus(services(app).ingest, services(app).hub,
                  BrokerSettings(broker.host, broker.port, creds.username, creds.password),
                  linger=0.0)
    bus.start()
    table = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="table-1", protocol=mqtt.MQTTv5)
    table_creds = broker_users.table(1)
    table.username_pw_set(table_creds.username, table_creds.password)
    acked = threading.Semaphore(0)
    table.on_publish = lambda *_: acked.release()
    try:
        assert bus.connected.wait(10.0)
        table.connect(broker.host, broker.port)
        table.loop_start()
        topic = table_topic(EVENT, 1, "events")
        for seq in range(1, SENT + 1):
            payload = Event(seq, "confirm", 1_000.0 + seq, 1, {"seat": "N"}).to_payload()
            table.publish(topic, payload, qos=1)
        for _ in range(SENT):  # all at the broker
            assert acked.acquire(timeout=10.0)
        assert bus.first.wait(10.0)
        # The first batch is held unacknowledged: everything else must still reach the worker.
        assert bus.inbox.wait_size(SENT - bus.batch_sizes[0], 10.0)
        assert bus.batch_sizes[0] + len(bus.inbox) == SENT
        hub = services(app).hub
        seen = hub.version
        bus.release.set()
        while bus.stored < SENT:  # the hub hears of every stored batch
            seen, kinds = hub.wait(seen, 10.0)[:2]
            assert kinds, f"stored {bus.stored} of {SENT}, then nothing for 10 s"
        assert bus.stored == SENT
    finally:
        bus.release.set()
        table.disconnect()
        table.loop_stop()
        bus.stop()
