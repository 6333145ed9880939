"""Every signal that ends a long-running command stops everything the command started.

Each command runs as a user runs it, in a session of its own. Once it is busy (its broker up,
its tables playing), it gets SIGTERM on its PID alone (``kill PID``, ``systemctl stop``), or
SIGHUP on its whole process group, as the kernel sends it when the terminal closes (Mosquitto
takes SIGHUP as "reload" and would stay). Then it must end by itself, in time, with no process
of its group left: the test looks before its own clean-up of the group.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bidbox.broker import find_mosquitto
from bidbox.provision import Deployment, find_openssl, make_certificates
from tests.processes import group_members, output_lines, spawned
from tests.records import played_pbn

QUALIFIER = played_pbn()  # the real qualifier, or the golden pairs session
READY = 120.0  # seconds to get busy, on a loaded machine
STOP = 90.0    # seconds to stop: tables, server, broker, one after the other
SIGNALS = [pytest.param(signal.SIGTERM, "pid", id="SIGTERM-to-pid"),
           pytest.param(signal.SIGHUP, "group", id="SIGHUP-to-group")]

needs_mosquitto = pytest.mark.skipif(find_mosquitto() is None,
                                     reason="no mosquitto: scripts/setup.py installs it")


def _until(lines: queue.Queue[str | None], ready: Callable[[str], bool],
           seen: list[str]) -> None:
    deadline = time.monotonic() + READY
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "not busy in time:\n" + "".join(seen)
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            continue
        assert line is not None, "it ended before it was busy:\n" + "".join(seen)
        seen.append(line)
        if ready(line):
            return


def stopped_by(signum: int, target: str, args: list[str], ready: Callable[[str], bool],
               *, stdin: bool = False) -> tuple[int, str]:
    """Run ``bidbox ARGS`` until a line satisfies ``ready``, signal it, and wait for it to
    end; its exit code and what it printed. Fails if any process of its group is left."""
    seen: list[str] = []
    with spawned([sys.executable, "-m", "bidbox", *args],
                 stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                 env={**os.environ, "PYTHONUNBUFFERED": "1"}) as process:
        lines = output_lines(process)
        _until(lines, ready, seen)
        busy = group_members(process.pid)
        if target == "pid":
            process.send_signal(signum)
        else:
            os.killpg(process.pid, signum)
        try:
            code = process.wait(timeout=STOP)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {STOP} s after {signal.Signals(signum).name}:\n"
                        + "".join(seen))
        left = group_members(process.pid)
        while (line := lines.get(timeout=STOP)) is not None:
            seen.append(line)
        assert not left, (f"left running after {signal.Signals(signum).name}: {left} "
                          f"(of {busy}):\n" + "".join(seen))
    return code, "".join(seen)


@needs_mosquitto
@pytest.mark.parametrize(("signum", "target"), SIGNALS)
def test_the_demo_stops_its_broker_server_and_tables(signum: int, target: str,
                                                     tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    code, out = stopped_by(signum, target, [
        "demo", "--tables", "3", "--rounds", "1", "--speed", "1", "--port", "0",
        "--folder", str(folder)], lambda line: "round 1 of 1 started" in line)
    assert code == 0, out
    assert "stopped: broker, server and tables" in out
    # Mosquitto was stopped, not killed: it saved its persistence on the way out.
    assert (folder / "broker" / "data" / "mosquitto.db").exists(), out


@needs_mosquitto
@pytest.mark.parametrize(("signum", "target"), SIGNALS)
def test_simulate_stops_its_broker_and_tables(signum: int, target: str,
                                              tmp_path: Path) -> None:
    journals = tmp_path / "journals"
    code, out = stopped_by(signum, target, [
        "simulate", "--tables", "2", "--records", str(QUALIFIER), "--speed", "1",
        "--journals", str(journals)], lambda line: "tables playing" in line)
    assert code == 128 + signum, out
    assert "stopped" in out
    assert sorted(p.name for p in journals.glob("table-*.db")) == ["table-1.db", "table-2.db"]


@needs_mosquitto
@pytest.mark.parametrize(("signum", "target"), SIGNALS)
def test_loadtest_stops_its_broker_server_and_shards(signum: int, target: str,
                                                     tmp_path: Path) -> None:
    code, out = stopped_by(signum, target, [
        "loadtest", "--tables", "3", "--boards", "1", "--speed", "1", "--seconds", "600",
        "--folder", str(tmp_path / "run")], lambda line: "tables online" in line)
    assert code == 128 + signum, out
    assert "no figures" in out


@pytest.mark.parametrize(("signum", "target"), SIGNALS)
def test_the_server_stops_and_closes_its_port(signum: int, target: str,
                                              tmp_path: Path) -> None:
    code, out = stopped_by(signum, target, [
        "server", "--db", str(tmp_path / "club.db"), "--port", "0", "--threads", "4"],
        lambda line: "director console:" in line)
    assert code == 0, out


@pytest.mark.parametrize(("signum", "target"), SIGNALS)
def test_the_server_over_tls_stops_and_closes_both_ports(signum: int, target: str,
                                                         tmp_path: Path) -> None:
    for sub in ("ca", "broker", "web"):
        (tmp_path / sub).mkdir()
    make_certificates(Deployment(event="club", tables=1, broker_hosts=("127.0.0.1",)),
                      tmp_path / "ca", tmp_path / "broker", find_openssl(),
                      web_dir=tmp_path / "web")
    code, out = stopped_by(signum, target, [
        "server", "--db", str(tmp_path / "club.db"), "--port", "0", "--http-port", "0",
        "--threads", "4", "--tls-cert", str(tmp_path / "web/server.crt"),
        "--tls-key", str(tmp_path / "web/server.key")],
        lambda line: "plain http:" in line)
    assert code == 0, out


@pytest.mark.parametrize(("signum", "target"), SIGNALS)
def test_a_simulated_table_stops_and_closes_its_journal(signum: int, target: str,
                                                        tmp_path: Path) -> None:
    journal = tmp_path / "table.db"
    code, out = stopped_by(signum, target, [
        "table", "--sim", "--journal", str(journal)],
        lambda line: "quit" in line, stdin=True)
    assert code == 0, out
    # Closed cleanly: SQLite folded its write-ahead log back into the journal.
    assert journal.exists() and not Path(f"{journal}-wal").exists(), out
