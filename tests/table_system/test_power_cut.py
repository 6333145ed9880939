"""A table that loses power comes back exactly where it was (issue: the event log).

The child process plays recorded boards on a simulated table; we kill it with SIGKILL at
many random moments and start it again on the same journal. After each kill, every event the
child had reported as committed is in the journal unchanged, the journal replays, and the
state at the last reported event is the state the child reported. At the end the journal is
the one an uninterrupted run writes.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from tabled.daemon import snapshot
from tabled.journal import Journal
from tablemodel.state import TableState
from tests.processes import spawned

# Run as a module from this checkout, so the child runs this tree's code whatever else an
# installed bidbox would put on its path.
CHILD = "tests.table_system.crash_child"
ROOT = Path(__file__).resolve().parents[2]
BOARDS = 4
KILLS = 20
TIMEOUT = 60


def start(journal: Path, records: Path) -> AbstractContextManager[subprocess.Popen[str]]:
    return spawned([sys.executable, "-m", CHILD, str(journal), str(records), str(BOARDS)],
                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)


def run_until(child: subprocess.Popen[str], seq: int | None,
              reported: dict[int, dict[str, Any]]) -> bool:
    """Read the child's reports until event ``seq`` (None: to the end); True if done."""
    assert child.stdout is not None
    for line in child.stdout:
        if line.strip() == "done":
            return True
        report = json.loads(line)
        reported[report["seq"]] = report
        if seq is not None and report["seq"] >= seq:
            return False
    return False


def content(journal: Path) -> list[tuple[int, str, Any]]:
    store = Journal(journal)
    try:
        return [(e.seq, e.type, e.data) for e in store.events()]
    finally:
        store.close()


def test_power_cut_at_many_points(tmp_path: Path, played_records: Path) -> None:
    records = played_records
    reference = tmp_path / "reference.db"
    with start(reference, records) as child:
        assert run_until(child, None, {})
        assert child.wait(TIMEOUT) == 0
    expected = content(reference)
    assert len(expected) > 250

    journal = tmp_path / "table.db"
    points = sorted(random.Random(20261121).sample(range(1, len(expected)), KILLS))
    reported: dict[int, dict[str, Any]] = {}
    kills = 0
    for point in points:
        if reported and max(reported) >= point:
            continue  # the last run went past this point before the kill landed
        with start(journal, records) as child:
            done = run_until(child, point, reported)
            child.send_signal(signal.SIGKILL)
            child.wait(TIMEOUT)
        kills += 1
        assert not done
        events = content(journal)
        assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1))
        for seq, report in reported.items():  # nothing committed is lost or changed
            assert events[seq - 1] == (seq, report["type"], report["data"])
        store = Journal(journal)
        try:
            last = max(reported)
            state = TableState.replay(store.events(0, last))
            assert snapshot(state) == reported[last]["snapshot"]
            TableState.replay(store.events())  # the whole journal replays too
        finally:
            store.close()

    assert kills >= KILLS * 3 // 4

    with start(journal, records) as child:
        assert run_until(child, None, reported)
        assert child.wait(TIMEOUT) == 0
    assert [(t, d) for _, t, d in content(journal)] == [(t, d) for _, t, d in expected]
