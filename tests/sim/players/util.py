"""Test helpers: hands in S.H.D.C notation, auctions from call texts."""

from __future__ import annotations

from laws import Call, Card, Seat
from laws.auction import Auction
from laws.board import hand_from_pbn


def hand(text: str) -> frozenset[Card]:
    """A hand as S.H.D.C holdings (``AKQ2.J54.T3.9876``), ``-`` for a void."""
    return hand_from_pbn(".".join("" if h == "-" else h for h in text.split(".")))


def auction(calls: str = "", dealer: Seat = Seat.N) -> Auction:
    """``"1H Pass 1S"``: the calls from ``dealer`` on."""
    return Auction(dealer, [Call.from_str(c) for c in calls.split()])
