"""The four bots end to end: scripts that replay cleanly, and whole boards played through a
real simulated table (keypads, card reader, journal) to the result the laws give."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from laws import Board, Seat
from laws.auction import Auction
from laws.play import Play
from laws.records import Record
from laws.replay import ReplayResult, replay
from sim.players import SimulatedPlayers, deal, script
from sim.players.players import _bots_calls, _bots_cards
from sim.recorded import BoardScript
from sim.simtable import SimulatedTable
from tablemodel.wire import Command

SEED = 1
BOARDS = list(range(9, 17))  # with seed 1, board 12 is passed out


def replayed(board: int, plan: BoardScript, seed: int = SEED) -> ReplayResult:
    """What the laws engine makes of the script's calls and cards (and claim)."""
    cards = deal(seed, board)
    record = Record(board=board, deal=cards, auction=list(plan.calls),
                    play_sequence=list(plan.cards))
    if plan.claim is not None:
        bidding = Auction(Board(board).dealer, [item.call for item in plan.calls])
        assert bidding.contract is not None and bidding.declarer is not None
        play = Play(bidding.contract, bidding.declarer, cards)
        for card in plan.cards:
            play.play(card)
        record.claim = play.declarer_tricks_played + plan.claim[1]
    return replay(record)


def test_the_same_seed_gives_the_same_board() -> None:
    for board in (1, 2, 3):
        first = script(board, deal(4, board), seed=4, claim_rate=0.5)
        again = script(board, deal(4, board), seed=4, claim_rate=0.5)
        assert (first.calls, first.cards, first.claim) == (again.calls, again.cards,
                                                           again.claim)


def test_each_deal_is_worked_out_once_a_process_and_gets_its_own_script() -> None:
    """The bots' auction and play are kept by deal (players.BOTS_CACHE): board 1 of three
    seeds, three deals, each script as worked out afresh, the second time from the cache;
    and a claim ends the same play early."""
    deals = [deal(seed, 1) for seed in (1, 2, 3)]

    def worked_out(cards: Any, claim_rate: float = 0.0) -> tuple[Any, ...]:
        plan = script(1, cards, seed=SEED, claim_rate=claim_rate)
        return plan.calls, plan.cards, plan.claim

    fresh = []
    for cards in deals:
        _bots_calls.cache_clear()
        _bots_cards.cache_clear()
        fresh.append(worked_out(cards))
    assert len({str(f) for f in fresh}) == 3  # three deals, three boards
    assert [worked_out(cards) for cards in reversed(deals)] == fresh[::-1]
    hits = _bots_calls.cache_info().hits
    assert [worked_out(cards) for cards in deals] == fresh
    assert _bots_calls.cache_info().hits == hits + 3  # each deal worked out once
    claimed = [worked_out(cards, claim_rate=1.0) for cards in deals]
    assert any(c[2] is not None for c in claimed)
    for (calls, cards, _), (claimed_calls, claimed_cards, _) in zip(fresh, claimed, strict=True):
        assert claimed_calls == calls and cards[:len(claimed_cards)] == claimed_cards


def test_scripts_replay_cleanly_with_claims_and_alerts() -> None:
    claims = alerts = 0
    for board in range(1, 101):
        plan = script(board, deal(SEED, board), seed=SEED, claim_rate=0.3)
        result = replayed(board, plan)
        assert result.ok, result.problems
        claims += plan.claim is not None
        alerts += sum(item.alert for item in plan.calls)
        if plan.claim is None and result.contract != "Pass":
            assert len(plan.cards) == 52
    assert claims >= 5 and alerts >= 20


@pytest.fixture
def sim_table(tmp_path: Path) -> Iterator[SimulatedTable]:
    with SimulatedTable(tmp_path / "table.db", number=1, timeout=20.0) as started:
        yield started


def test_the_bots_play_a_round_through_the_table(sim_table: SimulatedTable) -> None:
    table = sim_table
    table.daemon.inbox.put(Command("round-1", "assign",
                                   {"round": 1, "ns": 1, "ew": 2, "boards": BOARDS}))
    assert table.daemon.wait_for(lambda s: s.assignment is not None, 10)
    players = SimulatedPlayers(table, seed=SEED, director_rate=0.5, claim_rate=0.5)
    players.enter_players({seat: 10 + i for i, seat in enumerate(Seat)})
    plans = {}
    for board in BOARDS:
        plans[board] = plan = players.play_board(board, deal(SEED, board))
        got = table.state.results[board]
        want = replayed(board, plan)
        assert want.ok, want.problems
        assert (got.contract_text, None if got.declarer is None else str(got.declarer),
                got.tricks, got.score_ns) == (want.contract, want.declarer, want.tricks,
                                              want.score_ns)
    assert table.state.results[12].contract is None  # the passed-out board
    assert any(plan.claim is not None for plan in plans.values())
    events = list(table.journal.events())
    directors = [e for e in events if e.type == "director" and e.data["reason"] == "player"]
    assert len(directors) == players.director_calls > 0
    alerted = sum(item.alert for plan in plans.values() for item in plan.calls)
    assert sum(e.type == "alert" for e in events) == alerted > 0
    assert sum(e.type == "claim" for e in events) == sum(p.claim is not None
                                                         for p in plans.values())


def test_the_bots_play_behind_screens(sim_table: SimulatedTable) -> None:
    """Behind screens the bots alert their own calls and, when the tray brings them, their
    partner's (each to the screenmate), call only once the tray is on their side, and the
    leader's screenmate turns the face-down lead up: the board still reaches the result the
    laws give. The tray's own timing is tested on simulated time (tests/tabled/test_screens)."""
    table = sim_table
    boards = [9, 19, 21]  # with seed 1: five alertable calls among them
    table.daemon.inbox.put(Command("round-1", "assign", {
        "round": 1, "ns": 1, "ew": 2, "boards": boards,
        "conduct": {"screens": {"north_with": "E", "tray_delay": 0.02}}}))
    assert table.daemon.wait_for(lambda s: s.assignment is not None, 10)
    players = SimulatedPlayers(table, seed=SEED, director_rate=0.0, claim_rate=0.0)
    players.enter_players({seat: 10 + i for i, seat in enumerate(Seat)})
    alertable = 0
    for board in boards:
        plan = players.play_board(board, deal(SEED, board))
        alertable += sum(item.alert for item in plan.calls)
        want = replayed(board, plan)
        got = table.state.results[board]
        assert (got.contract_text, got.tricks, got.score_ns) == (want.contract, want.tricks,
                                                                 want.score_ns)
    events = list(table.journal.events())
    assert sum(e.type == "tray" for e in events) >= 2 * len(boards)
    assert sum(e.type == "faced" for e in events) == sum(
        1 for e in events if e.type == "card" and e.data.get("face_down"))
    alerts = [e for e in events if e.type == "alert"]
    alerted_with_call = [e for e in events if e.type == "call" and e.data.get("alert")]
    # Each alertable call: by the caller with the call, and by partner on the other side.
    assert len(alerted_with_call) == len(alerts) == alertable == 5
    assert not any(e.data.get("late") for e in alerts)
    assert {e.data["seat"] for e in alerts} == {
        {"N": "S", "S": "N", "E": "W", "W": "E"}[e.data["seat"]] for e in alerted_with_call}
    assert not any(e.type == "director" for e in events)


def test_the_bots_meet_penalty_cards_and_leads_out_of_turn(sim_table: SimulatedTable) -> None:
    """sim.players.irregular: board 9 has a defender's lead faced out of turn when
    declarer's side is on lead, refused (a major penalty card, Law 56), board 10 a defender's
    premature card (a major penalty card, 57A/50B), board 11 a lead out of turn accepted
    (53A). Each is refused and kept by the table, the director is called, and every board
    reaches its result."""
    table = sim_table
    boards = [9, 10, 11]
    table.daemon.inbox.put(Command("round-1", "assign",
                                   {"round": 1, "ns": 1, "ew": 2, "boards": boards}))
    assert table.daemon.wait_for(lambda s: s.assignment is not None, 10)
    players = SimulatedPlayers(table, seed=SEED, director_rate=0.0, claim_rate=0.0,
                               irregular=True)
    players.enter_players({seat: 10 + i for i, seat in enumerate(Seat)})
    plans = {board: players.play_board(board, deal(SEED, board)) for board in boards}
    assert set(table.state.results) == set(boards)
    events = list(table.journal.events())
    options = [(e.board, e.data["kind"], e.data.get("option") or e.data.get("lead")
                or e.data.get("law")) for e in events if e.type == "option"]
    assert (9, "lead_out_of_turn", None) in options
    assert (9, "lead_option", "refuse") in options
    assert (11, "lead_option", "accept") in options
    assert any(b == 10 and kind == "penalty_card" for b, kind, _ in options)
    reasons = {(e.board, e.data["reason"]) for e in events if e.type == "director"}
    assert {(9, "lead_out_of_turn"), (10, "premature_play"),
            (11, "lead_out_of_turn")} <= reasons
    for board, plan in plans.items():
        played = sum(1 for e in events if e.board == board and e.type == "card")
        accepted = sum(1 for b, kind, option in options
                       if b == board and kind == "lead_option" and option == "accept")
        assert played + accepted == len(plan.cards) == 52
