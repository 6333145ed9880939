"""How long registering one RFID deck takes: today's prompted routine of
``python3 -m hardware.register`` (the baseline) against the sorted one (``--sorted``), both
measured in the same run. ``python3 -m bench.register [--decks N]`` prints the figures and the
ratios.

Two parts make a deck's time:

1. The person, by a keystroke-level model with the times below (a person cannot be timed here).
2. The machine, measured: the real ``hardware.register.main`` reads each routine's deck from a
   card reader on a pty, in the card reader's serial protocol, with the person's terminal on a
   pipe. A card's time runs from its ``T`` line written to the reader's pty until the terminal
   shows what the person waits for (the next prompt; the bell and the card's name). The two
   routines alternate, deck by deck, so both see the same machine.

Assumptions of the model (seconds; the KLM figures of Card, Moran and Newell for reading and
deciding, a reach-and-place for a card, the firmware's numbers for the reader):

- read a short line on the screen, after moving the eyes to it: 1.2 (M 1.35 less the glance
  already made);
- check that the top card is the one asked for: 0.5;
- put a card on the reader's slot: 0.6; take it off onto the pile: 0.5;
- the reader: polled every 0.05 s, a card is sent at the first poll that sees it (mean 0.025
  s; tests/firmware/test_deck_stream.py bounds it at 0.075 s on a free reader);
- hear a bell and go on: 0.25 (a simple reaction time);
- both routines start from a deck sorted by suit (C2..CA, D2..DA, H2..HA, S2..SA): sorting a
  shuffled deck takes the same time in both and is left out.

Prompted: per card, read the prompt, check the card, place it, wait for the read, read the
result line (which is also the next prompt, so counted once), take it off. Sorted: per card,
place it, hear the bell, take it off; one look at the screen per suit; one answer at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from bench.bare import BenchError, Spread
from hardware.protocol import TagRead, encode

READ_LINE = 1.2
CHECK_CARD = 0.5
PLACE = 0.6
REMOVE = 0.5
READER = 0.025
BELL = 0.25
CONFIRM = 3.0
TIMEOUT = 10.0  # seconds one card may take before the bench gives up


def prompted(machine: float = 0.0) -> float:
    """Seconds a deck takes by the prompted routine, ``machine`` seconds a card on top."""
    return 52 * (READ_LINE + CHECK_CARD + PLACE + READER + machine + REMOVE)


def sorted_stream(machine: float = 0.0) -> float:
    """Seconds a deck takes by the sorted routine, ``machine`` seconds a card on top."""
    return 52 * (PLACE + READER + machine + BELL + REMOVE) + 4 * READ_LINE + CONFIRM


class _Screen:
    """Standard output while a registration runs: what it printed, and a wait for a text."""

    def __init__(self) -> None:
        self.text = ""
        self.changed = threading.Condition()

    def write(self, data: str) -> int:
        with self.changed:
            self.text += data
            self.changed.notify_all()
        return len(data)

    def flush(self) -> None:
        pass

    def wait_for(self, text: str, start: int) -> int:
        """Until ``text`` shows after position ``start``; where it ends."""
        deadline = time.monotonic() + TIMEOUT
        with self.changed:
            while (found := self.text.find(text, start)) < 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BenchError(f"the terminal never showed {text!r}")
                self.changed.wait(left)
        return found + len(text)


def one_deck(sorted_deck: bool, prefix: int, folder: Path) -> list[float]:
    """Register one deck through ``hardware.register.main``; each card's machine time."""
    from hardware import register

    master, slave = os.openpty()
    keys_r, keys_w = os.pipe()
    keys = os.fdopen(keys_r)
    screen = _Screen()
    result: list[int] = []
    tags = [f"{prefix:04X}{n:04X}" for n in range(52)]  # 8 hex digits for any deck count
    argv = [os.ttyname(slave), "--tags", str(folder / f"tags-{prefix}.json"), "--deck", "bench",
            "--timeout", str(TIMEOUT), *(["--sorted", "--yes"] if sorted_deck else [])]
    times: list[float] = []
    try:
        with contextlib.redirect_stdout(screen):
            thread = threading.Thread(
                target=lambda: result.append(register.main(argv, terminal=keys)), daemon=True)
            thread.start()
            question = b""
            while not question.endswith(b"\n"):  # the reader's ?V: it is listening
                ready, _, _ = select.select([master], [], [], TIMEOUT)
                if not ready:
                    raise BenchError("the registration never opened the reader")
                question += os.read(master, 64)
            seen = 0
            for n, tag in enumerate(tags):
                card = register.ORDER[n]
                after = (f"\a{card}" if sorted_deck
                         else f"{card} = {tag}; " + ("all 52 in" if n == 51 else "scan"))
                start = time.perf_counter()
                os.write(master, encode(TagRead(tag)))
                seen = screen.wait_for(after, seen)
                times.append(time.perf_counter() - start)
            thread.join(TIMEOUT)
        if result != [0]:
            raise BenchError(f"the registration ended with {result}: {screen.text[-300:]!r}")
    finally:
        os.close(keys_w)  # first: the registration's terminal thread reads to the end
        keys.close()
        os.close(master)
        os.close(slave)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m bench.register", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", type=int, default=4, help="decks of each routine (4)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="go on with more decks of each until this many seconds pass")
    args = parser.parse_args(argv)
    measured: dict[bool, list[float]] = {False: [], True: []}
    began = time.monotonic()
    decks = 0
    with tempfile.TemporaryDirectory(prefix="bench-register-") as folder:
        while decks < args.decks or (args.seconds is not None
                                     and time.monotonic() - began < args.seconds):
            for sorted_deck in (False, True):  # alternating: both see the same machine
                measured[sorted_deck] += one_deck(sorted_deck, 2 * decks + sorted_deck,
                                                  Path(folder))
            decks += 1
    base, fast = Spread.of(measured[False]), Spread.of(measured[True])
    today, faster = prompted(base.p50), sorted_stream(fast.p50)
    print(f"deck registration, 52 cards, {decks} decks of each routine")
    print("  machine, T line to what the person waits for (measured, hardware.register on a pty):")
    print(f"    prompted (baseline):  {base.ms()}")
    print(f"    sorted:               {fast.ms()}")
    print(f"    ratio sorted / prompted at p50: {fast.p50 / base.p50:6.2f}")
    print("  a person's deck (model; see the module's assumptions) with the measured p50 added:")
    print(f"    prompted (baseline):  {today:6.1f} s  ({today / 52:.2f} s a card)")
    print(f"    sorted, in one pass:  {faster:6.1f} s  ({faster / 52:.2f} s a card)")
    print(f"    ratio prompted / sorted:  {today / faster:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
