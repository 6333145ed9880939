"""The server's read-ahead client (mqttlink.client.ReadAheadClient) on a NetworkLoop, against a
real Mosquitto: every message whole and in order, also those longer than one read ahead and
those cut across two; far fewer reads of the socket than messages, and the acknowledgements
sent together; and a new connection after the broker's restart starts with nothing of the old
one."""

from __future__ import annotations

import logging
import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.exception import MalformedPacket
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from bidbox.broker import Broker, BrokerConfig, BrokerUsers
from mqttlink import BrokerSettings, NetworkLoop, close_sockets, mqtt_client
from mqttlink.client import READ_AHEAD, ReadAheadClient
from tablemodel.wire import table_topic
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
def broker(mosquitto_bin: Path, broker_users: BrokerUsers, tmp_path: Path) -> Iterator[Broker]:
    """The shared fixture's broker, but taking payloads of a few reads ahead: the tests here
    need messages longer than one read, and bidbox's own broker takes no message over 64 KB
    (``bidbox.broker.MAX_PAYLOAD``, as long as one read)."""
    config = BrokerConfig(tmp_path / "broker", broker_users, max_payload=4 * READ_AHEAD)
    with Broker(config, binary=mosquitto_bin) as running:
        yield running


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


# -- a received PUBLISH read as paho reads it, its properties without paho's per-message tables

def _publish_packet(topic: bytes, payload: bytes, *, qos: int, mid: int, dup: bool = False,
                    retain: bool = False, properties: Properties | None = None
                    ) -> tuple[int, bytes]:
    """(fixed header's first byte, the rest after the remaining length) of an MQTT v5
    PUBLISH, as paho's _in_packet holds them."""
    header = 0x30 | (0x08 if dup else 0) | (qos << 1) | (0x01 if retain else 0)
    body = struct.pack("!H", len(topic)) + topic
    if qos:
        body += struct.pack("!H", mid)
    body += properties.pack() if properties is not None else b"\x00"
    return header, body + payload


def _loaded(kind: type[mqtt.Client], header: int,
            body: bytes) -> tuple[mqtt.Client, list[mqtt.MQTTMessage]]:
    """A client of ``kind`` with one received packet waiting to be handled, and the list
    its on_message fills."""
    client = kind(CallbackAPIVersion.VERSION2, client_id="unit", protocol=mqtt.MQTTv5,
                  manual_ack=True)
    got: list[mqtt.MQTTMessage] = []
    client.on_message = lambda c, u, m: got.append(m)
    client._in_packet = {"command": header, "packet": body}  # type: ignore[typeddict-item]
    return client, got


def _received(kind: type[mqtt.Client], header: int, body: bytes,
              logger: logging.Logger | None = None) -> tuple[mqtt.MQTTMessage, int]:
    """What a client of ``kind`` hands on_message for one packet, and what it answers."""
    client, got = _loaded(kind, header, body)
    if logger is not None:
        client.enable_logger(logger)
    rc = client._handle_publish()
    assert len(got) == 1
    return got[0], rc


def _full_properties() -> Properties:
    properties = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
    properties.PayloadFormatIndicator = 1
    properties.MessageExpiryInterval = 30
    properties.ContentType = "application/json"
    properties.ResponseTopic = "bidbox/v1/x/table/1/cmd"
    properties.CorrelationData = b"\x00\x01"
    properties.UserProperty = ("club", "norte")
    properties.UserProperty = ("club", "sur")
    return properties


@pytest.mark.parametrize("qos, properties, retain, dup", [
    (1, None, False, False), (0, None, False, False), (1, "full", True, True),
    (0, "full", False, False)])
def test_a_publish_reads_as_paho_reads_it(qos: int, properties: str | None, retain: bool,
                                           dup: bool) -> None:
    props = _full_properties() if properties else None
    header, body = _publish_packet(b"bidbox/v1/x/table/7/events", b'{"seq": 1}', qos=qos,
                                   mid=513 if qos else 0, retain=retain, dup=dup,
                                   properties=props)
    ours, rc = _received(ReadAheadClient, header, body)
    paho, paho_rc = _received(mqtt.Client, header, body)
    assert type(ours.properties).__name__ == "ReceivedProperties"  # not paho's own path
    assert rc == paho_rc == 0
    for name in ("topic", "payload", "qos", "mid", "retain", "dup"):
        assert getattr(ours, name) == getattr(paho, name), name
    assert ours.payload == b'{"seq": 1}' and ours.qos == qos
    assert ours.properties is not None and paho.properties is not None
    assert ours.properties.json() == paho.properties.json()
    assert str(ours.properties) == str(paho.properties)
    assert ours.properties.isEmpty() is (properties is None)
    if properties:
        assert ours.properties.UserProperty == [("club", "norte"), ("club", "sur")]


def test_a_malformed_publish_is_refused_as_paho_refuses_it() -> None:
    header, body = _publish_packet(b"bidbox/v1/x/table/7/events", b"", qos=1, mid=9,
                                   properties=_full_properties())
    cut = body[:len(body) - 6]  # the properties end before their stated length
    for kind in (ReadAheadClient, mqtt.Client):
        client, got = _loaded(kind, header, cut)
        with pytest.raises(MalformedPacket):
            client._handle_publish()
        assert got == [], "a malformed packet delivered"


def test_a_client_that_logs_each_packet_is_read_by_paho_itself() -> None:
    logger = logging.getLogger("tests.read_ahead.paho")
    logger.setLevel(logging.DEBUG)
    header, body = _publish_packet(b"t/1", b"x", qos=1, mid=1)
    message, rc = _received(ReadAheadClient, header, body, logger)
    assert rc == 0 and message.payload == b"x"
    assert type(message.properties) is Properties  # paho's own, which logs what it read


def test_properties_reach_the_server_through_the_broker(
        broker: Broker, broker_users: BrokerUsers,
        reader: tuple[ReadAheadClient, Received]) -> None:
    """What a publisher set arrives in the read-ahead client's message, and its payload
    is only the payload."""
    client, got = reader
    seen: list[mqtt.MQTTMessage] = []
    plain = client.on_message

    def keep(c: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        seen.append(message)
        plain(c, userdata, message)
    client.on_message = keep
    writer = publisher(broker, broker_users)
    try:
        writer.publish(table_topic(EVENT, 1, "events"), b"with", qos=1,
                       properties=_full_properties()).wait_for_publish(WAIT)
        writer.publish(table_topic(EVENT, 1, "events"), b"without", qos=1).wait_for_publish(
            WAIT)
        assert got.wait(lambda g: len(g.payloads) == 2)
    finally:
        writer.disconnect()
        writer.loop_stop()
        close_sockets(writer)
    assert [m.payload for m in seen] == [b"with", b"without"]
    first = seen[0].properties
    assert first is not None
    assert first.ContentType == "application/json"
    assert first.UserProperty == [("club", "norte"), ("club", "sur")]
    assert first.CorrelationData == b"\x00\x01"
    assert seen[1].properties is not None and seen[1].properties.isEmpty()


def test_a_paho_without_its_own_publish_decoder_reads_as_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """paho 2.0 and 2.1 (a Pi's distribution may have them) decode a PUBLISH inside the
    client, with no ``paho.mqtt._packet``: the client then takes paho's own path whole."""
    import mqttlink.client as link
    monkeypatch.setattr(link, "_packet", None)
    header, body = _publish_packet(b"t/1", b"x", qos=1, mid=3, properties=_full_properties())
    message, rc = _received(ReadAheadClient, header, body)
    assert rc == 0 and message.payload == b"x" and message.mid == 3
    assert type(message.properties) is Properties
    assert message.properties.ContentType == "application/json"


@pytest.mark.parametrize("qos", [2, 3])
def test_qos_2_and_the_invalid_3_are_paho_s_to_answer(qos: int) -> None:
    header, body = _publish_packet(b"t/1", b"x", qos=qos, mid=5)
    for kind in (ReadAheadClient, mqtt.Client):
        client, got = _loaded(kind, header, body)
        rc = client._handle_publish()
        if qos == 3:  # no such QoS: a protocol error, nothing delivered
            assert rc == mqtt.MQTT_ERR_PROTOCOL and got == []
        else:  # paho keeps it until PUBREL, and sends PUBREC (here into no socket)
            assert got == [] and 5 in client._in_messages
