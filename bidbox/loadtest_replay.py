"""``bidbox loadtest --record`` and ``--replay``: the tables' streams recorded once, then
published again by one light process (docs/loadtest.md, "Replay").

A recording is what each simulated table of a full run published, and when: every event of
its journal (its payload as it went on the wire, the instant the table accepted it and the
instant the key was pressed, from the round's start) and every retained state it published.
It is written at the end of a full run, one gzip JSON file.

The replayer (``python -m bidbox.loadtest_roles replayer CONFIG``) holds many tables in one
process, each the table's own MQTT client (``tabled.uplink.Uplink``: its login, client id,
persistent session, will, ``online`` status, subscriptions to its commands and the clock), all
on one network thread (``mqttlink.NetworkLoop``), and publishes each table's recorded events
and states on the same topics at QoS 1 at the instants they were recorded, from the round's
start: the same sequence numbers, the same order, the scan's peak where it was. A table's
events go in order: one is never published before the one before it, and the ``assign`` event
only once the server's ``assign`` command has reached the table, answered with that command's
id and data (what the table daemon records, ``tabled.control.commands``). The event's ``ts``
is the instant it is published (the table stamps it as it accepts it). A ``resend`` command
is answered from the recording, as the table answers from its journal.

More tables than were recorded: table ``n`` replays recorded table ``(n - 1) % R + 1`` (the same
place in its section, since sections share their boards and deals), each copy after the first
shifted by a seeded offset below ``COPY_SPREAD`` so that ten copies do not publish in the same
millisecond, which no room does; the minute of the scan is where it was.
"""

from __future__ import annotations

import contextlib
import gzip
import heapq
import json
import math
import os
import queue
import random
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

clock = time.monotonic
FORMAT = 1
COPY_SPREAD = 2.0
"""Seconds: the most a copy of a recorded table is shifted from the recorded instants."""


class RecordingError(ValueError):
    """A recording that cannot be replayed as asked; the message says why."""


# -- the recording -----------------------------------------------------------------------------

def write_recording(path: Path, *, settings: dict[str, Any],
                    tables: Iterable[dict[str, Any]], go: float) -> int:
    """Write what each table of a full run published (the shards' ``record`` output) with its
    instants from ``go``, the round's start; the number of events written."""
    out = []
    count = 0
    for table in sorted(tables, key=lambda t: t["table"]):
        record = table.get("record")
        if record is None:
            continue
        stamps = {seq: (pressed, accepted) for seq, _kind, _ts, pressed, accepted
                  in table.get("stamps", [])}
        events = []
        for seq, kind, payload in record["events"]:
            pressed, accepted = stamps.get(seq, (math.nan, math.nan))
            if math.isnan(accepted):
                continue  # published before the round (none is, in a load test's run)
            events.append([seq, kind, None if math.isnan(pressed) else round(pressed - go, 6),
                           round(accepted - go, 6), payload])
            count += 1
        states = [[round(at - go, 6), payload] for at, payload in record["states"]]
        out.append({"table": table["table"], "events": events, "states": states})
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump({"bidbox_recording": FORMAT, **settings, "recorded": out}, handle)
    return count


def read_recording(path: Path) -> dict[str, Any]:
    """A recording, checked enough to replay: RecordingError says what is wrong."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            value = json.load(handle)
    except (OSError, EOFError, ValueError) as error:
        raise RecordingError(f"{path}: not a load test's recording ({error})") from None
    if not isinstance(value, dict) or value.get("bidbox_recording") != FORMAT:
        raise RecordingError(f"{path}: not a load test's recording of format {FORMAT}")
    recorded = value.get("recorded")
    if not isinstance(recorded, list) or not recorded:
        raise RecordingError(f"{path}: no table recorded")
    numbers = [t.get("table") for t in recorded]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RecordingError(f"{path}: the tables recorded are not 1 to {len(numbers)}")
    return value


def source_of(table: int, recorded: int, section: int) -> tuple[int, int]:
    """The recorded table replayed as ``table``, and which copy of it this is (0: itself).
    A copy keeps its place in its section: ``recorded`` must be whole sections."""
    if table > recorded and recorded % section:
        raise RecordingError(f"{recorded} tables recorded are not whole sections of "
                             f"{section}: record a multiple of {section} to replay more")
    return (table - 1) % recorded + 1, (table - 1) // recorded


# -- the replayer ------------------------------------------------------------------------------

_TS = re.compile(r'"ts": ?[-0-9.eE+]+')


@dataclass
class _Item:
    at: float            # seconds from the round's start, copy shift included
    seq: int | None      # an event's; None for a state
    kind: str            # the event's type, or "state"
    pressed: float | None
    payload: str


@dataclass
class _Table:
    number: int
    uplink: Any
    items: list[_Item]
    events: dict[int, str] = field(default_factory=dict)  # seq -> payload as published
    next: int = 0  # the index of the next item to publish
    command: Any = None  # the server's assign command, once here
    online: bool = False
    inflight: set[int] = field(default_factory=set)
    stamps: list[tuple[int, str, float, float, float]] = field(default_factory=list)
    late: list[float] = field(default_factory=list)
    resent: int = 0
    boards: int = 0
    # Seconds the table's assignment came after its recorded instant: the players start
    # from the assignment, so everything after it is that much later too.
    shift: float = 0.0
    assign_wait: float | None = None  # how long after its recorded instant it came


class _Inbox(queue.Queue[Any]):
    """Uplink's inbox, tagged with its table, all into one deque (the loop's thread puts and
    takes: no lock needed beyond the deque's own)."""

    def __init__(self, number: int, into: deque[tuple[int, Any]]) -> None:
        super().__init__()
        self.number = number
        self.into = into

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        self.into.append((self.number, item))


def items_of(recorded: dict[str, Any], shift: float) -> list[_Item]:
    """One recorded table's events and states in the order they were published."""
    items = [_Item(accepted + shift, seq, kind,
                   None if pressed is None else pressed + shift, payload)
             for seq, kind, pressed, accepted, payload in recorded["events"]]
    items += [_Item(at + shift, None, "state", None, payload)
              for at, payload in recorded["states"]]
    # Stable: an event and the state it caused keep their order at the same instant.
    items.sort(key=lambda item: item.at)
    return items


class Replayer:
    """Many recorded tables published again from one network thread."""

    def __init__(self, config: dict[str, Any], recording: dict[str, Any]) -> None:
        from mqttlink import BrokerSettings, NetworkLoop
        from tabled.uplink import Uplink

        self.event = config["event"]
        self.inbox: deque[tuple[int, Any]] = deque()
        self.network = NetworkLoop(name="replay-network", turn=self._turn)
        self.tables: dict[int, _Table] = {}
        self.queue: list[tuple[float, int]] = []  # (due, table), a heap
        self.go: float | None = None
        self.halted = False  # the time limit: nothing more is published
        self.done = threading.Event()
        self.connected = threading.Condition()
        recorded = recording["recorded"]
        section = int(recording.get("section_tables") or len(recorded))
        for spec in config["tables"]:
            number = spec["number"]
            source, copy = source_of(number, len(recorded), section)
            shift = random.Random(number).uniform(0, COPY_SPREAD) if copy else 0.0
            uplink = Uplink(self.event, number, BrokerSettings(**spec["broker"]),
                            _Inbox(number, self.inbox), network=self.network)
            table = _Table(number, uplink, items_of(recorded[source - 1], shift))
            table.boards = sum(1 for item in table.items if item.kind == "result")
            self.tables[number] = table

    # -- life cycle (the main thread) ----------------------------------------------------------

    def start(self, connect_s: float) -> list[str]:
        self.network.start()
        for table in self.tables.values():
            table.uplink.start()
        with self.connected:
            self.connected.wait_for(lambda: all(t.online for t in self.tables.values()),
                                    connect_s)
        return [f"table {t.number}: no connection to the broker in {connect_s} s"
                for t in self.tables.values() if not t.online]

    def begin(self, go: float) -> None:
        """The round started at ``go`` (the load test's clock, the same in every process)."""
        def begin() -> None:
            self.go = go
            for number, table in self.tables.items():
                if table.items:
                    heapq.heappush(self.queue, (go + table.items[0].at, number))
            self._check_done()
        self.network.call(begin)

    def stop(self, timeout: float = 10.0) -> None:
        """Every table says ``offline`` and disconnects, as a table stopped cleanly does."""
        from tablemodel.wire import OFFLINE

        gone = threading.Event()

        def leave() -> None:
            for table in self.tables.values():
                client = table.uplink.client
                if client.is_connected():
                    client.publish(table.uplink.topics["status"], OFFLINE, qos=1, retain=True)
                client.disconnect()
            gone.set()
        self.network.call(leave)
        gone.wait(timeout)
        for table in self.tables.values():
            self.network.remove(table.uplink.client, 1.0)
        self.network.close()

    # -- the network thread --------------------------------------------------------------------

    def _turn(self) -> float | None:
        self._read_inbox()
        if self.go is None or self.halted:
            return None
        now = clock()
        while self.queue and self.queue[0][0] <= now:
            _, number = heapq.heappop(self.queue)
            self._publish_due(self.tables[number], now)
        return None if not self.queue else max(0.0, self.queue[0][0] - clock())

    def _publish_due(self, table: _Table, now: float) -> None:
        from tablemodel.wire import Command, Event, EventType

        assert self.go is not None
        while table.next < len(table.items):
            item = table.items[table.next]
            due = self.go + item.at + table.shift
            if due > now:
                heapq.heappush(self.queue, (due, table.number))
                return
            uplink = table.uplink
            if item.seq is None:
                uplink.client.publish(uplink.topics["state"], item.payload, qos=1, retain=True)
                table.next += 1
                continue
            payload = item.payload
            if item.kind == "assign":
                if table.command is None:
                    return  # published when the command comes (_read_inbox)
                table.shift += max(0.0, now - due)  # the table starts when assigned
                table.assign_wait = now - due
                due = now
                command: Command = table.command
                payload = Event(item.seq, EventType.ASSIGN, time.time(), None,
                                {"cmd": command.id, **command.data}).to_payload().decode()
            else:
                payload = _TS.sub(f'"ts":{time.time():.3f}', payload, count=1)
            published = clock()
            info = uplink.client.publish(uplink.topics["events"], payload, qos=1)
            table.inflight.add(info.mid)
            table.events[item.seq] = payload
            pressed = math.nan if item.pressed is None else self.go + item.pressed + table.shift
            table.stamps.append((item.seq, item.kind, 0.0, pressed, published))
            table.late.append(published - due)
            table.next += 1
        self._check_done()

    def _read_inbox(self) -> None:
        from tabled.daemon import Acked, LinkStatus
        from tablemodel.wire import Command

        while self.inbox:
            number, item = self.inbox.popleft()
            table = self.tables[number]
            if isinstance(item, Acked):
                table.inflight.discard(item.mid)
                if not table.inflight:
                    self._check_done()
            elif isinstance(item, LinkStatus):
                with self.connected:
                    table.online = item.connected
                    self.connected.notify_all()
            elif isinstance(item, Command):
                self._command(table, item)

    def _command(self, table: _Table, command: Any) -> None:
        if command.type == "assign" and table.command is None:
            table.command = command
            if self.go is not None:
                heapq.heappush(self.queue, (clock(), table.number))
        elif command.type == "resend":  # from the recording, as the table from its journal
            until = command.data.get("until") or max(table.events, default=0)
            client, topic = table.uplink.client, table.uplink.topics["events"]
            for seq in range(int(command.data["since"]), int(until) + 1):
                if seq in table.events:
                    table.inflight.add(client.publish(topic, table.events[seq], qos=1).mid)
                    table.resent += 1

    def _check_done(self) -> None:
        if all(t.next >= len(t.items) and not t.inflight for t in self.tables.values()):
            self.done.set()

    # -- what it did ---------------------------------------------------------------------------

    def finish(self, timeout: float = 30.0) -> list[dict[str, Any]]:
        """Publish no more (the time limit, if it is not done), and what each table did,
        read on the network thread."""
        out: list[dict[str, Any]] = []
        read = threading.Event()

        def finish() -> None:
            self.halted = True
            out.extend(self._results())
            read.set()
        self.network.call(finish)
        read.wait(timeout)
        return out

    def _results(self) -> list[dict[str, Any]]:
        return [{"table": t.number, "error": None, "boards": t.boards,
                 "published": max(t.events, default=0), "unacknowledged": len(t.inflight),
                 "stamps": t.stamps, "late": t.late, "resent": t.resent,
                 "assign_wait": t.assign_wait,
                 "cut": t.next < len(t.items)} for t in self.tables.values()]


def replayer(config: dict[str, Any], say: Callable[..., None],
             lines: queue.Queue[str], status: Callable[[], dict[str, float]]) -> int:
    """The ``replayer`` role: ready once every table is online, ``go <instant>`` starts the
    round's clock, ``done`` once every table's recording is published and acknowledged (or
    at ``stop``)."""
    try:
        recording = read_recording(Path(config["recording"]))
        player = Replayer(config, recording)
    except RecordingError as error:
        say(error=str(error))
        return 1
    errors = player.start(config["connect_s"])
    top = max(int(fd) for fd in os.listdir("/proc/self/fd"))
    say(ready=not errors, errors=errors[:3], memory=status(), max_fd=top,
        threads=threading.active_count())
    peak: dict[str, float] = {}
    stopped = threading.Event()

    def read() -> None:
        while (line := lines.get()) != "stop":
            if line.startswith("go "):
                player.begin(float(line.split()[1]))
        stopped.set()
        player.done.set()
    threading.Thread(target=read, name="commands", daemon=True).start()
    player.done.wait()
    peak.update(status())
    results = player.finish()
    Path(config["out"]).write_text(json.dumps({
        "tables": results, "memory": peak,
        "cores": sorted(os.sched_getaffinity(0))}))
    say(done={"tables": len(results), "errors": [], "memory": peak,
              "stopped": stopped.is_set()})
    with contextlib.suppress(Exception):
        stopped.wait()  # the load test says stop once the server has stored everything
    player.stop()
    return 0
