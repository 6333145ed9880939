"""Many tables' MQTT clients on one network thread (mqttlink.netloop), against a real Mosquitto.

The load test runs hundreds of tables in one process on a ``NetworkLoop``: these check that a
table on it behaves as one on paho's own thread (every event once and in order, the outbox
drained, the broker's loss survived, ``offline`` on a clean stop), that one thread serves them
all, and that a socket numbered above 1023, which paho's ``select()`` cannot watch, works.
"""

from __future__ import annotations

import os
import resource
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from bidbox.broker import Broker, BrokerUsers
from laws import Seat
from laws.formats import load_path
from mqttlink import NetworkLoop
from sim.recorded import BoardScript, RecordedPlayers, playable
from sim.simtable import SimulatedTable
from tests.fixtures.broker import EVENT
from tests.table_system.test_uplink import Collector, assign, journal_events, settings

TABLES = 4


@pytest.fixture
def scripts(played_records: Path) -> list[BoardScript]:
    good, _ = playable(load_path(played_records))
    played = [p.record for p in good if p.record.auction and len(p.record.auction) > 4]
    return [BoardScript.of(record) for record in played[:TABLES]]


@pytest.fixture
def network() -> Iterator[NetworkLoop]:
    with NetworkLoop(name="test-network") as loop:
        yield loop


def tables_on(stack: ExitStack, tmp_path: Path, broker: Broker, users: BrokerUsers,
              network: NetworkLoop, count: int) -> list[tuple[SimulatedTable, Collector]]:
    pairs = []
    for number in range(1, count + 1):
        collector = Collector(broker, users.server, table=number)
        stack.callback(collector.close)
        table = stack.enter_context(SimulatedTable(
            tmp_path / f"t{number}.db", event=EVENT, number=number,
            broker=settings(broker, users, number), network=network))
        pairs.append((table, collector))
    for _, collector in pairs:
        assert collector.wait_for(lambda c: c.statuses[-1:] == [b"online"])
    return pairs


def play_all(pairs: list[tuple[SimulatedTable, Collector]], scripts: list[BoardScript],
             steps: int | None = None) -> list[RecordedPlayers]:
    """Each table's board at the same time, each on its own thread, as in a shard."""
    players = []
    for (table, _), script in zip(pairs, scripts, strict=True):
        assign(table, script.board)
        seated = RecordedPlayers(table)
        seated.enter_players({seat: 10 + i for i, seat in enumerate(Seat)})
        players.append(seated)
    errors: list[BaseException] = []

    def play(seated: RecordedPlayers, script: BoardScript) -> None:
        try:
            if steps is None:
                seated.play_board(script)
            else:
                for _ in range(steps):
                    seated.step(script)
        except BaseException as error:  # reported by the test below
            errors.append(error)
    threads = [threading.Thread(target=play, args=(p, s)) for p, s in zip(players, scripts,
                                                                          strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    return players


def assert_all_once(pairs: list[tuple[SimulatedTable, Collector]]) -> None:
    for table, collector in pairs:
        total = table.journal.last_seq
        assert collector.wait_for(lambda c, total=total: c.contiguous() == total)
        assert [e.to_json() for _, e in sorted(collector.events.items())] == \
            journal_events(table)
        assert table.daemon.wait_for(lambda _, t=table: t.journal.outbox_size() == 0, 20.0)


def test_tables_on_one_network_thread_deliver_every_event_once_in_order(
        tmp_path: Path, broker: Broker, broker_users: BrokerUsers, network: NetworkLoop,
        scripts: list[BoardScript]) -> None:
    before = {t.name for t in threading.enumerate()}
    with ExitStack() as stack:
        pairs = tables_on(stack, tmp_path, broker, broker_users, network, TABLES)
        play_all(pairs, scripts)
        assert_all_once(pairs)
        for table, collector in pairs:
            assert collector.arrivals == list(range(1, table.journal.last_seq + 1))
        started = {t.name for t in threading.enumerate()} - before
        # No paho thread of their own: the one loop carries all four tables.
        assert not [name for name in started if name.startswith("paho-mqtt-client-bidbox")]
        assert [t.name for t in threading.enumerate()].count("test-network") == 1
    # Each clean stop said "offline" and closed its socket without being forced.
    for _, collector in pairs:
        assert collector.wait_for(lambda c: c.statuses[-1:] == [b"offline"])


def test_the_loop_reconnects_every_table_after_the_broker_dies(
        tmp_path: Path, broker: Broker, broker_users: BrokerUsers, network: NetworkLoop,
        scripts: list[BoardScript]) -> None:
    with ExitStack() as stack:
        pairs = tables_on(stack, tmp_path, broker, broker_users, network, TABLES)
        play_all(pairs, scripts, steps=30)
        broker.kill()
        for table, _ in pairs:  # each table sees its link go
            assert table.daemon.wait_for(lambda _, t=table: not t.daemon.connected, 20.0)
        broker.start()
        for table, _ in pairs:
            assert table.daemon.wait_for(lambda _, t=table: t.daemon.connected, 40.0)
        assert network.reconnects >= TABLES
        for (table, _), script in zip(pairs, scripts, strict=True):
            RecordedPlayers(table).play_board(script)
        assert_all_once(pairs)


def test_a_socket_above_1023_is_served(tmp_path: Path, broker: Broker,
                                       broker_users: BrokerUsers, network: NetworkLoop,
                                       scripts: list[BoardScript]) -> None:
    """paho's own loop uses select(), which cannot watch descriptor 1024 or above: the load
    test once lost a third of 1,000 tables to it. epoll can."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"the file limit here is {hard}: no descriptor above 1023 can be opened")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held: list[int] = []
    with ExitStack() as stack:
        collector = Collector(broker, broker_users.server, table=1)  # on select(): below 1024
        stack.callback(collector.close)
        try:
            while not held or held[-1] < 1030:  # every number below 1030 taken
                held.append(os.open(os.devnull, os.O_RDONLY))
            table = stack.enter_context(SimulatedTable(
                tmp_path / "t1.db", event=EVENT, number=1,
                broker=settings(broker, broker_users, 1), network=network))
            assert collector.wait_for(lambda c: c.statuses[-1:] == [b"online"])
            assert table.uplink is not None
            assert table.uplink.client.socket().fileno() > 1023  # type: ignore[union-attr]
            play_all([(table, collector)], scripts[:1])
            assert_all_once([(table, collector)])
        finally:
            for fd in held:
                os.close(fd)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
