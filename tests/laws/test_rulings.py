"""What the director rules and the table enforces (Laws 28A, 30B2, 37), and a ruling the
table cannot take.

Law 28A (2007): a call is in rotation when made at the turn of the player's right-hand
opponent, if that opponent is required by law to pass: the pass is recorded, the call
stands. Law 30B2 (2007): after a pass out of rotation at partner's turn, the offender must
pass for the rest of the auction (a) and partner may, at that turn, pass or make any
sufficient bid, but not double or redouble (b). Law 37: a seat that must pass is refused
anything else.

A ruling that cannot apply is refused: the table answers the console with the reason, and no
display says anything of it.

Board 1: North deals, the deal known.
"""

from __future__ import annotations

from server.link.director_calls import ruling_data
from tablemodel.wire import Command

from .table import E, LawTable, N, S, W


def test_the_next_player_calls_at_the_turn_of_one_who_must_pass(table: LawTable) -> None:
    table.sit_down()
    table.calls("1NT", "Pass")
    table.ruling("r-1", {"kind": "require_pass", "seat": "S", "law": "31"})
    table.mark()
    table.call(W, "2C")                       # at South's turn: in rotation (28A)
    assert table.published() == [("call", {"seat": "W", "call": "2C"})]
    assert table.auction() == ["1NT", "Pass", "Pass", "2C"]
    assert table.display(N)[2] == "Your call"


def test_a_seat_that_must_pass_is_refused_a_bid(table: LawTable) -> None:
    table.sit_down()
    table.calls("1NT", "Pass")
    table.ruling("r-1", {"kind": "require_pass", "seat": "S", "law": "31"})
    assert table.display(S)[3] == "Ruling: must pass"
    table.mark()
    table.call(S, "2C")
    assert table.published() == []
    assert table.display(S)[3] == "You must pass L37"


def test_partner_may_bid_but_not_double_after_30b2(table: LawTable) -> None:
    table.sit_down()
    table.calls("1NT")
    # East passed at West's turn (30B2): East passes to the end; West, at this turn, may
    # bid or pass but not double.
    table.ruling("r-1", {"kind": "require_pass", "seat": "E", "law": "30B2a"})
    table.ruling("r-2", {"kind": "require_pass", "seat": "W", "law": "30B2b",
                         "bids_allowed": True})
    assert table.display(W)[3] == "Ruling: no X/XX"
    table.calls("Pass")                       # East
    table.call(S, "2C")
    table.mark()
    table.call(W, "X")
    assert table.published() == []
    assert table.display(W)[3] == "No X or XX L30B2(b)"
    table.call(W, "2D")
    assert table.published() == [("call", {"seat": "W", "call": "2D"})]
    table.calls("3NT", "Pass", "Pass")        # North, East, South: West may double now
    table.call(W, "X")
    assert table.auction()[-1] == "X"


def test_the_wire_and_the_console_carry_30b2b() -> None:
    data = {"kind": "require_pass", "seat": "W", "law": "30B2b", "bids_allowed": True}
    decoded = Command.from_payload(Command("r", "ruling", data).to_payload())
    assert decoded.data["bids_allowed"] is True
    form = ruling_data("require_pass", {"seat": "W", "law": "30B2b", "scope": "auction",
                                        "bids_allowed": "required"})
    assert form["bids_allowed"] is True and form["scope"] == "next_turn"


def test_a_ruling_the_table_refuses_shows_nothing(table: LawTable) -> None:
    table.sit_down()
    table.calls("1NT")
    table.mark()
    table.ruling("r-1", {"kind": "require_pass", "seat": "S", "law": "31", "frob": 1})
    published = table.published()
    assert [kind for kind, _ in published] == ["refused"]
    assert published[0][1]["cmd"] == "r-1" and "frob" in published[0][1]["reason"]
    for seat in (N, E, S, W):
        assert "Ruling" not in table.shown(seat)
    table.calls("Pass", "2C")                 # South is not barred
