"""Scoring: duplicate (Law 77), rubber bridge, Chicago, the club's house scheme, and IMPs.

Each scheme is a table of values looked up, with the law or seed it comes from beside it;
docs/scoring.md describes them in words.
"""

from .duplicate import duplicate_score, score_ns
from .imps import imps
from .score import DealScore

__all__ = ["DealScore", "duplicate_score", "imps", "score_ns"]
