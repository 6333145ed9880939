"""The laws engine of bidbox: cards, calls, auction, play, scoring and record formats.

Pure: it imports nothing outside the standard library and does no I/O of its own, so the
table, the server and the tools all share one reading of the Laws of Duplicate Bridge.
"""

from .board import Board, Deal, Hand, Vulnerability
from .calls import (
    ALL_BIDS,
    DOUBLE,
    PASS,
    REDOUBLE,
    Bid,
    Call,
    Contract,
    Doubling,
    Strain,
    format_contract,
    parse_contract,
)
from .cards import Card, Rank, Seat, Side, Suit
from .errors import (
    IllegalActionError,
    IllegalCallError,
    IllegalCardError,
    IllegalClaimError,
    InvalidCallError,
    InvalidCardError,
    InvalidDealError,
    InvalidNotationError,
    LeadRestrictionError,
    PenaltyCardError,
    RecordError,
    RulesError,
)

__all__ = [
    "ALL_BIDS", "DOUBLE", "PASS", "REDOUBLE", "Bid", "Board", "Call", "Card", "Contract",
    "Deal", "Doubling", "Hand", "IllegalActionError", "IllegalCallError", "IllegalCardError",
    "IllegalClaimError", "InvalidCallError", "InvalidCardError", "InvalidDealError",
    "InvalidNotationError", "LeadRestrictionError", "PenaltyCardError", "Rank", "RecordError",
    "RulesError", "Seat", "Side", "Strain", "Suit", "Vulnerability", "format_contract",
    "parse_contract",
]
