"""Card play: always legal, textbook in the ordinary cases, blind to the hidden hands."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from laws import Card, Contract, Deal, Seat, Suit
from laws.play import Play
from sim.players import choose_card, deal
from sim.players.card_play import sure_claim

from .util import auction, hand

CONTRACTS = ["1NT", "3NT", "2C", "4H", "4S", "5D", "6NT", "3S"]


def boards(count: int, seed: int = 11) -> Iterator[tuple[Deal, Contract, Seat]]:
    rng = random.Random(seed)
    for board in range(1, count + 1):
        yield deal(seed, board), Contract.from_str(rng.choice(CONTRACTS)), rng.choice(list(Seat))


def winner(play: Play) -> tuple[Seat, Card]:
    trick = play.current
    led = trick.cards[0][1].suit
    seat, best = trick.cards[0]
    for who, card in trick.cards[1:]:
        if (card.suit is best.suit and card.rank > best.rank) or (
                card.suit is play.trump and best.suit is not play.trump):
            seat, best = who, card
    assert led is not None
    return seat, best


def play_out(cards: Deal, contract: Contract, declarer: Seat) -> Iterator[tuple[Play, Card]]:
    """Each position of the board and the card the bot chose there, then played."""
    play = Play(contract, declarer, cards)
    while not play.is_over:
        seat = play.turn
        assert seat is not None
        card = choose_card(play, seat, cards)
        assert card in set(play.legal_cards())
        yield play, card
        play.play(card, seat)


def test_every_card_is_legal_and_every_board_ends() -> None:
    for cards, contract, declarer in boards(120):
        played = sum(1 for _ in play_out(cards, contract, declarer))
        assert played == 52


def test_second_hand_low_and_fourth_hand_wins_cheaply() -> None:
    """By position, over many boards: second hand plays its lowest card of the suit; the
    last hand overtakes only an opponent, with its cheapest winning card."""
    seen = {2: 0, 4: 0}
    for cards, contract, declarer in boards(60, seed=3):
        for play, card in play_out(cards, contract, declarer):
            trick = play.current
            seat = play.turn
            assert seat is not None
            led = trick.cards[0][1].suit if trick.cards else None
            suit = [c for c in play.remaining(seat) or () if c.suit is led]
            if not suit or len(trick.cards) not in (1, 3):
                continue
            low = min(suit, key=lambda c: c.rank.value)
            if len(trick.cards) == 1:
                seen[2] += 1
                assert card == low
            else:
                seen[4] += 1
                who, best = winner(play)
                beating = [c for c in suit if c.rank > best.rank and best.suit is led]
                if who.side is seat.side or not beating:
                    assert card == low
                else:
                    assert card == min(beating, key=lambda c: c.rank.value)
    assert seen[2] > 100 and seen[4] > 100


def test_third_hand_plays_high_when_partner_is_not_winning() -> None:
    checked = 0
    for cards, contract, declarer in boards(60, seed=4):
        for play, card in play_out(cards, contract, declarer):
            trick = play.current
            seat = play.turn
            assert seat is not None
            if len(trick.cards) != 2 or seat.next() is play.dummy:
                continue
            led = trick.cards[0][1].suit
            who, best = winner(play)
            suit = [c for c in play.remaining(seat) or () if c.suit is led]
            beating = [c for c in suit if best.suit is led and c.rank > best.rank]
            if who.side is not seat.side and beating:
                checked += 1
                assert card.suit is led and card.rank > best.rank
    assert checked > 30


# A deal for the textbook cases: 3NT by South, West leads.
DEAL = Deal.from_pbn("N:A74.K32.QJ32.K74 KQ5.A87.K54.QJ96 J93.QJ64.A96.A85 "
                     "T862.T95.T87.T32")


def test_a_trick_by_the_book() -> None:
    play = Play(Contract.from_str("3NT"), Seat.S, DEAL)
    # fourth best from T 8 6 2
    assert choose_card(play, Seat.W, DEAL) == Card.from_str("S2")
    play.play(Card.from_str("S2"))
    # second hand low (declarer plays dummy's A 7 4)
    assert choose_card(play, Seat.N, DEAL) == Card.from_str("S4")
    play.play(Card.from_str("S4"))
    # third hand high, the lower of equal cards: Q from K Q 5
    assert choose_card(play, Seat.E, DEAL) == Card.from_str("SQ")
    play.play(Card.from_str("SQ"))
    # the last hand cannot win: its lowest card
    assert choose_card(play, Seat.S, DEAL) == Card.from_str("S3")


@pytest.mark.parametrize(("west", "dealer", "calls", "lead"), [
    # top of a sequence
    ("KQJ4.T98.T987.32", Seat.S, "1NT Pass 3NT Pass Pass Pass", "SK"),
    # fourth best of the longest suit
    ("K9742.T98.T98.32", Seat.S, "1NT Pass 3NT Pass Pass Pass", "S4"),
    # partner's suit (East overcalled hearts): the top of a doubleton
    ("K9742.T8.T987.32", Seat.N, "1C 1H 1NT Pass 3NT Pass Pass Pass", "HT"),
])
def test_opening_leads(west: str, dealer: Seat, calls: str, lead: str) -> None:
    mine = hand(west)
    rest = [c for c in Card.ALL if c not in mine]
    cards = Deal({Seat.W: mine, Seat.N: frozenset(rest[0:13]), Seat.E: frozenset(rest[13:26]),
                  Seat.S: frozenset(rest[26:39])})
    bidding = auction(calls, dealer)
    assert bidding.declarer is Seat.S
    play = Play(Contract.from_str("3NT"), Seat.S, cards)
    assert choose_card(play, Seat.W, cards, auction=bidding) == Card.from_str(lead)


def test_declarer_draws_trumps() -> None:
    cards = Deal.from_pbn("N:5432.K32.QJ32.K7 T98.A87.K54.QJ96 AKQJ.QJ64.A9.A85 "
                          "76.T95.T876.T432")
    play = Play(Contract.from_str("4S"), Seat.S, cards)
    for text in ("D6", "D2", "DK", "DA"):  # West leads, declarer wins in hand
        play.play(Card.from_str(text))
    assert choose_card(play, Seat.S, cards) == Card.from_str("SJ")  # the lowest of A K Q J


def test_a_defender_ruffs_with_the_lowest_trump_what_partner_does_not_win() -> None:
    # 4S by South; West is out of hearts and holds the 7 and 6 of trumps.
    cards = Deal.from_pbn("N:5432.K32.QJ32.K7 T98.AT9875.K5.Q6 AKQJ.QJ64.A94.A5 "
                          "76..T876.JT98432")
    play = Play(Contract.from_str("4S"), Seat.S, cards)
    for text in ("C2", "C7", "CQ", "CA"):  # West leads, South wins
        play.play(Card.from_str(text))
    play.play(Card.from_str("HQ"))  # South leads a heart: West ruffs, low
    assert choose_card(play, Seat.W, cards) == Card.from_str("S6")


def _hidden(play: Play, seat: Seat) -> list[Seat]:
    decider = play.controller(seat)
    seen = {decider} | ({play.dummy} if play.played_cards() else set())
    return [s for s in Seat if s not in seen]


def _shuffled(cards: Deal, play: Play, hidden: list[Seat], rng: random.Random) -> Deal:
    """The hidden hands' unplayed cards dealt again among them, suit by suit."""
    played = play.played_cards()
    hands = {s: set(cards[s]) for s in Seat}
    for suit in Suit:
        pool = [c for s in hidden for c in hands[s] if c.suit is suit and c not in played]
        counts = {s: sum(1 for c in hands[s] if c.suit is suit and c not in played)
                  for s in hidden}
        rng.shuffle(pool)
        for s in hidden:
            hands[s] -= {c for c in hands[s] if c.suit is suit and c not in played}
            hands[s] |= set(pool[:counts[s]])
            del pool[:counts[s]]
    return Deal({s: frozenset(h) for s, h in hands.items()})


def test_the_choice_does_not_depend_on_the_hidden_hands() -> None:
    rng = random.Random(5)
    changed = 0
    bidding = auction("1NT Pass 3NT Pass Pass Pass")
    for cards, contract, declarer in boards(25, seed=8):
        history: list[tuple[Seat, Card]] = []
        for play, card in play_out(cards, contract, declarer):
            seat = play.turn
            assert seat is not None
            other = _shuffled(cards, play, _hidden(play, seat), rng)
            changed += other != cards
            again = Play(contract, declarer, other)
            for who, earlier in history:
                again.play(earlier, who)
            assert choose_card(again, seat, other, auction=bidding) == card
            history.append((seat, card))
    assert changed > 500


def test_a_claim_is_offered_only_when_every_trick_is_sure() -> None:
    claims = 0
    for cards, contract, declarer in boards(80, seed=9):
        for play, _ in play_out(cards, contract, declarer):
            if sure_claim(play, cards):
                claims += 1
                rest = Play(contract, declarer, cards)
                for trick in play.completed_tricks:
                    for who, card in trick.cards:
                        rest.play(card, who)
                before = rest.declarer_tricks_played
                while not rest.is_over:
                    # the defenders throw their best; declarer's side leads its winners
                    # and plays under them from the other hand
                    seat = rest.turn
                    assert seat is not None
                    legal = sorted(rest.legal_cards(), key=lambda c: c.rank.value)
                    under = seat.side is declarer.side and bool(rest.current.cards)
                    rest.play(legal[0] if under else legal[-1], seat)
                assert rest.declarer_tricks_played - before == play.tricks_left
                break
    assert claims > 10
