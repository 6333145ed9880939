"""Wrong and fouled boards (Laws 7B, 15, 87).

Law 7B: a player counts his cards before looking at them; a hand may be put on the card
reader to check it against the board's deal, before and during the auction. Laws 15 and 87:
a card in a hand where the deal does not put it means the board was turned or fouled (or the
wrong board taken): the director is called; it is nobody's lead out of turn, play out of turn
or failure to follow, and no rectification falls on a player for it.

With a reader at each seat, a card read at a player's reader is in that player's hand (the
declarer's and dummy's readers serve declarer for both hands). Board 1, North deals, the deal
known: N KT8.A96.A95.7542  E Q5.KJ52.KQ874.T8  S AJ92.874.JT6.AQ3  W 7643.QT3.32.KJ96
"""

from __future__ import annotations

from .table import E, LawTable, N, S, W


def fouled(table: LawTable) -> list[tuple[str, str | None]]:
    return [(data["reason"], data.get("law")) for kind, data in table.published()
            if kind == "director"]


def test_a_hand_may_be_checked_on_the_reader_during_the_auction(table: LawTable) -> None:
    table.sit_down()
    table.calls("1NT")
    table.mark()
    table.card("SK", at=N)                    # North checks his hand after the first call
    assert table.published() == [("hand_card", {"seat": "N", "card": "SK"})]
    table.card("SQ", at=N)                    # the deal has the SQ in East's hand
    assert fouled(table) == [("fouled_board", "87")]
    for seat in (N, E, S, W):
        assert table.display(seat)[3] == "Fouled board?"


def test_a_card_of_another_hand_at_the_leaders_reader_is_a_wrong_board(
        table: LawTable) -> None:
    table.sit_down()
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.mark()
    table.card("SA", at=E)                    # South's ace, read at East's reader
    assert fouled(table) == [("fouled_board", "87")]
    assert table.played() == []
    board = table.state.board
    assert board is not None and board.play is not None and not board.play.penalty_cards
    assert table.display(E)[3] == "Fouled board?"


def test_a_card_of_another_hand_in_the_play_is_no_irregularity_of_a_player(
        table: LawTable) -> None:
    table.sit_down()
    table.calls("1NT", "Pass", "Pass", "Pass")
    table.card("D4", at=E)
    table.keys(E, "OK")
    table.card("DJ", at=S)
    table.mark()
    table.card("HA", at=W)                    # North's ace at West's reader, West to play
    assert fouled(table) == [("fouled_board", "87")]
    board = table.state.board
    assert board is not None and board.play is not None
    assert board.play.penalty_cards == [] and board.play.faced_lead is None
    table.card("D3", at=W)                    # West's own card is played
    assert table.played() == ["ED4", "SDJ", "WD3"]
