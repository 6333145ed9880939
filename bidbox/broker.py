"""A private Mosquitto broker: its users, its ACL, its config files, and its process.

The tests, ``bidbox simulate`` and ``bidbox demo`` start one on a loopback port; ``bidbox
provision`` writes the same files for the director's machine. Each table gets its own
credentials and may write only below its own ``table/<t>/`` (docs/broker.md).

Passwords are hashed here in Mosquitto 2's ``$7$`` format (PBKDF2-SHA512), so writing a
password file needs no ``mosquitto_passwd`` binary.
"""

from __future__ import annotations

import base64
import getpass
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Literal

from tablemodel import running, wire

TOPIC_VERSION = wire.ROOT
TABLE_WRITES = tuple(kind for kind in wire.TOPIC_KINDS if kind != "cmd")
"""The leaves below ``table/<t>/`` that a table publishes; it reads only ``cmd``."""

MAX_PAYLOAD = wire.MAX_PAYLOAD
"""The largest payload the broker takes (``message_size_limit``): the most any bidbox message
may hold, an assignment with its deals and roster (``tablemodel.wire.MAX_PAYLOAD``)."""
MAX_PACKET = MAX_PAYLOAD + 1024
"""The largest MQTT packet the broker reads (``max_packet_size``): a largest payload, its topic
and its properties. A client that sends a larger one is disconnected as soon as its header
says so, before the broker holds the rest in memory."""

SALT_BYTES = 12  # what mosquitto_passwd uses; the broker accepts any length it can decode
HASH_BYTES = 64  # SHA-512's digest size: mosquitto compares the whole of it

ANY_EVENT = "+"
"""The event level of the ACL's topics: a club's users and ACL are written once, and each
session the director creates names its own event (tablemodel.running); Mosquitto resolves the
wildcard for every publish and delivery, so no file changes from one session to the next."""
_SBIN_MOSQUITTO = Path("/usr/sbin/mosquitto")

Access = Literal["read", "write", "readwrite"]


class BrokerError(OSError):
    """Root of every error about the broker's process."""


class MosquittoNotFoundError(BrokerError, FileNotFoundError):
    """No ``mosquitto`` binary on PATH nor in /usr/sbin (Debian package ``mosquitto``)."""


class BrokerStartError(BrokerError):
    """Mosquitto exited during start-up, or did not listen before the deadline."""


def find_mosquitto() -> Path | None:
    """The broker binary: PATH first, then /usr/sbin, which a normal user's PATH may lack."""
    found = shutil.which("mosquitto")
    if found is not None:
        return Path(found)
    if os.access(_SBIN_MOSQUITTO, os.X_OK):
        return _SBIN_MOSQUITTO
    return None


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the kernel's pick for port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def hash_password(password: str, salt: bytes | None = None, iterations: int = 101) -> str:
    """``password`` as a line of Mosquitto 2's password file takes it after ``user:``.

    ``$7$<iterations>$<base64 salt>$<base64 PBKDF2-HMAC-SHA512>``, standard base64 with
    padding; 101 iterations is mosquitto_passwd's default.
    """
    if iterations < 1:
        raise ValueError(f"iterations must be positive, not {iterations}")
    if salt is None:
        salt = secrets.token_bytes(SALT_BYTES)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations, HASH_BYTES)
    return (f"$7${iterations}${base64.b64encode(salt).decode()}"
            f"${base64.b64encode(digest).decode()}")


def check_event_name(event: str) -> str:
    """``event`` if it can be one level of a topic and a word of the ACL file, else ValueError."""
    return running.check_event(event)


def table_topic(event: str, table: int, leaf: str) -> str:
    """``bidbox/v1/<event>/table/<t>/<leaf>``, as the tables and the server name it."""
    return wire.table_topic(check_event_name(event), table, leaf)


def table_username(table: int) -> str:
    return f"table-{table}"


# -- clubs bridged to a centre (docs/mqtt.md, "Clubs and the centre"; docs/scale.md) ---------

CLUBS_ROOT = "clubs"
"""At the centre, club ``c``'s own ``bidbox/v1/...`` appear below ``clubs/<c>/``."""
CENTRE_SERVER = "centre"
"""The central server's user on the central broker: it reads every club."""
BRIDGE_LEAVES = ("events", "status", "state")
"""What a club's broker forwards to the centre for each table; nothing comes back."""


_CLUB_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,15}\Z")
"""What the central session takes as a section's name (server/setup/movements.py SECTION_NAME):
the centre names a club's section after it."""


def check_club_name(club: str) -> str:
    """``club`` if it can be one topic level, part of a username and the name of its section
    at the centre, else ValueError."""
    if not _CLUB_NAME.match(club):
        raise ValueError(f"club name {club!r}: 1 to 16 letters, digits or '-' (a topic level "
                         "and the club's section at the centre)")
    return club


def club_username(club: str) -> str:
    """The club's user on the central broker, the one its bridge logs in as."""
    return f"club-{check_club_name(club)}"


def club_prefix(club: str) -> str:
    """``clubs/<club>/``: put before a club's own topic, the topic at the centre."""
    return f"{CLUBS_ROOT}/{check_club_name(club)}/"


def bridge_state_topic(club: str) -> str:
    """Where the club's bridge says ``1`` (linked) or ``0`` (its will: the link is down),
    retained, on both brokers."""
    return f"{club_prefix(club)}bridge/state"


def passwd_text(users: Iterable[Credentials], iterations: int = 101) -> str:
    """A Mosquitto password file of ``users``."""
    return "".join(f"{c.username}:{hash_password(c.password, iterations=iterations)}\n"
                   for c in users)


def new_password() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Credentials:
    """A broker login. The password stays out of ``repr``, so out of logs and tracebacks."""

    username: str
    password: str = field(repr=False)

    @classmethod
    def generate(cls, username: str) -> Credentials:
        return cls(username, new_password())


@dataclass(frozen=True)
class AclRule:
    access: Access
    topic: str

    def __str__(self) -> str:
        return f"topic {self.access} {self.topic}"


@dataclass(frozen=True)
class BrokerUsers:
    """Who may connect for one event, and what each may read and write.

    ``server`` reads the whole event and writes every table's ``cmd``; ``table-<t>`` writes
    its own ``status``, ``events`` and ``state`` and reads its own ``cmd``; ``display``
    (optional) reads the tables' ``status`` and ``state``, which carry no hidden information.
    """

    event: str
    server: Credentials
    tables: Mapping[int, Credentials]
    display: Credentials | None = None
    club: str | None = None
    """A club bridged to a centre: the server may also read its link's state there."""

    def __post_init__(self) -> None:
        check_event_name(self.event)
        if self.club is not None:
            check_club_name(self.club)
        for number, creds in self.tables.items():
            if creds.username != table_username(number):
                raise ValueError(f"table {number}'s user must be {table_username(number)!r}, "
                                 f"not {creds.username!r}")

    @classmethod
    def generate(cls, event: str, tables: Iterable[int], *, display: bool = True,
                 club: str | None = None) -> BrokerUsers:
        """Fresh random passwords for the server, each table, and (if asked) the display."""
        numbers = sorted(set(tables))
        if any(n < 1 for n in numbers):
            raise ValueError(f"table numbers start at 1: {numbers}")
        return cls(
            event=event,
            server=Credentials.generate("server"),
            tables={n: Credentials.generate(table_username(n)) for n in numbers},
            display=Credentials.generate("display") if display else None,
            club=club,
        )

    @property
    def title(self) -> str:
        return f"event {self.event}"

    def table(self, number: int) -> Credentials:
        return self.tables[number]

    def all(self) -> list[Credentials]:
        users = [self.server, *(self.tables[n] for n in sorted(self.tables))]
        return users + ([self.display] if self.display is not None else [])

    def local(self) -> list[Credentials]:
        """Who may log in on the broker's loopback listener when it has a network one too:
        the server alone (the tables and displays come over the network, over TLS)."""
        return [self.server]

    def acl(self) -> dict[str, list[AclRule]]:
        """Each username's rules, for every session at once (``ANY_EVENT``): the server's
        commands and clock, a table's own topics, whatever session the director runs.
        Mosquitto's ``%u`` patterns cannot strip the ``table-`` prefix off a username, so
        each table gets its own ``user`` block."""
        root = f"{TOPIC_VERSION}/{ANY_EVENT}"
        rules = {self.server.username: [AclRule("read", f"{TOPIC_VERSION}/#"),
                                        AclRule("write", f"{root}/table/+/cmd"),
                                        # what each table may show after a board
                                        AclRule("write", wire.afterboard_topic(ANY_EVENT, "+")),
                                        AclRule("write", wire.clock_topic(ANY_EVENT)),
                                        AclRule("write", running.SESSION_TOPIC)]}
        if self.club is not None:
            # The bridge's "1"/"0", retained here too: the club sees its own link.
            rules[self.server.username].append(AclRule("read", bridge_state_topic(self.club)))
        for number in sorted(self.tables):
            rules[self.tables[number].username] = [
                *(AclRule("write", wire.table_topic(ANY_EVENT, number, leaf))
                  for leaf in TABLE_WRITES),
                AclRule("read", wire.table_topic(ANY_EVENT, number, "cmd")),
                AclRule("read", wire.afterboard_topic(ANY_EVENT, number)),  # its own only
                AclRule("read", wire.clock_topic(ANY_EVENT)),  # the retained round clock
                AclRule("read", running.SESSION_TOPIC),  # the session it follows
            ]
        if self.display is not None:
            rules[self.display.username] = [AclRule("read", f"{root}/table/+/status"),
                                            AclRule("read", f"{root}/table/+/state")]
        return rules

    def acl_text(self) -> str:
        # No rule comes before the first "user" line: such rules would apply to anonymous
        # clients, and there are none (allow_anonymous false).
        blocks = [f"# bidbox users of {self.event}, for every session; generated, edits "
                  "are overwritten"]
        for username, rules in self.acl().items():
            blocks.append("\n".join([f"user {username}", *map(str, rules)]))
        return "\n\n".join(blocks) + "\n"

    def passwd_text(self, iterations: int = 101) -> str:
        return passwd_text(self.all(), iterations)

    def dumps(self) -> str:
        """JSON with the plain passwords, for the tools that hand them out; keep it private."""
        def creds(c: Credentials | None) -> dict[str, str] | None:
            return None if c is None else {"username": c.username, "password": c.password}
        return json.dumps({
            "event": self.event,
            "server": creds(self.server),
            "tables": {str(n): creds(self.tables[n]) for n in sorted(self.tables)},
            "display": creds(self.display),
            **({} if self.club is None else {"club": self.club}),
        }, indent=2) + "\n"

    @classmethod
    def loads(cls, text: str) -> BrokerUsers:
        data = json.loads(text)

        def creds(d: Mapping[str, str]) -> Credentials:
            return Credentials(d["username"], d["password"])
        return cls(
            event=data["event"],
            server=creds(data["server"]),
            tables={int(n): creds(d) for n, d in data["tables"].items()},
            display=None if data.get("display") is None else creds(data["display"]),
            club=data.get("club"),
        )


@dataclass(frozen=True)
class CentreUsers:
    """Who may connect to the central broker: the central server, which reads every club,
    and one user per club, which may write only below its own ``clubs/<club>/``."""

    server: Credentials
    clubs: Mapping[str, Credentials]

    def __post_init__(self) -> None:
        for club, creds in self.clubs.items():
            if creds.username != club_username(club):
                raise ValueError(f"club {club}'s user must be {club_username(club)!r}, "
                                 f"not {creds.username!r}")

    @classmethod
    def generate(cls, clubs: Iterable[str]) -> CentreUsers:
        names = sorted(set(clubs))
        if not names:
            raise ValueError("a centre needs at least one club")
        return cls(server=Credentials.generate(CENTRE_SERVER),
                   clubs={c: Credentials.generate(club_username(c)) for c in names})

    @property
    def title(self) -> str:
        return f"centre of clubs {', '.join(self.clubs)}"

    def club(self, name: str) -> Credentials:
        return self.clubs[name]

    def all(self) -> list[Credentials]:
        return [self.server, *(self.clubs[c] for c in sorted(self.clubs))]

    def local(self) -> list[Credentials]:
        """The central server alone: the clubs' bridges come over TLS."""
        return [self.server]

    def acl(self) -> dict[str, list[AclRule]]:
        """Explicit blocks, as for the tables: ``%u`` would give ``clubs/club-<c>/``."""
        rules = {self.server.username: [AclRule("read", f"{CLUBS_ROOT}/#")]}
        for club in sorted(self.clubs):
            # Its bridge publishes its tables' topics and its link's state, both below the
            # prefix; it subscribes to nothing, so it reads nothing.
            rules[self.clubs[club].username] = [AclRule("write", f"{club_prefix(club)}#")]
        return rules

    def acl_text(self) -> str:
        blocks = ["# bidbox central broker; generated, edits are overwritten"]
        for username, rules in self.acl().items():
            blocks.append("\n".join([f"user {username}", *map(str, rules)]))
        return "\n\n".join(blocks) + "\n"

    def passwd_text(self, iterations: int = 101) -> str:
        return passwd_text(self.all(), iterations)

    def dumps(self) -> str:
        return json.dumps({
            "server": {"username": self.server.username, "password": self.server.password},
            "clubs": {c: {"username": self.clubs[c].username,
                          "password": self.clubs[c].password} for c in sorted(self.clubs)},
        }, indent=2) + "\n"

    @classmethod
    def loads(cls, text: str) -> CentreUsers:
        data = json.loads(text)
        return cls(server=Credentials(data["server"]["username"], data["server"]["password"]),
                   clubs={c: Credentials(d["username"], d["password"])
                          for c, d in data["clubs"].items()})


@dataclass(frozen=True)
class Bridge:
    """A club broker's link to the central broker: Mosquitto's own bridge, a ``connection``
    section of the club's mosquitto.conf.

    Out only, at QoS 1: each table's ``events``, ``status`` and ``state`` of ``event``, from
    ``bidbox/v1/<event>/table/<t>/...`` here to ``clubs/<club>/bidbox/v1/<event>/table/<t>/...``
    at the centre. TLS, the centre's certificate checked against ``cafile`` and its name
    against ``host``. ``cleansession false`` on both sides: while the link is down the club's
    broker queues what the bridge has not sent (up to ``max_queued_messages``) and keeps the
    queue in its persistence file across a restart.
    """

    club: str
    event: str
    host: str
    port: int
    credentials: Credentials
    cafile: Path
    name: str = "centre"
    keepalive: int = 30
    """Seconds without traffic before the bridge pings: a silent cut is noticed in about 1.5
    times this (Mosquitto's minimum is 5)."""
    restart: tuple[int, int] = (5, 30)
    """Seconds before it tries again after a failure: from the first, with jitter, up to the
    second."""

    def __post_init__(self) -> None:
        check_club_name(self.club)
        check_event_name(self.event)
        if self.credentials.username != club_username(self.club):
            raise ValueError(f"the bridge of club {self.club} logs in as "
                             f"{club_username(self.club)!r}, not {self.credentials.username!r}")
        if not 1 <= self.port <= 65535:
            raise ValueError(f"the centre's port {self.port} is not a TCP port")
        if self.keepalive < 5:
            raise ValueError("Mosquitto's bridge keepalive is at least 5 s")
        if not 1 <= self.restart[0] <= self.restart[1]:
            raise ValueError(f"restart {self.restart}: base at least 1 and at most the cap")

    def topic_lines(self) -> list[str]:
        local = f"{TOPIC_VERSION.split('/')[0]}/"  # "bidbox/"
        pattern = f"{TOPIC_VERSION[len(local):]}/{self.event}/table/+"  # "v1/<event>/table/+"
        return [f"topic {pattern}/{leaf} out 1 {local} {club_prefix(self.club)}{local}"
                for leaf in BRIDGE_LEAVES]

    def render(self) -> list[str]:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return [
            f"# The link to the centre: club {self.club}, event {self.event} (docs/scale.md)",
            f"connection {self.name}",
            f"address {host}:{self.port}",
            "start_type automatic",
            f"restart_timeout {self.restart[0]} {self.restart[1]}",
            f"keepalive_interval {self.keepalive}",
            "bridge_protocol_version mqttv311",
            "try_private true",  # Mosquitto at both ends: retained flags cross as they are
            "cleansession false",
            "local_cleansession false",
            f"remote_clientid {self.credentials.username}",
            f"local_clientid bridge-{self.name}",
            f"remote_username {self.credentials.username}",
            f"remote_password {self.credentials.password}",
            f"bridge_cafile {self.cafile.resolve()}",
            "bridge_insecure false",  # the centre's name is checked against its certificate
            "bridge_tls_version tlsv1.2",
            "notifications true",
            "notifications_local_only false",
            f"notification_topic {bridge_state_topic(self.club)}",
            *self.topic_lines(),
        ]


@dataclass(frozen=True)
class TlsListener:
    """A second listener with TLS, for tables on the club's network. Not needed on loopback."""

    port: int
    cafile: Path
    certfile: Path
    keyfile: Path
    host: str = "0.0.0.0"
    require_certificate: bool = False


def _current_user() -> str:
    return getpass.getuser()


@dataclass(frozen=True)
class BrokerConfig:
    """The files of one broker, all inside ``directory``.

    ``port`` defaults to a free loopback port, chosen once, so a restart comes back on it.
    """

    directory: Path
    users: BrokerUsers | CentreUsers
    port: int = field(default_factory=free_port)
    host: str = "127.0.0.1"
    tls: TlsListener | None = None
    autosave_interval: int = 2
    """Seconds between saves of the persistence file; a clean stop also saves."""
    max_queued_messages: int = 100_000
    """Per offline client: a table's cmd backlog or a server that is restarting."""
    persistent_client_expiration: str = "1d"
    log_types: tuple[str, ...] = ("error", "warning", "notice", "information")
    password_iterations: int = 101
    run_as: str = field(default_factory=_current_user)
    """Mosquitto started as root drops to user ``mosquitto``, which could not read these files;
    naming the user who starts it keeps it as that user (``root`` means no change)."""
    bridge: Bridge | None = None
    """A club's link to the centre, if it has one."""
    max_payload: int = MAX_PAYLOAD
    """The largest payload taken (``message_size_limit``); a packet may be 1 KB more
    (``max_packet_size``). Only a test of the MQTT client's own reading sets it higher."""

    @property
    def conf_path(self) -> Path:
        return self.directory / "mosquitto.conf"

    @property
    def passwd_path(self) -> Path:
        return self.directory / "passwd"

    @property
    def local_passwd_path(self) -> Path:
        """With a network listener: the loopback listener's own password file (the server's
        login alone; ``passwd`` serves the network one)."""
        return self.directory / "passwd-local"

    @property
    def acl_path(self) -> Path:
        return self.directory / "acl"

    def local_passwd_text(self) -> str:
        return passwd_text(self.users.local(), self.password_iterations)

    @property
    def credentials_path(self) -> Path:
        return self.directory / "credentials.json"

    @property
    def log_path(self) -> Path:
        """Where :class:`Broker` sends mosquitto's stderr, which is its log destination."""
        return self.directory / "mosquitto.log"

    @property
    def persistence_dir(self) -> Path:
        return self.directory / "data"

    def render(self) -> str:
        """The text of mosquitto.conf.

        With a network (TLS) listener, each listener has its own settings: the loopback one
        takes the server's login alone (``passwd-local``), so a table's or a club's password
        does not log in there; the network one binds every client id to its user
        (``use_username_as_clientid``), so no login can take another's id and, with it, its
        connection (the broker drops the older of two connections with one id). Without one
        (the tests, the demo, ``simulate`` on loopback), one listener takes every login."""
        auth = [
            "allow_anonymous false",
            f"password_file {self.passwd_path.resolve()}",
            f"acl_file {self.acl_path.resolve()}",
        ]
        split = self.tls is not None
        lines = [
            f"# bidbox broker for {self.users.title}; generated, edits are overwritten",
            f"user {self.run_as}",
            f"per_listener_settings {str(split).lower()}",
            *([] if split else auth),
            "",
            "persistence true",
            # Its manual asks for the trailing slash (1.x joined the two by concatenation).
            f"persistence_location {self.persistence_dir.resolve()}/",
            "persistence_file mosquitto.db",
            f"autosave_interval {self.autosave_interval}",
            f"persistent_client_expiration {self.persistent_client_expiration}",
            f"max_queued_messages {self.max_queued_messages}",
            # No bidbox message is larger: a client that sends more is cut off unread.
            f"message_size_limit {self.max_payload}",
            f"max_packet_size {self.max_payload + MAX_PACKET - MAX_PAYLOAD}",
            "",
            "log_dest stderr",
            *(f"log_type {t}" for t in self.log_types),
            "log_timestamp_format %Y-%m-%dT%H:%M:%S",
            "connection_messages true",
            "",
            f"listener {self.port} {self.host}",
        ]
        if self.tls is not None:
            lines += [
                "allow_anonymous false",
                f"password_file {self.local_passwd_path.resolve()}",
                f"acl_file {self.acl_path.resolve()}",
                "",
                f"listener {self.tls.port} {self.tls.host}",
                *auth,
                "use_username_as_clientid true",
                f"cafile {self.tls.cafile.resolve()}",
                f"certfile {self.tls.certfile.resolve()}",
                f"keyfile {self.tls.keyfile.resolve()}",
                f"require_certificate {str(self.tls.require_certificate).lower()}",
            ]
        if self.bridge is not None:
            lines += ["", *self.bridge.render()]
        return "\n".join(lines) + "\n"

    def write(self) -> Path:
        """Write mosquitto.conf, passwd, acl and credentials.json; return mosquitto.conf's path.

        Passwords are hashed afresh each time (new salts); the persistence data is kept.
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        self.persistence_dir.mkdir(exist_ok=True)
        _write_private(self.passwd_path, self.users.passwd_text(self.password_iterations))
        if self.tls is not None:
            _write_private(self.local_passwd_path, self.local_passwd_text())
        _write_private(self.credentials_path, self.users.dumps())
        _write_private(self.acl_path, self.users.acl_text())
        _write_private(self.conf_path, self.render())
        return self.conf_path


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` readable by its owner only, from the first byte on."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(path, 0o600)  # O_CREAT's mode does not apply to a file that already existed


def _probe_host(host: str) -> str:
    """Where to connect to reach a listener bound to ``host``."""
    return {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)


class Broker:
    """One mosquitto process for a :class:`BrokerConfig`; stops only the process it started."""

    POLL_INTERVAL = 0.01
    ADDRESS_IN_USE = "Address already in use"
    RUNNING = re.compile(r"mosquitto version \S+ running")
    """Logged (as information) once every listener is open."""

    def __init__(self, config: BrokerConfig, *, binary: str | Path | None = None,
                 start_timeout: float = 10.0, stop_timeout: float = 5.0) -> None:
        self.config = config
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self._binary = Path(binary) if binary is not None else None
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def binary(self) -> Path:
        if self._binary is None:
            self._binary = find_mosquitto()
            if self._binary is None:
                raise MosquittoNotFoundError(
                    "mosquitto not found on PATH nor in /usr/sbin: "
                    "run scripts/setup.py or apt-get install mosquitto")
        return self._binary

    @property
    def host(self) -> str:
        return _probe_host(self.config.host)

    @property
    def port(self) -> int:
        return self.config.port

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"mqtt://{host}:{self.port}"

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Write the config, spawn mosquitto, and return once its port takes connections.

        A port that a stopped broker just left may refuse the bind for a moment; start-up is
        retried on "Address already in use" until the deadline.
        """
        if self._proc is not None:
            if self._proc.poll() is None:
                raise BrokerError(f"broker already running (pid {self._proc.pid})")
            self._proc = None
        conf = self.config.write()
        deadline = time.monotonic() + self.start_timeout
        retry_pause = self.POLL_INTERVAL * 10
        first_log = self._log_size()
        while True:
            log_start = self._log_size()
            proc = self._spawn(conf)
            try:
                if self._wait_listening(proc, deadline, log_start):
                    self._proc = proc
                    return
            finally:
                if self._proc is not proc:
                    self._end(proc, signal.SIGKILL)
            exited = proc.returncode != -signal.SIGKILL  # by itself, not by our deadline
            if not (exited and self.ADDRESS_IN_USE in self._read_log(log_start)
                    and time.monotonic() + retry_pause < deadline):
                break
            time.sleep(retry_pause)
        if exited:
            why = f"exited with status {proc.returncode}"
        else:
            why = f"did not listen on {self.host}:{self.port} within {self.start_timeout}s"
        raise BrokerStartError(f"mosquitto ({self.binary} -c {conf}) {why}; "
                               f"its log ends:\n{self.log_tail(since=first_log)}")

    def stop(self) -> None:
        """SIGTERM (mosquitto saves its persistence file), then SIGKILL after ``stop_timeout``."""
        if self._proc is not None:
            proc, self._proc = self._proc, None
            self._end(proc, signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL, as a crash would: nothing is saved after the last autosave."""
        if self._proc is not None:
            proc, self._proc = self._proc, None
            self._end(proc, signal.SIGKILL)

    def reload(self) -> None:
        """SIGHUP: Mosquitto reads its password file and ACL again (not its listeners nor its
        bridges); connected clients stay."""
        if self._proc is None or self._proc.poll() is not None:
            raise BrokerError("the broker is not running")
        self._proc.send_signal(signal.SIGHUP)

    def restart(self) -> None:
        """Stop cleanly and start again on the same port, with the same persistence."""
        self.stop()
        self.start()

    def log_tail(self, lines: int = 20, since: int = 0) -> str:
        """The last ``lines`` lines of the log, from byte offset ``since`` on."""
        return "\n".join(self._read_log(since).splitlines()[-lines:]) or "(empty log)"

    def _read_log(self, since: int = 0) -> str:
        try:
            with open(self.config.log_path, "rb") as f:
                f.seek(since)
                return f.read().decode(errors="replace")
        except FileNotFoundError:
            return ""

    def __enter__(self) -> Broker:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = f"pid {self.pid}" if self.running else "stopped"
        return f"<Broker {self.url} {self.config.directory} {state}>"

    def _log_size(self) -> int:
        try:
            return self.config.log_path.stat().st_size
        except FileNotFoundError:
            return 0

    def _spawn(self, conf: Path) -> subprocess.Popen[bytes]:
        with open(self.config.log_path, "ab") as log:
            # The child keeps its own copy of the log's descriptor; ours closes here.
            return subprocess.Popen([str(self.binary), "-c", str(conf)],
                                    stdin=subprocess.DEVNULL, stdout=log, stderr=log)

    def _wait_listening(self, proc: subprocess.Popen[bytes], deadline: float,
                        log_start: int) -> bool:
        """True once the port accepts a connection and ``proc`` says it is running; False if
        it exits or the deadline passes first."""
        # Another process may hold the port: a connection alone does not prove it is ours,
        # while "running" is logged only after all of ours listen.
        logs_running = not {"information", "all"}.isdisjoint(self.config.log_types)
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return False
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    pass
            except OSError:
                time.sleep(self.POLL_INTERVAL)
                continue
            if not logs_running or self.RUNNING.search(self._read_log(log_start)):
                return proc.poll() is None
            time.sleep(self.POLL_INTERVAL)
        return False

    def _end(self, proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
        if proc.poll() is None:
            proc.send_signal(sig)
            try:
                proc.wait(timeout=self.stop_timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
        proc.wait()
