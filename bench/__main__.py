"""Run every benchmark in turn; ``--seconds S`` is passed to each. The last, bench.backlog,
needs PostgreSQL (``BIDBOX_TEST_PG``, or the local trust login)."""

import argparse
import sys

from bench import backlog, console_rows, ingest, register, replay, table

parser = argparse.ArgumentParser(prog="python3 -m bench", description=__doc__)
parser.add_argument("--seconds", type=float, default=None)
args = parser.parse_args()
shared = [] if args.seconds is None else ["--seconds", str(args.seconds)]
status = 0
for number, bench in enumerate((replay, table, ingest, console_rows, register, backlog)):
    if number:
        print()
    status = max(status, bench.main(shared))
sys.exit(status)
