"""The slam conventions of seed 004 and the combined-points placement.

4NT asks for aces: 5C none (or four), 5D one, 5H two, 5S three. 5NT after 4NT asks for kings:
6C none (or four), 6D one, 6H two, 6S three. 5NT without 4NT asks how many of A K Q partner
holds in the last suit the side named: 6C none, 6D one, 6H two. 6C after 4NT asks the same:
6D none, 6H one, 6S two. All asks and answers are artificial, so alerted. The one who asks
is the captain: after the answers it places the contract and partner passes.

Where the seed gives no line, the side goes by its table of combined points: game with 25
(27 for a minor), a small slam with 32 (33 at no trump), a grand slam with 36, counting its
own points and the least partner has shown; in a suit, a slam is reached through 4NT.
"""

from __future__ import annotations

from laws import PASS, Bid, Call, Strain, Suit

from .evaluation import Evaluation
from .system import (
    Ctx,
    Option,
    Pred,
    Step,
    best_strain,
    game_level,
    target_level,
)

ASKS = ("slam:aces", "slam:kings", "slam:trumps5nt", "slam:trumps6c")
FOUR_NT = Bid(4, Strain.NT)
FIVE_NT = Bid(5, Strain.NT)
SIX_C = Bid(6, Strain.C)
STRAINS = (Strain.C, Strain.D, Strain.H, Strain.S)


def _last_bidder(ctx: Ctx) -> Step | None:
    return next((s for s in reversed(ctx.steps) if isinstance(s.call, Bid)), None)


def pending_ask(ctx: Ctx) -> Step | None:
    """Partner's slam ask, if it is the last bid and this seat has to answer it."""
    last = _last_bidder(ctx)
    if last is not None and last.seat is ctx.partner and last.tag in ASKS:
        return last
    return None


def _count(what: str, k: int) -> Pred:
    if what == "aces":
        return lambda ev: ev.aces % 4 == k
    return lambda ev: ev.kings % 4 == k


def _honours(suit: Suit | None, k: int, top: int) -> Pred:
    return lambda ev: min(ev.top_honours(suit) if suit else 0, top) == k


def answers(ctx: Ctx, ask: Step) -> list[Option]:
    if ask.tag in ("slam:aces", "slam:kings"):
        what = "aces" if ask.tag == "slam:aces" else "kings"
        level = 5 if what == "aces" else 6
        return [Option(Bid(level, strain), _count(what, k),
                       f"{k} {what}" + (" (or four)" if k == 0 else ""), "slam:answer",
                       artificial=True) for k, strain in enumerate(STRAINS)]
    suit = ctx.last_suit_of_side()
    name = suit.name if suit else "the suit"
    first = 0 if ask.tag == "slam:trumps5nt" else 1
    return [Option(Bid(6, STRAINS[first + k]), _honours(suit, k, 2),
                   f"{k}{'+' if k == 2 else ''} of A K Q in {name}", "slam:answer",
                   artificial=True) for k in range(3)]


def reading(ctx: Ctx, call: Call) -> tuple[str, bool, str] | None:
    """The tag, artificiality and meaning of a slam ask the system's tables do not list."""
    if call == FOUR_NT:
        return "slam:aces", True, "how many aces?"
    ours = [s for s in ctx.steps if s.seat.side is ctx.me.side]
    if call == FIVE_NT:
        if any(s.tag == "slam:aces" for s in ours):
            return "slam:kings", True, "how many kings?"
        return "slam:trumps5nt", True, "how many of A K Q in the last suit named?"
    mine = ctx.last_of(ctx.me)
    last_suit = ctx.last_suit_of_side()
    if (call == SIX_C and mine is not None and mine.tag == "slam:aces"
            and last_suit is not None and last_suit is not Suit.C):
        return "slam:trumps6c", True, f"how many of A K Q in {last_suit.name}?"
    return None


def _reach(ctx: Ctx, strain: Strain, level: int) -> Call:
    """``level`` in ``strain``; if the answers went past it, no trump at that level."""
    want = Bid(level, strain)
    if ctx.last_bid == want:
        return PASS
    for call in (want, Bid(level, Strain.NT), Bid(min(level + 1, 7), strain)):
        if ctx.legal(call):
            return call
    return PASS


def captain(ctx: Ctx, ev: Evaluation) -> Call | None:
    """The asker's next call once partner has answered, or None if this is not that turn."""
    mine, answer = ctx.last_of(ctx.me), _last_bidder(ctx)
    if (mine is None or mine.tag not in ASKS or answer is None or answer.seat is not ctx.partner
            or answer.tag != "slam:answer" or not isinstance(answer.call, Bid)):
        return None
    strain = best_strain(ev, ctx.pk, slam=True)
    combined = ev.total + ctx.pk.lo
    k = answer.call.strain.value
    if mine.tag == "slam:aces":
        aces = ev.aces + (4 if k == 0 and ev.aces == 0 else k)
        if aces <= 2:
            if strain is Strain.NT:
                return _reach(ctx, strain, 6)
            five = Bid(5, strain)
            return five if ctx.legal(five) else _reach(ctx, strain, 6)
        if aces == 4 and combined >= 36 and ctx.legal(FIVE_NT):
            return FIVE_NT
        suit = ctx.last_suit_of_side()
        if (aces == 4 and strain.suit is not None and strain.suit is suit
                and suit is not Suit.C and ev.top_honours(suit) <= 1 and ctx.legal(SIX_C)):
            return SIX_C  # all the aces: is a grand slam missing a top trump?
        return _reach(ctx, strain, 6)
    if mine.tag == "slam:kings":
        kings = ev.kings + (4 if k == 0 and ev.kings == 0 else k)
        return _reach(ctx, strain, 7 if kings >= 4 or (kings == 3 and combined >= 37) else 6)
    suit = ctx.last_suit_of_side()
    held = ev.top_honours(suit) if suit is not None else 0
    partner = k if mine.tag == "slam:trumps5nt" else k - 1
    return _reach(ctx, strain, 7 if held + partner >= 3 and combined >= 36 else 6)


def place(ctx: Ctx, ev: Evaluation) -> Call:
    """The contract the combined points call for, or pass when there is nothing to add."""
    if not any(s.seat is ctx.partner and s.call != PASS for s in ctx.steps):
        return PASS
    strain = best_strain(ev, ctx.pk)
    combined = (ev.hcp if strain is Strain.NT else ev.total) + ctx.pk.lo
    level = target_level(strain, combined)
    if level >= 6 and strain is Strain.NT:
        strain = best_strain(ev, ctx.pk, slam=True)
        if strain is not Strain.NT:
            level = target_level(strain, ev.total + ctx.pk.lo)
    last = _last_bidder(ctx)
    asked = any(s.tag.startswith("slam:") for s in ctx.steps
                if s.seat.side is ctx.me.side)
    if level >= 6 and strain is not Strain.NT and not asked:
        if ev.aces < 4 and ctx.legal(FOUR_NT):
            return FOUR_NT
        if (level == 7 and ctx.legal(FIVE_NT) and ctx.last_suit_of_side() is strain.suit
                and strain.suit is not None):
            return FIVE_NT
    if level == 7 and strain is not Strain.NT:
        level = 6
    want = Bid(level, strain)
    if last is None or last.seat.side is not ctx.me.side:
        return want if ctx.legal(want) else PASS
    assert isinstance(last.call, Bid)
    reached = last.call.level >= game_level(last.call.strain)
    if last.call.level >= level or (reached and level < 6):
        return PASS
    return want if ctx.legal(want) else PASS
