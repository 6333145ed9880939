"""Scoring: duplicate (Law 77), rubber bridge, Chicago, the club's house scheme, and IMPs.

Each scheme is a table of values looked up, with the law or seed it comes from beside it;
docs/scoring.md describes them in words.
"""

from .club import Category, club_category, club_dealer, club_score, club_vulnerability
from .duplicate import duplicate_score, score_ns
from .imps import imps
from .score import DealScore

__all__ = [
    "Category", "DealScore", "club_category", "club_dealer", "club_score", "club_vulnerability",
    "duplicate_score", "imps", "score_ns",
]
