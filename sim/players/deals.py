"""Deals made by the project: the same seed and board always give the same four hands.

The shuffle is the server's (``server.setup.session.dealt``): a deck in PBN order, shuffled by
``random.Random(f"{seed}:{board}")``, dealt thirteen at a time from North. So a table that
deals its own boards and a server that assigns them agree; tabled may not import the server.
"""

from __future__ import annotations

import random

from laws import Card, Deal, Seat, Suit
from laws.cards import Rank

_DECK = tuple(Card(suit, rank) for suit in (Suit.S, Suit.H, Suit.D, Suit.C)
              for rank in sorted(Rank, reverse=True))


def deal(seed: int, board: int) -> Deal:
    """The deal of ``board`` for ``seed``."""
    deck = list(_DECK)
    random.Random(f"{seed}:{board}").shuffle(deck)
    return Deal({seat: frozenset(deck[i * 13:(i + 1) * 13])
                 for i, seat in enumerate(Seat.clockwise_from(Seat.N))})
