"""One table daemon against a real Mosquitto: how long from a finger on a key (or a card on
the reader) until the event reaches the server, and how many events a second the table keeps
up; with the bare cost of a journal commit and of a publish, measured in the same run, as the
baseline.

    python3 -m bench.table [--boards N] [--seconds S] [--dir DIR]

Recorded players (sim.recorded) play real boards at a simulated table (sim.simtable)
whose uplink talks to a private Mosquitto on a loopback port (bidbox.broker). A subscriber,
logged in as the server, notes when each event arrives. The journal lives in a temporary
directory (``--dir`` to put it on another disk) that is removed afterwards.

1. Latency. The keypads are scanned by their own thread with the settings of
   hardware/keypad.toml (period, debounce, settle), as on a Pi, so the figure includes the
   debounce. The clock starts immediately before the simulated contact closes on the key that
   completes an action (the OK of a call, say), or before a card's line is written to the
   reader's serial loop; it stops when the subscriber's ``on_message`` sees the event with
   that sequence number. The time is split where the input is queued for the table (the
   driver's stamp on the event), and where the event is durable, applied and handed to paho
   (``TableDaemon.listeners``). Each timed input comes to an idle table (the previous event
   acknowledged, as it is when people take seconds per action) at a random moment of the scan
   cycle.
2. Throughput. The inputs of the latency run are fed again to fresh tables: all at once onto
   the inbox (no scanning, no debounce), and through ``SimulatedTable.press``/``scan``, one
   input at a time. Both must journal the same events as the latency run.
3. Baseline: bench.bare, half before the table's runs and half after.

The issue's target is a key press on the wire, at p99, in under 10 ms; the report says
whether it is met. Nothing leaves the loopback interface.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import os
import platform
import queue
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.bare import (
    BenchError,
    MqttFigures,
    Spread,
    SqliteFigures,
    Subscriber,
    mqtt_publishes,
    sqlite_commits,
)
from bench.replay import DEFAULT as RECORDS
from bidbox.broker import Broker, BrokerConfig, BrokerUsers, find_mosquitto
from hardware.cardreader import CardReader
from hardware.events import CardEvent, KeyEvent
from hardware.layout import KeypadLayout
from hardware.protocol import CardRead, encode
from hardware.sim import SimulatedKeypads
from laws import Card, Seat
from laws.formats import load_path
from mqttlink import BrokerSettings
from sim.recorded import BoardScript, Playable, RecordedPlayers, playable
from sim.simtable import SimulatedTable
from sim.simulation import rounds_of
from tablemodel.state import TableState
from tablemodel.wire import Command, Event, table_topic

EVENT = "bench"
TABLE = 1
TARGET_P99 = 0.010  # the target: key press to event on the wire, p99 under 10 ms
TIMEOUT = 10.0
BOARDS_PER_ROUND = 10  # the file has ten distinct boards; a round may not repeat one
PLAYERS = {seat: 10 + i for i, seat in enumerate(Seat)}

Input = KeyEvent | CardEvent | Command


class Journaled:
    """A daemon listener: the instant each event was durable, applied and handed to paho."""

    def __init__(self) -> None:
        self.at: dict[int, float] = {}

    def __call__(self, event: Event) -> None:
        self.at.setdefault(event.seq, time.perf_counter())


class Inputs:
    """The sink of the bench's own keypads and reader: forwards each input to the table's
    inbox and keeps it, in order, so that fresh tables can be fed the same inputs later."""

    def __init__(self, inbox: Any) -> None:
        self.inbox = inbox
        self.items: list[Input] = []

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        if isinstance(item, Input):  # not ReaderStatus: the table's own reader says that
            self.items.append(item)
            self.inbox.put(item)


@dataclass(frozen=True)
class Sample:
    """One timed input, as ``perf_counter`` instants."""

    kind: str          # "key" or "card"
    pressed: float     # the contact closes / the reader's line is written
    queued: float      # the driver puts the KeyEvent or CardEvent on the table's queue
    journaled: float   # the event is committed, applied and handed to paho
    wire: float        # the subscriber's on_message has it


class FingerTable:
    """What ``RecordedPlayers`` uses of a table (``state``, ``press``, ``scan``), with the
    keypads scanned by their own thread and every action timed from the finger to the wire.

    The bench's keypads and reader replace the simulated table's (whose reader stays idle), so
    that their events pass through ``inputs`` and are stamped with ``perf_counter``.
    """

    def __init__(self, table: SimulatedTable, subscriber: Subscriber) -> None:
        self.table = table
        self.daemon = table.daemon
        self.subscriber = subscriber
        self.inputs = Inputs(table.daemon.inbox)
        self.journaled = Journaled()
        self.daemon.listeners.append(self.journaled)
        self.layout = KeypadLayout.load()
        table.keypads.close()
        table.keypads = SimulatedKeypads(self.inputs, self.layout, clock=time.perf_counter,
                                         settle=self.layout.scan.settle)
        self.reader = CardReader("loop://", self.inputs, ask_version=False,
                                 clock=time.perf_counter)
        self.samples: list[Sample] = []
        self.random = random.Random(1)

    def start(self) -> FingerTable:
        self.reader.start()
        deadline = time.monotonic() + TIMEOUT
        while not self.reader.connected:
            if time.monotonic() > deadline:
                raise BenchError("the bench's card reader did not open loop://")
            time.sleep(0.001)
        self.table.keypads.start()
        return self

    def close(self) -> None:
        self.reader.close()
        self.table.keypads.close()

    def scan_cycles(self) -> list[float]:
        """Seconds from the start of each scan to the next, as the scan thread really ran:
        the first row pin goes low once a scan, and the mock pin keeps its history."""
        pin = self.table.keypads.factory.pin(self.layout.rows[0])
        now, lows = 0.0, []
        for change in pin.states:  # each stamped with the time since the previous change
            now += change.timestamp
            if not change.state:
                lows.append(now)
        return [b - a for a, b in itertools.pairwise(lows)]

    @property
    def state(self) -> TableState:
        return self.table.state

    def press(self, seat: Seat, *keys: str) -> None:
        """Each key down until the table has it, then up until the table has that; the last
        key of the action is timed."""
        for i, key in enumerate(keys):
            timed = i == len(keys) - 1
            if timed:
                self._wait_idle()
                # A finger comes at any moment of the scan cycle, not just after the scan
                # that saw the previous key go up.
                time.sleep(self.random.uniform(0, 2 * self.layout.scan.period))
            mark, seq, taken = self._marks()
            pressed = time.perf_counter()
            self.table.keypads.press(seat, key)
            self._wait_inputs(taken + 1, f"{seat} {key} down")
            if timed:
                self._sample("key", pressed, mark, seq)
            self.table.keypads.release(seat, key)
            self._wait_inputs(taken + 2, f"{seat} {key} up")

    def scan(self, card: Card, seat: Seat | None = None) -> None:
        line = encode(CardRead(card, seat))
        self._wait_idle()
        mark, seq, taken = self._marks()
        pressed = time.perf_counter()
        self.reader.write(line)
        self._wait_inputs(taken + 1, f"card {card}")
        self._sample("card", pressed, mark, seq)

    def _marks(self) -> tuple[int, int, int]:
        """Where things stand before an input: inputs seen, last event, inputs taken."""
        return len(self.inputs.items), self.table.journal.last_seq, self.daemon.inputs

    def _wait_idle(self) -> None:
        """Players take seconds between actions: by then the previous event's PUBACK has been
        committed, and a timed input never queues behind it."""
        if not self.daemon.wait_for(lambda _: not self.daemon.inflight, TIMEOUT):
            raise BenchError("the broker did not acknowledge the previous event")

    def _wait_inputs(self, target: int, what: str) -> None:
        if not self.daemon.wait_for(lambda _: self.daemon.inputs >= target, TIMEOUT):
            raise BenchError(f"{what}: not taken by the table in {TIMEOUT} s")

    def _sample(self, kind: str, pressed: float, mark: int, seq: int) -> None:
        """The input's event is the first after ``seq`` (follow-ups, such as a result after
        the last card, are not timed)."""
        queued = next(item.t for item in self.inputs.items[mark:]
                      if isinstance(item, KeyEvent | CardEvent))
        if seq + 1 not in self.journaled.at:
            raise BenchError(f"event {seq + 1}: the {kind} made no event (refused?)")
        wire = self.subscriber.wait(seq + 1)
        self.samples.append(Sample(kind, pressed, queued, self.journaled.at[seq + 1], wire))


def rounds_for(good: list[Playable], boards: int) -> list[list[Playable]]:
    """``boards`` boards in rounds of the file's distinct boards, each round playing the next
    record (another table's auction and play) of each board."""
    by_board: dict[int | None, list[Playable]] = {}
    for item in good:
        by_board.setdefault(item.record.board, []).append(item)
    deepest = max(len(records) for records in by_board.values())
    order = [records[i] for i in range(deepest) for records in by_board.values()
             if i < len(records)]
    return rounds_of(order[:boards], BOARDS_PER_ROUND)


def scan_cost(layout: KeypadLayout, scans: int = 200) -> Spread:
    """How long one scan of the four simulated pads takes here (settle included): the
    scanner's own time, which adds to its period."""
    with SimulatedKeypads(queue.Queue(), layout, settle=layout.scan.settle) as keypads:
        took = []
        for _ in range(scans):
            start = time.perf_counter()
            keypads.scan_once()
            took.append(time.perf_counter() - start)
    return Spread.of(took)


def assignment(number: int, boards: list[Playable]) -> Command:
    return Command(f"round-{number}", "assign", {
        "round": number, "ns": 1, "ew": 2, "boards": [p.record.board for p in boards]})


def play(players: RecordedPlayers, table: Any, rounds: list[list[Playable]],
         send: Callable[[Command], None]) -> None:
    """Each round as the server and the players would: the assignment, the players' numbers,
    the boards in order."""
    for number, boards in enumerate(rounds, 1):
        send(assignment(number, boards))
        if not table.daemon.wait_for(lambda s, n=number: s.assignment is not None
                                     and s.assignment.round == n, TIMEOUT):
            raise BenchError(f"round {number} was not assigned")
        players.enter_players(PLAYERS)
        for item in boards:
            players.play_board(BoardScript.of(item.record))


@dataclass(frozen=True)
class Rate:
    """Events a second from the first input: journaled, at the subscriber, acknowledged."""

    events: int
    journaled: float
    wire: float
    acked: float


@dataclass(frozen=True)
class LatencyRun:
    samples: list[Sample]
    cycles: Spread       # the scan thread's real period: its wait plus the scan itself
    inputs: list[Input]  # every input the table took, in order
    events: list[Event]  # what the table journaled


class Bench:
    """The broker, the subscriber and the temporary directory that every run shares."""

    def __init__(self, directory: Path, broker: Broker, users: BrokerUsers,
                 subscriber: Subscriber) -> None:
        self.directory = directory
        self.broker = broker
        self.users = users
        self.subscriber = subscriber
        self.runs = 0

    @contextmanager
    def table(self) -> Iterator[SimulatedTable]:
        """A fresh table (new journal) connected to the broker; the subscriber forgets the
        previous table's events, whose sequence numbers the new one starts again."""
        self.runs += 1
        creds = self.users.table(TABLE)
        settings = BrokerSettings(self.broker.host, self.broker.port, creds.username,
                                  creds.password)
        self.subscriber.reset()
        table = SimulatedTable(self.directory / f"journal-{self.runs}.db", event=EVENT,
                               number=TABLE, broker=settings, timeout=TIMEOUT)
        with table:
            if not table.daemon.wait_for(lambda _: table.daemon.connected, TIMEOUT):
                raise BenchError("the table did not connect to the broker")
            yield table

    def rate(self, table: SimulatedTable, journaled: Journaled, start: float) -> Rate:
        """Once every event of ``table`` is at the subscriber and acknowledged."""
        last = table.journal.last_seq
        wire = self.subscriber.wait_all(last, timeout=60)
        if not table.daemon.wait_for(lambda _: not table.daemon.inflight, 60):
            raise BenchError("the broker did not acknowledge every event")
        acked = time.perf_counter()
        return Rate(last, last / (journaled.at[last] - start), last / (wire - start),
                    last / (acked - start))

    def latency(self, rounds: list[list[Playable]]) -> LatencyRun:
        with self.table() as table:
            finger = FingerTable(table, self.subscriber).start()
            try:
                players = RecordedPlayers(finger)  # type: ignore[arg-type]
                play(players, table, rounds, finger.inputs.put)
                cycles = Spread.of(finger.scan_cycles())  # before close() frees the pins
            finally:
                finger.close()
            return LatencyRun(finger.samples, cycles, finger.inputs.items,
                              list(table.journal.events()))

    def pipelined(self, inputs: list[Input], expected: list[Event]) -> Rate:
        with self.table() as table:
            journaled = Journaled()
            table.daemon.listeners.append(journaled)
            start = time.perf_counter()
            for item in inputs:
                table.daemon.inbox.put(item)
            if not table.daemon.wait_for(lambda _: table.journal.last_seq >= len(expected),
                                         60):
                raise BenchError(f"the table journaled {table.journal.last_seq} of "
                                 f"{len(expected)} events")
            check_same(expected, list(table.journal.events()))
            return self.rate(table, journaled, start)

    def pressed(self, rounds: list[list[Playable]], expected: list[Event]) -> Rate:
        with self.table() as table:
            journaled = Journaled()
            table.daemon.listeners.append(journaled)
            start = time.perf_counter()
            play(RecordedPlayers(table), table, rounds, table.daemon.inbox.put)
            check_same(expected, list(table.journal.events()))
            return self.rate(table, journaled, start)


def check_same(expected: list[Event], got: list[Event]) -> None:
    """The same inputs must make the same events, else the runs do not compare."""
    def essence(events: list[Event]) -> list[tuple[str, int | None, dict[str, Any]]]:
        return [(e.type, e.board, dict(e.data)) for e in events]
    if essence(expected) != essence(got):
        raise BenchError(f"a fresh table made other events from the same inputs "
                         f"({len(got)} against {len(expected)})")


# -- the report --------------------------------------------------------------------------------

def filesystem(path: Path) -> str:
    """The type and device of the mount that holds ``path`` (Linux; "?" elsewhere)."""
    best = (Path("/"), "?", "?")
    try:
        with open("/proc/mounts") as mounts:
            for line in mounts:
                device, point, kind = line.split()[:3]
                if (path.resolve().is_relative_to(point)
                        and len(point) >= len(str(best[0]))):
                    best = (Path(point), kind, device)
    except OSError:
        pass
    return f"{best[1]} on {best[2]}"


def mosquitto_version(binary: Path) -> str:
    """``mosquitto -h`` says its version on its first line (and exits with status 3)."""
    run = subprocess.run([str(binary), "-h"], capture_output=True, text=True, timeout=5)
    lines = (run.stdout + run.stderr).splitlines()
    return lines[0] if lines else str(binary)


def times(samples: list[Sample], kind: str) -> dict[str, Spread]:
    mine = [s for s in samples if s.kind == kind]
    return {
        "total": Spread.of([s.wire - s.pressed for s in mine]),
        "driver": Spread.of([s.queued - s.pressed for s in mine]),
        "table": Spread.of([s.journaled - s.queued for s in mine]),
        "broker": Spread.of([s.wire - s.journaled for s in mine]),
        "after": Spread.of([s.wire - s.queued for s in mine]),
    }


@dataclass(frozen=True)
class Figures:
    """Everything one run measured, and where."""

    boards: int
    rounds: int
    inputs: int
    directory: str
    broker: str
    scan: Spread    # one scan_once, alone
    cycles: Spread  # the scan thread's period as it ran
    db: list[SqliteFigures]  # before and after the table's runs
    mq: list[MqttFigures]
    samples: list[Sample]
    pipelined: Rate
    pressed: Rate


def report(f: Figures, records: Path) -> None:
    scan = KeypadLayout.load().scan
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"table bench: {f.boards} boards of {records.name} in {f.rounds} round(s), "
          f"{f.inputs} inputs, one table")
    print(f"  machine: {os.cpu_count()} CPUs, load {load}; Python {platform.python_version()}; "
          f"{f.broker}")
    print(f"  journals and bare SQLite in {f.directory}; the table, the subscriber and the "
          "bare clients share this process")

    db, mq = sum(f.db[1:], f.db[0]), sum(f.mq[1:], f.mq[0])
    print("\nbaseline, same run: half before the table's runs, half after; ratios use both")
    print(f"  SQLite insert+commit, WAL, synchronous=FULL {db.rate:7.0f} commits/s "
          f"({' / '.join(f'{x.rate:.0f}' for x in f.db)})")
    print(f"    one insert+commit  {db.commit.ms()}")
    print(f"  paho QoS 1 publish -> subscriber            {mq.rate:7.0f} msgs/s    "
          f"({' / '.join(f'{x.rate:.0f}' for x in f.mq)}; {mq.sent} msgs back to back, "
          "up to 100 in flight)")
    print(f"    one at a time      {mq.deliver.ms()}")

    keys, cards = times(f.samples, "key"), times(f.samples, "card")
    print(f"\n1. input -> event at the subscriber; the keypads' own scan thread as on a Pi: "
          f"every {scan.period * 1e3:g} ms, debounce {scan.debounce}, settle "
          f"{scan.settle * 1e6:g} us")
    for name, parts, driver in (("key press", keys, "scan + debounce"),
                                ("card on reader", cards, "serial loop, reader thread")):
        print(f"  {name:14s} -> wire     {parts['total'].ms()}")
        print(f"    -> queued            {parts['driver'].ms()}  ({driver})")
        print(f"    queued -> journaled  {parts['table'].ms()}  (table thread: laws, "
              "FULL commit, publish call)")
        print(f"    journaled -> wire    {parts['broker'].ms()}  (paho, mosquitto, subscriber)")
        print(f"    queued -> wire       {parts['after'].ms()}")
    cycle = f.cycles.p50
    print(f"  one scan of the four simulated pads takes {f.scan.p50 * 1e3:.2f} ms alone; the "
          f"scan thread's period ran at p50 {cycle * 1e3:.2f}, p99 {f.cycles.p99 * 1e3:.2f} ms")
    low, high = (scan.debounce - 1) * cycle, scan.debounce * cycle
    print(f"    so {scan.debounce} agreeing scans recognise a press {low * 1e3:.1f}-"
          f"{high * 1e3:.1f} ms after the contact closes (the part before the table)")
    bare = db.commit.p50 + mq.deliver.p50
    print(f"  key -> wire p50 = {keys['total'].p50 / mq.deliver.p50:.0f} x bare "
          f"publish->deliver p50; p99 = {keys['total'].p99 / mq.deliver.p99:.0f} x its p99")
    print(f"  queued -> wire p50 = {keys['after'].p50 / bare:.1f} x (keys), "
          f"{cards['after'].p50 / bare:.1f} x (cards) bare commit p50 + bare publish p50 "
          f"({bare * 1e3:.2f} ms)")
    met = keys["total"].p99 < TARGET_P99
    print(f"  target, key press -> wire p99 < {TARGET_P99 * 1e3:g} ms: "
          f"{'MET' if met else 'NOT MET'} ({keys['total'].p99 * 1e3:.1f} ms, of which "
          f"p99 {keys['driver'].p99 * 1e3:.1f} ms before the table has the key)")

    print("\n2. events per second from the first input: journaled / at the subscriber / "
          "acknowledged (outbox empty)")
    for name, rate in (("inbox, all inputs at once", f.pipelined),
                       ("SimulatedTable.press/scan, in turn", f.pressed)):
        print(f"  {name:36s} {rate.journaled:6.0f} / {rate.wire:6.0f} / {rate.acked:6.0f}"
              f"  ({rate.events} events)")
    print(f"  sustained (acknowledged) = {f.pipelined.acked / db.rate:.2f} x bare SQLite FULL "
          f"commits/s; journaled alone = {f.pipelined.journaled / db.rate:.2f} x")
    print("    (each event is two commits: its append, and its outbox row's delete at the "
          "PUBACK, which queue behind the inputs here)")
    print(f"  at the subscriber = {f.pipelined.wire / mq.rate:.2f} x bare paho msgs/s "
          "(the table also publishes a retained state after each input)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=BOARDS_PER_ROUND,
                        help="boards the recorded players play (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="length of each bare baseline (default %(default)s)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the journals go (default: the system's temporary "
                        "directory); removed afterwards")
    parser.add_argument("--records", type=Path, default=RECORDS,
                        help="the PBN file of recorded boards")
    args = parser.parse_args(argv)
    binary = find_mosquitto()
    if binary is None:
        print("no mosquitto binary (PATH, /usr/sbin): apt-get install mosquitto",
              file=sys.stderr)
        return 2
    if not args.records.exists():
        print(f"no such file: {args.records}", file=sys.stderr)
        return 2
    if args.boards < 1:
        parser.error("--boards must be at least 1")
    # The daemon logs the card reader's comings and goings as warnings: not news here.
    logging.basicConfig(level=logging.ERROR)
    good, _ = playable(load_path(args.records))
    rounds = rounds_for(good, args.boards)

    with tempfile.TemporaryDirectory(prefix="bidbox-bench-", dir=args.dir) as tmp:
        directory = Path(tmp)
        users = BrokerUsers.generate(EVENT, [TABLE], display=False)
        with Broker(BrokerConfig(directory / "broker", users), binary=binary) as broker:
            subscriber = Subscriber(broker, users.server,
                                    table_topic(EVENT, TABLE, "events")).start()
            try:
                bench = Bench(directory, broker, users, subscriber)
                creds = users.table(TABLE)
                # Half of the baseline before the table's runs and half after, so that a
                # disk or a machine that changes pace shows in the two figures.
                db = [sqlite_commits(directory, args.seconds / 2)]
                mq = [mqtt_publishes(broker, creds, subscriber, args.seconds / 2)]
                run = bench.latency(rounds)
                pipelined = bench.pipelined(run.inputs, run.events)
                pressed = bench.pressed(rounds, run.events)
                db.append(sqlite_commits(directory, args.seconds / 2))
                mq.append(mqtt_publishes(broker, creds, subscriber, args.seconds / 2))
            finally:
                subscriber.close()
        figures = Figures(
            boards=sum(len(r) for r in rounds), rounds=len(rounds), inputs=len(run.inputs),
            directory=f"{directory} ({filesystem(directory)})",
            broker=f"{mosquitto_version(binary)} on {broker.host}:{broker.port}",
            scan=scan_cost(KeypadLayout.load()), cycles=run.cycles, db=db, mq=mq,
            samples=run.samples, pipelined=pipelined, pressed=pressed)
    report(figures, args.records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
