"""A rehearsal of the evening: simulated tables playing the session the director created in
the console, on the club's own broker and server (``bidbox simulate --server``).

Each simulated table is the real table daemon on simulated keypads and card reader, logged in
with its provisioned credentials (``credentials.json``) and following the server's running
session as a provisioned Pi does (tabled.following): it takes each round the server assigns,
its players type numbers of the session's register (or made-up ones when it has none), and
bid and play each board in the styles of a real field (sim.players.field), at people's pace or
faster. The director starts the rounds in the console as on the night, or, with
``start_rounds``, the rehearsal does, over the console's own pages, once every table has
finished the round before. It ends when every board of the session has its result.

What it reads of the server is public (``/api/v1/progress``, ``/api/v1/rankings``) but for
the rounds it starts, signed in as the director.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import ssl
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bidbox.broker import BrokerUsers
from laws import Seat
from mqttlink import BrokerSettings

POLL = 1.0
"""Seconds between two looks at the session's progress."""
HTTP_TIMEOUT = 15.0
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
REFUSED = re.compile(r'<li role="alert">(?:No se ha hecho|Not done): (.*?)</li>', re.S)
"""The console's flash when it refuses a form (server/texts/console_texts.py console_refused)."""


class RehearsalError(RuntimeError):
    """The rehearsal cannot go on; the message says what to do."""


class Server:
    """The director's server as the rehearsal reaches it: its public API, and the console
    when the rehearsal starts the rounds (a signed-in director, with the session's cookie)."""

    def __init__(self, url: str, *, cafile: str | None = None) -> None:
        self.url = url.rstrip("/")
        context = ssl.create_default_context(cafile=cafile) if url.startswith("https") else None
        self._cookies = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self._cookies),
            urllib.request.HTTPSHandler(context=context))

    def _open(self, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        data = None if form is None else urllib.parse.urlencode(form).encode()
        request = urllib.request.Request(self.url + path, data=data)
        try:
            with self._opener.open(request, timeout=HTTP_TIMEOUT) as response:
                return int(response.status), response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8", "replace")
        except (urllib.error.URLError, OSError) as error:
            raise RehearsalError(f"the server at {self.url} does not answer: {error}") from None

    def progress(self) -> dict[str, Any] | None:
        """``/api/v1/progress``: the running session's rounds and tables; None with none."""
        status, text = self._open("/api/v1/progress")
        if status == 404:
            return None
        if status != 200:
            raise RehearsalError(f"{self.url}/api/v1/progress answered {status}")
        found: dict[str, Any] = json.loads(text)
        return found

    def rankings(self) -> list[dict[str, Any]]:
        status, text = self._open("/api/v1/rankings")
        if status != 200:
            return []
        found: list[dict[str, Any]] = json.loads(text).get("rankings", [])
        return found

    def sign_in(self, username: str, password: str) -> None:
        token = self._token("/console/login")
        self._open("/console/login", {"username": username, "password": password,
                                      "csrf": token})
        status, page = self._open("/console/")
        if status != 200 or ("/console/login" in page and 'name="password"' in page):
            raise RehearsalError("the director's password was refused by the console")

    def start_round(self, number: int) -> None:
        """Press "Start round" in the console, as the director would; the console's reason
        if it refuses (a Swiss round it cannot pair, say)."""
        token = self._token("/console/")
        status, page = self._open("/console/round", {"csrf": token, "round": str(number)})
        refused = REFUSED.search(page)
        if status >= 400 or refused is not None:
            why = refused.group(1) if refused is not None else f"status {status}"
            raise RehearsalError(f"the console did not start round {number}: {why}")

    def _token(self, path: str) -> str:
        status, page = self._open(path)
        found = CSRF.search(page)
        if found is None:
            raise RehearsalError(f"{self.url}{path} answered {status} with no form")
        return found.group(1)


@dataclass
class TableRun:
    number: int
    boards: int = 0
    error: str | None = None


@dataclass
class Rehearsal:
    """``start()``, then ``wait()`` until the session is over; ``stop()`` at any time."""

    server: Server
    broker: BrokerSettings
    users: BrokerUsers
    folder: Path
    speed: float = 1.0
    seed: int = 2026
    start_rounds: bool = False
    director: tuple[str, str] | None = None  # the console's user name and password
    say: Callable[[str], None] = print
    stopping: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)
    runs: dict[int, TableRun] = field(default_factory=dict)
    event: str = ""
    rounds: int = 0
    error: str | None = None  # why the director's side stopped the rehearsal
    _threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> Rehearsal:
        progress = self.server.progress()
        if progress is None:
            raise RehearsalError("the server runs no session: create it in the console first")
        self.event, self.rounds = progress["event"], int(progress["rounds"])
        tables = sorted(int(row["table"]) for row in progress["tables"])
        missing = [n for n in tables if n not in self.users.tables]
        if missing:
            raise RehearsalError(f"the credentials hold no table {missing[0]}: the session has "
                                 f"{len(tables)} tables; provision more (bidbox provision)")
        if self.start_rounds:
            if self.director is None:
                raise RehearsalError("starting the rounds needs the director's password")
            self.server.sign_in(*self.director)
        self.runs = {n: TableRun(n) for n in tables}
        for number in tables:
            self._spawn(f"table-{number}", self._table, number)
        self._spawn("progress", self._watch)
        return self

    def _spawn(self, name: str, target: Callable[..., None], *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Until every board of the session has its result (True), or ``timeout``."""
        return self.finished.wait(timeout)

    def stop(self) -> None:
        self.stopping.set()
        for thread in self._threads:
            thread.join(40.0)

    # -- the tables --------------------------------------------------------------------------

    def _settings(self, number: int) -> BrokerSettings:
        creds = self.users.table(number)
        return BrokerSettings(self.broker.host, self.broker.port, creds.username,
                              creds.password, self.broker.cafile)

    def _table(self, number: int) -> None:
        from bidbox.demo import play_assigned_rounds
        from sim.players import SimulatedPlayers, deal
        from sim.players.field import seated
        from sim.simtable import SimulatedTable

        run = self.runs[number]
        try:
            with SimulatedTable(None, journals=self.folder / f"table-{number}", number=number,
                                broker=self._settings(number), timeout=60.0) as table:
                players = SimulatedPlayers(table, seed=self.seed * 1000 + number,
                                           speed=self.speed, sleep=self._pause)

                def board(number_: int, assignment: Any) -> None:
                    dealt = assignment.deals.get(number_) or deal(self.seed, number_)
                    players.play_board(number_, dealt, seated(
                        self.seed, assignment.ns, assignment.ew, switch=assignment.switch))
                    run.boards += 1

                play_assigned_rounds(
                    table, players, board, stopping=self.stopping.is_set,
                    until=lambda: self.stopping.is_set() or self.finished.is_set(),
                    numbers=lambda ns, ew: numbers(table.state.roster, ns, ew))
        except Exception as error:  # said, and the other tables play on
            if not self.stopping.is_set():
                run.error = f"{type(error).__name__}: {error}"
                self.say(f"table {number} stopped: {run.error}")

    def _pause(self, seconds: float) -> None:
        self.stopping.wait(seconds)  # a stop cuts the players' pauses short

    # -- the director's side -------------------------------------------------------------------

    def _watch(self) -> None:
        """The session's progress: the rounds started (by the director, or here), the end."""
        started = asked = 0
        while not self.stopping.is_set():
            try:
                progress = self.server.progress()
            except RehearsalError as error:
                self.say(f"{error}; trying again")
                self.stopping.wait(5 * POLL)
                continue
            if progress is None or progress["event"] != self.event:
                self.say("the director has moved to another session: the rehearsal stops")
                self.stopping.set()
                return
            current = int(progress["round"])
            if current > started:
                started = current
                self.say(f"round {current} of {self.rounds} under way")
            if progress["scheduled"] and progress["finished"] >= progress["scheduled"]:
                self.finished.set()
                return
            if (self.start_rounds and self._round_over(progress) and current < self.rounds
                    and asked <= current):
                asked = current + 1
                try:
                    self.server.start_round(asked)
                except RehearsalError as error:
                    self.error = str(error)
                    self.say(f"{error}: the rehearsal stops")
                    self.stopping.set()
                    return
            self.stopping.wait(POLL)

    @staticmethod
    def _round_over(progress: dict[str, Any]) -> bool:
        """Round 0 (none started), or every table of the round has finished its boards."""
        if int(progress["round"]) == 0:
            return True
        playing = [row for row in progress["tables"] if row["scheduled"]]
        return (progress["round_finished"] >= progress["round_scheduled"]
                and all(row["stage"] == "done" for row in playing))

    def summary(self) -> str:
        """The end: boards played, and how far apart the field's percentages are."""
        played = sum(run.boards for run in self.runs.values())
        ranked = [row for row in self.server.rankings() if row.get("percent") is not None]
        spread = ""
        if ranked:
            low = min(row["percent"] for row in ranked)
            high = max(row["percent"] for row in ranked)
            spread = f"; the field from {low:.1f} % to {high:.1f} %"
        return f"{played} boards played at {len(self.runs)} tables{spread}"


def numbers(roster: dict[int, str] | None, ns: int, ew: int) -> dict[Seat, int]:
    """The players' numbers at a table: members of the session's register (each pair's two
    always the same), else made up from the pair numbers (pair 3: 301 and 302)."""
    if not roster:
        from bidbox.demo import player_numbers
        return player_numbers(ns, ew)
    members = sorted(roster)

    def member(pair: int, which: int) -> int:
        return members[(2 * (pair - 1) + which) % len(members)]
    return {Seat.N: member(ns, 0), Seat.S: member(ns, 1),
            Seat.E: member(ew, 0), Seat.W: member(ew, 1)}
