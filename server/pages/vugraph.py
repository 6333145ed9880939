"""Vugraph: one table's board as the public (or the director) may see it, live.

The table's state is rebuilt here exactly as the table builds it: ``tablemodel.state.TableState``
replayed from the events stored for that table, and what a viewer sees of it is decided by
the one pure function the table's own displays use, ``tablemodel.visibility.view_for``. Nothing here
decides what may be seen; it only chooses the viewer and the moment (docs/server.md says why
the server imports these two modules).

What the public sees depends on the session's ``vugraph`` (the console's switch,
``session.VUGRAPH_MODES``):

- ``released`` (the default): a board only once the release rule shows its results
  (``standings.released_boards``: every table scheduled to play it has, or the director
  released it). Before that the page names the board the table is on and shows nothing of
  it, no call, no card: in a field, a board on the screen is one another table may still
  have to play.
- ``off``: nothing; the page and the API say the director turned it off.
- ``live``: only for a single match (a teams match of two tables), by the director's choice:
  the table ``delay`` seconds late, measured on the server's clock from when each event was
  received (a table's clock, wrong or forged, cannot bring anything forward): only the
  events received by then are replayed, so a new board, a replaced call or a director's
  take-back reach the public no sooner than the calls do, and ``view_for`` holds back on top
  by the same delay. The hands only once the board is released.

The director sees everything, now.
"""

from __future__ import annotations

import bisect
import dataclasses
import json
import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from laws import Card, Deal, RulesError, Seat, Suit
from server.link.live import HEARTBEAT, Hub
from server.scoring.standings import ResultRow, all_results, public_results, released_boards
from server.setup.session import Session, deals_of
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.regulation import DEFAULT_PROFILE
from tablemodel.state import BoardState, StateError, TableState
from tablemodel.syscard import answer_text
from tablemodel.visibility import (
    DIRECTOR,
    PUBLIC,
    SeenCall,
    SeenQuestion,
    View,
    Viewer,
    view_for,
)
from tablemodel.wire import Event, EventType

log = logging.getLogger(__name__)

DEFAULT_DELAY = 60.0
"""Seconds the public vugraph runs behind the table (config ``VUGRAPH_DELAY``)."""
SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
COLUMNS = (Seat.W, Seat.N, Seat.E, Seat.S)
"""The auction's columns, as vugraph and the hand records print them."""


@dataclass(frozen=True)
class Answered:
    """A question about a call and, once given (and visible), the answer's text."""

    question: SeenQuestion
    text: str | None


@dataclass(frozen=True)
class Vugraph:
    table: int
    viewer: Viewer
    delay: float
    view: View
    screens: str | None  # "NE-SW", "NW-SE" or None
    profile: str
    questions: tuple[Answered, ...]
    released: bool  # the board shown may be shown whole (release rule), or the director
    hands: Mapping[Seat, frozenset[Card]] | None  # only when ``released``
    result: ResultRow | None  # the table's result on the board, only when ``released``
    withheld: bool = False  # the board is named only: the release rule does not show it yet

    @property
    def auction_rows(self) -> list[list[SeenCall | None]]:
        """The calls in rows of four under ``COLUMNS``, blank before the dealer's first."""
        view = self.view
        if view.dealer is None or not view.calls:
            return []
        cells: list[SeenCall | None] = [None] * COLUMNS.index(view.dealer)
        cells += list(view.calls)
        cells += [None] * (-len(cells) % 4)
        return [cells[i:i + 4] for i in range(0, len(cells), 4)]

    @property
    def tricks(self) -> list[list[tuple[Seat, Card]]]:
        """The cards played, four to a trick, in the order played."""
        cards = list(self.view.cards)
        return [cards[i:i + 4] for i in range(0, len(cards), 4)]

    def to_json(self) -> dict[str, Any]:
        view = self.view
        return {
            "table": self.table, "delay": self.delay, "board": view.board,
            "dealer": None if view.dealer is None else str(view.dealer),
            "vulnerability": None if view.vulnerability is None else view.vulnerability.name,
            "screens": self.screens, "profile": self.profile,
            "calls": [{"index": c.index, "seat": str(c.seat), "call": c.call,
                       "alerted": c.alerted, "late": c.late} for c in view.calls],
            "questions": [{"asker": str(a.question.asker), "index": a.question.index,
                           "answerer": str(a.question.answerer), "answer": a.question.answer,
                           "text": a.text} for a in self.questions],
            "cards": [{"seat": str(seat), "card": str(card)} for seat, card in view.cards],
            "lead_face_down": view.lead_face_down,
            "released": self.released, "withheld": self.withheld,
            "hands": None if self.hands is None else {
                str(seat): {suit.name: "".join(c.rank.char for c in sorted(
                    (c for c in cards if c.suit is suit), key=lambda c: c.rank, reverse=True))
                    for suit in SUITS}
                for seat, cards in self.hands.items()},
            "result": None if self.result is None else self.result.to_json(),
        }


def replay(db: Database, event: str, table: int, *,
           received_by: float | None = None) -> TableState | None:
    """The table's state from its stored events: from its latest assignment (which resets
    every board of the round) through every event stored without a gap, and, for the public,
    only those received by ``received_by`` (then each event's time is when it was received).
    The board shown is the one on the table, or the last one played until the next comes.
    None: nothing assigned to the table yet."""
    with db.read() as conn:
        contiguous = conn.execute(select(s.table_status.c.contiguous_seq).where(
            s.table_status.c.event == event, s.table_status.c.table_no == table)).scalar()
        if not contiguous:
            return None
        assigned = select(func.max(s.events.c.seq)).where(
            s.events.c.event == event, s.events.c.table_no == table,
            s.events.c.type == "assign", s.events.c.seq <= contiguous)
        if received_by is not None:
            assigned = assigned.where(s.events.c.received_at <= received_by)
        start = conn.execute(assigned).scalar()
        if start is None:
            return None
        rows = conn.execute(select(
            s.events.c.seq, s.events.c.type, s.events.c.ts, s.events.c.board,
            s.events.c.data, s.events.c.received_at).where(
            s.events.c.event == event, s.events.c.table_no == table,
            s.events.c.seq >= start, s.events.c.seq <= contiguous).order_by(
            s.events.c.seq)).all()
    state = TableState(seq=start - 1)
    last: BoardState | None = None
    for row in rows:
        if received_by is not None and row.received_at > received_by:
            break  # in order: nothing after a held event may be seen either
        ts = row.ts if received_by is None else row.received_at
        try:
            state.apply(Event(row.seq, EventType(row.type), ts, row.board,
                              json.loads(row.data)))
        except (StateError, RulesError, ValueError, KeyError, TypeError) as error:
            # Stored events the table's own state refuses (another version's journal): show
            # what came before, and say so in the log.
            log.warning("vugraph of table %d stops at event %d: %s", table, row.seq, error)
            break
        if state.board is not None:
            last = state.board
        elif row.type == "assign":
            last = None
    if state.board is None and last is not None:
        return dataclasses.replace(state, board=last)
    return state


def _hands(deal_pbn: str | None, board: BoardState | None) -> dict[Seat, frozenset[Card]]:
    if deal_pbn is not None:
        try:
            deal = Deal.from_pbn(deal_pbn)
            return {seat: frozenset(deal[seat]) for seat in Seat if seat in deal}
        except RulesError:
            pass
    if board is None:
        return {}
    return dict(board.known)


def _answered(view: View, state: TableState, language: str) -> tuple[Answered, ...]:
    conduct = state.conduct
    out: list[Answered] = []
    for question in view.questions:
        text = None
        if question.answer is not None:
            text = answer_text(conduct.card_of(question.answerer), question.answer, language)
        out.append(Answered(question, text))
    return tuple(out)


class VugraphOff(LookupError):
    """The director turned the public vugraph off (the console's switch)."""


def vugraph(db: Database, session: Session, table: int, *, now: float, delay: float,
            language: str, director: bool = False) -> Vugraph:
    """Table ``table`` as the public sees it at ``now``, by the session's rule (the module's
    docstring), or as the director sees it (``director``: everything, now). The public's
    view of a session whose vugraph is off raises :class:`VugraphOff`."""
    viewer: Viewer = DIRECTOR if director else PUBLIC
    live = director or session.vugraph == "live"
    if not director and session.vugraph == "off":
        raise VugraphOff(f"the public vugraph of {session.title!r} is off")
    if director or not live:
        delay = 0.0  # released boards are public whole: nothing to hold back
    state = replay(db, session.event, table, received_by=None if delay == 0 else now - delay)
    if state is None:
        state = TableState()
    view = view_for(viewer, state, None if director else now, delay=delay)
    board = state.board
    released = False
    hands: Mapping[Seat, frozenset[Card]] | None = None
    result: ResultRow | None = None
    if view.board is not None:
        released = director or view.board in released_boards(db, session)
        if released:
            hands = _hands(deals_of(db, session).get(view.board), board)
            rows = all_results(db, session) if director else public_results(db, session)
            result = next((r for r in rows if r.table == table and r.board == view.board),
                          None)
    withheld = view.board is not None and not released and not live
    if withheld:
        # The results pages' release rule: nothing of a board that another table may still
        # have to play; its number and conditions are no secret.
        view = dataclasses.replace(view, calls=(), questions=(), cards=(), dummy=None,
                                   lead_face_down=False, result=None)
    screens = state.conduct.screens
    return Vugraph(table, viewer, delay, view,
                   None if screens is None else screens.name,
                   state.conduct.profile.name if state.assignment else DEFAULT_PROFILE.name,
                   _answered(view, state, language), released, hands, result, withheld)


# -- the public page's stream -------------------------------------------------------------

TICK = 0.5
"""Seconds between looks at what is due on a vugraph stream (no database is read)."""
WANTED = frozenset({"tables", "results"})


def _kinds(chunk: str) -> frozenset[str]:
    """The kinds of a ``change`` message of the hub's stream (server/link/live.py's format)."""
    lines = chunk.splitlines()
    if "event: change" not in lines:
        return frozenset()
    for line in lines:
        if line.startswith("data: "):
            return frozenset(json.loads(line[6:]).get("kinds", ()))
    return frozenset()


def held(db: Database, event: str, table: int, *, now: float, delay: float) -> list[float]:
    """Seconds from ``now`` until each event of ``table`` received but still held back
    becomes public: a page that connects mid-board is told then, as if it had been there."""
    with db.read() as conn:
        received = conn.execute(select(s.events.c.received_at).distinct().where(
            s.events.c.event == event, s.events.c.table_no == table,
            s.events.c.received_at > now - delay)).scalars().all()
    return sorted(max(0.0, at + delay - now) for at in received)


def delayed(hub: Hub, delay: float, *, soon: Iterable[float] = (), tick: float = TICK,
            clock: Callable[[], float] = time.monotonic) -> Iterator[str]:
    """The hub's stream for a public vugraph page, each change of the tables told ``delay``
    seconds late: the page fetches when the delayed view has something new, and the stream
    never says sooner than the view shows that a table did something (its tempo is
    information too). ``soon``: seconds from now when what was received before the page
    connected becomes public (``held``). A release (kind ``results``) is told at once: a
    released board's hands are public from that moment. Same slots, ``hello`` and heartbeat
    as the hub's own."""
    def slot(when: float) -> float:
        # When the page is to fetch, rounded up to the tick: changes within one tick are
        # told once, never before the later of them shows (told at the first, the page would
        # fetch a view without the later one and then hear nothing more of it).
        return math.ceil(when / tick) * tick

    inner = hub.stream(WANTED, heartbeat=tick)
    quiet_since = clock()
    due = sorted({slot(quiet_since + seconds) for seconds in soon})
    try:
        for chunk in inner:
            now = clock()
            if chunk.startswith("retry: 30000") or "event: hello" in chunk:
                yield chunk  # every slot taken (the stream ends), or the greeting
                quiet_since = now
                continue
            kinds = _kinds(chunk)
            if "results" in kinds:
                bisect.insort(due, now)  # kept in order: a release is told now, whatever waits
            if "tables" in kinds:
                when = slot(now + delay)
                if when not in due:
                    bisect.insort(due, when)
            if due and due[0] <= now:
                due = [when for when in due if when > now]
                yield f"event: change\ndata: {json.dumps({'kinds': ['vugraph']})}\n\n"
                quiet_since = now
            elif now - quiet_since >= HEARTBEAT:
                yield ": idle\n\n"
                quiet_since = now
    finally:
        close = getattr(inner, "close", None)  # the hub's generator: frees its slot now
        if close is not None:
            close()
