"""The private broker: password hashes mosquitto accepts, the per-table ACL, and restarts.

Everything but the first few tests runs against a real mosquitto on a loopback port.
"""

from __future__ import annotations

import base64
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from bidbox.broker import (
    Broker,
    BrokerConfig,
    BrokerStartError,
    BrokerUsers,
    Credentials,
    hash_password,
    table_topic,
)
from tablemodel.wire import afterboard_topic
from tests.fixtures.broker import EVENT, MqttClient, MqttConnect

NOT_AUTHORIZED = 0x87
HASH_LINE = re.compile(r"\$7\$(\d+)\$([A-Za-z0-9+/]{16})\$([A-Za-z0-9+/]{86}==)\Z")

# Made by mosquitto_passwd 2.0.11: `mosquitto_passwd -b -c pw alice 's3cret:é'`.
MOSQUITTO_PASSWD_LINE = ("alice:$7$101$guLaMsVlErvqX33Z$BxLwZ8m/vkyYB3y+8o/ORyhDCecw3PgsYhUUyl"
                         "oWM0CclaQwiplz5IC7STphNWLR0aoPg1LhTAjC68ibhbxg9w==")


def topic(table: int, leaf: str) -> str:
    return table_topic(EVENT, table, leaf)


def same_salt_hash(line: str, password: str) -> tuple[str, str]:
    """(mosquitto's hash, ours with its salt and iterations)."""
    _, hashed = line.strip().split(":", 1)
    match = HASH_LINE.match(hashed)
    assert match, hashed
    salt = base64.b64decode(match[2])
    return hashed, hash_password(password, salt, int(match[1]))


# --- without a broker ------------------------------------------------------------------------

def test_hash_has_mosquitto_2_shape() -> None:
    match = HASH_LINE.match(hash_password("pw"))
    assert match and match[1] == "101"
    assert hash_password("pw") != hash_password("pw")  # a fresh salt each time


def test_hash_equals_mosquitto_passwd_given_its_salt() -> None:
    theirs, ours = same_salt_hash(MOSQUITTO_PASSWD_LINE, "s3cret:é")
    assert ours == theirs


def test_hash_equals_local_mosquitto_passwd(tmp_path: Path) -> None:
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        pytest.skip("no mosquitto_passwd")
    subprocess.run([tool, "-b", "-c", str(tmp_path / "pw"), "bob", "pa ss"], check=True,
                   capture_output=True, timeout=10)
    theirs, ours = same_salt_hash((tmp_path / "pw").read_text(), "pa ss")
    assert ours == theirs


def test_acl_gives_each_table_its_own_topics_only() -> None:
    users = BrokerUsers.generate("club-42", [1, 2], display=False)
    acl = users.acl_text()
    table1 = acl.split("user table-1\n")[1].split("\n\n")[0].splitlines()
    # Every session's topics at once: the files are written once for a club.
    assert table1 == [
        "topic write bidbox/v1/+/table/1/status",
        "topic write bidbox/v1/+/table/1/events",
        "topic write bidbox/v1/+/table/1/state",
        "topic read bidbox/v1/+/table/1/cmd",
        "topic read bidbox/v1/+/table/1/afterboard",
        "topic read bidbox/v1/+/clock",
        "topic read bidbox/v1/session",
    ]
    assert "club-42/" not in acl
    assert acl.index("user server") < acl.index("topic")  # nothing for anonymous clients
    assert "display" not in acl


@pytest.mark.parametrize("event", ["", "a/b", "a+", "#", "two words", "-x"])
def test_event_name_must_be_one_plain_topic_level(event: str) -> None:
    with pytest.raises(ValueError, match="event name"):
        BrokerUsers.generate(event, [1])


def test_users_round_trip_and_hide_passwords() -> None:
    users = BrokerUsers.generate(EVENT, [1, 3])
    assert BrokerUsers.loads(users.dumps()) == users
    assert users.table(3).password not in repr(users)
    assert [c.username for c in users.all()] == ["server", "table-1", "table-3", "display"]


def test_config_is_private_loopback_and_persistent(tmp_path: Path) -> None:
    config = BrokerConfig(tmp_path, BrokerUsers.generate(EVENT, [1]), port=1884)
    config.write()
    conf = config.conf_path.read_text().splitlines()
    for line in ["allow_anonymous false", "listener 1884 127.0.0.1", "persistence true",
                 f"password_file {config.passwd_path}", f"acl_file {config.acl_path}"]:
        assert line in conf
    for path in (config.passwd_path, config.acl_path, config.credentials_path):
        assert path.stat().st_mode & 0o077 == 0


# --- against mosquitto -----------------------------------------------------------------------

def test_server_reads_what_a_table_writes(broker_users: BrokerUsers,
                                          mqtt_connect: MqttConnect) -> None:
    server = mqtt_connect(broker_users.server)
    assert [c.value for c in server.subscribe(f"bidbox/v1/{EVENT}/#")] == [1]
    table = mqtt_connect(broker_users.table(1))
    for leaf in ("status", "events", "state"):
        assert table.publish(topic(1, leaf), leaf.encode()).value == 0
        server.expect(topic(1, leaf), leaf.encode())


def test_table_cannot_publish_as_another(broker_users: BrokerUsers,
                                         mqtt_connect: MqttConnect) -> None:
    server = mqtt_connect(broker_users.server)
    server.subscribe(f"bidbox/v1/{EVENT}/#")
    table2 = mqtt_connect(broker_users.table(2))
    # mosquitto 2.0.11 answers a denied QoS 1 publish from a v5 client with PUBACK 0x87;
    # a denied QoS 0 publish is dropped without a word.
    assert table2.publish(topic(1, "events"), b"forged").value == NOT_AUTHORIZED
    assert table2.publish(topic(1, "state"), b"forged", qos=0).value == 0
    assert table2.publish(topic(1, "cmd"), b"forged").value == NOT_AUTHORIZED
    assert table2.publish(topic(2, "events"), b"marker").value == 0
    server.expect(topic(2, "events"), b"marker")
    assert server.seen == []


@pytest.mark.parametrize("session", [EVENT, "club-2026-11-28", "Martes.2"])
def test_the_acl_holds_in_every_session(session: str, broker_users: BrokerUsers,
                                        mqtt_connect: MqttConnect) -> None:
    """The ACL names no session: in one the director creates later (no file changed), a
    table still writes only its own topics and reads only its own commands."""
    def at(table: int, leaf: str) -> str:
        return table_topic(session, table, leaf)

    server = mqtt_connect(broker_users.server)
    server.subscribe("bidbox/v1/#")
    table1 = mqtt_connect(broker_users.table(1))
    table1.subscribe(at(1, "cmd"), at(2, "cmd"))
    table2 = mqtt_connect(broker_users.table(2))
    assert table2.publish(at(1, "events"), b"forged").value == NOT_AUTHORIZED
    assert table1.publish(at(1, "events"), b"own").value == 0
    server.expect(at(1, "events"), b"own")
    assert server.publish(at(2, "cmd"), b"for table 2").value in (0, 16)
    assert server.publish(at(1, "cmd"), b"marker").value == 0
    table1.expect(at(1, "cmd"), b"marker")
    assert table1.seen == [] and [m.topic for m in server.seen] == []


def test_the_running_session_is_the_servers_to_name_and_every_tables_to_read(
        broker_users: BrokerUsers, mqtt_connect: MqttConnect) -> None:
    topic_ = "bidbox/v1/session"
    table1 = mqtt_connect(broker_users.table(1))
    assert table1.publish(topic_, b"forged", retain=True).value == NOT_AUTHORIZED
    server = mqtt_connect(broker_users.server)
    assert server.publish(topic_, b"club-2", retain=True).value in (0, 16)
    try:
        table3 = mqtt_connect(broker_users.table(3))
        table3.subscribe(topic_)
        table3.expect(topic_, b"club-2")  # retained: a table switched on later learns it
    finally:
        server.publish(topic_, b"", retain=True)


def test_table_reads_only_its_own_cmd(broker_users: BrokerUsers,
                                      mqtt_connect: MqttConnect) -> None:
    table1 = mqtt_connect(broker_users.table(1))
    # The subscriptions are granted all the same: mosquitto 2.0.11 filters on delivery.
    granted = table1.subscribe(topic(2, "cmd"), topic(2, "events"), "#", topic(1, "cmd"))
    assert [c.value for c in granted] == [1, 1, 1, 1]
    server = mqtt_connect(broker_users.server)
    table2 = mqtt_connect(broker_users.table(2))
    assert server.publish(topic(2, "cmd"), b"for table 2").value == 0
    assert table2.publish(topic(2, "events"), b"table 2's event").value == 0
    assert server.publish(topic(1, "cmd"), b"marker").value == 0
    table1.expect(topic(1, "cmd"), b"marker")
    assert {m.topic for m in table1.seen} <= {topic(1, "cmd")}  # "#" repeats its own cmd


def test_the_round_clock_is_the_servers_to_write_and_every_tables_to_read(
        broker_users: BrokerUsers, mqtt_connect: MqttConnect) -> None:
    clock = f"bidbox/v1/{EVENT}/clock"
    table1 = mqtt_connect(broker_users.table(1))
    assert table1.publish(clock, b"forged").value == NOT_AUTHORIZED
    server = mqtt_connect(broker_users.server)
    # Retained with nobody subscribed yet: "no matching subscribers" (16), not refused.
    assert server.publish(clock, b"round 1 ends", retain=True).value in (0, 16)
    try:
        table2 = mqtt_connect(broker_users.table(2))
        table2.subscribe(clock)
        table2.expect(clock, b"round 1 ends")  # retained: a table connecting later has it
    finally:
        server.publish(clock, b"", retain=True)


def test_a_tables_after_board_pages_are_the_servers_to_write_and_its_own_to_read(
        broker_users: BrokerUsers, mqtt_connect: MqttConnect) -> None:
    """Issue 32: what a table may show after a board is its own: no other table reads it
    (a board released to one is no business of another's), and no table writes it."""
    mine, other = afterboard_topic(EVENT, 1), afterboard_topic(EVENT, 2)
    table1 = mqtt_connect(broker_users.table(1))
    assert table1.publish(mine, b"forged").value == NOT_AUTHORIZED
    server = mqtt_connect(broker_users.server)
    assert server.publish(other, b"table 2's", retain=True).value in (0, 16)
    assert server.publish(mine, b"table 1's", retain=True).value in (0, 16)
    try:
        table1.subscribe(f"bidbox/v1/{EVENT}/table/+/afterboard")
        table1.expect(mine, b"table 1's")  # retained: it has it on connecting
        table2 = mqtt_connect(broker_users.table(2))
        table2.subscribe(other)
        table2.expect(other, b"table 2's")
        assert server.publish(other, b"more for 2").value == 0
        assert server.publish(mine, b"marker").value == 0
        table1.expect(mine, b"marker")  # by now table 2's would have come: it never does
        assert {m.topic for m in table1.seen} <= {mine}
    finally:
        server.publish(mine, b"", retain=True)
        server.publish(other, b"", retain=True)


def test_server_cannot_write_as_a_table(broker_users: BrokerUsers,
                                        mqtt_connect: MqttConnect) -> None:
    server = mqtt_connect(broker_users.server)
    assert server.publish(topic(1, "events"), b"forged").value == NOT_AUTHORIZED


def test_display_reads_state_not_events(broker_users: BrokerUsers,
                                        mqtt_connect: MqttConnect) -> None:
    assert broker_users.display is not None
    display = mqtt_connect(broker_users.display)
    display.subscribe(f"bidbox/v1/{EVENT}/#")
    table = mqtt_connect(broker_users.table(3))
    table.publish(topic(3, "events"), b"hidden")
    table.publish(topic(3, "state"), b"public")
    display.expect(topic(3, "state"), b"public")
    assert display.seen == []
    assert display.publish(topic(3, "cmd"), b"forged").value == NOT_AUTHORIZED


@pytest.mark.parametrize("creds", [Credentials("table-1", "wrong"), Credentials("nobody", "x")])
def test_wrong_password_refused(creds: Credentials, mqtt_connect: MqttConnect) -> None:
    client = mqtt_connect(creds, check=False)
    assert client.connack is not None and client.connack.is_failure
    # mosquitto 2.0.11 says 0x87 Not authorized, not 0x86 Bad user name or password.
    assert client.connack.value == NOT_AUTHORIZED


@pytest.mark.parametrize("iterations", [1, 1000])
def test_mosquitto_accepts_other_iteration_counts(mosquitto_bin: Path, tmp_path: Path,
                                                  iterations: int) -> None:
    users = BrokerUsers.generate(EVENT, [1])
    config = BrokerConfig(tmp_path, users, password_iterations=iterations)
    with Broker(config, binary=mosquitto_bin) as broker:
        assert f"$7${iterations}$" in config.passwd_path.read_text()
        good = MqttClient(broker, users.table(1))
        bad = MqttClient(broker, Credentials("table-1", users.server.password))
        try:
            assert not good.connect().is_failure
            assert bad.connect().is_failure
        finally:
            good.close()
            bad.close()


def test_restart_keeps_a_persistent_session_queue(broker: Broker, broker_users: BrokerUsers,
                                                  mqtt_connect: MqttConnect) -> None:
    session = {"client_id": "table-1", "clean_start": False, "session_expiry": 300}
    table = mqtt_connect(broker_users.table(1), **session)
    table.subscribe(topic(1, "cmd"))
    table.close()
    server = mqtt_connect(broker_users.server)
    assert server.publish(topic(1, "cmd"), b'{"id":1}').value == 0
    server.close()
    port = broker.port
    broker.restart()
    assert broker.port == port and broker.url == f"mqtt://127.0.0.1:{port}"
    table = mqtt_connect(broker_users.table(1), **session)
    assert table.session_present
    table.expect(topic(1, "cmd"), b'{"id":1}')


def test_another_tables_client_id_gets_none_of_its_queue(broker_users: BrokerUsers,
                                                         mqtt_connect: MqttConnect) -> None:
    # mosquitto 2.0.11 does not tie a client id to a user: table 2 may take table 1's session
    # (and kick table 1 off), but the read ACL still keeps table 1's cmds from it.
    session = {"client_id": "table-1", "clean_start": False, "session_expiry": 300}
    table1 = mqtt_connect(broker_users.table(1), **session)
    table1.subscribe(topic(1, "cmd"))
    table1.close()
    server = mqtt_connect(broker_users.server)
    assert server.publish(topic(1, "cmd"), b"for table 1").value == 0
    thief = mqtt_connect(broker_users.table(2), **session)
    assert thief.session_present
    thief.subscribe(topic(2, "cmd"))
    assert server.publish(topic(2, "cmd"), b"marker").value == 0
    thief.expect(topic(2, "cmd"), b"marker")
    assert thief.seen == []


def test_start_after_kill_on_the_same_port(broker: Broker, broker_users: BrokerUsers,
                                           mqtt_connect: MqttConnect) -> None:
    pid = broker.pid
    broker.kill()
    assert not broker.running
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((broker.host, broker.port), timeout=1).close()
    broker.start()
    assert broker.running and broker.pid != pid
    mqtt_connect(broker_users.server)


def test_start_fails_clearly_when_the_port_is_taken(mosquitto_bin: Path, tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        config = BrokerConfig(tmp_path, BrokerUsers.generate(EVENT, [1]),
                              port=squatter.getsockname()[1])
        broker = Broker(config, binary=mosquitto_bin, start_timeout=0.5)
        with pytest.raises(BrokerStartError, match="Address already in use"):
            broker.start()
    assert not broker.running
