"""A paho-mqtt 2 client made the same way at both ends of the link: the table's uplink and
the server's bus log in, use TLS and keep a persistent session alike."""

from __future__ import annotations

import logging
import ssl
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties


@dataclass(frozen=True)
class BrokerSettings:
    host: str = "127.0.0.1"
    port: int = 1883
    username: str | None = None
    password: str | None = None
    cafile: str | None = None     # TLS when set: the CA that signed the broker's certificate
    certfile: str | None = None   # optional client certificate
    keyfile: str | None = None
    keepalive: int = 15

    @classmethod
    def from_url(cls, url: str, **overrides: Any) -> BrokerSettings:
        """``mqtt://user:pass@host:port`` or ``mqtts://...`` (TLS with the system CAs)."""
        from urllib.parse import unquote, urlsplit

        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts"):
            raise ValueError(f"broker URL {url!r}: the scheme is mqtt:// or mqtts://")
        settings = cls(host=parts.hostname or "127.0.0.1",
                       port=parts.port or (8883 if parts.scheme == "mqtts" else 1883),
                       username=unquote(parts.username) if parts.username else None,
                       password=unquote(parts.password) if parts.password else None,
                       cafile="" if parts.scheme == "mqtts" else None)
        return cls(**{**settings.__dict__, **overrides})


READ_AHEAD = 65536
"""Bytes a :class:`ReadAheadClient` asks the socket for at once."""
MAX_ACKS_JOINED = 2000
"""Acknowledgements a :class:`ReadAheadClient` sends in one piece at most (a PUBACK is four
bytes, or five with a reason code)."""
PUBACK = mqtt.PUBACK

_packet: Any
try:  # paho 2.2 decodes a PUBLISH in a function of its own; 2.0 and 2.1 inside the client
    from paho.mqtt import _packet
except ImportError:  # pragma: no cover - the paho this project installs has it
    _packet = None

_STOCK = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
_OWN = frozenset(("packetType", "types", "names", "properties"))


class ReceivedProperties(Properties):
    """paho's ``Properties`` of a received PUBLISH, made without rebuilding paho's tables.

    paho's constructor builds its three tables of property names and types afresh for every
    object, and ``unpack`` first deletes each of the 27 names one by one: 27 microseconds a
    message, a third of the ingest thread's time under a stream (py-spy on bench.ingest,
    2026-11-26). The tables never change: here they are paho's own, built once and shared
    (read only, as every method of the class uses them); ``clear`` deletes only what is
    set. Reading, comparing and printing are paho's."""

    types = _STOCK.types
    names = _STOCK.names
    properties = _STOCK.properties

    def __init__(self, packetType: int) -> None:
        object.__setattr__(self, "packetType", packetType)

    def clear(self) -> None:
        for name in [name for name in vars(self) if name not in _OWN]:
            delattr(self, name)


class ReadAheadClient(mqtt.Client):
    """A paho client that reads its socket in large pieces and serves its packets from them.

    paho reads a packet with a ``recv`` for its first byte, one for each byte of its length
    and one for the rest: four or five system calls a message, and then the loop waits on
    the selector again before the next. The server's ingest worker takes thousands of
    messages a second on one thread, and those calls were a tenth of its time. Here one
    ``recv`` fills a buffer; paho's small reads are served from it, and
    :meth:`buffered` tells the network loop (``mqttlink.netloop``) that more packets are
    there without waiting for the socket, as an ``SSLSocket``'s ``pending`` does.

    Its acknowledgements go out the same way: the PUBACKs of a batch, queued one a message,
    leave in one ``send`` instead of one each.

    What paho defines and this overrides are ``_sock_recv``, the one place its reads go
    through, and ``_packet_write``, where its queued packets leave (paho 2.x); each new
    socket starts with an empty buffer. And ``_handle_publish``: a received message's
    properties are a :class:`ReceivedProperties`, without paho's tables built for each.

    Two conditions, both the server's Bus's: it runs on a ``NetworkLoop`` (paho's own loop
    looks only at a TLS socket's ``pending``, so packets in the buffer would wait for the
    next bytes on the socket: ``loop_start`` and ``loop_forever`` refuse), and it
    acknowledges by hand (``manual_ack``), with a Receive Maximum: the broker then sends at
    most that many messages before their acknowledgements, so the loop's draining of the
    buffer ends (``mqtt_client`` refuses ``read_ahead`` without ``manual_ack``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._ahead = bytearray()
        self._ahead_of: Any = None  # the socket the buffer was read from

    def loop_start(self) -> MQTTErrorCode:
        raise TypeError("a ReadAheadClient runs on mqttlink.NetworkLoop, not paho's loop")

    def loop_forever(self, *args: Any, **kwargs: Any) -> MQTTErrorCode:
        raise TypeError("a ReadAheadClient runs on mqttlink.NetworkLoop, not paho's loop")

    def buffered(self) -> int:
        """Bytes read from the current socket and not yet handed to paho."""
        return len(self._ahead) if self._ahead_of is self._sock else 0

    def _packet_write(self) -> MQTTErrorCode:
        # The acknowledgements of a batch, queued one by one (a PUBACK each message), go out
        # in one send: paho would make a system call for each. What paho does after a
        # packet is written does nothing for a PUBACK, so one packet of all of them is alike.
        out = self._out_packet
        if len(out) > 1 and out[0]["command"] == PUBACK and out[1]["command"] == PUBACK:
            acks: list[bytes] = []
            while out and out[0]["command"] == PUBACK and len(acks) < MAX_ACKS_JOINED:
                packet = out.popleft()
                acks.append(bytes(packet["packet"][packet["pos"]:]))
            joined = b"".join(acks)
            out.appendleft({"command": PUBACK, "mid": 0, "qos": 0, "pos": 0,
                            "to_process": len(joined), "packet": joined, "info": None})
        return super()._packet_write()

    def _handle_publish(self) -> MQTTErrorCode:
        # paho's own, but for the properties (ReceivedProperties): the packet is read by
        # paho's decoder as MQTT 3.1.1 has it (without properties), and the properties at
        # the head of what that decoder took for the payload are read by paho's unpack.
        # What this does not take (QoS 2, or the invalid 3; an empty topic behind a topic
        # alias; a client that logs each packet; a paho older than 2.2) goes to paho's.
        header, packet = self._in_packet["command"], self._in_packet["packet"]
        if (_packet is None or self._protocol != mqtt.MQTTv5 or (header & 0x06) >= 0x04
                or packet[:2] == b"\0\0" or self.on_log is not None
                or (self._logger is not None and self._logger.isEnabledFor(logging.DEBUG))):
            return super()._handle_publish()
        result = _packet.decode_publish(header, packet, MQTTProtocolVersion.MQTTv311)
        properties = ReceivedProperties(PacketTypes.PUBLISH)
        try:
            _, used = properties.unpack(result.payload)  # type: ignore[no-untyped-call]
        except _packet.DECODE_ERRORS as error:  # as paho's decoder says it
            raise _packet.MalformedPacket(str(error)) from error
        message = mqtt.MQTTMessage(mid=result.mid, topic=result.topic)
        message.dup = result.dup
        message.qos = result.qos
        message.retain = result.retain
        message.properties = properties
        message.payload = result.payload[used:]
        message.timestamp = mqtt.time_func()
        self._handle_on_message(message)
        if message.qos == 0 or self._manual_ack:
            return MQTTErrorCode.MQTT_ERR_SUCCESS
        return self._send_puback(message.mid)

    def _sock_recv(self, bufsize: int) -> bytes:
        if self._ahead_of is not self._sock:  # a new connection: nothing of the old one
            self._ahead.clear()
            self._ahead_of = self._sock
        if not self._ahead:
            data = super()._sock_recv(READ_AHEAD)  # BlockingIOError when there is nothing
            if len(data) <= bufsize:
                return data  # the end of the stream (b"") or no more than was asked
            self._ahead += data
        taken = bytes(self._ahead[:bufsize])
        del self._ahead[:bufsize]
        return taken


def mqtt_client(settings: BrokerSettings, client_id: str, *, read_ahead: bool = False,
                **options: Any) -> mqtt.Client:
    """A paho 2 client, MQTT v5, logged in (and TLS) as ``settings`` say: the table's and the
    server's connections are made the same way. ``read_ahead``: a :class:`ReadAheadClient`,
    for a client that receives far more than it sends (the server's ingest)."""
    if read_ahead and not options.get("manual_ack"):
        raise ValueError("read_ahead is for a client that acknowledges by hand (manual_ack)")
    kind = ReadAheadClient if read_ahead else mqtt.Client
    client = kind(CallbackAPIVersion.VERSION2, client_id=client_id,
                  protocol=mqtt.MQTTv5, **options)
    if settings.username is not None:
        client.username_pw_set(settings.username, settings.password)
    if settings.cafile is not None:
        client.tls_set(ca_certs=settings.cafile or None, certfile=settings.certfile,
                       keyfile=settings.keyfile, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    client.reconnect_delay_set(min_delay=1, max_delay=16)
    return client


def connect_persistent(client: mqtt.Client, settings: BrokerSettings, expiry: int, *,
                       receive_maximum: int | None = None) -> None:
    """Connect in the background with a persistent session (``clean_start`` false and a
    session expiry of ``expiry`` seconds), so what is sent while this end is away waits at
    the broker.

    ``receive_maximum``: how many QoS 1 messages the broker may send before this end has
    acknowledged them. Without it Mosquitto sends an MQTT v5 client its own default,
    ``max_inflight_messages`` 20, whatever the v5 default of 65,535 says."""
    properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
    properties.SessionExpiryInterval = expiry
    if receive_maximum is not None:
        properties.ReceiveMaximum = receive_maximum
    client.connect_async(settings.host, settings.port, keepalive=settings.keepalive,
                         clean_start=False, properties=properties)


def close_sockets(client: mqtt.Client) -> None:
    """Close the client's socket, and the loopback socket pair paho 2.2's loop_start opens and
    only ``__del__`` closes (its thread keeps the client in a reference cycle, so that may be
    late)."""
    reset = getattr(client, "_reset_sockets", None)
    if reset is not None:
        reset()
