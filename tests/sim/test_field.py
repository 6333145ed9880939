"""A field of simulated pairs that differ (sim.players.field): each pair's style drawn once
from the seed and its number, bolder or more cautious bidding, now and then another card of
the suit; so the scores of a simulated Mitchell spread as a club's do, not every pair at
50 %, and every script is still legal from the first call to the last card."""

from __future__ import annotations

from collections import defaultdict

import pytest

from laws import Board, Side
from laws.play import Play
from laws.scoring import score_ns
from sim.players import deal
from sim.players.field import STEADY, Style, seated
from sim.players.players import _made, bots_calls, script


def test_a_pairs_style_is_its_own_and_the_same_each_time() -> None:
    styles = [Style.drawn(7, pair) for pair in range(1, 25)]
    assert styles == [Style.drawn(7, pair) for pair in range(1, 25)]
    assert len({style.judgement for style in styles}) >= 3
    assert len({style.slips for style in styles}) >= 12
    assert all(-2 <= s.judgement <= 2 and 0 <= s.slips <= 0.12 for s in styles)
    assert Style.drawn(8, 1) != Style.drawn(7, 1) or Style.drawn(8, 2) != Style.drawn(7, 2)


def test_an_arrow_switch_seats_the_pair_numbered_ew_north_south() -> None:
    assert seated(3, 1, 2) == {Side.NS: Style.drawn(3, 1), Side.EW: Style.drawn(3, 2)}
    assert seated(3, 1, 2, switch=True) == {Side.NS: Style.drawn(3, 2),
                                            Side.EW: Style.drawn(3, 1)}


def test_a_bad_style_is_refused() -> None:
    with pytest.raises(ValueError, match="judgement"):
        Style(judgement=9)
    with pytest.raises(ValueError, match="slips"):
        Style(slips=1.5)


def test_steady_pairs_bid_and_play_as_the_bots() -> None:
    hands = deal(5, 3)
    steady = {Side.NS: STEADY, Side.EW: STEADY}
    assert script(3, hands, seed=1, styles=steady) == script(3, hands, seed=1)


def test_bolder_pairs_bid_more_and_every_auction_is_legal() -> None:
    differ = 0
    for board in range(1, 17):
        hands = deal(5, board)
        own = bots_calls(board, hands)
        bold = bots_calls(board, hands, {Side.NS: Style(judgement=3), Side.EW: STEADY})
        _made(board, bold)  # an illegal call raises here
        differ += own != bold
    assert differ >= 3


def score(board: int, seed: int, styles: dict[Side, Style]) -> int:
    hands = deal(9, board)
    played = script(board, hands, seed=seed, styles=styles, claim_rate=0.0)
    auction = _made(board, played.calls)
    if auction.contract is None or auction.declarer is None:
        return 0
    play = Play(auction.contract, auction.declarer, hands)
    for card in played.cards:  # every card legal, or Play raises
        play.play(card, play.turn)
    assert play.is_over
    return score_ns(auction.contract, auction.declarer, play.declarer_tricks(),
                    Board(board).vulnerability)


def test_a_simulated_mitchell_spreads_like_a_field() -> None:
    """Six tables, NS pairs 1-6 staying, EW pairs 7-12 moving, 12 boards: the boards' scores
    differ across the tables and the pairs' matchpoint percentages spread."""
    tables, percents = 6, defaultdict(list)
    varied_boards = 0
    for board in range(1, 13):
        rows = []
        for table in range(1, tables + 1):
            ns, ew = table, tables + (table + board) % tables + 1
            rows.append((ns, ew, score(board, table, seated(9, ns, ew))))
        varied_boards += len({row[2] for row in rows}) > 1
        for ns, ew, mine in rows:
            points = sum(2 if mine > other else mine == other for *_, other in rows) - 1
            top = 2 * (tables - 1)
            percents[ns].append(points / top)
            percents[ew].append(1 - points / top)
    assert varied_boards >= 9
    mean = {pair: 100 * sum(p) / len(p) for pair, p in percents.items()}
    assert max(mean.values()) - min(mean.values()) >= 10, mean
    assert sum(abs(value - 50) < 1 for value in mean.values()) <= 4, mean
