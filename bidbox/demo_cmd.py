"""``bidbox demo``: a club session on this machine, with nothing to set up.

Starts a private Mosquitto (a password per table, the ACL, persistence), the server on a SQLite
file, and simulated tables playing a barometer (or a Mitchell); prints the addresses of the
live results and the director console with the director's password. Ctrl-C stops everything
it started; the journals, the database and the broker's persistence stay in the demo's folder.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path
from typing import Any


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "demo", help="broker, server and simulated tables playing a session, on this machine",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=6, help="simulated tables (default 6)")
    parser.add_argument("--boards-per-round", type=int,
                        help="default 2 (with --records up to 3, as the file allows)")
    parser.add_argument("--rounds", type=int, help="rounds to play (default: at most 3)")
    parser.add_argument("--movement", choices=("barometer", "mitchell"), default="barometer",
                        help="barometer (the default: every table plays the same boards each "
                             "round, seated as a Mitchell, so a board reaches the live page as "
                             "soon as every table has played it) or mitchell (boards move "
                             "between tables and are released after the last round)")
    parser.add_argument("--records", type=Path,
                        help="a PBN file: the tables replay its auctions and play")
    parser.add_argument("--speed", type=float, default=0.25,
                        help="1 = people's pace, 0 = as fast as possible (default 0.25)")
    parser.add_argument("--port", type=int, default=8000, help="the web server's port")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals and players")
    parser.add_argument("--language", choices=("es", "en"), default="es")
    parser.add_argument("--folder", type=Path, help="where everything is kept (default: temp)")
    parser.add_argument("--screens", choices=("NE-SW", "NW-SE"),
                        help="play behind screens, North with East (NE-SW) or with West")
    parser.add_argument("--profile", choices=("feb", "feb-self"), default="feb",
                        help="alert profile: the federation's (partner alerts, the default) "
                             "or self-alerting")
    parser.add_argument("--exit-when-done", action="store_true",
                        help="stop by itself once the session is over")
    parser.set_defaults(run=run, extras=("table", "server"))


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
    # The simulated tables' own notes (a reader closed at the stop) are noise here; their
    # errors still show.
    logging.getLogger("bidbox.table").setLevel(logging.ERROR)
    from bidbox.demo import Demo, DemoError, DemoSettings
    from bidbox.stopping import Stopped, say, stop_on_signals

    settings = DemoSettings(tables=args.tables, boards_per_round=args.boards_per_round,
                            rounds=args.rounds, records=args.records, speed=args.speed,
                            movement=args.movement,
                            port=args.port, seed=args.seed, language=args.language,
                            folder=args.folder, screens=args.screens, profile=args.profile)
    demo = Demo(settings, say=say)
    with stop_on_signals(say=say) as signals:
        try:
            try:
                demo.start()
            except (DemoError, OSError) as error:
                print(f"bidbox demo: {error}", file=sys.stderr)
                return 2
            say(f"live results:     {demo.address}/")
            say(f"director console: {demo.address}/console/  (user director, password "
                f"{demo.password})")
            say(f"everything is kept in {demo.folder}; Ctrl-C stops")
            say("a board reaches the live page once every table that plays it has finished it")
            while not demo.wait(1.0):
                pass
            if not args.exit_when_done:
                say("the session is over; the pages stay up until Ctrl-C")
                while True:
                    time.sleep(3600)
        except KeyboardInterrupt:
            say("stopping")
        except Stopped as signal:
            say(f"stopping ({signal})")
        finally:
            with signals.shield():  # a stop cut short would leave the broker running
                demo.stop()
                say("stopped: broker, server and tables")
    # Ctrl-C, SIGTERM (systemd, `kill`) and SIGHUP ask for a stop: a clean one succeeds.
    errors = [run for run in demo.runs.values() if run.error]
    return 1 if errors else 0
