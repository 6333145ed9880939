"""Card play: legal by construction, sensible by the textbook, and honest about what it knows.

The player deciding (declarer for dummy's cards, Law 45B) sees its own hand, dummy once the
opening lead is faced, the cards played and the auction; nothing else of the deal is read.
Every card it may play comes from its visible hand and is checked with ``Play.is_legal``.

Leads: partner's suit, the top of a sequence, a singleton against a trump contract, else
fourth best of the longest suit. Declarer draws trumps while its side holds more than the
defenders have left, cashes top winners, ruffs in the hand that is void, then leads its
longest suit. Following: second hand low, third hand high (the lowest of equal cards), the
last hand wins as cheaply as it can, and nobody overtakes partner's sure winner; with no
card of the suit, ruff what partner is not winning, else throw the least useful card.
"""

from __future__ import annotations

from collections.abc import Iterable

from laws import Card, Deal, Seat, Suit
from laws.auction import Auction
from laws.play import Play


class View:
    """The decider's knowledge at one turn."""

    def __init__(self, play: Play, seat: Seat, deal: Deal) -> None:
        self.play = play
        self.seat = seat
        self.me = play.controller(seat)
        self.trump = play.trump
        self.played = play.played_cards()
        self.dummy_seen = bool(self.played)
        self.hands: dict[Seat, set[Card]] = {self.me: self._left(deal, self.me)}
        if self.dummy_seen:
            self.hands[play.dummy] = self._left(deal, play.dummy)
        self.hand = self.hands[seat]
        ours = set().union(*self.hands.values())
        self.unseen = {c for c in Card.ALL if c not in self.played and c not in ours}

    def _left(self, deal: Deal, seat: Seat) -> set[Card]:
        return {c for c in deal[seat] if c not in self.played}

    @property
    def declaring(self) -> bool:
        return self.me.side is self.play.declarer.side

    def friendly(self, seat: Seat) -> bool:
        return seat.side is self.seat.side

    def higher_unseen(self, card: Card) -> int:
        return sum(1 for c in self.unseen if c.suit is card.suit and c.rank > card.rank)

    def master(self, card: Card) -> bool:
        """No card the decider cannot see outranks it."""
        return self.higher_unseen(card) == 0

    def lowest_equal(self, card: Card, among: Iterable[Card] | None = None) -> Card:
        """The lowest card of the hand (or of ``among``) worth as much as ``card``: Q from
        K Q; no card still in play (unseen, or on the table now) lies between them."""
        live = self.unseen | {c for _, c in self.play.current.cards}
        best = card
        pool = self.hand if among is None else set(among)
        for other in sorted((c for c in pool if c.suit is card.suit and c < card),
                            reverse=True):
            if any(c.suit is card.suit and other < c < best for c in live):
                break
            best = other
        return best


def _lowest(cards: Iterable[Card]) -> Card:
    return min(cards, key=lambda c: (c.rank.value, c.suit.value))


def _highest(cards: Iterable[Card]) -> Card:
    return max(cards, key=lambda c: (c.rank.value, c.suit.value))


def _beats(card: Card, best: Card, led: Suit, trump: Suit | None) -> bool:
    if card.suit is best.suit:
        return card.rank > best.rank
    return card.suit is trump


def _winner(play: Play) -> tuple[Seat, Card]:
    trick = play.current
    led = trick.cards[0][1].suit
    seat, best = trick.cards[0]
    for who, card in trick.cards[1:]:
        if _beats(card, best, led, play.trump):
            seat, best = who, card
    return seat, best


def choose_card(play: Play, seat: Seat, deal: Deal, *, auction: Auction | None = None) -> Card:
    """The card ``seat`` (whose turn it is; declarer chooses dummy's) plays now.

    Only the deciding player's own hand and, after the opening lead, dummy's are read from
    ``deal``; ``auction`` (public) lets the opening leader find partner's suit.
    """
    if play.turn is not seat:
        raise ValueError(f"it is {play.turn}'s turn, not {seat}'s")
    view = View(play, seat, deal)
    legal = [c for c in view.hand if play.is_legal(c, seat)]
    if not legal:
        raise ValueError(f"{seat} has no legal card")
    if play.current.cards:
        card = _follow(view, legal)
    elif not view.played:
        card = _opening_lead(view, legal, auction)
    elif view.declaring:
        card = _declarer_lead(view, legal)
    else:
        card = _defender_lead(view, legal)
    return card if card in legal else _lowest(legal)


# -- leads -------------------------------------------------------------------------------------

def _by_suit(cards: Iterable[Card]) -> dict[Suit, list[Card]]:
    """Each suit's cards, highest first."""
    suits: dict[Suit, list[Card]] = {}
    for card in sorted(cards, key=lambda c: c.rank.value, reverse=True):
        suits.setdefault(card.suit, []).append(card)
    return suits


def _sequence_top(cards: list[Card]) -> bool:
    """Two touching honours at the top (A K, K Q, Q J, J T)."""
    return (len(cards) >= 2 and cards[0].rank.value >= 11
            and cards[0].rank.value - cards[1].rank.value == 1)


def _lead_from(cards: list[Card]) -> Card:
    """Top of a sequence or of a doubleton, fourth best from four or more, else the lowest
    from an honour, the top of nothing."""
    if _sequence_top(cards) or len(cards) <= 2:
        return cards[0]
    if len(cards) >= 4:
        return cards[3]
    return cards[-1] if cards[0].rank.value >= 11 else cards[0]


def _partner_suits(auction: Auction | None, me: Seat) -> list[Suit]:
    if auction is None:
        return []
    from .bidding import read  # the system reads the auction; imported late: no cycle

    steps, _ = read(auction)
    return [s.suit for s in steps if s.seat is me.partner and s.suit is not None]


def _opening_lead(view: View, legal: list[Card], auction: Auction | None) -> Card:
    suits = _by_suit(legal)
    trump = view.trump
    for suit in _partner_suits(auction, view.seat):
        if suit in suits and suit is not trump:
            cards = suits[suit]
            return cards[0] if len(cards) <= 2 or _sequence_top(cards) or cards[0].rank.value < 11 \
                else cards[-1]
    side = {s: c for s, c in suits.items() if s is not trump} or suits
    for cards in sorted(side.values(), key=len, reverse=True):
        if _sequence_top(cards) and (trump is None or len(cards) >= 2):
            return cards[0]
    if trump is not None and suits.get(trump):
        singletons = [c[0] for s, c in side.items() if len(c) == 1 and c[0].rank.value < 14]
        if singletons:
            return singletons[0]

    def worth(item: tuple[Suit, list[Card]]) -> tuple[int, int, int]:
        suit, cards = item
        away_from_ace = trump is not None and cards[0].rank.value == 14 and not _sequence_top(
            cards)
        return (0 if away_from_ace else 1, len(cards), suit.value)

    _, cards = max(side.items(), key=worth)
    return _lead_from(cards)


def _declarer_lead(view: View, legal: list[Card]) -> Card:
    trump = view.trump
    other = view.hands.get(view.seat.partner, set())
    suits = _by_suit(legal)
    if trump is not None:
        theirs = sum(1 for c in view.unseen if c.suit is trump)
        ours = sum(1 for c in view.hand | other if c.suit is trump)
        if theirs and ours > theirs and suits.get(trump):
            masters = [c for c in suits[trump] if view.master(c)]
            if masters:
                return view.lowest_equal(masters[0])
            top = suits[trump]
            return view.lowest_equal(top[0]) if _sequence_top(top) else top[-1]
    def length(suit: Suit) -> int:
        """Our cards in the suit less theirs: cash where we are long, not where cashing
        would set up their long cards."""
        return (sum(1 for c in view.hand | other if c.suit is suit)
                - sum(1 for c in view.unseen if c.suit is suit))

    masters = [c for c in legal if c.suit is not trump and view.master(c)]
    long_masters = [c for c in masters if length(c.suit) >= 0]
    if long_masters:
        # Cash from the hand with fewer cards of the suit first, so the suit does not block.
        def short_first(card: Card) -> tuple[int, int]:
            return (sum(1 for c in other if c.suit is card.suit), -card.rank.value)
        return min(long_masters, key=short_first)
    if trump is not None and any(c.suit is trump for c in other):
        for suit, cards in suits.items():
            if suit is not trump and not any(c.suit is suit for c in other):
                return cards[-1]  # a loser the other hand ruffs
    for card in sorted(legal, key=lambda c: c.rank.value):
        if card.suit is not trump and length(card.suit) >= 0 and any(
                c.suit is card.suit and view.master(c) for c in other):
            return card  # to partner's winner
    side = {s: c for s, c in suits.items() if s is not trump} or suits
    if masters and all(length(s) < 0 for s in side):
        return masters[0]
    _, cards = max(side.items(), key=lambda item: (length(item[0]), len(item[1])))
    return cards[0] if _sequence_top(cards) else cards[-1]


def _defender_lead(view: View, legal: list[Card]) -> Card:
    trump = view.trump
    suits = _by_suit(legal)
    dummy = view.hands.get(view.play.dummy, set())
    dummy_trumps = trump is not None and any(c.suit is trump for c in dummy)

    def ruff_sluff(suit: Suit) -> bool:
        return dummy_trumps and suit is not trump and not any(c.suit is suit for c in dummy)

    masters = [c for c in legal if c.suit is not trump and view.master(c)
               and not ruff_sluff(c.suit)]
    if masters:
        return _highest(masters)
    partner_led = [t.cards[0][1].suit for t in view.play.completed_tricks
                   if t.cards and t.cards[0][0] is view.seat.partner]
    for suit in partner_led:
        if suit in suits and suit is not trump:
            cards = suits[suit]
            return cards[0] if len(cards) <= 2 else cards[-1]
    side = {s: c for s, c in suits.items() if s is not trump and not ruff_sluff(s)} or suits
    _, cards = max(side.items(), key=lambda item: (len(item[1]), item[0].value))
    return _lead_from(cards)


# -- following ---------------------------------------------------------------------------------

def _follow(view: View, legal: list[Card]) -> Card:
    play, trump = view.play, view.trump
    trick = play.current
    led = trick.cards[0][1].suit
    position = len(trick.cards) + 1
    seat, best = _winner(play)
    partner_wins = view.friendly(seat)
    fourth = view.seat.next()
    following = [c for c in legal if c.suit is led]
    if following:
        beating = sorted((c for c in following if _beats(c, best, led, trump)),
                         key=lambda c: c.rank.value)
        if position == 4:
            return beating[0] if beating and not partner_wins else _lowest(following)
        if position == 2:
            return _lowest(following)
        # Third hand: high, unless partner's card already wins for sure.
        fourth_cards = view.hands.get(fourth)
        if partner_wins and _sure(view, best, fourth_cards):
            return _lowest(following)
        if fourth_cards is not None:
            top = [c for c in fourth_cards if c.suit is led]
            covering = [c for c in beating if not top or c.rank > _highest(top).rank]
            return covering[0] if covering else _lowest(following)
        if beating:
            return view.lowest_equal(_highest(beating), beating)
        return _lowest(following)
    trumps = [c for c in legal if c.suit is trump]
    last = view.hands.get(fourth) if view.friendly(fourth) else None
    if last is not None and any(c.suit is led and _beats(c, best, led, trump)
                                and view.master(c) for c in last):
        return _discard(view, [c for c in legal if c.suit is not trump] or legal)
    if trumps and not (partner_wins and (position == 4 or _sure(view, best, view.hands.get(
            fourth)))):
        ruffs = sorted((c for c in trumps if _beats(c, best, led, trump)),
                       key=lambda c: c.rank.value)
        if ruffs:
            return ruffs[0]
    return _discard(view, [c for c in legal if c.suit is not trump] or legal)


def _sure(view: View, best: Card, fourth: set[Card] | None) -> bool:
    """Whether ``best`` wins the trick whatever the last hand holds (as far as one knows)."""
    if fourth is not None:
        return not any(_beats(c, best, view.play.current.cards[0][1].suit, view.trump)
                       for c in fourth if c.suit is best.suit)
    return view.master(best)


def _discard(view: View, cards: list[Card]) -> Card:
    """The lowest card of the suit with the fewest winners, longest first."""
    suits = _by_suit(cards)

    def cost(item: tuple[Suit, list[Card]]) -> tuple[int, int, int]:
        suit, held = item
        return (sum(1 for c in held if view.master(c)), -len(held), suit.value)

    _, held = min(suits.items(), key=cost)
    return held[-1]


def sure_claim(play: Play, deal: Deal) -> bool:
    """Declarer's side is on lead with nothing but top winners in the hand that leads, none
    of which the partner hand must overtake, and the defenders have no trump left: every
    remaining trick is theirs, as declarer can see."""
    leader = play.turn
    if leader is None or play.current.cards or leader.side is not play.declarer.side:
        return False
    view = View(play, leader, deal)
    if view.trump is not None and any(c.suit is view.trump for c in view.unseen):
        return False
    other = view.hands.get(leader.partner, set())
    # The partner hand must be able to play under each winner, so the lead stays.
    return bool(view.hand) and all(
        view.master(c) and not any(o.suit is c.suit and o.rank > c.rank for o in other)
        for c in view.hand)
