"""Scoring: duplicate (Law 77), rubber bridge, Chicago, the club's house scheme, and IMPs.

Each scheme is a table of values looked up, with the law or seed it comes from beside it;
docs/scoring.md describes them in words.
"""

from .chicago import Chicago, chicago_dealer, chicago_vulnerability
from .club import Category, club_category, club_dealer, club_score, club_vulnerability
from .duplicate import duplicate_score, score_ns
from .honours import Honours, honours_in
from .imps import imps
from .rubber import Rubber
from .schemes import Scheme, deal_score
from .score import DealScore
from .sheet import Entry, Item

__all__ = [
    "Category", "Chicago", "DealScore", "Entry", "Honours", "Item", "Rubber", "Scheme",
    "chicago_dealer", "chicago_vulnerability", "club_category", "club_dealer", "club_score",
    "club_vulnerability", "deal_score", "duplicate_score", "honours_in", "imps", "score_ns",
]
