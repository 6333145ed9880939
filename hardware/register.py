"""Learn an RFID deck: scan its 52 cards in order and save their tags in the tag table.

The order is ``Card.ALL``: clubs 2 to ace, then diamonds, hearts and spades, each 2 to ace
(C2..CA, D2..DA, H2..HA, S2..SA), which is the order of a new deck sorted by suit. A tag that
already stands for a card (earlier in this deck, or in any other deck of the file) is refused,
and the same card is asked for again.

``DeckRegistration`` is the logic; ``main(argv)`` is the command line::

    python3 -m hardware.register /dev/serial/by-id/usb-bidbox_cardreader-if00 \\
        --tags /var/lib/bidbox/tags.json --deck board-07 [--sorted]

While it reads, the person may type at the terminal (then Enter): ``u`` takes the last card
back, a card (``H6``) goes back to that card, forgetting it and every card after it. With
``--sorted`` the cards are not asked for one by one: a bell rings for each card read, a
double bell for one refused or misread, and once all 52 are in one question saves the deck.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from laws import Card
from laws.errors import InvalidNotationError

from .cardreader import DEFAULT_BAUDRATE, CardReader
from .errors import ConfigError, DuplicateTagError, RegistrationError
from .events import CardEvent, HardwareEvent, ReaderMessage, ReaderStatus
from .protocol import ERROR_CODES, DeviceError
from .tags import TagTable

ORDER: tuple[Card, ...] = Card.ALL
MISREAD = 101
TWO_CARDS = 103
assert MISREAD in ERROR_CODES and TWO_CARDS in ERROR_CODES


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

    def back_to(self, card: Card) -> int:
        """Forget ``card`` and every card read after it, so that the deck is read again from
        ``card`` on (a card put down out of order, noticed later); how many were forgotten."""
        index = ORDER.index(card)
        if index > len(self._tags):
            raise RegistrationError(f"{card} is not read yet: the next card is {self.expected}")
        forgotten = len(self._tags) - index
        del self._tags[index:]
        return forgotten

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
                    "(C2..CA, D2..DA, H2..HA, S2..SA). While it reads, type u (then Enter) "
                    "to take the last card back, or a card (H6) to read again from it.")
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
                        help="give up after this many seconds without a scan or a key")
    return parser


@dataclass(frozen=True)
class Typed:
    """A line the person typed at the terminal; ``text`` None when the terminal closed."""

    text: str | None


Event = HardwareEvent | Typed
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
YES = ("y", "yes", "s", "si", "sí")
NO = ("", "n", "no")
HELP = "type u to take the last card back, or a card (e.g. H6) to read again from it"


def _read_terminal(lines: TextIO, events: queue.Queue[Event]) -> None:
    try:
        for line in lines:
            events.put(Typed(line.strip()))
    except (OSError, ValueError):  # no terminal to read (a service, a closed stdin)
        pass
    events.put(Typed(None))


class _Session:
    """One registration at the terminal: what the person is told, and what they type."""

    def __init__(self, registration: DeckRegistration, *, streamed: bool) -> None:
        self.registration = registration
        self.streamed = streamed
        self.mid_line = False  # the sorted routine's card names share a line, a suit a line
        self.terminal_open = True

    def say(self, text: str) -> None:
        if self.mid_line:
            print(flush=True)
            self.mid_line = False
        print(text, flush=True)

    def ask_next(self) -> str:
        card = self.registration.expected
        return f"put {card} on the reader" if self.streamed else f"scan {card}"

    def handle(self, event: Event) -> None:
        match event:
            case Typed(text=None):
                self.terminal_open = False
            case Typed(text=str(text)):
                self.typed(text)
            case CardEvent(tag=None, card=card):
                self.say(f"the reader named the card ({card}) instead of sending a tag; "
                         "only RFID readers need registering")
            case CardEvent(tag=str(tag)):
                self.tag(tag)
            case ReaderStatus(connected=connected):
                self.say("reader connected" if connected
                         else "reader disconnected; waiting for it")
            case ReaderMessage(message=DeviceError(code=code)) if code in (MISREAD, TWO_CARDS):
                what = ("the reader could not read the card" if code == MISREAD
                        else "two cards on the reader: take them off")
                self.say(f"\a\a{what}; {self.ask_next()} again")
            case ReaderMessage(message=message):
                self.say(f"reader says: {message}")
            case _:
                pass

    def tag(self, tag: str) -> None:
        registration = self.registration
        if registration.done:
            return  # a card put down after the 52nd, before the question is answered
        try:
            card = (registration.offer_streamed(tag) if self.streamed
                    else registration.offer(tag))
        except DuplicateTagError as exc:
            bells = "\a\a" if self.streamed else ""
            self.say(f"{bells}refused: {exc}; {self.ask_next()} again")
            return
        if card is None:
            return  # the card just read, seen again
        if not self.streamed:
            progress = f"{registration.count}/52 {card} = {tag}"
            self.say(f"{progress}; {self.ask_next()}" if not registration.done
                     else f"{progress}; all 52 in")
            return
        text = str(card)
        if text.endswith("A"):
            print(f"\a{text} ({SUITS[text[0]]} done, {registration.count}/52)", flush=True)
            self.mid_line = False
        else:
            print(f"\a{text}", end=" ", flush=True)
            self.mid_line = True

    def typed(self, text: str) -> None:
        registration = self.registration
        if not text:
            return  # Enter alone, between cards: nothing to do
        if text.lower() in ("u", "-"):
            card = registration.undo()
            if card is None:
                self.say(f"nothing to take back; {self.ask_next()}")
            else:
                self.say(f"took {card} back ({registration.count}/52); {self.ask_next()}")
            return
        try:
            card = Card.from_str(text)
        except InvalidNotationError:
            self.say(f"{text!r}? {HELP}")
            return
        try:
            forgotten = registration.back_to(card)
        except RegistrationError as exc:
            self.say(f"{exc}")
            return
        self.say(f"back to {card}: {forgotten} card{'s' if forgotten != 1 else ''} "
                 f"forgotten ({registration.count}/52); {self.ask_next()}")


def main(argv: Sequence[str] | None = None, *, terminal: TextIO | None = None) -> int:
    """Run a registration; 0 when the deck is saved, 1 when nothing was saved. ``terminal``
    is where the person types (standard input unless given)."""
    args = _parser().parse_args(argv)
    try:
        table = TagTable.load(args.tags) if args.tags.exists() else TagTable()
        registration = DeckRegistration(table, args.deck, replace=args.replace)
    except (ConfigError, OSError) as exc:
        print(f"error: {exc}", flush=True)
        return 1
    session = _Session(registration, streamed=args.sorted)
    events: queue.Queue[Event] = queue.Queue()
    threading.Thread(target=_read_terminal, args=(terminal or sys.stdin, events),
                     name="terminal", daemon=True).start()
    if args.sorted:
        session.say(f"Registering deck {args.deck!r}: put the sorted deck's cards on the reader "
                    "one after another, C2 first, then D2.., H2.., S2..SA, taking each off "
                    "before the next; a bell rings for each card read, two for one to put "
                    f"down again. {HELP[0].upper()}{HELP[1:]}.")
    else:
        session.say(f"Registering deck {args.deck!r}: scan the cards in order C2..CA, D2..DA, "
                    f"H2..HA, S2..SA. {HELP[0].upper()}{HELP[1:]}.")
        session.say(session.ask_next())
    with CardReader(args.port, events, baudrate=args.baud, tags=table):
        try:
            if not _read_deck(session, events, args.timeout, ask=args.sorted and not args.yes,
                              deck=args.deck):
                return 1
        except KeyboardInterrupt:
            session.say("interrupted; nothing saved")
            return 1
    registration.commit()
    table.dump(args.tags)
    session.say(f"deck {args.deck!r} saved to {args.tags} ({len(table.decks)} decks, "
                f"{len(table)} tags)")
    return 0


def _read_deck(session: _Session, events: queue.Queue[Event], timeout: float | None, *,
               ask: bool, deck: str) -> bool:
    """Until all 52 are in (and, if ``ask``, the person says to save): True to save."""
    registration = session.registration
    asked = False
    while True:
        if registration.done and not ask:
            return True
        if registration.done and not asked:
            if not session.terminal_open:
                session.say("all 52 in, but no terminal to ask whether to save: nothing saved "
                            "(--yes saves without asking)")
                return False
            session.say(f"all 52 in; save deck {deck!r}? y = save, n = drop it, "
                        "or a card (e.g. H6) to read again from it")
            asked = True
        try:
            event = events.get(timeout=timeout)
        except queue.Empty:
            session.say(f"no scan for {timeout} s; stopped, nothing saved")
            return False
        if asked and isinstance(event, Typed) and event.text is not None:
            answer = event.text.lower()
            if answer in YES:
                return True
            if answer in NO:
                session.say("nothing saved")
                return False
        if asked and isinstance(event, Typed) and event.text is None:
            session.say("the terminal closed before an answer: nothing saved")
            return False
        session.handle(event)
        if not registration.done or (asked and isinstance(event, Typed)):
            asked = False  # read on, or ask again after a help line


if __name__ == "__main__":
    sys.exit(main())
