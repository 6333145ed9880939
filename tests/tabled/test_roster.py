"""The session's roster at the table (issue 17's register): an unknown number is refused at
the seat, the director's visitor arrives as a ``roster`` command and is then accepted, a
resent command changes nothing, and without a roster the table takes any number."""

from __future__ import annotations

from typing import Any

import pytest

from laws import Seat
from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tablemodel.state import Phase, TableState
from tablemodel.wire import Command, WireError

from .conftest import MakeTable
from .helpers import Table, number_keys

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
ROSTER = {"101": "Íñigo Muñoz", "102": "Begoña Ibáñez", "103": "José Pérez",
          "104": "María Núñez-Sáenz de la Peña"}


def _sign_in(table: Table, seat: Seat, number: int) -> None:
    table.press(seat, *number_keys(number))


def test_an_unknown_number_is_refused_and_the_seat_tries_again(table: Table) -> None:
    table.assign(roster=ROSTER)
    table.mark()
    _sign_in(table, E, 777)
    assert table.new_events() == []
    notice = table.notice(E)
    assert notice is not None and notice.key == "unknown_player"
    assert notice.args == {"number": 777}
    assert table.view(E)[3] == "Unknown: 777"
    assert E not in table.state.players
    _sign_in(table, E, 102)  # the seat types again, a number the register has
    assert [(e.type, dict(e.data)) for e in table.new_events()] == [
        ("player", {"seat": "E", "number": 102})]
    assert table.view(E)[2] == "102 Begoña Ibáñez"


def test_spanish_seat_display_refuses_and_names(make_table: MakeTable) -> None:
    table = make_table("es")
    table.assign(roster=ROSTER)
    _sign_in(table, S, 5)
    assert table.view(S)[3] == "No consta: 5"
    _sign_in(table, S, 104)
    assert table.view(S)[2:4] == ["María Núñez-Sáenz de", "la Peña"]  # the name whole


def test_a_visitor_added_while_the_table_waits_is_then_accepted(table: Table) -> None:
    table.assign(roster=ROSTER)
    for seat, number in ((N, 101), (S, 103), (W, 104)):
        _sign_in(table, seat, number)
    _sign_in(table, E, 5001)
    assert table.phase is Phase.PLAYERS and E not in table.state.players
    table.mark()
    table.command("roster-ev-t1-5001", "roster", {"players": {"5001": "Visitante Ñandú"}})
    assert [(e.type, dict(e.data)) for e in table.new_events()] == [
        ("roster", {"cmd": "roster-ev-t1-5001", "players": {"5001": "Visitante Ñandú"}})]
    notice = table.notice(E)
    assert notice is not None and notice.key == "roster"
    told = table.notice(N)
    assert told is None or told.key != "roster"  # North sat already: nothing to tell
    _sign_in(table, E, 5001)
    assert table.state.players[E] == 5001
    assert table.phase is Phase.BOARD
    assert table.state.roster is not None and table.state.roster[101] == "Íñigo Muñoz"
    # Choosing the board, each seat still sees whom the register seated there.
    assert table.view(E)[2] == "5001 Visitante Ñandú"
    assert table.view(N)[2] == "101 Íñigo Muñoz"


def test_a_resent_roster_command_changes_nothing(table: Table) -> None:
    table.assign(roster=ROSTER)
    table.command("roster-x", "roster", {"players": {"5001": "Visitante"}})
    table.mark()
    seq = table.state.seq
    table.command("roster-x", "roster", {"players": {"5001": "Visitante"}})
    assert table.new_events() == [] and table.state.seq == seq
    assert table.state.commands["roster-x"] == seq


def test_without_a_roster_any_number_sits_as_before(table: Table) -> None:
    table.assign()
    assert table.state.roster is None
    _sign_in(table, N, 777)
    assert table.state.players == {N: 777}
    assert table.view(N)[2] == "Player 777"


def test_no_number_is_still_allowed_with_a_roster(table: Table) -> None:
    table.assign(roster=ROSTER)
    table.press(N, "OK")
    assert table.state.players == {N: None}


def test_the_roster_survives_a_restart(tmp_path: Any) -> None:
    """The roster is in the journal: a table that restarts offline still checks numbers."""
    path = tmp_path / "journal.db"
    journal = Journal(path)
    try:
        table = Table(TableDaemon(journal, clock=lambda: 1000.0))
        table.assign(roster=ROSTER)
        table.command("roster-v", "roster", {"players": {"5001": "Visitante"}})
    finally:
        journal.close()
    journal = Journal(path)
    try:
        replayed = TableState.replay(journal.events())
        assert replayed.roster == {**{int(k): v for k, v in ROSTER.items()}, 5001: "Visitante"}
        again = Table(TableDaemon(journal, clock=lambda: 1000.0))
        _sign_in(again, N, 9)
        assert N not in again.state.players
        _sign_in(again, N, 5001)
        assert again.state.players == {N: 5001}
    finally:
        journal.close()


@pytest.mark.parametrize(("roster", "message"), [
    ({"0": "Nadie"}, "not a player number"),
    ({"01": "Cero"}, "not a player number"),
    ({"-3": "Negativo"}, "not a player number"),
    ({"1234567890": "Diez cifras"}, "not a player number"),
    ({"12": "x" * 41}, "at most 40 characters"),
    ({"12": "Tab\there"}, "control character"),
    ({"12": 7}, "at most 40 characters"),
    ({str(n): "P" for n in range(1, 1002)}, "at most 1000"),
])
def test_the_wire_refuses_a_bad_roster(roster: dict[str, Any], message: str) -> None:
    with pytest.raises(WireError, match=message):
        Command.from_payload(Command("c", "roster", {"players": roster}).to_payload())
    with pytest.raises(WireError, match=message):
        Command.from_payload(Command("a", "assign", {"round": 1, "ns": 1, "ew": 2, "boards": [1],
                                                     "roster": roster}).to_payload())
