"""Backlog drain: events queued at the broker while the server was down, then stored by 1 and
by 2 ingest workers on PostgreSQL, against a bare paho subscriber draining the same backlog.

    python3 -m bench.backlog [--tables N] [--events E] [--pg URL] [--seconds S] [--json]

A private Mosquitto (bidbox.broker) on a loopback port, its ``max_queued_messages`` set above
the backlog (each offline session may hold every event), a user for each table. For each run:

1. the consumer's persistent session is made: each ingest worker (``server.link.bus.Bus``,
   clean_start false, a day's session expiry) connects, subscribes and stops, or the bare
   subscriber does the same with its own client;
2. with every consumer away, publisher processes (bench.ingest's, one paho client a table,
   QoS 1) publish each table's events 1..E, the real boards of the records file; the broker
   acknowledges every one, so all N x E wait in the offline sessions;
3. the consumers start, each in a process of its own, and drain the backlog: a Bus stores it
   in a fresh PostgreSQL database (made for the run, dropped after), the bare subscriber
   counts it. The rate is events over the seconds from the first consumer's start to the last
   commit (or last message counted).

Runs, one after the other with identical backlogs: bare, 1 worker, 2 workers, bare. Two
workers each take half of the tables (``server.link.bus.split_tables``: tables 1, 3, 5... and 2,
4, 6...), subscribed to their own tables' topics, so each table's stream reaches one worker
whole and in order. After each worker run the database is read: every (table, seq) once,
nothing lost (what the publishers were acknowledged), no row twice, each table's contiguous
mark at E. Nothing leaves the loopback interface.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import os
import platform
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import psycopg
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from sqlalchemy.engine import make_url

from bench.bare import BenchError
from bench.ingest import (
    TIMEOUT,
    Place,
    clock,
    collect,
    end_session,
    mix,
    publisher,
    stored_counts,
    stream,
)
from bench.replay import DEFAULT as RECORDS
from bench.table import mosquitto_version
from bidbox.broker import Broker, BrokerConfig, BrokerUsers, Credentials, find_mosquitto
from laws.formats import load_path
from mqttlink import BrokerSettings
from server.link.bus import SESSION_EXPIRY, WINDOW, Bus, split_tables
from server.link.ingest import Ingest, Outcome
from server.link.live import Hub
from server.storage.db import Database
from sim.recorded import playable
from tablemodel.wire import ROOT

EVENT = "backlog"
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


# -- the consumers, each a process of its own ------------------------------------------------

@dataclass(frozen=True)
class Consumer:
    """Where a consumer process connects and what it reports to."""

    host: str
    port: int
    creds: Credentials
    client_id: str
    reports: Any  # multiprocessing.Queue of (who, what, dict)
    go: Any       # multiprocessing.Event: start draining
    deadline: float


class TimedIngest(Ingest):
    """Ingest as the server has it, noting when its last batch committed."""

    def __init__(self, db: Database, event: str) -> None:
        super().__init__(db, event)
        self.last = 0.0
        self.redelivered = 0

    def many(self, messages: Any) -> list[Outcome]:
        outcomes = super().many(messages)
        self.last = clock()
        self.redelivered += sum(o.duplicate for o in outcomes)
        return outcomes


def ingest_worker(place: Consumer, url: str, tables: list[int], expected: int,
                  establish: bool) -> None:
    """One ingest worker: ``establish`` makes its session (connect, subscribe, stop);
    otherwise it waits for ``go``, starts, and stores until ``expected`` events are stored."""
    name = place.client_id
    db = Database(url)
    bus = None
    try:
        hub, ingest = Hub(), TimedIngest(db, EVENT)
        bus = Bus(ingest, hub, BrokerSettings(place.host, place.port, place.creds.username,
                                              place.creds.password),
                  client_id=name, tables=tables)
        if not establish:
            place.reports.put((name, "ready", {}))
            if not place.go.wait(max(0.0, place.deadline - clock())):
                raise BenchError(f"{name}: never told to go")
        start, cpu = clock(), time.process_time()
        bus.start()
        if not bus.subscribed.wait(TIMEOUT):
            raise BenchError(f"{name}: no SUBACK")
        if establish:
            place.reports.put((name, "done", {}))
            return
        seen = hub.version
        while bus.stored < expected and clock() < place.deadline:
            seen = hub.wait(seen, max(0.0, min(1.0, place.deadline - clock()))).version
        place.reports.put((name, "done", {
            "start": start, "last": ingest.last, "stored": bus.stored, "batches": bus.batches,
            "redelivered": ingest.redelivered, "rejected": ingest.rejected,
            "cpu": time.process_time() - cpu}))
    except Exception as error:
        place.reports.put((name, "error", {"error": f"{type(error).__name__}: {error}"}))
    finally:
        if bus is not None:
            bus.stop()
        db.dispose()


def bare_drain(place: Consumer, topic: str, expected: int, establish: bool) -> None:
    """The bare subscriber with a persistent session like the Bus's (clean_start false, the
    same session expiry and receive maximum); paho acknowledges each message as it comes.
    ``establish`` makes the session; otherwise it drains, counting."""
    got = {"count": 0, "last": 0.0}
    subscribed, done = threading.Event(), threading.Event()

    def on_message(client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        got["count"] += 1
        got["last"] = clock()
        if got["count"] >= expected:
            done.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=place.client_id,
                         protocol=mqtt.MQTTv5)
    client.username_pw_set(place.creds.username, place.creds.password)
    client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
    client.on_subscribe = lambda *_: subscribed.set()
    client.on_message = on_message
    properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
    properties.SessionExpiryInterval = SESSION_EXPIRY
    properties.ReceiveMaximum = WINDOW
    try:
        if not establish:
            place.reports.put((place.client_id, "ready", {}))
            if not place.go.wait(max(0.0, place.deadline - clock())):
                raise BenchError("the bare subscriber was never told to go")
        start, cpu = clock(), time.process_time()
        client.connect(place.host, place.port, keepalive=30, clean_start=False,
                       properties=properties)
        client.loop_start()
        if not subscribed.wait(TIMEOUT):
            raise BenchError("the bare subscriber got no SUBACK")
        if not establish:
            done.wait(max(0.0, place.deadline - clock()))
        place.reports.put((place.client_id, "done", {
            **got, "start": start, "cpu": time.process_time() - cpu}))
    except Exception as error:
        place.reports.put((place.client_id, "error",
                           {"error": f"{type(error).__name__}: {error}"}))
    finally:
        client.disconnect()
        client.loop_stop()


# -- PostgreSQL: a database of the run's own -----------------------------------------------

def create_database(admin: str) -> str:
    name = f"bidbox_backlog_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return str(make_url(admin).set(database=name).render_as_string(hide_password=False))


def drop_database(admin: str, url: str) -> None:
    name = make_url(url).database
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- one run -------------------------------------------------------------------------------

@dataclass
class Run:
    kind: str          # "bare" or "workers"
    workers: int
    tables: int
    events: int        # per table
    published: int = 0
    seconds: float | None = None    # first consumer start -> last commit / message
    received: int | None = None     # bare: messages counted
    stored: int | None = None       # workers: distinct (table, seq) in the database
    duplicate_rows: int | None = None
    complete_tables: int | None = None
    redelivered: int | None = None
    rejected: int | None = None
    batches: int | None = None
    cpu_s: float | None = None      # CPU of the consumer processes, all of their life
    shares: list[int] = field(default_factory=list)  # events each worker stored
    timed_out: bool = False

    @property
    def expected(self) -> int:
        return self.tables * self.events

    @property
    def count(self) -> int:
        return (self.received if self.kind == "bare" else self.stored) or 0

    @property
    def rate(self) -> float | None:
        return self.count / self.seconds if self.seconds else None

    @property
    def lost(self) -> int | None:
        return None if self.stored is None else self.published - self.stored

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "expected": self.expected, "rate": self.rate,
                "lost": self.lost}


class Backlog:
    def __init__(self, broker: Broker, users: BrokerUsers, payloads: dict[int, list[bytes]],
                 publishers: int, admin: str, deadline: float) -> None:
        self.broker = broker
        self.users = users
        self.payloads = payloads
        self.publishers = publishers
        self.admin = admin
        self.deadline = deadline
        self.mp = multiprocessing.get_context("spawn")

    def run(self, kind: str, workers: int, name: str) -> Run:
        tables = sorted(self.payloads)
        events = len(self.payloads[tables[0]])
        run = Run(kind, workers, len(tables), events)
        url = create_database(self.admin) if kind == "workers" else None
        try:
            if url is not None:
                db = Database(url)
                db.upgrade()
                db.dispose()
            reports: Any = self.mp.Queue()
            go = self.mp.Event()
            shares = split_tables(tables, workers) if kind == "workers" else [tables]
            consumers = [Consumer(self.broker.host, self.broker.port, self.users.server,
                                  f"backlog-{name}-{k + 1}", reports, go, self.deadline)
                         for k in range(len(shares))]
            for establish in (True, False):
                if not establish:
                    run.published = self._publish()
                processes = [self._consumer(kind, c, url, share, establish)
                             for c, share in zip(consumers, shares, strict=True)]
                try:
                    for process in processes:
                        process.start()
                    if not establish:
                        collect(reports, {c.client_id for c in consumers}, "ready",
                                self.deadline + TIMEOUT)
                        go.set()
                    found = collect(reports, {c.client_id for c in consumers}, "done",
                                    self.deadline + TIMEOUT)
                finally:
                    for process in processes:
                        process.join(TIMEOUT)
                        if process.is_alive():
                            process.terminate()
                            process.join(TIMEOUT)
            start = min(r["start"] for r in found.values())
            run.cpu_s = sum(r["cpu"] for r in found.values())
            if kind == "bare":
                bare = found[consumers[0].client_id]
                run.received = bare["count"]
                run.seconds = bare["last"] - start
                run.timed_out = run.received < run.published
            else:
                assert url is not None
                run.seconds = max(r["last"] for r in found.values()) - start
                run.shares = [r["stored"] for r in found.values()]
                run.redelivered = sum(r["redelivered"] for r in found.values())
                run.rejected = sum(r["rejected"] for r in found.values())
                run.batches = sum(r["batches"] for r in found.values())
                self._verify(url, run)
                run.timed_out = (run.stored or 0) < run.published
        finally:
            for consumer in [f"backlog-{name}-{k + 1}" for k in range(max(1, workers))]:
                self._end_session(consumer)
            if url is not None:
                drop_database(self.admin, url)
        return run

    def _consumer(self, kind: str, consumer: Consumer, url: str | None, share: list[int],
                  establish: bool) -> Any:
        expected = sum(len(self.payloads[t]) for t in share)
        if kind == "bare":
            topic = f"{ROOT}/{self.users.event}/table/+/events"
            return self.mp.Process(target=bare_drain, name=consumer.client_id,
                                   args=(consumer, topic, expected, establish))
        return self.mp.Process(target=ingest_worker, name=consumer.client_id,
                               args=(consumer, url, share, expected, establish))

    def _publish(self) -> int:
        """Every table's events published while no consumer is connected; the count the
        broker acknowledged."""
        reports: Any = self.mp.Queue()
        place = Place(self.broker.host, self.broker.port, self.users.event, self.mp.Event(),
                      reports, self.deadline)
        numbers = sorted(self.payloads)
        groups = [numbers[i::self.publishers] for i in range(self.publishers)]
        processes = {f"publisher-{i + 1}": self.mp.Process(
            target=publisher, name=f"backlog-publisher-{i + 1}",
            args=(place, f"publisher-{i + 1}", {n: self.users.table(n) for n in group},
                  {n: self.payloads[n] for n in group}))
            for i, group in enumerate(groups) if group}
        try:
            for process in processes.values():
                process.start()
            collect(reports, set(processes), "ready", self.deadline + TIMEOUT)
            place.go.set()
            found = collect(reports, set(processes), "done", self.deadline + TIMEOUT)
        finally:
            for process in processes.values():
                process.join(TIMEOUT)
                if process.is_alive():
                    process.terminate()
                    process.join(TIMEOUT)
        return sum(r["published"] for r in found.values())

    def _end_session(self, client_id: str) -> None:
        """The consumer's session at the broker, ended (bench.ingest.end_session)."""
        end_session(self.broker.host, self.broker.port, self.users.server, client_id)

    def _verify(self, url: str, run: Run) -> None:
        """What the database holds, whatever the workers counted."""
        db = Database(url)
        try:
            run.stored, run.duplicate_rows, run.complete_tables = stored_counts(
                db, EVENT, run.events)
        finally:
            db.dispose()


# -- the report ------------------------------------------------------------------------------

def report(runs: list[Run], header: dict[str, Any]) -> None:
    print(f"backlog bench: {header['tables']} tables x {header['events']} events = "
          f"{header['tables'] * header['events']} events queued at the broker while the "
          "consumer was away")
    print(f"  real boards of {header['records']}: "
          + ", ".join(f"{k} {v}" for k, v in header["mix"].items()))
    print(f"  machine: {header['cpus']} CPUs, load {header['load']}; Python "
          f"{header['python']}; {header['broker']}, max_queued_messages "
          f"{header['max_queued']}")
    print(f"  database: PostgreSQL, a fresh database each worker run ({header['pg']})")
    print(f"\n  {'run':34s} {'queued':>8s} {'drained':>8s} {'in s':>7s} {'ev/s':>7s} "
          f"{'CPU us/ev':>9s}")
    for number, run in enumerate(runs, 1):
        what = ("bare subscriber" if run.kind == "bare"
                else f"{run.workers} ingest worker{'s' if run.workers > 1 else ''}")
        cpu = 1e6 * run.cpu_s / run.count if run.cpu_s and run.count else 0.0
        print(f"  {number}. {what:31s} {run.published:8d} {run.count:8d} "
              f"{run.seconds or 0.0:7.2f} {run.rate or 0.0:7.0f} {cpu:9.0f}")
        if run.kind == "workers":
            print(f"     lost {run.lost}, duplicate rows {run.duplicate_rows}, "
                  f"{run.complete_tables} of {run.tables} tables stored 1..{run.events}; "
                  f"redeliveries met {run.redelivered}, rejected {run.rejected}; "
                  f"{run.batches} batches; each worker stored {run.shares}")
        if run.timed_out:
            print("     stopped at the time limit: the figures are what it had by then")
    bare = [r.rate for r in runs if r.kind == "bare" and r.rate]
    baseline = sum(bare) / len(bare) if bare else None
    one = next((r.rate for r in runs if r.kind == "workers" and r.workers == 1), None)
    two = next((r.rate for r in runs if r.kind == "workers" and r.workers == 2), None)
    if baseline:
        print(f"\nbaseline, the bare subscriber's runs: {baseline:.0f} ev/s "
              f"({' / '.join(f'{r:.0f}' for r in bare)})")
    if one and baseline:
        print(f"1 worker / bare = {one / baseline:.2f}")
    if two and baseline:
        print(f"2 workers / bare = {two / baseline:.2f}")
    if one and two:
        print(f"2 workers / 1 worker = {two / one:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100, help="default %(default)s")
    parser.add_argument("--events", type=int, default=1000,
                        help="events per table (default %(default)s: 100,000 in all)")
    parser.add_argument("--pg", default=os.environ.get("BIDBOX_TEST_PG", PG_ADMIN),
                        help="a PostgreSQL URL allowed to create and drop databases "
                        "(default %(default)s)")
    parser.add_argument("--publishers", type=int, default=2, help="default %(default)s")
    parser.add_argument("--seconds", type=float, default=900.0,
                        help="hard time limit of the whole bench (default %(default)s)")
    parser.add_argument("--records", type=Path, default=RECORDS)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.tables < 2 or args.events < 1 or args.publishers < 1:
        parser.error("--tables at least 2 (two workers split them), --events and "
                     "--publishers at least 1")
    started = clock()
    deadline = started + args.seconds
    binary = find_mosquitto()
    if binary is None:
        print("no mosquitto binary (PATH, /usr/sbin): apt-get install mosquitto",
              file=sys.stderr)
        return 2
    try:
        psycopg.connect(args.pg, connect_timeout=5).close()
    except psycopg.Error as error:
        print(f"no PostgreSQL at {args.pg}: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING)
    good, _ = playable(load_path(args.records))
    payloads = stream(good, args.tables, args.events)
    users = BrokerUsers.generate(EVENT, range(1, args.tables + 1), display=False)
    total = args.tables * args.events
    max_queued = 2 * total  # each offline session holds the whole backlog, with room
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="bidbox-backlog-") as tmp:
        config = BrokerConfig(Path(tmp) / "broker", users, max_queued_messages=max_queued,
                              autosave_interval=600)
        try:
            with Broker(config, binary=binary) as broker:
                bench = Backlog(broker, users, payloads, min(args.publishers, args.tables),
                                args.pg, deadline)
                for number, (kind, workers) in enumerate(
                        [("bare", 0), ("workers", 1), ("workers", 2), ("bare", 0)], 1):
                    if clock() > deadline:
                        break
                    runs.append(bench.run(kind, workers, str(number)))
        except BenchError as error:
            print(f"bench failed: {error}", file=sys.stderr)
            return 1
    header = {"tables": args.tables, "events": args.events, "cpus": os.cpu_count(),
              "load": ", ".join(f"{x:.2f}" for x in os.getloadavg()),
              "python": platform.python_version(), "max_queued": max_queued,
              "broker": f"{mosquitto_version(binary)} on {broker.host}",
              "pg": make_url(args.pg).render_as_string(hide_password=True),
              "records": args.records.name, "mix": mix(payloads),
              "elapsed": clock() - started}
    if args.json:
        print(json.dumps({**header, "runs": [run.as_json() for run in runs]}, indent=2))
    else:
        report(runs, header)
    bad = [r for r in runs if r.kind == "workers" and (r.lost or r.duplicate_rows)]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
