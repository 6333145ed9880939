"""Learn an RFID deck: scan its 52 cards in order and save their tags in the tag table.

The order is ``Card.ALL``: clubs 2 to ace, then diamonds, hearts and spades, each 2 to ace
(C2..CA, D2..DA, H2..HA, S2..SA), which is the order of a new deck sorted by suit. A tag that
already stands for a card (earlier in this deck, or in any other deck of the file) is refused,
and the same card is asked for again.

``DeckRegistration`` is the logic; ``main(argv)`` is the command line::

    python3 -m hardware.register /dev/serial/by-id/usb-bidbox_cardreader-if00 \\
        --tags /var/lib/bidbox/tags.json --deck board-07
"""

from __future__ import annotations

import argparse
import queue
import sys
from collections.abc import Sequence
from pathlib import Path

from tabled.rules import Card

from .cardreader import DEFAULT_BAUDRATE, CardReader
from .errors import ConfigError, DuplicateTagError, RegistrationError
from .events import CardEvent, HardwareEvent, ReaderMessage, ReaderStatus
from .tags import TagTable

ORDER: tuple[Card, ...] = Card.ALL


class DeckRegistration:
    """The tags of one deck, learnt card by card in ``ORDER``; ``commit()`` adds the deck."""

    def __init__(self, table: TagTable, deck: str, *, replace: bool = False) -> None:
        if deck in table.decks and not replace:
            raise RegistrationError(f"deck {deck!r} is already registered (replace it?)")
        self.table = table
        self.deck = deck
        self.replace = replace
        self._tags: list[str] = []

    @property
    def count(self) -> int:
        return len(self._tags)

    @property
    def done(self) -> bool:
        return len(self._tags) == len(ORDER)

    @property
    def expected(self) -> Card | None:
        """The card to scan next, or None when all 52 are in."""
        return None if self.done else ORDER[len(self._tags)]

    def offer(self, tag: str) -> Card:
        """Take ``tag`` as the expected card and return that card; refuse a known tag."""
        card = self.expected
        if card is None:
            raise RegistrationError(f"deck {self.deck!r} already has all 52 cards")
        if tag in self._tags:
            earlier = ORDER[self._tags.index(tag)]
            raise DuplicateTagError(f"tag {tag} was scanned already, as {earlier}", tag)
        entry = self.table.lookup(tag)
        if entry is not None and not (self.replace and entry.deck == self.deck):
            raise DuplicateTagError(
                f"tag {tag} is already {entry.card} of deck {entry.deck!r}", tag)
        self._tags.append(tag)
        return card

    def offer_streamed(self, tag: str) -> Card | None:
        """``offer`` for a sorted deck read in one pass: the card just taken, seen again (left
        on the reader, or put down twice to be sure), is no new card and gives None."""
        if self._tags and self._tags[-1] == tag:
            return None
        return self.offer(tag)

    def undo(self) -> Card | None:
        """Forget the last scan (the operator picked the wrong card); return its card."""
        if not self._tags:
            return None
        self._tags.pop()
        return ORDER[len(self._tags)]

    def commit(self) -> None:
        if not self.done:
            raise RegistrationError(f"deck {self.deck!r} has {self.count} of 52 cards")
        self.table.add_deck(self.deck, self._tags, replace=self.replace)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python3 -m hardware.register",
        description="Learn an RFID deck's 52 tags by scanning it in order "
                    "(C2..CA, D2..DA, H2..HA, S2..SA).")
    parser.add_argument("port", help="serial port of the card reader (pyserial URL)")
    parser.add_argument("--tags", required=True, type=Path,
                        help="tag table file (JSON); created if missing")
    parser.add_argument("--deck", required=True, help="name of the deck, e.g. board-07")
    parser.add_argument("--replace", action="store_true",
                        help="register the deck again, replacing its tags")
    parser.add_argument("--baud", type=int, default=DEFAULT_BAUDRATE)
    parser.add_argument("--sorted", action="store_true",
                        help="the deck is sorted (C2..CA, D2..DA, H2..HA, S2..SA): put the cards "
                             "on the reader one after another without waiting for a prompt; "
                             "the terminal rings at each card, and asks once to save at the end")
    parser.add_argument("--yes", action="store_true",
                        help="with --sorted: save without asking")
    parser.add_argument("--timeout", type=float, default=None,
                        help="give up after this many seconds without a scan")
    return parser


def _say(text: str) -> None:
    print(text, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run a registration; 0 when the deck is saved, 1 when nothing was saved."""
    args = _parser().parse_args(argv)
    try:
        table = TagTable.load(args.tags) if args.tags.exists() else TagTable()
        registration = DeckRegistration(table, args.deck, replace=args.replace)
    except (ConfigError, OSError) as exc:
        _say(f"error: {exc}")
        return 1
    events: queue.Queue[HardwareEvent] = queue.Queue()
    if args.sorted:
        _say(f"Registering deck {args.deck!r}: put the sorted deck's cards on the reader one "
             "after another, C2 first, then D2.., H2.., S2..SA; a bell rings for each card.")
    else:
        _say(f"Registering deck {args.deck!r}: scan the cards in order C2..CA, D2..DA, "
             "H2..HA, S2..SA.")
        _say(f"scan {registration.expected}")
    with CardReader(args.port, events, baudrate=args.baud, tags=table):
        try:
            while not registration.done:
                try:
                    event = events.get(timeout=args.timeout)
                except queue.Empty:
                    _say(f"no scan for {args.timeout} s; stopped, nothing saved")
                    return 1
                _handle(registration, event, streamed=args.sorted)
        except KeyboardInterrupt:
            _say("interrupted; nothing saved")
            return 1
    if args.sorted and not args.yes:
        answer = input(f"all 52 in; save deck {args.deck!r}? [y/N] ")
        if answer.strip().lower() not in ("y", "yes", "s", "si", "sí"):
            _say("nothing saved")
            return 1
    registration.commit()
    table.dump(args.tags)
    _say(f"deck {args.deck!r} saved to {args.tags} ({len(table.decks)} decks, "
         f"{len(table)} tags)")
    return 0


SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _handle(registration: DeckRegistration, event: HardwareEvent, *,
            streamed: bool = False) -> None:
    match event:
        case CardEvent(tag=None, card=card):
            _say(f"the reader named the card ({card}) instead of sending a tag; "
                 "only RFID readers need registering")
        case CardEvent(tag=str(tag)) if streamed:
            try:
                card = registration.offer_streamed(tag)
            except DuplicateTagError as exc:
                _say(f"\a\arefused: {exc}; put {registration.expected} on the reader")
                return
            if card is None:
                return
            text = str(card)
            if text.endswith("A"):
                text += f" ({SUITS[text[0]]} done, {registration.count}/52)\n"
            print(f"\a{text} ", end="", flush=True)
        case CardEvent(tag=str(tag)):
            try:
                card = registration.offer(tag)
            except DuplicateTagError as exc:
                _say(f"refused: {exc}; scan {registration.expected} again")
                return
            progress = f"{registration.count}/52 {card} = {tag}"
            nxt = registration.expected
            _say(f"{progress}; scan {nxt}" if nxt else f"{progress}; all 52 in")
        case ReaderStatus(connected=connected):
            _say("reader connected" if connected else "reader disconnected; waiting for it")
        case ReaderMessage(message=message):
            _say(f"reader says: {message}")
        case _:
            pass


if __name__ == "__main__":
    sys.exit(main())
