"""The database refuses writes while tables publish (issue 27, item 1): on PostgreSQL, made
read-only and its connections cut, as a server restarted read-only or a full disk leaves it.
The worker holds what it could not store, says why, and stores it all by itself once the
database takes writes again: no restart, nothing lost.

(The full disk on SQLite, with real tables, is tests/faults/test_faults_storage.py.)"""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy import func, select

from bidbox.broker import BrokerUsers
from server.storage import schema as s
from tablemodel.wire import Event, table_topic
from tests.faults.harness import wait_until as poll
from tests.fixtures.broker import EVENT, MqttConnect
from tests.server_system.conftest import ServerFactory, services, wait_until

pytestmark = pytest.mark.postgres

EVENTS = 60


def _stored(app: object) -> int:
    with services(app).db.read() as conn:  # type: ignore[arg-type]
        return int(conn.execute(select(func.count()).select_from(s.events)).scalar_one())


def _admin(pg_url: str, sql: str) -> None:
    base, name = pg_url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(sql.format(name=name))


def test_writes_refused_then_taken_again_lose_nothing(
        start_server: ServerFactory, mqtt_connect: MqttConnect, broker_users: BrokerUsers,
        pg_url: str) -> None:
    app = start_server(DATABASE=pg_url)
    bus = services(app).bus
    table = mqtt_connect(broker_users.table(1))
    topic = table_topic(EVENT, 1, "events")

    def publish(first: int, last: int) -> None:
        for seq in range(first, last + 1):
            table.publish(topic, Event(seq, "confirm", 100.0 + seq, 1,
                                       {"seat": "N"}).to_payload())

    publish(1, 20)
    wait_until(services(app), lambda: _stored(app) == 20)
    _admin(pg_url, 'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    _admin(pg_url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                   "WHERE datname = '{name}' AND pid <> pg_backend_pid()")
    try:
        publish(21, 40)
        poll(lambda: bus.fault is not None, 30.0, "the worker to say it cannot store")
        assert bus.fault.reason in ("read_only", "unreachable"), bus.fault
        # Tried again by itself while the database still refuses (the hub hears of no try).
        poll(lambda: bus.fault is not None and bus.fault.tries >= 3, 30.0, "a third try")
        assert _stored(app) == 20
        publish(41, EVENTS)
    finally:
        _admin(pg_url, 'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
        _admin(pg_url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = '{name}' AND pid <> pg_backend_pid()")
    wait_until(services(app), lambda: _stored(app) == EVENTS and bus.fault is None)
    with services(app).db.read() as conn:
        seqs = sorted(conn.execute(select(s.events.c.seq)).scalars())
    assert seqs == list(range(1, EVENTS + 1))
