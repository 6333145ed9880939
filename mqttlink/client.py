"""A paho-mqtt 2 client made the same way at both ends of the link: the table's uplink and
the server's bus log in, use TLS and keep a persistent session alike."""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
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


def mqtt_client(settings: BrokerSettings, client_id: str, **options: Any) -> mqtt.Client:
    """A paho 2 client, MQTT v5, logged in (and TLS) as ``settings`` say: the table's and the
    server's connections are made the same way."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
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
