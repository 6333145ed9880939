"""``bidbox loadtest``: N simulated tables against a private Mosquitto and the real server,
and what it measured (docs/loadtest.md).

Everything runs on this machine, on loopback, and stops by itself: at ``--seconds`` from its
start the players get up, the outboxes empty, and the figures are what there is.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "loadtest", help="many simulated tables against a real broker and server: figures",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=4, help="simulated tables (default 4)")
    parser.add_argument("--boards", type=int, default=1,
                        help="boards each table plays, in one round (default 1)")
    parser.add_argument("--speed", type=float, default=0.0,
                        help="1 = people's pace (a call every 2 s, a card every 2.5 s), "
                             "0 = as fast as the tables go (default 0)")
    parser.add_argument("--seconds", type=float, default=300.0,
                        help="the whole run's limit, start-up included (default 300)")
    parser.add_argument("--shards", type=int,
                        help="table processes (default: one for a lone table, then one per "
                             "25 tables; never more than 160 tables in one)")
    parser.add_argument("--workers", type=int, default=1,
                        help="ingest workers sharing the stream, each on its own tables; "
                             "above 1 needs --db postgresql://")
    parser.add_argument("--share", choices=("tables", "subscription"), default="tables",
                        help="how --workers share the stream: each its own tables (default), "
                             "or one MQTT v5 shared subscription")
    parser.add_argument("--compare-workers", action="store_true",
                        help="run twice, with 1 and then --workers (default 2) workers, "
                             "and show how the rate grows")
    parser.add_argument("--db", help="postgresql://... (default: a fresh SQLite file)")
    parser.add_argument("--folder", type=Path,
                        help="keep everything here (default: a temporary folder, removed)")
    parser.add_argument("--journals", type=Path,
                        help="the tables' journals here, e.g. /dev/shm: on one disk, every "
                             "table's fsync queues on one device, where each Pi has its own")
    parser.add_argument("--seed", type=int, default=2026, help="seed of deals and players")
    parser.add_argument("--analysis", action="store_true",
                        help="let the server run its double-dummy analysis (off by default)")
    parser.add_argument("--drain", type=float, default=30.0,
                        help="seconds allowed after the play for everything to be stored")
    parser.add_argument("--linger", type=float,
                        help="the ingest worker's batching window in seconds (default: the "
                             "server's, server.link.bus.LINGER)")
    parser.add_argument("--section-tables", type=int, default=25,
                        help="more tables than this play as sections of this many, each its "
                             "own Mitchell (default 25: 1000 tables are sections A to AN)")
    parser.add_argument("--table-cores", default="all",
                        help="the cores the simulated tables run on: 'all' (default: every "
                             "core, behind the server (SCHED_IDLE)), 'half' (the upper half; "
                             "the server, broker and browser keep the rest, as the "
                             "director's machine would) or a list such as '1' or '2,3'")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    replay = parser.add_argument_group(
        "replay", "record the simulated tables' streams once, then publish them again from "
        "one light process instead of simulating (docs/loadtest.md, \"Replay\")")
    replay.add_argument("--record", type=Path, metavar="FILE",
                        help="write what every simulated table published, and when, to FILE "
                             "(gzip JSON) at the end of the run")
    replay.add_argument("--replay", type=Path, metavar="FILE",
                        help="publish a --record FILE again as its tables did; --tables above "
                             "the recorded count replays copies (whole sections recorded); the "
                             "boards, seed, speed and sections are the recording's")
    replay.add_argument("--replayers", type=int, default=1,
                        help="processes publishing the replay (default 1)")
    clubs = parser.add_argument_group(
        "clubs bridged to a centre", "--clubs N: N club brokers bridged to a central one, "
        "--tables simulated tables in each replaying --records, and the centre's server "
        "(bidbox server --centre) on --db with the director's page at the centre; at "
        "--seconds from the play's start the players stop, each table finishing its board "
        "(docs/loadtest.md, docs/scale.md)")
    clubs.add_argument("--clubs", type=int,
                       help="clubs, each with its own broker bridged to the centre")
    clubs.add_argument("--cut-minutes", type=float, default=0.0,
                       help="cut the first club's link to the centre for this long")
    clubs.add_argument("--cut-after", type=float, default=5.0,
                       help="seconds from the club's first event to the cut (default 5)")
    clubs.add_argument("--records", type=Path,
                       help="the boards the clubs replay (default tests/data/pairs.pbn)")
    parser.set_defaults(run=run, extras=("table", "server"))


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
    if args.clubs is not None:
        if args.table_cores != "all" or args.workers != 1:
            print("bidbox loadtest: --table-cores and --workers are for the one-room run, "
                  "not --clubs", file=sys.stderr)
            return 2
        return run_clubs(args)
    from bidbox.loadtest import LoadSettings, LoadTestError, table_cores
    from bidbox.loadtest import run as load
    from bidbox.stopping import Stopped, stop_on_signals, warn

    try:
        cores = table_cores(args.table_cores)
        if args.replay is not None:
            replayed(args)
    except (LoadTestError, ValueError) as error:
        print(f"bidbox loadtest: {error}", file=sys.stderr)
        return 2

    def settings(workers: int, folder: Path | None) -> LoadSettings:
        return LoadSettings(tables=args.tables, boards=args.boards, speed=args.speed,
                            seconds=args.seconds, shards=args.shards, workers=workers,
                            db=args.db, folder=folder, seed=args.seed, analysis=args.analysis,
                            drain_s=args.drain, linger=args.linger,
                            journals=args.journals, section_tables=args.section_tables,
                            table_cpus=cores, record=args.record, replay=args.replay,
                            replayers=args.replayers, share=args.share)

    def note(text: str) -> None:
        print(text, file=sys.stderr if args.json else sys.stdout, flush=True)

    plan = [args.workers]
    if args.compare_workers:
        plan = [1, max(2, args.workers)]
    reports = []
    with stop_on_signals(say=warn) as signals:
        try:
            for workers in plan:
                folder = None if args.folder is None else args.folder / f"workers-{workers}"
                reports.append(load(settings(workers, folder), say=note,
                                    shield=signals.shield))
        except LoadTestError as error:
            print(f"bidbox loadtest: {error}", file=sys.stderr)
            return 2
        except Stopped as stopped:  # its broker, server and shards are stopped by now
            warn(f"bidbox loadtest: stopped by {stopped}; no figures")
            return stopped.exit_code
    if args.json:
        if len(reports) == 1:
            print(json.dumps(reports[0].figures))
        else:
            one, more = reports[0].figures, reports[-1].figures
            growth = (round(more["events_per_s"] / one["events_per_s"], 2)
                      if one["events_per_s"] and more["events_per_s"] else None)
            print(json.dumps({"runs": [r.figures for r in reports], "growth": growth}))
    else:
        for report in reports:
            print(report.text())
        if len(reports) > 1:
            one, more = reports[0].figures, reports[-1].figures
            if one["events_per_s"] and more["events_per_s"]:
                print(f"{more['workers']} workers store {more['events_per_s']} ev/s against "
                      f"{one['events_per_s']} with one: x"
                      f"{more['events_per_s'] / one['events_per_s']:.2f}")
    clean = all(r.figures["lost"] == 0 and r.figures["duplicated"] == 0 for r in reports)
    return 0 if clean else 1


def replayed(args: argparse.Namespace) -> None:
    """A replay plays the recording's session: its boards, deals (seed), pace and sections;
    ValueError (bidbox.loadtest_replay.RecordingError) if it cannot be replayed as asked."""
    from bidbox.loadtest_replay import RecordingError, read_recording, source_of

    if args.record is not None:
        raise RecordingError("--record and --replay: a replay publishes no new recording")
    if args.table_cores != "all":
        raise RecordingError("--table-cores is for simulated tables, not a replay")
    recording = read_recording(args.replay)
    args.boards, args.seed, args.speed = (recording["boards"], recording["seed"],
                                          recording["speed"])
    args.section_tables = recording["section_tables"]
    source_of(args.tables, len(recording["recorded"]), args.section_tables)


def run_clubs(args: argparse.Namespace) -> int:
    from bidbox.loadtest_clubs import RECORDS, ClubsLoadTestError, ClubsSettings
    from bidbox.loadtest_clubs import run as load
    from bidbox.stopping import Stopped, stop_on_signals, warn

    def note(text: str) -> None:
        print(text, file=sys.stderr if args.json else sys.stdout, flush=True)

    # The play's limit covers a cut and what follows it.
    seconds = args.seconds if args.cut_minutes <= 0 else max(
        args.seconds, args.cut_after + 60 * args.cut_minutes + 120)
    settings = ClubsSettings(clubs=args.clubs, tables=args.tables, boards=args.boards,
                             speed=args.speed, records=args.records or RECORDS,
                             cut_minutes=args.cut_minutes, cut_after=args.cut_after,
                             seconds=seconds, drain_s=max(args.drain, 120.0),
                             folder=args.folder, db=args.db)
    with stop_on_signals(say=warn) as signals:
        try:
            report = load(settings, say=note, shield=signals.shield)
        except ClubsLoadTestError as error:
            print(f"bidbox loadtest: {error}", file=sys.stderr)
            return 2
        except Stopped as stopped:  # its brokers and tables are stopped by now
            warn(f"bidbox loadtest: stopped by {stopped}; no figures")
            return stopped.exit_code
    print(json.dumps(report.figures) if args.json else report.text())
    f = report.figures  # every journalled event at the centre's broker and stored there once
    return 0 if f["lost"] == 0 and f["stored_lost"] == 0 and f["stored_duplicated"] == 0 else 1
