"""A test driver for one table: keys, cards and commands through ``TableDaemon.handle``.

Nothing here starts the table thread: every input is handled synchronously, so a test reads
the journal, the state and the displays as soon as the call returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hardware.events import CardEvent, KeyEvent
from laws import Call, Card, Deal, Seat
from tabled.control import Notice
from tabled.daemon import TableDaemon
from tablemodel.state import Phase, TableState
from tablemodel.wire import Command, Event
from tests.clock import Clock

# Board 11 of the RealBridge qualifier, the engine tests' deal (tests/rules/test_play.py).
PBN = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"
DEAL = Deal.from_pbn(PBN)
GUIDANCE = {"ns": None, "ew": 5, "boards": 3}

# The keys that make a call, as the bidding box has them.
_CALL_KEYS = {"Pass": ["PASS"], "X": ["X"], "XX": ["XX"]}
_DIGIT_KEYS = {"8": "C", "9": "D", "0": "S"}


def call_keys(text: str) -> list[str]:
    """``"1NT"`` -> ``["1", "NT", "OK"]``; ``"Pass"`` -> ``["PASS", "OK"]``."""
    call = str(Call.from_str(text))
    keys = _CALL_KEYS.get(call) or [call[0], call[1:]]
    return [*keys, "OK"]


def number_keys(number: int) -> list[str]:
    """The keys that type ``number``: 1-7 for themselves, C D S for 8 9 0, then OK."""
    return [_DIGIT_KEYS.get(d, d) for d in str(number)] + ["OK"]


def cards(text: str) -> list[Card]:
    return [Card.from_str(c) for c in text.split()]


class Watched:
    """A table daemon a test watches: its state and phase."""

    daemon: TableDaemon

    @property
    def state(self) -> TableState:
        return self.daemon.state

    @property
    def phase(self) -> Phase:
        return self.daemon.state.phase


class Table(Watched):
    """One table daemon and what a test does at it."""

    def __init__(self, daemon: TableDaemon) -> None:
        self.daemon = daemon
        self._mark = 0

    # -- what the table says ---------------------------------------------------------------

    def view(self, seat: Seat) -> list[str]:
        return self.daemon.view(seat)

    def notice(self, seat: Seat) -> Notice | None:
        return self.daemon.notices.get(seat)

    def events(self, since: int = 0) -> list[Event]:
        return list(self.daemon.journal.events(since))

    def mark(self) -> None:
        """Remember the journal's end: ``new_events`` is what came after it."""
        self._mark = self.daemon.journal.last_seq

    def new_events(self) -> list[Event]:
        return self.events(self._mark)

    def new_types(self) -> list[str]:
        return [e.type for e in self.new_events()]

    # -- inputs ------------------------------------------------------------------------------

    def press(self, seat: Seat, *keys: str) -> None:
        for key in keys:
            self.daemon.handle(KeyEvent(seat, key, True, 0.0))
            self.daemon.handle(KeyEvent(seat, key, False, 0.0))

    def call(self, seat: Seat, text: str) -> None:
        self.press(seat, *call_keys(text))

    def calls(self, *texts: str) -> None:
        """Each call by the seat on turn; each one must be accepted."""
        for text in texts:
            board = self.state.board
            assert board is not None
            seat = board.auction.turn
            assert seat is not None, f"no one to make {text}"
            before = len(board.auction)
            self.call(seat, text)
            assert len(board.auction) == before + 1, (text, self.notice(seat))

    def scan(self, card: Card | str, seat: Seat | None = None) -> None:
        if isinstance(card, str):
            card = Card.from_str(card)
        self.daemon.handle(CardEvent(card, None, seat, 0.0))

    def play(self, text: str, *, face: bool = True) -> None:
        """Cards in order from the card reader; each one must be accepted. The opening lead,
        made face down (Law 41A), is faced at once (the leader's OK; behind screens the
        screenmate's) unless ``face`` is false."""
        for card in cards(text):
            board = self.state.board
            assert board is not None
            before = len(board.cards)
            self.scan(card)
            assert len(board.cards) == before + 1, (str(card), self.daemon.notices)
            if face and board.face_down:
                self.face_lead()

    def face_lead(self) -> None:
        """The opening lead lying face down is faced (Law 41C)."""
        board = self.state.board
        assert board is not None and board.face_down
        self.press(board.lead_confirmer(self.state.conduct.screens), "OK")
        assert not board.face_down, self.daemon.notices

    def play_out(self) -> None:
        """Play legal cards (the lowest the engine allows) until the play is over."""
        while self.phase in (Phase.LEAD, Phase.PLAY):
            board = self.state.board
            assert board is not None and board.play is not None
            self.play(str(next(board.play.legal_cards())))

    def open_page(self, seat: Seat, page: str | None) -> None:
        """INFO until ``seat``'s display is on ``page`` ("review", "claim", "ask", "card",
        or None for the plain display); the page must be on offer."""
        entry = self.daemon.controller.entries[seat]
        for _ in range(6):
            if (entry.page if entry.page is not None or not entry.review else "review") == page:
                return
            self.press(seat, "INFO")
        raise AssertionError(f"{seat}: no {page} page now")

    def claim(self, seat: Seat, tricks: int, *, confirm: bool = True) -> None:
        """Law 68 at the keypad: INFO to the claim page, the tricks and OK, then OK again to
        confirm the number shown back (``confirm``)."""
        self.open_page(seat, "claim")
        self.press(seat, *number_keys(tricks))
        if confirm:
            self.press(seat, "OK")

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass on the table's clock (a tests.clock.Clock): the next input
        comes that much later (Laws 16B, 25B, 58 go by the time between inputs)."""
        clock = self.daemon.clock
        assert isinstance(clock, Clock), "a table on the real clock cannot be made to wait"
        clock.now += seconds

    def command(self, ident: str, kind: str, data: Mapping[str, Any]) -> None:
        self.daemon.handle(Command(ident, kind, dict(data)))

    # -- getting somewhere -------------------------------------------------------------------

    def assign(self, boards: list[int] | None = None, **extra: Any) -> None:
        data: dict[str, Any] = {"round": 1, "ns": 3, "ew": 4, "boards": boards or [1, 2]}
        data.update(extra)
        self.command("assign-1", "assign", data)

    def seat_players(self) -> None:
        for number, seat in enumerate(Seat, start=11):
            self.press(seat, *number_keys(number))

    def choose_board(self, number: int | None = None) -> None:
        self.press(Seat.N, *(["OK"] if number is None else number_keys(number)))
        assert self.phase is Phase.SETUP

    def start(self, boards: list[int] | None = None, **extra: Any) -> None:
        """Assign a round, seat the players and put its first board on the table."""
        self.assign(boards, **extra)
        self.seat_players()
        self.choose_board()

    def confirm(self) -> None:
        self.press(Seat.N, "OK")
        self.press(Seat.E, "OK")


def reach(table: Table, phase: Phase, *, boards: list[int] | None = None) -> None:
    """Drive a fresh table to ``phase`` on board 1 (the deal known from the assignment):
    1NT by North, East to lead; ROUND_END after a round of board 1 alone."""
    if phase is Phase.WAITING:
        return
    if phase is Phase.ROUND_END:
        boards = [1]
    table.assign(boards or [1, 2], deals={"1": PBN}, next=GUIDANCE)
    if phase is Phase.PLAYERS:
        return
    table.seat_players()
    if phase is Phase.BOARD:
        return
    table.choose_board(1)
    if phase is Phase.SETUP:
        return
    table.calls("1NT")
    if phase is Phase.AUCTION:
        return
    table.calls("Pass", "Pass", "Pass")
    if phase is Phase.LEAD:
        return
    table.play("D4")
    if phase is Phase.PLAY:
        return
    table.play_out()
    if phase is Phase.RESULT:
        return
    table.confirm()
    assert table.phase is Phase.ROUND_END
