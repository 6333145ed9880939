"""Clubs bridged to a centre: what ``bidbox provision --clubs`` and ``--club ... --centre``
write, and real Mosquitto processes running those files on loopback (docs/scale.md).

The federation is :class:`bidbox.loadtest_clubs.LoopbackFederation`: the central broker and
each club's broker run the generated mosquitto.conf (the bridge's keepalive and retry
shortened), the certificates are the provisioning's own, and each club's bridge reaches the
centre through a TCP relay of its own.
"""

from __future__ import annotations

import getpass
import json
import shutil
import ssl
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from paho.mqtt.client import Client, MQTTMessage, MQTTv5
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from bidbox.broker import (
    AclRule,
    Bridge,
    Broker,
    CentreUsers,
    Credentials,
    club_username,
    free_port,
)
from bidbox.cli import main
from bidbox.loadtest_clubs import EventTap, LoopbackFederation
from bidbox.provision import (
    Centre,
    CentreLogin,
    Deployment,
    add_clubs,
    broker_config,
    centre_broker_config,
    provision,
    provision_centre,
)
from mqttlink import BrokerSettings
from tests.fixtures.broker import TIMEOUT

EVENT = "simul-2026-11-25"
CLUBS = ("norte", "sur")


# --- the files --------------------------------------------------------------------------------

def test_the_centre_acl_lets_a_club_write_only_below_its_own_prefix() -> None:
    users = CentreUsers.generate(["norte", "sur"])
    assert users.acl() == {
        "centre": [AclRule("read", "clubs/#")],
        "club-norte": [AclRule("write", "clubs/norte/#")],
        "club-sur": [AclRule("write", "clubs/sur/#")],
    }
    text = users.acl_text()
    # No rule before the first user line: it would be anonymous clients'.
    assert text.splitlines()[1:3] == ["", "user centre"]
    assert "pattern" not in text and "readwrite" not in text


def test_the_bridge_sends_each_tables_topics_below_the_club_prefix(tmp_path: Path) -> None:
    creds = Credentials("club-norte", "s3cret")
    bridge = Bridge("norte", EVENT, "centre.example.org", 8883, creds, tmp_path / "ca.crt")
    lines = bridge.render()
    assert [line for line in lines if line.startswith("topic ")] == [
        f"topic v1/{EVENT}/table/+/{leaf} out 1 bidbox/ clubs/norte/bidbox/"
        for leaf in ("events", "status", "state")]
    settings = dict(line.split(" ", 1) for line in lines if not line.startswith(("#", "topic")))
    assert settings["address"] == "centre.example.org:8883"
    assert settings["remote_username"] == "club-norte"
    assert settings["bridge_cafile"] == str((tmp_path / "ca.crt").resolve())
    assert settings["bridge_insecure"] == "false"
    assert settings["cleansession"] == "false" and settings["local_cleansession"] == "false"
    assert settings["notification_topic"] == "clubs/norte/bridge/state"
    assert "s3cret" not in repr(bridge)
    # Nothing comes back from the centre: no "in" or "both" topic.
    assert not any(" in " in line or " both " in line for line in lines)


@pytest.mark.parametrize("changes, message", [
    ({"club": "no/slash"}, "club name"),
    ({"club": "a" * 17}, "1 to 16"),
    ({"club": "club_sevilla"}, "club name"),
    ({"credentials": Credentials("club-sur", "x")}, "logs in as 'club-norte'"),
    ({"keepalive": 2}, "at least 5"),
    ({"restart": (10, 5)}, "restart"),
])
def test_a_bad_bridge_is_refused(tmp_path: Path, changes: dict[str, Any], message: str) -> None:
    fields: dict[str, Any] = {"club": "norte", "event": EVENT, "host": "c.example.org",
                              "port": 8883, "credentials": Credentials("club-norte", "x"),
                              "cafile": tmp_path / "ca.crt", **changes}
    with pytest.raises(ValueError, match=message):
        Bridge(**fields)


@pytest.fixture(scope="module")
def centre_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("federation") / "centre"
    assert main(["provision", "--clubs", "norte,sur", "--out", str(out),
                 "--broker-host", "centre.example.org"]) == 0
    return out


def test_the_centre_writes_its_broker_and_a_login_per_club(centre_files: Path) -> None:
    modes = {p.relative_to(centre_files).as_posix(): stat.S_IMODE(p.stat().st_mode)
             for p in centre_files.rglob("*") if p.is_file()}
    assert modes == {
        "README.txt": 0o644, "credentials.json": 0o600, "ca/ca.key": 0o600,
        "ca/ca.crt": 0o644, "broker/mosquitto.conf": 0o600, "broker/passwd": 0o600,
        "broker/passwd-local": 0o600, "broker/acl": 0o600, "broker/ca.crt": 0o644,
        "broker/server.crt": 0o644, "broker/server.key": 0o600, "clubs/norte.json": 0o600,
        "clubs/sur.json": 0o600}
    users = CentreUsers.loads((centre_files / "credentials.json").read_text())
    passwd = (centre_files / "broker/passwd").read_text()
    for club in CLUBS:
        login = CentreLogin.loads((centre_files / "clubs" / f"{club}.json").read_text())
        assert login.url == "mqtts://centre.example.org:8883"
        assert login.credentials == users.club(club)
        assert login.ca == (centre_files / "ca/ca.crt").read_text()
        assert f"\n{club_username(club)}:$7$" in f"\n{passwd}"
        # Each file holds its own club's password only.
        others = [users.club(c).password for c in CLUBS if c != club]
        text = (centre_files / "clubs" / f"{club}.json").read_text()
        assert not any(password in text for password in others)
    conf = (centre_files / "broker/mosquitto.conf").read_text()
    assert "connection " not in conf  # the centre bridges to nobody
    assert "listener 8883 0.0.0.0" in conf and "listener 1883 127.0.0.1" in conf


def test_a_club_bridges_its_broker_with_its_login(centre_files: Path, tmp_path: Path) -> None:
    out = tmp_path / "norte"
    code = main(["provision", "--club", "norte", "--centre-login",
                 str(centre_files / "clubs/norte.json"), "--tables", "3", "--out", str(out),
                 "--event", EVENT, "--broker-host", "norte.local"])
    assert code == 0
    conf = (out / "broker/mosquitto.conf").read_text()
    password = CentreLogin.loads((centre_files / "clubs/norte.json").read_text()) \
        .credentials.password
    assert "connection centre" in conf and "address centre.example.org:8883" in conf
    assert f"remote_password {password}" in conf
    assert "bridge_cafile /var/lib/mosquitto/bidbox/centre-ca.crt" in conf
    assert (out / "broker/centre-ca.crt").read_text() == (centre_files / "ca/ca.crt").read_text()
    assert stat.S_IMODE((out / "broker/centre-ca.crt").stat().st_mode) == 0o644
    assert "clubs/norte/bridge/state" in (out / "README.txt").read_text()
    # The club's server may read its own link's state, and nothing else of "clubs/".
    acl = (out / "broker/acl").read_text()
    assert "user server\n" in acl and "topic read clubs/norte/bridge/state" in acl
    assert acl.count("clubs/") == 1
    # The club's own CA is not the centre's: the bridge trusts the centre's only.
    assert (out / "broker/ca.crt").read_text() != (centre_files / "ca/ca.crt").read_text()


@pytest.mark.parametrize("argv, message", [
    (["--club", "norte"], "--centre-login"),
    (["--club", "sur", "--centre-login", "{login}"], "club norte's, not sur's"),
    (["--club", "norte", "--centre-login", "{login}", "--centre", "mqtt://c.example.org"],
     "TLS only"),
    (["--club", "norte", "--centre-login", "{missing}"], "--centre-login"),
    (["--clubs", "norte,norte"], "twice"),
    (["--clubs", "norte", "--tables", "3"], "no --tables"),
])
def test_a_bad_federation_argument_is_a_message_and_writes_nothing(
        centre_files: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        argv: list[str], message: str) -> None:
    login = str(centre_files / "clubs/norte.json")
    argv = [a.format(login=login, missing=tmp_path / "nope.json") for a in argv]
    if "--clubs" not in argv and "--tables" not in argv:
        argv += ["--tables", "2"]
    out = tmp_path / "out"
    assert main(["provision", *argv, "--out", str(out), "--broker-host", "x.local"]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_a_login_that_is_not_one_is_refused() -> None:
    with pytest.raises(ValueError, match="not a club's login"):
        CentreLogin.loads('{"club": "norte"}')
    with pytest.raises(ValueError, match="no CA certificate"):
        CentreLogin("norte", "mqtts://c.example.org:8883",
                    Credentials("club-norte", "x"), "not a certificate")


# --- real brokers ----------------------------------------------------------------------------

@pytest.fixture
def federation(mosquitto_bin: Path, tmp_path: Path) -> Iterator[LoopbackFederation]:
    with LoopbackFederation(tmp_path / "federation", CLUBS, tables=2, event=EVENT,
                            binary=mosquitto_bin) as running:
        yield running


class Tls:
    """A paho client (MQTT v5) to the centre's TLS listener, checking it against the
    centre's CA, that waits boundedly for its acknowledgements."""

    def __init__(self, federation: LoopbackFederation, creds: Credentials) -> None:
        tls = federation.centre_broker.config.tls
        assert tls is not None
        self.port = tls.port
        self.paho = Client(CallbackAPIVersion.VERSION2, client_id=f"test-{creds.username}",
                           protocol=MQTTv5)
        self.paho.username_pw_set(creds.username, creds.password)
        self.paho.tls_set(ca_certs=str(federation.folder / "centre/ca/ca.crt"),
                          tls_version=ssl.PROTOCOL_TLS_CLIENT)
        self.paho.on_connect = lambda *a: self._done("connack", a[3])
        self.paho.on_publish = lambda c, u, mid, reason, p: self._done(mid, reason)
        self._got: dict[Any, Any] = {}
        self._changed = threading.Condition()

    def _done(self, key: Any, value: Any) -> None:
        with self._changed:
            self._got[key] = value
            self._changed.notify_all()

    def _wait(self, key: Any) -> Any:
        with self._changed:
            assert self._changed.wait_for(lambda: key in self._got, TIMEOUT), f"no ack {key}"
            return self._got.pop(key)

    def connect(self) -> ReasonCode:
        self.paho.connect("127.0.0.1", self.port, keepalive=30)
        self.paho.loop_start()
        code: ReasonCode = self._wait("connack")
        return code

    def publish(self, topic: str, payload: bytes) -> ReasonCode:
        info = self.paho.publish(topic, payload, qos=1)
        code: ReasonCode = self._wait(info.mid)
        return code

    def close(self) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()
        self.paho._reset_sockets()  # paho 2.2 leaves its socket pair to __del__


@pytest.fixture
def centre_reader(federation: LoopbackFederation) -> Iterator[list[MQTTMessage]]:
    """Everything the central server's user can read at the centre, as it arrives."""
    got: list[MQTTMessage] = []
    subscribed = threading.Event()
    client = Client(CallbackAPIVersion.VERSION2, client_id="test-centre-reader",
                    protocol=MQTTv5)
    creds = federation.centre_users.server
    client.username_pw_set(creds.username, creds.password)
    client.on_connect = lambda c, *a: c.subscribe("clubs/#", qos=1)
    client.on_subscribe = lambda *a: subscribed.set()
    client.on_message = lambda c, u, m: got.append(m)
    client.connect("127.0.0.1", federation.centre_broker.port)
    client.loop_start()
    assert subscribed.wait(TIMEOUT)
    yield got
    client.disconnect()
    client.loop_stop()
    client._reset_sockets()


def test_a_club_cannot_write_below_another_clubs_prefix(
        federation: LoopbackFederation, centre_reader: list[MQTTMessage]) -> None:
    """With its own login over TLS, as its bridge connects: its own prefix is taken, the other
    club's refused with 0x87 and never delivered."""
    sur = Tls(federation, federation.centre_users.club("sur"))
    try:
        assert not sur.connect().is_failure
        forged = f"clubs/norte/bidbox/v1/{EVENT}/table/1/events"
        assert sur.publish(forged, b"forged").value == 0x87
        own = f"clubs/sur/bidbox/v1/{EVENT}/table/1/events"
        assert not sur.publish(own, b"own").is_failure
        _wait_for(lambda: any(m.topic == own for m in centre_reader))
        assert not any(m.topic == forged for m in centre_reader)
        # Nor may a club write outside "clubs/", or read what the centre holds.
        assert sur.publish("bidbox/v1/x/table/1/events", b"x").value == 0x87
    finally:
        sur.close()


def _wait_for(predicate: Any) -> None:
    """Until ``predicate()`` holds, looking every 10 ms, for at most TIMEOUT."""
    deadline = time.monotonic() + TIMEOUT
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        threading.Event().wait(0.01)


def test_a_clubs_events_reach_the_centre_below_its_prefix(
        federation: LoopbackFederation) -> None:
    """A table publishes at its club's broker as itself; the centre gets it once, below the
    club's prefix, and the other club's prefix stays empty. The server's commands to the
    table do not cross."""
    centre = EventTap(federation.centre_settings, f"bidbox/v1/{EVENT}/table/+/events",
                      client_id="test-centre", centre=True)
    norte = federation.clubs["norte"]
    table = Client(CallbackAPIVersion.VERSION2, client_id="table-1", protocol=MQTTv5)
    settings = norte.table_settings(1)
    table.username_pw_set(settings.username, settings.password)
    table.tls_set(ca_certs=settings.cafile, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    server = _client(norte.server_settings(), "server")
    try:
        table.connect("127.0.0.1", settings.port)
        table.loop_start()
        for seq in (1, 2):
            payload = json.dumps({"v": 1, "seq": seq, "type": "player", "ts": 1.0 * seq,
                                  "board": None, "data": {}}).encode()
            table.publish(f"bidbox/v1/{EVENT}/table/1/events", payload, qos=1).wait_for_publish(
                TIMEOUT)
        server.publish(f"bidbox/v1/{EVENT}/table/1/cmd", b"{}", qos=1).wait_for_publish(TIMEOUT)
        assert centre.wait(lambda t: len(t.first) == 2, TIMEOUT), centre.first
        assert set(centre.first) == {("norte", EVENT, 1, 1), ("norte", EVENT, 1, 2)}
        assert centre.duplicates == 0 and centre.bad == []
        assert federation.links() == {"norte": b"1", "sur": b"1"}
    finally:
        for client in (table, server):
            client.disconnect()
            client.loop_stop()
            client._reset_sockets()
        centre.close()


def _client(settings: BrokerSettings, client_id: str) -> Client:
    client = Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=MQTTv5)
    client.username_pw_set(settings.username, settings.password)
    client.connect(settings.host, settings.port)
    client.loop_start()
    return client


def test_a_bridge_refuses_a_centre_its_ca_did_not_sign(
        mosquitto_bin: Path, tmp_path: Path) -> None:
    """A club given another centre's CA never links: the TLS check fails at its broker, and
    the centre sees no bridge connect."""
    user = getpass.getuser()
    centre = Centre(clubs=("norte",), broker_hosts=("127.0.0.1",), port=free_port(),
                    local_port=free_port(),
                    broker_dir=PurePosixPath(tmp_path / "centre/broker"), broker_user=user)
    done = provision_centre(centre, tmp_path / "centre")
    impostor = provision_centre(centre, tmp_path / "impostor")
    login = CentreLogin.loads(done.login("norte").read_text())
    login = CentreLogin(login.club, login.url, login.credentials,
                        (impostor.out / "ca/ca.crt").read_text())
    deployment = Deployment(event=EVENT, tables=1, broker_hosts=("127.0.0.1",),
                            port=free_port(), local_port=free_port(),
                            broker_dir=PurePosixPath(tmp_path / "norte/broker"),
                            broker_user=user, club="norte", centre=login.url)
    club = provision(deployment, tmp_path / "norte", centre_login=login)
    with Broker(centre_broker_config(centre, done.users), binary=mosquitto_bin) as hub, \
            Broker(broker_config(deployment, club.users, login), binary=mosquitto_bin) as edge:
        _wait_for(lambda: "certificate verify failed" in edge.log_tail(200))
        assert "New bridge connected" not in hub.log_tail(200)


def test_a_club_sees_its_own_link_and_the_centre_sees_it_go_down(
        federation: LoopbackFederation) -> None:
    """The bridge's state is retained at both ends: the club's server reads ``1`` at its own
    broker; when the line goes silent the centre gets ``0`` (the bridge's will, once the
    centre's broker misses its keepalive), and ``1`` again when it is back."""
    norte = federation.clubs["norte"]
    got: list[bytes] = []
    server = _client(norte.server_settings(), "norte-server")
    server.on_message = lambda c, u, m: got.append(m.payload)
    try:
        server.subscribe("clubs/norte/bridge/state", qos=1)
        _wait_for(lambda: got[:1] == [b"1"])
        norte.proxy.cut()
        assert federation.wait_links(TIMEOUT, ["norte"], b"0"), federation.links()
        assert federation.links()["sur"] == b"1"
        norte.proxy.restore()
        assert federation.wait_links(TIMEOUT, ["norte"], b"1"), federation.links()
    finally:
        server.disconnect()
        server.loop_stop()
        server._reset_sockets()


def test_a_club_added_to_the_centre_leaves_the_others_as_they_were(
        centre_files: Path, tmp_path: Path) -> None:
    out = tmp_path / "centre"
    shutil.copytree(centre_files, out)
    before = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
              if p.is_file()}
    assert main(["provision", "--add-clubs", "oeste", "--out", str(out)]) == 0
    after = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
             if p.is_file()}
    changed = {name for name in after if before.get(name) != after[name]}
    assert changed == {"clubs/oeste.json", "credentials.json", "broker/passwd", "broker/acl"}
    old, new = (CentreUsers.loads(t) for t in (before["credentials.json"].decode(),
                                               after["credentials.json"].decode()))
    assert {c: new.club(c) for c in CLUBS} == dict(old.clubs) and new.server == old.server
    login = CentreLogin.loads(after["clubs/oeste.json"].decode())
    assert login.credentials == new.club("oeste") and login.url == "mqtts://centre.example.org:8883"
    assert stat.S_IMODE((out / "clubs/oeste.json").stat().st_mode) == 0o600
    assert "user club-oeste\ntopic write clubs/oeste/#" in after["broker/acl"].decode()
    # Twice is refused, and changes nothing.
    assert main(["provision", "--add-clubs", "oeste", "--out", str(out)]) == 2
    assert (out / "credentials.json").read_bytes() == after["credentials.json"]


def test_a_reload_lets_an_added_club_in_and_keeps_the_others_linked(
        federation: LoopbackFederation) -> None:
    centre = federation.folder / "centre"
    add_clubs(centre, ["oeste"])
    oeste = CentreUsers.loads((centre / "credentials.json").read_text()).club("oeste")
    early = Tls(federation, oeste)
    try:
        assert early.connect().value == 0x87  # not before the broker rereads its files
    finally:
        early.close()
    reloads = federation.centre_broker.log_tail(1000).count("Reloading config")
    federation.centre_broker.reload()
    _wait_for(lambda: federation.centre_broker.log_tail(1000).count("Reloading config")
              > reloads)
    client = Tls(federation, oeste)
    try:
        assert not client.connect().is_failure
        assert not client.publish("clubs/oeste/bidbox/v1/x/table/1/events", b"x").is_failure
        assert client.publish("clubs/norte/bidbox/v1/x/table/1/events", b"x").value == 0x87
    finally:
        client.close()
    assert federation.links() == {"norte": b"1", "sur": b"1"}
