"""Replay throughput: records per second through bidbox's reader and laws engine, against
endplay's PBN reader on the same file in the same run (the baseline).

    python3 -m bench.replay [FILE] [--seconds S]

bidbox's figure is the whole of ``bidbox replay``'s work per record (read the PBN, replay every
call and card through the auction and the play, score); endplay's is parsing only.
"""

from __future__ import annotations

import argparse
import gc
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

DEFAULT = (Path(__file__).resolve().parents[2] / "shared" / "data" / "records"
           / "realbridge-2021-online-qual-r2.pbn")


def rate(work: Callable[[], int], seconds: float) -> float:
    """Records per second: the best of repeated runs filling ``seconds``, on one core."""
    work()  # warm up
    best = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        gc.collect()
        start = time.perf_counter()
        count = work()
        elapsed = time.perf_counter() - start
        best = max(best, count / elapsed)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    if not args.file.exists():
        print(f"no such file: {args.file}", file=sys.stderr)
        return 2
    from laws import pbn
    from laws.replay import replay

    data = args.file.read_bytes()

    def ours_parse() -> int:
        return len(pbn.loads(data))

    def ours_replay() -> int:
        results = [replay(record) for record in pbn.loads(data)]
        return len(results)

    figures = {"bidbox read+replay": rate(ours_replay, args.seconds),
               "bidbox read only": rate(ours_parse, args.seconds)}
    try:
        from endplay.parsers import pbn as endplay_pbn
    except ImportError:
        print("endplay is not installed: no baseline (pip install endplay)", file=sys.stderr)
        baseline = None
    else:
        text = data.decode("utf-8", errors="replace")

        def theirs() -> int:
            return len(endplay_pbn.load(io.StringIO(text)))

        baseline = rate(theirs, args.seconds)
        figures["endplay read only (baseline)"] = baseline
    print(f"file: {args.file.name}")
    for name, value in figures.items():
        ratio = f"  x{value / baseline:.2f} of baseline" if baseline else ""
        print(f"  {name:32s} {value:9.0f} records/s{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
