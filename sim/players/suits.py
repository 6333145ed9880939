"""After an opening of one in a suit (seed 004's table "VOZ para 1 al PALO").

Responder (second call of the side): under 6 pass; with support raise one (6-9), two (10-12)
or three (13+); without support, regular: 1NT, 2NT, 3NT; unbalanced: a new suit of five (of
four over 1C) at the one level with 6-9 (1NT if it ranks below the opening suit), at the two
level with 10+. After a double on the right: redouble with 10+, else raise, show a five- or
six-card suit, or 1NT: the double is always answered.

Opener's rebid and responder's second call follow the seed's columns; anything the seed
does not spell out goes to the combined-points placement (placement.py).
"""

from __future__ import annotations

from laws import DOUBLE, PASS, REDOUBLE, Bid, Strain, Suit

from .evaluation import Evaluation
from .system import (
    Ctx,
    Option,
    Pred,
    always,
    game_level,
    honour_points,
    longest,
    shows,
    supports,
)

SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
RANGES = ((13, 15), (16, 18), (19, 20))


def _pts(lo: int, hi: int = 40) -> Pred:
    return lambda ev: lo <= ev.total <= hi


def _and(*tests: Pred) -> Pred:
    return lambda ev: all(test(ev) for test in tests)


def new_suit(ev: Evaluation, opened: Suit) -> Suit | None:
    """Responder's suit: five or more (four over 1C), worth naming, not the opening suit."""
    return longest(ev, [s for s in SUITS if s is not opened],
                   minimum=4 if opened is Suit.C else 5)


def responses(ctx: Ctx, opened: Suit) -> list[Option]:
    after = ctx.steps[ctx.steps.index(ctx.ours()[0]) + 1:]
    if [s.call for s in after] == [DOUBLE]:
        return _after_double(opened)
    x = Strain.of(opened)

    def supp(ev: Evaluation) -> bool:
        return supports(ev, opened)

    def plain(ev: Evaluation) -> bool:
        """No support and nothing to name: a no-trump answer."""
        return not supp(ev) and (ev.balanced or new_suit(ev, opened) is None)

    def lower_suit(ev: Evaluation) -> bool:
        suit = new_suit(ev, opened)
        return not supp(ev) and suit is not None and suit < opened

    opts = [
        Option(PASS, _pts(0, 5), "fewer than 6 points", "resp:pass", shows(0, 5)),
        Option(Bid(4, Strain.NT), _and(supp, _pts(19)), "support and slam values: how many "
               "aces?", "slam:aces", shows(19, suit=opened, length=3), artificial=True),
        Option(Bid(2, x), _and(supp, _pts(6, 9)), "support, 6-9", "resp:raise1",
               shows(6, 9, suit=opened, length=3)),
        Option(Bid(3, x), _and(supp, _pts(10, 12)), "support, 10-12", "resp:raise2",
               shows(10, 12, suit=opened, length=3)),
        Option(Bid(4, x), _and(supp, _pts(13)), "support, 13+", "resp:raise3",
               shows(13, suit=opened, length=3)),
        Option(Bid(6, Strain.NT), _and(plain, honour_points(20), lambda ev: ev.balanced),
               "regular, 20+ high-card points: slam", "resp:6nt", shows(20, balanced=True)),
        Option(Bid(1, Strain.NT), _and(_pts(6, 9), lambda ev: plain(ev) or lower_suit(ev)),
               "6-9, no support; regular, or a suit ranking below yours", "resp:nt1",
               shows(6, 9)),
        Option(Bid(2, Strain.NT), _and(plain, _pts(10, 12)), "10-12, regular, no support",
               "resp:nt2", shows(10, 12)),
        Option(Bid(3, Strain.NT), _and(plain, _pts(13)), "13+, regular, no support",
               "resp:nt3", shows(13))]
    minimum = 4 if opened is Suit.C else 5
    for suit in SUITS:
        if suit is opened:
            continue
        named = _names(opened, suit)
        if suit > opened:
            opts.append(Option(Bid(1, Strain.of(suit)), _and(named, _pts(6, 9)),
                               f"6-9, {minimum}+ {suit.name}, no support", "resp:new1",
                               shows(6, 9, suit=suit, length=minimum)))
        opts.append(Option(Bid(2, Strain.of(suit)), _and(named, _pts(10)),
                           f"10+, {minimum}+ {suit.name}, no support", "resp:new2",
                           shows(10, suit=suit, length=minimum)))
    return opts


def _names(opened: Suit, suit: Suit) -> Pred:
    return lambda ev: (not supports(ev, opened) and not ev.balanced
                       and new_suit(ev, opened) is suit)


def _after_double(opened: Suit) -> list[Option]:
    x = Strain.of(opened)
    opts = [Option(REDOUBLE, _pts(10), "10+ points", "resp:xx", shows(10)),
            Option(Bid(2, x), lambda ev: ev.total < 10 and supports(ev, opened),
                   "support, fewer than 10", "resp:raise1", shows(0, 9, suit=opened, length=3))]
    for suit in SUITS:
        if suit is opened:
            continue
        opts.append(Option(Bid(3, Strain.of(suit)), _long(suit, opened, 6),
                           f"six {suit.name}, fewer than 10", "resp:six",
                           shows(0, 9, suit=suit, length=6)))
        opts.append(Option(Bid(2, Strain.of(suit)), _long(suit, opened, 5),
                           f"five {suit.name}, fewer than 10", "resp:five",
                           shows(0, 9, suit=suit, length=5)))
    opts.append(Option(Bid(1, Strain.NT), always, "fewer than 10, nothing to show (the "
                       "double is always answered)", "resp:nt1", shows(0, 9)))
    return opts


def _long(suit: Suit, opened: Suit, length: int) -> Pred:
    def test(ev: Evaluation) -> bool:
        others = [s for s in SUITS if s is not opened]
        top = max(others, key=lambda s: (ev.length(s), s))
        return ev.total < 10 and top is suit and (
            ev.length(suit) >= 6 if length == 6 else ev.length(suit) == 5)
    return test


def opener_rebid(ctx: Ctx, opened: Suit, answer: str) -> list[Option] | None:
    x = Strain.of(opened)
    if answer == "resp:raise1":
        return [Option(PASS, _pts(13, 15), "13-15: no game", "rebid:pass", shows(13, 15)),
                Option(Bid(3, x), _pts(16, 18), "16-18: invitation", "rebid:raise",
                       shows(16, 18)),
                Option(Bid(4, x), _pts(19, 20), "19-20", "rebid:raise", shows(19, 20))]
    if answer == "resp:nt1" and ctx.ours()[1].call == Bid(1, Strain.NT):
        return _after_1nt(ctx, opened)
    if answer in ("resp:new1", "resp:new2"):
        return _after_new_suit(ctx, opened)
    return None


def _six(opened: Suit) -> Pred:
    return lambda ev: ev.length(opened) >= 6


def _repeats(ctx: Ctx, opened: Suit, first: Pred) -> list[Option]:
    """The opening suit of six again: plain, with a jump, with two jumps (up to game)."""
    opts = []
    for jumps, (lo, hi) in enumerate(RANGES):
        call = ctx.over(opened, jumps)
        if call is not None and call.level <= game_level(call.strain):
            opts.append(Option(call, _and(first, _six(opened), _pts(lo, hi)),
                               f"{lo}-{hi}, six {opened.name}", "rebid:repeat",
                               shows(lo, hi, suit=opened, length=6)))
    return opts


def _second(ctx: Ctx, opened: Suit, avoid: tuple[Suit, ...]) -> Pred:
    return lambda ev: longest(ev, [s for s in SUITS if s not in avoid], minimum=4) is not None


def _second_is(opened: Suit, avoid: tuple[Suit, ...], suit: Suit) -> Pred:
    return lambda ev: longest(ev, [s for s in SUITS if s not in avoid], minimum=4) is suit


def _after_1nt(ctx: Ctx, opened: Suit) -> list[Option]:
    opts = _repeats(ctx, opened, always)
    no_six = _and(lambda ev: ev.length(opened) < 6)
    opts.append(Option(PASS, _and(no_six, _pts(13, 15)), "13-15", "rebid:pass",
                       shows(13, 15)))
    for suit in SUITS:
        if suit is opened:
            continue
        for jumps, (lo, hi) in enumerate(RANGES[1:]):
            call = ctx.over(suit, jumps)
            if call is not None:
                opts.append(Option(call, _and(no_six, _second_is(opened, (opened,), suit),
                                              _pts(lo, hi)),
                                   f"{lo}-{hi}, four or more {suit.name}", "rebid:new_suit",
                                   shows(lo, hi, suit=suit, length=4)))
    for level, (lo, hi) in ((2, RANGES[1]), (3, RANGES[2])):
        opts.append(Option(Bid(level, Strain.NT), _pts(lo, hi), f"{lo}-{hi}, no other suit",
                           "rebid:nt", shows(lo, hi)))
    return opts


def _after_new_suit(ctx: Ctx, opened: Suit) -> list[Option]:
    answer = ctx.ours()[1]
    assert isinstance(answer.call, Bid)
    theirs = answer.call.strain.suit
    assert theirs is not None
    level = answer.call.level
    opts = []

    def fits(ev: Evaluation) -> bool:
        return supports(ev, theirs)

    def no_fit(ev: Evaluation) -> bool:
        return not fits(ev)

    for raise_by, (lo, hi) in enumerate(RANGES, 1):
        call = ctx.bid(min(level + raise_by, game_level(Strain.of(theirs))), theirs)
        if call is not None:
            opts.append(Option(call, _and(fits, _pts(lo, hi)),
                               f"{lo}-{hi}, support for {theirs.name}", "rebid:raise_new",
                               shows(lo, hi, suit=theirs, length=3)))
    opts += _repeats(ctx, opened, no_fit)
    avoid = (opened, theirs)
    plain = _and(no_fit, lambda ev: ev.length(opened) < 6)
    for suit in SUITS:
        if suit in avoid:
            continue
        named = _and(plain, _second_is(opened, avoid, suit))
        same_level = ctx.cheapest(Strain.of(suit)) <= level
        if suit > opened:
            ladder = [(0, RANGES[1]), (1, RANGES[2])]
            if same_level:
                ladder.insert(0, (0, RANGES[0]))
        else:
            ladder = [(0, RANGES[0]), (1, RANGES[1]), (2, RANGES[2])]
        for jumps, (lo, hi) in ladder:
            call = ctx.over(suit, jumps)
            if call is not None and call.level <= game_level(call.strain):
                opts.append(Option(call, _and(named, _pts(lo, hi)),
                                   f"{lo}-{hi}, four or more {suit.name}", "rebid:new_suit",
                                   shows(lo, hi, suit=suit, length=4)))
    # (*) a higher four-card suit that would raise the level: the opening suit again when
    # the hand is unbalanced and the suit has five, else no trump.
    five = ctx.over(opened)
    if five is not None:
        opts.append(Option(five, _and(plain, _pts(13, 15), lambda ev: ev.length(opened) >= 5,
                                      lambda ev: not ev.regular_for_opening),
                           "13-15, the opening suit again", "rebid:repeat",
                           shows(13, 15, suit=opened, length=5)))
    for jumps, (lo, hi) in enumerate(RANGES):
        call = ctx.over(Strain.NT, jumps)
        if call is not None and call.level <= 3:
            opts.append(Option(call, _and(plain, _pts(lo, hi)), f"{lo}-{hi}, no other suit",
                               "rebid:nt", shows(lo, hi)))
    return opts


def responder_rebid(ctx: Ctx, opened: Suit, tags: list[str]) -> list[Option] | None:
    if tags[1] not in ("resp:new1", "resp:new2"):
        return None
    rebid = ctx.ours()[2]
    call = rebid.call
    if tags[2] == "rebid:raise_new" and isinstance(call, Bid):
        game = ctx.bid(game_level(call.strain), call.strain)
        if call.level >= game_level(call.strain):
            return [Option(Bid(4, Strain.NT), _pts(13), "slam: how many aces?", "slam:aces",
                           shows(13), artificial=True),
                    Option(PASS, always, "game is enough", "pass")]
        assert game is not None
        return [Option(game, _pts(13), "13+: game", "place", shows(13)),
                Option(PASS, always, "fewer than 13", "pass", shows(0, 12))]
    if tags[2] == "rebid:new_suit" and isinstance(call, Bid):
        suit = call.strain.suit
        assert suit is not None
        game = ctx.bid(game_level(call.strain), suit)
        nt = ctx.over(Strain.NT)
        three = Bid(3, Strain.NT) if ctx.legal(Bid(3, Strain.NT)) else nt
        opts = []
        if game is not None:
            opts.append(Option(game, _and(_pts(13), _fit(suit)), f"13+, support for "
                               f"{suit.name}: game", "place", shows(13, suit=suit, length=3)))
        opts.append(Option(PASS, _and(_pts(0, 12), _fit(suit)), f"support for {suit.name}, "
                           "fewer than 13", "pass", shows(0, 12)))
        if three is not None:
            opts.append(Option(three, _pts(13), "13+: game in no trump", "place", shows(13)))
        if nt is not None:
            opts.append(Option(nt, always, "fewer than 13: no trump", "place", shows(0, 12)))
        return opts
    return None


def _fit(suit: Suit) -> Pred:
    return lambda ev: supports(ev, suit)
