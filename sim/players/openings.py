"""Openings (seed 004, "VOZ") and the short conversations after the three openings made on
fewer than thirteen points: the barrage, the 3NT on a long minor, four of a major.

Points are the hand's total (high cards plus distribution) unless the seed says "p. H."
(honours only). The 3NT and four-of-a-major openings are read as below opening strength
(9-15): with more, the ordinary openings and their jump rebids describe the hand.
"""

from __future__ import annotations

from laws import PASS, Bid, Rank, Strain, Suit

from .evaluation import HONOURS, Evaluation
from .system import (
    MAJORS,
    MINORS,
    Ctx,
    Option,
    Pred,
    always,
    between,
    longest,
    shows,
    supports,
)

ALL_SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
GAMBLE_MAX = 15
CLUB = "13-14 or 19-20 regular, or 13-20 with clubs: may hold two clubs"


def opening_suit(ev: Evaluation) -> Suit:
    """The suit of a one- or two-level opening: the longest naming-worthy suit, the seed's
    order among equals; with none worth naming, the longest."""
    for minimum in (max(ev.lengths), 4):
        suit = longest(ev, [s for s in ALL_SUITS if ev.length(s) >= minimum], minimum=minimum)
        if suit is not None:
            return suit
    return longest(ev, ALL_SUITS, minimum=max(ev.lengths), biddable=False) or Suit.C


def _headed(held: tuple[Rank, ...], top: tuple[Rank, ...]) -> bool:
    return held[:len(top)] == top


def _solid(ev: Evaluation, suit: Suit) -> bool:
    """Seven or eight cards headed by A K Q, or by the ace and three more honours."""
    held = ev.holding(suit)
    return 7 <= len(held) <= 8 and (
        _headed(held, (Rank.ACE, Rank.KING, Rank.QUEEN))
        or (held[0] is Rank.ACE and all(r in HONOURS for r in held[:4])))


def _short(ev: Evaluation) -> bool:
    """A void, a singleton (fallo or semifallo)."""
    return min(ev.lengths) <= 1


def _barrage_suit(ev: Evaluation) -> Suit | None:
    for suit in ALL_SUITS:
        held = ev.holding(suit)
        if 7 <= len(held) <= 8 and (_headed(held, (Rank.ACE, Rank.KING))
                                    or all(r in HONOURS for r in held[:3])):
            return suit
    return None


def gamble_suit(ev: Evaluation, suits: tuple[Suit, ...]) -> Suit | None:
    """The solid suit of a 3NT or four-of-a-major opening, if the hand is one."""
    if not 9 <= ev.total <= GAMBLE_MAX or not _short(ev):
        return None
    return next((s for s in suits if _solid(ev, s)), None)


def _points(lo: int, hi: int, *, regular: bool) -> Pred:
    return lambda ev: ev.regular_for_opening is regular and lo <= ev.total <= hi


def _opens(suit: Suit, lo: int, hi: int) -> Pred:
    return lambda ev: (not ev.regular_for_opening and lo <= ev.total <= hi
                       and opening_suit(ev) is suit)


def _club_strong(ev: Evaluation) -> bool:
    return ev.total >= 23 or (21 <= ev.total <= 22 and not ev.regular_for_opening
                              and opening_suit(ev) is Suit.C)


def _balanced_club(ev: Evaluation) -> bool:
    return ev.regular_for_opening and (13 <= ev.total <= 14 or 19 <= ev.total <= 20)


def _major_gamble(suit: Suit) -> Pred:
    return lambda ev: gamble_suit(ev, MAJORS) is suit


def _barrage(suit: Suit) -> Pred:
    return lambda ev: ev.total <= 8 and _barrage_suit(ev) is suit


def opening_options(ctx: Ctx) -> list[Option]:
    opts = [
        Option(Bid(2, Strain.C), _club_strong,
               "23+ points, any shape (or 21-22 with clubs); forcing", "open:2c", shows(21),
               artificial=True),
        Option(Bid(2, Strain.NT), _points(21, 22, regular=True), "21-22, regular", "open:2nt",
               shows(21, 22, balanced=True)),
        Option(Bid(1, Strain.NT), _points(15, 18, regular=True), "15-18, regular", "open:1nt",
               shows(15, 18, balanced=True)),
        Option(Bid(1, Strain.C), _balanced_club, CLUB, "open:1c",
               shows(13, 20), artificial=True)]
    for suit in (Suit.S, Suit.H, Suit.D):
        opts.append(Option(Bid(2, Strain.of(suit)), _opens(suit, 21, 22),
                           f"21-22, unbalanced, {suit.name} the long suit", "open:2suit",
                           shows(21, 22, suit=suit, length=5)))
    for suit in MAJORS:
        opts.append(Option(Bid(4, Strain.of(suit)), _major_gamble(suit),
                           f"9-{GAMBLE_MAX}: seven or eight solid {suit.name}, a short suit",
                           "open:4major", shows(9, GAMBLE_MAX, suit=suit, length=7)))
    opts.append(Option(Bid(3, Strain.NT), lambda ev: gamble_suit(ev, MINORS) is not None,
                       f"9-{GAMBLE_MAX}: a solid seven- or eight-card minor, a short suit",
                       "open:3nt", shows(9, GAMBLE_MAX), artificial=True))
    for suit in ALL_SUITS:
        opts.append(Option(Bid(3, Strain.of(suit)), _barrage(suit),
                           f"barrage: at most 8 points, seven or eight {suit.name} headed by "
                           "A K or three honours", "open:3suit",
                           shows(0, 8, suit=suit, length=7)))
    for suit in ALL_SUITS:
        # The balanced club opening and this one are one call to partner: 13-20.
        opts.append(Option(Bid(1, Strain.of(suit)), _opens(suit, 13, 20),
                           CLUB if suit is Suit.C else f"13-20, {suit.name} the long suit",
                           "open:1c" if suit is Suit.C else "open:1suit",
                           shows(13, 20, suit=suit, length=4 if suit is not Suit.C else 0),
                           artificial=suit is Suit.C))
    opts.append(Option(PASS, always, "fewer than 13 points", "open:pass", shows(0, 12)))
    return opts


def _sure_tricks(ev: Evaluation) -> int:
    """Top tricks from the ace down: A 1, A K 2, A K Q 3."""
    total = 0
    for held in ev.ranks:
        for expected, rank in zip((Rank.ACE, Rank.KING, Rank.QUEEN), held, strict=False):
            if rank is not expected:
                break
            total += 1
    return total


def after_preempt(ctx: Ctx, tags: list[str]) -> list[Option] | None:
    """Partner's barrage, 3NT gamble or four of a major; and the opener's answer to them."""
    opening = ctx.ours()[0]
    assert isinstance(opening.call, Bid)
    n = len(tags)
    if tags[0] == "open:3suit" and n == 1:
        suit = opening.call.strain.suit
        assert suit is not None
        game = Bid(4 if suit in MAJORS else 5, opening.call.strain)
        return [Option(game, lambda ev: supports(ev, suit), "support: game", "resp:game",
                       shows(suit=suit, length=3)),
                Option(PASS, always, "no support", "resp:pass")]
    if tags[0] == "open:3nt" and n == 1:
        def stand(ev: Evaluation) -> bool:
            return (_sure_tricks(ev) >= 3 and ev.stopper(Suit.H) and ev.stopper(Suit.S)
                    and (ev.stopper(Suit.C) or ev.stopper(Suit.D)))
        return [Option(PASS, stand, "three sure tricks and every suit stopped", "resp:pass"),
                Option(Bid(5, Strain.C), between(13), "a good hand: play five of your minor",
                       "resp:5c", shows(13), artificial=True),
                Option(Bid(4, Strain.C), always, "play four of your minor", "resp:4c",
                       artificial=True)]
    if tags[0] == "open:3nt" and n == 2 and tags[1] in ("resp:4c", "resp:5c"):
        level = 4 if tags[1] == "resp:4c" else 5
        return [Option(Bid(level, Strain.D), lambda ev: ev.length(Suit.D) >= 7,
                       "my minor is diamonds", "rebid:correct", shows(suit=Suit.D, length=7)),
                Option(PASS, always, "my minor is clubs", "rebid:pass")]
    if tags[0] == "open:4major" and n == 1:
        return [Option(Bid(4, Strain.NT), lambda ev: ev.total >= 18 and ev.aces >= 2,
                       "a good hand: how many aces?", "slam:aces", shows(18), artificial=True),
                Option(PASS, always, "no slam", "resp:pass")]
    if tags[0] in ("open:3suit", "open:3nt", "open:4major"):
        return [Option(PASS, always, "the contract is placed", "pass")]
    return None
