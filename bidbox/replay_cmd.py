"""``bidbox replay [--json] FILE...``: every record replayed through the laws engine."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any, TextIO

from laws.errors import RulesError
from laws.formats import load_path
from laws.replay import ReplayResult, replay

PROGRESS_FROM = 200  # records; smaller files finish before a bar would help


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "replay", help="replay PBN and LIN records through the laws engine",
        description="Replay every record (one line per table result) through the laws "
                    "engine and report whether its auction, contract, play and result agree.")
    parser.add_argument("files", nargs="+", metavar="FILE", help="PBN or LIN files")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="a progress bar on stderr (default: for large files on a terminal)")
    parser.set_defaults(run=run)


class Progress:
    """A plain progress bar on stderr, redrawn at most a hundred times."""

    def __init__(self, label: str, total: int, stream: TextIO) -> None:
        self.label, self.total, self.stream = label, max(total, 1), stream
        self.shown = -1

    def update(self, done: int) -> None:
        percent = done * 100 // self.total
        if percent == self.shown:
            return
        self.shown = percent
        filled = percent * 30 // 100
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] "
                          f"{done}/{self.total}")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _first_line(path: str) -> str:
    """"; its first line reads ..." for the refusal, or nothing for an empty file."""
    with open(path, "rb") as f:
        head = f.read(4096)
    if b"\0" in head:
        return " (it is not text)"
    for line in head.decode("utf-8", "replace").splitlines():
        if line.strip():
            return f"; its first line reads {line.strip()[:60]!r}"
    return " (it is empty)"


def summary_line(result: ReplayResult) -> str:
    board = f"board {result.board}" if result.board is not None else "board ?"
    contract = result.contract or "?"
    by = f" by {result.declarer}" if result.declarer else ""
    tricks = f", {result.tricks} tricks" if result.tricks is not None else ""
    score = f", NS {result.score_ns:+d}" if result.score_ns is not None else ""
    status = "ok" if result.ok else "PROBLEM: " + "; ".join(result.problems)
    return f"{result.index:4d} {board}: {contract}{by}{tricks}{score}  {status}"


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    totals: Counter[str] = Counter()
    unreadable_files = 0
    for path in args.files:
        try:
            records = load_path(path)
        except (OSError, RulesError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            print(f"bidbox replay: {path}: {reason}", file=sys.stderr)
            unreadable_files += 1
            continue
        if not records:
            # PBN and LIN readers skip what they cannot read: nothing read is no record file.
            print(f"bidbox replay: {path}: not a record file: no PBN game or LIN record in "
                  f"it{_first_line(path)}", file=sys.stderr)
            unreadable_files += 1
            continue
        show = args.progress if args.progress is not None else (
            not args.json and len(records) >= PROGRESS_FROM and sys.stderr.isatty())
        progress = Progress(path, len(records), sys.stderr) if show else None
        if not args.json:
            print(f"{path}:", file=out)
        for done, record in enumerate(records, 1):
            result = replay(record, path)
            totals["ok" if result.ok else "problem"] += 1
            if args.json:
                out.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
            else:
                print(summary_line(result), file=out)
            if progress is not None:
                progress.update(done)
    if not args.json:
        print(f"{totals['ok'] + totals['problem']} records: {totals['ok']} ok, "
              f"{totals['problem']} with problems", file=out)
    return 2 if unreadable_files else 0
