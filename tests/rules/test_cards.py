"""Seats, suits, ranks and cards: text forms round-trip, seat arithmetic is clockwise."""

from __future__ import annotations

import pytest

from laws import Card, InvalidCardError, Rank, Seat, Side, Suit


@pytest.mark.parametrize("card", Card.ALL, ids=str)
def test_card_text_round_trips(card: Card) -> None:
    assert Card.from_str(str(card)) == card
    assert eval(repr(card), {"Card": Card}) == card
    assert Card.from_index(card.index) is card


@pytest.mark.parametrize(("text", "expected"), [
    ("SQ", "SQ"), ("sq", "SQ"), ("S10", "ST"), ("10S", "ST"), ("QS", "SQ"), ("♠A", "SA"),
    ("C2", "C2"), ("HT", "HT"),
])
def test_card_forms(text: str, expected: str) -> None:
    assert str(Card.from_str(text)) == expected


@pytest.mark.parametrize("text", ["", "S", "SX", "Z2", "S1", "S11", "SQQQ", "QQ"])
def test_bad_card_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidCardError):
        Card.from_str(text)


@pytest.mark.parametrize(("seat", "lho", "partner", "rho", "side"), [
    (Seat.N, Seat.E, Seat.S, Seat.W, Side.NS),
    (Seat.E, Seat.S, Seat.W, Seat.N, Side.EW),
    (Seat.S, Seat.W, Seat.N, Seat.E, Side.NS),
    (Seat.W, Seat.N, Seat.E, Seat.S, Side.EW),
])
def test_seat_arithmetic(seat: Seat, lho: Seat, partner: Seat, rho: Seat, side: Side) -> None:
    assert (seat.lho, seat.partner, seat.rho, seat.side) == (lho, partner, rho, side)
    assert seat.next() is lho and seat.next(4) is seat
    assert Seat.from_str(str(seat)) is seat


def test_ranks_and_suits_order() -> None:
    assert sorted(Suit) == [Suit.C, Suit.D, Suit.H, Suit.S]
    assert Rank.ACE > Rank.KING > Rank.TEN > Rank.TWO
    honours = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)
    assert [r.hcp for r in honours] == [4, 3, 2, 1, 0]
    assert len(set(Card.ALL)) == 52
