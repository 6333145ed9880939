"""The daemon around the controller: displays redrawn when they change, feedback for each
outcome, listeners after each durable event, the card reader's state on the displays."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from hardware.events import KeyEvent, ReaderStatus
from laws import Seat
from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tablemodel.wire import Command, Event

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
ASSIGN = Command("c1", "assign", {"round": 1, "ns": 1, "ew": 2, "boards": [1]})


class FakeDisplay:
    def __init__(self) -> None:
        self.shown: list[list[str]] = []

    def show(self, lines: Sequence[str]) -> None:
        self.shown.append(list(lines))

    def clear(self) -> None:
        self.shown.append([])


class FakeFeedback:
    def __init__(self) -> None:
        self.signals: list[str] = []

    def ok(self) -> None:
        self.signals.append("ok")

    def error(self) -> None:
        self.signals.append("error")

    def attention(self) -> None:
        self.signals.append("attention")


def press(daemon: TableDaemon, seat: Seat, *keys: str) -> None:
    for key in keys:
        daemon.handle(KeyEvent(seat, key, True, 0.0))


def test_displays_are_redrawn_only_when_their_lines_change(journal: Journal) -> None:
    displays = {seat: FakeDisplay() for seat in Seat}
    daemon = TableDaemon(journal, displays=displays)
    daemon.handle(ASSIGN)
    assert displays[N].shown == [["Round 1", "NS 1  EW 2", "Your player number", ""]]
    press(daemon, E, "INFO")           # nothing to show differently for North
    assert len(displays[N].shown) == 1
    press(daemon, N, "1")
    assert displays[N].shown[-1][3] == "> 1"
    assert len(displays[E].shown) == 1


def test_feedback_says_taken_refused_or_look_here(journal: Journal) -> None:
    feedback = FakeFeedback()
    daemon = TableDaemon(journal, feedback=feedback)
    daemon.handle(ASSIGN)
    press(daemon, N, "S", "OK")        # player number 0: refused
    press(daemon, N, "1", "OK")        # taken
    press(daemon, N, "3")              # typed: nothing yet
    press(daemon, W, "DIR")            # the director
    assert feedback.signals == ["ok", "error", "ok", "attention"]
    assert daemon.refused == 1


def test_listeners_hear_each_event_after_it_is_durable(journal: Journal) -> None:
    daemon = TableDaemon(journal)
    heard: list[tuple[int, int]] = []

    def listener(event: Event) -> None:
        heard.append((event.seq, journal.last_seq))

    daemon.listeners.append(listener)
    daemon.handle(ASSIGN)
    press(daemon, S, "DIR")
    assert heard == [(1, 1), (2, 2)]


def test_first_reader_connection_is_no_news(journal: Journal) -> None:
    daemon = TableDaemon(journal)
    daemon.handle(ReaderStatus(True, "loop://", 0.0))
    assert daemon.notices == {}
    assert not daemon.reader_lost


def test_lost_reader_is_said_on_every_display_and_its_return_too(journal: Journal) -> None:
    daemon = TableDaemon(journal)
    daemon.handle(ReaderStatus(True, "loop://", 0.0))
    daemon.handle(ReaderStatus(False, "loop://", 1.0))
    assert daemon.reader_lost
    assert {daemon.view(seat)[3] for seat in Seat} == {"Card reader lost"}
    daemon.handle(ReaderStatus(False, "loop://", 2.0))   # said once
    daemon.handle(ReaderStatus(True, "loop://", 3.0))
    assert not daemon.reader_lost
    assert {daemon.view(seat)[3] for seat in Seat} == {"Card reader back"}


def test_lost_reader_stays_on_the_displays_until_it_is_back(journal: Journal) -> None:
    daemon = TableDaemon(journal)
    daemon.handle(ReaderStatus(True, "loop://", 0.0))
    daemon.handle(ReaderStatus(False, "loop://", 1.0))
    daemon.handle(ASSIGN)
    press(daemon, N, "1", "OK")
    assert {daemon.view(seat)[3] for seat in Seat} == {"Card reader lost"}


def test_an_event_the_wire_refuses_is_never_journalled(journal: Journal,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    """A controller's mistake (an option without its ``by``) is logged and left out: the
    journal holds only what the server will take, and the table goes on."""
    from tabled.control import Outcome, Proposed

    daemon = TableDaemon(journal)
    daemon.apply(Outcome([Proposed("option", 1, {"kind": "simultaneous", "seat": "S",
                                                   "card": "DT"})]))
    assert journal.last_seq == 0
    assert "the wire refuses was not recorded" in caplog.text
    daemon.handle(KeyEvent(Seat.N, "DIR", True, 0.0))  # and the table goes on
    assert [e.type for e in journal.events()] == ["director"]
