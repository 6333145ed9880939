"""``bidbox loadtest``: many simulated tables against a real broker and the real server.

Processes, each started here and stopped here by its own PID (docs/loadtest.md):

- a private Mosquitto (``bidbox.broker``) on a free loopback port, a user and an ACL per table;
- the server (``create_app``, waitress, the MQTT ingest worker ``server.link.bus.Bus`` with
  ``server.link.ingest.Ingest``) on a SQLite file or ``--db postgresql://...``; with
  ``--workers K``, K-1 more ingest workers on the same database, each subscribed to its own
  tables (``server.link.bus.split_tables``), or with ``--share subscription`` all K on one
  MQTT v5 shared subscription (``$share/loadtest/...``);
- ``--shards`` processes of simulated tables: the real table daemon on simulated keypads
  (gpiozero MockFactory) and card reader (pyserial ``loop://``), played by the demo's simulated
  players; the first shard holds exactly one table, whose process's memory is the table
  daemon's figure;
- a bare paho subscriber to the same stream, the baseline;
- in this process, the director's browser: signed in to the console, on its event stream
  (``/console/stream``), fetching on each change the rows of the tables it names (the whole
  tables' fragment when it names none) as console.js does.

The session is a Mitchell of N tables, one round of ``--boards`` boards each, seeded deals;
the server sends each table its round (``assign``) as the director starts it.
"""

from __future__ import annotations

import contextlib
import http.client
import http.cookiejar
import json
import math
import os
import queue
import re
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bidbox.loadtest_roles import status
from tablemodel.wire import MAX_BOARD

clock = time.monotonic
SHARED_GROUP = "loadtest"
STARTUP_S = 120.0  # the longest the processes may take to be ready
# Few tables to a process: a simulated table is four threads (daemon, card reader and its
# supervisor, players) and a process's threads share one GIL: 100 tables at people's pace,
# key -> accepted p99 from second 15 on was 110-240 ms with 99 tables in one process and
# 11-22 ms with 25 in each of four. Their MQTT clients share one network thread
# (mqttlink.netloop, epoll), so the 1023 descriptors of select() no longer bound a shard; the
# cap keeps a --shards that asks for few processes from making one table's latency the GIL's.
TABLES_PER_SHARD = 25
MAX_TABLES_PER_SHARD = 160


class LoadTestError(RuntimeError):
    """The load test could not run as asked; the message says why."""


@dataclass
class LoadSettings:
    tables: int = 4
    boards: int = 1
    speed: float = 0.0
    seconds: float = 300.0  # the whole run, from the first process started
    shards: int | None = None
    workers: int = 1
    # How K workers share the stream: "tables" (each its own tables' topics, every table's
    # stream whole at one worker) or "subscription" (one MQTT v5 shared subscription).
    share: str = "tables"
    db: str | None = None
    folder: Path | None = None
    seed: int = 2026
    analysis: bool = False
    drain_s: float = 30.0  # after the play: for the outboxes and the server to catch up
    keep: bool = False
    journals: Path | None = None  # where the tables' journals go (default: the run's folder)
    linger: float | None = None  # the ingest worker's batching window (server.link.bus.LINGER)
    section_tables: int = 25  # a run of more tables plays as sections of this many
    # The cores the tables' shards run on; the server, broker, bare subscriber and the
    # director's browser keep the others (table_cores). None: every process on every core.
    table_cpus: frozenset[int] | None = None
    # Write what the simulated tables published, and when, here at the end of the run
    # (bidbox.loadtest_replay); or publish such a recording again instead of simulating.
    record: Path | None = None
    replay: Path | None = None
    replayers: int = 1  # processes publishing a replay

    def sections(self) -> list[int]:
        """The tables of each section: one section up to ``section_tables`` tables, else
        sections of that many, the few left over (fewer than a Mitchell's 3) joining the
        last."""
        size = max(3, self.section_tables)
        if self.tables <= size:
            return [self.tables]
        counts = [size] * (self.tables // size)
        left = self.tables % size
        if left >= 3:
            counts.append(left)
        else:
            counts[-1] += left
        return counts

    def shard_count(self) -> int:
        """The lone table's shard, then enough for about TABLES_PER_SHARD tables each; never
        fewer than keep every shard at MAX_TABLES_PER_SHARD, whatever ``shards`` asks.
        A replay: ``replayers`` processes, however many tables."""
        if self.replay is not None:
            return max(1, min(self.replayers, self.tables))
        if self.tables == 1:
            return 1
        rest = self.tables - 1
        least = 1 + math.ceil(rest / MAX_TABLES_PER_SHARD)
        if self.shards is not None:
            return max(least, min(self.shards, self.tables))
        return max(least, 1 + math.ceil(rest / TABLES_PER_SHARD))


def table_cores(asked: str, cpus: Iterable[int] | None = None) -> frozenset[int] | None:
    """The cores ``--table-cores`` gives the tables: "all" None (every process on every
    core, the tables behind the server: SCHED_IDLE), "half" the upper half of the cores
    this process may use (the server's side keeps the larger half of an odd number), else a
    list such as "1" or "2,3". On the day each table is a Pi of its own and the director's
    machine runs only the server and the broker: a core the tables cannot take is that
    machine, and what the tables need beyond their own cores shows in their part of the
    latency, not in the server's. At least one core must be left to the server."""
    if asked == "all":
        return None
    if asked != "half":
        try:
            chosen = frozenset(int(part) for part in asked.split(","))
        except ValueError:
            raise LoadTestError(f"--table-cores {asked!r}: 'half', 'all' or cores such as "
                                f"'1' or '2,3'") from None
    if cpus is None and not hasattr(os, "sched_getaffinity"):
        raise LoadTestError("--table-cores needs Linux's CPU affinity; use 'all'")
    usable = sorted(os.sched_getaffinity(0) if cpus is None else cpus)
    if asked == "half":
        if len(usable) < 2:
            return None  # one core: nothing to split
        chosen = frozenset(usable[(len(usable) + 1) // 2:])
    if not chosen <= set(usable):
        raise LoadTestError(f"--table-cores {asked}: this machine's cores are {usable}")
    if set(usable) <= chosen:
        raise LoadTestError(f"--table-cores {asked}: no core left for the server")
    return chosen


@contextlib.contextmanager
def _server_side(table_cpus: frozenset[int] | None) -> Iterator[None]:
    """This process (the director's browser) and what it starts (the broker, the server,
    the bare subscriber) on the cores the tables leave, for the run; the shards set their
    own. The process's cores as before afterwards, whatever ends the run."""
    if table_cpus is None:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, before - table_cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


# -- child processes ---------------------------------------------------------------------------

class Child:
    """One process of the run: ``python -m bidbox.loadtest_roles ROLE CONFIG``."""

    changed = threading.Condition()  # any child said something

    def __init__(self, name: str, role: str, config: dict[str, Any], folder: Path) -> None:
        self.name = name
        path = folder / f"{name}.json"
        path.write_text(json.dumps(config))
        self.log = folder / f"{name}.log"
        with self.log.open("w") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bidbox.loadtest_roles", role, str(path)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True)
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.latest: dict[str, Any] = {}  # the last value of each key it said
        self.ended = False
        threading.Thread(target=self._read, name=f"{name}-out", daemon=True).start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with contextlib.suppress(ValueError):
                said = json.loads(line)
                self.lines.put(said)
                with Child.changed:
                    self.latest.update(said)
                    Child.changed.notify_all()
        self.lines.put(None)
        with Child.changed:
            self.ended = True
            Child.changed.notify_all()

    def send(self, command: str) -> None:
        assert self.process.stdin is not None
        with contextlib.suppress(OSError, ValueError):  # it may have ended by itself
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()

    def expect(self, key: str, deadline: float) -> dict[str, Any]:
        """The next line that has ``key``; LoadTestError if it errs, ends or is late."""
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - clock()))
            except queue.Empty:
                raise LoadTestError(f"{self.name}: no {key!r} in time; {self.tail()}") from None
            if line is None:
                raise LoadTestError(f"{self.name} ended before {key!r}: {self.tail()}")
            if "error" in line:
                raise LoadTestError(f"{self.name}: {line['error']}")
            if key in line:
                return line

    def tail(self) -> str:
        text = self.log.read_text() if self.log.exists() else ""
        return text[-1500:] or "(no output)"

    def ask_stop(self) -> None:
        """Say stop and close its stdin (which says it again)."""
        if self.process.poll() is None:
            self.send("stop")
            with contextlib.suppress(OSError):
                assert self.process.stdin is not None
                self.process.stdin.close()

    def stop(self, timeout: float = 30.0) -> None:
        """Ask it to stop, then SIGKILL this PID if it does not end in ``timeout``."""
        self.ask_stop()
        try:
            self.process.wait(max(0.0, timeout))
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# -- the director's browser --------------------------------------------------------------------

ROW = re.compile(r'<tr data-table="(\d+)"(.*?)</tr>', re.S)
CELL = re.compile(r"<td>(.*?)</td>", re.S)


def shown_events(html: str) -> dict[int, int]:
    """Each table's events stored with no gap, as the console's tables fragment shows them
    (the seventh column): the whole grid, or the rows alone (``?only=``)."""
    shown = {}
    for number, row in ROW.findall(html):
        cells = CELL.findall(row)
        found = re.match(r"\s*(\d+)", cells[6]) if len(cells) > 6 else None
        if found is None:
            raise LoadTestError(f"the console's tables fragment changed shape: {row[:200]!r}")
        shown[int(number)] = int(found.group(1))
    return shown


class DirectorBrowser:
    """What the director's browser does on the console's first page (console.js): sign in,
    listen to ``/console/stream``, and on each change of the tables fetch the rows of the
    tables it names that the page shows, ``/console/fragment/tables?only=3,17``, or the whole
    fragment when it names none or one of its tables not on the page yet; and the same of the
    seated players' list below the grid (``/console/fragment/seated``), as its own section.
    The page shows the field's first page of tables (``server.pages.tableview``: the first
    ``PAGE_TABLES``; all of a club's); a change of the tables past it fetches nothing, as on
    the page; the seated list fetches only on a change that says someone sat down or a round
    began (kind ``seated``). One fetch at a time a section; changes meanwhile make one more,
    their tables merged. ``seen[table]`` lists (events shown, instant) each time a table's
    count grew."""

    def __init__(self, address: str, password: str, tables: int | None = None) -> None:
        from server.link.live import MAX_TABLES
        from server.pages.tableview import PAGE_TABLES

        self.address = address
        self.password = password
        # The tables the first page shows: the first PAGE_TABLES (None: every table named).
        self.last = None if tables is None else min(tables, PAGE_TABLES)
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.seen: dict[int, list[tuple[int, float]]] = {}
        self.shown: dict[int, int] = {}
        self.rows: set[int] = set()  # the tables the page has a row for
        self.changed = threading.Condition()
        self.dirty = False
        self.named: set[int] | None = set()  # the rows to fetch next; None: the whole grid
        self.most = MAX_TABLES  # rows the server gives in one request
        self.fetches = 0
        self.full_fetches = 0
        self.fetch_s: list[float] = []
        # The seated players' section: its own fetches, as console.js makes them.
        self.seated_rows: set[int] = set()
        self.seated_dirty = False
        self.seated_named: set[int] | None = set()
        self.seated_fetch_s: list[float] = []
        self.error: str | None = None
        self.hello = threading.Event()
        self.closed = False
        self._stream: http.client.HTTPConnection | None = None

    def start(self) -> DirectorBrowser:
        login = f"{self.address}/console/login"
        page = self.opener.open(login, timeout=30).read().decode()
        token = re.search(r'name="csrf" value="([^"]+)"', page)
        if token is None:
            raise LoadTestError("no CSRF token on the console's sign-in page")
        form = urllib.parse.urlencode({"username": "director", "password": self.password,
                                       "csrf": token.group(1)}).encode()
        self.opener.open(login, data=form, timeout=30).read()
        threading.Thread(target=self._listen, name="sse", daemon=True).start()
        threading.Thread(target=self._refresh, name="fragment", daemon=True).start()
        threading.Thread(target=self._refresh_seated, name="seated", daemon=True).start()
        if not self.hello.wait(30.0):
            raise LoadTestError(f"the console's stream did not open: {self.error}")
        return self

    def _listen(self) -> None:
        parts = urllib.parse.urlsplit(self.address)
        cookie = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        try:
            conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port,
                                              timeout=None)
            self._stream = conn
            conn.request("GET", "/console/stream", headers={
                "Cookie": cookie, "Accept": "text/event-stream"})
            response = conn.getresponse()
            if response.status != 200:
                raise LoadTestError(f"/console/stream answered {response.status}")
            kind = ""
            while not self.closed:
                line = response.readline()
                if not line:
                    break
                text = line.decode().rstrip("\n")
                if text.startswith("event:"):
                    kind = text[6:].strip()
                elif text.startswith("data:") and kind == "hello":
                    self.hello.set()
                    self._mark(None)  # the page as it first loads
                elif text.startswith("data:") and kind == "change":
                    change = json.loads(text[5:])
                    if "tables" in change["kinds"]:
                        self._mark(change.get("tables"), seated="seated" in change["kinds"])
        except Exception as error:
            if not self.closed:
                self.error = f"{type(error).__name__}: {error}"
        finally:
            self.hello.set()

    def _mark(self, tables: list[int] | None, *, seated: bool = True) -> None:
        """The tables a change names (None: any may have changed) that the page shows,
        merged into what each section's next fetch takes; the seated players' section
        only when the change says someone sat down or a round began (``seated``)."""
        if tables is not None and self.last is not None:
            tables = [table for table in tables if table <= self.last]
        if tables is not None and not tables:
            return
        with self.changed:
            self.dirty = True
            self.named = self._merge(self.named, tables)
            if seated or tables is None:
                self.seated_dirty = True
                self.seated_named = self._merge(self.seated_named, tables)
            self.changed.notify_all()

    def _merge(self, named: set[int] | None, tables: list[int] | None) -> set[int] | None:
        if tables is None or named is None:
            return None
        named.update(tables)
        return None if len(named) > self.most else named

    def _url(self, named: set[int] | None, fragment: str = "tables",
             rows: set[int] | None = None) -> str:
        """The rows named when the page shows them all; else the whole fragment."""
        url = f"{self.address}/console/fragment/{fragment}"
        if named is None or not named <= (self.rows if rows is None else rows):
            return url
        return f"{url}?only={','.join(str(table) for table in sorted(named))}"

    def _refresh(self) -> None:
        while True:
            with self.changed:
                self.changed.wait_for(lambda: self.dirty or self.closed)
                if self.closed:
                    return
                self.dirty = False
                named, self.named = self.named, set()
                url = self._url(named)
            begun = clock()
            try:
                html = self.opener.open(url, timeout=60).read().decode()
            except Exception as error:
                self.error = f"{type(error).__name__}: {error}"
                continue
            now = clock()
            shown = shown_events(html)
            with self.changed:
                self.fetches += 1
                self.full_fetches += "?" not in url
                self.fetch_s.append(now - begun)
                self.rows |= shown.keys()
                for table, count in shown.items():
                    if count > self.shown.get(table, 0):
                        self.shown[table] = count
                        self.seen.setdefault(table, []).append((count, now))
                self.changed.notify_all()

    def _refresh_seated(self) -> None:
        """The seated players' section: fetched as the grid is, its rows kept apart (a
        table shows there once a player sits; until then its change fetches it whole)."""
        while True:
            with self.changed:
                self.changed.wait_for(lambda: self.seated_dirty or self.closed)
                if self.closed:
                    return
                self.seated_dirty = False
                named, self.seated_named = self.seated_named, set()
                url = self._url(named, "seated", self.seated_rows)
            begun = clock()
            try:
                html = self.opener.open(url, timeout=60).read().decode()
            except Exception as error:
                self.error = f"{type(error).__name__}: {error}"
                continue
            rows = {int(number) for number, _row in ROW.findall(html)}
            with self.changed:
                self.seated_fetch_s.append(clock() - begun)
                self.seated_rows |= rows

    def wait_shown(self, target: dict[int, int], deadline: float) -> bool:
        """Until every table's count on the page reaches ``target`` (of the tables the page
        shows), or the deadline."""
        if self.last is not None:
            target = {t: n for t, n in target.items() if t <= self.last}
        with self.changed:
            return self.changed.wait_for(
                lambda: all(self.shown.get(t, 0) >= n for t, n in target.items()),
                max(0.0, deadline - clock()))

    def shown_at(self, table: int, seq: int) -> float | None:
        marks = self.seen.get(table, [])
        i = bisect_left([count for count, _ in marks], seq)
        return marks[i][1] if i < len(marks) else None

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self.changed.notify_all()
        if self._stream is not None:
            with contextlib.suppress(Exception):
                self._stream.sock.shutdown(2)
            with contextlib.suppress(Exception):
                self._stream.close()


# -- figures -----------------------------------------------------------------------------------

def percentile(values: Sequence[float], p: float) -> float | None:
    """Nearest rank; None without values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def busiest(instants: Iterable[float], window: float = 10.0) -> float | None:
    """The most events a second over any ``window`` seconds: the scan's peak."""
    ordered = sorted(instants)
    if not ordered:
        return None
    most, start = 0, 0
    for end, at in enumerate(ordered):
        while ordered[start] < at - window:
            start += 1
        most = max(most, end - start + 1)
    return round(most / window, 1)


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


class ProcessWatch:
    """CPU and memory of some PIDs between ``start()`` and ``finish()``, from /proc."""

    def __init__(self, pids: dict[str, Iterable[int]]) -> None:
        self.pids = {name: list(p) for name, p in pids.items()}
        self.before: dict[int, dict[str, float]] = {}
        self.after: dict[int, dict[str, float]] = {}
        self.began = self.ended = 0.0

    def _read(self) -> dict[int, dict[str, float]]:
        found = {}
        for pids in self.pids.values():
            for pid in pids:
                with contextlib.suppress(OSError):
                    found[pid] = status(pid)
        return found

    def start(self) -> None:
        self.began, self.before = clock(), self._read()

    def finish(self) -> None:
        self.ended, self.after = clock(), self._read()

    def figures(self, name: str) -> dict[str, float | None]:
        wall = max(1e-9, self.ended - self.began)
        pids = [p for p in self.pids[name] if "VmRSS" in self.before.get(p, {})
                and "VmRSS" in self.after.get(p, {})]
        if not pids:
            return {"cpu_percent": None, "rss_mb": None, "peak_rss_mb": None}
        cpu = sum(self.after[p]["cpu_s"] - self.before[p]["cpu_s"] for p in pids)
        return {"cpu_percent": round(100 * cpu / wall, 1),
                "rss_mb": round(sum(self.after[p]["VmRSS"] for p in pids), 1),
                "peak_rss_mb": round(sum(self.after[p]["VmHWM"] for p in pids), 1)}


@dataclass
class Report:
    figures: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        f = self.figures
        lines = [
            f"bidbox loadtest: {f['tables']} tables x {f['boards']} boards, speed {f['speed']}, "
            f"{f['workers']} ingest worker(s) on {f['database']}, {f['shards']} table shards, "
            f"{f['cpus']} cores; load average at the end "
            f"{', '.join(str(x) for x in f['load_average'])}",
            (f"  a replay of {f['replay']} from {f['shards']} process(es): published "
             f"p50 {f['replay_late_ms_p50']} p99 {f['replay_late_ms_p99']} ms after the "
             f"recorded instant (the assignments came p50 {f['assign_wait_ms_p50']} p99 "
             f"{f['assign_wait_ms_p99']} ms after theirs); replayers' peak RSS "
             f"{f['replayer_rss_mb']} MB"
             if f.get("mode") == "replay"
             else "  tables on every core, behind the server (SCHED_IDLE)"
             if f["table_cores"] is None
             else f"  tables on core(s) {f['table_cores']} (SCHED_IDLE); the server, broker, "
                  f"bare subscriber and browser on the others"),
            f"  events published {f['published']}, stored {f['stored']}, lost {f['lost']}, "
            f"duplicated {f['duplicated']} (redeliveries met {f['redelivered']}), "
            f"tables in error {f['table_errors']}",
            f"  stored {f['events_per_s']} ev/s; bare paho subscriber {f['bare_events_per_s']} "
            f"ev/s in the same run; ingest ratio {f['ingest_ratio']}; busiest 10 s "
            f"{f['peak_events_per_s']} ev/s stored, {f['bare_peak_events_per_s']} at the bare "
            f"subscriber",
            f"  key press -> accepted by the table p50 {f['accept_ms_p50']} p99 "
            f"{f['accept_ms_p99']} ms",
            f"  key press -> stored in the server p50 {f['latency_ms_p50']} p99 "
            f"{f['latency_ms_p99']} ms (n={f['latency_n']})",
            f"  of which accepted -> stored p50 {f['carried_ms_p50']} p99 "
            f"{f['carried_ms_p99']} ms (the table's uplink, the broker, the ingest); stored -> "
            f"page p50 {f['shown_ms_p50']} p99 {f['shown_ms_p99']} ms",
            f"  the tables' part, key press -> at the broker p50 {f['brought_ms_p50']} p99 "
            f"{f['brought_ms_p99']} ms; the server's, at the broker -> page p50 "
            f"{f['served_ms_p50']} p99 {f['served_ms_p99']} ms (the {f['page_tables']} "
            f"tables the page shows); at the broker -> stored p50 {f['ingested_ms_p50']} p99 "
            f"{f['ingested_ms_p99']} ms (every table)",
            f"  key press -> director's console page p50 {f['page_latency_ms_p50']} p99 "
            f"{f['page_latency_ms_p99']} ms (n={f['page_latency_n']}, "
            f"{f['page_fetches']} fragment fetches, {f['page_full_fetches']} of the whole "
            f"grid, p50 {f['page_fetch_ms_p50']} ms each; {f['seated_fetches']} of the seated "
            f"players, p50 {f['seated_fetch_ms_p50']} ms)",
            f"  server: CPU {f['server']['cpu_percent']} %, RSS {f['server']['rss_mb']} MB "
            f"(peak {f['server']['peak_rss_mb']}); broker: CPU {f['broker']['cpu_percent']} %, "
            f"RSS {f['broker']['rss_mb']} MB; table shards: CPU "
            f"{f['shards_cpu']['cpu_percent']} %",
            f"  table daemon RSS {f['table_rss_mb']} MB (peak of a process running exactly one "
            f"table); shards' peak RSS per table "
            f"{f['shard_rss_mb_per_table']} MB",
            f"  play {f['play_s']} s (all boards played: {f['finished']}), elapsed "
            f"{f['elapsed_s']} s",
        ]
        verdicts = f["aims"]
        lines.append("  aims: " + "; ".join(f"{k} {'MET' if v else 'NOT met'}"
                                            for k, v in verdicts.items()))
        return "\n".join(lines)


# -- the run -----------------------------------------------------------------------------------

def _raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _database(settings: LoadSettings, folder: Path) -> str:
    return settings.db or str(folder / "bidbox.db")


def _set_up(url: str, event: str, settings: LoadSettings) -> None:
    from server.link.rounds import create_session
    from server.setup.movements import Section, section_letters
    from server.storage.db import Database

    db = Database(url)
    try:
        db.upgrade()
        forget(db, event)
        counts = settings.sections()
        sections = [Section(letter, "mitchell", 2 * count, settings.boards, rounds=1)
                    for letter, count in zip(section_letters(len(counts)), counts, strict=True)]
        create_session(db, event=event, title="bidbox loadtest", kind="mitchell",
                       participants=2 * settings.tables, boards_per_round=settings.boards,
                       rounds=1, seed=settings.seed,
                       sections=sections if len(sections) > 1 else None)
    finally:
        db.dispose()


def forget(db: Any, event: str) -> None:
    """A run's rows, from a database the load test did not make."""
    from sqlalchemy import delete, select

    from server.storage import schema as s

    with db.write() as conn:
        for table in (s.events, s.table_status, s.results, s.director_calls, s.commands,
                      s.rejections):
            if "event" in table.c:
                conn.execute(delete(table).where(table.c.event == event))
        ids = [r.id for r in conn.execute(select(s.sessions.c.id).where(
            s.sessions.c.event == event))]
        for table in (s.participants, s.deals, s.sections):
            conn.execute(delete(table).where(table.c.session_id.in_(ids)))
        conn.execute(delete(s.sessions).where(s.sessions.c.event == event))


def _stored_rows(url: str, event: str) -> list[tuple[int, int, str]]:
    from sqlalchemy import select

    from server.storage import schema as s
    from server.storage.db import Database

    db = Database(url)
    try:
        with db.read() as conn:
            return [(r.table_no, r.seq, r.type) for r in conn.execute(
                select(s.events.c.table_no, s.events.c.seq, s.events.c.type).where(
                    s.events.c.event == event))]
    finally:
        db.dispose()


def run(settings: LoadSettings, *, say: Any = None,
        shield: Callable[[], AbstractContextManager[Any]] = contextlib.nullcontext) -> Report:
    """One run. Whatever ends it, its ``finally`` stops what it started inside ``shield()``
    (bidbox.stopping: the command holds further signals off until the stop is done)."""
    from bidbox.broker import find_mosquitto

    note = say or (lambda text: None)
    started = clock()
    deadline = started + settings.seconds
    if settings.tables < 1 or settings.boards < 1 or settings.workers < 1:
        raise LoadTestError("--tables, --boards and --workers must be at least 1")
    if settings.tables * settings.boards > MAX_BOARD:
        # One session, one section: board numbers run 1..tables x boards, and the tables
        # refuse an assignment with a board above 999.
        raise LoadTestError(f"{settings.tables} tables x {settings.boards} boards need boards "
                            f"up to {settings.tables * settings.boards}; a session's boards "
                            f"stop at {MAX_BOARD} (try --tables {MAX_BOARD // settings.boards})")
    if settings.workers > 1 and not (settings.db or "").startswith("postgres"):
        raise LoadTestError("--workers above 1 needs --db postgresql://... (one database the "
                            "workers share)")
    if find_mosquitto() is None:
        raise LoadTestError("mosquitto is not installed: python3 scripts/setup.py")
    _raise_file_limit()
    with _server_side(settings.table_cpus):
        return _run(settings, note, started, deadline, shield)


def _run(settings: LoadSettings, note: Callable[[str], None], started: float, deadline: float,
         shield: Callable[[], AbstractContextManager[Any]]) -> Report:
    from bidbox.broker import Broker, BrokerConfig, BrokerUsers, free_port

    folder = settings.folder or Path(tempfile.mkdtemp(prefix="bidbox-loadtest-"))
    folder.mkdir(parents=True, exist_ok=True)
    event = "loadtest" if settings.db is None else f"loadtest-{secrets.token_hex(4)}"
    url = _database(settings, folder)
    users = BrokerUsers.generate(event, range(1, settings.tables + 1), display=False)
    broker = Broker(BrokerConfig(folder / "broker", users, port=free_port()))
    children: list[Child] = []
    browser: DirectorBrowser | None = None
    cleanup: list[Path] = []
    try:
        broker.start()
        _set_up(url, event, settings)
        server_broker = {"host": "127.0.0.1", "port": broker.port,
                         "username": users.server.username, "password": users.server.password}
        password = secrets.token_urlsafe(12)
        shared = (SHARED_GROUP if settings.workers > 1 and settings.share == "subscription"
                  else None)
        from server.link.bus import split_tables

        own = (split_tables(range(1, settings.tables + 1), settings.workers)
               if settings.workers > 1 and shared is None else None)
        servers: list[Child] = []
        ready = []
        startup = min(deadline, clock() + STARTUP_S)
        for k in range(settings.workers):
            # One after the other: each app writes the director's row at its start.
            if servers:
                ready.append(servers[-1].expect("ready", startup))
            servers.append(Child(f"server-{k + 1}", "server", {
                "web": k == 0, "db": url, "event": event, "password": password,
                "analysis": settings.analysis, "broker": server_broker,
                "client_id": f"bidbox-server-{event}-{k + 1}", "shared_group": shared,
                "tables": None if own is None else own[k],
                "linger": settings.linger,
                "out": str(folder / f"server-{k + 1}.out.json")}, folder))
        children += servers
        bare = Child("bare", "bare", {
            "broker": server_broker, "client_id": f"loadtest-bare-{event}",
            "topic": f"bidbox/v1/{event}/table/+/events",
            "out": str(folder / "bare.out.json")}, folder)
        children.append(bare)
        ready.append(servers[-1].expect("ready", startup))
        bare.expect("ready", startup)
        address = ready[0]["address"]
        note(f"broker on 127.0.0.1:{broker.port}, server on {address}, database {url}")
        browser = DirectorBrowser(address, password, settings.tables).start()

        numbers = list(range(1, settings.tables + 1))
        count = settings.shard_count()
        groups = [numbers[:1]] + [numbers[1:][i::count - 1] for i in range(count - 1)] \
            if count > 1 else [numbers]
        if settings.replay is not None:  # no lone table to weigh: even shares
            groups = [numbers[i::count] for i in range(count)]
        journals = folder / "tables"
        if settings.journals is not None:  # a fresh folder there, removed afterwards
            journals = Path(tempfile.mkdtemp(prefix="bidbox-loadtest-", dir=settings.journals))
            cleanup.append(journals)
        journals.mkdir(parents=True, exist_ok=True)
        shards = []
        for i, group in enumerate(g for g in groups if g):
            if settings.replay is not None:
                shards.append(Child(f"replayer-{i + 1}", "replayer", {
                    "event": event, "recording": str(settings.replay),
                    "connect_s": max(30.0, 0.1 * settings.tables),
                    "out": str(folder / f"replayer-{i + 1}.out.json"),
                    "tables": [{"number": n, "broker": {
                        "host": "127.0.0.1", "port": broker.port,
                        "username": users.table(n).username,
                        "password": users.table(n).password}} for n in group]}, folder))
                continue
            shards.append(Child(f"shard-{i + 1}", "shard", {
                "event": event, "folder": str(journals), "speed": settings.speed,
                "seed": settings.seed, "rounds": 1, "drain_s": settings.drain_s,
                # A thousand tables connecting at once on two busy cores take their time.
                "connect_s": max(30.0, 0.1 * settings.tables),
                "cores": None if settings.table_cpus is None else sorted(settings.table_cpus),
                "record": settings.record is not None,
                "out": str(folder / f"shard-{i + 1}.out.json"),
                "tables": [{"number": n, "broker": {
                    "host": "127.0.0.1", "port": broker.port,
                    "username": users.table(n).username,
                    "password": users.table(n).password}} for n in group]}, folder))
        children += shards
        for child in shards:
            answer = child.expect("ready", startup)
            child.latest["ready_memory"] = answer["memory"]
            if not answer["ready"]:
                raise LoadTestError(f"{child.name}: tables failed to start: {answer['errors']}")
        note(f"{settings.tables} tables online in {len(shards)} "
             f"{'replaying' if settings.replay is not None else 'shard'} processes "
             f"({clock() - started:.1f} s)")

        watch = ProcessWatch({"server": [c.pid for c in servers],
                              "broker": [broker.pid or 0],
                              "shards": [c.pid for c in shards],
                              "bare": [bare.pid]})
        watch.start()
        go = clock()
        if settings.replay is not None:  # the recorded instants count from this one
            for child in shards:
                child.send(f"go {go!r}")
        servers[0].send("go")
        # Each shard says done once every table of it played its boards and emptied its outbox.
        finished = True
        done: dict[str, dict[str, Any]] = {}
        for child in shards:
            try:
                done[child.name] = child.expect("done", deadline)["done"]
            except LoadTestError:
                finished = False
                break
        play_end = clock()
        for child in shards:  # at the time limit: the players get up; the outboxes empty
            if child.name not in done:
                child.send("stop")
        drain = clock() + settings.drain_s + 30
        for child in shards:
            if child.name not in done:
                done[child.name] = child.expect("done", drain)["done"]
        # What each shard wrote at its end, read once: its tables, memory, CPU and cores.
        shard_out = [json.loads((folder / f"{child.name}.out.json").read_text())
                     for child in shards]
        tables = [table for out in shard_out for table in out["tables"]]
        published = {t["table"]: t.get("published", 0) for t in tables}
        total = sum(published.values())
        # Until the servers have stored every event published, or the drain time is up.
        for child in servers:
            child.send("drain")
        with Child.changed:
            Child.changed.wait_for(lambda: sum(c.latest.get("stored", 0) for c in servers)
                                   >= total or any(c.ended for c in servers),
                                   max(0.0, settings.drain_s))
        browser.wait_shown(published, clock() + 10.0)
        watch.finish()
        for child in servers:
            child.send("stop")
        server_out = []
        for k, child in enumerate(servers):
            child.expect("done", clock() + 30)
            server_out.append(json.loads((folder / f"server-{k + 1}.out.json").read_text()))
        bare.send("stop")
        bare_done = bare.expect("done", clock() + 30)["done"]
        rows = _stored_rows(url, event)
        if settings.record is not None:
            from bidbox.loadtest_replay import write_recording

            written = write_recording(settings.record, tables=tables, go=go, settings={
                "event": event, "tables": settings.tables, "boards": settings.boards,
                "speed": settings.speed, "seed": settings.seed,
                "section_tables": settings.sections()[0], "finished": finished})
            note(f"recorded {written} events of {settings.tables} tables in {settings.record}")
        report = _figures(settings, tables, server_out, bare_done, rows, browser, watch,
                          shards, shard_out, go, play_end, finished, started, url)
        return report
    finally:
        with shield():  # a signal now waits until everything started here is stopped
            if browser is not None:
                browser.close()
            # All asked at once, then 30 s for all of them together, not 30 s each.
            for child in reversed(children):
                child.ask_stop()
            until = clock() + 30.0
            for child in reversed(children):
                child.stop(until - clock())
            broker.stop()
            if settings.db is not None:
                with contextlib.suppress(Exception):
                    from server.storage.db import Database
                    db = Database(url)
                    forget(db, event)
                    db.dispose()
            for path in cleanup:
                shutil.rmtree(path, ignore_errors=True)
            if settings.folder is None and not settings.keep:
                shutil.rmtree(folder, ignore_errors=True)


def _figures(settings: LoadSettings, tables: list[dict[str, Any]],
             server_out: list[dict[str, Any]], bare: dict[str, Any],
             rows: list[tuple[int, int, str]], browser: DirectorBrowser,
             watch: ProcessWatch, shards: list[Child], shard_out: list[dict[str, Any]],
             go: float, play_end: float, finished: bool, started: float, url: str) -> Report:
    from sqlalchemy.engine import make_url

    published = {t["table"]: t.get("published", 0) for t in tables}
    total = sum(published.values())
    journal: dict[tuple[int, int], tuple[str, float]] = {}
    presses: list[tuple[int, int, float, float]] = []  # table, seq, pressed, accepted
    for t in tables:
        for seq, kind, _ts, pressed, accepted in t.get("stamps", []):
            journal[(t["table"], seq)] = (kind, accepted)
            if pressed is not None and not math.isnan(pressed):
                presses.append((t["table"], seq, pressed, accepted))
    distinct = {(table, seq) for table, seq, _ in rows}
    lost = sum(1 for key in journal if key not in distinct)
    duplicated = len(rows) - len(distinct)
    mismatched = sum(1 for table, seq, kind in rows
                     if (table, seq) in journal and journal[(table, seq)][0] != kind)
    foreign = sum(1 for key in distinct if key not in journal)
    commits: dict[tuple[int, int], float] = {}
    for out in server_out:
        for table, seq, at in out["commits"]:
            commits.setdefault((table, seq), at)
    first = min((accepted for *_, accepted in presses), default=go)
    accepted_last = max((a for _, a in journal.values()), default=first)
    stored_last = max(commits.values(), default=first)
    stored_rate = len(commits) / max(1e-9, stored_last - first) if commits else None
    bare_rate = (bare["count"] / max(1e-9, bare["last"] - first)
                 if bare["count"] else None)
    ratio = round(stored_rate / bare_rate, 3) if stored_rate and bare_rate else None
    accept = [a - p for _, _, p, a in presses]
    stored = [commits[(t, s)] - p for t, s, p, _ in presses if (t, s) in commits]
    page = [at - p for t, s, p, _ in presses
            if (at := browser.shown_at(t, s)) is not None]
    # Where key -> page goes: the table's own acceptance (above), then its uplink, the broker
    # and the ingest (accepted -> stored), then the server's stream and the page's fetch.
    carried = [commits[(t, s)] - a for t, s, _, a in presses if (t, s) in commits]
    shown = [at - commits[(t, s)] for t, s, _, _ in presses
             if (t, s) in commits and (at := browser.shown_at(t, s)) is not None]
    # The server's own part: from the broker handing the event over (to the bare subscriber
    # beside the server, the same instant within the broker's fan-out) to the page.
    arrived: dict[tuple[int, int], float] = {}
    arrivals = Path(bare.get("out") or "")
    if bare.get("out") and arrivals.is_file():
        arrived = {(table, seq): at for table, seq, at in json.loads(arrivals.read_text())}
    served = [shown_at - arrived[(t, s)] for t, s, _, _ in presses
              if (t, s) in arrived and (shown_at := browser.shown_at(t, s)) is not None]
    brought = [arrived[(t, s)] - p for t, s, p, _ in presses if (t, s) in arrived]
    # Every table's, on the page or not: at the broker -> stored.
    ingested = [commits[(t, s)] - arrived[(t, s)] for t, s, _, _ in presses
                if (t, s) in arrived and (t, s) in commits]
    lone = shard_out[0]["memory"]
    others = [out["memory"] for out in shard_out[1:]]
    per_table = (round(sum(m["VmHWM"] for m in others) / max(1, settings.tables - 1), 2)
                 if others else None)
    errors = [t["error"] for t in tables if t.get("error")]
    replay = settings.replay is not None
    # A replay: how late the replayer published each event against its recorded instant.
    late = [x for t in tables for x in t.get("late", [])]
    waits = [t["assign_wait"] for t in tables if t.get("assign_wait") is not None]
    f: dict[str, Any] = {
        "mode": "replay" if replay else "simulation",
        "replay": None if not replay else str(settings.replay),
        "replay_late_ms_p50": ms(percentile(late, 50)) if replay else None,
        "replay_late_ms_p99": ms(percentile(late, 99)) if replay else None,
        "replay_resent": sum(t.get("resent", 0) for t in tables) if replay else None,
        # How long after the recorded instant the server's assignment reached a table.
        "assign_wait_ms_p50": ms(percentile(waits, 50)) if replay else None,
        "assign_wait_ms_p99": ms(percentile(waits, 99)) if replay else None,
        "tables": settings.tables, "boards": settings.boards, "speed": settings.speed,
        "workers": settings.workers, "shards": len(shards), "cpus": os.cpu_count(),
        "table_cores": None if settings.table_cpus is None else sorted(settings.table_cpus),
        # What the shards and this process (the browser; the server and broker started from
        # it) ran on, as each read it: the split above, seen from both sides.
        "shard_cores": sorted({c for out in shard_out for c in out.get("cores", [])}),
        "server_side_cores": sorted(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity") else None,
        "load_average": [round(x, 2) for x in os.getloadavg()],  # others' work shows here
        "database": make_url(url).render_as_string(hide_password=True) if "://" in url
        else "SQLite file",
        "published": total, "acknowledged": total - sum(t.get("unacknowledged", 0)
                                                         for t in tables),
        "stored": len(distinct), "lost": lost, "duplicated": duplicated,
        "mismatched": mismatched, "foreign": foreign,
        "redelivered": sum(o["duplicates_met"] for o in server_out),
        "rejected": sum(o["rejected"] for o in server_out),
        "stored_per_worker": [o["stored"] for o in server_out],
        "events_per_s": None if stored_rate is None else round(stored_rate, 1),
        "bare_events_per_s": None if bare_rate is None else round(bare_rate, 1),
        "bare_received": bare["count"], "bare_distinct": bare["distinct"],
        "accepted_events_per_s": round(len(journal) / max(1e-9, accepted_last - first), 1),
        "ingest_ratio": ratio,
        "peak_events_per_s": busiest(commits.values()),
        "bare_peak_events_per_s": busiest(arrived.values()),
        "accept_ms_p50": ms(percentile(accept, 50)), "accept_ms_p99": ms(percentile(accept, 99)),
        "latency_ms_p50": ms(percentile(stored, 50)), "latency_ms_p99": ms(percentile(stored, 99)),
        "latency_ms_max": ms(max(stored, default=None)), "latency_n": len(stored),
        "carried_ms_p50": ms(percentile(carried, 50)),
        "carried_ms_p99": ms(percentile(carried, 99)),
        "shown_ms_p50": ms(percentile(shown, 50)), "shown_ms_p99": ms(percentile(shown, 99)),
        "brought_ms_p50": ms(percentile(brought, 50)),
        "brought_ms_p99": ms(percentile(brought, 99)),
        "served_ms_p50": ms(percentile(served, 50)), "served_ms_p99": ms(percentile(served, 99)),
        "served_n": len(served),
        "ingested_ms_p50": ms(percentile(ingested, 50)),
        "ingested_ms_p99": ms(percentile(ingested, 99)), "ingested_n": len(ingested),
        # The tables the director's page shows (its first page), whose events reach it.
        "page_tables": settings.tables if browser.last is None else browser.last,
        "seated_fetches": len(browser.seated_fetch_s),
        "seated_fetch_ms_p50": ms(percentile(browser.seated_fetch_s, 50)),
        "seated_fetch_ms_p99": ms(percentile(browser.seated_fetch_s, 99)),
        "page_latency_ms_p50": ms(percentile(page, 50)),
        "page_latency_ms_p99": ms(percentile(page, 99)),
        "page_latency_ms_max": ms(max(page, default=None)), "page_latency_n": len(page),
        "page_fetches": browser.fetches, "page_full_fetches": browser.full_fetches,
        "page_fetch_ms_p50": ms(percentile(browser.fetch_s, 50)),
        "page_fetch_ms_p99": ms(percentile(browser.fetch_s, 99)),
        "server": watch.figures("server"), "broker": watch.figures("broker"),
        "shards_cpu": {"cpu_percent": round(100 * sum(
            out["memory"]["cpu_s"] - s.latest["ready_memory"]["cpu_s"]
            for s, out in zip(shards, shard_out, strict=True)) / max(1e-9, play_end - go), 1)},
        "bare": watch.figures("bare"),
        # A replayer is no table: its memory is its own figure.
        "table_rss_mb": None if replay else round(lone["VmHWM"], 1),
        "table_now_rss_mb": None if replay else round(lone["VmRSS"], 1),
        "shard_rss_mb_per_table": None if replay else per_table,
        "replayer_rss_mb": round(sum(o["memory"]["VmHWM"] for o in shard_out), 1)
        if replay else None,
        "table_errors": len(errors), "table_error_examples": errors[:3],
        "boards_played": sum(t.get("boards", 0) for t in tables),
        "finished": finished, "play_s": round(play_end - go, 1),
        "elapsed_s": round(clock() - started, 1),
    }
    f["aims"] = {
        "page_p99_under_250ms": f["page_latency_ms_p99"] is not None
        and f["page_latency_ms_p99"] < 250,
        "ingest_ratio_at_least_0.7": ratio is not None and ratio >= 0.7,
        "server_part_p99_under_250ms": f["served_ms_p99"] is not None
        and f["served_ms_p99"] < 250,
        "nothing_lost_or_duplicated": lost == 0 and duplicated == 0,
        **({} if replay else {"table_under_60mb": f["table_rss_mb"] < 60}),
        "thousand_tables": settings.tables >= 1000,
    }
    return Report(f)
