"""The table's clock and the laws: a hesitation the opponents reserve their rights on (Law
16B2), a change of call made after a pause (Law 25B of seed 002's 2007 text: the left-hand
opponent may accept it, 25B1, or it is cancelled and the first call stands, 25B2), and a second
card from one hand read with the first (58B) or later (57A). The calls and cards with their
times first, then every option on the keypads, the state and the displays.

The table's clock is the test's: each call is made at the second the test says.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tabled.rules import Card, Seat
from tabled.rules.penalty import PenaltyCard
from tabled.state import Phase, TableState
from tests.clock import Clock

from .helpers import Table, call_keys, reach

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def c(text: str) -> Card:
    return Card.from_str(text)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def timed(tmp_path: Path, clock: Clock) -> Iterator[Table]:
    journal = Journal(tmp_path / "journal.db")
    table = Table(TableDaemon(journal, language="en", clock=clock))
    table.start([1, 2])
    yield table
    journal.close()


def at(table: Table, clock: Clock, second: float, seat: Seat, call: str) -> None:
    clock.now = second
    table.call(seat, call)


def records(table: Table) -> list[tuple[str, dict[str, object]]]:
    board = table.state.board
    assert board is not None
    return [(r.kind, dict(r.data)) for r in board.records]


# -- Law 16B2: a hesitation, and the opponents' reservation --------------------------------------

@pytest.fixture
def hesitated(timed: Table, clock: Clock) -> Table:
    """North opens 1NT, East passes, South thinks eighteen seconds before 3NT."""
    at(timed, clock, 1000, N, "1NT")
    at(timed, clock, 1002, E, "Pass")
    at(timed, clock, 1020, S, "3NT")
    return timed


def test_the_opponents_are_shown_the_hesitation(hesitated: Table) -> None:
    assert hesitated.view(W)[2] == "Pause S: ALERT res"
    assert hesitated.view(E)[2] == "Pause S: ALERT res"
    assert hesitated.view(N)[2] == "Turn: W"         # the hesitator's side is not asked


def test_an_opponent_reserves_the_rights_on_the_keypad(hesitated: Table) -> None:
    hesitated.mark()
    hesitated.press(E, "ALERT")
    [event] = hesitated.new_events()
    assert (event.type, dict(event.data)) == ("option", {
        "kind": "unauthorised_information", "side": "NS", "law": "16B2", "by": "E"})
    assert records(hesitated) == [("unauthorised_information",
                                   {"side": "NS", "law": "16B2", "by": "E"})]
    assert hesitated.view(W)[2] == "Your call"       # reserved once for the side
    again = TableState.replay(hesitated.events())
    assert again.board is not None and len(again.board.records) == 1


def test_the_reservation_closes_when_the_hesitators_partner_calls(hesitated: Table,
                                                                  clock: Clock) -> None:
    at(hesitated, clock, 1022, W, "Pass")
    assert hesitated.view(E)[2] == "Pause S: ALERT res"
    at(hesitated, clock, 1024, N, "Pass")
    assert hesitated.view(E)[2] == "Your call"
    assert hesitated.view(W)[2] == "Turn: E"
    hesitated.mark()
    hesitated.press(W, "ALERT")             # no more a reservation: partner's alert (late)
    assert "option" not in hesitated.new_types()


def test_a_call_in_tempo_is_no_hesitation(timed: Table, clock: Clock) -> None:
    at(timed, clock, 1000, N, "1NT")
    at(timed, clock, 1004, E, "Pass")
    assert timed.view(S)[2] == "Your call"
    assert timed.view(W)[2] == "Turn: S"


def test_the_first_call_is_not_timed(timed: Table, clock: Clock) -> None:
    at(timed, clock, 1090, N, "1NT")    # the hands were being scanned
    assert timed.view(E)[2] == "Your call"


# -- Law 25B: a change of call after a pause -----------------------------------------------------

@pytest.fixture
def changed(timed: Table, clock: Clock) -> Table:
    """North bids 1NT and, eight seconds later, replaces it with 2NT."""
    at(timed, clock, 1000, N, "1NT")
    clock.now = 1008
    timed.mark()
    timed.press(N, "UNDO", *call_keys("2NT"))
    return timed


def auction(table: Table) -> list[str]:
    board = table.state.board
    assert board is not None
    return [str(e.call) for e in board.auction.entries]


def test_a_late_change_goes_to_the_director_and_asks_the_left_hand_opponent(
        changed: Table) -> None:
    assert changed.new_types() == ["change", "director"]
    director = changed.new_events()[1].data
    assert (director["reason"], director["law"], director["seat"]) == (
        "change_of_call", "25B", "N")
    assert auction(changed) == ["2NT"]
    assert changed.view(E)[2] == "Change: OK=yes UNDO"


def test_the_left_hand_opponent_accepts_the_change(changed: Table) -> None:
    changed.mark()
    changed.press(E, "OK")                # 25B1: the second call stands
    [event] = changed.new_events()
    assert dict(event.data) == {"kind": "change_of_call", "change": "accept", "by": "E"}
    assert auction(changed) == ["2NT"]
    assert records(changed) == [("change_of_call", {"change": "accept", "by": "E"})]
    assert changed.view(E)[2] == "Your call"


def test_the_left_hand_opponent_does_not_accept(changed: Table) -> None:
    changed.press(E, "UNDO")              # 25B2: the change is cancelled
    assert auction(changed) == ["1NT"]
    assert records(changed) == [("change_of_call", {"change": "cancel", "by": "E"})]
    changed.calls("Pass")
    again = TableState.replay(changed.events())
    assert again.board is not None
    assert [str(e.call) for e in again.board.auction.entries] == ["1NT", "Pass"]


def test_calling_over_the_change_accepts_it(changed: Table) -> None:
    changed.calls("Pass")                 # 25B1: accepted if LHO calls over it
    board = changed.state.board
    assert board is not None and board.late_change is None
    assert auction(changed) == ["2NT", "Pass"]


def test_the_director_rules_the_change_from_the_console(changed: Table) -> None:
    changed.command("r-1", "ruling", {"kind": "change_of_call", "change": "cancel"})
    assert auction(changed) == ["1NT"]


def test_a_change_without_pause_is_law_25a(timed: Table, clock: Clock) -> None:
    at(timed, clock, 1000, N, "1NT")
    clock.now = 1003
    timed.mark()
    timed.press(N, "UNDO", *call_keys("2NT"))
    assert timed.new_types() == ["change"]
    assert timed.view(E)[2] == "Your call"


# -- Law 58B or 57A: the reader's clock tells two cards at once from a card too soon -----------

@pytest.fixture
def dealt(tmp_path: Path, clock: Clock) -> Iterator[Table]:
    """Board 1 with the deal known, 1NT by North; East leads the D4 at second 1100."""
    journal = Journal(tmp_path / "dealt.db")
    table = Table(TableDaemon(journal, language="en", clock=clock))
    reach(table, Phase.LEAD)
    clock.now = 1100
    table.play("D4")
    yield table
    journal.close()


def test_a_second_card_read_with_the_first_is_two_cards_at_once(dealt: Table,
                                                                clock: Clock) -> None:
    clock.now = 1101                      # within 1.5 s of the D4 (Law 58B)
    dealt.scan("D7")
    board = dealt.state.board
    assert board is not None and board.simultaneous == (E, c("D4"), c("D7"))


def test_a_second_card_read_later_is_a_card_played_too_soon(dealt: Table,
                                                           clock: Clock) -> None:
    clock.now = 1105                      # East leads again before partner has played: 57A
    dealt.scan("D7")
    board = dealt.state.board
    assert board is not None and board.simultaneous is None and board.play is not None
    assert board.play.penalty_cards == [PenaltyCard(E, c("D7"), True, "57A")]
    assert board.play.premature == (W, 0)
