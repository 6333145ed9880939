"""``bidbox``: the command line. Each subcommand lives in its own module and is imported
only when it runs, so ``bidbox replay`` on a laptop needs nothing but the laws engine."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bidbox import (
    demo_cmd,
    loadtest_cmd,
    provision_cmd,
    replay_cmd,
    report_cmd,
    score_cmd,
    server_cmd,
    simulate_cmd,
    table_cmd,
)
from bidbox.extras import advice
from bidbox.stopping import Stopped


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bidbox", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    replay_cmd.add_parser(commands)
    score_cmd.add_parser(commands)
    table_cmd.add_parser(commands)
    simulate_cmd.add_parser(commands)
    server_cmd.add_parser(commands)
    demo_cmd.add_parser(commands)
    provision_cmd.add_parser(commands)
    loadtest_cmd.add_parser(commands)
    report_cmd.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    lacking = advice(args.command, getattr(args, "extras", ()))
    if lacking is not None:
        print(lacking, file=sys.stderr)
        return 2
    try:
        code: int = args.run(args)
    except BrokenPipeError:  # `bidbox replay ... | head`
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Stopped as stopped:  # a signal during a stop: the stop was finished first
        return stopped.exit_code
    return code
