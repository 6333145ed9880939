"""The server's commands at the table: each answered by one event carrying its id (so a
repeated command changes nothing), and the director's rulings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from laws import Seat
from tabled.daemon import Acked, TableDaemon
from tabled.journal import Journal
from tablemodel.state import Phase
from tablemodel.wire import Command, Event

from .helpers import Table, reach

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


class FakePublisher:
    """The uplink as the daemon sees it: events get message ids, states are kept."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.states: list[Mapping[str, Any]] = []

    def publish_event(self, event: Event) -> int | None:
        self.events.append(event)
        return 1000 + len(self.events)

    def publish_state(self, snapshot: Mapping[str, Any]) -> None:
        self.states.append(snapshot)


def auction(table: Table) -> list[str]:
    board = table.state.board
    assert board is not None
    return [f"{e.seat}:{e.call}" for e in board.auction.entries]


def played(table: Table) -> list[str]:
    board = table.state.board
    assert board is not None
    return [f"{seat}:{card}" for seat, card in board.cards]


# -- idempotence --------------------------------------------------------------------------------

@pytest.mark.parametrize(("phase", "kind", "data", "answer"), [
    (Phase.WAITING, "assign", {"round": 1, "ns": 1, "ew": 2, "boards": [1]}, "assign"),
    (Phase.AUCTION, "ruling", {"kind": "take_back", "calls": 0}, "ruling"),
    (Phase.BOARD, "ruling", {"kind": "undo_cards", "cards": 1}, "refused"),
    (Phase.LEAD, "ruling", {"kind": "director_ack"}, "ruling"),
])
def test_the_same_command_twice_makes_one_event(table: Table, phase: Phase, kind: str,
                                                data: dict[str, Any], answer: str) -> None:
    reach(table, phase)
    table.mark()
    command = Command("cmd-7", kind, data)
    table.daemon.handle(command)
    assert table.new_types() == [answer]
    seq = table.daemon.journal.last_seq
    assert table.state.commands["cmd-7"] == seq
    outcome = table.daemon.controller.command(command)
    assert outcome.repeat == seq and outcome.events == []
    table.daemon.handle(command)
    assert table.new_types() == [answer]


def test_a_repeated_command_is_answered_again_on_the_wire(journal: Journal) -> None:
    publisher = FakePublisher()
    daemon = TableDaemon(journal, publisher=publisher, clock=lambda: 5.0)
    command = Command("c1", "assign", {"round": 1, "ns": 1, "ew": 2, "boards": [1]})
    daemon.handle(command)
    daemon.handle(Command("c2", "ruling", {"kind": "director_ack"}))
    assert [e.seq for e in publisher.events] == [1, 2]
    daemon.handle(command)
    assert [e.seq for e in publisher.events] == [1, 2, 1]
    assert journal.last_seq == 2


def test_acknowledged_events_leave_the_outbox(journal: Journal) -> None:
    publisher = FakePublisher()
    daemon = TableDaemon(journal, publisher=publisher, clock=lambda: 5.0)
    daemon.handle(Command("c1", "assign", {"round": 1, "ns": 1, "ew": 2, "boards": [1]}))
    daemon.handle(Command("c2", "ruling", {"kind": "director_ack"}))
    assert journal.outbox_size() == 2
    daemon.handle(Acked(1002))          # the second publish
    assert [e.seq for e in journal.unacknowledged()] == [1]
    daemon.handle(Acked(9999))          # unknown message id: nothing
    assert journal.outbox_size() == 1


def test_a_state_that_only_counts_waits_and_one_that_moves_goes_at_once(
        journal: Journal) -> None:
    """The retained state: a new phase, round or board goes out at once; a new count (here
    the sequence number) at most every STATE_INTERVAL, the last one always."""
    from tabled.daemon import STATE_INTERVAL, Stop, Tick

    now = [100.0]
    publisher = FakePublisher()
    daemon = TableDaemon(journal, publisher=publisher, clock=lambda: now[0])
    daemon.handle(Command("c1", "assign", {"round": 1, "ns": 1, "ew": 2, "boards": [1]}))
    assert [(st["seq"], st["round"]) for st in publisher.states] == [(1, 1)]
    now[0] += 0.5
    daemon.handle(Command("c2", "ruling", {"kind": "director_ack"}))  # seq 2: a count
    assert len(publisher.states) == 1
    assert daemon.state_due == 100.0 + STATE_INTERVAL
    now[0] = 100.0 + STATE_INTERVAL - 0.01
    daemon.handle(Tick())
    assert len(publisher.states) == 1  # not yet
    now[0] = 100.0 + STATE_INTERVAL
    daemon.handle(Tick())
    assert [st["seq"] for st in publisher.states] == [1, 2] and daemon.state_due is None
    now[0] += 0.1
    daemon.handle(Command("c3", "assign", {"round": 2, "ns": 1, "ew": 2, "boards": [2]}))
    assert [(st["seq"], st["round"]) for st in publisher.states][-1] == (3, 2)  # at once
    # Held back when the table stops: it goes out before the thread ends.
    now[0] += 0.1
    daemon.handle(Command("c4", "ruling", {"kind": "director_ack"}))
    assert publisher.states[-1]["seq"] == 3
    daemon.start()
    daemon.inbox.put(Stop())
    assert daemon._thread is not None
    daemon._thread.join(10.0)
    assert publisher.states[-1]["seq"] == 4


def test_resend_publishes_the_range_asked_for(journal: Journal) -> None:
    publisher = FakePublisher()
    daemon = TableDaemon(journal, publisher=publisher, clock=lambda: 5.0)
    daemon.handle(Command("c1", "assign", {"round": 1, "ns": 1, "ew": 2, "boards": [1]}))
    for ident in ("c2", "c3", "c4"):
        daemon.handle(Command(ident, "ruling", {"kind": "director_ack"}))
    publisher.events.clear()
    daemon.handle(Command("r", "resend", {"since": 2, "until": 3}))
    assert [e.seq for e in publisher.events] == [2, 3]
    daemon.handle(Command("r", "resend", {"since": 3}))   # not journalled: may come again
    assert [e.seq for e in publisher.events] == [2, 3, 3, 4]
    assert journal.last_seq == 4


def test_assignment_is_refused_while_a_board_is_played(table: Table) -> None:
    reach(table, Phase.AUCTION)
    table.mark()
    table.command("c2", "assign", {"round": 2, "ns": 5, "ew": 6, "boards": [3]})
    events = table.new_events()
    assert [e.type for e in events] == ["refused"]
    assert events[0].data["cmd"] == "c2" and "board 1" in events[0].data["reason"]
    # the same, as a message the console says in its language
    assert (events[0].data["code"], events[0].data["params"]) == ("board_being_played",
                                                                  {"board": 1})
    assert table.state.assignment is not None and table.state.assignment.round == 1


def test_a_new_assignment_starts_afresh(table: Table) -> None:
    reach(table, Phase.BOARD)
    table.command("c2", "assign", {"round": 2, "ns": 5, "ew": 6, "boards": [3]})
    assert table.phase is Phase.PLAYERS
    assert table.state.players == {}
    assert table.view(N)[:2] == ["Round 2", "NS 5  EW 6"]


# -- rulings that cannot apply --------------------------------------------------------------------

@pytest.mark.parametrize(("phase", "data", "why"), [
    (Phase.BOARD, {"kind": "take_back", "calls": 0}, "no board on the table"),
    (Phase.AUCTION, {"kind": "take_back", "calls": 2}, "take_back"),
    (Phase.PLAY, {"kind": "take_back", "calls": 1}, "the play has started"),
    (Phase.PLAY, {"kind": "require_pass", "seat": "E", "law": "31"}, "the play has started"),
    (Phase.AUCTION, {"kind": "require_pass", "seat": "E", "scope": "forever"}, "scope"),
    (Phase.AUCTION, {"kind": "undo_cards", "cards": 1}, "undo_cards"),
    (Phase.PLAY, {"kind": "claim", "tricks": 7}, "no disputed claim"),
    (Phase.LEAD, {"kind": "lead_restriction", "seat": "E"}, "lead_restriction"),
])
def test_a_ruling_that_cannot_apply_is_refused(table: Table, phase: Phase,
                                               data: dict[str, Any], why: str) -> None:
    reach(table, phase)
    before = (table.phase, len(table.state.board.auction) if table.state.board else 0)
    table.mark()
    table.command("r-1", "ruling", data)
    events = table.new_events()
    assert [e.type for e in events] == ["refused"]
    assert events[0].data["cmd"] == "r-1"
    assert why in events[0].data["reason"]
    assert events[0].board == (1 if table.state.board else None)
    assert (table.phase, len(table.state.board.auction) if table.state.board else 0) == before


@pytest.mark.parametrize(("phase", "data", "code", "params"), [
    (Phase.BOARD, {"kind": "take_back", "calls": 0}, "no_board", {}),
    (Phase.PLAY, {"kind": "take_back", "calls": 1}, "play_has_started",
     {"ruling": "take_back"}),
    # the laws engine's own refusal, with the ruling's kind
    (Phase.AUCTION, {"kind": "take_back", "calls": 2}, "auction_back_out_of_range",
     {"length": 2, "count": 1, "ruling": "take_back"}),
    (Phase.AUCTION, {"kind": "require_pass", "seat": "E", "scope": "forever"}, None, None),
])
def test_a_refused_ruling_carries_the_message_the_console_says(
        table: Table, phase: Phase, data: dict[str, Any], code: str | None,
        params: dict[str, Any] | None) -> None:
    reach(table, phase)
    table.mark()
    table.command("r-1", "ruling", data)
    refused = table.new_events()[0].data
    assert (refused.get("code"), refused.get("params")) == (code, params)


# -- rulings ----------------------------------------------------------------------------------

def test_take_back_cancels_calls(table: Table) -> None:
    reach(table, Phase.SETUP)
    table.calls("1C", "1H", "X")
    table.mark()
    table.command("r-1", "ruling", {"kind": "take_back", "calls": 1, "law": "36A"})
    assert [(e.type, dict(e.data)) for e in table.new_events()] == [
        ("ruling", {"cmd": "r-1", "kind": "take_back", "calls": 1, "law": "36A"})]
    assert auction(table) == ["N:1C"]
    table.calls("Pass")
    assert auction(table) == ["N:1C", "E:Pass"]
    notice = table.notice(N)
    assert notice is None   # the call that followed cleared the ruling's notice


def test_take_back_reopens_an_ended_auction(table: Table) -> None:
    reach(table, Phase.LEAD)
    table.command("r-1", "ruling", {"kind": "take_back", "calls": 3})
    assert table.phase is Phase.AUCTION
    board = table.state.board
    assert board is not None and board.play is None and board.auction.turn is W


def test_take_back_to_before_the_first_call(table: Table) -> None:
    reach(table, Phase.SETUP)
    table.calls("1C")
    table.command("r-1", "ruling", {"kind": "take_back", "calls": 0})
    assert table.phase is Phase.SETUP
    assert table.view(N)[2] == "Scanned 0/13"
    table.scan("SK", N)


def test_take_back_of_a_passed_out_board_reopens_the_auction(table: Table) -> None:
    reach(table, Phase.SETUP)
    table.calls("Pass", "Pass", "Pass", "Pass")
    assert table.phase is Phase.RESULT
    table.command("r-1", "ruling", {"kind": "take_back", "calls": 3})
    assert table.phase is Phase.AUCTION
    board = table.state.board
    assert board is not None and board.result is None and board.auction.turn is W


def test_undo_cards_takes_back_the_last_cards(table: Table) -> None:
    reach(table, Phase.LEAD)
    table.play("D4 DJ D3")
    table.command("r-1", "ruling", {"kind": "undo_cards", "cards": 2})
    assert played(table) == ["E:D4"]
    board = table.state.board
    assert board is not None and board.play is not None and board.play.turn is S
    table.play("D6")
    assert played(table) == ["E:D4", "S:D6"]


def test_undo_cards_after_the_last_trick_reopens_the_play(table: Table) -> None:
    reach(table, Phase.RESULT)
    last = played(table)[-1]
    table.command("r-1", "ruling", {"kind": "undo_cards", "cards": 1})
    assert table.phase is Phase.PLAY
    assert played(table)[-1] != last and len(played(table)) == 51
    table.mark()
    table.play(last.split(":")[1])
    assert table.new_types() == ["card", "result"]


def test_score_ruling_gives_an_adjusted_result(table: Table) -> None:
    reach(table, Phase.PLAY)
    table.mark()
    table.command("r-1", "ruling", {"kind": "score", "score_ns": 100})
    assert table.new_types() == ["ruling"]    # the ruling is the result: nothing follows
    assert table.phase is Phase.RESULT
    assert table.view(E)[1:3] == ["Assigned NS +100", "OK to confirm"]
    table.confirm()
    result = table.state.results[1]
    assert (result.score_ns, result.adjusted, result.tricks) == (100, "assigned", None)
    assert str(result.contract) == "1NT"


def test_score_ruling_without_a_text_is_marked_assigned(table: Table) -> None:
    reach(table, Phase.AUCTION)
    table.command("r-1", "ruling", {"kind": "score", "score_ns": -300})
    board = table.state.board
    assert board is not None and board.result is not None
    assert (board.result.score_ns, board.result.adjusted) == (-300, "assigned")


def test_assigned_score_before_any_contract_is_not_shown_as_passed_out(table: Table) -> None:
    reach(table, Phase.SETUP)
    table.command("r-1", "ruling", {"kind": "score", "adjusted": "A60/40"})
    assert table.phase is Phase.RESULT
    assert "Passed out" not in table.view(N)


def test_director_ack_closes_director_calls(table: Table) -> None:
    reach(table, Phase.AUCTION)
    table.press(E, "DIR")
    first = table.daemon.journal.last_seq
    table.press(S, "DIR")
    assert len(table.state.open_director_calls) == 2
    table.command("r-1", "ruling", {"kind": "director_ack", "call": first})
    assert [c.seat for c in table.state.open_director_calls] == [S]
    assert table.view(N)[3] == "Ruling: coming"
    table.press(N, "1", "UNDO")          # a key press clears the seat's notice
    assert table.view(N)[3] == "Director called"
    table.command("r-2", "ruling", {"kind": "director_ack"})
    assert table.state.open_director_calls == []
    table.press(N, "1", "UNDO")
    assert table.view(N)[3] == ""


def test_end_round_ends_the_round_with_the_boards_played(table: Table) -> None:
    reach(table, Phase.SETUP)
    table.calls("Pass", "Pass", "Pass", "Pass")
    table.confirm()
    assert table.phase is Phase.BOARD
    table.command("r-1", "ruling", {"kind": "end_round"})
    assert table.phase is Phase.ROUND_END
    assert table.state.assignment is not None and table.state.assignment.boards == (1,)
    assert table.view(N)[:3] == ["NS stay", "EW to table 5", "Boards to table 3"]


def test_require_pass_is_enforced_by_law_37(table: Table) -> None:
    reach(table, Phase.AUCTION)
    table.command("r-1", "ruling", {"kind": "require_pass", "seat": "S", "law": "31"})
    table.calls("Pass")
    table.mark()
    table.press(S, "2", "NT", "OK")
    assert table.new_events() == []
    assert table.notice(S) is not None and table.notice(S).law == "37"
    table.press(S, "PASS", "OK")
    assert table.new_types() == ["call"]


def test_lead_restriction_is_enforced_by_law_26(table: Table) -> None:
    reach(table, Phase.LEAD)
    table.command("r-1", "ruling", {"kind": "lead_restriction", "seat": "E", "suit": "H",
                                    "required": True, "law": "26"})
    table.mark()
    table.scan("D4")
    assert table.new_events() == []
    assert table.notice(E) is not None and table.notice(E).law == "26"
    table.scan("H2")
    assert played(table) == ["E:H2"]
