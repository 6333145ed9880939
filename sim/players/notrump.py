"""The no-trump openings, the strong 2C and the two-level suit openings (seed 004).

1NT (15-18): under 8 pass, or two of a five-card suit other than clubs to play; 2C asks for a
four-card major with 8+ (answers 2D none, 2H, 2S, 2NT both with 15-16; 3D, 3H, 3S, 3NT with
17-18); no major: 2NT 8-9, 3NT 10-14, 4NT 15-16 (slam if opener is 17+), 6NT 17+ (the seed
prints "13+", which its own 10-14 line excludes); a six-card major and 13+: three of it.

2NT (21-22): under 3 pass; a six-card major: 4C for hearts, 4D for spades (opener bids it);
a five-card major: three of it; a four-card major: 3C, and the four-card suits are bid in turn;
no major: 3NT.

2C (23+): 2D under 7 high-card points and fewer than two kings; else 2NT regular or a
five-card suit. After 2D, 2NT (23-24) goes on as a 2NT opening; 3NT 25-26.

Two of a suit (21-22 unbalanced): under 4 pass; raise with support (4-7 one, 8+ two); 2NT or
3NT regular; a new suit at two (4-7; 2NT if it ranks lower) or three (8+); opener closes game.
"""

from __future__ import annotations

from laws import PASS, Bid, Strain, Suit

from .evaluation import Evaluation
from .system import (
    MAJORS,
    Ctx,
    Option,
    Pred,
    Shows,
    always,
    game_level,
    honour_points,
    longest,
    shows,
    supports,
)

SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
NT = Strain.NT


def _pts(lo: int, hi: int = 40) -> Pred:
    return lambda ev: lo <= ev.total <= hi


def _and(*tests: Pred) -> Pred:
    return lambda ev: all(test(ev) for test in tests)


def _has(suit: Suit, length: int, most: int = 13) -> Pred:
    return lambda ev: length <= ev.length(suit) <= most


def _no_major(ev: Evaluation) -> bool:
    return ev.length(Suit.H) < 4 and ev.length(Suit.S) < 4


def _fit(suit: Suit) -> Pred:
    return lambda ev: supports(ev, suit)


def _pass(meaning: str, tag: str = "pass") -> Option:
    return Option(PASS, always, meaning, tag)


# -- 1NT -------------------------------------------------------------------------------------

def after_1nt(ctx: Ctx, tags: list[str]) -> list[Option] | None:
    n = len(tags)
    if n == 1:
        return _answers_1nt()
    if n == 2:
        answer = tags[1]
        if answer == "ask:stayman":
            return _stayman_answers()
        if answer == "resp:nt2":
            return [Option(Bid(3, NT), _pts(17), "17+: game", "place"), _pass("15-16")]
        if answer == "resp:quant":
            return [Option(Bid(6, NT), honour_points(17), "17+ high-card points: slam",
                           "place"), _pass("15-16")]
        if answer == "resp:3major":
            return [Option(_game(ctx), always, "game in the major", "place")]
        return [_pass("the contract is placed")]
    if n == 3 and tags[1] == "ask:stayman":
        return _after_stayman(ctx)
    return None


def _game(ctx: Ctx) -> Bid:
    call = ctx.ours()[1].call
    assert isinstance(call, Bid)
    return Bid(4, call.strain)


def _signoff(suit: Suit) -> Pred:
    return lambda ev: ev.total < 8 and longest(
        ev, (Suit.S, Suit.H, Suit.D), minimum=5, biddable=False) is suit


def _answers_1nt() -> list[Option]:
    opts = [Option(Bid(2, Strain.of(s)), _signoff(s), f"fewer than 8, five or more "
                   f"{s.name}: to play", "resp:signoff", shows(0, 7, suit=s, length=5))
            for s in (Suit.S, Suit.H, Suit.D)]
    opts.append(Option(PASS, _pts(0, 7), "fewer than 8", "resp:pass", shows(0, 7)))
    for major in MAJORS:
        opts.append(Option(Bid(3, Strain.of(major)), _and(_pts(13), _has(major, 6)),
                           f"13+, six {major.name}", "resp:3major",
                           shows(13, suit=major, length=6)))
    opts += [
        Option(Bid(2, Strain.C), lambda ev: ev.total >= 8 and not _no_major(ev),
               "8+ and a four-card major: which major have you?", "ask:stayman", shows(8),
               artificial=True),
        Option(Bid(2, NT), _pts(8, 9), "8-9, no four-card major", "resp:nt2", shows(8, 9)),
        Option(Bid(3, NT), _and(_pts(10), honour_points(0, 14)), "10-14, no four-card major",
               "resp:nt3", shows(10, 14)),
        Option(Bid(4, NT), honour_points(15, 16), "15-16 high-card points: slam if you have "
               "17-18 (not an ace ask)", "resp:quant", shows(15, 16)),
        Option(Bid(6, NT), honour_points(17), "17+ high-card points: slam", "resp:6nt",
               shows(17))]
    return opts


def _majors(hearts: bool, spades: bool) -> Pred:
    return lambda ev: (ev.length(Suit.H) >= 4) is hearts and (ev.length(Suit.S) >= 4) is spades


def _stayman_answers() -> list[Option]:
    opts = []
    for level, (lo, hi) in ((2, (15, 16)), (3, (17, 18))):
        pts = _pts(lo, 16 if level == 2 else 40)
        opts += [
            Option(Bid(level, NT), _and(pts, _majors(True, True)), f"{lo}-{hi}, both majors",
                   "rebid:both", Shows(lo, hi, (0, 0, 4, 4)), artificial=True),
            Option(Bid(level, Strain.H), _and(pts, _majors(True, False)), f"{lo}-{hi}, four "
                   "hearts", "rebid:hearts", shows(lo, hi, suit=Suit.H)),
            Option(Bid(level, Strain.S), _and(pts, _majors(False, True)), f"{lo}-{hi}, four "
                   "spades", "rebid:spades", shows(lo, hi, suit=Suit.S)),
            Option(Bid(level, Strain.D), _and(pts, _majors(False, False)), f"{lo}-{hi}, no "
                   "four-card major", "rebid:none", shows(lo, hi), artificial=True)]
    return opts


def _after_stayman(ctx: Ctx) -> list[Option]:
    answer = ctx.ours()[2].call
    assert isinstance(answer, Bid)
    lo = 15 if answer.level == 2 else 17
    shown = {Strain.H: (Suit.H,), Strain.S: (Suit.S,), NT: (Suit.S, Suit.H)}.get(
        answer.strain, ())

    def fit(ev: Evaluation) -> Suit | None:
        fits = [s for s in shown if ev.length(s) >= 4]
        return max(fits, key=lambda s: (ev.length(s), s)) if fits else None

    opts = [Option(Bid(4, NT), lambda ev: fit(ev) is not None and ev.total + lo >= 32,
                   "slam: how many aces?", "slam:aces", artificial=True),
            Option(Bid(6, NT), lambda ev: fit(ev) is None and ev.hcp + lo >= 33,
                   "slam in no trump", "place")]
    def game_in(major: Suit) -> Pred:
        return lambda ev: fit(ev) is major and (lo == 17 or ev.total >= 10)

    for major in MAJORS:
        opts.append(Option(Bid(4, Strain.of(major)), game_in(major), f"game in {major.name}",
                           "place"))
    opts.append(Option(PASS, lambda ev: fit(ev) is not None, "8-9 and a fit: to play", "pass"))
    if lo == 15:
        opts.append(Option(Bid(2, NT), _pts(8, 9), "8-9, no fit", "place", shows(8, 9)))
    opts.append(Option(Bid(3, NT), always, "game in no trump", "place"))
    return opts


# -- 2NT and 2C ------------------------------------------------------------------------------

def after_2nt(ctx: Ctx, tags: list[str], lo: int, base: int = 0) -> list[Option] | None:
    """``tags`` from the 2NT bid on: a 2NT opening, or 2C-2D-2NT (``lo`` 23, the 2NT our
    side's call number ``base``)."""
    n = len(tags)
    ours = ctx.ours()[base:]
    if n == 1:
        opts = [Option(PASS, _pts(0, 2), "fewer than 3", "resp:pass", shows(0, 2)),
                Option(Bid(4, Strain.C), _and(_pts(3), _has(Suit.H, 6)), "six hearts: bid "
                       "them", "resp:texas", shows(3, suit=Suit.H, length=6), artificial=True),
                Option(Bid(4, Strain.D), _and(_pts(3), _has(Suit.S, 6)), "six spades: bid "
                       "them", "resp:texas", shows(3, suit=Suit.S, length=6), artificial=True)]
        opts += [Option(Bid(3, Strain.of(m)), _and(_pts(3), _has(m, 5, 5)), f"five {m.name}",
                        "resp:five", shows(3, suit=m, length=5)) for m in MAJORS]
        opts += [
            Option(Bid(3, Strain.C), _and(_pts(3), lambda ev: not _no_major(ev)),
                   "a four-card major: bid your four-card suits", "ask:majors", shows(3),
                   artificial=True),
            Option(Bid(7, NT), honour_points(36 - lo), "grand slam", "place", shows(36 - lo)),
            Option(Bid(6, NT), honour_points(33 - lo), "slam", "place", shows(33 - lo)),
            Option(Bid(3, NT), always, "3+, no major: game", "place", shows(3))]
        return opts
    first = tags[1]
    if n == 2:
        if first == "resp:texas":
            call = ours[1].call
            major = Strain.H if call == Bid(4, Strain.C) else Strain.S
            return [Option(Bid(4, major), always, "as asked", "place")]
        if first == "resp:five":
            call = ours[1].call
            assert isinstance(call, Bid) and call.strain.suit is not None
            suit = call.strain.suit
            return [Option(Bid(4, call.strain), _fit(suit), "support",
                           "place"),
                    Option(Bid(3, NT), always, "no support", "place")]
        if first == "ask:majors":
            return [Option(Bid(3, Strain.H), _has(Suit.H, 4), "four hearts", "rebid:hearts",
                           shows(suit=Suit.H)),
                    Option(Bid(3, Strain.S), _has(Suit.S, 4), "four spades", "rebid:spades",
                           shows(suit=Suit.S)),
                    Option(Bid(3, NT), always, "no four-card major", "place")]
        return None
    if n == 3 and first == "ask:majors":
        shown = ours[2].call
        if shown == Bid(3, Strain.H):
            return [Option(Bid(4, Strain.H), _has(Suit.H, 4), "four hearts too", "place"),
                    Option(Bid(3, Strain.S), always, "four spades", "resp:spades",
                           shows(suit=Suit.S))]
        if shown == Bid(3, Strain.S):
            return [Option(Bid(4, Strain.S), _has(Suit.S, 4), "four spades too", "place"),
                    Option(Bid(3, NT), always, "no fit", "place")]
    if n == 4 and first == "ask:majors" and tags[3] == "resp:spades":
        return [Option(Bid(4, Strain.S), _has(Suit.S, 4), "four spades", "place"),
                Option(Bid(3, NT), always, "no fit", "place")]
    return None


def _strong(ev: Evaluation) -> bool:
    return ev.hcp >= 7 or ev.kings >= 2


def _five(suit: Suit) -> Pred:
    return lambda ev: _strong(ev) and longest(ev, SUITS, minimum=5, biddable=False) is suit


def after_2c(ctx: Ctx, tags: list[str]) -> list[Option] | None:
    n = len(tags)
    if n == 1:
        opts = [Option(Bid(2, Strain.D), lambda ev: not _strong(ev), "fewer than 7 high-card "
                       "points and fewer than two kings", "resp:neg", shows(0, 9),
                       artificial=True)]
        opts += [Option(Bid(2 if s in MAJORS else 3, Strain.of(s)), _five(s),
                        f"7+ high-card points or two kings, five {s.name}", "resp:pos_suit",
                        shows(7, suit=s, length=5)) for s in SUITS]
        opts.append(Option(Bid(2, NT), always, "7+ high-card points or two kings, regular",
                           "resp:pos_nt", shows(7)))
        return opts
    if tags[1] == "resp:neg" and n >= 3 and tags[2] == "rebid:2nt":
        return after_2nt(ctx, tags[2:], 23, 2)
    if n == 2:
        return _rebid_2c(ctx, tags[1])
    if n == 3:
        rebid = ctx.ours()[2]
        suit = rebid.suit
        if suit is not None and tags[2] == "rebid:suit":
            game = Bid(game_level(Strain.of(suit)), Strain.of(suit))
            nt = ctx.over(NT) if tags[1] == "resp:neg" else Bid(3, NT)
            opts = [Option(game, _fit(suit), "support: game", "place")]
            if nt is not None:
                opts.append(Option(nt, always, "no support", "place"))
            return opts
        return None
    if n == 4 and tags[1] == "resp:neg" and tags[2] == "rebid:suit":
        suit = ctx.ours()[2].suit
        if suit is None or ctx.ours()[3].call == PASS:
            return None
        game = Bid(game_level(Strain.of(suit)), Strain.of(suit))
        return [Option(game, _has(suit, 6), "six cards: game in the suit", "place"),
                Option(Bid(3, NT), always, "game in no trump", "place")]
    return None


def _rebid_2c(ctx: Ctx, answer: str) -> list[Option] | None:
    regular = _and(lambda ev: ev.regular_for_opening)
    if answer == "resp:neg":
        opts = [Option(Bid(2, NT), _and(regular, _pts(0, 24)), "23-24, regular", "rebid:2nt",
                       shows(23, 24)),
                Option(Bid(3, NT), regular, "25+, regular", "place", shows(25))]
        for suit in SUITS:
            call = ctx.over(suit)
            if call is not None:
                opts.append(Option(call, _long(suit), f"five or more {suit.name}",
                                   "rebid:suit", shows(suit=suit, length=5)))
        return opts
    if answer == "resp:pos_nt":
        opts = [Option(Bid(6, NT), _and(regular, honour_points(26)), "slam", "place"),
                Option(Bid(3, NT), regular, "regular: game", "place")]
        opts += [Option(Bid(3, Strain.of(s)), _long(s), f"five or more {s.name}", "rebid:suit",
                        shows(suit=s, length=5)) for s in SUITS]
        return opts
    shown = ctx.ours()[1].suit
    if answer == "resp:pos_suit" and shown is not None:
        game = Bid(game_level(Strain.of(shown)), Strain.of(shown))
        return [Option(Bid(4, NT), _and(_fit(shown), _pts(25)), "slam: how many aces?",
                       "slam:aces", artificial=True),
                Option(game, _fit(shown), "support: game", "place"),
                Option(Bid(3, NT), always, "no support: game in no trump", "place")]
    return None


def _long(suit: Suit) -> Pred:
    """The strong hand's long suit: five or more, else (4-4-4-1) the seed's four-card one."""
    return lambda ev: (longest(ev, SUITS, minimum=5, biddable=False)
                       or longest(ev, SUITS, minimum=4, biddable=False)) is suit


# -- two of a suit ---------------------------------------------------------------------------

def after_2suit(ctx: Ctx, tags: list[str]) -> list[Option] | None:
    opening = ctx.ours()[0].call
    assert isinstance(opening, Bid) and opening.strain.suit is not None
    opened = opening.strain.suit
    n = len(tags)
    if n == 1:
        return _answers_2suit(opened)
    if n == 2 and tags[1] == "resp:new":
        theirs = ctx.ours()[1].suit
        assert theirs is not None
        game = Bid(game_level(Strain.of(theirs)), Strain.of(theirs))
        opts = [Option(game, _fit(theirs), "support: game", "place")]
        nt = Bid(3, NT) if ctx.legal(Bid(3, NT)) else ctx.over(NT)
        if nt is not None:
            opts.append(Option(nt, always, "no support: game in no trump", "place"))
        return opts
    return None


def _new(opened: Suit, suit: Suit) -> Pred:
    return lambda ev: (not supports(ev, opened) and not ev.balanced and longest(
        ev, [s for s in SUITS if s is not opened], minimum=5) is suit)


def _answers_2suit(opened: Suit) -> list[Option]:
    x = Strain.of(opened)

    def supp(ev: Evaluation) -> bool:
        return supports(ev, opened)

    def plain(ev: Evaluation) -> bool:
        return not supp(ev) and (ev.balanced or longest(
            ev, [s for s in SUITS if s is not opened], minimum=5) is None)

    def lower(ev: Evaluation) -> bool:
        suit = longest(ev, [s for s in SUITS if s is not opened], minimum=5)
        return not supp(ev) and not ev.balanced and suit is not None and suit < opened

    opts = [Option(PASS, _pts(0, 3), "fewer than 4", "resp:pass", shows(0, 3)),
            Option(Bid(4, NT), _and(supp, _pts(11)), "support and slam values: how many "
                   "aces?", "slam:aces", shows(11, suit=opened, length=3), artificial=True),
            Option(Bid(3, x), _and(supp, _pts(4, 7)), "support, 4-7", "resp:raise",
                   shows(4, 7, suit=opened, length=3)),
            Option(Bid(4, x), _and(supp, _pts(8)), "support, 8+", "resp:raise",
                   shows(8, suit=opened, length=3)),
            Option(Bid(6, NT), _and(plain, honour_points(12)), "regular, 12+ high-card points: "
                   "slam", "place",
                   shows(12)),
            Option(Bid(2, NT), _and(_pts(4, 7), lambda ev: plain(ev) or lower(ev)),
                   "4-7, no support", "resp:nt", shows(4, 7)),
            Option(Bid(3, NT), _and(plain, _pts(8)), "8+, regular, no support", "resp:nt",
                   shows(8))]
    for suit in SUITS:
        if suit is opened:
            continue
        if suit > opened:
            opts.append(Option(Bid(2, Strain.of(suit)), _and(_new(opened, suit), _pts(4, 7)),
                               f"4-7, five or more {suit.name}", "resp:new",
                               shows(4, 7, suit=suit, length=5)))
        opts.append(Option(Bid(3, Strain.of(suit)), _and(_new(opened, suit), _pts(8)),
                           f"8+, five or more {suit.name}", "resp:new",
                           shows(8, suit=suit, length=5)))
    return opts
