"""The ingest worker against a real broker: stored once, nothing lost across a restart,
commands delivered to the table's topic."""

from __future__ import annotations

from sqlalchemy import func, select

from bidbox.broker import BrokerUsers
from server.link.rounds import create_session, start_round
from server.storage import schema as s
from tablemodel.wire import ONLINE, Command, Event, table_topic
from tests.fixtures.broker import EVENT, MqttConnect
from tests.server_system.conftest import ServerFactory, services, wait_until


def event(seq: int, kind: str = "confirm", board: int | None = 1, **data: object) -> bytes:
    return Event(seq, kind, 100.0 + seq, board, data or {"seat": "N"}).to_payload()


def stored(app: object) -> int:
    with services(app).db.read() as conn:  # type: ignore[arg-type]
        return int(conn.execute(select(func.count()).select_from(s.events)).scalar_one())


def test_published_events_are_stored_and_presence_seen(
        start_server: ServerFactory, mqtt_connect: MqttConnect,
        broker_users: BrokerUsers) -> None:
    app = start_server()
    table = mqtt_connect(broker_users.table(2))
    table.publish(table_topic(EVENT, 2, "status"), ONLINE, retain=True)
    for seq in range(1, 6):
        table.publish(table_topic(EVENT, 2, "events"), event(seq))
    table.publish(table_topic(EVENT, 2, "events"), event(3))  # a duplicate
    wait_until(services(app), lambda: stored(app) == 5)
    with services(app).db.read() as conn:
        row = conn.execute(select(s.table_status)).one()
    assert (row.table_no, row.contiguous_seq) == (2, 5)
    wait_until(services(app), lambda: _online(app, 2))


def _online(app: object, table: int) -> bool:
    with services(app).db.read() as conn:  # type: ignore[arg-type]
        return bool(conn.execute(select(s.table_status.c.online).where(
            s.table_status.c.table_no == table)).scalar())


def test_a_gap_sends_the_table_a_resend_command(
        start_server: ServerFactory, mqtt_connect: MqttConnect,
        broker_users: BrokerUsers) -> None:
    app = start_server()
    table = mqtt_connect(broker_users.table(1))
    table.subscribe(table_topic(EVENT, 1, "cmd"))
    table.publish(table_topic(EVENT, 1, "events"), event(1))
    table.publish(table_topic(EVENT, 1, "events"), event(4))
    message = table.expect(table_topic(EVENT, 1, "cmd"))
    command = Command.from_payload(message.payload)
    assert command.type == "resend" and dict(command.data) == {"since": 2, "until": 3}
    table.publish(table_topic(EVENT, 1, "events"), event(2))
    table.publish(table_topic(EVENT, 1, "events"), event(3))
    wait_until(services(app), lambda: stored(app) == 4)


def test_nothing_is_lost_while_the_server_restarts(
        start_server: ServerFactory, mqtt_connect: MqttConnect,
        broker_users: BrokerUsers) -> None:
    first = start_server()
    table = mqtt_connect(broker_users.table(3))
    table.publish(table_topic(EVENT, 3, "events"), event(1))
    wait_until(services(first), lambda: stored(first) == 1)
    services(first).close()  # the server goes away; its session stays at the broker
    for seq in range(2, 12):
        table.publish(table_topic(EVENT, 3, "events"), event(seq))
    second = start_server()
    wait_until(services(second), lambda: stored(second) == 11)
    with services(second).db.read() as conn:
        seqs = list(conn.execute(select(s.events.c.seq).order_by(s.events.c.seq)).scalars())
    assert seqs == list(range(1, 12))


def test_a_round_reaches_every_table_as_an_assign_command(
        start_server: ServerFactory, mqtt_connect: MqttConnect,
        broker_users: BrokerUsers) -> None:
    app = start_server()
    tables = {n: mqtt_connect(broker_users.table(n)) for n in (1, 2, 3)}
    for number, client in tables.items():
        client.subscribe(table_topic(EVENT, number, "cmd"))
    session = create_session(services(app).db, event=EVENT, title="Club", kind="mitchell",
                             participants=6, boards_per_round=2, seed=7)
    ids = start_round(services(app).db, session, 1, by="director")
    services(app).commands_queued()
    for number, client in tables.items():
        command = Command.from_payload(client.expect(table_topic(EVENT, number, "cmd")).payload)
        seating = session.plan.at(1, number)
        assert command.id in ids and command.type == "assign"
        assert (command.data["ns"], command.data["ew"], command.data["boards"]) == (
            seating.ns, seating.ew, list(seating.boards))
        assert set(command.data["deals"]) == {str(b) for b in seating.boards}
    wait_until(services(app), lambda: _all_sent(app))


def _all_sent(app: object) -> bool:
    with services(app).db.read() as conn:  # type: ignore[arg-type]
        return conn.execute(select(func.count()).select_from(s.commands).where(
            s.commands.c.sent_at.is_(None))).scalar_one() == 0


def test_a_table_that_comes_online_gets_the_commands_it_missed(
        start_server: ServerFactory, mqtt_connect: MqttConnect,
        broker_users: BrokerUsers) -> None:
    """A round started before a table's first connection: its assign was published when
    nobody was subscribed, so the broker kept nothing; the table's "online" brings it again."""
    app = start_server()
    session = create_session(services(app).db, event=EVENT, title="Club", kind="mitchell",
                             participants=6, boards_per_round=2, seed=7)
    [first, *_] = start_round(services(app).db, session, 1, by="director")
    services(app).commands_queued()
    wait_until(services(app), lambda: _all_sent(app))
    table = mqtt_connect(broker_users.table(1))
    table.subscribe(table_topic(EVENT, 1, "cmd"))
    table.publish(table_topic(EVENT, 1, "status"), ONLINE, retain=True)
    command = Command.from_payload(table.expect(table_topic(EVENT, 1, "cmd")).payload)
    assert (command.id, command.type) == (first, "assign")
