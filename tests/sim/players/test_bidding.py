"""Seed 004's natural system: what the bots bid, and which calls partner alerts.

Each row is a hand (S.H.D.C) and the auction so far, North dealing; the comment works out the
seed's points (4-3-2-1 plus distribution) and names the line of the seed that applies.
"""

from __future__ import annotations

from collections import Counter

import pytest

from laws import Board, Call, Strain
from laws.auction import Auction
from sim.players import choose_call, deal
from sim.players.bidding import read

from .util import auction, hand

# (hand, calls so far, expected call, alerted)
OPENINGS = [
    # 15 points, 4-3-3-3: regular 15-18 -> 1NT
    ("AK32.KQ4.J87.Q32", "", "1NT", False),
    # 13 points, regular 13-14 -> 1C, which may hold two clubs: alerted
    ("AK32.K54.J87.Q32", "", "1C", True),
    # 20 points, regular 19-20 -> 1C
    ("AKQ2.KQ4.A87.Q32", "", "1C", True),
    # 21 points, regular 21-22 -> 2NT
    ("AKQ2.KQ4.AJ7.Q32", "", "2NT", False),
    # 25 points -> the strong 2C: artificial
    ("AKQ2.AKQ.AJ7.Q32", "", "2C", True),
    # 12 points, nothing to open
    ("AK32.Q54.J87.Q32", "", "Pass", False),
    # 13 points, five spades and four hearts (mixed with a major): 1S
    ("AKJ54.KQ32.54.32", "", "1S", False),
    # 13 + 2 (singleton): two five-card suits, the higher first ("el más noble")
    ("5.KQ532.32.AKJ54", "", "1H", False),
    # 18 + 2: 4-4-4-1 with three suits worth naming: the lowest four ("el más pobre")
    ("KQJ2.AQJ2.KQ32.5", "", "1D", False),
    # 17 + 2 + 1... 4-4-4-1 where only diamonds (K Q x x) may be named: 1D
    ("KQ32.AJ32.KQ32.5", "", "1D", False),
    # 20 + 2 (singleton): unbalanced 21-22 -> two of the suit
    ("AKQJ54.AKJ2.Q2.2", "", "2S", False),
    # 6 points, seven spades headed by K Q J -> barrage 3S
    ("KQJ7654.32.54.32", "", "3S", False),
    # 9 + 2: a solid seven-card club suit with a singleton -> 3NT, alerted
    ("32.432.5.AKQ7654", "", "3NT", True),
    # 9 + 2: seven solid hearts and a singleton -> 4H
    ("5.AKQ7654.432.32", "", "4H", False),
]

RESPONSES = [
    # Over 1H. 6 points, K 5 4 is not support (three cards need two honours): 1NT
    ("Q32.K54.J876.432", "1H Pass", "1NT", False),
    # K J 4: three cards with two honours is support; 6 points -> 2H
    ("Q32.KJ4.8765.432", "1H Pass", "2H", False),
    # support, 10 -> 3H
    ("Q32.KJ42.A765.32", "1H Pass", "3H", False),
    # support, 15 + 1 (K x) -> 4H
    ("A32.KJ42.A765.K2", "1H Pass", "4H", False),
    # support, 19 + 2 (A x): slam values, 4NT asks for aces
    ("A2.KQ42.AK65.K32", "1H Pass", "4NT", True),
    # 3 points -> pass
    ("Q32.54.J876.5432", "1H Pass", "Pass", False),
    # 5 + 2, five spades (H H x x x) -> 1S
    ("KQ765.4.8765.432", "1H Pass", "1S", False),
    # 5 + 2, five clubs, below hearts -> 1NT
    ("432.4.8765.KQ765", "1H Pass", "1NT", False),
    # 11 + 2, five spades -> two of the new suit
    ("AKJ65.4.8765.K32", "1H Pass", "2S", False),
    # 11, regular, no support -> 2NT
    ("KQ2.54.QJ76.K432", "1H Pass", "2NT", False),
    # 15, regular -> 3NT
    ("KQ2.54.AQJ7.K432", "1H Pass", "3NT", False),
    # over 1C a four-card suit may be named: 6 + 2, 4-4-4-1, K Q J x -> 1S
    ("KQJ2.5432.8765.3", "1C Pass", "1S", False),
    # but a regular 6-9 answers 1NT
    ("KQJ2.432.8765.32", "1C Pass", "1NT", False),
]

REBIDS = [
    # 1H-1NT. 13, six hearts -> 2H
    ("AK3.KQJ654.54.32", "1H Pass 1NT Pass", "2H", False),
    # 17, six hearts -> with a jump
    ("AK3.AKJ654.Q4.32", "1H Pass 1NT Pass", "3H", False),
    # 17 + 1, A K J x of spades -> the new suit
    ("AKJ2.AQ765.K4.32", "1H Pass 1NT Pass", "2S", False),
    # 16, no other suit to name -> 2NT
    ("AK3.AQ765.K54.32", "1H Pass 1NT Pass", "2NT", False),
    # 13 -> pass
    ("AK3.QJ765.K54.32", "1H Pass 1NT Pass", "Pass", False),
    # 1H-1S. 13 + 1, four spades: support -> one more
    ("KJ32.AQ765.K4.32", "1H Pass 1S Pass", "2S", False),
    # 14 + 1, four clubs, lower than hearts, 13-15 -> 2C
    ("32.AQ765.K4.KQ32", "1H Pass 1S Pass", "2C", False),
    # 1D-1H. 14, four spades higher than diamonds, bid without raising the level (*)
    ("KQJ2.32.AQ765.Q2", "1D Pass 1H Pass", "1S", False),
    # 1H-1S-2S: responder with 13+ closes game in the last suit
    ("AKJ65.4.A765.K32", "1H Pass 1S Pass 2S Pass", "4S", False),
    # 1H-1S-2C: no support, under 13 -> no trump
    ("KQ765.42.J765.32", "1H Pass 1S Pass 2C Pass", "2NT", False),
]

TWO_CLUBS = [
    # 3 points -> 2D, negative and artificial
    ("Q32.J54.8765.432", "2C Pass", "2D", True),
    # 6 points but two kings, regular -> 2NT
    ("K32.K54.8765.432", "2C Pass", "2NT", False),
    # 10, five hearts -> 2H
    ("32.KQJ54.A765.32", "2C Pass", "2H", False),
    # 2C-2D: 24, regular -> 2NT; 25 -> 3NT
    ("AKQ2.AKQ.A87.Q32", "2C Pass 2D Pass", "2NT", False),
    ("AKQ2.AKQ.AJ7.Q32", "2C Pass 2D Pass", "3NT", False),
    # 2C-2D-2NT goes on as a 2NT opening: 4 points and five hearts -> 3H
    ("32.KJ876.543.432", "2C Pass 2D Pass 2NT Pass", "3H", False),
]

NO_TRUMP = [
    # 1NT. 7, no five-card suit -> pass
    ("KJ32.Q54.J87.432", "1NT Pass", "Pass", False),
    # 7, five spades -> 2S to play
    ("KJ765.Q54.J87.43", "1NT Pass", "2S", False),
    # 11 and four spades -> 2C asks for a major: alerted
    ("KJ32.Q54.J87.A32", "1NT Pass", "2C", True),
    # 11, no major -> 3NT
    ("KJ3.Q54.J87.A432", "1NT Pass", "3NT", False),
    # 15 high-card points -> 4NT, slam if opener is 17+ (not an ace ask)
    ("KJ3.Q54.AJ7.A432", "1NT Pass", "4NT", False),
    # 1NT-2C: 15, four spades -> 2S; no major -> 2D (artificial); both -> 2NT (artificial)
    ("AK32.KQ4.J87.Q32", "1NT Pass 2C Pass", "2S", False),
    ("AK3.KQ4.J872.Q32", "1NT Pass 2C Pass", "2D", True),
    ("AK32.KQ42.J87.Q3", "1NT Pass 2C Pass", "2NT", True),
    # 18, four spades -> 3S
    ("AK32.KQ4.AJ7.J32", "1NT Pass 2C Pass", "3S", False),
    # 1NT-2C-2S: 11 with four spades -> game
    ("KJ32.Q54.J87.A32", "1NT Pass 2C Pass 2S Pass", "4S", False),
    # 1NT-2C-2D: 8, no fit -> 2NT
    ("KJ32.Q54.Q87.432", "1NT Pass 2C Pass 2D Pass", "2NT", False),
    # 2NT. 4, six hearts -> 4C, which asks opener to bid hearts
    ("32.KJ8765.54.432", "2NT Pass", "4C", True),
    ("32.KJ876.543.432", "2NT Pass", "3H", False),
    ("32.KJ87.5432.432", "2NT Pass", "3C", True),
    ("32.K87.J5432.432", "2NT Pass", "3NT", False),
    # 2NT-4C: opener bids the hearts
    ("AKQ2.KQ4.AJ7.Q32", "2NT Pass 4C Pass", "4H", False),
]

SLAM = [
    # 4NT asks aces: one -> 5D, none -> 5C
    ("AK32.KQ765.54.32", "1H Pass 4NT Pass", "5D", True),
    ("KQ32.KQ765.Q4.Q2", "1H Pass 4NT Pass", "5C", True),
    # 5NT after 4NT asks kings: two -> 6H
    ("AK32.KQ765.54.32", "1H Pass 4NT Pass 5D Pass 5NT Pass", "6H", True),
    # 5NT without 4NT asks for A K Q of hearts: K Q -> 6H
    ("AK32.KQ765.54.32", "1H Pass 3H Pass 5NT Pass", "6H", True),
    # 6C after 4NT asks for A K Q of hearts: K Q -> 6S
    ("AK32.KQ765.54.32", "1H Pass 4NT Pass 5D Pass 6C Pass", "6S", True),
    # the captain: 4NT, partner shows two aces, one missing -> six of the fit
    ("A2.KQ42.AK65.K32", "1H Pass 4NT Pass 5H Pass", "6H", False),
    # the captain: two aces missing -> stop at five
    ("K2.KQ42.AK65.KQ2", "1H Pass 4NT Pass 5D Pass", "5H", False),
    # the answerer passes the captain's decision
    ("AK32.KQ765.54.32", "1H Pass 4NT Pass 5D Pass 6H Pass", "Pass", False),
]

COMPETITION = [
    # over 1H: 8 + 2, five spades -> 1S
    ("KQ765.4.8765.K32", "1H", "1S", False),
    # 14 regular -> double
    ("AK3.54.KQ76.Q432", "1H", "X", False),
    # 17 + 1 regular -> 1NT
    ("AK3.K4.KQ76.Q432", "1H", "1NT", False),
    # 15 + 2, six diamonds -> 2D
    ("AK3.4.KQJ765.Q43", "1H", "2D", False),
    # 1H X: 5 points, nothing to show, but the double is always answered -> 1NT
    ("K32.J54.J876.432", "1H X", "1NT", False),
    # 11 -> redouble
    ("AQ2.J54.KJ76.432", "1H X", "XX", False),
    # 5 + 2, six diamonds -> 3D
    ("2.J54.KJ8765.432", "1H X", "3D", False),
    # the seed comes in only over one of a suit: over 1NT, pass
    ("AK3.4.KQJ765.Q43", "1NT", "Pass", False),
    # partner doubled 1H: the double is answered in the longest other suit
    ("Q432.J54.876.432", "1H X Pass", "1S", False),
    # of two four-card suits, the lower ("el más pobre")
    ("Q432.J54.8765.32", "1H X Pass", "2D", False),
]


@pytest.mark.parametrize(("text", "calls", "expected", "alert"),
                         OPENINGS + RESPONSES + REBIDS + TWO_CLUBS + NO_TRUMP + SLAM
                         + COMPETITION)
def test_the_system(text: str, calls: str, expected: str, alert: bool) -> None:
    choice = choose_call(auction(calls), hand(text))
    assert (str(choice.call), choice.alert) == (str(Call.from_str(expected)), alert), \
        choice.meaning
    assert choice.artificial is alert
    assert choice.meaning


@pytest.mark.parametrize(("calls", "seat", "tag"), [
    ("1NT Pass 4NT Pass", 2, "resp:quant"),  # over 1NT, 4NT is the slam invitation
    ("1H Pass 3H Pass 4NT Pass", 4, "slam:aces"),  # elsewhere, the ace ask
    ("1H Pass 3H Pass 5NT Pass", 4, "slam:trumps5nt"),
    ("1H Pass 4NT Pass 5D Pass 5NT Pass", 6, "slam:kings"),
])
def test_how_a_call_is_read(calls: str, seat: int, tag: str) -> None:
    steps, _ = read(auction(calls))
    assert steps[seat].tag == tag


def _bid_out(board: int, seed: int = 0) -> Auction:
    cards = deal(seed, board)
    bidding = Auction(Board(board).dealer)
    while not bidding.is_over:
        seat = bidding.turn
        assert seat is not None
        choice = choose_call(bidding, cards[seat])
        assert bidding.is_legal(choice.call)
        assert choice.alert is choice.artificial
        bidding.make_call(choice.call, alert=choice.alert)
    return bidding


def test_the_same_auction_and_hand_give_the_same_call() -> None:
    for board in range(1, 21):
        assert _bid_out(board, 5).calls == _bid_out(board, 5).calls


def test_three_hundred_deals_give_every_kind_of_contract() -> None:
    kinds: Counter[str] = Counter()
    for board in range(1, 301):
        contract = _bid_out(board).contract
        if contract is None:
            kinds["passed out"] += 1
        elif contract.level >= 6:
            kinds["slam"] += 1
        elif contract.level >= (3 if contract.strain is Strain.NT else
                                4 if contract.strain.is_major else 5):
            kinds["game"] += 1
        else:
            kinds["part score"] += 1
    assert kinds["passed out"] >= 1 and kinds["passed out"] <= 30
    assert kinds["part score"] >= 60
    assert kinds["game"] >= 60
    assert 3 <= kinds["slam"] <= 45
