"""The whole system on one machine: a private broker, the server, and simulated tables.

Everything runs on loopback with embedded defaults. The broker is a private Mosquitto on a
free port, with a password per table, the ACL, and persistence in the demo's folder. The
server uses a SQLite file. N simulated tables (the real table daemon on simulated keypads and
card reader) play a barometer seated as a Mitchell (every table plays the same boards in the
same round, so a board reaches the live page as soon as every table has finished it: within a
minute of the start at the default pace), or a plain Mitchell (``movement="mitchell"``: its
boards are released only once the last table that plays them has, after the last round). A
"director" thread starts each round once every table of the round before has finished, as a
director would at the console.

The tables only learn their boards from the server: each round's ``assign`` command comes over
MQTT. The players then replay real records (``records``) or bid and play with the simulated
players of ``sim.players``. Every journal, the broker's persistence and the database stay in
the demo's folder, so stopping loses nothing.
"""

from __future__ import annotations

import logging
import secrets
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bidbox.broker import Broker, BrokerConfig, BrokerUsers, free_port
from laws import Deal, Seat
from laws.formats import load_path
from mqttlink import BrokerSettings
from sim.players.field import seated

log = logging.getLogger(__name__)

EVENT = "demo"

MOVEMENTS = {"barometer": "baro_mitchell", "mitchell": "mitchell"}
"""The demo's movements by the name its command takes, and the server's kind of each."""


class DemoError(RuntimeError):
    """The demo cannot start as asked; the message says what to change."""


@dataclass
class DemoSettings:
    tables: int = 6
    boards_per_round: int | None = None  # default 2, fewer if the records have too few boards
    rounds: int | None = None  # default: a few rounds (at most 3)
    records: Path | None = None
    # 1 = people's pace (a board takes minutes); the default plays about four times faster,
    # so the first boards are on the live page after a few minutes (the release rule waits
    # for every table that plays a board); 0 = as fast as possible.
    speed: float = 0.25
    movement: str = "barometer"  # a key of MOVEMENTS
    port: int = 8000
    seed: int = 2026
    language: str = "es"
    folder: Path | None = None
    analysis: bool = True
    screens: str | None = None  # "NE-SW" or "NW-SE": the tables play behind screens
    profile: str = "feb"        # the alert profile (tablemodel.regulation.PROFILES)


@dataclass
class TableRun:
    number: int
    boards: list[int] = field(default_factory=list)
    error: str | None = None


class Demo:
    """Start with ``start()``; ``wait()`` until the session ends or ``stop()`` is called."""

    def __init__(self, settings: DemoSettings, *, say: Callable[[str], None] = print) -> None:
        self.settings = settings
        self.say = say
        self.folder = settings.folder or Path(tempfile.mkdtemp(prefix="bidbox-demo-"))
        self.password = secrets.token_urlsafe(9)
        self.stopping = threading.Event()
        self.finished = threading.Event()
        self.runs = {n: TableRun(n) for n in range(1, settings.tables + 1)}
        self.broker: Broker | None = None
        self.served: Any = None
        self.app: Any = None
        self.session: Any = None
        self.records: dict[int, list[Any]] = {}
        self.started_at = 0.0
        self.first_release_at: float | None = None
        self._threads: list[threading.Thread] = []

    # -- start -------------------------------------------------------------------------------

    def start(self) -> Demo:
        from bidbox.broker import find_mosquitto
        from server import create_app
        from server.serve import serve

        if self.settings.tables < 1:
            raise DemoError("--tables must be at least 1")
        if find_mosquitto() is None:
            raise DemoError("mosquitto is not installed: sudo apt-get install -y mosquitto "
                            "(or run: make demo, which installs it)")
        self.started_at = time.monotonic()
        if self.settings.records is not None:
            self._load_records(self.settings.records)
        users = BrokerUsers.generate(EVENT, self.runs)
        self.broker = Broker(BrokerConfig(self.folder / "broker", users, port=free_port()))
        self.broker.start()
        creds = users.server
        self.app = create_app({
            "DATABASE": str(self.folder / "bidbox.db"), "EVENT": EVENT,
            "BROKER_URL": f"mqtt://{creds.username}:{creds.password}@127.0.0.1:"
                          f"{self.broker.port}",
            "DIRECTOR_PASSWORD": self.password, "SECRET_KEY": secrets.token_hex(32),
            "LANGUAGE": self.settings.language, "ANALYSIS": self.settings.analysis})
        self.served = serve(self.app, host="127.0.0.1", port=self.settings.port, threads=24)
        self.session = self._set_up()
        for number in self.runs:
            settings = BrokerSettings("127.0.0.1", self.broker.port,
                                      users.table(number).username,
                                      users.table(number).password)
            self._spawn(f"table-{number}", self._table, number, settings)
        self._spawn("director", self._director)
        return self

    def _spawn(self, name: str, target: Callable[..., None], *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    @property
    def address(self) -> str:
        return str(self.served.address)

    def _load_records(self, path: Path) -> None:
        from sim.recorded import playable

        try:
            records = load_path(path)
        except (OSError, ValueError) as error:
            raise DemoError(f"{path}: {error}") from None
        good, _ = playable(records, str(path))
        for item in good:
            self.records.setdefault(item.record.board, []).append(item)
        if not self.records:
            raise DemoError(f"{path}: no record the tables can play")

    def _set_up(self) -> Any:
        from server.link.rounds import create_session
        from server.setup.movements import movement
        from server.setup.pair_cards import store_example
        from server.setup.session import import_deals
        from tablemodel.regulation import DEFAULT_TRAY_DELAY

        settings = self.settings
        services = self.app.extensions["bidbox"]
        pairs = 2 * settings.tables
        if settings.movement not in MOVEMENTS:
            raise DemoError(f"unknown movement {settings.movement!r}: one of "
                            f"{', '.join(MOVEMENTS)}")
        kind = MOVEMENTS[settings.movement]
        rounds = settings.rounds or min(settings.tables, 3)
        per_round = settings.boards_per_round or 2
        first = 1
        if self.records:
            boards = sorted(self.records)
            first = boards[0]
            run = next((i for i, b in enumerate(boards) if b != first + i), len(boards))
            try:
                if settings.boards_per_round is None:
                    # The movement's sets of boards share the run: a Mitchell has a set for
                    # each table, all in play every round; a barometer a set for each round.
                    sets = len(movement(kind, pairs, 1, rounds, first).boards())
                    per_round = max(1, min(3, run // sets))
                wanted = movement(kind, pairs, per_round, rounds, first).boards()
            except ValueError as error:
                raise DemoError(str(error)) from None
            if any(board not in self.records for board in wanted):
                raise DemoError(
                    f"the records have boards {first}-{first + run - 1} in a row: this "
                    f"{settings.movement} needs boards {wanted[0]}-{wanted[-1]}; use fewer "
                    f"--tables, --rounds or --boards-per-round")
        try:
            session = create_session(
                services.db, event=EVENT, title="bidbox demo", kind=kind,
                participants=pairs, boards_per_round=per_round,
                rounds=rounds, first_board=first,
                seed=None if self.records else settings.seed,
                names={p: f"Pareja {p}" for p in range(1, pairs + 1)},
                screens=settings.screens, profile=settings.profile,
                # The simulated players keep up a human pace (speed 1) behind screens too.
                tray_delay=min(DEFAULT_TRAY_DELAY, DEFAULT_TRAY_DELAY * settings.speed))
            if self.settings.records is not None:
                import_deals(services.db, session, self.settings.records.read_bytes())
            for pair in range(1, pairs + 1):  # every pair plays seed 004's system
                store_example(services.db, session, pair, by="demo")
        except ValueError as error:
            raise DemoError(str(error)) from None
        return session

    # -- the director: one round after another -----------------------------------------------

    def _director(self) -> None:
        def first_release(board: int) -> None:
            if self.first_release_at is None:
                self.first_release_at = time.monotonic()
                self.say(f"board {board} is on the live page, "
                         f"{self.first_release_at - self.started_at:.0f} s after the start")

        services = self.app.extensions["bidbox"]
        if run_rounds(services, self.session, self.stopping, say=self.say,
                      on_release=first_release, by="demo"):
            self.say("the session is over: every board of every round has its result")
            self.finished.set()

    # -- the tables ----------------------------------------------------------------------------

    def _table(self, number: int, broker: BrokerSettings) -> None:
        from sim.simtable import SimulatedTable

        run = self.runs[number]
        try:
            with SimulatedTable(self.folder / f"table-{number}.db", event=EVENT, number=number,
                                broker=broker, language=self.settings.language,
                                timeout=30.0) as table:
                self._play(table, run)
        except Exception as error:  # shown, and the other tables play on
            if not self.stopping.is_set():
                run.error = f"{type(error).__name__}: {error}"
                log.exception("table %d stopped", number)
                self.say(f"table {number} stopped: {run.error}")

    def _play(self, table: Any, run: TableRun) -> None:
        players = self._players(table, run.number)

        def board(board: int, assignment: Any) -> None:
            self._play_board(players, run.number, board, assignment)
            run.boards.append(board)

        play_assigned_rounds(table, players, board,
                             until=lambda: self.stopping.is_set() or self.finished.is_set(),
                             stopping=self.stopping.is_set)

    def _players(self, table: Any, number: int) -> Any:
        if self.records:
            from sim.recorded import RecordedPlayers
            return RecordedPlayers(table, speed=self.settings.speed,
                                   sleep=self._interruptible_sleep)
        from sim.players import SimulatedPlayers
        # The demonstration's players now and then see a card out of turn: the director
        # meets penalty cards and leads out of turn on the console (sim.players.irregular).
        return SimulatedPlayers(table, seed=self.settings.seed * 1000 + number,
                                speed=self.settings.speed, sleep=self._interruptible_sleep,
                                irregular=True)

    def _play_board(self, players: Any, table: int, board: int, assignment: Any) -> None:
        if self.records:
            from sim.recorded import BoardScript
            item = self.record_for(table, board)
            players.play_board(BoardScript.of(item.record, item.expected.tricks))
        else:
            # Each pair plays in a style of its own (sim.players.field): the travellers and
            # the percentages spread as a real field's do, not every pair at 50 %.
            deal: Deal = assignment.deals[board]
            players.play_board(board, deal, seated(self.settings.seed, assignment.ns,
                                                   assignment.ew, switch=assignment.switch))

    def record_for(self, table: int, board: int) -> Any:
        """The record a table replays for a board: a different one at each table."""
        choices = self.records[board]
        return choices[(table - 1) % len(choices)]

    def _interruptible_sleep(self, seconds: float) -> None:
        self.stopping.wait(seconds)

    # -- waiting and stopping ----------------------------------------------------------------

    def wait(self, timeout: float | None = None) -> bool:
        """Until the session is over (True), or ``timeout`` (False)."""
        return self.finished.wait(timeout)

    def stop(self) -> None:
        """Stop the tables, the server and the broker; their files stay in the folder."""
        self.stopping.set()
        for thread in self._threads:
            thread.join(35.0)
        if self.served is not None:
            self.served.stop()
        if self.broker is not None:
            self.broker.stop()


def run_rounds(services: Any, session: Any, stopping: threading.Event, *,
               say: Callable[[str], None] = print,
               on_release: Callable[[int], None] | None = None, by: str = "demo") -> bool:
    """The director at the console: start each round once every table of the round before
    has finished it. True once the last round is over, False if ``stopping`` came first.
    ``on_release(board)`` is told of the first board the release rule shows on the live
    page."""
    from server.link.rounds import start_round
    from server.link.tables import table_grid
    from server.scoring.standings import all_results, released_boards
    from server.setup.session import current

    event = session.event
    for number in range(1, session.rounds + 1):
        if stopping.is_set():
            return False
        start_round(services.db, session, number, by=by)
        services.commands_queued()
        say(f"round {number} of {session.rounds} started")
        playing = [seat for seat in session.plan.round(number)
                   if 0 not in (seat.ns, seat.ew) and seat.boards]
        wanted = {(seat.table, board) for seat in playing for board in seat.boards}
        seen = services.hub.version
        while not stopping.is_set():
            results = all_results(services.db, session)
            done = {(r.table, r.board) for r in results}
            if on_release is not None:
                released = released_boards(services.db, session, results)
                if released:
                    on_release(min(released))
                    on_release = None
            # As a director would: the next round once every table shows "round over"
            # (its last result confirmed), not while one is still confirming.
            ended = {row.table for row in table_grid(services.db, event)
                     if row.round == number and row.phase == "round_end"}
            if wanted <= done and {seat.table for seat in playing} <= ended:
                break
            seen = services.hub.wait(seen, 1.0).version
        session = current(services.db, event) or session
    return not stopping.is_set()


def play_assigned_rounds(table: Any, players: Any,
                         play_board: Callable[[int, Any], None], *,
                         until: Callable[[], bool], stopping: Callable[[], bool],
                         last_round: int | None = None,
                         numbers: Callable[[int, int], dict[Seat, int]] | None = None) -> None:
    """A simulated table's players: each round the server assigns, enter the players' numbers
    and play the round's boards (``play_board(board, assignment)``), until ``until()``; after
    ``last_round``, if given, stop by themselves. ``numbers(ns, ew)``: the players' numbers
    at each seat (default: made up from the pair numbers)."""
    last = ""
    while not until():
        if not table.daemon.wait_for(_new_round(last), 1.0):
            continue
        assignment = table.state.assignment
        last = assignment.cmd
        players.enter_players((numbers or player_numbers)(assignment.ns, assignment.ew))
        for board in assignment.boards:
            if stopping():
                return
            play_board(board, assignment)
        if last_round is not None and assignment.round >= last_round:
            return


def _new_round(last: str) -> Callable[[Any], bool]:
    """A round not played yet: an assignment of another command than the last one played (a
    table that follows the server's session may go on to round 1 of the next session)."""
    def check(state: Any) -> bool:
        return state.assignment is not None and state.assignment.cmd != last
    return check


def player_numbers(ns: int, ew: int) -> dict[Seat, int]:
    """Membership numbers for the pairs' players: pair 3's are 301 and 302."""
    return {Seat.N: 100 * ns + 1, Seat.S: 100 * ns + 2,
            Seat.E: 100 * ew + 1, Seat.W: 100 * ew + 2}
