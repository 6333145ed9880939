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

from laws import Card, Seat
from laws.penalty import PenaltyCard
from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tablemodel.regulation import (
    DEFAULT_CHANGE_PAUSE,
    DEFAULT_HESITATION,
    DEFAULT_SIMULTANEOUS,
    PROFILES,
    Profile,
)
from tablemodel.state import Phase, TableState
from tests.clock import Clock

from .helpers import PBN, Table, call_keys, reach

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W

PAUSE = ["Pause by S: ALERT", "reserves your rights"]  # Law 16B2, over two lines


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
    assert hesitated.view(W)[2:4] == PAUSE
    assert hesitated.view(E)[2:4] == PAUSE
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
    assert hesitated.view(E)[2:4] == PAUSE
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


# -- The tempo is the regulation profile's (tablemodel.regulation.Profile) ---------------------

#: A profile whose tempo is twice as patient as the default's (10 s, 5 s, 1.5 s).
PATIENT = Profile("patient", "A patient regulator", self_alert=False, hesitation=20.0,
                  change_pause=10.0, simultaneous=3.0)


@pytest.fixture
def profiles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PROFILES, PATIENT.name, PATIENT)


@pytest.fixture
def journals() -> Iterator[list[Journal]]:
    """The journals a test opened, closed after it, on failure too."""
    opened: list[Journal] = []
    yield opened
    for journal in opened:
        journal.close()


def profiled(journals: list[Journal], tmp_path: Path, clock: Clock, profile: str, *,
             deal: bool = False) -> Table:
    """A table whose round is played under ``profile``, board 1 on it."""
    journal = Journal(tmp_path / f"{profile}.db")
    journals.append(journal)
    table = Table(TableDaemon(journal, language="en", clock=clock))
    extra: dict[str, object] = {"conduct": {"profile": profile}}
    if deal:
        extra.update(deals={"1": PBN})
    table.assign([1, 2], **extra)
    table.seat_players()
    table.choose_board(1)
    return table


@pytest.mark.parametrize(("profile", "hesitated"), [("feb", True), ("patient", False)])
def test_the_profile_says_how_long_a_pause_is_a_hesitation(
        profiles: None, journals: list[Journal], tmp_path: Path, clock: Clock,
        profile: str, hesitated: bool) -> None:
    """Law 16B1: South thinks eighteen seconds: a hesitation under the default tempo, not
    under a profile that allows twenty."""
    table = profiled(journals, tmp_path, clock, profile)
    at(table, clock, 1000, N, "1NT")
    at(table, clock, 1002, E, "Pass")
    at(table, clock, 1020, S, "3NT")
    assert table.state.conduct.profile.name == profile
    assert table.view(W)[2:3] == (PAUSE[:1] if hesitated else ["Your call"])
    table.mark()
    table.press(E, "ALERT")
    assert ("option" in table.new_types()) is hesitated


@pytest.mark.parametrize(("profile", "late"), [("feb", True), ("patient", False)])
def test_the_profile_says_when_a_change_of_call_came_after_a_pause(
        profiles: None, journals: list[Journal], tmp_path: Path, clock: Clock,
        profile: str, late: bool) -> None:
    """Law 25A1/25B: North replaces 1NT with 2NT eight seconds later: after a pause under the
    default tempo (five seconds), without one under a profile that allows ten."""
    table = profiled(journals, tmp_path, clock, profile)
    at(table, clock, 1000, N, "1NT")
    clock.now = 1008
    table.mark()
    table.press(N, "UNDO", *call_keys("2NT"))
    assert table.new_types() == (["change", "director"] if late else ["change"])
    board = table.state.board
    assert board is not None and (board.late_change is not None) is late
    assert auction(table) == ["2NT"]


@pytest.mark.parametrize(("profile", "together"), [("feb", False), ("patient", True)])
def test_the_profile_says_how_close_two_cards_are_at_once(
        profiles: None, journals: list[Journal], tmp_path: Path, clock: Clock,
        profile: str, together: bool) -> None:
    """Law 58B or 57A: East's second card is read 2.5 s after the D4: a card played too soon
    under the default tempo (1.5 s), two cards at once under a profile that allows three."""
    table = profiled(journals, tmp_path, clock, profile, deal=True)
    table.calls("1NT", "Pass", "Pass", "Pass")
    clock.now = 1100
    table.play("D4")
    clock.now = 1102.5
    table.scan("D7")
    board = table.state.board
    assert board is not None and board.play is not None
    if together:
        assert board.simultaneous == (E, c("D4"), c("D7"))
        assert board.play.penalty_cards == []
    else:
        assert board.simultaneous is None
        assert board.play.penalty_cards == [PenaltyCard(E, c("D7"), True, "57A")]


def test_the_tempo_is_carried_by_the_profiles_name_through_a_replay(
        profiles: None, journals: list[Journal], tmp_path: Path, clock: Clock) -> None:
    """The journal names the profile; a table rebuilt from it measures the same tempo."""
    table = profiled(journals, tmp_path, clock, "patient")
    at(table, clock, 1000, N, "1NT")
    at(table, clock, 1025, E, "Pass")          # 25 s: a hesitation even for this profile
    again = TableState.replay(table.events())
    assert again.conduct.profile is PATIENT
    assert again.board is not None and again.board.hesitation_open(S, 20.0) == 1
    assert again.board.hesitation_open(S, 30.0) is None


@pytest.mark.parametrize("tempo", [
    {"hesitation": 0.0}, {"hesitation": 301.0}, {"change_pause": -1.0},
    {"simultaneous": 0.0}, {"simultaneous": 11.0}, {"change_pause": 61.0}])
def test_a_profile_refuses_a_tempo_that_makes_no_sense(tempo: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Profile("bad", "Bad", self_alert=False, **tempo)


def test_the_default_profiles_keep_the_tempo_the_tables_had() -> None:
    for profile in PROFILES.values():
        assert (profile.hesitation, profile.change_pause, profile.simultaneous) == (
            DEFAULT_HESITATION, DEFAULT_CHANGE_PAUSE, DEFAULT_SIMULTANEOUS)
