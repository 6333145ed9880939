"""Processes a test starts: each in a session (and process group) of its own, so the test can
stop all of it, whatever it started in turn (a demo's Mosquitto, a load test's shards), on
failure too.

``spawned(...)`` is ``subprocess.Popen`` as a context manager whose exit ends the group:
SIGTERM to the group, a generous wait, then SIGKILL to what is left. ``run(...)`` is
``subprocess.run`` with the same cleanup when its timeout passes. Only the group the test
made is signalled, never a process found by name.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

GRACE = 30.0
"""Seconds a group has to stop after SIGTERM before it is killed."""


def group_members(pgid: int) -> list[int]:
    """The live processes (not zombies) of process group ``pgid``, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(entry.name))
    return found


def wait_group_gone(process: subprocess.Popen[Any], timeout: float) -> bool:
    """Until no process of ``process``'s group lives (reaping ``process`` itself)."""
    deadline = time.monotonic() + timeout
    while True:
        process.poll()
        if not group_members(process.pid):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def stop_group(process: subprocess.Popen[Any], grace: float = GRACE) -> None:
    """Stop every process of ``process``'s group: SIGTERM, then SIGKILL after ``grace``."""
    pgid = process.pid
    if group_members(pgid):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGTERM)
        if not wait_group_gone(process, grace):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pgid, signal.SIGKILL)
            wait_group_gone(process, grace)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(grace)


def end_group(process: subprocess.Popen[Any], grace: float = GRACE) -> None:
    """``stop_group``, then close the pipes to it."""
    stop_group(process, grace)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


class spawned(contextlib.AbstractContextManager["subprocess.Popen[Any]"]):
    """``Popen(args, **options)`` in a new session, started at once (so a log file passed
    to it may be closed right after); on leaving the ``with`` block, whatever of its group
    still runs is stopped (``end_group``)."""

    def __init__(self, args: Sequence[str], *, grace: float = GRACE, **options: Any) -> None:
        self.grace = grace
        self.process: subprocess.Popen[Any] = subprocess.Popen(
            args, start_new_session=True, **options)

    def __enter__(self) -> subprocess.Popen[Any]:
        return self.process

    def __exit__(self, *exc: object) -> None:
        end_group(self.process, self.grace)


class Finished(subprocess.CompletedProcess[Any]):
    """A completed process, and ``left``: the processes of its group still running when it
    ended (what it failed to stop; the clean-up has stopped them since)."""

    def __init__(self, args: Any, returncode: int, stdout: Any, stderr: Any,
                 left: list[int]) -> None:
        super().__init__(args, returncode, stdout, stderr)
        self.left = left


def run(args: Sequence[str], *, timeout: float, grace: float = GRACE, input: Any = None,
        **options: Any) -> Finished:
    """``subprocess.run(args, capture_output=True, ...)``; past ``timeout`` the whole group is
    stopped and ``subprocess.TimeoutExpired`` raised with what it printed so far."""
    if input is not None:
        options["stdin"] = subprocess.PIPE
    options.setdefault("stdout", subprocess.PIPE)
    options.setdefault("stderr", subprocess.PIPE)
    with spawned(args, grace=grace, **options) as process:
        try:
            out, err = process.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            stop_group(process, grace)
            out, err = process.communicate()
            raise subprocess.TimeoutExpired(process.args, timeout, out, err) from None
        return Finished(process.args, process.returncode, out, err,
                        group_members(process.pid))


def output_lines(process: subprocess.Popen[str]) -> queue.Queue[str | None]:
    """The lines ``process`` writes to its stdout, as they come, on a queue a test can wait on
    with a bound; None once it closes. A thread drains the pipe, so the process never blocks
    on a full one."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        try:
            for line in process.stdout:
                lines.put(line)
        except ValueError:  # the test closed the pipe on its way out
            pass
        lines.put(None)
    threading.Thread(target=pump, daemon=True).start()
    return lines
