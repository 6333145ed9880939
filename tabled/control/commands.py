"""The server's commands: assignments, the director's rulings, the roster and resend. Each is
answered by an event, so a repeated command gets the same answer again (idempotent)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from laws import IllegalActionError, Seat
from tablemodel.rulings import KINDS
from tablemodel.state import Phase
from tablemodel.wire import Command, Event, EventType, WireError

from .context import Context, board_number
from .outcome import Notice, Outcome, Proposed


def answer_command(ctx: Context, command: Command) -> Outcome:
    """What a command from the server means now; what cannot be applied is refused."""
    state = ctx.state
    answered = state.commands.get(command.id)
    if answered is not None:
        return Outcome(repeat=answered)  # idempotent: the same answer again
    try:
        # What the wire would refuse is refused here too, with the wire's reason (a
        # command put on the inbox without the wire's decoding, a field it drops).
        command = Command.from_payload(command.to_payload())
    except WireError as error:
        return _answer_refused(ctx, command, str(error)[:200])
    if command.type == "resend":
        return Outcome(resend=(command.data["since"], command.data.get("until")))
    if command.type == "assign":
        busy = state.board is not None and state.phase is not Phase.RESULT
        if busy:
            return _answer_refused(ctx, command,
                                   f"board {state.board.number if state.board else ''}"
                                   " is being played; end the round first")
        proposed = Proposed("assign", None, {"cmd": command.id, **command.data})
        reason = _why_not_applied(ctx, proposed)
        if reason is not None:
            return _answer_refused(ctx, command, reason)
        return Outcome([proposed])
    if command.type == "roster":
        # A visitor the director added while the session runs: any time, even mid-board
        # (it changes only who may sit down); the seats still to sign in are told.
        waiting = [seat for seat in Seat if seat not in state.players]
        return Outcome([Proposed("roster", None, {"cmd": command.id, **command.data})]).tell(
            waiting, Notice("roster", {"count": len(command.data["players"])},
                            error=False))
    reason = _why_ruling_refused(ctx, command.data)
    if reason is not None:
        return _answer_refused(ctx, command, reason)
    said = {"kind": command.data["kind"]}
    if command.data.get("bids_allowed"):
        said["bids_allowed"] = True  # Law 30B2(b): the seat may bid, not double
    return Outcome([Proposed("ruling", board_number(ctx),
                             {"cmd": command.id, **command.data})]).tell(
        Seat, Notice("ruling", said, error=False))


def _answer_refused(ctx: Context, command: Command, reason: str) -> Outcome:
    return Outcome([Proposed("refused", board_number(ctx),
                             {"cmd": command.id, "reason": reason})])


def _why_not_applied(ctx: Context, proposed: Proposed) -> str | None:
    """Apply ``proposed`` to a copy of the state: why it cannot be applied, or None.
    What comes from outside is tried before it is journalled: a journal must replay."""
    trial = copy.deepcopy(ctx.state)
    try:
        trial.apply(Event(trial.seq + 1, EventType(proposed.type), 0.0, proposed.board,
                          proposed.data))
    except (IllegalActionError, ValueError, KeyError, TypeError, RuntimeError) as error:
        return str(error) or type(error).__name__
    return None


def _why_ruling_refused(ctx: Context, data: Mapping[str, Any]) -> str | None:
    """Why this ruling cannot be applied now, or None. A trial copy takes it first.
    When a kind may be applied is its own (tablemodel.rulings)."""
    kind = KINDS[data["kind"]]
    if not kind.needs_board:
        return None
    board = ctx.state.board
    if board is None:
        return "no board on the table"
    reason = _why_not_applied(ctx, Proposed("ruling", board.number, {"cmd": "trial", **data}))
    if reason is not None:
        return f"{kind.name}: {reason}"
    if kind.before_play and board.cards:
        return f"{kind.name}: the play has started"
    return None

