"""When the other side opened: the seed's interventions, and our answers to them.

The seed lets a side come in only over an opening of one in a suit: unbalanced, 8-12 and a
five-card suit at the one level (else pass), 13+ and a six-card suit at the two level;
regular, 13-14 double (opening values and support for the other suits), 15-18 1NT.

The seed says nothing of partner's answer to an intervention (the *advancer*); these bots
answer in the seed's own terms: a double is always answered, in the longest other suit
(with a jump on 10-12, game on 13+); over 1NT as over a 1NT opening, in short; an overcall
is raised with three cards (it shows five) by points, 6-9 one level, 10-12 two, 13+ game.
"""

from __future__ import annotations

from laws import DOUBLE, PASS, REDOUBLE, Bid, Strain, Suit

from .evaluation import Evaluation
from .system import Ctx, Option, Pred, Step, always, game_level, longest, shows, supports

SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)


def _pts(lo: int, hi: int = 40) -> Pred:
    return lambda ev: lo <= ev.total <= hi


def options(ctx: Ctx) -> list[Option] | None:
    opening = ctx.opening
    assert opening is not None and isinstance(opening.call, Bid)
    ours = [s for s in ctx.steps if s.seat.side is ctx.me.side and s.call != PASS]
    if not ours:
        opened = opening.call.strain.suit
        if opening.call.level == 1 and opened is not None and ctx.last_bid == opening.call:
            return _interventions(opened)
        return [Option(PASS, always, "the seed comes in only over one of a suit", "def:pass")]
    if len(ours) == 1 and ours[0].seat is ctx.partner and ctx.last_of(ctx.me) is None:
        return _advance(ctx, ours[0])
    return None


def _suit_for(opened: Suit, suit: Suit, length: int, lo: int, hi: int) -> Pred:
    def test(ev: Evaluation) -> bool:
        if ev.regular_for_opening or not lo <= ev.total <= hi:
            return False
        return longest(ev, [s for s in SUITS if s is not opened], minimum=length) is suit
    return test


def _regular(lo: int, hi: int) -> Pred:
    return lambda ev: ev.regular_for_opening and lo <= ev.total <= hi


def _interventions(opened: Suit) -> list[Option]:
    opts = [Option(DOUBLE, _regular(13, 14), "13-14 regular: opening values, support for "
                   "the other suits", "def:double", shows(13, 14, balanced=True)),
            Option(Bid(1, Strain.NT), _regular(15, 18), "15-18 regular", "def:1nt",
                   shows(15, 18, balanced=True))]
    for suit in SUITS:
        if suit is opened:
            continue
        opts.append(Option(Bid(2, Strain.of(suit)), _suit_for(opened, suit, 6, 13, 40),
                           f"13+, six or more {suit.name}", "def:2suit",
                           shows(13, suit=suit, length=6)))
        if suit > opened:
            opts.append(Option(Bid(1, Strain.of(suit)), _suit_for(opened, suit, 5, 8, 12),
                               f"8-12, five or more {suit.name}", "def:1suit",
                               shows(8, 12, suit=suit, length=5)))
    opts.append(Option(PASS, always, "no intervention", "def:pass"))
    return opts


def _advance(ctx: Ctx, partner: Step) -> list[Option] | None:
    opening = ctx.opening
    assert opening is not None and isinstance(opening.call, Bid)
    opened = opening.call.strain.suit
    rho = ctx.steps[-1] if ctx.steps else None
    free = rho is not None and rho.call not in (PASS, REDOUBLE)
    if partner.tag == "def:double" and opened is not None:
        return _after_double(ctx, opened, free)
    if partner.tag == "def:1nt":
        return [Option(PASS, _pts(0, 7), "fewer than 8", "adv:pass"),
                *[Option(Bid(4, Strain.of(m)), _six(m), f"10+, six {m.name}", "place")
                  for m in (Suit.S, Suit.H)],
                Option(Bid(2, Strain.NT), _pts(8, 9), "8-9", "place", shows(8, 9)),
                Option(Bid(3, Strain.NT), _pts(10), "10+", "place", shows(10))]
    suit = partner.suit
    if suit is None or not isinstance(partner.call, Bid):
        return None
    level = partner.call.level
    raised = [Option(PASS, _pts(0, 5), "fewer than 6", "adv:pass")]
    for by, (lo, hi) in enumerate(((6, 9), (10, 12), (13, 40)), 1):
        target = min(level + by, game_level(Strain.of(suit)))
        if by == 3:
            target = game_level(Strain.of(suit))
        call = ctx.bid(target, suit)
        if call is not None:
            raised.append(Option(call, _fits(suit, lo, hi), f"{lo}-{hi}, three or more "
                                 f"{suit.name}", "adv:raise", shows(lo, hi, suit=suit, length=3)))
    for own in SUITS:
        bid = ctx.over(own)
        if own not in (suit, opened) and bid is not None and bid.level <= 3:
            raised.append(Option(bid, _own_suit(own, (suit, opened)), f"10+, five or more "
                                 f"{own.name}, no fit", "adv:suit",
                                 shows(10, suit=own, length=5)))
    nt = ctx.over(Strain.NT)
    if nt is not None and nt.level <= 3 and opened is not None:
        raised.append(Option(nt, lambda ev: ev.balanced and ev.total >= 10
                             and ev.stopper(opened), "10+, regular, their suit stopped",
                             "place", shows(10, balanced=True)))
    raised.append(Option(PASS, always, "no fit", "adv:pass"))
    return raised


def _own_suit(suit: Suit, avoid: tuple[Suit | None, ...]) -> Pred:
    return lambda ev: (ev.total >= 10 and not ev.balanced and longest(
        ev, [s for s in SUITS if s not in avoid], minimum=5) is suit)


def _six(major: Suit) -> Pred:
    return lambda ev: ev.total >= 10 and ev.length(major) >= 6


def _fits(suit: Suit, lo: int, hi: int) -> Pred:
    return lambda ev: supports(ev, suit, insisted=True) and lo <= ev.total <= hi


def _after_double(ctx: Ctx, opened: Suit, free: bool) -> list[Option]:
    """Partner's take-out double: a suit of ours, always, unless the next hand bid."""
    opts = []
    others = [s for s in SUITS if s is not opened]
    for suit in others:
        cheapest = ctx.over(suit)
        if cheapest is None:
            continue
        chosen = _advance_suit(opened, suit)
        game = ctx.bid(game_level(Strain.of(suit)), suit)
        if game is not None and suit in (Suit.S, Suit.H) and game.level >= cheapest.level:
            opts.append(Option(game, _with(chosen, 13, 40), f"13+, {suit.name}: game",
                               "place", shows(13, suit=suit)))
        jump = ctx.over(suit, 1)
        if jump is not None and not free:
            opts.append(Option(jump, _with(chosen, 10, 12), f"10-12, four or more {suit.name}",
                               "adv:suit", shows(10, 12, suit=suit)))
        opts.append(Option(cheapest, _with(chosen, 6 if free else 0, 40),
                           f"four or more {suit.name}", "adv:suit", shows(suit=suit)))
    nt = ctx.over(Strain.NT)
    if nt is not None and not free:
        opts.append(Option(nt, always, "no suit of four to show", "adv:nt", shows()))
    opts.append(Option(PASS, always, "nothing to add", "adv:pass"))
    return opts


def _with(chosen: Pred, lo: int, hi: int) -> Pred:
    return lambda ev: chosen(ev) and lo <= ev.total <= hi


def _advance_suit(opened: Suit, suit: Suit) -> Pred:
    others = [s for s in SUITS if s is not opened]
    return lambda ev: longest(ev, others, minimum=4, biddable=False) is suit
