"""Property tests: random legal auctions and random legal plays keep the engine consistent."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from laws import PASS, Bid, Card, Deal, Seat, Side
from laws.auction import Auction
from laws.play import Play


def random_deal(rng: random.Random) -> Deal:
    deck = list(Card.ALL)
    rng.shuffle(deck)
    return Deal({seat: frozenset(deck[i * 13:(i + 1) * 13]) for i, seat in enumerate(Seat)})


def random_auction(rng: random.Random, dealer: Seat) -> Auction:
    auction = Auction(dealer)
    while not auction.is_over:
        legal = list(auction.legal_calls())
        # Pass often, or the auction would race to seven no trump.
        call = PASS if rng.random() < 0.55 else rng.choice(legal)
        auction.make_call(call)
    return auction


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(list(Seat)))
def test_random_legal_auctions_end_in_a_contract_or_a_pass_out(seed: int, dealer: Seat) -> None:
    auction = random_auction(random.Random(seed), dealer)
    assert auction.is_over and auction.turn is None
    assert list(auction.legal_calls()) == []
    contract = auction.contract
    if auction.is_passed_out:
        assert contract is None and len(auction) == 4
        return
    assert contract is not None and auction.declarer is not None
    final = auction.last_bid
    assert final is not None and (contract.level, contract.strain) == (final.level, final.strain)
    # The declarer is of the side that made the final bid and named the strain first.
    bids = [e for e in auction.entries if isinstance(e.call, Bid)]
    last_entry = bids[-1]
    assert auction.declarer.side is last_entry.seat.side
    first = next(e for e in bids if e.seat.side is last_entry.seat.side
                 and isinstance(e.call, Bid) and e.call.strain is contract.strain)
    assert first.seat is auction.declarer
    # Every bid supersedes the one before it (Law 18B).
    ranks = [e.call.rank for e in bids if isinstance(e.call, Bid)]
    assert ranks == sorted(set(ranks))
    # Replaying the calls gives the same auction.
    assert Auction(dealer, auction.calls).contract == contract


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_random_legal_plays_make_thirteen_tricks(seed: int, known: bool) -> None:
    rng = random.Random(seed)
    deal = random_deal(rng)
    auction = random_auction(rng, Seat(rng.randrange(4)))
    if auction.contract is None or auction.declarer is None:
        return
    play = Play(auction.contract, auction.declarer, deal if known else None)
    while not play.is_over:
        turn = play.turn
        assert turn is not None
        # With unknown hands, choose among the cards the hand really holds and follows with.
        hand = [c for c in deal[turn] if c not in play.played_cards()]
        led = play.current.led_suit
        following = [c for c in hand if c.suit is led] or hand
        legal = set(play.legal_cards())
        assert set(following) <= legal
        if known:
            assert legal == set(following)
        play.play(rng.choice(following))
    assert len(play.completed_tricks) == 13
    assert play.tricks_won(Side.NS) + play.tricks_won(Side.EW) == 13
    assert play.revokes == []
    assert 0 <= play.declarer_tricks() <= 13
    leaders = [t.leader for t in play.tricks]
    assert leaders[0] is auction.declarer.lho
    for before, after in zip(play.tricks, play.tricks[1:], strict=False):
        assert after.leader is before.winner(play.trump)
    assert len(play.played_cards()) == 52
