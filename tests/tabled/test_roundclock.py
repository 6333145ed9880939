"""The round clock on the seat displays: the minutes left from the end the server sent (the
table's clock injected, never slept on), the director's warning, "time is up", and an
extension arriving as the retained clock message."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from laws import Seat
from tabled.daemon import TableDaemon, Tick
from tabled.journal import Journal
from tabled.seat_lines import WIDTH
from tablemodel.roundclock import RoundClock
from tablemodel.state import Phase
from tablemodel.wire import Command, WireError, clock_from_payload, clock_payload
from tests.clock import Clock

from .helpers import Table, reach

N = Seat.N
START = 1_800_000_000.0
END = START + 20 * 60  # a 20-minute round


class FakeDisplay:
    def __init__(self) -> None:
        self.shown: list[list[str]] = []

    def show(self, lines: Sequence[str]) -> None:
        self.shown.append(list(lines))


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
def make(tmp_path: Path, clock: Clock) -> Iterator[object]:
    journals: list[Journal] = []

    def made(language: str = "en", displays: dict[Seat, FakeDisplay] | None = None) -> Table:
        journal = Journal(tmp_path / f"t{len(journals)}.db")
        journals.append(journal)
        return Table(TableDaemon(journal, language=language, clock=clock,
                                 displays=displays))

    yield made
    for journal in journals:
        journal.close()


def assigned(table: Table, phase: Phase = Phase.AUCTION, warning: int = 5) -> None:
    table.daemon.handle(Command("assign-1", "assign", {
        "round": 1, "ns": 3, "ew": 4, "boards": [1, 2],
        "clock": {"ends_at": END, "warning": warning}}))
    if phase is not Phase.PLAYERS:
        table.seat_players()
        table.choose_board(1)
        table.calls("1NT")


@pytest.mark.parametrize(("left", "minutes", "stage"), [
    (20 * 60, 20, "running"),
    (5 * 60 + 1, 6, "running"),
    (5 * 60, 5, "warning"),
    (59, 1, "warning"),
    (0.5, 1, "warning"),
    (0, 0, "over"),
    (-300, 0, "over"),
])
def test_minutes_left_round_up_and_the_stage(left: float, minutes: int, stage: str) -> None:
    clock = RoundClock(1, END, warning=5)
    assert clock.minutes_left(END - left) == minutes
    assert clock.stage(END - left) == stage


def test_no_warning_chosen_means_none_before_the_end() -> None:
    clock = RoundClock(1, END)
    assert clock.stage(END - 30) == "running"
    assert clock.stage(END) == "over"


@pytest.mark.parametrize(("left", "change_in"), [
    (20 * 60, 60), (19 * 60 + 30, 30), (61, 1), (60, 60), (1, 1)])
def test_the_display_changes_next_when_the_minute_shown_does(left: float,
                                                             change_in: float) -> None:
    clock = RoundClock(1, END)
    now = END - left
    due = clock.next_change(now)
    assert due == pytest.approx(now + change_in)
    assert clock.minutes_left(due - 0.001) == clock.minutes_left(now)
    assert clock.minutes_left(due) != clock.minutes_left(now) or due == END
    assert clock.next_change(END) is None


@pytest.mark.parametrize(("language", "running", "warning", "over"), [
    ("en", "20 min left", "Warning: 5 min", "Time is up"),
    ("es", "Quedan 20 min", "Aviso: 5 min", "Tiempo cumplido"),
])
def test_the_last_line_counts_down_warns_and_ends(make: object, clock: Clock, language: str,
                                                  running: str, warning: str,
                                                  over: str) -> None:
    table = make(language)  # type: ignore[operator]
    assigned(table)
    assert table.view(N)[3] == running
    clock.now = END - 5 * 60 - 1
    assert table.view(N)[3] == running.replace("20", "6")
    clock.now = END - 5 * 60
    assert table.view(N)[3] == warning
    clock.now = END + 1
    assert table.view(N)[3] == over
    assert all(len(line) <= WIDTH for line in table.view(N))


def test_what_a_seat_types_or_is_told_comes_before_the_clock(make: object,
                                                             clock: Clock) -> None:
    table = make()  # type: ignore[operator]
    assigned(table)
    table.press(Seat.E, "7")
    assert table.view(Seat.E)[3] == "> 7"
    assert table.view(N)[3] == "20 min left"


def test_a_director_call_shows_until_the_warning(make: object, clock: Clock) -> None:
    table = make()  # type: ignore[operator]
    assigned(table)
    table.press(Seat.S, "DIR")
    table.daemon.notices.clear()  # the "Director! (S)" notice goes with each seat's next key
    assert table.view(N)[3] == "Director called"
    clock.now = END - 60
    assert table.view(N)[3] == "Warning: 1 min"


def test_the_clock_shows_from_the_players_to_the_result_not_after(make: object) -> None:
    table = make()  # type: ignore[operator]
    assigned(table, Phase.PLAYERS)
    assert table.view(Seat.W)[3] == "20 min left"   # W has typed nothing yet
    ended = make()  # type: ignore[operator]
    reach(ended, Phase.ROUND_END)
    ended.daemon.round_clock = RoundClock(1, END)
    assert ended.view(N)[3] == ""


def test_a_table_without_a_clock_shows_none(make: object) -> None:
    table = make()  # type: ignore[operator]
    reach(table, Phase.AUCTION)
    assert table.state.assignment is not None and table.state.assignment.clock is None
    assert table.view(N)[3] == ""


def test_an_extension_arrives_as_the_retained_clock_for_this_round(make: object,
                                                                  clock: Clock) -> None:
    table = make()  # type: ignore[operator]
    assigned(table)
    clock.now = END - 60
    assert table.view(N)[3] == "Warning: 1 min"
    table.daemon.handle(RoundClock(2, END + 3600, 5))   # another round's: not ours
    assert table.view(N)[3] == "Warning: 1 min"
    table.daemon.handle(clock_from_payload(clock_payload(RoundClock(1, END + 600, 5))))
    assert table.view(N)[3] == "11 min left"


def test_the_displays_are_redrawn_when_the_minute_changes(make: object,
                                                          clock: Clock) -> None:
    displays = {seat: FakeDisplay() for seat in Seat}
    table = make(displays=displays)  # type: ignore[operator]
    assigned(table)
    daemon = table.daemon
    assert displays[N].shown[-1][3] == "20 min left"
    due = daemon.clock_due()
    assert due == END - 19 * 60
    clock.now = due
    daemon.handle(Tick())
    assert displays[N].shown[-1][3] == "19 min left"


def test_the_clock_is_journalled_with_the_assignment(make: object, tmp_path: Path) -> None:
    table = make()  # type: ignore[operator]
    assigned(table)
    event = table.events()[0]
    assert event.type == "assign" and event.data["clock"] == {"ends_at": END, "warning": 5}
    assert table.state.assignment is not None
    assert table.state.assignment.clock == RoundClock(1, END, 5)


@pytest.mark.parametrize("clock", [
    {"ends_at": "soon"}, {"warning": 5}, {"ends_at": END, "warning": 61},
    {"ends_at": END, "late": True}, {"ends_at": -1}])
def test_a_bad_clock_is_refused_on_the_wire(clock: object) -> None:
    payload = Command("a", "assign", {"round": 1, "ns": 1, "ew": 2, "boards": [1],
                                      "clock": clock}).to_payload()
    with pytest.raises(WireError):
        Command.from_payload(payload)


def test_the_retained_clock_names_its_round() -> None:
    with pytest.raises(WireError, match="round"):
        clock_from_payload(b'{"v":1,"ends_at":1800000000}')
    with pytest.raises(WireError):
        clock_from_payload(b'{"v":1,"round":1,"ends_at":1800000000,"extra":1}')
