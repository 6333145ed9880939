"""The knee: the most tables for which the server's part of a key press's way (at the broker
-> on the director's page, for the tables the page shows; at the broker -> stored, for every
table) stays under 250 ms at p99, with nothing lost or stored twice, at
a club's pace, from a recording of real simulated tables replayed (``bidbox loadtest
--replay``: the tables cost the machine almost nothing).

    python3 -m bench.knee --replay club.json.gz [--tables 1000,2000,3000,4000,5000]
        [--db sqlite | --db postgresql://ADMIN-URL] [--workers 1] [--share tables]
        [--seconds 150] [--json]

Each size is one ``bidbox loadtest --replay`` run (broker, server, replayer, bare subscriber
and director's browser, all on loopback), cut at ``--seconds`` from its start: the start-up,
the players sitting down, the scan of the deal at the round's start (the peak) and the
auction after it. On PostgreSQL each run gets a fresh database, created on the admin URL
and dropped afterwards. The sizes go up until one misses the aim (``--all`` plays every
size); the knee is the largest that met it.

Each line gives the same run's baseline beside the server's figures: a bare paho subscriber
to the same stream (its rate, and the ingest's rate against it), and the tables' part of the
way (key press -> at the broker, i.e. the recording's own acceptance plus how late the
replayer published). The machine's load (``os.getloadavg``) is read before and after each
run: the figures are the machine's as much as the code's when it is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

AIM_MS = 250.0


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def _database(admin: str | None) -> str | None:
    if admin is None:
        return None
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"bidbox_knee_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return str(make_url(admin).set(database=name).render_as_string(hide_password=False))


def _drop(admin: str | None, url: str | None) -> None:
    if admin is None or url is None:
        return
    import psycopg
    from sqlalchemy.engine import make_url

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')


def one(replay: Path, tables: int, admin: str | None, workers: int,
        seconds: float, replayers: int, share: str = "tables") -> dict[str, Any]:
    from bidbox.loadtest import LoadSettings, LoadTestError, run
    from bidbox.loadtest_replay import read_recording

    recording = read_recording(replay)
    before = _load()
    url = _database(admin)
    try:
        settings = LoadSettings(
            tables=tables, boards=recording["boards"], speed=recording["speed"],
            seed=recording["seed"], section_tables=recording["section_tables"],
            seconds=seconds, workers=workers, share=share, db=url, replay=replay,
            replayers=replayers, drain_s=60.0)
        started = time.monotonic()
        try:
            f = run(settings).figures
        except LoadTestError as error:
            return {"tables": tables, "error": str(error), "load_before": before,
                    "load_after": _load(), "met": False,
                    "elapsed_s": round(time.monotonic() - started, 1)}
    finally:
        _drop(admin, url)
    served = f["served_ms_p99"]
    ingested = f["ingested_ms_p99"]
    # Within the aim: the events of the tables on the director's page reach it, and every
    # table's reach the database, within AIM_MS at p99; nothing lost, nothing twice.
    met = (served is not None and served < AIM_MS and ingested is not None
           and ingested < AIM_MS and f["lost"] == 0 and f["duplicated"] == 0
           and f["stored"] > 0)
    return {"tables": tables, "met": met, "load_before": before, "load_after": _load(),
            **{k: f[k] for k in (
                "stored", "lost", "duplicated", "events_per_s", "bare_events_per_s",
                "ingest_ratio", "served_ms_p50", "served_ms_p99", "served_n",
                "ingested_ms_p50", "ingested_ms_p99", "page_tables", "seated_fetches",
                "seated_fetch_ms_p50", "brought_ms_p50",
                "brought_ms_p99", "page_latency_ms_p99", "replay_late_ms_p99",
                "carried_ms_p50", "carried_ms_p99", "shown_ms_p50", "shown_ms_p99",
                "assign_wait_ms_p99",
                "page_fetches", "page_full_fetches", "page_fetch_ms_p50", "server",
                "broker", "shards_cpu", "replayer_rss_mb", "elapsed_s", "workers",
                "database", "peak_events_per_s", "bare_peak_events_per_s")}}


def line(r: dict[str, Any]) -> str:
    if "error" in r:
        return (f"{r['tables']:>6} tables: failed ({r['error'][:200]}); load {r['load_before']}"
                f" -> {r['load_after']}")
    server = r["server"]["cpu_percent"]
    return (f"{r['tables']:>6} tables: {'MET' if r['met'] else 'not met'}; stored "
            f"{r['stored']} (lost {r['lost']}, dup {r['duplicated']}); {r['events_per_s']} "
            f"ev/s against the bare subscriber's {r['bare_events_per_s']} (ratio "
            f"{r['ingest_ratio']}; busiest 10 s {r['peak_events_per_s']} against "
            f"{r['bare_peak_events_per_s']} ev/s); server's part p50/p99 {r['served_ms_p50']} / "
            f"{r['served_ms_p99']} ms on the page's {r['page_tables']} tables, at the broker ->"
            f" stored p50/p99 {r['ingested_ms_p50']} / {r['ingested_ms_p99']} ms on every "
            f"table (of which stored -> page p50/p99 {r['shown_ms_p50']} / "
            f"{r['shown_ms_p99']} ms; accepted -> stored p50/p99 {r['carried_ms_p50']} / "
            f"{r['carried_ms_p99']} ms); tables' part (baseline) p50/p99 {r['brought_ms_p50']}"
            f" / {r['brought_ms_p99']} ms, replayer late p99 {r['replay_late_ms_p99']} ms; "
            f"server CPU {server} %, replayer CPU {r['shards_cpu']['cpu_percent']} %; "
            f"{r['page_fetches']} page fetches ({r['page_full_fetches']} whole), p50 "
            f"{r['page_fetch_ms_p50']} ms; load {r['load_before']} -> {r['load_after']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m bench.knee", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replay", type=Path, required=True,
                        help="a recording (bidbox loadtest --record FILE)")
    parser.add_argument("--tables", default="1000,2000,3000,4000,5000",
                        help="the sizes, in order (default %(default)s)")
    parser.add_argument("--db", default="sqlite",
                        help="'sqlite' (a fresh file each run) or a PostgreSQL admin URL "
                             "allowed to create and drop databases")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--share", choices=("tables", "subscription"), default="tables",
                        help="how the workers share the stream (bidbox loadtest --share)")
    parser.add_argument("--replayers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=150.0,
                        help="each run's limit, start-up included (default %(default)s)")
    parser.add_argument("--all", action="store_true", help="every size, past a miss too")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    admin = None if args.db == "sqlite" else args.db
    sizes = [int(x) for x in args.tables.split(",")]
    print(f"bench.knee: {args.replay.name}, {'SQLite' if admin is None else 'PostgreSQL'}, "
          f"{args.workers} worker(s), {os.cpu_count()} cores, load {_load()}", flush=True)
    results = []
    for tables in sizes:
        result = one(args.replay, tables, admin, args.workers, args.seconds, args.replayers,
                     args.share)
        results.append(result)
        print(line(result), flush=True)
        if not result["met"] and not args.all:
            break
    met = [r["tables"] for r in results if r["met"]]
    knee = max(met, default=None)
    print(f"knee: {knee if knee is not None else 'below ' + str(sizes[0])} tables "
          f"(server's part p99 < {AIM_MS:.0f} ms to the director's page and to the database,"
          f" nothing lost or doubled)")
    if args.json:
        print(json.dumps({"knee": knee, "runs": results}))
    return 0 if all(r.get("lost", 1) == 0 and r.get("duplicated", 1) == 0
                    for r in results if "error" not in r) else 1


if __name__ == "__main__":
    sys.exit(main())
