"""The auction at the keypads: calls, refusals naming their law, alerts, changes of call."""

from __future__ import annotations

import pytest

from laws import Seat
from tablemodel.state import Phase

from .helpers import Table, reach

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def auction(table: Table) -> list[str]:
    board = table.state.board
    assert board is not None
    return [f"{e.seat}:{e.call}" for e in board.auction.entries]


@pytest.fixture
def setup(table: Table) -> Table:
    """Board 1 on the table: North deals, no call yet."""
    reach(table, Phase.SETUP)
    return table


def test_calls_in_rotation_become_events(setup: Table) -> None:
    setup.mark()
    setup.press(N, "1", "NT", "OK")
    assert setup.phase is Phase.AUCTION
    setup.press(E, "2", "H", "OK")
    setup.press(S, "X", "OK")
    setup.press(W, "XX", "OK")
    setup.press(N, "PASS", "OK")
    assert [(e.type, dict(e.data)) for e in setup.new_events()] == [
        ("call", {"seat": "N", "call": "1NT"}), ("call", {"seat": "E", "call": "2H"}),
        ("call", {"seat": "S", "call": "X"}), ("call", {"seat": "W", "call": "XX"}),
        ("call", {"seat": "N", "call": "Pass"})]
    assert all(e.board == 1 for e in setup.new_events())


def test_the_last_level_and_strain_pressed_make_the_call(setup: Table) -> None:
    setup.press(N, "2", "3", "S", "H", "OK")   # 3 replaces 2; H replaces S
    assert auction(setup) == ["N:3H"]


def test_nothing_happens_until_ok(setup: Table) -> None:
    setup.mark()
    setup.press(N, "1", "NT")
    assert setup.new_events() == []
    assert setup.view(N)[3] == "> 1NT"


def test_undo_rubs_out_what_was_typed(setup: Table) -> None:
    setup.press(N, "1", "NT", "UNDO", "OK")
    assert auction(setup) == []
    assert setup.notice(N) is not None and setup.notice(N).key == "enter_call"


def test_strain_before_level_is_refused(setup: Table) -> None:
    setup.press(N, "NT")
    notice = setup.notice(N)
    assert notice is not None and notice.key == "level_first"


@pytest.mark.parametrize(("before", "seat", "keys", "law"), [
    # Law 27: a bid that does not supersede the last one.
    (["1NT"], E, ["1", "C", "OK"], "27"),
    (["1NT"], E, ["1", "NT", "OK"], "27"),
    (["1NT", "2H"], S, ["2", "D", "OK"], "27"),
    # Laws 30-32: out of rotation; the law depends on the call (pass, bid, double).
    ([], E, ["PASS", "OK"], "30"),
    ([], E, ["1", "C", "OK"], "31"),
    ([], S, ["X", "OK"], "32"),
    ([], W, ["1", "S", "OK"], "31"),
    (["1C"], S, ["PASS", "OK"], "30"),
    # Law 25: a second call by the player who has just called is a change, not a call.
    (["1C"], N, ["1", "D", "OK"], "25"),
    # Law 19A1/36: a double of one's own side, or of nothing; a redouble of no double.
    (["1C", "Pass"], S, ["X", "OK"], "36"),
    ([], N, ["X", "OK"], "36"),
    (["1C"], E, ["XX", "OK"], "36"),
    (["1C", "X"], S, ["X", "OK"], "36"),
    (["1C", "X", "Pass"], W, ["XX", "OK"], "36"),
])
def test_illegal_call_is_refused_naming_its_law(setup: Table, before: list[str], seat: Seat,
                                               keys: list[str], law: str) -> None:
    setup.calls(*before)
    setup.mark()
    setup.press(seat, *keys)
    assert setup.new_events() == []
    notice = setup.notice(seat)
    assert notice is not None and notice.error
    assert notice.law == law
    assert len(auction(setup)) == len(before)
    # Only the seat that called is told.
    assert all(setup.notice(other) is None for other in Seat if other is not seat)


def test_refused_call_leaves_the_entry_clear_for_another(setup: Table) -> None:
    setup.calls("1NT")
    setup.press(E, "1", "C", "OK")
    setup.press(E, "2", "C", "OK")
    assert auction(setup) == ["N:1NT", "E:2C"]


def test_display_names_the_law_of_an_insufficient_bid(setup: Table) -> None:
    setup.calls("1NT")
    setup.press(E, "1", "C", "OK")
    assert setup.view(E)[3] == "Insufficient: 1♣ L27"


# -- the end of the auction (Law 22, Law 39) ----------------------------------------------------

def test_three_passes_after_a_bid_end_the_auction(setup: Table) -> None:
    setup.calls("1NT", "Pass", "Pass", "Pass")
    assert setup.phase is Phase.LEAD
    board = setup.state.board
    assert board is not None and board.play is not None
    assert str(board.play.contract) == "1NT" and board.play.declarer is N


@pytest.mark.parametrize("keys", [["PASS", "OK"], ["1", "NT", "OK"]])
def test_a_call_after_the_auction_is_refused_by_law_39(setup: Table, keys: list[str]) -> None:
    setup.calls("1NT", "Pass", "Pass", "Pass")
    setup.mark()
    setup.press(E, *keys)
    assert setup.new_types() == []
    notice = setup.notice(E)
    assert notice is not None and notice.law == "39"


def test_keys_left_from_the_auction_do_not_break_the_next_phase(setup: Table) -> None:
    setup.calls("1NT", "Pass", "Pass")
    setup.press(E, "2", "NT")          # East types over the last pass, never confirms
    setup.calls("Pass")
    assert setup.phase is Phase.LEAD
    setup.mark()
    setup.press(E, "OK")
    assert setup.new_types() == []


# -- alerts (Law 20F and the alerting norms: the caller's partner, before the next call) -------

def test_partner_alerts_the_last_call(setup: Table) -> None:
    setup.calls("1C")
    setup.mark()
    setup.press(S, "ALERT")
    assert [(e.type, dict(e.data)) for e in setup.new_events()] == [
        ("alert", {"seat": "S", "index": 0})]
    board = setup.state.board
    assert board is not None and board.auction.entries[0].alert
    assert setup.view(E)[1] == "1♣!"


def test_alerting_twice_makes_one_event(setup: Table) -> None:
    setup.calls("1C")
    setup.mark()
    setup.press(S, "ALERT", "ALERT")
    assert setup.new_types() == ["alert"]


@pytest.mark.parametrize(("calls", "seat"), [
    (["1C"], N),            # the caller
    (["1C"], E),            # an opponent
    (["1C"], W),
    ([], S),                # nothing to alert
])
def test_only_the_callers_partner_may_alert(setup: Table, calls: list[str], seat: Seat) -> None:
    setup.calls(*calls)
    setup.mark()
    setup.press(seat, "ALERT")
    assert setup.new_events() == []
    notice = setup.notice(seat)
    assert notice is not None and notice.key == "alert_partner" and notice.error


def test_an_alert_after_the_next_call_is_late_and_calls_the_director(setup: Table) -> None:
    setup.calls("1C", "Pass")
    setup.mark()
    setup.press(S, "ALERT")
    events = setup.new_events()
    assert (events[0].type, dict(events[0].data)) == (
        "alert", {"seat": "S", "index": 0, "late": True})
    assert events[1].type == "director" and events[1].data["law"] == "21B"


# -- Law 25A: an unintended call replaced ----------------------------------------------------

def test_unintended_call_is_replaced_before_partner_calls(setup: Table) -> None:
    setup.calls("1C")
    setup.mark()
    setup.press(N, "UNDO")
    notice = setup.notice(N)
    assert notice is not None and notice.key == "replace" and not notice.error
    setup.press(N, "1", "D", "OK")
    assert [(e.type, dict(e.data)) for e in setup.new_events()] == [
        ("change", {"seat": "N", "call": "1D"})]
    assert auction(setup) == ["N:1D"]


def test_replacing_a_call_withdraws_lhos_call_over_it(setup: Table) -> None:
    setup.calls("1C", "1H")
    setup.press(N, "UNDO")
    setup.press(N, "1", "S", "OK")
    assert auction(setup) == ["N:1S"]
    board = setup.state.board
    assert board is not None and board.auction.turn is E


def test_the_replacement_must_itself_be_legal(setup: Table) -> None:
    setup.calls("1NT", "2C")
    setup.press(E, "UNDO")
    setup.press(E, "1", "H", "OK")
    notice = setup.notice(E)
    assert notice is not None and notice.law == "27"
    assert auction(setup) == ["N:1NT", "E:2C"]
    setup.press(E, "2", "H", "OK")
    assert auction(setup) == ["N:1NT", "E:2H"]


def test_no_change_once_partner_has_called(setup: Table) -> None:
    setup.calls("1C", "Pass", "1H")
    setup.mark()
    setup.press(N, "UNDO")
    notice = setup.notice(N)
    assert notice is not None and notice.law == "25A" and notice.error
    assert setup.new_events() == []


def test_nothing_to_change_before_any_call(setup: Table) -> None:
    setup.press(N, "UNDO")
    notice = setup.notice(N)
    assert notice is not None and notice.law == "25A"


def test_last_pass_is_changed_until_the_lead_is_faced(setup: Table) -> None:
    # Law 25A3: the auction ended before partner's turn.
    setup.calls("1NT", "Pass", "Pass", "Pass")
    assert setup.phase is Phase.LEAD
    setup.press(W, "UNDO")
    setup.press(W, "2", "C", "OK")
    assert setup.phase is Phase.AUCTION
    assert auction(setup) == ["N:1NT", "E:Pass", "S:Pass", "W:2C"]
    board = setup.state.board
    assert board is not None and board.play is None


def test_no_change_after_the_opening_lead(setup: Table) -> None:
    setup.calls("1NT", "Pass", "Pass", "Pass")
    setup.play("D4")
    setup.mark()
    setup.press(W, "UNDO", "2", "C", "OK")
    assert "change" not in setup.new_types()


def test_refused_change_does_not_block_the_seats_next_call(setup: Table) -> None:
    setup.calls("1C")
    setup.press(N, "UNDO")               # North means to change 1C ...
    setup.calls("Pass", "1H", "Pass")    # ... but South calls first
    setup.press(N, "1", "NT", "OK")
    assert setup.notice(N) is not None and setup.notice(N).law == "25A2"
    setup.press(N, "2", "C", "OK")       # now North's own turn: an ordinary call
    assert auction(setup)[-1] == "N:2C"
