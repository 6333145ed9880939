"""How long registering one RFID deck takes a person: the prompted routine of
``python3 -m hardware.register`` against the sorted one (``--sorted``), by a model of the
steps (keystroke-level, with the times below), plus the host's own time per card measured on
the real ``DeckRegistration``. ``python3 -m bench.register`` prints the figures and the ratio.

Assumptions (seconds; the KLM figures of Card, Moran and Newell for reading and deciding, a
reach-and-place for a card, the firmware's numbers for the reader):

- read a short line on the screen, after moving the eyes to it: 1.2 (M 1.35 less the glance
  already made);
- check that the top card is the one asked for: 0.5;
- put a card on the reader's slot: 0.6; take it off onto the pile: 0.5;
- the reader: polled every 0.05 s, a card is sent at the first poll that sees it (mean 0.025
  s), then a few milliseconds over USB;
- hear a bell and go on: 0.25 (a simple reaction time);
- both routines start from a deck sorted by suit (C2..CA, D2..DA, H2..HA, S2..SA): sorting a
  shuffled deck takes the same time in both and is left out.

Prompted: per card, read the prompt, check the card, place it, wait for the read, read the
result line (which is also the next prompt, so counted once), take it off. Sorted: per card,
place it, hear the bell, take it off; one look at the screen per suit; one confirmation.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

READ_LINE = 1.2
CHECK_CARD = 0.5
PLACE = 0.6
REMOVE = 0.5
READER = 0.025 + 0.005
BELL = 0.25
CONFIRM = 3.0


def prompted() -> float:
    return 52 * (READ_LINE + CHECK_CARD + PLACE + READER + REMOVE)


def sorted_stream() -> float:
    return 52 * (PLACE + READER + BELL + REMOVE) + 4 * READ_LINE + CONFIRM


def host_seconds_per_card(rounds: int = 200) -> float:
    """The real registration logic's time for one deck's 52 tags, per card."""
    from hardware.register import DeckRegistration
    from hardware.tags import TagTable

    tags = [f"04{i:06X}" for i in range(52)]
    start = time.perf_counter()
    for _ in range(rounds):
        registration = DeckRegistration(TagTable(), "bench")
        for tag in tags:
            registration.offer_streamed(tag)
    return (time.perf_counter() - start) / rounds / 52


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m bench.register", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=None, help="(ignored: a model)")
    parser.parse_args(argv)
    host = host_seconds_per_card()
    today, faster = prompted(), sorted_stream()
    print("deck registration, 52 cards (model; see the module's assumptions)")
    print(f"  prompted (today's routine):   {today:6.1f} s  ({today / 52:.2f} s a card)")
    print(f"  sorted, read in one pass:      {faster:6.1f} s  ({faster / 52:.2f} s a card)")
    print(f"  ratio prompted / sorted:       {today / faster:6.2f}")
    print(f"  host logic per card (measured): {host * 1e6:6.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
