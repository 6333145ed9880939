"""What each viewer may see of the table: one pure function, ``view_for(viewer, state)``.

Viewers are the four seats, the director, and the public (vugraph). Everything a display,
a page or a snapshot shows of a board comes through here, so what a viewer may not see is
left out in one place:

- A seat sees its own hand, dummy once the opening lead is faced, the cards played face up.
- Without screens every seat sees every call and every alert (they are made at one table);
  a question and its answer reach the asker's side and the player who answers (Law 20F1).
- With screens a seat sees the calls of its own side of the screen as they are made and the
  other side's once the tray brings them; alerts, questions and answers pass between
  screenmates only, so partner never sees them (the usual screen regulations; AEB norms B).
- The opening lead made face down under screens is seen by the leader alone until the
  screenmate says the questions are over.
- The public sees no hand at all (the aggregator shows hands once its release rule allows)
  and everything else ``delay`` seconds late. ``delay`` filters what the state holds by its
  timestamps; what a later event took away (a replaced call, a board confirmed) is gone from
  a live state, so a delayed public page replays the events up to now minus the delay and
  asks for the view of that state (the aggregator's vugraph, server/pages/vugraph.py).
- The director sees everything.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from laws import Card, Seat, Vulnerability

from .regulation import Screens
from .state import BoardState, Phase, Result, TableState

Role = Literal["director", "public"]
Viewer = Seat | Role
DIRECTOR: Role = "director"
PUBLIC: Role = "public"
VIEWERS: tuple[Viewer, ...] = (Seat.N, Seat.E, Seat.S, Seat.W, DIRECTOR, PUBLIC)


@dataclass(frozen=True)
class SeenCall:
    index: int
    seat: Seat
    call: str
    alerted: bool          # alerted, as far as this viewer can know
    late: bool = False     # the alert this viewer saw came late


@dataclass(frozen=True)
class SeenQuestion:
    seq: int
    asker: Seat
    index: int
    answerer: Seat
    answer: int | None     # the code of the answer (tablemodel.syscard), once given


@dataclass(frozen=True)
class View:
    viewer: Viewer
    phase: Phase | None
    board: int | None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    calls: tuple[SeenCall, ...] = ()
    questions: tuple[SeenQuestion, ...] = ()
    hand: frozenset[Card] | None = None       # the viewer's own hand, when known
    dummy: frozenset[Card] | None = None      # dummy's hand, once the lead is faced
    cards: tuple[tuple[Seat, Card], ...] = ()  # cards played, as this viewer sees them
    lead_face_down: bool = False              # a lead lies face down that this viewer can't see
    tray_here: bool | None = None             # screens: the tray is on the viewer's side
    result: Result | None = None


def _cutoff(viewer: Viewer, now: float | None, delay: float) -> float:
    if viewer != PUBLIC or now is None:
        return math.inf
    return now - delay


def _sees_call(viewer: Viewer, board: BoardState, screens: Screens | None) -> int:
    if isinstance(viewer, Seat) and screens is not None:
        return board.seen_by_side(screens, screens.side(viewer))
    return len(board.auction)


def _sees_alert(viewer: Viewer, by: Seat, screens: Screens | None) -> bool:
    if not isinstance(viewer, Seat) or screens is None:
        return True
    return viewer is by or viewer is screens.screenmate(by)


def _sees_question(viewer: Viewer, asker: Seat, answerer: Seat,
                   screens: Screens | None) -> bool:
    if not isinstance(viewer, Seat):
        return True
    if screens is not None:
        return viewer in (asker, answerer)  # written, between screenmates
    return viewer in (asker, asker.partner, answerer)


Review = Literal["calls", "contract"]


def review_of(seat: Seat, state: TableState) -> Review | None:
    """What ``seat`` may have restated of the auction now (INFO's review page).

    Until the opening lead is faced the calls are still before the players (a bidding box's
    cards stay on the table; Law 20B, and 41B in the clarification period, where the presumed
    dummy has no say). In the play, Law 41B: a player may have the calls restated at his first
    turn to play, and the right ends when he plays a card (declarer's first turn is from
    dummy, unless he accepted a lead out of turn); after that, Law 41C: at his own turn to
    play, only what the contract is and whether, not by whom, it was doubled or redoubled.
    Dummy has no turn to play. Once the play is over the auction may be reviewed again."""
    board = state.board
    phase = state.phase
    if board is None or phase in (Phase.SETUP, Phase.AUCTION, Phase.RESULT):
        return "calls"
    play = board.play
    if play is None:
        return "calls"
    if seat is play.dummy:
        return None
    if phase is Phase.LEAD:
        return "calls"
    turn = play.turn
    if turn is None or play.controller(turn) is not seat:
        return None
    played = any(play.controller(who) is seat for who, _ in board.cards)
    return "contract" if played else "calls"


def view_for(viewer: Viewer, state: TableState, now: float | None = None, *,
             delay: float = 0.0) -> View:
    """Everything ``viewer`` may see of the table now; ``now`` and ``delay`` hold the public
    view back (``now`` None: no delay)."""
    board = state.board
    if board is None:
        return View(viewer, None if viewer == PUBLIC else state.phase, None)
    screens = state.conduct.screens
    cutoff = _cutoff(viewer, now, delay)
    entries = board.auction.entries
    seen = _sees_call(viewer, board, screens)
    calls: list[SeenCall] = []
    for index in range(seen):
        if board.call_ts[index] > cutoff:
            break
        alerts = [a for a in board.alerted(index)
                  if a.ts <= cutoff and _sees_alert(viewer, a.by, screens)]
        entry = entries[index]
        calls.append(SeenCall(index, entry.seat, str(entry.call), bool(alerts),
                              bool(alerts) and all(a.late for a in alerts)))
    questions = tuple(
        SeenQuestion(q.seq, q.asker, q.index, q.answerer,
                     q.answer if q.answer_ts is not None and q.answer_ts <= cutoff else None)
        for q in board.questions
        if q.ts <= cutoff and q.index < seen and _sees_question(viewer, q.asker, q.answerer,
                                                                screens))
    leader = board.cards[0][0] if board.cards else None
    hidden_lead = leader is not None and (
        (board.face_down and viewer not in (DIRECTOR, leader))
        or (board.faced_ts is not None and board.faced_ts > cutoff))
    cards = () if hidden_lead else tuple(
        (seat, card) for (seat, card), ts in zip(board.cards, board.card_ts, strict=True)
        if ts <= cutoff)
    play = board.play
    hand = dummy = None
    if isinstance(viewer, Seat):
        hand = board.known.get(viewer)
    if viewer != PUBLIC and play is not None and board.cards and not board.face_down:
        dummy = board.known.get(play.dummy)
    tray_here = None
    if isinstance(viewer, Seat) and screens is not None and board.tray is not None:
        tray_here = board.tray.side == screens.side(viewer)
    public = viewer == PUBLIC
    return View(
        viewer, None if public else state.phase, board.number, board.dealer,
        board.vulnerability, tuple(calls), questions,
        hand, dummy, cards, hidden_lead, tray_here,
        None if public else board.result)
