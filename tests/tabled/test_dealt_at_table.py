"""Boards dealt at the table (issue 32): every player scans the 13 cards of the hand before the
first call (Law 7B); the first table to play a board publishes the four hands it scanned, and
a later table, given that deal in its assignment, calls the director on a card the deal puts
in another hand (Law 87). And one name per table: the round's end names the next tables as
the room does, the round's start the pairs as the pages do."""

from __future__ import annotations

from typing import Any

from laws import Deal, Seat
from tabled.seat_lines import WIDTH
from tablemodel.state import Phase

from .helpers import DEAL, PBN, Table


def scan_hands(table: Table, deal: Deal) -> None:
    for seat in Seat:
        for card in sorted(deal[seat], key=lambda c: c.index):
            table.scan(card, seat)


def test_the_auction_waits_for_every_hand_then_the_deal_is_published(table: Table) -> None:
    table.start(dealing="table")
    assert "Scan your hand" in table.view(Seat.W)
    table.mark()
    table.call(Seat.N, "1NT")
    assert table.state.board is not None and not len(table.state.board.auction)
    notice = table.notice(Seat.N)
    assert notice is not None and notice.key == "scan_hands" and notice.law == "7B"
    assert notice.args["seats"] == "NESW"
    assert "NESW" in " ".join(table.view(Seat.N))
    scan_hands(table, DEAL)
    assert "Scan hand or call" in table.view(Seat.W)  # all four in: the dealer calls
    deals = [e for e in table.new_events() if e.type == "deal"]
    assert len(deals) == 1 and Deal.from_pbn(deals[0].data["deal"]).hands == DEAL.hands
    assert deals[0].board == 1
    assert table.new_types().index("deal") == len(table.new_events()) - 1  # after the 52nd
    table.calls("1NT", "Pass", "Pass", "Pass")
    assert table.phase is Phase.LEAD


def test_a_session_dealt_by_the_server_neither_waits_nor_publishes(table: Table) -> None:
    table.start()
    table.mark()
    scan_hands(table, DEAL)
    table.calls("1NT", "Pass", "Pass", "Pass")
    assert "deal" not in table.new_types()


def test_a_later_table_is_checked_against_the_captured_deal(table: Table) -> None:
    table.start(dealing="table", deals={"1": PBN})
    table.mark()
    north = sorted(DEAL[Seat.N], key=lambda c: c.index)
    for card in north[:5]:
        table.scan(card, Seat.N)
    east_card = min(DEAL[Seat.E], key=lambda c: c.index)
    table.scan(east_card, Seat.N)  # the copy of the board is fouled: East's card in North's
    calls = [e for e in table.new_events() if e.type == "director"]
    assert [c.data["reason"] for c in calls] == ["fouled_board"] and calls[0].data["law"] == "87"
    notice = table.notice(Seat.S)
    assert notice is not None and notice.key == "fouled"
    assert "deal" not in table.new_types()  # the hand record is the first table's


def _pass_out_board_one(table: Any) -> None:
    """Seat the players, deal board 1 at the table, pass it out and confirm: the round ends."""
    table.seat_players()
    table.choose_board(1)
    scan_hands(table, DEAL)
    table.calls("Pass", "Pass", "Pass", "Pass")
    table.confirm()


def test_pairs_and_next_tables_go_by_the_names_the_pages_use(make_table: object) -> None:
    for language, pairs, move in (("en", "NS B4  EW B1", "EW to table B3"),
                                  ("es", "NS B4  EO B1", "EO a mesa B3")):
        table = make_table(language)  # type: ignore[operator]
        table.assign([1], round=2, ns=12, ew=9, section="B", label="B2",
                     names={"ns": "B4", "ew": "B1"},
                     next={"ns": None, "ew": "B3", "boards": "B1"})
        assert pairs in table.view(Seat.N)
        _pass_out_board_one(table)
        assert table.phase is Phase.ROUND_END
        lines = table.view(Seat.E)
        assert move in lines and all(len(line) <= WIDTH for line in lines)


def test_a_club_named_section_keeps_its_lines_whole(make_table: object) -> None:
    """A centre's section named after its club ("bilbao-centro"): the whole names do not fit
    twenty columns, so the lines name tables and pairs by their numbers in the section (the
    table's own name is on the display already), never cut."""
    for language, pairs, move in (("en", "NS 4  EW 1", "EW to table 12"),
                                  ("es", "NS 4  EO 1", "EO a mesa 12")):
        table = make_table(language)  # type: ignore[operator]
        table.assign([1], round=2, ns=12, ew=9, section="bilbao-centro",
                     label="bilbao-centro-1",
                     names={"ns": "bilbao-centro-4", "ew": "bilbao-centro-1"},
                     next={"ns": None, "ew": "bilbao-centro-12", "boards": "bilbao-centro-11"})
        assert pairs in table.view(Seat.N)
        _pass_out_board_one(table)
        lines = table.view(Seat.E)
        assert move in lines and all(len(line) <= WIDTH for line in lines), lines
        assert not any(line.endswith("→") for line in lines)
