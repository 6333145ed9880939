"""Revokes at the table (Laws 61-64): the revoke seen first, then at the end of play the
tricks transferred on every display, the players' OK, the director's confirmation or change
(64C) and the result that keeps the transfer apart from the tricks won.

Board 1, 1NT by North, East to lead, the hands not known to the table (so a revoke stands
until it comes to light, Law 61). West shows out of diamonds on trick 1, which South wins;
West wins trick 2 (the revoke established, Law 63A1) and leads a diamond to trick 3: the revoke
comes to light. East-West won a trick after the revoke, so Law 64A2 transfers one trick to
North-South.
"""

from __future__ import annotations

import pytest

from laws import Seat
from tablemodel.state import Phase, TableState

from .helpers import Table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
# Trick 1: West shows out of diamonds, South wins; trick 2 West wins; trick 3 West leads a
# diamond (the revoke comes to light), South wins.
TRICKS = "D4 D6 S3 D5  C2 C8 C3 C4  D3 D7 D8 D9"


@pytest.fixture
def revoked(table: Table) -> Table:
    """The revoke has come to light; North then claims 7 of the 10 tricks left, agreed."""
    table.start([1, 2])
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.play(TRICKS)
    table.mark()
    table.claim(N, 7)
    table.press(E, "OK")
    table.press(W, "OK")
    return table


def result_event(table: Table) -> dict[str, object]:
    return dict(next(e for e in reversed(table.events()) if e.type == "result").data)


def test_the_end_of_play_shows_the_transfer_apart_from_the_tricks_won(revoked: Table) -> None:
    assert revoked.phase is Phase.RESULT
    # 2 tricks in the play and 7 claimed: 9, and the trick transferred (Law 64A2).
    assert result_event(revoked) == {"contract": "1NT", "declarer": "N", "tricks": 10,
                                     "score_ns": 180, "transferred": 1, "lead": "D4"}
    board = revoked.state.board
    assert board is not None and board.result is not None
    assert (board.result.tricks, board.result.transferred) == (10, 1)
    for seat in Seat:
        assert revoked.view(seat)[2] == "Revoke: 1 to NS OK"


def test_the_director_is_called_to_confirm_or_change_the_transfer(revoked: Table) -> None:
    calls = [e for e in revoked.new_events() if e.type == "director"]
    assert [dict(c.data) for c in calls] == [{
        "seat": None, "reason": "revoke_transfer", "law": "64C",
        "detail": "board 1: +1 trick(s) to declarer; revokes: W trick 1 (S3)",
        "code": "revoke_transfer", "params": {"board": 1, "tricks": "+1", "revokes": "W 1 S3"}}]


def test_spanish_displays_show_the_revoke(make_table) -> None:  # type: ignore[no-untyped-def]
    table = make_table("es")
    table.start([1, 2])
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.play(TRICKS)
    table.claim(N, 7)
    table.press(E, "OK")
    table.press(W, "OK")
    assert table.view(S)[2] == "Renuncio: 1 a NS OK"


def test_the_players_agree_and_the_board_waits_for_the_director(revoked: Table) -> None:
    revoked.press(N, "OK")
    assert revoked.view(S)[2] == "Revoke: 1 to NS"       # agreed for North-South
    assert revoked.view(E)[2] == "Revoke: 1 to NS OK"
    revoked.press(E, "OK")
    # Law 64C: both sides agreed; the board stays until the director has ruled.
    assert revoked.phase is Phase.RESULT and revoked.state.results == {}


def test_the_director_confirms_and_the_board_is_done(revoked: Table) -> None:
    revoked.confirm()
    revoked.mark()
    revoked.command("r-1", "ruling", {"kind": "revoke_transfer", "transferred": 1})
    assert revoked.new_types() == ["ruling"]          # the same result: no new one
    result = revoked.state.results[1]
    assert (result.tricks, result.transferred, result.score_ns) == (10, 1, 180)
    assert revoked.phase is Phase.BOARD


def test_the_director_changes_the_transfer_and_the_players_confirm_again(
        revoked: Table) -> None:
    revoked.confirm()
    revoked.mark()
    # Law 64C: equity says nothing moves; the table gives the result again.
    revoked.command("r-1", "ruling", {"kind": "revoke_transfer", "transferred": 0})
    assert revoked.new_types() == ["ruling", "result"]
    assert result_event(revoked) == {"contract": "1NT", "declarer": "N", "tricks": 9,
                                     "score_ns": 150, "lead": "D4"}
    assert revoked.view(N)[2] == "Revoke: 0 to NS OK"
    assert revoked.phase is Phase.RESULT
    revoked.confirm()
    result = revoked.state.results[1]
    assert (result.tricks, result.transferred) == (9, 0)
    again = TableState.replay(revoked.events())
    assert again.results == revoked.state.results and again.board is None


def test_the_director_may_transfer_more_than_the_table_counted(revoked: Table) -> None:
    revoked.command("r-1", "ruling", {"kind": "revoke_transfer", "transferred": 2})
    assert result_event(revoked)["tricks"] == 11
    assert result_event(revoked)["transferred"] == 2
    assert revoked.view(W)[2] == "Revoke: 2 to NS OK"


def test_the_transfer_is_refused_before_the_end_of_play(table: Table) -> None:
    table.start([1, 2])
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.play(TRICKS)
    table.mark()
    table.command("r-1", "ruling", {"kind": "revoke_transfer", "transferred": -1})
    [event] = table.new_events()
    assert event.type == "refused" and "end of play" in event.data["reason"]


def test_a_board_without_a_revoke_shows_no_transfer(table: Table) -> None:
    table.start([1, 2])
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.play("D4 S9 D3 D5")
    table.claim(N, 9)
    table.press(E, "OK")
    table.press(W, "OK")
    assert table.view(N)[2] == "OK to confirm"
    assert "transferred" not in result_event(table)
    table.confirm()
    assert table.state.results[1].transferred == 0
