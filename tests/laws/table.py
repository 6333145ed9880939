"""A table as the players and the director meet it, for the laws' tests.

The real table daemon runs its own thread. A test does what happens at the table: a key on a
seat's keypad, a card on the card reader (at a seat's reader, or the table's one reader), a
command from the director's console; each goes on the daemon's inbox, as the drivers and the
uplink put them, and the test waits until the table has taken it. Then it reads what each
seat's display shows (the four lines the LCD was last given) and what the table published
(every event, in order, as the uplink was handed it).

The table's clock is a test clock: ``wait(seconds)`` lets time pass between two inputs (Laws
16B, 25, 58 go by it); nothing sleeps.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from hardware.events import CardEvent, KeyEvent
from laws import Card, Seat
from tabled.daemon import Input, TableDaemon, Tick
from tabled.journal import Journal
from tablemodel.state import Phase
from tablemodel.visibility import PUBLIC, view_for
from tablemodel.wire import Command, Event
from tests.clock import Clock
from tests.tabled.helpers import PBN, Watched, call_keys, number_keys

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W

# Board 1 is PBN, the RealBridge qualifier's board of tests/rules/test_play.py: dealer North,
# no one vulnerable.  N KT8.A96.A95.7542  E Q5.KJ52.KQ874.T8  S AJ92.874.JT6.AQ3  W 7643.QT3.32.KJ96
CARD_FILE = Path(__file__).resolve().parents[2] / "tablemodel" / "syscards" / "seed004.json"
#: How long a test waits for the table to take an input: generous, the machine is busy.
TIMEOUT = 30.0


class Display:
    """A seat's 4 x 20 display: the lines it was last given."""

    def __init__(self) -> None:
        self.lines: list[str] = ["", "", "", ""]

    def show(self, lines: Sequence[str]) -> None:
        self.lines = list(lines)

    def clear(self) -> None:
        self.lines = ["", "", "", ""]


class Uplink:
    """What the table hands to MQTT: its events (QoS 1) and its retained state."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.states: list[Mapping[str, Any]] = []

    def publish_event(self, event: Event) -> int | None:
        self.events.append(Event.from_payload(event.to_payload()))  # as the server reads it
        return None

    def publish_state(self, snapshot: Mapping[str, Any]) -> None:
        self.states.append(dict(snapshot))


class _Daemon(TableDaemon):
    """The daemon, counting the inputs it has taken (its own ticks apart)."""

    taken = 0

    def handle(self, item: Input) -> None:
        try:
            super().handle(item)
        finally:
            if not isinstance(item, Tick):
                self.taken += 1


class LawTable(Watched):
    """One table: its daemon on its own thread, four displays, the uplink's record."""

    def __init__(self, path: Path, language: str = "en") -> None:
        self.clock = Clock()
        self.displays = {seat: Display() for seat in Seat}
        self.uplink = Uplink()
        self.journal = Journal(path)
        self.daemon = _Daemon(self.journal, displays=self.displays, publisher=self.uplink,
                              language=language, clock=self.clock)
        self._put = 0
        self._mark = 0
        self._lock = threading.Lock()
        self.daemon.start()

    def close(self) -> None:
        self.daemon.stop(TIMEOUT)
        self.journal.close()

    # -- what happens at the table -------------------------------------------------------------

    def put(self, item: Input) -> None:
        """Put ``item`` on the inbox and wait until the table has taken it."""
        with self._lock:
            self._put += 1
            target = self._put
            self.daemon.inbox.put(item)
            with self.daemon.changed:
                taken = self.daemon.changed.wait_for(lambda: self.daemon.taken >= target,
                                                     TIMEOUT)
            assert taken, f"the table did not take {item!r} within {TIMEOUT} s"

    def keys(self, seat: Seat, *keys: str) -> None:
        """Keys pressed (and released) on ``seat``'s keypad."""
        for key in keys:
            self.put(KeyEvent(seat, key, True, self.clock.now))
            self.put(KeyEvent(seat, key, False, self.clock.now))

    def call(self, seat: Seat, text: str) -> None:
        """A call keyed as the bidding box has it: ``1NT`` is 1, NT, OK."""
        self.keys(seat, *call_keys(text))

    def calls(self, *texts: str) -> None:
        """Each call by the seat whose turn it is; each must be taken."""
        for text in texts:
            board = self.state.board
            assert board is not None and board.auction.turn is not None, text
            before = len(board.auction)
            self.call(board.auction.turn, text)
            assert len(board.auction) == before + 1, (text, self.display(board.auction.turn))

    def number(self, seat: Seat, number: int) -> None:
        """A number on the keypad (C, D, S are 8, 9, 0 as on a phone), then OK."""
        self.keys(seat, *number_keys(number))

    def card(self, card: str, at: Seat | None = None) -> None:
        """A card put on the reader: ``at`` a seat's own reader, or the table's one."""
        self.put(CardEvent(Card.from_str(card), None, at, self.clock.now))

    def cards(self, text: str) -> None:
        """Cards one after the other on the table's reader, each of them played; the opening
        lead, made face down (Law 41A), faced by its leader's OK."""
        for card in text.split():
            board = self.state.board
            assert board is not None
            before = len(board.cards)
            self.card(card)
            assert len(board.cards) == before + 1, (card, self.displays_now())
            if board.face_down:
                self.keys(board.cards[0][0], "OK")
                assert not board.face_down, self.displays_now()

    def ruling(self, ident: str, data: Mapping[str, Any]) -> None:
        """The director's ruling from the console, as a command."""
        self.put(Command(ident, "ruling", dict(data)))

    def wait(self, seconds: float) -> None:
        """Time passes at the table before the next input."""
        self.clock.now += seconds

    def page(self, seat: Seat, wanted: str) -> bool:
        """INFO until ``seat``'s display shows ``wanted`` on its second line (a page of
        INFO's round: the review, a claim, a question, the card); False if no page does."""
        for _ in range(6):
            if self.display(seat)[1].startswith(wanted):
                return True
            self.keys(seat, "INFO")
        return self.display(seat)[1].startswith(wanted)

    # -- what the table shows and says -----------------------------------------------------------

    def display(self, seat: Seat) -> list[str]:
        return list(self.displays[seat].lines)

    def displays_now(self) -> dict[str, list[str]]:
        return {str(seat): self.display(seat) for seat in Seat}

    def shown(self, seat: Seat) -> str:
        """The whole display of ``seat`` as one text."""
        return " | ".join(self.display(seat))

    def mark(self) -> None:
        """``published()`` is what comes after this moment."""
        self._mark = len(self.uplink.events)

    def published(self) -> list[tuple[str, dict[str, Any]]]:
        """The events the table published since ``mark()``: (type, data)."""
        return [(str(e.type), dict(e.data)) for e in self.uplink.events[self._mark:]]

    def uplink_published(self) -> list[tuple[str, dict[str, Any]]]:
        """Every event the table published, from the first."""
        return [(str(e.type), dict(e.data)) for e in self.uplink.events]

    def published_types(self) -> list[str]:
        return [kind for kind, _ in self.published()]

    def public_cards(self) -> list[str]:
        """The cards the public (vugraph) view shows."""
        return [str(card) for _, card in view_for(PUBLIC, self.state).cards]

    def auction(self) -> list[str]:
        board = self.state.board
        assert board is not None
        return [str(call) for call in board.auction.calls]

    def played(self) -> list[str]:
        board = self.state.board
        assert board is not None
        return [f"{seat}{card}" for seat, card in board.cards]

    def penalty_cards(self) -> list[str]:
        board = self.state.board
        assert board is not None and board.play is not None
        return [f"{p.seat}{p.card}{'' if p.major else ' minor'}"
                for p in board.play.penalty_cards]

    # -- getting to a board ----------------------------------------------------------------------

    def sit_down(self, *, deals: Mapping[str, str] | None = None,
                 conduct: Mapping[str, Any] | None = None) -> None:
        """The director's round (boards 1 and 2, board 1's deal known unless ``deals`` says
        otherwise), four players' numbers, and board 1 on the table."""
        data: dict[str, Any] = {"round": 1, "ns": 1, "ew": 2, "boards": [1, 2],
                                "deals": {"1": PBN} if deals is None else dict(deals)}
        if conduct is not None:
            data["conduct"] = dict(conduct)
        self.put(Command("round-1", "assign", data))
        for number, seat in enumerate(Seat, start=11):
            self.number(seat, number)
        self.keys(N, "1", "OK")
        assert self.phase is Phase.SETUP, self.displays_now()


def seed_card() -> dict[str, Any]:
    """The example system card (seed 004's natural system), as a round carries it."""
    card: dict[str, Any] = json.loads(CARD_FILE.read_text(encoding="utf-8"))
    return card


def lines(table: LawTable, seats: Iterable[Seat]) -> dict[Seat, list[str]]:
    return {seat: table.display(seat) for seat in seats}
