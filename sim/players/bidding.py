"""The bidder: seed 004's natural system, from the auction so far and the hand to a call.

:func:`choose_call` reads the auction call by call (each call is read by the same tables the
bidder uses, see system.py), then takes the first option of the present context that the
hand satisfies and the auction allows; where the seed's tables stop, the combined-points
placement of slam.py decides. The result is always a legal call, and the same auction and
hand always give the same call.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from laws import DOUBLE, PASS, REDOUBLE, Bid, Call, Card, Seat
from laws.auction import Auction

from . import defence, notrump, openings, slam, suits
from .evaluation import Evaluation, evaluate
from .system import Ctx, Known, Option, Shows, Step, shows


@dataclass(frozen=True)
class Choice:
    """A call with what partner must do about it (alert) and what it means."""

    call: Call
    alert: bool
    artificial: bool
    meaning: str


def context_options(ctx: Ctx) -> list[Option]:
    """The options the system offers the seat on turn, best first."""
    ask = slam.pending_ask(ctx)
    if ask is not None:
        return slam.answers(ctx, ask)
    opening = ctx.opening
    if opening is None:
        return openings.opening_options(ctx)
    if opening.seat.side is not ctx.me.side:
        return defence.options(ctx) or []
    tags = ctx.tags()
    if any(tag.startswith("slam:") for tag in tags):
        return []  # the captain decides (slam.captain); the other passes
    found: list[Option] | None = None
    first = tags[0]
    if first in ("open:1suit", "open:1c"):
        assert isinstance(opening.call, Bid) and opening.call.strain.suit is not None
        opened = opening.call.strain.suit
        if len(tags) == 1:
            found = suits.responses(ctx, opened)
        elif len(tags) == 2:
            found = suits.opener_rebid(ctx, opened, tags[1])
        elif len(tags) == 3:
            found = suits.responder_rebid(ctx, opened, tags)
    elif first == "open:1nt":
        found = notrump.after_1nt(ctx, tags)
    elif first == "open:2nt":
        found = notrump.after_2nt(ctx, tags, 21)
    elif first == "open:2c":
        found = notrump.after_2c(ctx, tags)
    elif first == "open:2suit":
        found = notrump.after_2suit(ctx, tags)
    else:
        found = openings.after_preempt(ctx, tags)
    return found or []


def decide(ctx: Ctx, ev: Evaluation) -> Call:
    """Beyond the tables: the slam captain's next call, else the placement."""
    call = slam.captain(ctx, ev)
    if call is not None:
        return call
    if any(s.tag.startswith("slam:") for s in ctx.ours()):
        return PASS
    return slam.place(ctx, ev)


def natural(ctx: Ctx, call: Call) -> tuple[str, Shows, bool, str]:
    """How a call that no table of the context lists is read: asks, or natural."""
    if call == PASS:
        return "pass", Shows(), False, "pass"
    if call == DOUBLE:
        return "double", Shows(), False, "double"
    if call == REDOUBLE:
        return "redouble", Shows(), False, "redouble"
    found = slam.reading(ctx, call)
    if found is not None:
        tag, artificial, meaning = found
        return tag, Shows(), artificial, meaning
    assert isinstance(call, Bid)
    suit = call.strain.suit
    if suit is None:
        return "place", Shows(), False, f"natural: {call}"
    length = 3 if suit in ctx.suits_of(ctx.partner) else 4
    return "place", shows(suit=suit, length=length), False, f"natural: {call}"


def _merge(matched: list[Option]) -> Shows:
    lengths = tuple(min(o.shows.lengths[i] for o in matched) for i in range(4))
    return Shows(min(o.shows.lo for o in matched), max(o.shows.hi for o in matched),
                 (lengths[0], lengths[1], lengths[2], lengths[3]),
                 all(o.shows.balanced for o in matched))


def read(auction: Auction) -> tuple[list[Step], dict[Seat, Known]]:
    """Each call of ``auction`` as the system reads it, and what each player has shown."""
    partial = Auction(auction.dealer)
    steps: list[Step] = []
    known = {seat: Known() for seat in Seat}
    for entry in auction.entries:
        if partial.is_over:
            break
        ctx = Ctx(partial, steps, known)
        matched = [o for o in context_options(ctx) if o.call == entry.call]
        if matched:
            first = matched[0]
            tag, what, artificial, meaning = (first.tag, _merge(matched), first.artificial,
                                              first.meaning)
        else:
            tag, what, artificial, meaning = natural(ctx, entry.call)
        known[entry.seat].learn(what)
        steps.append(Step(entry.seat, entry.call, tag, artificial, meaning))
        partial.make_call(entry.call)
    return steps, known


def choose_call(auction: Auction, hand: Sequence[Card] | Iterable[Card],
                rng: random.Random | None = None, *, judgement: int = 0) -> Choice:
    """The call the system makes with ``hand`` now: always legal in ``auction``.

    The system is deterministic; ``rng`` is accepted for the players' interface and not
    needed by it (the same auction and hand give the same call). ``judgement``: points the
    player adds to the hand's high cards when valuing it (sim.players.field: a bolder or a
    more cautious pair); partner reads the calls by the system all the same.
    """
    if auction.is_over:
        raise ValueError("the auction is over")
    ev = evaluate(hand)
    if judgement:
        ev = dataclasses.replace(ev, hcp=max(0, ev.hcp + judgement))
    steps, known = read(auction)
    ctx = Ctx(auction.copy(), steps, known)
    for option in context_options(ctx):
        if option.when(ev) and ctx.legal(option.call):
            return Choice(option.call, option.alert, option.artificial, option.meaning)
    call = decide(ctx, ev)
    if not ctx.legal(call):
        call = PASS
    _, _, artificial, meaning = natural(ctx, call)
    return Choice(call, artificial, artificial, meaning)
