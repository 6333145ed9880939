"""The live hub across processes: two servers on one PostgreSQL database (two apps, two
Services, as two ingest workers sharing the stream are) hear each other's changes through
LISTEN/NOTIFY, and a server that lost its connection says "everything" once it is back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from flask import Flask

from mqttlink import BrokerSettings, close_sockets
from server.link.bus import Bus
from server.link.live import KINDS, MAX_TABLES, Change, Hub
from server.link.relay import NOTIFY_LIMIT, Relay, Relayed, channel, decode, encode
from server.pages import console, display, vugraph
from tablemodel.wire import ONLINE
from tests.server.conftest import login, make_app, services
from tests.server.test_live import _text, event, message

WAIT = 10.0
"""Seconds a test waits for a change that should take milliseconds: a bound, not a pause."""


@pytest.fixture
def pair(pg_url: str) -> Iterator[tuple[Flask, Flask]]:
    """Two servers of one event on one fresh database."""
    first = make_app(pg_url)
    second = make_app(pg_url)
    yield first, second
    services(second).close()
    services(first).close()


def hub(app: Flask) -> Hub:
    return services(app).hub


def relay(app: Flask) -> Relay:
    found = services(app).relay
    assert found is not None
    return found


# -- the payload -------------------------------------------------------------------------------

@pytest.mark.parametrize(("change", "tables"), [
    (Relayed(frozenset({"tables", "calls"}), frozenset({17, 3})), [3, 17]),
    (Relayed(frozenset({"tables"}), frozenset(range(1, MAX_TABLES + 1))),
     list(range(1, MAX_TABLES + 1))),
    (Relayed(frozenset({"tables"}), frozenset(range(1, MAX_TABLES + 2))), None),
    # Fewer than MAX_TABLES, but numbers so long the payload would pass PostgreSQL's limit.
    (Relayed(frozenset({"tables"}), frozenset(10**40 + n for n in range(MAX_TABLES))), None),
    (Relayed(frozenset({"results"}), None), None),
], ids=["named", "at-the-cap", "past-the-cap", "past-the-bytes", "no-tables"])
def test_the_payload_names_the_tables_when_it_can(change: Relayed,
                                                  tables: list[int] | None) -> None:
    payload = encode("me", change)
    assert len(payload.encode()) < NOTIFY_LIMIT
    assert json.loads(payload) == {"origin": "me", "kinds": sorted(change.kinds),
                                   "tables": tables}
    assert decode(payload) == ("me", Relayed(change.kinds,
                                             None if tables is None else frozenset(tables)))


def test_kinds_past_the_limit_become_everything() -> None:
    kinds = frozenset(f"kind-{n:05}" for n in range(1_000))
    assert decode(encode("me", Relayed(kinds, None)))[1] == Relayed(KINDS, None)


@pytest.mark.parametrize("payload", [
    "", "[]", '{"origin": "x"}', '{"origin": 1, "kinds": [], "tables": null}',
    '{"origin": "x", "kinds": "tables", "tables": null}',
    '{"origin": "x", "kinds": ["tables"], "tables": [true]}',
    '{"origin": "x", "kinds": ["tables"], "tables": "3"}',
])
def test_a_payload_that_is_not_a_change_is_refused(payload: str) -> None:
    with pytest.raises(ValueError, match="not a relayed change"):
        decode(payload)


def test_merged_changes_keep_the_tables_of_those_that_named_them() -> None:
    grid = Relayed(frozenset({"tables"}), frozenset({3}))
    results = Relayed.of(frozenset({"results"}), frozenset({9}))  # tables without the kind
    assert results.tables is None
    assert grid.merge(results) == Relayed(frozenset({"tables", "results"}), frozenset({3}))
    assert results.merge(grid).tables == {3}
    assert grid.merge(Relayed(frozenset({"tables"}), frozenset({5}))).tables == {3, 5}
    assert grid.merge(Relayed(frozenset({"tables"}), None)).tables is None


def test_every_kind_a_page_streams_is_one_the_relay_can_say_changed() -> None:
    assert console.STREAM_KINDS | display.STREAM_KINDS | vugraph.WANTED <= KINDS


def test_the_payload_limit_is_postgresql_s(pg_url: str) -> None:
    """What ``encode`` avoids is real: PostgreSQL refuses the uncapped payload."""
    tables = frozenset(10**40 + n for n in range(MAX_TABLES))
    uncapped = json.dumps({"origin": "me", "kinds": ["tables"], "tables": sorted(tables)})
    assert len(uncapped.encode()) >= NOTIFY_LIMIT
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("SELECT pg_notify(%s, %s)",
                     (channel("test"), encode("me", Relayed(frozenset({"tables"}), tables))))
        with pytest.raises(psycopg.errors.InvalidParameterValue, match="too long"):
            conn.execute("SELECT pg_notify(%s, %s)", (channel("test"), uncapped))


# -- which servers relay -----------------------------------------------------------------------

def test_sqlite_and_a_server_told_not_to_relay_nothing(tmp_path: Any, pg_url: str) -> None:
    for app in (make_app(str(tmp_path / "bidbox.db")), make_app(pg_url, LIVE_RELAY=False)):
        try:
            assert services(app).relay is None and hub(app).forward is None
        finally:
            services(app).close()


# -- two servers -------------------------------------------------------------------------------

def test_a_change_on_one_server_wakes_the_other_once(pair: tuple[Flask, Flask]) -> None:
    a, b = pair
    start_a, start_b = hub(a).version, hub(b).version
    hub(a).notify({"tables", "calls"}, tables={17, 3})
    assert hub(b).wait(start_b, WAIT) == Change(start_b + 1, frozenset({"tables", "calls"}),
                                                frozenset({3, 17}))
    hub(b).notify({"results"})
    # A hears B's change after its own NOTIFY, which it ignored: one version each, no more.
    back = hub(a).wait(start_a + 1, WAIT)
    assert back == Change(start_a + 2, frozenset({"results"}), frozenset())
    assert hub(a).version == start_a + 2 and hub(b).version == start_b + 2
    assert relay(a).heard == 1 and relay(b).heard == 1


def test_a_change_past_the_cap_arrives_as_all_the_tables(pair: tuple[Flask, Flask]) -> None:
    a, b = pair
    start = hub(b).version
    hub(a).notify({"tables"}, tables=range(1, MAX_TABLES + 2))
    assert hub(b).wait(start, WAIT) == Change(start + 1, frozenset({"tables"}), None)


@pytest.fixture
def bus_of_a(pair: tuple[Flask, Flask]) -> Iterator[Bus]:
    """Server A's ingest worker, never connected: the test hands it batches as paho would."""
    worker = Bus(services(pair[0]).ingest, hub(pair[0]), BrokerSettings())
    yield worker
    close_sockets(worker.client)


def test_the_console_of_one_server_names_the_tables_the_other_stored(
        pair: tuple[Flask, Flask], bus_of_a: Bus) -> None:
    client = pair[1].test_client()
    login(client)
    response = client.get("/console/stream", buffered=False)
    try:
        chunks = iter(response.response)
        assert "event: hello" in _text(next(chunks))
        bus_of_a._handle([message(5, "events", event(1)), message(2, "events", event(1)),
                          message(5, "status", ONLINE)])
        text = _text(next(chunks))
        assert text.startswith("event: change\n")
        data = json.loads(text.split("data: ")[1])
        assert data["kinds"] == ["tables"] and data["tables"] == [2, 5]
    finally:
        response.close()


def _terminate(pg_url: str, pid: int | None) -> None:
    assert pid is not None
    with psycopg.connect(pg_url, autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)


def test_a_listener_cut_off_comes_back_and_says_everything(pg_url: str,
                                                           pair: tuple[Flask, Flask]) -> None:
    a, b = pair
    cut = relay(b).listener_pid
    start = hub(b).version
    _terminate(pg_url, cut)
    # What A said while B was away is lost to B: B's pages must fetch all they show.
    assert hub(b).wait(start, WAIT) == Change(start + 1, KINDS, None)
    assert relay(b).listener_pid != cut
    hub(a).notify({"tables"}, tables={4})
    assert hub(b).wait(start + 1, WAIT) == Change(start + 2, frozenset({"tables"}),
                                                  frozenset({4}))


def test_a_sender_cut_off_sends_the_change_still(pg_url: str,
                                                 pair: tuple[Flask, Flask]) -> None:
    a, b = pair
    start = hub(b).version
    hub(a).notify({"results"})  # the sender connects
    assert hub(b).wait(start, WAIT).kinds == {"results"}
    _terminate(pg_url, relay(a).sender_pid)
    hub(a).notify({"tables"}, tables={8})
    assert hub(b).wait(start + 1, WAIT) == Change(start + 2, frozenset({"tables"}),
                                                  frozenset({8}))
