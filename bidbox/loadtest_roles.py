"""The processes of ``bidbox loadtest``, each started as
``python -m bidbox.loadtest_roles ROLE CONFIG.json`` by :mod:`bidbox.loadtest`.

- ``server``: the real server (``create_app``, waitress, the MQTT ingest worker), which also
  starts the session's first round when told ``go``; with ``"centre": true`` in its config a
  simultaneous's centre (``bidbox server --centre``: it reads every club's tables below
  ``clubs/<club>/`` and sends them nothing, so ``go`` starts no round);
- ``ingest``: one more ingest worker on the same database, on its own tables or an MQTT v5
  shared subscription;
- ``shard``: a share of the simulated tables (the real daemon on simulated keypads and card
  reader, played by the demo's simulated players), one thread each;
- ``bare``: a bare paho subscriber to the same stream, the baseline.

Each reads commands on stdin (``go``, ``drain``, ``stop``) and writes one JSON object a line on
stdout (``{"ready": ...}``, ``{"done": ...}``); the bulk figures go to a file in the run's folder.

One clock for every process: ``time.monotonic`` is ``CLOCK_MONOTONIC`` on Linux, the same
for all processes of the machine, so an instant stamped here compares with one stamped there.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import queue
import re
import secrets
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

clock = time.monotonic
log = logging.getLogger("bidbox.loadtest")


def say(**what: Any) -> None:
    print(json.dumps(what), flush=True)


def commands() -> queue.Queue[str]:
    """The orchestrator's commands, one a line on stdin; ``stop`` when stdin closes."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            lines.put(line.strip())
        lines.put("stop")
    threading.Thread(target=read, name="commands", daemon=True).start()
    return lines


def status(pid: int | str = "self") -> dict[str, float]:
    """Resident memory now and at its peak (MB), and CPU seconds used, of process ``pid``."""
    figures: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            figures[key] = int(value.split()[0]) / 1024
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = 100.0  # os.sysconf("SC_CLK_TCK") is 100 on Linux
    figures["cpu_s"] = (int(fields[11]) + int(fields[12])) / ticks
    return figures


# -- the server and the ingest workers -------------------------------------------------------

def timed_bus(base: type) -> type:
    """``server.link.bus.Bus`` that also notes, for each event it stored, the instant its
    transaction committed (after ``_store`` returns, as the worker acknowledges), by the
    session's table number: at a centre, the club's table as its section's."""

    class TimedBus(base):  # type: ignore[valid-type, misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.commits: list[tuple[int, int, float]] = []
            self.duplicates = 0
            self.rejected = 0
            self.progress: Callable[[int], None] | None = None
            self._stored_as: list[tuple[str, bytes]] = []

        def _from_clubs(self, pairs: list[tuple[str, bytes]]) -> Any:
            # A centre's batch is stored as its refusals first, then the messages kept under
            # their sections' topics: the outcomes come back in that order.
            kept, refused = super()._from_clubs(pairs)
            self._stored_as = [("", b"")] * len(refused) + kept
            return kept, refused

        def _store(self, pairs: list[tuple[str, bytes]]) -> list[Any]:
            from tablemodel.wire import parse_topic

            self._stored_as = pairs
            outcomes = super()._store(pairs)
            now = clock()
            for (topic, payload), outcome in zip(self._stored_as, outcomes, strict=True):
                if outcome.duplicate:
                    self.duplicates += 1
                if outcome.rejected is not None:
                    self.rejected += 1
                if outcome.stored and topic.endswith("/events"):
                    self.commits.append((parse_topic(topic)[1], json.loads(payload)["seq"],
                                         now))
            return outcomes

        def _after(self, outcomes: list[Any]) -> None:
            super()._after(outcomes)
            if self.progress is not None:
                self.progress(len(self.commits))

    return TimedBus


def server(config: dict[str, Any]) -> int:
    """The server (``web``: pages and the director) or one more ingest worker."""
    from mqttlink import BrokerSettings
    from server import create_app
    from server.link.bus import Bus
    from server.link.centre import ClubTables
    from server.link.rounds import start_round
    from server.serve import serve
    from server.setup.session import current

    logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
    web, centre = config["web"], bool(config.get("centre"))
    app = create_app({
        "DATABASE": config["db"], "EVENT": config["event"],
        "DIRECTOR_PASSWORD": config["password"], "SECRET_KEY": secrets.token_hex(32),
        "LANGUAGE": "en", "ANALYSIS": config["analysis"], "MAX_STREAMS": 16,
        "CENTRE": centre})
    services = app.extensions["bidbox"]
    # The bus as server.services makes it for the config (a centre's reads the clubs), timed.
    clubs = ClubTables(services.db, config["event"]) if centre else None
    bus = timed_bus(Bus)(services.ingest, services.hub, BrokerSettings(**config["broker"]),
                         client_id=config["client_id"], shared_group=config["shared_group"],
                         tables=config.get("tables"),
                         centre=clubs,
                         **({} if config.get("linger") is None else {"linger": config["linger"]}))
    services.bus = bus
    bus.start()
    served = serve(app, host="127.0.0.1", port=0, threads=24) if web else None
    lines = commands()
    if not bus.connected.wait(10.0):
        say(error="the ingest worker got no CONNACK in 10 s")
        return 1
    say(ready=True, address=None if served is None else served.address)
    try:
        while (line := lines.get()) != "stop":
            if line == "go" and web and not centre:  # the clubs' servers run their rounds
                session = current(services.db, config["event"])
                start_round(services.db, session, 1, by="loadtest")
                services.commands_queued()
            elif line == "drain":
                # From now on, say how many events are stored after every batch.
                bus.progress = lambda stored: say(stored=stored)
                say(stored=len(bus.commits))
        bus.progress = None
        figures = {"stored": len(bus.commits), "batches": bus.batches,
                   "duplicates_met": bus.duplicates, "rejected": bus.rejected}
        Path(config["out"]).write_text(json.dumps({**figures, "commits": bus.commits}))
        say(done=figures)
    finally:
        if served is not None:
            served.stop()
        else:
            services.close()
    return 0


# -- the bare subscriber -----------------------------------------------------------------------

def bare(config: dict[str, Any]) -> int:
    """Counts the messages on every table's events topic (and the distinct ones), nothing
    else."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    got = {"count": 0, "first": 0.0, "last": 0.0}
    seen: set[int] = set()  # a message sent twice (a resend, a redelivery) counts once here
    subscribed = threading.Event()
    # When the broker handed each message over: the start of the server's part of a key
    # press's way to the page (bidbox/loadtest.py). Kept raw; read after the run.
    arrivals: list[tuple[str, bytes, float]] = []

    def on_message(client: Any, userdata: Any, message: Any) -> None:
        now = clock()
        if not got["count"]:
            got["first"] = now
        got["count"] += 1
        got["last"] = now
        seen.add(hash((message.topic, message.payload)))
        arrivals.append((message.topic, message.payload[:40], now))

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=config["client_id"],
                         protocol=mqtt.MQTTv5)
    broker = config["broker"]
    client.username_pw_set(broker["username"], broker["password"])
    client.on_connect = lambda c, *_: c.subscribe(config["topic"], qos=1)
    client.on_subscribe = lambda *_: subscribed.set()
    client.on_message = on_message
    client.connect(broker["host"], broker["port"], keepalive=30)
    client.loop_start()
    lines = commands()
    try:
        if not subscribed.wait(10.0):
            say(error="the bare subscriber got no SUBACK in 10 s")
            return 1
        say(ready=True)
        while lines.get() != "stop":
            pass
        if config.get("out"):
            Path(config["out"]).write_text(json.dumps(_arrivals(arrivals)))
        say(done={**got, "distinct": len(seen), "out": config.get("out")})
    finally:
        client.disconnect()
        client.loop_stop()
    return 0


_SEQ = re.compile(rb'"seq": ?([0-9]+)')


def _arrivals(raw: list[tuple[str, bytes, float]]) -> list[tuple[int, int, float]]:
    """(table, seq, first arrival) of each event the bare subscriber took."""
    first: dict[tuple[int, int], float] = {}
    for topic, head, at in raw:
        found = _SEQ.search(head)
        parts = topic.split("/")
        if found is None or len(parts) < 5 or not parts[4].isdigit():
            continue
        first.setdefault((int(parts[4]), int(found.group(1))), at)
    return [(table, seq, at) for (table, seq), at in first.items()]


# -- a shard of simulated tables ---------------------------------------------------------------

def stamped_table(base: type) -> type:
    """``sim.simtable.SimulatedTable`` that notes, for each event the table accepts, the
    instant the simulated player began pressing the key (or putting the card on the reader)
    that caused it, and the instant the event was durable in the journal.

    A call takes several keys (``1``, ``H``, ``OK``): the one that counts is the last, the
    press the table accepts the call on. Events the table makes from a server command (an
    ``assign``) have no key press, and no press instant."""

    from hardware.events import CardEvent, KeyEvent

    class StampedTable(base):  # type: ignore[valid-type, misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.pressed_at = math.nan
            self.from_input = False
            self.stamps: list[tuple[int, str, float, float, float]] = []
            handle = self.daemon.handle

            def tagged(item: Any) -> None:  # on the table thread, before the daemon's own
                self.from_input = isinstance(item, KeyEvent | CardEvent)
                handle(item)
            self.daemon.handle = tagged
            self.daemon.listeners.append(self._stamp)
            # Each retained state as it went on the wire, and when: a recording's
            # (bidbox.loadtest_replay); only asked for by a run that records.
            self.states: list[tuple[float, str]] | None = None

        def record_states(self) -> None:
            from tablemodel.wire import state_payload

            publisher = self.daemon.publisher
            if publisher is None or self.states is not None:
                return
            self.states = states = []
            publish = publisher.publish_state

            def noted(snapshot: Any) -> None:
                states.append((clock(), state_payload(snapshot).decode()))
                publish(snapshot)
            publisher.publish_state = noted

        def press(self, seat: Any, *keys: str) -> None:
            for key in keys:
                self.pressed_at = clock()
                super().press(seat, key)

        def scan(self, card: Any, seat: Any = None) -> None:
            self.pressed_at = clock()
            super().scan(card, seat)

        def _stamp(self, event: Any) -> None:
            self.stamps.append((event.seq, event.type, event.ts,
                                self.pressed_at if self.from_input else math.nan, clock()))

    return StampedTable


SHARD_NICE = 19
"""The table shards' niceness: the server and the broker come first for the CPU."""


def behind_the_server() -> None:
    """Make this process (and every thread it starts later) take only the CPU the server,
    the broker and the rest leave: Linux's ``SCHED_IDLE`` policy, and nice 19 for a kernel
    without it. Nice 19 alone was not enough: a thread at nice 19 weighs 15 against a nice 0
    thread's 1,024, and 1,000 tables keep 150 or more of their 4,000 threads runnable at the
    scan, which outweighed the server's one ingest thread (server's part p99 11 s at load
    250 while the server used a third of a core). On the day the tables are machines of
    their own and take nothing from the director's."""
    os.nice(SHARD_NICE)
    with contextlib.suppress(AttributeError, OSError):  # not Linux: nice 19 is what there is
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


class Stopped(Exception):
    """The time limit came in the middle of a board."""


def shard(config: dict[str, Any]) -> int:
    from bidbox.demo import play_assigned_rounds
    from mqttlink import BrokerSettings, NetworkLoop
    from sim.players import SimulatedPlayers
    from sim.simtable import SimulatedTable

    logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
    logging.getLogger("bidbox.table").setLevel(logging.ERROR)
    # On the day each table is a Pi of its own and takes nothing from the director's machine.
    # Here the tables share its cores with the server and the broker, and Linux shares a core
    # thread by thread: a hundred busy table threads would leave the server's one ingest
    # thread a hundredth of it, and the load test would measure the simulation's appetite.
    behind_the_server()
    if config.get("cores"):  # the cores the run gives the tables (bidbox.loadtest.table_cores)
        os.sched_setaffinity(0, config["cores"])
    folder = Path(config["folder"])
    speed, seed, rounds = config["speed"], config["seed"], config["rounds"]
    stopping = threading.Event()
    Table = stamped_table(SimulatedTable)
    results: dict[int, dict[str, Any]] = {}
    settled = {spec["number"]: threading.Event() for spec in config["tables"]}
    lines = commands()
    # Every table's MQTT client on one network thread (epoll), not one paho thread each.
    network = NetworkLoop(name="shard-network").start()

    def run(number: int, broker: BrokerSettings) -> None:
        result: dict[str, Any] = {"table": number, "error": None, "boards": 0}
        results[number] = result
        try:
            with Table(folder / f"table-{number}.db", event=config["event"], number=number,
                       broker=broker, language="en", timeout=60.0,
                       network=network) as table:
                if config.get("record"):
                    table.record_states()
                try:
                    play(table, result)
                finally:  # before the stop closes the journal
                    result["published"] = table.journal.last_seq
                    result["unacknowledged"] = table.journal.outbox_size()
                    result["stamps"] = table.stamps
                    if config.get("record"):  # the journal as it went on the wire
                        result["record"] = {
                            "events": [[e.seq, e.type, e.to_payload().decode()]
                                       for e in table.journal.events()],
                            "states": table.states or []}
        except Stopped:
            result["cut"] = True  # mid-board at the time limit: not an error
        except Exception as error:  # reported; the other tables play on
            result["error"] = f"{type(error).__name__}: {error}"
        finally:
            settled[number].set()

    def pause(seconds: float) -> None:
        """The players' pauses; at the time limit they get up from the table at once."""
        if stopping.wait(seconds):
            raise Stopped

    def play(table: Any, result: dict[str, Any]) -> None:
        online = table.daemon.wait_for(lambda _: table.daemon.connected, config["connect_s"])
        result["online"] = online
        settled[table.number].set()
        if not online:
            raise RuntimeError(f"no connection to the broker in {config['connect_s']} s")
        players = SimulatedPlayers(table, seed=seed * 1000 + table.number, speed=speed,
                                   sleep=pause)

        def board(board: int, assignment: Any) -> None:
            players.play_board(board, assignment.deals[board])
            result["boards"] += 1

        play_assigned_rounds(table, players, board, until=stopping.is_set,
                             stopping=stopping.is_set, last_round=rounds)
        result["played_at"] = clock()
        # Every event out of the outbox (acknowledged by the broker) before the stop.
        table.daemon.wait_for(lambda _: not table.daemon.inflight, config["drain_s"])

    threads = []
    for spec in config["tables"]:
        broker = BrokerSettings(**spec["broker"])
        thread = threading.Thread(target=run, args=(spec["number"], broker),
                                  name=f"table-{spec['number']}", daemon=True)
        thread.start()
        threads.append(thread)
    for event in settled.values():
        event.wait()
    errors = [r["error"] for r in results.values() if r["error"]]
    top = max(int(fd) for fd in os.listdir("/proc/self/fd"))
    say(ready=not errors, errors=errors[:3], memory=status(), max_fd=top,
        threads=threading.active_count())
    peak: dict[str, float] = {}

    def wait_stop() -> None:
        while lines.get() != "stop":
            pass
        peak.update(status())  # while the tables still run: before any is stopped
        stopping.set()
    threading.Thread(target=wait_stop, name="stop", daemon=True).start()
    for thread in threads:
        thread.join()
    network.close()
    if not peak:
        peak.update(status())
    # The journals were closed with their tables: the results hold what they said.
    Path(config["out"]).write_text(json.dumps({"tables": list(results.values()),
                                               "memory": peak,
                                               "cores": sorted(os.sched_getaffinity(0))}))
    say(done={"tables": len(results), "errors": [r["error"] for r in results.values()
                                                 if r["error"]][:5], "memory": peak})
    return 0


# -- a club's tables, for ``bidbox loadtest --clubs`` -----------------------------------------

def club(config: dict[str, Any]) -> int:
    """One club's simulated tables replaying recorded boards through the club's broker
    (``sim.simulation``); writes each table's last seq and any error to ``out``. At
    ``stop_at`` (this machine's monotonic clock), if given, the players stop: each table
    finishes the board it is on without the players' pauses and plays no other, and ``out``
    says when that was (``stopped_at``) and how many boards were played."""
    from laws.formats import load_path
    from mqttlink import BrokerSettings
    from sim.recorded import playable
    from sim.simulation import Simulation

    logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
    logging.getLogger("bidbox.table").setLevel(logging.ERROR)
    behind_the_server()
    good, _ = playable(load_path(config["records"]), config["records"])
    tables, boards = config["tables"], config["boards"]
    if len(good) < tables * boards:
        say(error=f"{config['records']} has {len(good)} playable boards, not "
                  f"{tables * boards}")
        return 1
    brokers = {int(t): BrokerSettings(**b) for t, b in config["brokers"].items()}
    folder = Path(config["folder"])
    folder.mkdir(parents=True, exist_ok=True)
    simulation = Simulation(good[:tables * boards], tables=tables, folder=folder,
                            event=config["event"], boards_per_round=boards,
                            speed=config["speed"], broker_for=brokers.__getitem__,
                            drain=config.get("drain_s", 120.0))
    stopped: list[float] = []

    def stop() -> None:
        stopped.append(clock())
        simulation.stopping.set()
    timer = None
    if config.get("stop_at") is not None:
        timer = threading.Timer(max(0.0, config["stop_at"] - clock()), stop)
        timer.daemon = True
        timer.start()
    runs = simulation.run()
    if timer is not None:
        timer.cancel()
    Path(config["out"]).write_text(json.dumps({
        "stopped_at": stopped[0] if stopped else None,
        "boards_played": sum(len(r.outcomes) for r in runs),
        "last_seq": {r.number: r.events for r in runs},
        "unacknowledged": {r.number: r.unacknowledged for r in runs},
        "errors": [f"table {r.number}: {r.error}" for r in runs if r.error]}))
    say(done=True)
    return 0


def replayer(config: dict[str, Any]) -> int:
    """Recorded tables published again, many to a process (bidbox.loadtest_replay)."""
    from bidbox.loadtest_replay import replayer as replay

    logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
    return replay(config, say, commands(), status)


ROLES: dict[str, Callable[[dict[str, Any]], int]] = {
    "server": server, "shard": shard, "bare": bare, "club": club, "replayer": replayer}


if __name__ == "__main__":
    role, path = sys.argv[1], sys.argv[2]
    sys.exit(ROLES[role](json.loads(Path(path).read_text())))
