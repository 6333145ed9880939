"""``bidbox provision``: the files and their modes, the table configs, the refusal to overwrite,
and a real mosquitto on the generated files that tables reach over TLS.

The broker tests rewrite only what the director's machine would differ in (the folder, the
ports, loopback instead of every interface, the user it runs as) and skip without mosquitto.
Every wait is bounded; nothing sleeps in place of a handshake.
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import getpass
import re
import shutil
import socket
import ssl
import subprocess
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt.client import Client, ConnectFlags, MQTTMessage, MQTTv5
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from bidbox import cli, provision_cmd
from bidbox.broker import (
    TABLE_WRITES,
    Broker,
    BrokerConfig,
    BrokerUsers,
    find_mosquitto,
    free_port,
    hash_password,
    table_topic,
)
from bidbox.provision import (
    BROKER_DIR,
    CertificateError,
    Deployment,
    OpensslNotFoundError,
    Provisioned,
    SecretsExistError,
    broker_config,
    find_openssl,
    make_certificates,
    provision,
)
from mqttlink import BrokerSettings
from tabled.config import load

EVENT = "club-test"
HOST = "director.example"
TABLES = 3
TIMEOUT = 5.0
NOT_AUTHORIZED = 0x87
REPO = Path(__file__).resolve().parents[2]

MODES = {
    "README.txt": 0o644,
    "credentials.json": 0o600,
    "server.env": 0o600,
    "ca/ca.key": 0o600,
    "ca/ca.crt": 0o644,
    "broker/mosquitto.conf": 0o600,
    "broker/passwd": 0o600,
    "broker/passwd-local": 0o600,
    "broker/acl": 0o600,
    "broker/ca.crt": 0o644,
    "broker/server.crt": 0o644,
    "broker/server.key": 0o600,
    "web/ca.crt": 0o644,
    "web/server.crt": 0o644,
    "web/server.key": 0o600,
    "tables/ca.crt": 0o644,
    **{f"tables/table-{n}.toml": 0o600 for n in range(1, TABLES + 1)},
}


def deployment(**changes: Any) -> Deployment:
    return Deployment(**{"event": EVENT, "tables": TABLES,
                         "broker_hosts": (HOST, "127.0.0.1"), **changes})


@pytest.fixture(scope="module")
def done(tmp_path_factory: pytest.TempPathFactory) -> Provisioned:
    return provision(deployment(), tmp_path_factory.mktemp("provision") / "event")


def credentials(out: Path) -> BrokerUsers:
    return BrokerUsers.loads((out / "credentials.json").read_text())


def snapshot(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def server_env(out: Path) -> dict[str, str]:
    lines = (out / "server.env").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


# --- the files ---------------------------------------------------------------------------

def test_every_file_is_there_with_its_mode(done: Provisioned) -> None:
    files = {str(p.relative_to(done.out)) for p in done.out.rglob("*") if p.is_file()}
    assert files == set(MODES)
    assert {str(p.relative_to(done.out)) for p in done.files} == set(MODES)
    for name, mode in MODES.items():
        assert (done.out / name).stat().st_mode & 0o777 == mode, name
    for folder in (".", "ca", "broker", "broker/data", "web", "tables"):
        assert (done.out / folder).stat().st_mode & 0o777 == 0o700, folder
    assert not list(done.out.parent.glob(".*provision-*")), "the staging folder is left over"


def test_every_table_config_loads_with_its_own_credentials(done: Provisioned) -> None:
    users = credentials(done.out)
    assert users == done.users
    passwords = set()
    for number in range(1, TABLES + 1):
        config = load(done.table_config(number))
        # No session named: the table follows the one the director runs in the console.
        assert (config.event, config.follows, config.number) == (None, True, number)
        assert config.journal == Path("/var/lib/bidbox")
        assert config.broker == BrokerSettings(
            HOST, 8883, f"table-{number}", users.table(number).password, "/etc/bidbox/ca.crt")
        passwords.add(config.broker.password)
    assert len(passwords | {users.server.password}) == TABLES + 1


def test_the_password_file_holds_each_users_password(done: Provisioned) -> None:
    lines = (done.out / "broker/passwd").read_text().splitlines()
    hashed = dict(line.split(":", 1) for line in lines)
    users = credentials(done.out)
    assert set(hashed) == {c.username for c in users.all()}
    for creds in users.all():
        _, _, iterations, salt, _ = hashed[creds.username].split("$")
        again = hash_password(creds.password, base64.b64decode(salt), int(iterations))
        assert hashed[creds.username] == again, creds.username


def acl_rules(text: str) -> dict[str, set[tuple[str, str]]]:
    rules: dict[str, set[tuple[str, str]]] = {}
    user = None
    for line in text.splitlines():
        if line.startswith("user "):
            user = line.split()[1]
            rules[user] = set()
        elif line.startswith("topic "):
            assert user is not None, f"a rule for anonymous clients: {line}"
            _, access, topic = line.split()
            rules[user].add((access, topic))
    return rules


def test_the_acl_lets_each_table_write_only_its_own_topics(done: Provisioned) -> None:
    rules = acl_rules((done.out / "broker/acl").read_text())
    for number in range(1, TABLES + 1):
        # "+" for the session: the same ACL holds for every session the director creates.
        assert rules[f"table-{number}"] == {
            *(("write", f"bidbox/v1/+/table/{number}/{leaf}") for leaf in TABLE_WRITES),
            ("read", f"bidbox/v1/+/table/{number}/cmd"),
            ("read", f"bidbox/v1/+/table/{number}/afterboard"),
            ("read", "bidbox/v1/+/clock"), ("read", "bidbox/v1/session")}
    assert rules["server"] == {("read", "bidbox/v1/#"),
                               ("write", "bidbox/v1/+/table/+/cmd"),
                               ("write", "bidbox/v1/+/table/+/afterboard"),
                               ("write", "bidbox/v1/+/clock"),
                               ("write", "bidbox/v1/session")}
    assert EVENT not in (done.out / "broker/acl").read_text().split("\n", 1)[1]


def test_the_broker_config_is_bidbox_brokers_for_the_directors_machine(
        done: Provisioned) -> None:
    text = (done.out / "broker/mosquitto.conf").read_text()
    assert text == broker_config(done.deployment, credentials(done.out)).render()
    lines = text.splitlines()
    for line in ("user mosquitto", "allow_anonymous false", "persistence true",
                 f"persistence_location {BROKER_DIR}/data/", f"password_file {BROKER_DIR}/passwd",
                 f"acl_file {BROKER_DIR}/acl", "listener 1883 127.0.0.1", "listener 8883 0.0.0.0",
                 f"cafile {BROKER_DIR}/ca.crt", f"certfile {BROKER_DIR}/server.crt",
                 f"keyfile {BROKER_DIR}/server.key"):
        assert line in lines
    drop_in = (REPO / "deploy/mosquitto-bidbox.conf").read_text().splitlines()
    assert f"ExecStart=/usr/sbin/mosquitto -c {BROKER_DIR}/mosquitto.conf" in drop_in


def test_server_env_has_what_the_server_unit_uses(done: Provisioned) -> None:
    env = server_env(done.out)
    server = credentials(done.out).server
    assert env["BIDBOX_BROKER_URL"] == f"mqtt://server:{server.password}@127.0.0.1:1883"
    assert env["BIDBOX_EVENT"] == EVENT
    assert len(env["BIDBOX_DIRECTOR_PASSWORD"]) >= 16
    assert re.fullmatch(r"[0-9a-f]{64}", env["BIDBOX_SECRET_KEY"])
    unit = [line for line in (REPO / "deploy/bidbox-server.service").read_text().splitlines()
            if not line.startswith("#")]
    assert "EnvironmentFile=/etc/bidbox/server.env" in unit
    used = set(re.findall(r"\$\{(\w+)\}", "\n".join(unit)))
    assert used and used <= set(env)


def test_server_env_names_where_the_web_certificate_goes_and_the_unit_loads_it(
        done: Provisioned) -> None:
    env = server_env(done.out)
    assert env["BIDBOX_TLS_CERT"] == "/etc/bidbox/web/server.crt"
    assert env["BIDBOX_TLS_KEY"] == "/etc/bidbox/web/server.key"
    unit = [line for line in (REPO / "deploy/bidbox-server.service").read_text().splitlines()
            if not line.startswith("#")]
    # systemd hands the root-only key to the service as a credential; the paths agree.
    assert f"LoadCredential=web.crt:{env['BIDBOX_TLS_CERT']}" in unit
    assert f"LoadCredential=web.key:{env['BIDBOX_TLS_KEY']}" in unit
    assert "--tls-cert %d/web.crt --tls-key %d/web.key" in "\n".join(unit)
    readme = (done.out / "README.txt").read_text()
    for name in ("server.crt", "server.key"):
        assert f"/etc/bidbox/web/{name}" in readme


# --- the web certificate -----------------------------------------------------------------

def openssl(*args: str) -> str:
    return subprocess.run([find_openssl(), *args], capture_output=True, text=True, check=True,
                          timeout=60).stdout


def test_the_web_certificate_is_the_ca_s_for_serving_the_broker_hosts(
        done: Provisioned) -> None:
    web = done.out / "web"
    assert (web / "ca.crt").read_bytes() == (done.out / "ca/ca.crt").read_bytes()
    verified = openssl("verify", "-CAfile", str(web / "ca.crt"), "-purpose", "sslserver",
                       str(web / "server.crt"))
    assert verified.strip().endswith(": OK")
    text = openssl("x509", "-in", str(web / "server.crt"), "-noout", "-ext",
                   "subjectAltName,extendedKeyUsage,basicConstraints")
    assert "TLS Web Server Authentication" in text and "CA:FALSE" in text
    assert f"DNS:{HOST}, IP Address:127.0.0.1" in text
    # Its own key, not the broker's; and the key is the certificate's.
    assert (web / "server.key").read_bytes() != (done.out / "broker/server.key").read_bytes()
    ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
        web / "server.crt", web / "server.key")


def test_the_ca_signs_for_the_broker_hosts_only(done: Provisioned, tmp_path: Path) -> None:
    """Whoever gets ca/ca.key cannot make a certificate for another site that the director's
    laptop, trusting web/ca.crt, would accept."""
    text = openssl("x509", "-in", str(done.out / "ca/ca.crt"), "-noout", "-ext",
                   "nameConstraints")
    assert "critical" in text
    assert f"DNS:{HOST}" in text and "IP:127.0.0.1/255.255.255.255" in text
    rogue_key, csr, rogue = tmp_path / "rogue.key", tmp_path / "rogue.csr", tmp_path / "r.crt"
    extensions = tmp_path / "ext.cnf"
    extensions.write_text("[leaf]\nbasicConstraints = critical, CA:FALSE\n"
                          "extendedKeyUsage = serverAuth\n"
                          "subjectAltName = DNS:www.bank.example\n")
    openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
            "-out", str(rogue_key))
    openssl("req", "-new", "-key", str(rogue_key), "-subj", "/CN=www.bank.example",
            "-out", str(csr))
    openssl("x509", "-req", "-in", str(csr), "-CA", str(done.out / "ca/ca.crt"),
            "-CAkey", str(done.out / "ca/ca.key"), "-set_serial", "7", "-days", "10",
            "-extfile", str(extensions), "-extensions", "leaf", "-out", str(rogue))
    refused = subprocess.run([find_openssl(), "verify", "-CAfile", str(done.out / "web/ca.crt"),
                              "-purpose", "sslserver", str(rogue)],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    assert "permitted subtree violation" in refused.stdout + refused.stderr


@pytest.mark.parametrize(("hosts", "constraints"), [
    (("10.0.0.5",), ["IP:10.0.0.5/255.255.255.255", "DNS:nothing.invalid"]),
    (("director.local",), ["DNS:director.local", "IP:0.0.0.0/255.255.255.255"]),
])
def test_a_name_type_without_a_host_is_closed_too(
        hosts: tuple[str, ...], constraints: list[str], tmp_path: Path) -> None:
    for sub in ("ca", "broker"):
        (tmp_path / sub).mkdir()
    make_certificates(deployment(broker_hosts=hosts), tmp_path / "ca", tmp_path / "broker",
                      find_openssl())
    text = openssl("x509", "-in", str(tmp_path / "ca/ca.crt"), "-noout", "-ext",
                   "nameConstraints")
    for constraint in constraints:
        assert constraint in text


# --- refusing to overwrite, --force ------------------------------------------------------

def test_an_existing_events_secrets_are_kept_without_force(tmp_path: Path) -> None:
    out = tmp_path / "event"
    provision(deployment(), out)
    before = snapshot(out)
    with pytest.raises(SecretsExistError, match="--force"):
        provision(deployment(), out)
    assert snapshot(out) == before


def test_force_makes_new_secrets_and_drops_tables_no_longer_there(tmp_path: Path) -> None:
    out = tmp_path / "event"
    provision(deployment(), out)
    (out / "notes.txt").write_text("the director's own file")
    before = snapshot(out)
    again = provision(deployment(tables=2), out, force=True)
    after = snapshot(out)
    assert credentials(out) == again.users
    assert again.users.server.password != BrokerUsers.loads(
        before["credentials.json"].decode()).server.password
    assert after["ca/ca.crt"] != before["ca/ca.crt"]
    assert not (out / "tables/table-3.toml").exists()
    assert load(out / "tables/table-2.toml").broker == BrokerSettings(
        HOST, 8883, "table-2", again.users.table(2).password, "/etc/bidbox/ca.crt")
    assert after["notes.txt"] == b"the director's own file"


def test_a_failure_half_way_leaves_the_folder_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "event"
    provision(deployment(), out)
    before = snapshot(out)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise CertificateError("openssl req failed: no")
    monkeypatch.setattr("bidbox.provision.make_certificates", refuse)
    with pytest.raises(CertificateError):
        provision(deployment(), out, force=True)
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event"]


def test_a_folder_with_other_files_is_not_an_events(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    provision(deployment(tables=1), tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert (tmp_path / "tables/table-1.toml").exists()


@pytest.mark.parametrize("changes", [
    {"tables": 0},
    {"event": "club/1"},
    {"broker_hosts": ()},
    {"broker_hosts": ("director local",)},
    {"broker_hosts": ("director.example,IP:10.0.0.1",)},
    {"broker_hosts": ("0.0.0.0",)},
    {"port": 0},
    {"port": 1883},
    {"local_port": 8883},
    {"local_port": 70000},
    {"days": 0},
    {"language": "fr"},
])
def test_a_bad_argument_is_refused_before_anything_is_written(changes: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        deployment(**changes)


# --- the command line --------------------------------------------------------------------

def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    provision_cmd.add_parser(parser.add_subparsers())
    args = parser.parse_args(["provision", *argv])
    code: int = args.run(args)
    return code


def test_bidbox_has_the_provision_command() -> None:
    args = cli.build_parser().parse_args(["provision", "--tables", "2", "--out", "x"])
    assert args.run is provision_cmd.run


def test_the_command_shows_the_directors_password_once_and_no_other(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "event"
    argv = ("--tables", "2", "--out", str(out), "--event", EVENT, "--broker-host", HOST)
    assert run_cli(*argv) == 0
    first = capsys.readouterr()
    director = server_env(out)["BIDBOX_DIRECTOR_PASSWORD"]
    assert (first.out + first.err).count(director) == 1
    assert run_cli(*argv) == 2
    second = capsys.readouterr()
    assert "--force" in second.err and director not in second.out + second.err
    for creds in credentials(out).all():
        assert creds.password not in first.out + first.err + second.out + second.err
    assert load(out / "tables/table-2.toml").broker.host == HOST  # type: ignore[union-attr]


def test_the_loopback_port_is_an_option(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A machine whose own Mosquitto holds 1883: the broker's loopback listener and the
    server's URL move to the port given, the tables' TLS port stays."""
    out = tmp_path / "event"
    assert run_cli("--tables", "1", "--out", str(out), "--broker-host", HOST,
                   "--local-port", "1884") == 0
    capsys.readouterr()
    conf = (out / "broker/mosquitto.conf").read_text().splitlines()
    assert "listener 1884 127.0.0.1" in conf and "listener 1883 127.0.0.1" not in conf
    assert "listener 8883 0.0.0.0" in conf
    assert server_env(out)["BIDBOX_BROKER_URL"].endswith("@127.0.0.1:1884")
    assert run_cli("--tables", "1", "--out", str(tmp_path / "clash"), "--broker-host", HOST,
                   "--local-port", "8883") == 2
    assert "--local-port" in capsys.readouterr().err
    assert not (tmp_path / "clash").exists()


def test_without_openssl_the_error_names_the_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    which = shutil.which
    monkeypatch.setattr(shutil, "which",
                        lambda name, *a, **k: None if name == "openssl" else which(name, *a, **k))
    out = tmp_path / "event"
    with pytest.raises(OpensslNotFoundError) as caught:
        provision(deployment(), out)
    assert isinstance(caught.value, FileNotFoundError)
    assert run_cli("--tables", "2", "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "openssl" in err and "apt-get install openssl" in err
    assert "Traceback" not in err
    assert not out.exists()


def test_a_bad_host_is_a_message_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("--tables", "2", "--out", str(tmp_path / "e"), "--broker-host", "a b") == 2
    assert "'a b'" in capsys.readouterr().err
    assert not (tmp_path / "e").exists()


# --- a real mosquitto on the generated files, over TLS -----------------------------------

@pytest.fixture(scope="module")
def mosquitto_bin() -> Path:
    binary = find_mosquitto()
    if binary is None:
        pytest.skip("no mosquitto binary (PATH, /usr/sbin): apt-get install mosquitto")
    return binary


def provisioned_broker(done: Provisioned, folder: Path) -> BrokerConfig:
    """The generated broker as on the director's machine, but in ``folder``, on free loopback
    ports and as this user, with the certificate and key as generated."""
    generated = broker_config(done.deployment, credentials(done.out))
    assert generated.tls is not None
    files = done.out / "broker"
    return dataclasses.replace(
        generated, directory=folder, port=free_port(), run_as=getpass.getuser(),
        tls=dataclasses.replace(generated.tls, port=free_port(), host="127.0.0.1",
                                cafile=files / "ca.crt", certfile=files / "server.crt",
                                keyfile=files / "server.key"))


@pytest.fixture
def broker(done: Provisioned, mosquitto_bin: Path, tmp_path: Path) -> Iterator[Broker]:
    """The generated broker on free loopback ports, its certificate and key as generated."""
    config = provisioned_broker(done, tmp_path / "broker")
    with Broker(config, binary=mosquitto_bin) as running:
        # What it runs is the generated ACL, byte for byte.
        assert config.acl_path.read_text() == (done.out / "broker/acl").read_text()
        yield running


def tls_port(broker: Broker) -> int:
    assert broker.config.tls is not None
    return broker.config.tls.port


class Mqtt:
    """A paho-mqtt 2 client (MQTT v5) that waits, boundedly, for its acknowledgements."""

    def __init__(self, settings: BrokerSettings) -> None:
        self.settings = settings
        self.paho = Client(CallbackAPIVersion.VERSION2, client_id=settings.username or "",
                           protocol=MQTTv5)
        self.paho.username_pw_set(settings.username, settings.password)
        if settings.cafile is not None:
            self.paho.tls_set(ca_certs=settings.cafile, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        self.paho.on_connect = self._on_connect
        self.paho.on_publish = self._on_ack
        self.paho.on_subscribe = self._on_ack
        self.paho.on_message = self._on_message
        self.connack: ReasonCode | None = None
        self.connected = threading.Event()
        self.messages: list[tuple[str, bytes]] = []
        self._acks: dict[int, Any] = {}
        self._changed = threading.Condition()

    def connect(self) -> ReasonCode:
        self.paho.connect(self.settings.host, self.settings.port, keepalive=30)
        self.paho.loop_start()
        assert self.connected.wait(TIMEOUT), f"no CONNACK for {self.settings.username}"
        assert self.connack is not None
        return self.connack

    def publish(self, topic: str, payload: bytes) -> ReasonCode:
        info = self.paho.publish(topic, payload, qos=1)
        assert info.rc == 0, info.rc
        code: ReasonCode = self._wait_ack(info.mid)
        return code

    def subscribe(self, topic: str) -> None:
        rc, mid = self.paho.subscribe(topic, qos=1)
        assert rc == 0, rc
        self._wait_ack(mid)

    def wait_message(self, topic: str, payload: bytes) -> None:
        with self._changed:
            got = self._changed.wait_for(lambda: (topic, payload) in self.messages, TIMEOUT)
        assert got, f"no {payload!r} on {topic}; got {self.messages}"

    def close(self) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()
        self.paho._reset_sockets()  # paho 2.2 leaves its socket pair to __del__

    def _wait_ack(self, mid: int) -> Any:
        with self._changed:
            assert self._changed.wait_for(lambda: mid in self._acks, TIMEOUT), f"no ack of {mid}"
            return self._acks.pop(mid)

    def _on_connect(self, client: Client, userdata: Any, flags: ConnectFlags,
                    reason_code: ReasonCode, properties: Properties | None) -> None:
        self.connack = reason_code
        if reason_code.is_failure:
            client.disconnect()  # else paho's loop would keep retrying the refused login
        self.connected.set()

    def _on_ack(self, client: Client, userdata: Any, mid: int, reason: Any,
                properties: Properties | None) -> None:
        with self._changed:
            self._acks[mid] = reason
            self._changed.notify_all()

    def _on_message(self, client: Client, userdata: Any, msg: MQTTMessage) -> None:
        with self._changed:
            self.messages.append((msg.topic, msg.payload))
            self._changed.notify_all()


@pytest.fixture
def clients() -> Iterator[list[Mqtt]]:
    made: list[Mqtt] = []
    yield made
    for client in made:
        client.close()


def table_client(done: Provisioned, broker: Broker, number: int, cafile: Path,
                 clients: list[Mqtt]) -> Mqtt:
    """Table ``number`` as its config file says, but at the test broker and with the CA
    where this test keeps it rather than in /etc/bidbox."""
    settings = load(done.table_config(number)).broker
    assert settings is not None
    client = Mqtt(dataclasses.replace(settings, host="127.0.0.1", port=tls_port(broker),
                                      cafile=str(cafile)))
    clients.append(client)
    return client


def test_a_table_connects_over_tls_with_its_config(
        done: Provisioned, broker: Broker, clients: list[Mqtt]) -> None:
    table = table_client(done, broker, 1, done.out / "tables/ca.crt", clients)
    assert not table.connect().is_failure
    cipher = table.paho.socket().cipher()  # type: ignore[union-attr]
    assert cipher is not None and cipher[1].startswith("TLS")


def test_a_broker_signed_by_another_ca_is_refused(
        done: Provisioned, broker: Broker, clients: list[Mqtt], tmp_path: Path) -> None:
    (tmp_path / "other-ca").mkdir()
    (tmp_path / "other-broker").mkdir()
    make_certificates(deployment(), tmp_path / "other-ca", tmp_path / "other-broker",
                      find_openssl())
    table = table_client(done, broker, 1, tmp_path / "other-ca/ca.crt", clients)
    with pytest.raises(ssl.SSLCertVerificationError) as caught:
        table.connect()
    # paho 2.2 does not close its TLS socket when the handshake fails; close it here, or its
    # ResourceWarning would fail a later test.
    for frame, _ in traceback.walk_tb(caught.tb):
        for value in frame.f_locals.values():
            if isinstance(value, ssl.SSLSocket):
                value.close()
    assert table.connack is None


@pytest.mark.parametrize(("name", "valid"), [
    (HOST, True), ("127.0.0.1", True), ("elsewhere.example", False), ("localhost", False)])
def test_the_certificate_names_the_broker_hosts_and_nothing_else(
        done: Provisioned, broker: Broker, name: str, valid: bool) -> None:
    context = ssl.create_default_context(cafile=done.out / "tables/ca.crt")
    with socket.create_connection(("127.0.0.1", tls_port(broker)), timeout=TIMEOUT) as raw:
        if valid:
            with context.wrap_socket(raw, server_hostname=name) as tls:
                assert tls.version() in ("TLSv1.2", "TLSv1.3")
        else:
            with pytest.raises(ssl.SSLCertVerificationError, match="mismatch"):
                context.wrap_socket(raw, server_hostname=name).close()


def test_a_table_publishes_only_on_its_own_topics(
        done: Provisioned, broker: Broker, clients: list[Mqtt]) -> None:
    server = Mqtt(BrokerSettings.from_url(server_env(done.out)["BIDBOX_BROKER_URL"],
                                          port=broker.port))
    clients.append(server)
    assert not server.connect().is_failure
    server.subscribe(f"bidbox/v1/{EVENT}/#")
    table = table_client(done, broker, 1, done.out / "tables/ca.crt", clients)
    assert not table.connect().is_failure
    server.subscribe("bidbox/v1/club-2026-11-28/#")
    # The session the console names later, "club-2026-11-28", is covered as the first is.
    later = table_topic("club-2026-11-28", 1, "events")
    assert table.publish(later, b"a later session's").value == 0
    assert table.publish(table_topic("club-2026-11-28", 2, "state"), b"forged").value \
        == NOT_AUTHORIZED
    server.wait_message(later, b"a later session's")
    server.messages.clear()
    own, other = table_topic(EVENT, 1, "events"), table_topic(EVENT, 2, "events")
    assert table.publish(own, b"table 1's event").value == 0
    # mosquitto 2.0.11 answers a denied QoS 1 publish from a v5 client with PUBACK 0x87.
    assert table.publish(other, b"forged").value == NOT_AUTHORIZED
    assert table.publish(table_topic(EVENT, 1, "cmd"), b"forged").value == NOT_AUTHORIZED
    assert table.publish(own, b"marker").value == 0
    server.wait_message(own, b"marker")  # QoS 1 from one client arrives in order
    assert server.messages == [(own, b"table 1's event"), (own, b"marker")]


def test_a_tables_password_is_its_own(
        done: Provisioned, broker: Broker, clients: list[Mqtt]) -> None:
    settings = load(done.table_config(2)).broker
    assert settings is not None
    impostor = Mqtt(dataclasses.replace(
        settings, username="table-1", host="127.0.0.1", port=tls_port(broker),
        cafile=str(done.out / "tables/ca.crt")))
    clients.append(impostor)
    assert impostor.connect().value == NOT_AUTHORIZED  # mosquitto 2.0.11: not 0x86

