"""The project's seeded dealer: reproducible, and the same deals as the server's."""

from __future__ import annotations

import pytest

from sim.players import deal


def test_the_same_seed_and_board_give_the_same_deal() -> None:
    assert deal(3, 7) == deal(3, 7)
    assert deal(3, 7).to_pbn() != deal(4, 7).to_pbn()
    assert deal(3, 7).to_pbn() != deal(3, 8).to_pbn()


def test_every_deal_is_four_hands_of_thirteen() -> None:
    for board in range(1, 33):
        assert deal(0, board).is_complete_for_play


def test_the_server_deals_the_same_boards() -> None:
    session = pytest.importorskip("server.setup.session")
    for seed in (0, 1, 99):
        for board in range(1, 17):
            assert deal(seed, board).to_pbn() == session.dealt(seed, board)
