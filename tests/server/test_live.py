"""The live hub: which kinds changed, and for the tables grid which tables, so the console
fetches those rows alone; "all of them" (None) whenever the hub cannot be sure."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import paho.mqtt.client as mqtt
import pytest
from flask import Flask

from mqttlink import BrokerSettings, close_sockets
from server.link.bus import Bus
from server.link.live import MAX_TABLES, Change, Hub, change_message
from tablemodel.wire import ONLINE, Event, table_topic
from tests.server.conftest import EVENT, login, services

CONSOLE = frozenset({"tables", "results", "calls", "commands"})


def test_a_waiter_hears_the_tables_of_every_change_since_its_version() -> None:
    hub = Hub()
    start = hub.version
    hub.notify({"tables"}, tables=[3])
    middle = hub.notify({"tables", "calls"}, tables={17, 3})
    hub.notify({"results"})  # no tables of its own: it says nothing of the grid
    hub.notify({"tables"}, tables=(40,))
    assert hub.wait(start, 0) == Change(hub.version, frozenset({"tables", "calls", "results"}),
                                        frozenset({3, 17, 40}))
    assert hub.wait(middle, 0).tables == {40}


def test_a_change_of_the_tables_that_does_not_say_which_means_all_of_them() -> None:
    hub = Hub()
    start = hub.version
    hub.notify({"tables"}, tables=[3])
    after_all = hub.notify({"tables", "results"})  # e.g. the console's set-up: no numbers
    hub.notify({"tables"}, tables=[5])
    assert hub.wait(start, 0).tables is None
    assert hub.wait(after_all, 0).tables == {5}  # known again after it


def test_a_waiter_too_far_behind_is_told_all_the_tables() -> None:
    hub = Hub(history=4)
    for table in range(1, 7):
        hub.notify({"tables"}, tables=[table])
    behind = hub.wait(0, 0)
    assert (behind.version, behind.kinds, behind.tables) == (6, {"tables"}, None)
    assert hub.wait(hub.version - 3, 0).tables == {4, 5, 6}  # still within the history


def test_a_streams_hello_says_when_the_last_change_was() -> None:
    """A page built before a change its stream opened too late to tell fetches its live parts
    again: the hello carries when the last change was recorded, by the server's clock."""
    hub = Hub()
    first = next(hub.stream(frozenset({"results"})))
    assert json.loads(first.split("data: ")[1])["changed_at"] == 0.0  # no change yet
    before = time.time()
    hub.notify({"results"})
    hello = json.loads(next(hub.stream(frozenset({"results"}))).split("data: ")[1])
    assert before <= hello["changed_at"] <= time.time()
    assert hello["version"] == 1
    hub.record(set())  # nothing changed: the time stays
    assert hub.changed_at == hello["changed_at"]
    hub.close()


def test_a_timeout_says_nothing_changed() -> None:
    hub = Hub()
    hub.notify({"tables"}, tables=[1])
    assert hub.wait(hub.version, 0) == Change(hub.version, frozenset(), frozenset())


@pytest.mark.parametrize(("change", "expected"), [
    (Change(7, frozenset({"tables", "calls"}), frozenset({17, 3})),
     {"version": 7, "kinds": ["calls", "tables"], "tables": [3, 17]}),
    (Change(7, frozenset({"tables"}), None), {"version": 7, "kinds": ["tables"], "tables": None}),
    (Change(7, frozenset({"tables"}), frozenset(range(1, MAX_TABLES + 2))),
     {"version": 7, "kinds": ["tables"], "tables": None}),  # too many to be worth naming
    (Change(7, frozenset({"tables"}), frozenset(range(1, MAX_TABLES + 1))),
     {"version": 7, "kinds": ["tables"], "tables": list(range(1, MAX_TABLES + 1))}),
    (Change(7, frozenset({"results"}), None), {"version": 7, "kinds": ["results"]}),
    (Change(7, frozenset({"analysis"}), frozenset({2})), None),  # not the console's
], ids=["named", "unknown", "too-many", "at-the-cap", "no-tables-kind", "not-wanted"])
def test_the_change_message_names_the_tables_when_it_can(change: Change,
                                                         expected: dict[str, object] | None
                                                         ) -> None:
    assert change_message(change, CONSOLE) == expected


# -- through the ingest worker ---------------------------------------------------------------

def message(table: int, kind: str, payload: bytes) -> mqtt.MQTTMessage:
    """What paho hands the worker (QoS 0: nothing to acknowledge to a broker)."""
    found = mqtt.MQTTMessage(topic=table_topic(EVENT, table, kind).encode())
    found.payload = payload
    return found


def event(seq: int) -> bytes:
    return Event(seq, "confirm", 1_000.0 + seq, 1, {"seat": "N"}).to_payload()


@pytest.fixture
def bus(any_app: Flask) -> Iterator[Bus]:
    """The server's ingest worker on the app's database and hub, never connected: the test
    hands it batches as paho would."""
    worker = Bus(services(any_app).ingest, services(any_app).hub, BrokerSettings())
    yield worker
    close_sockets(worker.client)


def test_the_console_stream_names_the_tables_a_batch_stored(any_app: Flask, bus: Bus) -> None:
    client = any_app.test_client()
    login(client)
    response = client.get("/console/stream", buffered=False)
    try:
        chunks = iter(response.response)
        assert "event: hello" in _text(next(chunks))
        bus._handle([message(5, "events", event(1)), message(2, "events", event(1)),
                     message(5, "events", event(2)), message(5, "status", ONLINE),
                     message(2, "events", event(1))])  # a duplicate changes nothing
        text = _text(next(chunks))
        assert text.startswith("event: change\n")
        data = json.loads(text.split("data: ")[1])
        assert data["kinds"] == ["tables"] and data["tables"] == [2, 5]

        bus._handle([message(7, "events", b"not an event")])  # rejected: no change at all
        bus._handle([message(2, "events", event(2))])
        data = json.loads(_text(next(chunks)).split("data: ")[1])
        assert data["tables"] == [2]
    finally:
        response.close()


def _text(chunk: bytes | str) -> str:
    return chunk.decode() if isinstance(chunk, bytes) else chunk
