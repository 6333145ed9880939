"""What a table's (or a club's) password can do at the broker as `bidbox provision` sets it
up (issue 27, items 4 and 7): not take the server's connection, not take another club's
bridge, not log in on the server's loopback listener, and not make the broker or the server
hold a message larger than any bidbox message.

The broker runs the generated mosquitto.conf, password files and ACL (tests/faults/conftest.py
``provisioned_broker``: only the ports and the user it runs as are this machine's); the
tables are the real daemon with its uplink over TLS, and the server the real one on its
loopback login.
"""

from __future__ import annotations

import json
import ssl
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt.client import Client, MQTTv5
from paho.mqtt.enums import CallbackAPIVersion

from bidbox.broker import MAX_PAYLOAD, Broker
from bidbox.loadtest_clubs import LoopbackFederation
from mqttlink import BrokerSettings
from tablemodel.wire import Event, table_topic
from tests.faults.conftest import ProvisionedBroker
from tests.faults.harness import (
    EVENT,
    compare,
    journal_rows,
    seed,
    server_rows,
    services,
    wait_until,
)
from tests.faults.playing import TablesAtPlay

WAIT = 60.0
TAKEOVER = "already connected, closing old connection"
"""What Mosquitto logs when a second connection takes a client id: the first is dropped."""


class Intruder:
    """A paho client (MQTT v5) with someone's login and a client id of its choosing, that
    connects again whenever it is dropped, as a script trying to keep a takeover would."""

    def __init__(self, settings: BrokerSettings, client_id: str) -> None:
        self.paho = Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=MQTTv5)
        self.paho.username_pw_set(settings.username, settings.password)
        if settings.cafile is not None:
            self.paho.tls_set(ca_certs=settings.cafile, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        self.paho.reconnect_delay_set(0.05, 0.2)
        self.settings = settings
        self.connacks: list[int] = []
        self.disconnects: list[Any] = []
        self.changed = threading.Event()
        self.paho.on_connect = self._on_connect
        self.paho.on_disconnect = self._on_disconnect

    def _on_connect(self, client: Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        self.connacks.append(int(reason.value))
        self.changed.set()

    def _on_disconnect(self, client: Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.disconnects.append(reason)
        self.changed.set()

    def __enter__(self) -> Intruder:
        self.paho.connect_async(self.settings.host, self.settings.port, keepalive=10)
        self.paho.loop_start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()
        self.paho._reset_sockets()  # type: ignore[attr-defined]


def _server(folder: Path, place: ProvisionedBroker) -> Any:
    from server import create_app

    creds = place.done.users.server
    app = create_app({
        "DATABASE": str(folder / "server.db"), "EVENT": EVENT, "SECRET_KEY": "faults",
        "DIRECTOR_PASSWORD": "faults", "ANALYSIS": False, "LANGUAGE": "en",
        "BROKER_URL": f"mqtt://{creds.username}:{creds.password}@127.0.0.1:"
                      f"{place.broker.port}"})
    assert services(app).bus.connected.wait(10.0), "the server did not reach the broker"
    return app


def test_a_tables_login_cannot_take_the_servers_connection(
        tmp_path: Path, provisioned_broker: ProvisionedBroker) -> None:
    """Table 3's password, with the server's client id, over TLS: the broker gives it table
    3's own id, and the server stays connected and stores every event of the tables playing
    meanwhile. On the loopback listener the same password is refused outright."""
    place = provisioned_broker
    app = _server(tmp_path, place)
    bus = services(app).bus
    tables = TablesAtPlay(tmp_path / "tables", {n: place.table(n) for n in (1, 2)},
                          boards=4, seed=seed(), wait=WAIT)
    try:
        with Intruder(place.loopback(place.done.users.table(3)), bus.client_id) as local:
            wait_until(lambda: bool(local.connacks), WAIT, "the loopback listener's answer")
            assert local.connacks[0] in (0x86, 0x87), local.connacks  # bad login / not authorised
        tables.start()
        with Intruder(place.table(3), bus.client_id) as intruder:
            wait_until(lambda: 0 in intruder.connacks, WAIT, "the intruder to connect")
            tables.wait_done()
            final = tables.journalled()
            wait_until(lambda: all(len(server_rows(tmp_path / "server.db", n)) >= final[n]
                                   for n in final), WAIT, "the server to store every event")
            assert intruder.connacks.count(0) == 1 and not intruder.disconnects, \
                "the intruder was dropped: its id was another connection's"
        log = place.broker.log_tail(5000)
        assert TAKEOVER not in log, log
        assert f"as {place.done.users.table(3).username}" in log  # the id it was given
        assert bus.connected.is_set()
        for number in final:
            lost, duplicated, changed = compare(
                journal_rows(tables.tables[number].journal.path),
                server_rows(tmp_path / "server.db", number))
            assert (lost, duplicated, changed) == ([], [], []), number
    finally:
        tables.close()
        services(app).close()


def test_a_clubs_login_cannot_take_another_clubs_bridge(
        tmp_path: Path, mosquitto_bin: Path) -> None:
    """At a simultaneous's centre, club norte's login with club sur's bridge's client id: the
    centre gives it norte's own id, and sur's bridge stays linked."""
    federation = LoopbackFederation(tmp_path, ["norte", "sur"], tables=1, event=EVENT,
                                    binary=mosquitto_bin)
    try:
        federation.start()
        tls = federation.centre_broker.config.tls
        assert tls is not None
        creds = federation.centre_users.club("norte")
        sur = federation.centre_users.club("sur").username
        settings = BrokerSettings("127.0.0.1", tls.port, creds.username, creds.password,
                                  str(federation.folder / "centre/ca/ca.crt"))
        before = federation.centre_broker.log_tail(5000).count("New client connected")
        with Intruder(settings, sur) as intruder:
            wait_until(lambda: 0 in intruder.connacks, WAIT, "the intruder to connect")
            # The intruder's connection is in place once the broker logs it.
            wait_until(lambda: federation.centre_broker.log_tail(5000).count(
                "New client connected") > before, WAIT, "the centre to log the intruder")
            assert federation.links()["sur"] == b"1"
        log = federation.centre_broker.log_tail(5000)
        assert f"Client {sur} {TAKEOVER}" not in log, log
        assert federation.links()["sur"] == b"1"
    finally:
        federation.stop()


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


@pytest.mark.parametrize("size_mb", [20])
def test_a_message_larger_than_any_bidbox_message_is_refused_unread(
        tmp_path: Path, provisioned_broker: ProvisionedBroker, size_mb: int) -> None:
    """Table 3 publishes a payload of ``size_mb`` MB on its own events topic: the broker cuts
    it off as the packet's header says how large it is, holds none of it, and the server
    never hears of it; the same login's next ordinary event is stored."""
    place = provisioned_broker
    app = _server(tmp_path, place)
    broker: Broker = place.broker
    assert broker.pid is not None
    rss_before = _rss_kib(broker.pid)
    topic = table_topic(EVENT, 3, "events")
    with Intruder(place.table(3), "table-3") as big:
        wait_until(lambda: 0 in big.connacks, WAIT, "table 3 to connect")
        sent_at = time.monotonic()
        big.paho.publish(topic, b"x" * (size_mb * 1024 * 1024), qos=1)
        wait_until(lambda: bool(big.disconnects), WAIT, "the broker to cut the sender off")
        cut_after = time.monotonic() - sent_at
        grew = _rss_kib(broker.pid) - rss_before
    assert grew < 4 * 1024, f"the broker grew {grew} KiB on a {size_mb} MB message"
    event = Event(1, "player", time.time(), None, {"seat": "N", "number": 301})
    with Intruder(place.table(3), "table-3") as table:
        wait_until(lambda: 0 in table.connacks, WAIT, "table 3 to connect again")
        table.paho.publish(topic, event.to_payload(), qos=1)
        wait_until(lambda: len(server_rows(tmp_path / "server.db", 3)) == 1, WAIT,
                   "the ordinary event to be stored")
    try:
        with services(app).db.read() as conn:
            sizes = [row.size for row in conn.exec_driver_sql("SELECT size FROM rejections")]
        assert all(size <= MAX_PAYLOAD for size in sizes), sizes  # it never reached the server
        assert "exceeded maximum packet size" in broker.log_tail(200).lower() or \
            "packet too large" in broker.log_tail(200).lower() or big.disconnects
    finally:
        services(app).close()
    print(f"a {size_mb} MB message: the sender cut off after {cut_after:.2f} s; the broker "
          f"grew {grew} KiB; the next event stored ({json.dumps(event.type)})")
