"""The ingest's project phase: the rows derived from stored events, one function per event type
that makes any (``DERIVE``, keyed by type and checked at import), each a plain function of the
ingest's :class:`~server.link.ingest.context.Context` and the event's typed value.

Results (a table's score is recomputed here with ``laws``, never trusted, only kept
beside ours to show a disagreement), who sat at a board, the director's calls and their
acknowledgements, the answers to the server's commands, and the director's scores (Law 12C).
Each handler runs once per event newly stored; a resend that fills a gap repairs what was
derived before it, so the rows do not depend on the order events arrive in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection, and_, bindparam, insert, select, update

from laws import Card, RulesError, Seat, parse_contract
from laws.scoring import score_ns
from server.scoring.fieldscore import parse_adjusted
from server.setup import player_register as register
from server.setup.session import capture_deal
from server.storage import schema as s
from tablemodel.rulings import KINDS as RULING_KINDS
from tablemodel.rulings import Effect
from tablemodel.wire import (
    Assign,
    CardPlayed,
    Command,
    DealCaptured,
    DirectorCalled,
    Event,
    EventType,
    Player,
    Refused,
    ResultMade,
    RosterAdded,
    RulingData,
)

from .context import Context, Seated
from .outcome import Outcome
from .sql import Prepared, select_in
from .store import Statuses

log = logging.getLogger(__name__)
_P = TypeVar("_P")


SEATING = frozenset({EventType.ASSIGN, EventType.PLAYER})
"""The events that change who sits at a table (server/setup/player_register.py ``seated``):
the console's seated list fetches on them, not on every card."""


def project(ctx: Context, conn: Connection, table: int, event: Event, outcome: Outcome,
             batch: Statuses) -> None:
    """The rows ``event``, newly stored, derives (most types derive none)."""
    if event.type in SEATING:  # who sits at the table: the console's seated list
        outcome.changed.add("seated")
    derive = DERIVE[event.type]
    if derive is not None:
        derive(ctx, conn, table, event, outcome, batch)


def _effect(kind: object) -> Effect:
    """What the server does with a ruling of ``kind`` once applied; nothing for a kind this
    server does not know (the wire refuses those before they get here)."""
    found = RULING_KINDS.get(kind) if isinstance(kind, str) else None
    return Effect.NONE if found is None else found.effect


def _allowed_board(ctx: Context, table: int, event: Event, outcome: Outcome,
                   what: str) -> int | None:
    """The board of ``event`` (a result or a deal) if the table may have one on it now;
    else None, with the refusal in ``outcome``."""
    if event.board is None:
        outcome.rejected = f"table {table} event {event.seq}: {what} without a board"
        return None
    refusal = ctx.allowed(table, event.board) if ctx.allowed is not None else None
    if refusal is not None:
        outcome.rejected = f"table {table} event {event.seq}: {refusal}"
        return None
    return event.board


def _on_result(ctx: Context, conn: Connection, table: int, event: Event, outcome: Outcome,
               batch: Statuses) -> None:
    board = _allowed_board(ctx, table, event, outcome, "a result")
    if board is None:
        return
    row = result_row(ctx, conn, table, event)
    key = {"b_event": ctx.event, "b_table": table, "b_board": board}
    current = _RESULT_NOW(conn, **key).first()
    if current is not None and current.source_seq > event.seq and current.contract is None:
        # A resend brought the board's result after the director's score for it: the
        # score stands, and the contract played joins it for the record.
        conn.execute(update(s.results).where(_key(ctx.event, table, board)).values(
            contract=row["contract"], declarer=row["declarer"], tricks=row["tricks"],
            lead=row["lead"], table_score_ns=row["table_score_ns"]))
        outcome.changed.add("results")
        return
    if current is None:
        _INSERT_RESULT(conn, event=ctx.event, table_no=table, board=board, **row)
    elif current.corrected_by is not None:
        # The director corrected this board on the server: the table's result is kept in
        # its events, but the correction stands until the director changes it.
        log.warning("table %d board %d: result event %d left aside, the director's "
                    "correction stands", table, board, event.seq)
        return
    elif current.source_seq < event.seq:  # a later result supersedes (a ruling's score)
        conn.execute(update(s.results).where(_key(ctx.event, table, board)).values(**row))
    outcome.changed.add("results")


def result_row(ctx: Context, conn: Connection, table: int, event: Event) -> dict[str, Any]:
    data = event.value(ResultMade)
    board = int(event.board or 0)
    contract_text = data.contract
    declarer = None if data.declarer is None else str(data.declarer)
    tricks = data.tricks
    # A table never adjusts its own score: adjusted and assigned scores (Law 12C) come
    # only from the director's rulings (_scored_by_ruling) or corrections.
    adjusted = None
    score = recompute(ctx, table, event)
    seated = _seated(ctx, conn, table, board, event.seq)
    return {
        "round": seated.round, "ns": seated.ns, "ew": seated.ew,
        "contract": contract_text, "declarer": declarer, "tricks": tricks,
        # The table says which lead stood; an older table's result is read from its cards.
        "lead": str(data.lead) if data.lead is not None else _lead(ctx, conn, table, board),
        "score_ns": score, "table_score_ns": data.score_ns, "adjusted": adjusted,
        "transferred": data.transferred,  # Law 64A, apart from the tricks
        "source_seq": event.seq, "finished_at": event.ts, "corrected_by": None,
    }


def recompute(ctx: Context, table: int, event: Event) -> int | None:
    """The NS score under Law 77 from the contract, declarer and tricks."""
    data = event.value(ResultMade)
    try:
        contract = parse_contract(data.contract or "Pass")
        score = score_ns(contract, data.declarer, data.tricks,
                         ctx.vulnerability(int(event.board or 0)))
    except (RulesError, ValueError) as error:
        log.warning("table %d event %d: result cannot be scored: %s", table, event.seq, error)
        return None
    if score != data.score_ns:
        log.warning("table %d board %s: table scored %s, the laws give %d", table,
                    event.board, data.score_ns, score)
    return score


def _seated(ctx: Context, conn: Connection, table: int, board: int, seq: int) -> Seated:
    """Who played: the table's own latest assignment holding the board, else the
    movement's plan."""
    assigns = [_stored(EventType.ASSIGN, text, Assign) for text in _ASSIGNS_BEFORE(
        conn, b_event=ctx.event, b_table=table, b_seq=seq).scalars()]
    # What the server sent under those commands' ids, in one query by primary key (not
    # one query an assignment): a table's word for what a command held is not taken.
    sent = {row.id: row.data for row in select_in(
        conn, s.commands.name, ("id", "table_no", "type", "data"), "event", ctx.event,
        "id", sorted({data.cmd for data in assigns}))
        if row.table_no == table and row.type == "assign"}
    claimed: Seated | None = None
    for data in assigns:
        text = sent.get(data.cmd)
        held = None if text is None else Command.from_row(data.cmd, "assign",
                                                          text).value(Assign)
        if held is not None and board in held.boards:
            return Seated(held.round, held.ns, held.ew)
        if claimed is None and board in data.boards:
            claimed = Seated(data.round, data.ns, data.ew)
    # No assignment of ours names the board: the movement's plan, and only without a
    # session (nothing to protect) what the table itself says.
    planned = ctx.seating(table, board) if ctx.seating is not None else None
    if planned is not None:
        return planned
    return claimed if claimed is not None else Seated(None, None, None)


def _result_lead(ctx: Context, conn: Connection, table: int, seq: int | None) -> Card | None:
    """The lead the stored result event a results row came from names (None for a row
    the director wrote, or a result that names none)."""
    if seq is None:
        return None
    found = conn.execute(select(s.events.c.data).where(
        s.events.c.event == ctx.event, s.events.c.table_no == table,
        s.events.c.seq == seq)).scalar()
    return None if found is None else _stored(EventType.RESULT, found, ResultMade).lead


def _lead(ctx: Context, conn: Connection, table: int, board: int) -> str | None:
    first = _FIRST_CARD(conn, b_event=ctx.event, b_table=table, b_board=board).scalar()
    return None if first is None else str(_stored(EventType.CARD, first, CardPlayed).card)


def _on_deal(ctx: Context, conn: Connection, table: int, event: Event, outcome: Outcome,
             batch: Statuses) -> None:
    """Boards dealt at the table: the first table to scan a board's four hands gives its
    hand record (the double-dummy analysis follows once the board is released)."""
    board = _allowed_board(ctx, table, event, outcome, "a deal")
    if board is None:
        return
    differ = capture_deal(conn, ctx.event, board, event.value(DealCaptured).deal, table,
                          event.ts)
    if differ is None:
        return
    outcome.changed.add("analysis")  # the hand record pages show the deal now
    if differ:
        # Law 87: a table that scanned its hands before the first table's deal reached it
        # (both started the board at once) holds other cards: a fouled board. The first
        # deal stays the hand record; the director is called to the later table.
        conn.execute(insert(s.director_calls).values(
            event=ctx.event, table_no=table, seq=event.seq, board=board, seat=None,
            reason="fouled_board", law="87",
            detail=(f"the hands of {' '.join(map(str, differ))} differ from the deal "
                    f"captured first"), called_at=event.ts))
        outcome.changed.add("calls")


def _on_card(ctx: Context, conn: Connection, table: int, event: Event, outcome: Outcome,
             batch: Statuses) -> None:
    # A card that arrives after its board's result (a resent gap) may be the lead; a card
    # in order cannot follow its own board's result, so it needs no look.
    if event.board is None or event.seq > batch.before[table]:
        return
    key = and_(s.results.c.event == ctx.event, s.results.c.table_no == table,
               s.results.c.board == event.board)
    found = conn.execute(select(s.results.c.source_seq).where(key)).first()
    if found is not None and _result_lead(ctx, conn, table, found.source_seq) is None:
        conn.execute(update(s.results).where(key).values(
            lead=_lead(ctx, conn, table, event.board)))
        outcome.changed.add("results")


def _on_director(ctx: Context, conn: Connection, table: int, event: Event, outcome: Outcome,
                 batch: Statuses) -> None:
    data = event.value(DirectorCalled)
    conn.execute(insert(s.director_calls).values(
        event=ctx.event, table_no=table, seq=event.seq, board=event.board,
        seat=None if data.seat is None else str(data.seat), reason=data.reason,
        law=data.law, detail=data.detail, called_at=event.ts))
    outcome.changed.add("calls")
    # The table's acknowledgement may have come first (a resend fills the gap after it).
    acks = conn.execute(select(s.events.c.data, s.events.c.ts).where(
        s.events.c.event == ctx.event, s.events.c.table_no == table,
        s.events.c.type == "ruling", s.events.c.seq > event.seq)).all()
    for text, ts in acks:
        ack = _stored(EventType.RULING, text, RulingData)
        if _effect(ack.kind) is Effect.ACKNOWLEDGE and ack.call in (None, event.seq):
            conn.execute(update(s.director_calls).where(
                s.director_calls.c.event == ctx.event,
                s.director_calls.c.table_no == table, s.director_calls.c.seq == event.seq)
                .values(acknowledged_at=ts, acknowledged_by="table"))
            break


def _sent(ctx: Context, conn: Connection, table: int, ident: str, kind: str) -> Command | None:
    """A command of ``kind`` the server sent this table, or None: what a table says a
    command held is never taken on its word."""
    text = _SENT_OF_KIND(conn, b_event=ctx.event, b_table=table, b_id=ident,
                         b_type=kind).scalar()
    return None if text is None else Command.from_row(ident, kind, text)


def _answer(ctx: Context, conn: Connection, table: int, event: Event, command: str | None,
            outcome: Outcome, reason: str | None = None) -> None:
    # Only this table's own command: another table cannot answer it for it.
    _ANSWER(conn, b_event=ctx.event, b_table=table, b_id=command,
            answer_seq=event.seq, answer=str(event.type), answer_reason=reason)
    outcome.changed.add("commands")


def _on_assign(ctx: Context, conn: Connection, table: int, event: Event, outcome: Outcome,
               batch: Statuses) -> None:
    data = event.value(Assign)
    batch.set(table, round=data.round)
    _answer(ctx, conn, table, event, data.cmd, outcome)
    # A resend may bring the assignment after results of its boards: they learn now who
    # sat there.
    boards = set(data.boards)
    waiting = [row for row in _UNSEATED(conn, b_event=ctx.event, b_table=table).all()
               if row.board in boards]
    for row in waiting:
        board = row.board
        seated = _seated(ctx, conn, table, board, max(row.source_seq, event.seq + 1))
        conn.execute(update(s.results).where(
            s.results.c.event == ctx.event, s.results.c.table_no == table,
            s.results.c.board == board).values(round=seated.round, ns=seated.ns,
                                               ew=seated.ew))
        outcome.changed.add("results")


def _on_ruling(ctx: Context, conn: Connection, table: int, event: Event, outcome: Outcome,
               batch: Statuses) -> None:
    data = event.value(RulingData)
    _answer(ctx, conn, table, event, data.cmd, outcome)
    effect = _effect(data.kind)  # each kind says its effect (tablemodel/rulings.py)
    if effect is Effect.SCORE and event.board is not None:
        _scored_by_ruling(ctx, conn, table, event, data, outcome)
    if effect is Effect.ACKNOWLEDGE:  # the table has taken the director's answer
        which = data.call
        query = update(s.director_calls).where(
            s.director_calls.c.event == ctx.event, s.director_calls.c.table_no == table,
            s.director_calls.c.acknowledged_at.is_(None))
        if which is not None:
            query = query.where(s.director_calls.c.seq == which)
        conn.execute(query.values(acknowledged_at=event.ts, acknowledged_by="table"))
        outcome.changed.add("calls")


def _scored_by_ruling(ctx: Context, conn: Connection, table: int, event: Event, ruling: RulingData,
                      outcome: Outcome) -> None:
    """The director's score, as the table applied it: artificial (Law 12C2) or assigned
    (Law 12C1). It replaces the board's result; the contract played stays for the record."""
    board = int(event.board or 0)
    command = None if ruling.cmd is None else _sent(ctx, conn, table, ruling.cmd, "ruling")
    sent = None if command is None else command.value(RulingData)
    if sent is None or _effect(sent.kind) is not Effect.SCORE:
        outcome.rejected = (f"table {table} event {event.seq}: a score ruling the server "
                            f"never sent ({ruling.cmd!r})")
        return
    adjusted = sent.adjusted or "assigned"
    try:
        artificial = parse_adjusted(adjusted)
    except ValueError:
        artificial = None
    key = and_(s.results.c.event == ctx.event, s.results.c.table_no == table,
               s.results.c.board == board)
    current = conn.execute(select(s.results).where(key)).first()
    if (current is not None and current.source_seq >= event.seq
            and current.corrected_by is None):
        return
    values: dict[str, Any] = {
        "score_ns": None if artificial is not None else sent.score_ns or 0,
        "adjusted": adjusted, "source_seq": event.seq, "finished_at": event.ts,
        "corrected_by": None}  # the director's later ruling replaces an earlier fix
    if current is None:
        seated = _seated(ctx, conn, table, board, event.seq)
        conn.execute(insert(s.results).values(
            event=ctx.event, table_no=table, board=board, round=seated.round,
            ns=seated.ns, ew=seated.ew, lead=_lead(ctx, conn, table, board), **values))
    else:
        conn.execute(update(s.results).where(key).values(**values))
    outcome.changed.add("results")


def _on_roster(ctx: Context, conn: Connection, table: int, event: Event, outcome: Outcome,
               batch: Statuses) -> None:
    # the visitor reached the table (issue 17)
    _answer(ctx, conn, table, event, event.value(RosterAdded).cmd, outcome)


def _on_player(ctx: Context, conn: Connection, table: int, event: Event, outcome: Outcome,
               batch: Statuses) -> None:
    """The register names a pair once both its players sat down (issue 17): "Ana Ruiz &
    Luis Gil", unless the pair has names already (the director's stand). The console, the
    live page and the exports then show them. Only the seated numbers are read from the
    session's register, not all of it: this runs for every player who sits down.
    A player who is not in the register (or a seat left empty) completes no pair, and
    the other pair of the table was named when its own second player sat down: nothing
    more is read then (at a simultaneous's round start, a thousand tables' four players
    each, this was four queries a player for a session with no register)."""
    number = event.value(Player).number
    if number is None:
        return
    found = _SESSION_OF(conn, b_event=ctx.event).first()
    if found is None or found.movement not in register.PAIR_MOVEMENTS:
        return
    if _IN_REGISTER(conn, b_session=found.id, b_number=number).first() is None:
        return
    assign = _LAST_ASSIGN(conn, b_event=ctx.event, b_table=table, b_seq=event.seq).first()
    if assign is None:
        return
    seats: register.Seats = {}
    for text in _PLAYERS_AFTER(conn, b_event=ctx.event, b_table=table,
                               b_seq=assign.seq).scalars():
        sat = _stored(EventType.PLAYER, text, Player)
        seats[sat.seat] = sat.number
    numbers = sorted({n for n in seats.values() if n is not None})
    players = {row.number: register.Member(row.number, row.name, row.licence,
                                           bool(row.visitor))
               for row in select_in(conn, s.session_players.name,
                                    ("number", "name", "licence", "visitor"),
                                    "session_id", found.id, "number", numbers)}
    if not players:
        return  # a session with no register, or none of these in it: nothing to name by
    named = register.names_at(seats, players)
    pairs = _stored(EventType.ASSIGN, assign.data, Assign)
    for pair, (one, two) in ((pairs.ns, (Seat.N, Seat.S)), (pairs.ew, (Seat.E, Seat.W))):
        if seats.get(one) not in players or seats.get(two) not in players:
            continue
        done = _NAME_PAIR(conn, b_session=found.id, b_pair=pair,
                          names=f"{named[one]} & {named[two]}"[:200])
        if done.rowcount > 0:
            outcome.changed.add("results")


def _on_refused(ctx: Context, conn: Connection, table: int, event: Event, outcome: Outcome,
                batch: Statuses) -> None:
    refused = event.value(Refused)
    _answer(ctx, conn, table, event, refused.cmd, outcome, reason=refused.reason)


def _stored(kind: EventType, text: str, value: type[_P]) -> _P:
    """The value of a stored event's data (its ``data`` column), of type ``kind``: checked by
    the wire as it came in."""
    return Event.from_row(0, kind, 0.0, None, text, checked=True).value(value)


# -- the statements of the common paths, compiled once (server.link.ingest.sql) --------------------


def _key(event: str, table: int, board: int) -> Any:
    return and_(s.results.c.event == event, s.results.c.table_no == table,
                s.results.c.board == board)


_RESULT_NOW = Prepared(select(s.results.c.source_seq, s.results.c.corrected_by,
                              s.results.c.contract).where(
    s.results.c.event == bindparam("b_event"), s.results.c.table_no == bindparam("b_table"),
    s.results.c.board == bindparam("b_board")))
_INSERT_RESULT = Prepared(insert(s.results).values(
    {c.name: bindparam(c.name) for c in s.results.columns}))
_ASSIGNS_BEFORE = Prepared(select(s.events.c.data).where(
    s.events.c.event == bindparam("b_event"), s.events.c.table_no == bindparam("b_table"),
    s.events.c.type == "assign", s.events.c.seq < bindparam("b_seq")).order_by(
    s.events.c.seq.desc()))
_FIRST_CARD = Prepared(select(s.events.c.data).where(
    s.events.c.event == bindparam("b_event"), s.events.c.table_no == bindparam("b_table"),
    s.events.c.board == bindparam("b_board"), s.events.c.type == "card").order_by(
    s.events.c.seq).limit(1))
_SENT_OF_KIND = Prepared(select(s.commands.c.data).where(
    s.commands.c.event == bindparam("b_event"), s.commands.c.table_no == bindparam("b_table"),
    s.commands.c.id == bindparam("b_id"), s.commands.c.type == bindparam("b_type")))
_ANSWER = Prepared(update(s.commands).where(
    s.commands.c.event == bindparam("b_event"), s.commands.c.table_no == bindparam("b_table"),
    s.commands.c.id == bindparam("b_id"), s.commands.c.answer_seq.is_(None)).values(
    answer_seq=bindparam("answer_seq"), answer=bindparam("answer"),
    answer_reason=bindparam("answer_reason")))
_UNSEATED = Prepared(select(s.results.c.board, s.results.c.source_seq).where(
    s.results.c.event == bindparam("b_event"), s.results.c.table_no == bindparam("b_table"),
    s.results.c.round.is_(None)))
_SESSION_OF = Prepared(select(s.sessions.c.id, s.sessions.c.movement).where(
    s.sessions.c.event == bindparam("b_event")))
_LAST_ASSIGN = Prepared(select(s.events.c.seq, s.events.c.data).where(
    s.events.c.event == bindparam("b_event"), s.events.c.table_no == bindparam("b_table"),
    s.events.c.type == "assign", s.events.c.seq < bindparam("b_seq")).order_by(
    s.events.c.seq.desc()).limit(1))
_PLAYERS_AFTER = Prepared(select(s.events.c.data).where(
    s.events.c.event == bindparam("b_event"), s.events.c.table_no == bindparam("b_table"),
    s.events.c.type == "player", s.events.c.seq > bindparam("b_seq")).order_by(
    s.events.c.seq))
_IN_REGISTER = Prepared(select(s.session_players.c.number).where(
    s.session_players.c.session_id == bindparam("b_session"),
    s.session_players.c.number == bindparam("b_number")))
_NAME_PAIR = Prepared(update(s.participants).where(
    s.participants.c.session_id == bindparam("b_session"),
    s.participants.c.number == bindparam("b_pair"), s.participants.c.names == "").values(
    names=bindparam("names")))


_Derive = Callable[[Context, Connection, int, Event, Outcome, Statuses], None]
#: The rows each event type derives, by type: None where the stored event is all there is.
#: Every type has its entry (checked below), so a new type is a decision, not a silence.
DERIVE: dict[EventType, _Derive | None] = {
    EventType.RESULT: _on_result, EventType.CARD: _on_card,
    EventType.DIRECTOR: _on_director, EventType.ASSIGN: _on_assign,
    EventType.RULING: _on_ruling, EventType.ROSTER: _on_roster,
    EventType.PLAYER: _on_player, EventType.REFUSED: _on_refused,
    EventType.DEAL: _on_deal,
    EventType.BOARD: None, EventType.HAND_CARD: None, EventType.CALL: None,
    EventType.CHANGE: None, EventType.ALERT: None, EventType.QUESTION: None,
    EventType.ANSWER: None, EventType.TRAY: None, EventType.FACED: None,
    EventType.CLAIM: None, EventType.CLAIM_ANSWER: None, EventType.CONFIRM: None,
    EventType.OPTION: None,
}
if set(DERIVE) != set(EventType):
    raise AssertionError(f"event types with no entry in DERIVE: {set(EventType) - set(DERIVE)}")
