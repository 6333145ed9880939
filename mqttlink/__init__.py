"""The paho-mqtt plumbing that the table daemon (``tabled.uplink``), the server's bus
(``server.link.bus``) and the simulation's shards (``sim``) share: broker settings, a client made
the same way at every end, a persistent session, and one network thread for many clients.

It imports paho-mqtt and the standard library only: neither the table nor the server, so
each can use it without importing the other. The MQTT topics and payloads are not here; they
are the wire format (``tablemodel.wire``)."""

from __future__ import annotations

from .client import BrokerSettings, close_sockets, connect_persistent, mqtt_client
from .netloop import NetworkLoop

__all__ = ["BrokerSettings", "NetworkLoop", "close_sockets", "connect_persistent",
           "mqtt_client"]
