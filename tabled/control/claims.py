"""Claims and results: the claim page (Law 68), the other players' answers to a claim
(Laws 68B-69A), the result and its confirmation, and what the laws add after an event
(``follow_up``: the result once the play is over, the director's calls the laws owe)."""

from __future__ import annotations

import copy
from typing import Any

from laws import IllegalActionError, Seat
from laws.messages import text as message
from tablemodel.state import BoardState, Phase

from .context import DETAIL, Context, SeatEntry, director
from .keys import typed_number
from .outcome import Notice, Outcome, Proposed, refusal


def may_claim(ctx: Context, seat: Seat, board: BoardState) -> bool:
    """Law 68: once the play period has begun (the opening lead faced, Law 41C), any
    player but dummy (43A1(c)) may claim or concede, while no claim is open."""
    play = board.play
    return (ctx.state.phase is Phase.PLAY and play is not None and not play.is_over
            and play.claim is None and seat is not play.dummy)


def claim_key(ctx: Context, seat: Seat, key: str, entry: SeatEntry,
              board: BoardState) -> Outcome | None:
    """The claim page (Law 68): the tricks of the remaining ones the side will take,
    typed as a number, OK, then shown back to be confirmed with OK (UNDO goes back).
    None: the key leaves the page and does what it does."""
    play = board.play
    assert play is not None
    if key == "UNDO":
        if entry.claim is not None:
            entry.claim = None
        elif entry.keys:
            entry.keys.pop()
        else:
            entry.page = None
        return Outcome()
    if key == "OK":
        if entry.claim is not None:
            claimed, entry.claim, entry.page = entry.claim, None, None
            return Outcome([Proposed("claim", board.number,
                                     {"seat": str(seat), "tricks": claimed})]).tell(
                Seat, Notice("claimed", {"seat": str(seat), "tricks": claimed},
                             error=False))
        _, tricks = typed_number(ctx, key, entry)
        if tricks is None:
            return Outcome().tell([seat], Notice("claim_how"))
        trial = copy.deepcopy(play)
        try:
            trial.make_claim(seat, tricks)  # Law 68
        except IllegalActionError as error:
            return Outcome().tell([seat], refusal(error))
        entry.claim = tricks  # shown back: OK claims, UNDO goes back
        return Outcome()
    if ctx.digit(key) is not None:
        if entry.claim is not None:
            entry.claim = None
            entry.keys.clear()
        if len(entry.keys) < 2:
            entry.keys.append(key)
        return Outcome()
    entry.page = None
    entry.claim = None
    entry.keys.clear()
    return None


def answer_claim(ctx: Context, seat: Seat, key: str, board: BoardState) -> Outcome:
    """A claim is open: a player's OK agrees to it, UNDO disputes it."""
    assert board.play is not None
    if key not in ("OK", "UNDO"):
        return Outcome()
    agree = key == "OK"
    trial = copy.deepcopy(board.play)
    try:
        claim = trial.respond_to_claim(seat, agree)  # Laws 68B2, 69A
    except IllegalActionError as error:
        return Outcome().tell([seat], refusal(error))
    events = [Proposed("claim_answer", board.number, {"seat": str(seat), "agree": agree})]
    if trial.claim is claim and claim.state.value == "disputed":
        # Law 68D: play stops and the director is summoned.
        events.append(director(ctx, seat, "claim", "68D",
                               f"{seat} disputes {claim.seat}'s claim of "
                               f"{claim.tricks}", "claim_disputed",
                               {"seat": str(seat), "other": str(claim.seat),
                                "tricks": claim.tricks}))
    elif trial.claim is None:
        # Law 68B2: a defender's concession that partner objects to at once did not
        # happen; play goes on, but unauthorised information may exist: the director
        # is summoned at once.
        events.append(director(ctx, seat, "concession", "68B2",
                               f"{seat} objects to partner {claim.seat}'s "
                               f"concession ({claim.tricks} of the tricks left): "
                               f"void, play goes on", "concession_voided",
                               {"seat": str(seat), "other": str(claim.seat),
                                "tricks": claim.tricks}))
        return Outcome(events).tell(Seat, Notice("concession_void", error=False))
    return Outcome(events)


def result_key(ctx: Context, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
    """The board's result shown: each seat confirms it with OK."""
    board = ctx.state.board
    assert board is not None
    if key != "OK":
        return Outcome().tell([seat], Notice("confirm_how", error=False))
    if seat in board.confirmed:
        return Outcome()
    return Outcome([Proposed("confirm", board.number, {"seat": str(seat)})])


def follow_up(ctx: Context) -> list[Proposed]:
    """Events the laws add after the last one: the result once the play is over, the
    director once a revoke comes to light, a call over a changed call that can no
    longer stand withdrawn."""
    state = ctx.state
    board = state.board
    if board is None:
        return []
    late = board.late_change
    if late is not None:
        # Law 25B: a change of call after a pause: the director, with its options.
        said: dict[str, Any] = {"seat": str(late.seat), "call": str(late.call),
                                "number": late.index + 1, "other": str(late.seat.lho)}
        detail = message("change_after_pause", said)
        if not any(c.detail == detail and c.board == board.number
                   for c in state.director_calls):
            return [director(ctx, late.seat, "change_of_call", "25B", detail,
                             "change_after_pause", said)]
    over = board.over_change
    if over is not None and not board.auction.is_legal(over.call, over.seat):
        # Law 25A4: the call made over the changed one is not legal over the new call:
        # it cannot stand; it is withdrawn, and its maker calls again.
        return [Proposed("option", board.number, {
            "kind": "call_over_change", "seat": str(over.seat), "lho_call": "withdraw",
            "by": None})]
    if board.result is None:
        result = state.board_result()
        if result is not None:
            data: dict[str, Any] = {
                "contract": result.contract_text, "score_ns": result.score_ns,
                "declarer": None if result.declarer is None else str(result.declarer),
                "tricks": result.tricks}
            if result.transferred:
                data["transferred"] = result.transferred  # Law 64A, kept apart
            if board.play is not None and board.play.tricks[0].cards:
                # The lead that stood (Law 41A): not a face-down card that went back to
                # the hand with a change of call (25A), nor a lead out of turn retracted
                # (Law 54), which the board's first card event may be.
                data["lead"] = str(board.play.tricks[0].cards[0][1])
            return [Proposed("result", board.number, data)]
    elif board.revoke_pending and board.play is not None:
        # Law 64C: at the end of play the director confirms or changes the transfer;
        # the call lists every revoke the table saw.
        seen = "; ".join(f"{r.seat} trick {r.trick + 1} ({r.card})"
                         for r in board.play.revokes)
        detail = (f"board {board.number}: {board.result.transferred:+d} trick(s) to "
                  f"declarer; revokes: {seen}")[:DETAIL]
        transfer = {"board": board.number, "tricks": f"{board.result.transferred:+d}",
                    "revokes": "; ".join(f"{r.seat} {r.trick + 1} {r.card}"
                                         for r in board.play.revokes)[:DETAIL]}
        if not any(c.reason == "revoke_transfer" and c.detail == detail
                   for c in state.director_calls):
            return [director(ctx, None, "revoke_transfer", "64C", detail,
                             "revoke_transfer", transfer)]
    play = board.play
    if play is not None:
        for revoke in play.revokes:
            revoked: dict[str, Any] = {"seat": str(revoke.seat), "number": revoke.trick + 1,
                                       "card": str(revoke.card)}
            code, law = "revoke", "61"
            if revoke.law != "61":
                # Law 61A: the hand unknown, a later card shows it could have complied
                # with the option of Law 57A (or the lead restriction of 26, 50D2).
                code, law = "revoke_when_able", "61A"
                revoked["rule"] = revoke.law
            detail = message(code, revoked)
            if not any(c.reason == "revoke" and c.board == board.number
                       and c.seat is revoke.seat and c.law in ("61", "61A")
                       for c in state.director_calls):
                # Law 64: the director settles the rectification at the end of play; one
                # call a board and offender (the end of play's call lists them all).
                return [director(ctx, revoke.seat, "revoke", law, detail, code, revoked)]
    return []
