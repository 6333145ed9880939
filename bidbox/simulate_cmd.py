"""``bidbox simulate --tables N --records FILE.pbn``: N simulated tables, the real table
daemon on simulated keypads and card reader, whose players replay the records' boards.

Without ``--broker`` it starts a private Mosquitto on a free loopback port with a password per
table (docs/broker.md) and publishes there; with ``--broker URL --credentials FILE`` it uses
an existing broker and the users file that ``bidbox.broker`` wrote for it; ``--offline`` keeps
the tables off the network (the journals still hold everything). Each board's result is
checked against what ``bidbox replay`` computes for its record.

``bidbox simulate --server URL --broker URL --credentials credentials.json`` rehearses the
evening instead: one simulated table for each table of the session the director created in
the console, logged in with its provisioned password and following the server's session as a
Pi does, plays the rounds the server assigns, at people's pace (``--speed 1``, the default
there) or faster, with players who differ as a club's do, until every board has its result.
The director starts the rounds in the console, or ``--start-rounds`` does it (the director's
password in $BIDBOX_DIRECTOR_PASSWORD). ``--cafile`` is the club's CA (``bidbox provision``'s
``tables/ca.crt``), for mqtts:// and https:// alike.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from laws import RulesError
from laws.formats import load_path


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "simulate", help="simulated tables replaying recorded boards",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=4, help="number of tables (default 4)")
    parser.add_argument("--records", type=Path, help="a PBN or LIN file")
    parser.add_argument("--server", metavar="URL",
                        help="rehearse the session the director created on this server "
                             "(https://director.local): its tables, its rounds, to the end")
    parser.add_argument("--broker", help="mqtt://host:port (or mqtts://) of an existing broker")
    parser.add_argument("--credentials", type=Path,
                        help="with --broker: the users file (JSON) of bidbox.broker, or "
                             "bidbox provision's credentials.json")
    parser.add_argument("--cafile", help="the CA for mqtts:// and https:// (bidbox "
                                         "provision's tables/ca.crt)")
    parser.add_argument("--start-rounds", action="store_true",
                        help="with --server: start each round in the console once every "
                             "table has finished the one before (the director's password in "
                             "--password-env)")
    parser.add_argument("--director", default="director",
                        help="with --start-rounds: the console's user name (default director)")
    parser.add_argument("--password-env", default="BIDBOX_DIRECTOR_PASSWORD",
                        help="with --start-rounds: the environment variable holding the "
                             "director's password")
    parser.add_argument("--seed", type=int, default=2026,
                        help="with --server: the seed of the players' styles and pace")
    parser.add_argument("--offline", action="store_true", help="no MQTT at all")
    parser.add_argument("--event", default="sim", help="event name in the topics (default sim)")
    parser.add_argument("--speed", type=float, default=None,
                        help="1 = human pauses, 0 = as fast as possible (default 0; with "
                             "--server, 1)")
    parser.add_argument("--boards-per-round", type=int, default=4)
    parser.add_argument("--journals", type=Path, help="folder for the journals (default: temp)")
    parser.add_argument("--json", action="store_true", help="one JSON line per board")
    parser.set_defaults(run=run, extras=("table",))


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.ERROR, format="%(name)s %(levelname)s %(message)s")
    if args.server is not None:
        return rehearse(args)
    if args.speed is None:
        args.speed = 0.0
    if args.records is None:
        print("bidbox simulate: give --records FILE (or --server URL to rehearse a session)",
              file=sys.stderr)
        return 2
    from sim.recorded import playable

    if args.tables < 1:
        print("bidbox simulate: --tables must be at least 1", file=sys.stderr)
        return 2
    try:
        records = load_path(args.records)
    except (OSError, RulesError) as error:
        print(f"bidbox simulate: {args.records}: {error}", file=sys.stderr)
        return 2
    good, skipped = playable(records, str(args.records))
    for reason in skipped:
        print(f"skipped {reason}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="bidbox-simulate-") as scratch:
        folder = args.journals or Path(scratch) / "journals"
        folder.mkdir(parents=True, exist_ok=True)
        return _simulate(args, good, folder, Path(scratch))


def _simulate(args: argparse.Namespace, good: list[Any], folder: Path, scratch: Path) -> int:
    from bidbox.stopping import Stopped, stop_on_signals, warn

    run = _Run(args, good, folder, scratch)
    with stop_on_signals(say=warn) as signals:
        try:
            return run.play()
        except (KeyboardInterrupt, Stopped) as stopped:
            warn(f"bidbox simulate: stopped ({stopped or 'Ctrl-C'}); the journals keep what "
                 f"was played")
            return stopped.exit_code if isinstance(stopped, Stopped) else 130
        finally:
            with signals.shield():  # a stop cut short would leave the broker running
                run.stop()


class _Run:
    """What ``bidbox simulate`` starts: a private broker (unless told of one or offline) and
    the simulated tables; ``stop`` stops whatever of them was started."""

    def __init__(self, args: argparse.Namespace, good: list[Any], folder: Path,
                 scratch: Path) -> None:
        self.args = args
        self.good = good
        self.folder = folder
        self.scratch = scratch
        self.broker: Any = None
        self.simulation: Any = None

    def play(self) -> int:
        from bidbox.broker import Broker, BrokerConfig, BrokerUsers, find_mosquitto
        from mqttlink import BrokerSettings
        from sim.simulation import BoardOutcome, Simulation

        args = self.args
        broker_for: Callable[[int], BrokerSettings | None] = _offline
        if args.broker:
            if args.credentials is None:
                print("bidbox simulate: --broker needs --credentials", file=sys.stderr)
                return 2
            users = BrokerUsers.loads(args.credentials.read_text(encoding="utf-8"))
            base = BrokerSettings.from_url(args.broker)
            broker_for = _settings(base, users)
        elif not args.offline:
            if find_mosquitto() is None:
                print("bidbox simulate: mosquitto is not installed (sudo apt-get install "
                      "mosquitto), or use --offline", file=sys.stderr)
                return 2
            users = BrokerUsers.generate(args.event, range(1, args.tables + 1))
            self.broker = Broker(BrokerConfig(self.scratch / "broker", users))
            self.broker.start()
            broker_for = _settings(BrokerSettings.from_url(self.broker.url), users)
            print(f"private broker at {self.broker.url}", file=sys.stderr, flush=True)

        def report(outcome: BoardOutcome) -> None:
            if args.json:
                print(json.dumps({"table": outcome.table, "record": outcome.record,
                                  "board": outcome.board, "agrees": outcome.agrees,
                                  "result": outcome.got, "replay": outcome.expected}),
                      flush=True)
            elif not outcome.agrees:
                print(f"table {outcome.table} board {outcome.board}: {outcome.got} but "
                      f"replay says {outcome.expected}", flush=True)

        simulation = self.simulation = Simulation(
            self.good, tables=args.tables, folder=self.folder, event=args.event,
            boards_per_round=args.boards_per_round, speed=args.speed, broker_for=broker_for,
            on_result=report)
        runs = simulation.run(on_start=lambda: print(
            f"{args.tables} tables playing; Ctrl-C stops", file=sys.stderr, flush=True))
        played = sum(len(r.outcomes) for r in runs)
        wrong = sum(not o.agrees for r in runs for o in r.outcomes)
        for failed in (r for r in runs if r.error):
            print(f"table {failed.number} stopped: {failed.error}", file=sys.stderr)
        events = sum(r.events for r in runs)
        print(f"{played} boards at {args.tables} tables in {simulation.seconds:.1f} s, "
              f"{events} events; {wrong} disagree with bidbox replay", file=sys.stderr)
        return 1 if wrong or any(r.error for r in runs) else 0

    def stop(self) -> None:
        if self.simulation is not None:
            self.simulation.stop()
        if self.broker is not None:
            self.broker.stop()


def rehearse(args: argparse.Namespace) -> int:
    """``--server``: the session the director created, played by simulated tables."""
    import os

    from bidbox.broker import BrokerUsers
    from bidbox.rehearse import Rehearsal, RehearsalError, Server
    from bidbox.stopping import Stopped, say, stop_on_signals, warn
    from mqttlink import BrokerSettings

    if args.broker is None or args.credentials is None:
        warn("bidbox simulate: --server needs --broker URL and --credentials FILE (the "
             "club's credentials.json)")
        return 2
    if args.records is not None or args.offline:
        warn("bidbox simulate: --server plays the session's own deals: no --records or "
             "--offline")
        return 2
    director = None
    if args.start_rounds:
        password = os.environ.get(args.password_env)
        if not password:
            warn(f"bidbox simulate: --start-rounds needs the director's password in "
                 f"${args.password_env}")
            return 2
        director = (args.director, password)
    try:
        users = BrokerUsers.loads(args.credentials.read_text(encoding="utf-8"))
        broker = BrokerSettings.from_url(args.broker)
    except (OSError, ValueError, KeyError, TypeError) as error:
        warn(f"bidbox simulate: {error}")
        return 2
    if args.cafile:
        broker = BrokerSettings(broker.host, broker.port, broker.username, broker.password,
                                args.cafile)
    with tempfile.TemporaryDirectory(prefix="bidbox-rehearse-") as scratch:
        folder = args.journals or Path(scratch)
        rehearsal = Rehearsal(Server(args.server, cafile=args.cafile), broker, users, folder,
                              speed=1.0 if args.speed is None else args.speed, seed=args.seed,
                              start_rounds=args.start_rounds, director=director, say=say)
        with stop_on_signals(say=warn) as signals:
            try:
                rehearsal.start()
                say(f"session {rehearsal.event}: {len(rehearsal.runs)} simulated tables, "
                    f"{rehearsal.rounds} rounds; "
                    + ("the rounds start by themselves" if args.start_rounds
                       else "start each round in the console") + "; Ctrl-C stops")
                while not rehearsal.wait(1.0):
                    if rehearsal.stopping.is_set():
                        break
            except RehearsalError as error:
                warn(f"bidbox simulate: {error}")
                return 1
            except (KeyboardInterrupt, Stopped) as stopped:
                warn(f"bidbox simulate: stopped ({stopped or 'Ctrl-C'}); the journals keep "
                     "what was played")
                return stopped.exit_code if isinstance(stopped, Stopped) else 130
            finally:
                with signals.shield():
                    rehearsal.stop()
        failed = [run for run in rehearsal.runs.values() if run.error]
        if rehearsal.finished.is_set():
            say(f"the session is over: {rehearsal.summary()}")
        return 0 if rehearsal.finished.is_set() and not failed and not rehearsal.error else 1


def _offline(table: int) -> None:
    return None


def _settings(base: Any, users: Any) -> Callable[[int], Any]:
    from mqttlink import BrokerSettings

    def settings(table: int) -> BrokerSettings:
        credentials = users.table(table)
        return BrokerSettings(base.host, base.port, credentials.username, credentials.password,
                              base.cafile)
    return settings
