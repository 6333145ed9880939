"""Clubs bridged to a centre, on loopback: the parts ``bidbox loadtest --clubs`` and the
bridge's fault tests share (docs/scale.md, docs/loadtest.md "Clubs and a centre").

- :class:`LoopbackFederation`: a central Mosquitto and one Mosquitto per club, each from the
  files ``bidbox provision`` writes (``--clubs`` for the centre, ``--club ... --centre`` for
  each club), on free loopback ports, every club's bridge going through a :class:`TcpProxy`
  of its own so that one club's link can be cut and restored;
- :class:`EventTap`: a subscriber to the tables' events, at a club's broker or at the centre,
  keyed by ``(club, event, table, seq)``, which counts what arrives more than once;
- :func:`run`: the load test itself, simulated tables in each club (``sim.simulation``, one
  process a club) publishing through their club's broker, and at the centre its server
  (``bidbox server --centre``, the ``server`` role of :mod:`bidbox.loadtest_roles` in its own
  process) on SQLite or ``--db postgresql://...``, its session the clubs' sections as a
  federation sets it up, and the director's browser on its console
  (:class:`bidbox.loadtest.DirectorBrowser`).

Everything is started here and stopped here, by its own PID or socket.
"""

from __future__ import annotations

import contextlib
import dataclasses
import getpass
import json
import math
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import paho.mqtt.client as mqtt

from bidbox.broker import (
    CLUBS_ROOT,
    Broker,
    BrokerConfig,
    BrokerUsers,
    CentreUsers,
    find_mosquitto,
    free_port,
)
from bidbox.loadtest import (
    STARTUP_S,
    Child,
    DirectorBrowser,
    LoadTestError,
    ProcessWatch,
    busiest,
    forget,
    ms,
    percentile,
)
from bidbox.loadtest import _raise_file_limit as raise_file_limit
from bidbox.loadtest import _stored_rows as stored_rows
from bidbox.loadtest_roles import status
from bidbox.provision import (
    Centre,
    CentreLogin,
    Deployment,
    broker_config,
    centre_broker_config,
    provision,
    provision_centre,
)
from mqttlink import BrokerSettings, close_sockets, connect_persistent, mqtt_client
from tablemodel import wire

clock = time.monotonic
HOST = "127.0.0.1"
TIMEOUT = 60.0


class ClubsLoadTestError(RuntimeError):
    """The clubs' load test could not run as asked; the message says why."""


# -- the link between a club and the centre ---------------------------------------------------

class TcpProxy:
    """A TCP relay on loopback between a club's bridge and the central broker: the club's
    internet link, which the tests and the load test cut and restore.

    ``cut()`` is a silent cut, as when a club's router loses its line: the connections stay
    open but nothing crosses them any more, and new ones are taken and left unanswered, so
    the bridge notices only by its keepalive. ``restore()`` brings the line back; the
    connections that lived through the cut are reset, as a router that restarts (or a NAT
    that forgot them) does, and the bridge connects again.
    """

    def __init__(self, target: tuple[str, int], port: int = 0) -> None:
        self.target = target
        self._port = port
        self._listener: socket.socket | None = None
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._up = threading.Event()
        self._closed = False
        self.connections = 0
        """Connections taken since the start, through a cut or not."""

    @property
    def port(self) -> int:
        return self._port

    @property
    def up(self) -> bool:
        return self._up.is_set()

    def start(self) -> TcpProxy:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((HOST, self._port))
        listener.listen(16)
        self._port = listener.getsockname()[1]
        self._listener = listener
        self._up.set()
        threading.Thread(target=self._accept, name=f"proxy-{self._port}", daemon=True).start()
        return self

    def cut(self) -> None:
        """Nothing crosses from now on; the sockets stay open."""
        self._up.clear()

    def restore(self) -> None:
        """The line is back: reset what lived through the cut; new connections relay."""
        with self._lock:
            stale = list(self._open)
            self._open.clear()
        for sock in stale:
            _reset(sock)
        self._up.set()

    def close(self) -> None:
        self._closed = True
        self._up.clear()
        if self._listener is not None:
            with contextlib.suppress(OSError):
                self._listener.close()
        with self._lock:
            stale = list(self._open)
            self._open.clear()
        for sock in stale:
            _reset(sock)

    def _accept(self) -> None:
        assert self._listener is not None
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self.connections += 1
            with self._lock:
                self._open.add(client)
            if not self._up.is_set():
                # Taken by the kernel, never answered: a line that is down.
                threading.Thread(target=self._swallow, args=(client,), daemon=True).start()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=10)
            except OSError:
                self._drop(client)
                continue
            with self._lock:
                self._open.add(upstream)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if not self._up.is_set():
                    continue  # lost on the line
                sink.sendall(data)
        except OSError:
            pass
        finally:
            self._drop(source)
            self._drop(sink)

    def _swallow(self, sock: socket.socket) -> None:
        try:
            while sock.recv(65536):
                pass
        except OSError:
            pass
        finally:
            self._drop(sock)

    def _drop(self, sock: socket.socket) -> None:
        with self._lock:
            self._open.discard(sock)
        _reset(sock)


def _reset(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


# -- the federation ---------------------------------------------------------------------------

@dataclass
class LoopbackClub:
    name: str
    deployment: Deployment
    users: BrokerUsers
    broker: Broker
    proxy: TcpProxy
    files: Path
    """The club's provisioning folder; ``files / "broker"`` is where its broker runs."""

    def table_settings(self, table: int) -> BrokerSettings:
        """Table ``table`` at its club's broker, over TLS as on the club's network (the
        loopback listener takes the server's login alone)."""
        creds = self.users.table(table)
        tls = self.broker.config.tls
        assert tls is not None
        return BrokerSettings(HOST, tls.port, creds.username, creds.password,
                              str(self.files / "tables" / "ca.crt"))

    def server_settings(self) -> BrokerSettings:
        return BrokerSettings(HOST, self.broker.port, self.users.server.username,
                              self.users.server.password)


class LoopbackFederation:
    """A centre and ``clubs``, provisioned as a federation's IT person would, on loopback.

    The brokers run the generated ``mosquitto.conf`` (only the bridge's keepalive and retry
    are shortened, ``keepalive`` and ``restart``, so that a test does not wait 30 s for a
    reconnection). ``start()`` returns once every club's bridge has said ``1`` at the centre.
    """

    def __init__(self, folder: Path, clubs: Sequence[str], *, tables: int, event: str,
                 binary: Path | None = None, keepalive: int = 5,
                 restart: tuple[int, int] = (1, 2),
                 max_queued_messages: int | None = None) -> None:
        self.folder = folder.absolute()
        self.event = event
        self.binary = binary
        user = getpass.getuser()
        centre = Centre(clubs=tuple(clubs), broker_hosts=(HOST,), port=free_port(),
                        local_port=free_port(),
                        broker_dir=PurePosixPath(self.folder / "centre" / "broker"),
                        broker_user=user)
        done = provision_centre(centre, self.folder / "centre")
        self.centre = centre
        self.centre_users: CentreUsers = done.users
        config = centre_broker_config(centre, done.users)
        _same_as_written(config, self.folder / "centre" / "broker" / "mosquitto.conf")
        self.centre_broker = Broker(self._queue(config, max_queued_messages), binary=binary)
        self.clubs: dict[str, LoopbackClub] = {}
        self._state: EventTap | None = None
        relays: list[TcpProxy] = []
        try:
            for name in clubs:
                proxy = TcpProxy((HOST, centre.port))
                relays.append(proxy)
                proxy.start()
                files = self.folder / name
                deployment = Deployment(
                    event=event, tables=tables, broker_hosts=(HOST,), port=free_port(),
                    local_port=free_port(), broker_dir=PurePosixPath(files / "broker"),
                    broker_user=user, club=name, centre=f"mqtts://{HOST}:{proxy.port}")
                login = CentreLogin.loads(done.login(name).read_text())
                club = provision(deployment, files, centre_login=login)
                generated = broker_config(deployment, club.users, login)
                _same_as_written(generated, files / "broker" / "mosquitto.conf")
                assert generated.bridge is not None
                config = dataclasses.replace(generated, bridge=dataclasses.replace(
                    generated.bridge, keepalive=keepalive, restart=restart))
                self.clubs[name] = LoopbackClub(
                    name, deployment, club.users,
                    Broker(self._queue(config, max_queued_messages), binary=binary), proxy, files)
        except BaseException:
            for relay in relays:  # nothing else runs yet
                relay.close()
            raise

    @staticmethod
    def _queue(config: BrokerConfig, most: int | None) -> BrokerConfig:
        return config if most is None else dataclasses.replace(config,
                                                               max_queued_messages=most)

    @property
    def centre_settings(self) -> BrokerSettings:
        creds = self.centre_users.server
        return BrokerSettings(HOST, self.centre_broker.port, creds.username, creds.password)

    def start(self, timeout: float = TIMEOUT) -> LoopbackFederation:
        self.centre_broker.start()
        self._state = EventTap(self.centre_settings, f"{wire.ROOT}/+/table/+/events",
                               client_id="federation-links", centre=True)
        for club in self.clubs.values():
            club.broker.start()
        if not self.wait_links(timeout):
            raise ClubsLoadTestError(f"the clubs' bridges did not come up: {self.links()}")
        return self

    def links(self) -> dict[str, bytes]:
        """Each club's link as the centre last heard it: ``b"1"`` up, ``b"0"`` down."""
        assert self._state is not None
        with self._state.changed:
            return dict(self._state.links)

    def wait_links(self, timeout: float, clubs: Iterable[str] | None = None,
                   state: bytes = b"1") -> bool:
        assert self._state is not None
        names = list(self.clubs if clubs is None else clubs)
        return self._state.wait(lambda t: all(t.links.get(c) == state for c in names), timeout)

    def stop(self) -> None:
        """Stop every broker and proxy started here; each stop is tried whatever the others
        do."""
        if self._state is not None:
            self._state.close()
        for club in self.clubs.values():
            with contextlib.suppress(Exception):
                club.broker.stop()
            club.proxy.close()
        self.centre_broker.stop()

    def __enter__(self) -> LoopbackFederation:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _same_as_written(config: BrokerConfig, path: Path) -> None:
    """What runs is what ``bidbox provision`` wrote: the config renders to the file."""
    if config.render() != path.read_text():
        raise ClubsLoadTestError(f"{path} is not what the broker here would run")


# -- a subscriber to the tables' events --------------------------------------------------------

Key = tuple[str, str, int, int]
"""(club, event, table, seq): one table event across the whole field."""


class EventTap:
    """A paho subscriber (MQTT v5, QoS 1, a persistent session) to the tables' events.

    At the centre (``centre=True``) it subscribes below every club's prefix and takes the club
    from the topic, and it also follows each club's link state; at a club it is given the
    club's name. ``first[key]`` is the monotonic instant the event first arrived and
    ``delay[key]`` its wall-clock age then (arrival minus the table's ``ts``); ``arrivals``
    counts every delivery, so ``arrivals - len(first)`` is the duplicates, and ``differing``
    the keys whose repeat was not the same payload (none may be: a repeat is a redelivery).
    """

    def __init__(self, settings: BrokerSettings, pattern: str, *, client_id: str,
                 club: str | None = None, centre: bool = False,
                 session_expiry: int = 3600, ready_s: float = 30.0) -> None:
        self.club = club
        self.centre = centre
        self.topics = [(f"{CLUBS_ROOT}/+/{pattern}" if centre else pattern, 1)]
        if centre:
            self.topics.append((f"{CLUBS_ROOT}/+/bridge/state", 1))
        self.first: dict[Key, float] = {}
        self.delay: dict[Key, float] = {}
        self.arrivals = 0
        self.payloads: dict[Key, bytes] = {}
        self.differing: set[Key] = set()
        self.links: dict[str, bytes] = {}
        self.link_changes: list[tuple[str, bytes, float]] = []
        self.bad: list[str] = []
        self.changed = threading.Condition()
        self.subscribed = threading.Event()
        self.client = mqtt_client(settings, client_id)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(1, 2)
        connect_persistent(self.client, settings, session_expiry, receive_maximum=1000)
        self.client.loop_start()
        # What is published before the broker has the subscription is not ours to see: the
        # tap is ready only once the SUBACK is back, so nobody publishes into that gap.
        if not self.subscribed.wait(ready_s):
            self.close()
            raise TimeoutError(f"{client_id}: no SUBACK from {settings.host}:{settings.port} "
                               f"in {ready_s:g} s")

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, code: Any,
                    properties: Any) -> None:
        if not code.is_failure:
            client.subscribe(self.topics)

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, codes: Any,
                      properties: Any) -> None:
        if all(not code.is_failure for code in codes):
            self.subscribed.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: Any) -> None:
        now, wall = clock(), time.time()
        topic = message.topic
        club = self.club or ""
        if self.centre:
            parts = topic.split("/", 2)
            club, topic = parts[1], parts[2]
            if topic == "bridge/state":
                with self.changed:
                    self.links[club] = bytes(message.payload)
                    self.link_changes.append((club, bytes(message.payload), now))
                    self.changed.notify_all()
                return
        try:
            event, table, _kind = wire.parse_topic(topic)
            body = json.loads(message.payload)
            key = (club, event, table, int(body["seq"]))
            ts = float(body["ts"])
        except (wire.WireError, ValueError, KeyError, TypeError) as error:
            with self.changed:
                self.bad.append(f"{message.topic}: {error}")
            return
        with self.changed:
            self.arrivals += 1
            if key not in self.first:
                self.first[key] = now
                self.delay[key] = wall - ts
                self.payloads[key] = bytes(message.payload)
            elif self.payloads[key] != message.payload:
                self.differing.add(key)
            self.changed.notify_all()

    @property
    def duplicates(self) -> int:
        with self.changed:
            return self.arrivals - len(self.first)

    def wait(self, predicate: Callable[[EventTap], bool], timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: predicate(self), timeout)

    def missing(self, expected: Iterable[Key]) -> list[Key]:
        with self.changed:
            return [key for key in expected if key not in self.first]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        close_sockets(self.client)


def _has_all(keys: list[Key]) -> Callable[[EventTap], bool]:
    return lambda tap: not tap.missing(keys)


def expected_keys(club: str, event: str, last_seq: dict[int, int]) -> list[Key]:
    """Every event a club's tables journalled: seqs 1 to each table's last."""
    return [(club, event, table, seq) for table, last in last_seq.items()
            for seq in range(1, last + 1)]


# -- the load test -----------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "data" / "pairs.pbn"
"""The project's golden session of played boards: every club replays it."""
CLUB_NAMES = ("norte", "sur", "este", "oeste", "centro", "islas", "costa", "sierra")


@dataclass
class ClubsSettings:
    clubs: int = 3
    tables: int = 4  # in each club
    boards: int = 2  # each table plays
    speed: float = 0.0
    records: Path = RECORDS
    cut_minutes: float = 0.0  # one club's link cut for this long, from the play's start
    cut_after: float = 5.0  # seconds from the cut club's first event to the cut
    # The play's limit, the cut included: then the players stop, each table finishing the
    # board it is on as fast as it goes; the figures of pace are those before it.
    seconds: float = 900.0
    drain_s: float = 120.0  # after the play, for the centre to get everything
    folder: Path | None = None
    keepalive: int = 5
    max_queued_messages: int | None = None
    db: str | None = None  # the centre server's database (default: a SQLite file in folder)


@dataclass
class ClubsReport:
    figures: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        f = self.figures
        s = f["centre_server"]
        lines = [
            f"bidbox loadtest --clubs: {f['clubs']} clubs x {f['tables']} tables x "
            f"{f['boards']} boards, speed {f['speed']}, the centre's server on "
            f"{f['database']}, {f['cpus']} cores, load average {f['load_average']}",
            f"  events journalled {f['journalled']}; at the clubs' brokers {f['club_received']} "
            f"(lost {f['club_lost']}); at the centre's broker {f['centre_received']} "
            f"(lost {f['lost']}, duplicated {f['duplicated']})",
            f"  stored at the centre {f['stored']} (lost {f['stored_lost']}, duplicated "
            f"{f['stored_duplicated']}, not journalled {f['foreign']}, of another type "
            f"{f['mismatched']}; redeliveries met {f['redelivered']}, messages refused "
            f"{f['rejected']})",
            f"  events/s: at the clubs' brokers {f['club_events_per_s']}, at the centre's "
            f"broker {f['centre_events_per_s']} (ratio {f['rate_ratio']}); stored at the "
            f"centre {f['stored_events_per_s']} against {f['centre_events_per_s']} at the bare "
            f"subscriber beside it: ratio {f['ingest_ratio']}; busiest 10 s "
            f"{f['peak_events_per_s']} stored, {f['tap_peak_events_per_s']} at the subscriber",
            f"  table -> club broker p50 {f['club_ms_p50']} p99 {f['club_ms_p99']} ms; "
            f"club -> centre broker (the bridge) p50 {f['bridge_ms_p50']} p99 "
            f"{f['bridge_ms_p99']} ms (clubs not cut, n={f['bridge_n']}); table -> centre "
            f"broker p50 {f['centre_ms_p50']} p99 {f['centre_ms_p99']} ms",
            f"  centre broker -> stored p50 {f['stored_ms_p50']} p99 {f['stored_ms_p99']} ms; "
            f"stored -> page p50 {f['shown_ms_p50']} p99 {f['shown_ms_p99']} ms; the centre "
            f"server's part, centre broker -> page p50 {f['served_ms_p50']} p99 "
            f"{f['served_ms_p99']} ms",
            f"  table -> the centre's console page p50 {f['page_ms_p50']} p99 "
            f"{f['page_ms_p99']} ms (the {f['page_tables']} tables of its first page, "
            f"n={f['page_n']}, {f['page_fetches']} fragment fetches, "
            f"{f['page_full_fetches']} of the whole grid)",
            f"  centre server: CPU {s['cpu_percent']} %, RSS {s['rss_mb']} MB (peak "
            f"{s['peak_rss_mb']}); brokers: clubs CPU {f['club_brokers_cpu']} %, centre CPU "
            f"{f['centre_broker_cpu']} %",
        ]
        if f.get("cut") is not None:
            c = f["cut"]
            lines.append(
                f"  club {c['club']}'s link cut {c['seconds']} s: seen down at the centre "
                f"after {c['noticed_s']} s; {c['queued']} events queued at its broker; after "
                f"the restore the first at the centre in {c['reconnect_s']} s (the bridge's "
                f"retry), the {c['backlog_at_centre']} of the backlog in {c['backlog_s']} s "
                f"({c['backlog_events_per_s']} ev/s once linked)")
        if f["stopped_s"] is not None:
            lines.append(
                f"  the players stopped at {f['stopped_s']} s (--seconds), each table finishing "
                f"its board as fast as it goes: {f['boards_played']} of {f['boards_asked']} "
                f"boards played; the figures of pace are the {f['paced_n']} events before it")
        lines.append(f"  play {f['play_s']} s, elapsed {f['elapsed_s']} s")
        return "\n".join(lines)


def _cpu_s(pid: int | None) -> float:
    """CPU seconds used by ``pid`` (0 for none, or one gone)."""
    if pid is None:
        return 0.0
    try:
        return status(pid)["cpu_s"]
    except OSError:
        return 0.0


def centre_sections(names: Sequence[str], tables: int, boards: int,
                    first_board: int) -> list[Any]:
    """The central session's sections, one per club named after it, each with the club's
    tables (docs/scale.md, "3. The central server"): a Mitchell from 3 tables, a Howell of 2.

    The clubs' tables here replay recorded boards as ``sim.simulation`` deals them out, not
    as a movement moves them: table 1 may play the records' first board, and so may table 3.
    The whole movement (every round), from the records' first board, puts every board the
    club's tables play at every table in some round, and the centre, which starts no round,
    then takes each result as a movement's (``Services.result_allowed``). A result it would
    not is still stored as an event, and counted in ``rejected``."""
    from server.setup.movements import Section

    kind = "mitchell" if tables >= 3 else "howell"
    return [Section(name, kind, 2 * tables, boards, first_board=first_board)
            for name in names]


def set_up_centre(url: str, event: str, names: Sequence[str], settings: ClubsSettings
                  ) -> dict[tuple[str, int], int]:
    """What a federation does at its centre before the evening: the database, and the session
    of the clubs' sections with the clubs' boards (server/link/centre.py reads a club's table
    as its section's). Returns each (club, table)'s number in the central session."""
    from laws.formats import load_path
    from server.link.rounds import create_session
    from server.setup.movements import Sectioned
    from server.storage.db import Database
    from sim.recorded import playable

    good, _ = playable(load_path(settings.records), str(settings.records))
    played = [item.record.board for item in good[:settings.tables * settings.boards]]
    first = min((board for board in played if board is not None), default=1)
    db = Database(url)
    try:
        db.upgrade()
        forget(db, event)
        # The boards are dealt at the tables: the first table to play one gives its deal.
        session = create_session(
            db, event=event, title="bidbox loadtest --clubs", kind="", participants=0,
            boards_per_round=0, scope="field", dealing="table",
            sections=centre_sections(names, settings.tables, settings.boards, first))
    finally:
        db.dispose()
    plan = session.plan
    if not isinstance(plan, Sectioned):
        raise ClubsLoadTestError("the centre's session is not one of the clubs' sections")
    tables = range(1, settings.tables + 1)
    return {(name, t): plan.table_of(name, t) for name in names for t in tables}


def journalled(folder: Path, club: str, event: str, tables: int) -> dict[Key, str]:
    """Every event a club's tables wrote in their journals, and its type: the truth the
    brokers and the centre's database are checked against."""
    from tabled.journal import Journal

    found: dict[Key, str] = {}
    for number in range(1, tables + 1):
        path = folder / club / "journals" / f"table-{number}.db"
        if not path.exists():
            continue
        journal = Journal(path)
        try:
            for logged in journal.events():
                found[(club, event, number, logged.seq)] = str(logged.type)
        finally:
            journal.close()
    return found


def run(settings: ClubsSettings, *, say: Callable[[str], None] | None = None,
        shield: Callable[[], AbstractContextManager[Any]] = contextlib.nullcontext
        ) -> ClubsReport:
    """One run: start the federation, the centre's server, the director's browser at the
    centre, the taps and one table process a club; cut and restore one club's link if asked;
    wait for everything at the centre and on its page; stop everything (inside ``shield()``:
    a signal then waits until all of it is stopped)."""
    note = say or (lambda text: None)
    if not 2 <= settings.clubs <= len(CLUB_NAMES):
        # One section alone is no session of sections: the centre reads none (centre.py).
        raise ClubsLoadTestError(f"--clubs from 2 to {len(CLUB_NAMES)}")
    if settings.tables < 2 or settings.boards < 1:
        # A club's section is at least a Howell of 2 tables.
        raise ClubsLoadTestError("--tables at least 2 (a club's section at the centre) and "
                                 "--boards at least 1")
    if settings.cut_minutes < 0:
        raise ClubsLoadTestError("--cut-minutes cannot be negative")
    if find_mosquitto() is None:
        raise ClubsLoadTestError("mosquitto is not installed: python3 scripts/setup.py")
    if not settings.records.is_file():
        raise ClubsLoadTestError(f"no records at {settings.records}")
    if settings.folder is not None and settings.folder.exists() \
            and any(settings.folder.iterdir()):
        raise ClubsLoadTestError(f"--folder {settings.folder} is not empty: each run "
                                 "provisions its federation afresh")
    try:
        return _run(settings, note, shield)
    except LoadTestError as error:  # a process of the centre's (bidbox.loadtest.Child)
        raise ClubsLoadTestError(str(error)) from None


def _run(settings: ClubsSettings, note: Callable[[str], None],
         shield: Callable[[], AbstractContextManager[Any]]) -> ClubsReport:
    from server.storage.db import Database

    started = clock()
    raise_file_limit()
    folder = settings.folder or Path(tempfile.mkdtemp(prefix="bidbox-clubs-"))
    folder.mkdir(parents=True, exist_ok=True)
    event = f"simul-{secrets.token_hex(3)}"
    names = CLUB_NAMES[:settings.clubs]
    url = settings.db or str(folder / "centre.db")
    federation = LoopbackFederation(folder / "federation", names, tables=settings.tables,
                                    event=event, keepalive=settings.keepalive,
                                    max_queued_messages=settings.max_queued_messages)
    taps: list[EventTap] = []
    children: list[subprocess.Popen[str]] = []
    server: Child | None = None
    browser: DirectorBrowser | None = None
    try:
        federation.start()
        central = set_up_centre(url, event, names, settings)
        of_central = {number: key for key, number in central.items()}
        # The centre's server as `bidbox server --centre` runs it: its own process, reading
        # the central broker as the user `centre` (docs/scale.md).
        login = federation.centre_settings
        password = secrets.token_urlsafe(12)
        server = Child("centre-server", "server", {
            "web": True, "centre": True, "db": url, "event": event, "password": password,
            "analysis": False, "broker": {"host": login.host, "port": login.port,
                                          "username": login.username,
                                          "password": login.password},
            "client_id": f"bidbox-centre-{event}", "shared_group": None, "linger": None,
            "out": str(folder / "centre-server.out.json")}, folder)
        address = server.expect("ready", clock() + STARTUP_S)["address"]
        # The console's first page: the first tables of the field (all of them up to a page).
        browser = DirectorBrowser(address, password, len(central)).start()
        pattern = f"{wire.ROOT}/{event}/table/+/events"
        # The baseline: a bare subscriber at the centre's broker, beside the server.
        centre = EventTap(federation.centre_settings, pattern, client_id="loadtest-centre",
                          centre=True)
        taps.append(centre)
        club_taps = {}
        for name, club in federation.clubs.items():
            club_taps[name] = EventTap(club.server_settings(), pattern,
                                       client_id=f"loadtest-{name}", club=name)
            taps.append(club_taps[name])
        note(f"centre on {HOST}:{federation.centre_broker.port}, its server on {address} "
             f"({url}), clubs "
             + ", ".join(f"{n} on {c.broker.port}" for n, c in federation.clubs.items()))
        cpu_before = {n: _cpu_s(c.broker.pid) for n, c in federation.clubs.items()}
        centre_cpu_before = _cpu_s(federation.centre_broker.pid)
        watch = ProcessWatch({"centre_server": [server.pid]})
        watch.start()
        go = clock()
        outs = {}
        for name, club in federation.clubs.items():
            out = folder / f"{name}.out.json"
            outs[name] = out
            config = folder / f"{name}.json"
            config.write_text(json.dumps({
                "event": event, "tables": settings.tables, "boards": settings.boards,
                "speed": settings.speed, "records": str(settings.records),
                "folder": str(folder / name / "journals"), "out": str(out),
                "stop_at": go + settings.seconds,
                "brokers": {str(t): dataclasses.asdict(club.table_settings(t))
                            for t in range(1, settings.tables + 1)}}))
            with (folder / f"{name}.log").open("w") as log:
                children.append(subprocess.Popen(
                    [sys.executable, "-m", "bidbox.loadtest_roles", "club", str(config)],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, text=True))
        cut = None
        if settings.cut_minutes > 0:
            cut = _Cut(names[0], federation.clubs[names[0]].proxy, club_taps[names[0]], centre,
                       settings.cut_after, settings.cut_minutes * 60).start(federation, note)
        # The limit, then the board each table is on, then its outbox (the club role's drain).
        deadline = go + settings.seconds + settings.drain_s + 60.0
        for child in children:
            try:
                child.wait(max(1.0, deadline - clock()))
            except subprocess.TimeoutExpired:
                raise ClubsLoadTestError(f"the tables did not stop in {settings.seconds:g} s "
                                         f"(--seconds) and {settings.drain_s + 60:g} more") \
                    from None
        play_end = clock()
        truth: dict[Key, str] = {}
        played: dict[str, dict[str, Any]] = {}
        for name, out in outs.items():
            if not out.exists():
                said = (folder / f"{name}.log").read_text()[-1500:]
                raise ClubsLoadTestError(f"club {name}'s tables ended without figures: {said}")
            data = json.loads(out.read_text())
            if data.get("errors"):
                raise ClubsLoadTestError(f"club {name}'s tables: {data['errors']}")
            played[name] = data
            truth.update(journalled(folder, name, event, settings.tables))
        expected = sorted(truth)
        if cut is not None:
            if cut.began is not None:  # the play ended during the cut: wait for its end
                cut.done.wait(max(0.0, cut.began + cut.seconds - clock()))
            cut.restore()
        drained = clock() + settings.drain_s
        centre.wait(lambda t: not t.missing(expected), max(0.0, drained - clock()))
        for name in names:
            club_taps[name].wait(_has_all([k for k in expected if k[0] == name]), 30.0)
        # Until the centre's server has stored every event journalled, or the drain is up.
        server.send("drain")
        with Child.changed:
            Child.changed.wait_for(lambda: server is not None and (
                server.latest.get("stored", 0) >= len(expected) or server.ended),
                max(0.0, drained - clock()))
        last = {central[(club, table)]: seq for club, _, table, seq in expected}
        browser.wait_shown(last, clock() + 10.0)
        end = clock()
        watch.finish()
        club_cpu = {n: _cpu_s(c.broker.pid) - cpu_before[n]
                    for n, c in federation.clubs.items()}
        centre_cpu = _cpu_s(federation.centre_broker.pid) - centre_cpu_before
        server.send("stop")
        server.expect("done", clock() + 30)
        stored = json.loads((folder / "centre-server.out.json").read_text())
        rows: list[tuple[Key, str]] = []
        for table, seq, kind in stored_rows(url, event):
            owner, number = of_central[table]
            rows.append(((owner, event, number, seq), kind))
        server_side = _AtCentre(stored, of_central, rows, browser, watch, url)
        return _figures(settings, names, event, truth, centre, club_taps, cut, go, play_end,
                        end, started, club_cpu, centre_cpu, server_side, played)
    finally:
        with shield():
            if browser is not None:
                browser.close()
            for child in children:
                if child.poll() is None:
                    child.terminate()
                    try:
                        child.wait(30)
                    except subprocess.TimeoutExpired:
                        child.kill()
                        child.wait()
            if server is not None:
                server.stop()
            for tap in taps:
                with contextlib.suppress(Exception):
                    tap.close()
            federation.stop()
            if settings.db is not None:  # not ours: the run's rows go
                with contextlib.suppress(Exception):
                    db = Database(url)
                    forget(db, event)
                    db.dispose()
            if settings.folder is None:
                shutil.rmtree(folder, ignore_errors=True)


@dataclass
class _Cut:
    """One club's link cut ``after`` s after its first event, for ``seconds``, by a thread;
    :meth:`restore` ends it early (the play ended first)."""

    club: str
    proxy: TcpProxy
    tap: EventTap
    centre: EventTap
    after: float
    seconds: float
    began: float | None = None
    noticed: float | None = None
    queued: int = 0
    restored: float | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def start(self, federation: LoopbackFederation, note: Callable[[str], None]) -> _Cut:
        def cut() -> None:
            # ``after`` seconds from the club's first event at its broker: the play is on.
            if not self.tap.wait(lambda t: len(t.first) > 0 or self.done.is_set(), TIMEOUT):
                return
            if self.done.wait(self.after):  # a schedule, not a synchronisation
                return
            with self.tap.changed:  # not between a restore's look and its end
                if self.done.is_set():
                    return
                self.began = clock()
                self.proxy.cut()
            note(f"club {self.club}'s link cut for {self.seconds / 60:g} min")
            if federation.wait_links(self.seconds, [self.club], b"0"):
                self.noticed = clock()
                note(f"the centre saw club {self.club}'s link down after "
                     f"{self.noticed - self.began:.1f} s")
            self.done.wait(max(0.0, self.began + self.seconds - clock()))
            self.restore()
            note(f"club {self.club}'s link restored; {self.queued} events were waiting at "
                 "its broker")
        threading.Thread(target=cut, name="cut", daemon=True).start()
        return self

    def restore(self) -> None:
        with self.tap.changed:
            if self.restored is not None or self.began is None:
                self.done.set()
                self.tap.changed.notify_all()
                return
            waiting = len(self.tap.first)
            self.restored = clock()
        with self.centre.changed:
            waiting -= sum(1 for key in self.centre.first if key[0] == self.club)
        self.queued = waiting
        self.proxy.restore()
        self.done.set()


@dataclass
class _AtCentre:
    """What the centre's server and its page made of a run."""

    stored: dict[str, Any]  # the server's own figures: its commits, redeliveries, refusals
    of_central: dict[int, tuple[str, int]]  # a table of the central session: (club, table)
    rows: list[tuple[Key, str]]  # the events in its database, by the clubs' keys, and type
    browser: DirectorBrowser
    watch: ProcessWatch
    url: str


def _figures(settings: ClubsSettings, names: Sequence[str], event: str, truth: dict[Key, str],
             centre: EventTap, club_taps: dict[str, EventTap], cut: _Cut | None, go: float,
             play_end: float, end: float, started: float, club_cpu: dict[str, float],
             centre_cpu: float, side: _AtCentre, played: dict[str, dict[str, Any]]
             ) -> ClubsReport:
    from sqlalchemy.engine import make_url

    stored, of_central, rows, browser = side.stored, side.of_central, side.rows, side.browser
    wanted = set(truth)
    with centre.changed:
        at_centre = {k: v for k, v in centre.first.items() if k in wanted}
        centre_delay = dict(centre.delay)
        centre_arrivals = centre.arrivals
    club_first: dict[Key, float] = {}
    club_delay: dict[Key, float] = {}
    for tap in club_taps.values():
        with tap.changed:
            club_first.update(tap.first)
            club_delay.update(tap.delay)
    lost = len(wanted - at_centre.keys())
    club_lost = len(wanted - club_first.keys())
    cut_club = cut.club if cut is not None else None
    # At the time limit the tables finish their boards without the players' pauses: the
    # figures of pace (latencies, rates) are those of the events before it.
    stops = [p["stopped_at"] for p in played.values() if p.get("stopped_at") is not None]
    stop = min(stops, default=math.inf)
    paced = {k: t for k, t in club_first.items() if t < stop}
    steady = [k for k in at_centre if k[0] != cut_club and k in paced]
    bridge = [at_centre[k] - club_first[k] for k in steady]
    # The centre's server: when each event's transaction committed, by the club's key.
    commits: dict[Key, float] = {}
    for table, seq, at in stored["commits"]:
        club, number = of_central[table]
        commits.setdefault((club, event, number, seq), at)
    distinct = {key for key, _ in rows}

    central_of = {c: n for n, c in of_central.items()}
    page_at = {k: at for k in steady
               if (at := browser.shown_at(central_of[(k[0], k[2])], k[3])) is not None}
    into = [commits[k] - at_centre[k] for k in steady if k in commits]
    onto = [page_at[k] - commits[k] for k in steady if k in commits and k in page_at]
    served = [page_at[k] - at_centre[k] for k in steady if k in page_at]
    # Table -> page: its age at the club's broker (wall clock against the table's ts), then
    # the monotonic instants from there; one machine, one clock of each kind.
    whole = [club_delay[k] + page_at[k] - club_first[k] for k in steady if k in page_at]

    # From the first event at a club's broker, for all: the same start.
    begin = min((t for k, t in club_first.items() if k in wanted), default=go)

    def rate(first: dict[Key, float]) -> float | None:
        times = [t for k, t in first.items() if k in wanted and k[0] != cut_club
                 and k in paced]
        if len(times) < 2:
            return None
        return round(len(times) / max(1e-9, max(times) - begin), 1)

    def ratio(a: float | None, b: float | None) -> float | None:
        return round(a / b, 3) if a and b else None

    club_rate, centre_rate, stored_rate = rate(club_first), rate(at_centre), rate(commits)
    f: dict[str, Any] = {
        "clubs": len(names), "tables": settings.tables, "boards": settings.boards,
        "speed": settings.speed, "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "database": make_url(side.url).render_as_string(hide_password=True)
        if "://" in side.url
        else "SQLite file",
        "journalled": len(wanted), "club_received": len(club_first), "club_lost": club_lost,
        "centre_received": centre_arrivals, "lost": lost,
        "duplicated": centre_arrivals - len(centre.first),
        # The centre's database against the journals: every club's events stored once.
        "stored": len(distinct), "stored_lost": len(wanted - distinct),
        "stored_duplicated": len(rows) - len(distinct), "foreign": len(distinct - wanted),
        "mismatched": sum(1 for key, kind in rows if key in truth and truth[key] != kind),
        "redelivered": stored["duplicates_met"], "rejected": stored["rejected"],
        "club_events_per_s": club_rate, "centre_events_per_s": centre_rate,
        "rate_ratio": ratio(centre_rate, club_rate),
        "stored_events_per_s": stored_rate, "ingest_ratio": ratio(stored_rate, centre_rate),
        "peak_events_per_s": busiest(t for k, t in commits.items() if k in paced),
        "tap_peak_events_per_s": busiest(t for k, t in at_centre.items() if k in paced),
        "club_ms_p50": ms(percentile([club_delay[k] for k in steady], 50)),
        "club_ms_p99": ms(percentile([club_delay[k] for k in steady], 99)),
        "centre_ms_p50": ms(percentile([centre_delay[k] for k in steady], 50)),
        "centre_ms_p99": ms(percentile([centre_delay[k] for k in steady], 99)),
        "bridge_ms_p50": ms(percentile(bridge, 50)),
        "bridge_ms_p99": ms(percentile(bridge, 99)), "bridge_n": len(bridge),
        "stored_ms_p50": ms(percentile(into, 50)), "stored_ms_p99": ms(percentile(into, 99)),
        "stored_n": len(into),
        "shown_ms_p50": ms(percentile(onto, 50)), "shown_ms_p99": ms(percentile(onto, 99)),
        "served_ms_p50": ms(percentile(served, 50)), "served_ms_p99": ms(percentile(served, 99)),
        "page_ms_p50": ms(percentile(whole, 50)), "page_ms_p99": ms(percentile(whole, 99)),
        "page_ms_max": ms(max(whole, default=None)), "page_n": len(whole),
        "page_tables": len(of_central) if browser.last is None else browser.last,
        "page_fetches": browser.fetches, "page_full_fetches": browser.full_fetches,
        "page_fetch_ms_p50": ms(percentile(browser.fetch_s, 50)),
        "page_fetch_ms_p99": ms(percentile(browser.fetch_s, 99)),
        "centre_server": side.watch.figures("centre_server"),
        "club_brokers_cpu": {n: round(100 * cpu / max(1e-9, end - go), 1)
                             for n, cpu in club_cpu.items()},
        "centre_broker_cpu": round(100 * centre_cpu / max(1e-9, end - go), 1),
        "boards_asked": len(names) * settings.tables * settings.boards,
        "boards_played": sum(p.get("boards_played", 0) for p in played.values()),
        "stopped_s": None if stop == math.inf else round(stop - go, 1),
        "paced_n": len(paced),
        "play_s": round(play_end - go, 1), "elapsed_s": round(clock() - started, 1),
        "cut": None,
    }
    f["finished"] = f["boards_played"] == f["boards_asked"]
    if cut is not None and cut.restored is not None and cut.began is not None:
        # The backlog: the cut club's events its broker had before the line came back.
        backlog = [at_centre[k] for k, t in club_first.items()
                   if k[0] == cut.club and t < cut.restored and k in at_centre]
        later = sorted(t for t in backlog if t >= cut.restored)
        f["cut"] = {
            "club": cut.club, "seconds": round(cut.restored - cut.began, 1),
            "noticed_s": None if cut.noticed is None else round(cut.noticed - cut.began, 1),
            "queued": cut.queued, "backlog_at_centre": len(later),
            "reconnect_s": round(later[0] - cut.restored, 2) if later else None,
            "backlog_s": round(later[-1] - cut.restored, 2) if later else None,
            "backlog_events_per_s": round(len(later) / max(1e-9, later[-1] - later[0]), 1)
            if len(later) > 1 else None,
        }
    return ClubsReport(f)
