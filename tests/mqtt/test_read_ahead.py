"""The server's read-ahead client (mqttlink.client.ReadAheadClient) on a NetworkLoop, against a
real Mosquitto: every message whole and in order, also those longer than one read ahead and
those cut across two; far fewer reads of the socket than messages, and the acknowledgements
sent together; and a new connection after the broker's restart starts with nothing of the old
one."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from bidbox.broker import Broker, BrokerUsers
from mqttlink import BrokerSettings, NetworkLoop, close_sockets, mqtt_client
from mqttlink.client import READ_AHEAD, ReadAheadClient
from tabled.wire import table_topic
from tests.fixtures.broker import EVENT

WAIT = 30.0  # seconds any one condition may take on a busy machine


class Received:
    def __init__(self) -> None:
        self.payloads: list[bytes] = []
        self.changed = threading.Condition()
        self.subscribed = threading.Event()
        self.connects = 0

    def on_connect(self, client: mqtt.Client, *_: Any) -> None:
        with self.changed:
            self.connects += 1
            self.changed.notify_all()
        client.subscribe(table_topic(EVENT, 1, "events"), qos=1)

    def on_subscribe(self, *_: Any) -> None:
        self.subscribed.set()

    def on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self.changed:
            self.payloads.append(bytes(message.payload))
            self.changed.notify_all()
        client.ack(message.mid, message.qos)  # by hand, as the server's Bus does

    def wait(self, predicate: Any) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: predicate(self), WAIT)


@pytest.fixture
def reader(broker: Broker, broker_users: BrokerUsers) -> Iterator[tuple[ReadAheadClient,
                                                                         Received]]:
    """The server's side: a read-ahead client on a network loop, subscribed."""
    creds = broker_users.server
    client = mqtt_client(BrokerSettings(port=broker.port, username=creds.username,
                                        password=creds.password), "read-ahead",
                         read_ahead=True, manual_ack=True)
    assert isinstance(client, ReadAheadClient)
    got = Received()
    client.on_connect = got.on_connect
    client.on_subscribe = got.on_subscribe
    client.on_message = got.on_message
    with NetworkLoop(name="read-ahead") as loop:
        client.connect_async("127.0.0.1", broker.port)
        loop.add(client)
        try:
            assert got.subscribed.wait(WAIT)
            yield client, got
        finally:
            client.disconnect()
            loop.remove(client, 5.0)
            close_sockets(client)


def publisher(broker: Broker, users: BrokerUsers) -> mqtt.Client:
    creds = users.table(1)
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="writer", protocol=mqtt.MQTTv5)
    client.username_pw_set(creds.username, creds.password)
    client.max_inflight_messages_set(1000)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    return client


def test_every_message_whole_and_in_order_with_few_reads(
        broker: Broker, broker_users: BrokerUsers,
        reader: tuple[ReadAheadClient, Received],
        monkeypatch: pytest.MonkeyPatch) -> None:
    client, got = reader
    socket_reads: list[int] = []
    real = mqtt.Client._sock_recv

    def counted(self: mqtt.Client, bufsize: int) -> bytes:
        data = real(self, bufsize)
        if self is client:
            socket_reads.append(len(data))
        return data
    # The parent's _sock_recv is the socket: what reaches it is a read of the socket.
    monkeypatch.setattr(mqtt.Client, "_sock_recv", counted)
    sends: list[int] = []
    real_send = mqtt.Client._sock_send

    def sent(self: mqtt.Client, data: bytes) -> int:
        written = real_send(self, data)
        if self is client:
            sends.append(written)
        return written
    monkeypatch.setattr(mqtt.Client, "_sock_send", sent)
    # Small ones as events are, one longer than a read ahead, some cut across two reads.
    sizes = [40 + i % 200 for i in range(2000)]
    sizes[700] = READ_AHEAD + 5000
    sizes[1500] = 3 * READ_AHEAD // 2
    payloads = [bytes([i % 251]) * size for i, size in enumerate(sizes)]
    writer = publisher(broker, broker_users)
    try:
        for payload in payloads:
            writer.publish(table_topic(EVENT, 1, "events"), payload, qos=1)
        assert got.wait(lambda g: len(g.payloads) >= len(payloads)), len(got.payloads)
    finally:
        writer.disconnect()
        writer.loop_stop()
    assert got.payloads == payloads
    assert client.buffered() == 0
    # paho alone reads each message in four or more pieces: here many come in one read.
    assert 0 < len(socket_reads) < len(payloads) / 2, len(socket_reads)
    # Each message acknowledged (QoS 1), the acknowledgements sent together: the broker took
    # them all as they should be, or it would have dropped the connection and sent again.
    assert 0 < len(sends) < len(payloads) / 2, len(sends)
    assert got.connects == 1


def test_the_broker_restarted_the_stream_goes_on_whole(
        broker: Broker, broker_users: BrokerUsers,
        reader: tuple[ReadAheadClient, Received]) -> None:
    client, got = reader
    writer = publisher(broker, broker_users)
    try:
        writer.publish(table_topic(EVENT, 1, "events"), b"before", qos=1)
        assert got.wait(lambda g: g.payloads == [b"before"])
    finally:
        writer.disconnect()
        writer.loop_stop()
    got.subscribed.clear()
    broker.restart()
    assert got.wait(lambda g: g.connects >= 2)
    assert got.subscribed.wait(WAIT)
    writer = publisher(broker, broker_users)
    try:
        for k in range(50):
            writer.publish(table_topic(EVENT, 1, "events"), b"after %d" % k, qos=1)
        assert got.wait(lambda g: len(g.payloads) >= 51), got.payloads
    finally:
        writer.disconnect()
        writer.loop_stop()
    assert got.payloads == [b"before"] + [b"after %d" % k for k in range(50)]
    assert client.buffered() == 0


def test_reads_are_served_from_the_buffer_of_their_own_socket_only() -> None:
    client = ReadAheadClient(CallbackAPIVersion.VERSION2, client_id="unit",
                             protocol=mqtt.MQTTv5)
    one, far = socket.socketpair()
    two, other = socket.socketpair()
    try:
        for end in (one, two):
            end.setblocking(False)
        client._sock = one  # type: ignore[assignment]
        with pytest.raises(BlockingIOError):
            client._sock_recv(1)  # nothing sent yet: paho's "again"
        far.sendall(b"x" * 100)
        assert client._sock_recv(1) == b"x"
        assert client.buffered() == 99
        assert client._sock_recv(10) == b"x" * 10
        assert client.buffered() == 89
        # A new socket (paho's reconnect): the old bytes are not its bytes.
        client._sock = two  # type: ignore[assignment]
        assert client.buffered() == 0
        other.sendall(b"yz")
        assert client._sock_recv(1) == b"y"
        assert client._sock_recv(5) == b"z"  # what there is, as a socket gives it
        other.close()
        assert client._sock_recv(1) == b""  # the end of the stream, as paho expects it
    finally:
        client._sock = None
        for end in (one, far, two, other):
            end.close()


def test_it_refuses_what_it_is_not_made_for() -> None:
    settings = BrokerSettings()
    with pytest.raises(ValueError, match="manual_ack"):
        mqtt_client(settings, "auto", read_ahead=True)  # the broker would not pace it
    client = mqtt_client(settings, "loop", read_ahead=True, manual_ack=True)
    for loop in (client.loop_start, client.loop_forever):
        with pytest.raises(TypeError, match="NetworkLoop"):
            loop()  # paho's loop would leave packets in the buffer waiting
