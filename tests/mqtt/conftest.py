"""Fixtures of the MQTT tests: a real mosquitto on a free loopback port, and paho clients.

Every wait is on an event with a bounded timeout; nothing sleeps in place of a handshake.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt.client import Client, ConnectFlags, MQTTMessage, MQTTv5
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from bidbox.broker import Broker, BrokerConfig, BrokerUsers, Credentials, find_mosquitto

TIMEOUT = 30.0
"""Seconds any wait may take before the test fails; a pass never waits this long."""

EVENT = "test"
TABLES = range(1, 5)


class MqttClient:
    """A paho-mqtt 2 client (MQTT v5) that waits for its acknowledgements.

    Received messages go on ``messages``; ``expect`` takes them off in order, keeping those it
    skips in ``seen``, so a test can assert that something never arrived.
    """

    def __init__(self, broker: Broker, creds: Credentials, *, client_id: str = "",
                 clean_start: bool = True, session_expiry: int = 0) -> None:
        self.broker = broker
        self.creds = creds
        self.clean_start = clean_start
        self.session_expiry = session_expiry
        self.paho = Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=MQTTv5)
        self.paho.username_pw_set(creds.username, creds.password)
        self.paho.on_connect = self._on_connect
        self.paho.on_publish = self._on_ack
        self.paho.on_subscribe = self._on_ack
        self.paho.on_message = self._on_message
        self.connected = threading.Event()
        self.connack: ReasonCode | None = None
        self.session_present = False
        self.messages: queue.Queue[MQTTMessage] = queue.Queue()
        self.seen: list[MQTTMessage] = []
        self._acks: dict[int, Any] = {}
        self._acked = threading.Condition()

    def connect(self) -> ReasonCode:
        """Connect and wait for the CONNACK; its reason code (a failure is returned, too)."""
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = self.session_expiry
        self.paho.connect(self.broker.host, self.broker.port, keepalive=30,
                          clean_start=self.clean_start, properties=props)
        self.paho.loop_start()
        assert self.connected.wait(TIMEOUT), f"no CONNACK for {self.creds.username}"
        assert self.connack is not None
        return self.connack

    def subscribe(self, *topics: str, qos: int = 1) -> list[ReasonCode]:
        """Subscribe and wait for the SUBACK; one reason code per topic."""
        rc, mid = self.paho.subscribe([(t, qos) for t in topics])
        assert rc == 0, rc
        codes: list[ReasonCode] = self._wait_ack(mid)
        return codes

    def publish(self, topic: str, payload: bytes, *, qos: int = 1,
                retain: bool = False) -> ReasonCode:
        """Publish; at QoS 1, wait for the PUBACK and return its reason code."""
        info = self.paho.publish(topic, payload, qos=qos, retain=retain)
        assert info.rc == 0, info.rc
        code: ReasonCode = self._wait_ack(info.mid)
        return code

    def expect(self, topic: str, payload: bytes | None = None) -> MQTTMessage:
        """The next message on ``topic`` (with ``payload``, if given); others go to ``seen``."""
        while True:
            try:
                msg = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError(f"{self.creds.username} got no {topic} {payload!r}; "
                                     f"saw {[(m.topic, m.payload) for m in self.seen]}") from None
            if msg.topic == topic and (payload is None or msg.payload == payload):
                return msg
            self.seen.append(msg)

    def close(self) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()
        # paho 2.2's loop_start opens a loopback socket pair that only Client.__del__ closes,
        # and its thread keeps the Client in a reference cycle: the garbage collector may
        # finalize the sockets first, and their ResourceWarning fails the run.
        self.paho._reset_sockets()

    def _wait_ack(self, mid: int) -> Any:
        with self._acked:
            assert self._acked.wait_for(lambda: mid in self._acks, TIMEOUT), f"no ack of {mid}"
            return self._acks.pop(mid)

    def _on_connect(self, client: Client, userdata: Any, flags: ConnectFlags,
                    reason_code: ReasonCode, properties: Properties | None) -> None:
        self.connack = reason_code
        self.session_present = flags.session_present
        if reason_code.is_failure:
            # Else paho's loop would keep retrying the refused login.
            client.disconnect()
        self.connected.set()

    def _on_ack(self, client: Client, userdata: Any, mid: int, reason: Any,
                properties: Properties | None) -> None:
        with self._acked:
            self._acks[mid] = reason
            self._acked.notify_all()

    def _on_message(self, client: Client, userdata: Any, msg: MQTTMessage) -> None:
        self.messages.put(msg)


@pytest.fixture(scope="session")
def mosquitto_bin() -> Path:
    binary = find_mosquitto()
    if binary is None:
        pytest.skip("no mosquitto binary (PATH, /usr/sbin): apt-get install mosquitto, "
                    "or run scripts/setup.py")
    return binary


@pytest.fixture
def broker_users() -> BrokerUsers:
    return BrokerUsers.generate(EVENT, TABLES)


@pytest.fixture
def broker(mosquitto_bin: Path, broker_users: BrokerUsers, tmp_path: Path) -> Iterator[Broker]:
    """A running broker for event "test" with tables 1 to 4, stopped afterwards."""
    config = BrokerConfig(tmp_path / "broker", broker_users)
    with Broker(config, binary=mosquitto_bin) as running:
        yield running


MqttConnect = Callable[..., MqttClient]


@pytest.fixture
def mqtt_connect(broker: Broker) -> Iterator[MqttConnect]:
    """``mqtt_connect(creds, **kw)``: a connected :class:`MqttClient`, closed afterwards.

    With ``check=False`` a refused CONNACK is returned in ``client.connack`` instead of failing.
    """
    clients: list[MqttClient] = []

    def connect(creds: Credentials, *, check: bool = True, **kwargs: Any) -> MqttClient:
        client = MqttClient(broker, creds, **kwargs)
        clients.append(client)
        code = client.connect()
        if check:
            assert not code.is_failure, f"{creds.username} refused: {code}"
        return client

    yield connect
    for client in clients:
        client.close()
