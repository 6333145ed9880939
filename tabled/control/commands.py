"""The server's commands: assignments, the director's rulings, the roster and resend. Each is
answered by an event, so a repeated command gets the same answer again (idempotent)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from laws import IllegalActionError, RulesError, Seat
from tablemodel.rulings import KINDS
from tablemodel.state import Phase
from tablemodel.wire import (
    Command,
    Event,
    EventType,
    Resend,
    RosterAdded,
    RulingData,
    WireError,
)

from .context import Context, board_number
from .outcome import Notice, Outcome, Proposed
from .outcome import said as error_said

#: Why a command is refused: the English reason, and the message (code and params) the
#: console says in its language (empty when there is none: a wire error, an assignment's).
Refusal = tuple[str, dict[str, Any]]


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
        return _answer_refused(ctx, command, (str(error)[:200], {}))
    if command.type == "resend":
        resend = command.value(Resend)
        return Outcome(resend=(resend.since, resend.until))
    if command.type == "assign":
        busy = state.board is not None and state.phase is not Phase.RESULT
        if busy:
            number = state.board.number if state.board else ""
            return _answer_refused(ctx, command, (
                f"board {number} is being played; end the round first",
                {"code": "board_being_played", "params": {"board": number}}))
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
            waiting, Notice("roster", {"count": len(command.value(RosterAdded).players)},
                            error=False))
    ruling = command.value(RulingData)
    reason = _why_ruling_refused(ctx, ruling, command.data)
    if reason is not None:
        return _answer_refused(ctx, command, reason)
    said: dict[str, Any] = {"kind": ruling.kind}
    if ruling.bids_allowed:
        said["bids_allowed"] = True  # Law 30B2(b): the seat may bid, not double
    return Outcome([Proposed("ruling", board_number(ctx),
                             {"cmd": command.id, **command.data})]).tell(
        Seat, Notice("ruling", said, error=False))


def _answer_refused(ctx: Context, command: Command, refusal: Refusal) -> Outcome:
    reason, message = refusal
    return Outcome([Proposed("refused", board_number(ctx),
                             {"cmd": command.id, "reason": reason[:200], **message})])


def _why_not_applied(ctx: Context, proposed: Proposed) -> Refusal | None:
    """Apply ``proposed`` to a copy of the state: why it cannot be applied, or None.
    What comes from outside is tried before it is journalled: a journal must replay."""
    trial = copy.deepcopy(ctx.state)
    try:
        trial.apply(Event(trial.seq + 1, EventType(proposed.type), 0.0, proposed.board,
                          proposed.data))
    except (IllegalActionError, ValueError, KeyError, TypeError, RuntimeError) as error:
        return str(error) or type(error).__name__, _engine_said(error)
    return None


def _why_ruling_refused(ctx: Context, ruling: RulingData,
                        data: Mapping[str, Any]) -> Refusal | None:
    """Why this ruling (``data``: as the wire carries it) cannot be applied now, or None. A
    trial copy takes it first. When a kind may be applied is its own (tablemodel.rulings)."""
    kind = KINDS[ruling.kind]
    if not kind.needs_board:
        return None
    board = ctx.state.board
    if board is None:
        return "no board on the table", {"code": "no_board", "params": {}}
    refused = _why_not_applied(ctx, Proposed("ruling", board.number,
                                             {"cmd": "trial", **data}))
    if refused is not None:
        reason, message = refused
        if message:  # the ruling's kind goes with the engine's message
            message["params"]["ruling"] = kind.name
        return f"{kind.name}: {reason}", message
    if kind.before_play and board.cards:
        return (f"{kind.name}: the play has started",
                {"code": "play_has_started", "params": {"ruling": kind.name}})
    return None


def _engine_said(error: BaseException) -> dict[str, Any]:
    """The laws engine's message inside a refusal: the state wraps the engine's error in its
    own (tablemodel.rulings), which keeps it as its context."""
    found: BaseException | None = error
    while found is not None and not isinstance(found, RulesError):
        found = found.__cause__ or found.__context__
    return error_said(found) if found is not None else {}

