"""Ingest rate: events a second that the server's MQTT worker stores, against a bare paho
subscriber given the same stream in the same run (the baseline), as a ratio.

    python3 -m bench.ingest [--tables N] [--events E] [--seconds S] [--rounds R] [--db URL]
                            [--together] [--json]

A private Mosquitto (bidbox.broker) on a loopback port, with a user for each of N tables.
Publisher processes own the tables' credentials (a table may only write its own topics) and
publish, at QoS 1 and as fast as paho takes them, each table's events 1..E: what its players
did with real boards of the records file (bench.replay's), numbered as the table would, each
valid per tablemodel.wire: assign and players at each round, then each board's board, calls,
cards, claim and its answers, result and confirmations. Tables play at once: the publishers
interleave them.

Two subscribers, both logged in as the server:

- the baseline, a bare paho 2 client (MQTT v5, QoS 1) in a process of its own that only
  counts the messages on ``table/+/events``;
- the server's own worker, ``server.link.bus.Bus`` with ``server.link.ingest.Ingest`` (manual
  acknowledgement after each batch commits) on a fresh SQLite file, or on ``--db`` (then under
  an event name of its own, whose rows are deleted afterwards), in this process.

One after the other, with identical streams: the bare subscriber alone, then ``--rounds``
times the Bus alone on a fresh database and the bare subscriber alone again. Each Bus run is
set against the two bare runs around it, and the verdict is the median of those ratios: on a
shared two-core machine one run of a second or two swings by a tenth either way (twelve
single rounds on 2026-11-26 gave 0.54 to 0.89), so one Bus run against one pair of bare runs
says more about the moment than about the ingest. Every run is shown, so that a machine that
changes pace shows. Why not both subscribed to one
stream at once, the fairer comparison? On the two-core machine this was written on, the Bus's
worker keeps a core busy for the whole stream and the broker sends every message twice, so
the baseline is the figure that suffers: with other work on the machine, a bare subscriber
beside the Bus counted 39 % slower than alone (2147 against 3521 ev/s), on a quieter run as
fast (6074 against 5828), while the Bus stored at the same rate either way (340 against 343,
900 against 879 ev/s). At once, then, the ratio is flattered by as much as the machine is
busy; apart, neither run disturbs the other. ``--together`` adds the run at once, reported
beside.

Each rate counts from the first publish to the last message counted (bare) or the last commit
(Bus). Lost is what the broker acknowledged to the publishers but the database does not hold,
as distinct (table, seq); duplicates are rows sharing a (table, seq), which the unique
constraint forbids; the redeliveries the Bus met are counted apart. The whole run stops at
``--seconds`` from its start and reports what it has. Nothing leaves the loopback interface.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import os
import platform
import queue
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from sqlalchemy import delete, func, select
from sqlalchemy.engine import make_url

from bench.bare import BenchError
from bench.replay import DEFAULT as RECORDS
from bench.table import filesystem, mosquitto_version
from bidbox.broker import Broker, BrokerConfig, BrokerUsers, Credentials, find_mosquitto
from laws import Board, Seat
from laws.formats import load_path
from mqttlink import BrokerSettings
from server.link.bus import Bus
from server.link.ingest import Ingest, Outcome
from server.link.live import Hub
from server.storage import schema as s
from server.storage.db import Database
from sim.recorded import BoardScript, Playable, playable
from tablemodel.wire import ONLINE, ROOT, Event, table_topic

EVENT = "bench"
AIM = 0.7  # the aim: ingest at least 0.7 x the bare subscriber, nothing lost
TIMEOUT = 10.0  # the longest any one step of the set-up may take
BOARDS_PER_ROUND = 3
MAX_INFLIGHT = 100  # a table's uplink default (tabled.uplink.Uplink)

# time.monotonic is CLOCK_MONOTONIC on Linux: one clock for every process of the run, so the
# publishers' and the bare subscriber's instants compare with this process's.
clock = time.monotonic


# -- the stream --------------------------------------------------------------------------------

Item = tuple[str, int | None, dict[str, Any]]  # an event's type, board and data; no seq yet


def board_items(item: Playable) -> list[Item]:
    """What a table journals for one recorded board, from the board's choice to its
    confirmation by both sides."""
    script = BoardScript.of(item.record, item.expected.tricks)
    number, record = script.board, item.record
    facts = Board(number)
    items: list[Item] = [("board", number, {"board": number, "dealer": str(facts.dealer),
                                            "vul": str(facts.vulnerability)})]
    seat = record.auction_dealer or record.dealer or facts.dealer
    for call in script.calls:
        data: dict[str, Any] = {"seat": str(seat), "call": str(call.call)}
        if call.alert:
            data["alert"] = True
        items.append(("call", number, data))
        seat = seat.next()
    owner = {card: hand for hand, cards in script.hands.items() for card in cards}
    items += [("card", number, {"seat": str(owner[card]), "card": str(card)})
              for card in script.cards]
    if script.claim is not None:
        claimer, tricks = script.claim
        items.append(("claim", number, {"seat": str(claimer), "tricks": tricks}))
        items += [("claim_answer", number, {"seat": str(defender), "agree": True})
                  for defender in (claimer.lho, claimer.rho)]
    result = item.expected
    items.append(("result", number, {"contract": result.contract, "declarer": result.declarer,
                                     "tricks": result.tricks, "score_ns": result.score_ns}))
    items += [("confirm", number, {"seat": side}) for side in ("N", "E")]
    return items


def table_items(table: int, tables: int, by_board: dict[int, list[Playable]],
                events: int) -> list[Item]:
    """Table ``table``'s first ``events`` events: rounds of boards, each played as another
    table of the record played it."""
    numbers = sorted(by_board)
    items: list[Item] = []
    round_no = 0
    while len(items) < events:
        round_no += 1
        first = (table - 1 + round_no - 1) * BOARDS_PER_ROUND
        boards = [numbers[(first + i) % len(numbers)]
                  for i in range(min(BOARDS_PER_ROUND, len(numbers)))]
        items.append(("assign", None, {"cmd": f"round-{round_no}-table-{table}",
                                       "round": round_no, "ns": table, "ew": tables + table,
                                       "boards": boards}))
        items += [("player", None, {"seat": str(seat), "number": 1000 * table + i})
                  for i, seat in enumerate(Seat)]
        for number in boards:
            records = by_board[number]
            items += board_items(records[(table + round_no) % len(records)])
    return items[:events]


def stream(good: list[Playable], tables: int, events: int) -> dict[int, list[bytes]]:
    """Each table's payloads, seqs 1..``events``; every one parsed back as the server will."""
    by_board: dict[int, list[Playable]] = {}
    for item in good:
        assert item.record.board is not None  # playable() keeps only records with one
        by_board.setdefault(item.record.board, []).append(item)
    start = time.time()
    payloads = {}
    for table in range(1, tables + 1):
        mine = []
        for seq, (kind, board, data) in enumerate(table_items(table, tables, by_board,
                                                              events), 1):
            payload = Event(seq, kind, start + seq, board, data).to_payload()
            Event.from_payload(payload)  # raises WireError if the bench made a bad one
            mine.append(payload)
        payloads[table] = mine
    return payloads


def mix(payloads: dict[int, list[bytes]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for table in payloads.values():
        for payload in table:
            kind = json.loads(payload)["type"]
            counts[kind] = counts.get(kind, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


# -- the publishers and the bare subscriber: processes of their own ----------------------------

@dataclass(frozen=True)
class Place:
    """Where the processes connect, what they share with this one, and when they give up."""

    host: str
    port: int
    event: str
    go: Any       # multiprocessing.Event: set once everybody is subscribed
    reports: Any  # multiprocessing.Queue of (who, what, dict)
    deadline: float


class Acks:
    """PUBACKs counted by every table client of one publisher process."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.acked = self.refused = 0
        self.target = 0
        self.last = 0.0

    def on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason_code: Any,
                   properties: Any) -> None:
        with self.changed:
            if reason_code.is_failure:
                self.refused += 1
            else:
                self.acked += 1
            self.last = clock()
            if self.acked + self.refused >= self.target:
                self.changed.notify_all()  # only then: one wake-up, not one per PUBACK

    def wait(self, target: int, deadline: float) -> bool:
        with self.changed:
            self.target = target
            return self.changed.wait_for(lambda: self.acked + self.refused >= target,
                                         max(0.0, deadline - clock()))


def on_connect(done: threading.Event, client: mqtt.Client, userdata: Any, flags: Any,
               reason_code: Any, properties: Any) -> None:
    if not reason_code.is_failure:
        done.set()


def publisher(place: Place, name: str, tables: dict[int, Credentials],
            payloads: dict[int, list[bytes]]) -> None:
    """One publisher process: a paho client per table, as its uplink is (v5, QoS 1, up to
    100 in flight), each saying ``online`` (retained) before the stream, then every table's
    events, interleaved as tables playing at once."""
    acks = Acks()
    clients: dict[int, mqtt.Client] = {}
    try:
        connected = {n: threading.Event() for n in tables}
        for number, creds in tables.items():
            client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{creds.username}",
                                 protocol=mqtt.MQTTv5)
            client.username_pw_set(creds.username, creds.password)
            client.max_inflight_messages_set(MAX_INFLIGHT)
            client.on_connect = partial(on_connect, connected[number])
            client.on_publish = acks.on_publish
            client.connect(place.host, place.port, keepalive=30)
            client.loop_start()
            clients[number] = client
        ready = min(place.deadline, clock() + TIMEOUT)
        for number, done in connected.items():
            if not done.wait(max(0.0, ready - clock())):
                raise BenchError(f"table {number} got no CONNACK")
            clients[number].publish(table_topic(place.event, number, "status"), ONLINE,
                                    qos=1, retain=True)
        if not acks.wait(len(tables), ready):
            raise BenchError(f"{name}: the broker did not acknowledge every table's status")
        place.reports.put((name, "ready", {}))
        # The parent starts no stream after the deadline, and ends this process if it gives up.
        if not place.go.wait(max(0.0, place.deadline + TIMEOUT - clock())):
            raise BenchError(f"{name}: never told to go")
        base = acks.acked
        topics = {n: table_topic(place.event, n, "events") for n in tables}
        first = clock()
        queued = 0
        for i in range(max(map(len, payloads.values()))):
            for number, mine in payloads.items():
                if i < len(mine):
                    clients[number].publish(topics[number], mine[i], qos=1)
                    queued += 1
        handed = clock()
        acks.wait(base + queued, place.deadline)
        with acks.changed:
            figures = {"published": acks.acked - base, "refused": acks.refused,
                       "queued": queued, "first": first, "handed": handed, "last": acks.last}
        place.reports.put((name, "done", figures))
    except Exception as error:
        place.reports.put((name, "error", {"error": f"{type(error).__name__}: {error}"}))
    finally:
        for client in clients.values():
            client.disconnect()
            client.loop_stop()


def bare_subscriber(place: Place, creds: Credentials, expected: int) -> None:
    """The bare subscriber process: MQTT v5, QoS 1 (paho acknowledges each message as it
    arrives), every table's events topic; it counts the messages and nothing else."""
    got = {"count": 0, "first": 0.0, "last": 0.0}
    subscribed, done = threading.Event(), threading.Event()

    def on_message(client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        now = clock()
        if not got["count"]:
            got["first"] = now
        got["count"] += 1
        got["last"] = now
        if got["count"] >= expected:
            done.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-bare-subscriber",
                         protocol=mqtt.MQTTv5)
    client.username_pw_set(creds.username, creds.password)
    client.on_connect = lambda c, *_: c.subscribe(f"{ROOT}/{place.event}/table/+/events", qos=1)
    client.on_subscribe = lambda *_: subscribed.set()
    client.on_message = on_message
    try:
        client.connect(place.host, place.port, keepalive=30)
        client.loop_start()
        if not subscribed.wait(max(0.0, min(place.deadline, clock() + TIMEOUT) - clock())):
            raise BenchError("the bare subscriber got no SUBACK")
        place.reports.put(("bare", "ready", {}))
        cpu = time.process_time()
        done.wait(max(0.0, place.deadline - clock()))
        place.reports.put(("bare", "done", {**got, "cpu": time.process_time() - cpu}))
    except Exception as error:
        place.reports.put(("bare", "error", {"error": f"{type(error).__name__}: {error}"}))
    finally:
        client.disconnect()
        client.loop_stop()


# -- the server's worker, in this process --------------------------------------------------

class CountedIngest(Ingest):
    """Ingest as the server has it, also counting what the Bus does not: redeliveries met,
    rejections, the commands asked for, and the time spent in its transactions."""

    def __init__(self, db: Database, event: str) -> None:
        super().__init__(db, event)
        self.reset()

    def reset(self) -> None:
        self.calls = self.messages = self.duplicates = self.rejects = self.commands = 0
        self.busy = 0.0
        self.last = 0.0

    def many(self, messages: Iterable[tuple[str, bytes | str]]) -> list[Outcome]:
        start = clock()
        outcomes = super().many(messages)
        self.last = clock()  # committed
        self.busy += self.last - start
        self.calls += 1
        self.messages += len(outcomes)
        self.duplicates += sum(o.duplicate for o in outcomes)
        self.rejects += sum(o.rejected is not None for o in outcomes)
        self.commands += sum(len(o.commands) for o in outcomes)
        return outcomes



def end_session(host: str, port: int, login: Credentials, client_id: str) -> None:
    """Connect as ``client_id`` with a clean start and no expiry: the broker drops its
    session (and anything still queued for it) at the disconnect."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=mqtt.MQTTv5)
    client.username_pw_set(login.username, login.password)
    connected = threading.Event()
    client.on_connect = partial(on_connect, connected)
    client.connect(host, port, keepalive=30, clean_start=True)
    client.loop_start()
    try:
        if not connected.wait(TIMEOUT):
            raise BenchError(f"no CONNACK for {client_id} to end its session")
    finally:
        client.disconnect()
        client.loop_stop()

def hub_until(hub: Hub, predicate: Callable[[], bool], deadline: float) -> bool:
    """Wait on the live hub, which every stored batch wakes, until ``predicate`` holds."""
    seen = hub.version
    while not predicate():
        left = deadline - clock()
        if left <= 0:
            return False
        seen = hub.wait(seen, left).version
    return True


def scalar(db: Database, query: Any) -> int:
    with db.read() as conn:
        return int(conn.execute(query).scalar_one())


def collect(reports: Any, names: set[str], what: str,
            deadline: float) -> dict[str, dict[str, Any]]:
    """Each of ``names``' figures once it says ``what`` on the ``reports`` queue of (who,
    what, figures); a BenchError at ``deadline`` or when one says "error"."""
    waiting, found = set(names), {}
    while waiting:
        try:
            name, said, figures = reports.get(timeout=max(0.0, deadline - clock()))
        except queue.Empty:
            raise BenchError(f"no {what!r} from {', '.join(sorted(waiting))}") from None
        if said == "error":
            raise BenchError(f"{name}: {figures['error']}")
        if said == what:
            waiting.discard(name)
            found[name] = figures
    return found


def stored_counts(db: Database, event: str, events: int) -> tuple[int, int, int]:
    """What the database holds of ``event``, whatever the consumer counted: distinct (table,
    seq), rows sharing one, and the tables stored 1..``events`` without a gap."""
    keys = select(s.events.c.table_no, s.events.c.seq).where(s.events.c.event == event)
    return (scalar(db, select(func.count()).select_from(keys.distinct().subquery())),
            scalar(db, select(func.count()).select_from(
                keys.group_by(s.events.c.table_no, s.events.c.seq).having(
                    func.count() > 1).subquery())),
            scalar(db, select(func.count()).select_from(s.table_status).where(
                s.table_status.c.event == event, s.table_status.c.contiguous_seq == events)))


# -- one run -----------------------------------------------------------------------------------

@dataclass
class Run:
    """What one run measured; instants are ``clock()``, rates events a second."""

    kind: str                 # "bare", "bus" or "together" (RUNS)
    tables: int
    events: int               # per table
    published: int = 0        # acknowledged to the publishers by the broker
    refused: int = 0
    handed_s: float = 0.0     # first to last publish() call
    publish_s: float = 0.0    # first publish() to the last PUBACK
    bare_received: int | None = None
    bare_s: float | None = None
    stored: int | None = None          # the Bus's count
    stored_distinct: int | None = None  # distinct (table, seq) in the database
    duplicate_rows: int | None = None
    redelivered: int | None = None     # messages ingest met as already stored
    rejected: int | None = None
    resends: int | None = None         # resend commands ingest asked for (gaps seen)
    complete_tables: int | None = None  # tables whose contiguous mark reached E
    batches: int | None = None
    ingest_s: float | None = None
    in_transactions_s: float | None = None  # of ingest_s, inside Ingest.many
    # CPU seconds of the receiving process over its stream (every thread): the bare
    # subscriber's process, or this one while the Bus stores (its main thread only waits)
    bare_cpu_s: float | None = None
    bus_cpu_s: float | None = None
    timed_out: bool = False

    @property
    def expected(self) -> int:
        return self.tables * self.events

    @property
    def bare_rate(self) -> float | None:
        return None if not self.bare_s else (self.bare_received or 0) / self.bare_s

    @property
    def ingest_rate(self) -> float | None:
        return None if not self.ingest_s else (self.stored_distinct or 0) / self.ingest_s

    @property
    def lost(self) -> int | None:
        return None if self.stored_distinct is None else self.published - self.stored_distinct

    @property
    def mean_batch(self) -> float | None:
        return None if not self.batches else (self.stored or 0) / self.batches

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "expected": self.expected, "bare_rate": self.bare_rate,
                "ingest_rate": self.ingest_rate, "lost": self.lost,
                "mean_batch": self.mean_batch}


class Bench:
    """The broker, the users and the database every run of one invocation shares."""

    def __init__(self, broker: Broker, users: BrokerUsers, tables: int, publishers: int,
                 deadline: float) -> None:
        self.broker = broker
        self.users = users
        self.tables = tables
        self.publishers = publishers
        self.deadline = deadline
        self.mp = multiprocessing.get_context("spawn")  # no fork of a process with threads

    def run(self, kind: str, name: str, payloads: dict[int, list[bytes]],
            db: Database | None) -> Run | None:
        """Publish ``payloads`` once to the bare subscriber (unless ``kind`` is "bus") and to
        a Bus on ``db`` (if given), each subscribed before the first publish; None if the time
        limit comes before the first publish."""
        if clock() > self.deadline - 1.0:
            return None  # too late to start
        events = len(payloads[1])
        run = Run(kind, self.tables, events)
        bare = kind != "bus"
        place = Place(self.broker.host, self.broker.port, self.users.event, self.mp.Event(),
                      self.mp.Queue(), self.deadline)
        numbers = sorted(payloads)
        groups = [numbers[i::self.publishers] for i in range(self.publishers)]
        processes = {f"publisher-{i + 1}": self.mp.Process(
            target=publisher, name=f"bench-publisher-{i + 1}",
            args=(place, f"publisher-{i + 1}", {n: self.users.table(n) for n in group},
                  {n: payloads[n] for n in group}))
            for i, group in enumerate(groups) if group}
        if bare:
            processes["bare"] = self.mp.Process(target=bare_subscriber, name="bench-bare", args=(
                place, self.users.server, self.tables * events))
        bus = ingest = hub = None
        if db is not None:
            hub, ingest = Hub(), CountedIngest(db, self.users.event)
            bus = Bus(ingest, hub, BrokerSettings(
                self.broker.host, self.broker.port, self.users.server.username,
                self.users.server.password), client_id=f"bench-bus-{name}")
        reports: dict[str, dict[str, Any]] = {}
        finished = False
        try:
            if bus is not None:
                bus.start()
            for process in processes.values():
                process.start()
            try:
                reports |= collect(place.reports, set(processes), "ready",
                                   min(self.deadline, clock() + 3 * TIMEOUT))
                if bus is not None and hub is not None and db is not None:
                    # The tables' retained "online" reaches the Bus once it is subscribed.
                    online = select(func.count()).select_from(s.table_status).where(
                        s.table_status.c.event == self.users.event, s.table_status.c.online)
                    if not hub_until(hub, lambda: scalar(db, online) >= self.tables,
                                     min(self.deadline, clock() + TIMEOUT)):
                        raise BenchError("the Bus did not see every table online")
                    stored0, batches0 = bus.stored, bus.batches
                    assert ingest is not None
                    ingest.reset()
            except BenchError:
                if clock() < self.deadline:
                    raise
                return None  # the time limit came first: no run
            if clock() > self.deadline - 1.0:
                return None  # too late to start a stream
            cpu = time.process_time()
            place.go.set()
            reports |= collect(place.reports, set(processes), "done", self.deadline + TIMEOUT)
            finished = True
            publishers = [r for name, r in reports.items() if name.startswith("publisher")]
            first = min(r["first"] for r in publishers)
            run.published = sum(r["published"] for r in publishers)
            run.refused = sum(r["refused"] for r in publishers)
            run.handed_s = max(r["handed"] for r in publishers) - first
            run.publish_s = max(r["last"] for r in publishers) - first
            run.timed_out = run.published + run.refused < run.expected
            if bare:
                run.bare_received = reports["bare"]["count"]
                run.bare_s = reports["bare"]["last"] - first
                run.bare_cpu_s = reports["bare"]["cpu"]
                run.timed_out |= run.bare_received < run.expected
            if bus is not None and hub is not None:
                total = run.published
                if not hub_until(hub, lambda: bus.stored - stored0 >= total, self.deadline):
                    run.timed_out = True
                run.bus_cpu_s = time.process_time() - cpu
        finally:
            if bus is not None:
                bus.stop()
                self._end_session(f"bench-bus-{name}")
            for process in processes.values():  # ours, each by its own handle
                # Each has said "done" and is closing its clients, unless the run failed.
                process.join(TIMEOUT if finished else 0)
                if process.is_alive():
                    process.terminate()
                    process.join(TIMEOUT)
        if bus is not None and ingest is not None and db is not None:
            # Read once the worker has stopped, so that every figure includes its last batch.
            run.stored, run.batches = bus.stored - stored0, bus.batches - batches0
            run.ingest_s = ingest.last - first if ingest.calls else None
            run.in_transactions_s = ingest.busy
            run.redelivered, run.rejected = ingest.duplicates, ingest.rejects
            run.resends = ingest.commands
            self._verify(db, run)
        return run

    def _end_session(self, client_id: str) -> None:
        """A stopped Bus leaves its session at the broker (clean_start false, a day's expiry),
        whose subscriptions would queue every later run's messages: end it."""
        end_session(self.broker.host, self.broker.port, self.users.server, client_id)

    def _verify(self, db: Database, run: Run) -> None:
        """What the database holds, whatever the Bus counted."""
        run.stored_distinct, run.duplicate_rows, run.complete_tables = stored_counts(
            db, self.users.event, run.events)


def forget(db: Database, event: str) -> None:
    """Delete a run's rows from a database the bench did not make."""
    with db.write() as conn:
        for table in (s.events, s.table_status, s.results, s.director_calls, s.commands):
            conn.execute(delete(table).where(table.c.event == event))


# -- the report --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    baseline: float | None  # the bare runs' events over their seconds, together
    ratio: float | None     # the median of the rounds' ratios (below)
    together: float | None  # the run with both subscribed, against its own bare figure
    clean: bool             # every event published stored, once, within the time limit
    met: bool
    # CPU of the receiving process an event: the bare runs together, the Bus alone, in us
    bare_cpu_us: float | None = None
    bus_cpu_us: float | None = None
    # Each Bus run's rate against the bare runs just before and after it, in order
    rounds: tuple[float, ...] = ()

    @classmethod
    def of(cls, runs: list[Run]) -> Verdict:
        def bare_runs(among: list[Run]) -> list[Run]:
            return [r for r in among if r.kind == "bare" and r.bare_s]

        def bare_rate(done: list[Run]) -> float:  # their events over their seconds, together
            return sum(r.bare_received or 0 for r in done) / sum(r.bare_s or 0 for r in done)

        bare = bare_runs(runs)
        baseline = bare_rate(bare) if bare else None
        # Each Bus run against its neighbours, the bare runs just before and after it: the
        # machine's pace drifts over a bench of several rounds, and a neighbour ran in the
        # same stretch of it. The verdict is the median of the rounds.
        rounds: list[float] = []
        for i, run in enumerate(runs):
            near = bare_runs(runs[max(0, i - 1):i + 2])
            if run.kind == "bus" and run.ingest_rate and near:
                rounds.append(run.ingest_rate / bare_rate(near))
        ratio = statistics.median(rounds) if rounds else None
        buses = [r for r in runs if r.kind == "bus" and r.bus_cpu_s is not None
                 and r.stored_distinct]
        both = next((r for r in runs if r.kind == "together"), None)
        together = (both.ingest_rate / both.bare_rate if both is not None and both.ingest_rate
                    and both.bare_rate else None)
        stores = [r for r in runs if r.kind != "bare"]
        clean = bool(stores) and all(r.lost == 0 and r.duplicate_rows == 0 and not r.timed_out
                                     for r in stores)
        cpu = [r for r in bare if r.bare_cpu_s is not None]
        bare_cpu = (1e6 * sum(r.bare_cpu_s or 0.0 for r in cpu)
                    / sum(r.bare_received or 0 for r in cpu) if cpu else None)
        bus_cpu = (1e6 * sum(r.bus_cpu_s or 0.0 for r in buses)
                   / sum(r.stored_distinct or 0 for r in buses) if buses else None)
        return cls(baseline, ratio, together, clean, clean and ratio is not None and ratio >= AIM,
                   bare_cpu, bus_cpu, tuple(rounds))

    def why_not(self, runs: list[Run]) -> str:
        if not any(r.kind != "bare" for r in runs):
            return " (no run of the Bus)"
        if not self.clean:
            return " (events lost, doubled or not stored in time)"
        return ""


def report(runs: list[Run], header: dict[str, Any]) -> None:
    mix_text = ", ".join(f"{k} {v}" for k, v in header["mix"].items())
    print(f"ingest bench: {header['tables']} tables x {header['events']} events = "
          f"{header['tables'] * header['events']} events; time limit {header['seconds']:g} s")
    print(f"  real boards of {header['records']}: {mix_text}")
    print(f"  machine: {header['cpus']} CPUs, load {header['load']}; Python "
          f"{header['python']}; {header['broker']}")
    print(f"  publishers: {header['publishers']} processes, one paho client a table, up to "
          f"{MAX_INFLIGHT} in flight each; the Bus in the bench's process, the bare "
          "subscriber in its own")
    print(f"  database: {header['database']}")

    print("\nevents a second from the first publish, one run after the other, identical streams")
    print(f"  {'run':38s} {'PUBACKed':>9s} {'in s':>7s} {'ev/s':>7s}   {'counted':>9s} "
          f"{'in s':>7s} {'ev/s':>7s}")
    for number, run in enumerate(runs, 1):
        pace = run.published / run.publish_s if run.publish_s else 0.0
        rows = []
        if run.bare_received is not None and run.bare_s is not None:
            rows.append(("bare subscriber", run.bare_received, run.bare_s, run.bare_rate or 0.0))
        if run.stored_distinct is not None:
            rows.append(("Bus + Ingest", run.stored_distinct, run.ingest_s or 0.0,
                         run.ingest_rate or 0.0))
        for i, (what, got, seconds, rate) in enumerate(rows):
            name = (f"{number}." if i == 0 else " " * len(f"{number}.")) + f" {what}"
            name += ", both at once" if run.kind == "together" else " alone"
            published = f"{run.published:9d} {run.publish_s:7.2f} {pace:7.0f}" if i == 0 else ""
            print(f"  {name:38s} {published:25s}   {got:9d} {seconds:7.2f} {rate:7.0f}")
        if run.timed_out:
            print("     stopped at the time limit: the figures are what it had by then")

    verdict = Verdict.of(runs)
    bare = [f"{r.bare_rate:.0f}" for r in runs if r.kind == "bare" and r.bare_rate]
    if verdict.baseline is not None:
        print(f"\nbaseline, the bare runs together: {verdict.baseline:.0f} ev/s "
              f"({' / '.join(bare)})")
    for run in runs:
        if run.stored_distinct is None:
            continue
        # Cut off by the time limit, what is not stored is still queued at the broker.
        missing = (f"not stored by the time limit {run.lost}" if run.timed_out
                   else f"lost {run.lost}")
        print(f"{RUNS[run.kind]}: {missing}, duplicate rows {run.duplicate_rows}; "
              f"redeliveries met {run.redelivered}, rejected {run.rejected}, resends asked "
              f"{run.resends}; {run.complete_tables} of {run.tables} tables stored 1..{run.events}")
        if run.ingest_s and run.in_transactions_s is not None:
            print(f"  {run.batches} batches of {run.mean_batch or 0:.1f} events on average; "
                  f"{run.in_transactions_s:.2f} s of its {run.ingest_s:.2f} s inside "
                  f"Ingest.many ({run.in_transactions_s / run.ingest_s:.0%})")
    if verdict.bare_cpu_us is not None and verdict.bus_cpu_us is not None:
        print(f"CPU of the receiving process an event (every thread; less disturbed by a busy "
              f"machine than the rates): bare {verdict.bare_cpu_us:.0f} us, Bus + Ingest "
              f"{verdict.bus_cpu_us:.0f} us, ratio {verdict.bare_cpu_us / verdict.bus_cpu_us:.2f}")
    if len(verdict.rounds) > 1:
        print("each Bus run against the bare runs before and after it: "
              + ", ".join(f"{r:.2f}" for r in verdict.rounds))
    if verdict.ratio is not None:
        print(f"\nratio ingest / bare = {verdict.ratio:.2f}"
              + (" (the median of the rounds)" if len(verdict.rounds) > 1 else "")
              + (f"  (both at once: {verdict.together:.2f})" if verdict.together else ""))
    print(f"aim: ingest >= {AIM} x bare with nothing lost: {'MET' if verdict.met else 'NOT MET'}"
          + verdict.why_not(runs))
    if len(runs) < header["planned"]:
        print(f"the time limit left no time for run {len(runs) + 1} of {header['planned']}")


RUNS = {"bare": "the bare subscriber alone", "bus": "Bus + Ingest alone",
        "together": "Bus + Ingest, both at once"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50, help="default %(default)s")
    parser.add_argument("--events", type=int, default=200,
                        help="events per table (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="hard time limit of the whole run (default %(default)s)")
    parser.add_argument("--db", default=None,
                        help="a database URL (postgresql://...) or SQLite path instead of a "
                        "fresh SQLite file; the run's rows are deleted afterwards")
    parser.add_argument("--publishers", type=int, default=2,
                        help="publisher processes, the tables shared among them "
                        "(default %(default)s)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="Bus runs, each between two bare runs (bare, Bus, bare, Bus, ...); "
                        "the verdict is the median of their ratios (default %(default)s)")
    parser.add_argument("--together", action="store_true",
                        help="also a run with both subscribed to one stream (give it time)")
    parser.add_argument("--records", type=Path, default=RECORDS,
                        help="the PBN file of recorded boards")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    started = clock()
    deadline = started + args.seconds
    if args.tables < 1 or args.events < 1 or args.publishers < 1 or args.rounds < 1:
        parser.error("--tables, --events, --publishers and --rounds must be at least 1")
    binary = find_mosquitto()
    if binary is None:
        print("no mosquitto binary (PATH, /usr/sbin): apt-get install mosquitto",
              file=sys.stderr)
        return 2
    if not args.records.exists():
        print(f"no such file: {args.records}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING)
    good, _ = playable(load_path(args.records))
    payloads = stream(good, args.tables, args.events)
    # A database the bench did not make may hold other events: this run gets a name of its own.
    event = EVENT if args.db is None else f"{EVENT}-{secrets.token_hex(4)}"
    users = BrokerUsers.generate(event, range(1, args.tables + 1), display=False)
    publishers = min(args.publishers, args.tables)
    plan = ["bare"] + ["bus", "bare"] * args.rounds + (["together"] if args.together else [])
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="bidbox-bench-") as tmp:
        directory = Path(tmp)
        databases: list[Database] = []
        try:
            with Broker(BrokerConfig(directory / "broker", users), binary=binary) as broker:
                bench = Bench(broker, users, args.tables, publishers, deadline)
                for number, kind in enumerate(plan, 1):
                    db = None
                    if kind != "bare":
                        db = Database(args.db or str(directory / f"server-{number}.db"))
                        databases.append(db)
                        db.upgrade()
                        if args.db is not None:
                            forget(db, event)  # an earlier run's rows
                    run = bench.run(kind, str(number), payloads, db)
                    if run is None:
                        break  # the time limit came before its stream
                    runs.append(run)
        except BenchError as error:
            print(f"bench failed: {error}", file=sys.stderr)
            return 1
        finally:
            for db in databases:
                if args.db is not None:
                    forget(db, event)
                db.dispose()
        header = {
            "tables": args.tables, "events": args.events, "seconds": args.seconds,
            "publishers": publishers, "cpus": os.cpu_count(),
            "load": ", ".join(f"{x:.2f}" for x in os.getloadavg()),
            "python": platform.python_version(),
            "broker": f"{mosquitto_version(binary)} on {broker.host}:{broker.port}",
            "database": (make_url(databases[0].url).render_as_string(hide_password=True)
                         if args.db and databases else
                         f"a fresh SQLite file in {directory} ({filesystem(directory)})"),
            "records": args.records.name, "mix": mix(payloads),
            "planned": len(plan), "elapsed": clock() - started,
        }
    verdict = Verdict.of(runs)
    if args.json:
        print(json.dumps({**header, "aim": AIM, **asdict(verdict),
                          "runs": [run.as_json() for run in runs]}, indent=2))
    else:
        report(runs, header)
    # The aim is a target, reported as MET or NOT; a lost or doubled event is a failure. A
    # run cut off by the time limit says so, and what it had.
    return 0 if all(r.timed_out or not (r.lost or r.duplicate_rows) for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
