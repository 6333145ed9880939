"""The auction: calls, changes of an unintended call (Law 25A), alerts, the screens' tray
(``tick``: when it crosses)."""

from __future__ import annotations

from typing import Any

from laws import Call, IllegalActionError, Seat
from laws.auction import Auction
from tablemodel.regulation import alert_required
from tablemodel.state import BoardState

from .context import Context, SeatEntry, director
from .dealing import hands_to_scan
from .keys import CALL_KEYS, LEVELS, STRAINS, typed_call
from .outcome import Notice, Outcome, Proposed, refusal


def call_key(ctx: Context, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
    """What a key means while the auction is on (and a call key after it: Laws 25A3, 39)."""
    board = ctx.state.board
    assert board is not None
    if not entry.keys:
        answer = _answer_irregularity(ctx, seat, key, board)
        if answer is not None:
            return answer
    if key in LEVELS:
        entry.keys = [key]
    elif key in STRAINS:
        if not entry.keys or entry.keys[0] not in LEVELS:
            return Outcome().tell([seat], Notice("level_first"))
        entry.keys = [entry.keys[0], key]
    elif key in CALL_KEYS:
        entry.keys = [key]
    elif key == "UNDO":
        return _undo_call(ctx, seat, entry, board)
    elif key == "ALERT":
        return _alert(ctx, seat, board, entry)
    elif key == "OK":
        return _confirm_call(ctx, seat, entry, board)
    return Outcome()


def _answer_irregularity(ctx: Context, seat: Seat, key: str,
                         board: BoardState) -> Outcome | None:
    """With nothing typed: Law 25B, the left-hand opponent of a change made after a pause
    accepts it (OK) or not (UNDO: the first call stands); Law 16B2, an opponent of a
    player who hesitated reserves the side's rights (ALERT). Recorded for the director."""
    late = board.late_change
    if late is not None and seat is late.seat.lho and key in ("OK", "UNDO"):
        return Outcome([Proposed("option", board.number, {
            "kind": "change_of_call", "change": "accept" if key == "OK" else "cancel",
            "by": str(seat)})])
    over = board.over_change
    if over is not None and seat is over.seat and key in ("OK", "UNDO"):
        # Law 25A4: OK lets the call made over the changed one stand, UNDO withdraws it
        # (the player then calls again).
        return _over_change(ctx, seat, board, "stand" if key == "OK" else "withdraw")
    if key == "ALERT":
        # Law 16B1: the profile says how long a pause is a hesitation.
        index = board.hesitation_open(seat, ctx.state.conduct.profile.hesitation)
        if index is not None:
            hesitator = board.auction.entries[index].seat
            return Outcome([Proposed("option", board.number, {
                "kind": "unauthorised_information", "side": hesitator.side.name,
                "law": "16B2", "by": str(seat)})]).tell(
                [seat, seat.partner], Notice("reserved", error=False))
    return None


def _over_change(ctx: Context, seat: Seat, board: BoardState, choice: str) -> Outcome:
    data = {"kind": "call_over_change", "seat": str(seat), "lho_call": choice,
            "by": str(seat)}
    if choice == "stand":
        over = board.over_change
        assert over is not None
        if not board.auction.is_legal(over.call, seat):
            return Outcome().tell([seat], Notice("law", {"reason": "over"}, "25A4"))
        return Outcome([Proposed("option", board.number, data)])
    return Outcome([Proposed("option", board.number, data)]).tell(
        [seat], Notice("withdrawn", error=False))


def _undo_call(ctx: Context, seat: Seat, entry: SeatEntry, board: BoardState) -> Outcome:
    if entry.keys:
        entry.keys.clear()
        return Outcome()
    # Law 25A: an unintended call may be replaced until partner calls (25A1-2) or, at the
    # end of the auction, until the opening lead is faced (25A3, 22B1): a lead lying face
    # down does not end the auction period.
    index = board.auction.can_replace(seat)
    tray = board.tray
    faced = bool(board.cards) and not board.face_down
    if faced or index is None or (tray is not None and index < tray.crossed):
        # Screens: a call may be replaced without penalty until the tray crosses.
        entry.replacing = False
        return Outcome().tell([seat], Notice("law", {"reason": "change"}, "25A"))
    entry.replacing = True
    return Outcome().tell([seat], Notice("replace", error=False))


def _self_alerting(ctx: Context) -> bool:
    conduct = ctx.state.conduct
    return conduct.screens is not None or conduct.profile.self_alert


def _alert(ctx: Context, seat: Seat, board: BoardState, entry: SeatEntry) -> Outcome:
    """ALERT: the alert norms say who alerts (tablemodel.regulation). Self-alerting, ALERT
    while a call is typed alerts it with the call; with nothing typed, ALERT alerts the
    newest call of one's own side one has seen (one's own, or partner's under screens)."""
    if entry.keys and _self_alerting(ctx):
        entry.alert = not entry.alert
        return Outcome()
    entries = board.auction.entries
    screens = ctx.state.conduct.screens
    if screens is not None:
        seen = board.seen_by_side(screens, screens.side(seat))
        mine = [i for i in range(seen) if entries[i].seat in (seat, seat.partner)]
    elif _self_alerting(ctx):
        mine = [i for i, e in enumerate(entries) if e.seat is seat]
    else:
        mine = [i for i, e in enumerate(entries) if e.seat is seat.partner]
    if not mine:
        return Outcome().tell([seat], Notice("alert_partner" if not _self_alerting(ctx)
                                             else "alert_nothing"))
    index = mine[-1]
    if any(a.by is seat for a in board.alerted(index)):
        return Outcome()
    # Late: a call was made over it (without screens), or it has crossed on the tray.
    if screens is not None:
        late = board.tray is not None and (
            (index < board.tray.crossed and entries[index].seat is seat)
            or screens.side(seat) != board.tray.side)
    else:
        late = index < len(entries) - 1
    data: dict[str, Any] = {"seat": str(seat), "index": index}
    outcome = Outcome()
    if late:
        data["late"] = True
        # Failing to alert is misinformation (AEB note to Law 21): the director decides
        # whether the opponents may change a call (Law 21B1).
        outcome.events.append(director(
            ctx, seat, "late_alert", "21B",
            f"{seat} alerts {entries[index].seat}'s {entries[index].call} late",
            "late_alert", {"seat": str(seat), "other": str(entries[index].seat),
                           "call": str(entries[index].call)}))
    outcome.events.insert(0, Proposed("alert", board.number, data))
    return outcome


def _reminder(ctx: Context, seat: Seat, board: BoardState, call: Call,
              alerted: bool) -> Notice | None:
    """Self-alerting: the caller's own card says the call is alertable and it was not
    alerted. Only the caller is told; telling partner would be unauthorized (Law 16B)."""
    if alerted or not _self_alerting(ctx):
        return None
    conduct = ctx.state.conduct
    card = conduct.card_of(seat)
    if card is None:
        return None
    trial = board.auction.copy()
    trial.make_call(call, seat)
    index = len(trial) - 1
    found = card.lookup(trial, index)
    if alert_required(None if found is None else found.alert, trial, index,
                      conduct.screens, penalty=None if found is None else found.penalty,
                      opening_natural=_opening_natural(ctx, trial, seat)):
        return Notice("remind_alert", {"call": str(call)}, "40B", error=False)
    return None


def _opening_natural(ctx: Context, auction: Auction, seat: Seat) -> bool:
    """Whether the opening is natural, by its own side's card (norm 8 asks): a call the
    card calls alertable is not."""
    first = next((i for i, e in enumerate(auction.entries) if e.call.is_bid), None)
    if first is None:
        return False
    card = ctx.state.conduct.card_of(auction.entries[first].seat)
    found = None if card is None else card.lookup(auction, first)
    return found is None or not found.alert


def _confirm_call(ctx: Context, seat: Seat, entry: SeatEntry, board: BoardState) -> Outcome:
    call = typed_call(entry)
    if call is None:
        return Outcome().tell([seat], Notice("enter_call"))
    if hands_to_scan(ctx, board):
        entry.keys.clear()
        entry.alert = False
        waiting = [s for s in Seat if len(board.scans[s]) < 13]
        return Outcome().tell([seat], Notice("scan_hands", {
            "seats": "".join(str(s) for s in waiting)}, "7B"))
    alert = entry.alert and _self_alerting(ctx)
    entry.keys.clear()
    entry.alert = False
    try:
        if entry.replacing:
            index = board.auction.can_replace(seat)
            if board.tray is not None and index is not None \
                    and index < board.tray.crossed:
                entry.replacing = False  # screens: the call crossed meanwhile
                return Outcome().tell([seat], Notice("law", {"reason": "change"}, "25A"))
            trial = board.auction.copy()
            trial.replace_call(seat, call)  # Law 25A (screens: until the tray crosses)
            entry.replacing = False
            data: dict[str, Any] = {"seat": str(seat), "call": str(call)}
            if alert:
                data["alert"] = True
            return Outcome([Proposed("change", board.number, data)])
        # Law 28A: the call of the left-hand opponent of a seat that must pass, at that
        # seat's turn, is in rotation (the engine records the pass first).
        board.auction.copy().make_call(call, seat)
    except IllegalActionError as error:
        if board.auction.can_replace(seat) is None:
            entry.replacing = False  # Law 25A: too late now; the next call is a new call
        return Outcome().tell([seat], refusal(error))
    if board.tray_away(ctx.state.conduct.screens, seat):
        # Screens: a player calls once the tray has brought the other side's calls.
        return Outcome().tell([seat], Notice("tray_away"))
    data = {"seat": str(seat), "call": str(call)}
    if alert:
        data["alert"] = True
    over = board.over_change
    if over is not None and seat is over.seat:
        # Law 25A4: the call made over the changed one: made again, it stands; another
        # call withdraws it first.
        if call == over.call and alert == over.alert:
            return _over_change(ctx, seat, board, "stand")
        withdraw = _over_change(ctx, seat, board, "withdraw").events
        return Outcome([*withdraw, Proposed("call", board.number, data)])
    outcome = Outcome([Proposed("call", board.number, data)])
    reminder = _reminder(ctx, seat, board, call, alert)
    if reminder is not None:
        outcome.tell([seat], reminder)
    return outcome


def tick(ctx: Context, now: float) -> Outcome:
    """Screens: the tray crosses once it is due (tablemodel.state.BoardState.tray_due)."""
    due = next_tick(ctx)
    board = ctx.state.board
    if due is None or now < due or board is None:
        return Outcome()
    return Outcome([Proposed("tray", board.number, {"calls": len(board.auction)})])


def next_tick(ctx: Context) -> float | None:
    """When ``tick`` has something to do, or None."""
    board = ctx.state.board
    screens = ctx.state.conduct.screens
    if board is None or screens is None:
        return None
    return board.tray_due(screens)

