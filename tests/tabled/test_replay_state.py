"""The table state is the replay of its journal: a state rebuilt from the events equals the
state that lived through them, and a restarted table shows what it showed before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hardware.events import KeyEvent
from laws import Seat
from tabled.control import SeatEntry
from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tabled.seat_lines import seat_view
from tablemodel.state import Phase, StateError, TableState
from tablemodel.wire import Command, Event

from .helpers import DEAL, GUIDANCE, PBN, Table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def summary(state: TableState) -> dict[str, Any]:
    """What the state means, field by field: what a replay must reproduce."""
    board = state.board
    value: dict[str, Any] = {
        "seq": state.seq, "last_ts": state.last_ts, "phase": state.phase,
        "assignment": state.assignment, "players": state.players,
        "results": state.results, "commands": state.commands,
        "director": [(c.seq, c.seat, c.reason, c.law, c.detail, c.acknowledged)
                     for c in state.director_calls],
        "board": None,
    }
    if board is not None:
        play = board.play
        value["board"] = {
            "number": board.number, "dealer": board.dealer, "vul": board.vulnerability,
            "known": board.known, "scans": board.scans,
            "auction": [(e.seat, e.call, e.alert) for e in board.auction.entries],
            "contract": board.auction.contract, "declarer": board.auction.declarer,
            "cards": board.cards, "result": board.result, "confirmed": board.confirmed,
            "play": None if play is None else {
                "turn": play.turn, "ns": play.tricks_won(N.side), "ew": play.tricks_won(E.side),
                "claim": None if play.claim is None else (
                    play.claim.seat, play.claim.tricks, play.claim.state),
                "revokes": play.revokes},
        }
    return value


def assert_replays(table: Table) -> None:
    replayed = TableState.replay(table.daemon.journal.events())
    assert summary(replayed) == summary(table.state)


def test_a_round_replays_to_the_live_state(table: Table) -> None:
    table.assign([1, 2], next=GUIDANCE)
    table.seat_players()
    table.choose_board(1)
    for seat in (N, E, S):                    # three hands scanned; West's only in part
        for card in DEAL[seat]:
            table.scan(card, seat)
    for card in sorted(DEAL[W])[:5]:
        table.scan(card, W)
    assert_replays(table)
    table.calls("1C")
    table.press(S, "ALERT")
    table.calls("1S")
    table.press(E, "UNDO", "1", "D", "OK")    # Law 25A: East meant 1D
    table.calls("2H", "Pass", "2NT", "Pass", "3NT", "Pass", "Pass")
    assert table.phase is Phase.AUCTION
    assert_replays(table)
    table.calls("Pass")
    assert table.phase is Phase.LEAD
    board = table.state.board
    assert board is not None and board.auction.entries[0].alert
    assert [str(e.call) for e in board.auction.entries][:3] == ["1C", "1D", "2H"]
    table.play("D4")
    table.press(W, "DIR")
    assert_replays(table)
    table.play_out()
    assert table.phase is Phase.RESULT
    assert_replays(table)
    table.confirm()
    table.choose_board()
    table.calls("1NT", "Pass", "3NT", "Pass", "Pass", "Pass")    # East deals board 2
    table.play("C2")                          # South's lead (the deal is not known)
    table.claim(E, 9)                         # 9 of the 13 tricks (one in progress)
    table.press(S, "OK")
    assert_replays(table)                     # a claim waiting for one more answer
    table.press(N, "OK")
    table.command("ack", "ruling", {"kind": "director_ack"})
    table.confirm()
    assert table.phase is Phase.ROUND_END
    assert_replays(table)
    replayed = TableState.replay(table.daemon.journal.events())
    assert [r.contract_text for r in replayed.results.values()] == ["3NT", "3NT"]
    assert replayed.results[2].declarer is E and replayed.results[2].tricks == 9


def test_replay_of_claims_rulings_and_fouled_boards(table: Table) -> None:
    table.start([1, 2], deals={"1": PBN})
    table.scan("SQ", N)                           # fouled: East has SQ
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.play("D4 DJ D3")
    table.command("u", "ruling", {"kind": "undo_cards", "cards": 1})
    table.play("D2 D5")
    table.press(N, "8", "OK")                     # "8" is not a key, and no claim page
    table.claim(N, 8)                             # claim 8 of 12
    table.press(E, "UNDO")                        # disputed: the director
    assert_replays(table)
    table.command("c", "ruling", {"kind": "claim", "tricks": 8})
    table.command("c", "ruling", {"kind": "claim", "tricks": 2})   # repeated: ignored
    assert table.phase is Phase.RESULT
    assert_replays(table)
    assert table.state.board is not None and table.state.board.result is not None
    assert table.state.board.result.tricks == 9


def test_a_restarted_table_shows_what_it_showed(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    first = Journal(path, identity={"event": "e", "table": "1"})
    try:
        table = Table(TableDaemon(first, clock=lambda: 50.0))
        table.start([1, 2], deals={"1": PBN}, next=GUIDANCE)
        table.calls("1NT", "Pass", "Pass", "Pass")
        table.play("D4 DJ")
        before = {seat: seat_view(seat, table.state, SeatEntry()) for seat in Seat}
        expected = summary(table.state)
    finally:
        first.close()
    again = Journal(path, identity={"event": "e", "table": "1"})
    try:
        daemon = TableDaemon(again, clock=lambda: 60.0)
        assert summary(daemon.state) == expected
        assert {seat: daemon.view(seat) for seat in Seat} == before
        daemon.handle(KeyEvent(W, "DIR", True, 0.0))   # and it carries on numbering
        assert again.last_seq == expected["seq"] + 1
    finally:
        again.close()


def test_events_round_trip_through_the_wire_before_replay(table: Table) -> None:
    # What the server rebuilds from the payloads equals what the table has.
    table.start([1, 2], deals={"1": PBN})
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.play("D4 DJ D3 D5")
    payloads = [e.to_payload() for e in table.daemon.journal.events()]
    replayed = TableState.replay(Event.from_payload(p) for p in payloads)
    assert summary(replayed) == summary(table.state)


def test_replay_refuses_a_gap_in_the_numbers() -> None:
    events = [Event(1, "assign", 1.0, None, {"cmd": "c", "round": 1, "ns": 1, "ew": 2,
                                             "boards": [1]}),
              Event(3, "player", 2.0, None, {"seat": "N", "number": 1})]
    with pytest.raises(StateError, match="event 3 after event 1"):
        TableState.replay(events)


def test_replay_refuses_an_unknown_event_type() -> None:
    with pytest.raises(StateError, match="no such event type"):
        TableState.replay([Event(1, "teleport", 1.0, None, {})])


def test_replay_refuses_a_card_before_the_play() -> None:
    events = [Event(1, "assign", 1.0, None, {"cmd": "c", "round": 1, "ns": 1, "ew": 2,
                                             "boards": [1]}),
              Event(2, "card", 2.0, 1, {"seat": "E", "card": "D4"})]
    with pytest.raises(StateError, match="no board on the table"):
        TableState.replay(events)


def test_a_command_the_wire_accepts_never_breaks_the_journal(table: Table) -> None:
    payload = json.dumps({"v": 1, "id": "c1", "type": "assign", "data": {
        "round": 1, "ns": 1, "ew": 2, "boards": [1], "deals": {"\u00b2": PBN}}})
    try:
        table.daemon.handle(Command.from_payload(payload))
    except Exception:
        pass   # the table thread logs an input that fails and carries on
    TableState.replay(table.daemon.journal.events())
