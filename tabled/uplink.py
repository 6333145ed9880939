"""The table's MQTT side: paho-mqtt 2, MQTT v5, QoS 1, a persistent session.

The table thread publishes; paho's network thread runs the callbacks, and every callback only
puts a small item on the table's inbox (``Acked``, ``LinkStatus``, a ``Command``) and returns:
nothing blocks inside a callback, and only the table thread touches the journal.

- Events go QoS 1 to ``.../events``; the journal's outbox keeps each one until its PUBACK.
  While the broker is away paho queues them and sends them on reconnect; after a restart the
  daemon publishes the outbox again. QoS 1 is at-least-once: the server dedupes on the
  sequence number.
- ``.../status`` is retained: ``online`` on connect, ``offline`` as the last will and again,
  explicitly, on a clean shutdown (a clean disconnect does not send the will).
- ``.../state`` is a retained snapshot with no hidden information.
- ``.../cmd`` is subscribed in ``on_connect``, so a reconnect renews it; the session persists
  (clean_start false, a session expiry) so commands sent while the table was away wait.
- ``bidbox/v1/<event>/clock``, the retained round clock (a round extended), is subscribed
  beside it: the broker gives the latest on every connection. So is the table's own
  ``.../afterboard``, retained: what its displays may show after a board (tablemodel.afterboard).
- A table that follows the server's session also reads ``bidbox/v1/session``
  (tablemodel.running); moving to another session is a new client with that session's topics,
  will and client id (``follow``), called by the table thread once the table is free.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Mapping
from typing import Any

import paho.mqtt.client as mqtt

from mqttlink import BrokerSettings, NetworkLoop, close_sockets, connect_persistent, mqtt_client
from tablemodel.running import SESSION_TOPIC, RunningSession
from tablemodel.wire import (
    OFFLINE,
    ONLINE,
    Command,
    Event,
    WireError,
    afterboard_from_payload,
    afterboard_topic,
    clock_from_payload,
    clock_topic,
    state_payload,
    table_topic,
)

from .daemon import Acked, BadCommand, LinkStatus

log = logging.getLogger("bidbox.uplink")

SESSION_EXPIRY = 7 * 24 * 3600  # seconds the broker keeps a table's session while it is away


class Uplink:
    """One table's connection to the broker.

    ``follow``: the table follows the server's session (tablemodel.running): it also reads
    ``bidbox/v1/session``, and :meth:`follow` moves it to another session's topics. Its
    ``event`` is None until it has one: then it only listens for the session."""

    def __init__(self, event: str | None, table: int, settings: BrokerSettings,
                 inbox: queue.Queue[Any], *, client_id: str | None = None,
                 max_inflight: int = 100, network: NetworkLoop | None = None,
                 follow: bool = False) -> None:
        if event is None and not follow:
            raise ValueError("an uplink of no event must follow the server's session")
        self.network = network  # None: paho's own thread; else a loop shared with others
        self.table = table
        self.settings = settings
        self.inbox = inbox
        self.follows = follow
        self.link = 0  # sessions moved to (tabled.daemon.Acked.link)
        self.max_inflight = max_inflight
        self._client_id = client_id
        self.client = self._client(event)

    def _client(self, event: str | None) -> mqtt.Client:
        """A paho client for ``event``'s topics: its own client id per session, so the
        broker keeps each session's commands for it apart."""
        self.event = event
        self.topics = {} if event is None else {
            kind: table_topic(event, self.table, kind)
            for kind in ("status", "events", "state", "cmd")}
        self.clock_topic = None if event is None else clock_topic(event)
        self.afterboard_topic = None if event is None else afterboard_topic(event, self.table)
        if event is None:
            client_id = f"bidbox-table-{self.table}"
        elif self.follows or self._client_id is None:
            client_id = f"bidbox-{event}-table-{self.table}"
        else:
            client_id = self._client_id
        client = mqtt_client(self.settings, client_id)
        if event is not None:
            client.will_set(self.topics["status"], OFFLINE, qos=1, retain=True)
        client.max_inflight_messages_set(self.max_inflight)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client

    # -- life cycle ----------------------------------------------------------------------------

    def start(self) -> None:
        connect_persistent(self.client, self.settings, SESSION_EXPIRY)
        if self.network is not None:
            self.network.add(self.client)
        else:
            self.client.loop_start()

    def stop(self, timeout: float = 3.0) -> None:
        """Clean shutdown: an explicit retained ``offline`` (the will is not sent then)."""
        if self.client.is_connected() and self.event is not None:
            info = self.client.publish(self.topics["status"], OFFLINE, qos=1, retain=True)
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError) as error:
                log.warning("table %s: offline status not confirmed: %s", self.table, error)
        self.client.disconnect()
        if self.network is not None:
            self.network.remove(self.client, timeout)
            return
        self.client.loop_stop()
        close_sockets(self.client)

    def follow(self, event: str) -> None:
        """Table thread: leave the session's topics (``offline`` there) and take
        ``event``'s, on a client of that session's own."""
        self.stop()
        self.link += 1
        self.client = self._client(event)
        self.start()

    # -- publishing (table thread) -------------------------------------------------------------

    def publish_event(self, event: Event) -> int | None:
        if self.event is None:
            return None  # no session yet (the daemon records nothing then)
        info = self.client.publish(self.topics["events"], event.to_payload(), qos=1)
        if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):
            log.warning("table %s: event %s not queued (%s)", self.table, event.seq,
                        mqtt.error_string(info.rc))
            return None
        return info.mid

    def publish_state(self, snapshot: Mapping[str, Any]) -> None:
        if self.event is None:
            return
        self.client.publish(self.topics["state"], state_payload(snapshot), qos=1, retain=True)

    # -- callbacks (paho's thread): put on the inbox and return --------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                    properties: Any) -> None:
        if reason_code.is_failure:
            self.inbox.put(LinkStatus(False, f"refused: {reason_code}"))
            return
        # Subscribe first: the broker handles a client's packets in order, so by the time
        # anyone sees "online" the commands sent from then on reach this table.
        topics = [] if self.event is None else [(self.topics["cmd"], 1),
                                                 (clock_topic(self.event), 1),
                                                 (afterboard_topic(self.event, self.table), 1)]
        if self.follows:
            topics.append((SESSION_TOPIC, 1))
        client.subscribe(topics)
        if self.event is not None:
            client.publish(self.topics["status"], ONLINE, qos=1, retain=True)
        self.inbox.put(LinkStatus(True, "session resumed" if flags.session_present else ""))

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        self.inbox.put(LinkStatus(False, str(reason_code)))

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason_code: Any,
                    properties: Any) -> None:
        if reason_code.is_failure:
            # The broker refused it (a wrong ACL, say): it stays in the outbox.
            log.error("table %s: the broker refused message %s: %s", self.table, mid,
                      reason_code)
            return
        self.inbox.put(Acked(mid, self.link))

    def _on_message(self, client: mqtt.Client, userdata: Any,
                    message: mqtt.MQTTMessage) -> None:
        try:
            if message.topic == SESSION_TOPIC:
                self.inbox.put(RunningSession.from_payload(bytes(message.payload)))
            elif message.topic == self.clock_topic:
                self.inbox.put(clock_from_payload(bytes(message.payload)))
            elif message.topic == self.afterboard_topic:
                self.inbox.put(afterboard_from_payload(bytes(message.payload)))
            else:
                self.inbox.put(Command.from_payload(bytes(message.payload)))
        except WireError as error:
            self.inbox.put(BadCommand(str(error)))
