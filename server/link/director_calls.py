"""The director's rulings, calls and corrections: the console's service layer.

A ruling goes to a table as a ``ruling`` command (docs/mqtt.md) in the ``commands`` outbox,
which the bus publishes; the table applies it and answers with a ``ruling`` or ``refused``
event. Every ruling is checked here against the wire's own schema (built, encoded and decoded
again) and against what its kind needs, so nothing a table would refuse as malformed is ever
queued. A result fixed after the table moved on is a *correction*: the ``results`` row changes
here, its score recomputed with ``laws``, and a ``corrections`` row keeps who, when,
and what was there before. Commands and corrections together are the session's audit trail.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, insert, select, update

from laws import RulesError, Seat, Vulnerability, format_contract, parse_contract
from laws.scoring import score_ns as duplicate_score_ns
from server.errors import Refused
from server.scoring.fieldscore import parse_adjusted
from server.scoring.results import write_result
from server.setup.session import Session, board_conditions
from server.storage import schema as s
from server.storage.db import Database
from server.texts.i18n import PAGES, language, t
from tablemodel.rulings import FIELDS as RULING_FIELDS
from tablemodel.rulings import KINDS as RULING_KINDS
from tablemodel.rulings import Choice, Effect, Field, RulingDataError, choice_name, kind_of
from tablemodel.wire import Command, Event, RulingData, WireError, message_of

Clock = Callable[[], float]


class RulingError(Refused):
    """A ruling or correction that cannot be queued or made; the message says why."""


#: Every kind of ruling is defined once, in tablemodel.rulings: its fields, what it requires,
#: its laws, its words, and how the table applies it. Here only what the server adds.
KINDS = RULING_KINDS
LAWS: Mapping[str, str] = {name: kind.laws for name, kind in KINDS.items()}
#: The kinds the console's form offers (an acknowledgement goes from the calls' list).
CONSOLE_KINDS = tuple(name for name, kind in KINDS.items() if kind.console)
#: The kind the server sends a table when the director answers its call (Law 9B1).
ACKNOWLEDGEMENT: str = next(name for name, kind in KINDS.items()
                            if kind.effect is Effect.ACKNOWLEDGE)
PAGES.add({f"console_kind_{name}": kind.words for name, kind in KINDS.items()})


def form_fields() -> list[tuple[Field, tuple[str, ...]]]:
    """The console form's fields, each once, with the kinds that take it, in the order the
    kinds name them."""
    users: dict[str, list[str]] = {}
    for name in CONSOLE_KINDS:
        for spec in KINDS[name].fields:
            users.setdefault(spec.name, []).append(name)
    return [(RULING_FIELDS[name], tuple(kinds)) for name, kinds in users.items()]


def field_label(name: str) -> str:
    """A ruling field's name in the page's language (the record shows every field)."""
    spec = RULING_FIELDS.get(name)
    return name if spec is None else spec.words[language()]


def field_value(name: str, value: Any) -> str:
    """A ruling field's value as the console shows it: a choice's words, a suit's name."""
    spec = RULING_FIELDS.get(name)
    if value is None:
        return "–"
    if spec is not None and spec.kind == "choice":
        for choice in spec.choices:
            if choice.value == value:
                return choice.words[language()]
    if spec is not None and spec.kind == "suit":
        return t(f"console_suit_{value}")
    return str(value)


def choice_value(choice: Choice) -> str:
    """A choice as the console's form posts it (tablemodel.rulings.Field.value_of reads it)."""
    return choice_name(choice.value)


def ruling_data(kind: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The ``ruling`` command's data for ``kind``, checked; ``fields`` beyond the kind's own
    are ignored, blank ones are left out (a claim's blank ``tricks`` means play on)."""
    try:
        data = kind_of(kind).data(fields)
        if "adjusted" in data:
            # Law 12C2: which artificial scores there are is the field scoring's.
            parse_adjusted(data["adjusted"])
    except (RulingDataError, ValueError) as error:
        message = str(error)
        raise RulingError(message if message.startswith(kind) or "ruling" in message
                          else f"{kind}: {message}") from None
    return _on_the_wire(kind, data)


def _on_the_wire(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The data as the wire reads it: built into a command, encoded and decoded again."""
    try:
        decoded = Command.from_payload(Command("check", "ruling", data).to_payload())
    except WireError as error:
        raise RulingError(str(error).replace("command check (ruling)", kind)) from None
    if dict(decoded.data) != data:  # the round trip must give back exactly what we send
        raise RulingError(f"{kind}: {data} does not survive the wire")
    return dict(decoded.data)


# -- rulings to tables -----------------------------------------------------------------------

def queue_ruling(db: Database, session: Session, table: int, kind: str,
                 fields: Mapping[str, Any], *, by: str, note: str | None,
                 board: int | None = None, clock: Clock = time.time) -> str:
    """Check and queue one ruling for ``table``; its command id. The board defaults to the
    one the table is on now. The caller wakes the bus (``services().commands_queued()``)."""
    if not 1 <= table <= session.tables:
        raise RulingError(f"table {table} is not between 1 and {session.tables}")
    note = (note or "").strip()
    # A kind the console offers is the director's: its note is the ruling's record. The
    # others (the acknowledgement of a call) the server sends by itself.
    if not note and (kind not in KINDS or KINDS[kind].console):
        raise RulingError("say why: the note is the ruling's record")
    data = ruling_data(kind, fields)
    ident = uuid.uuid4().hex
    with db.write() as conn:
        if board is None and kind_of(kind).needs_board:  # the kind says (tablemodel/rulings.py)
            board = conn.execute(select(s.table_status.c.board).where(
                s.table_status.c.event == session.event,
                s.table_status.c.table_no == table)).scalar()
        conn.execute(insert(s.commands).values(
            id=ident, event=session.event, table_no=table, type="ruling",
            data=json.dumps(data), created_at=clock(), created_by=by, board=board,
            note=note[:200] or None))
    return ident


# -- director calls --------------------------------------------------------------------------

@dataclass(frozen=True)
class DirectorCall:
    id: int
    table: int
    seq: int
    board: int | None
    seat: str | None
    reason: str
    law: str | None
    detail: str | None
    called_at: float
    acknowledged_at: float | None
    acknowledged_by: str | None
    resolved_at: float | None
    resolved_by: str | None
    #: the detail as the table's message (code, params), which the console says in its
    #: language; None for a call without (an old journal's, the server's own)
    message: tuple[str, dict[str, Any]] | None = None


def calls(db: Database, event: str, *, open_only: bool = True) -> list[DirectorCall]:
    """The director calls of ``event``, oldest first (a queue): the open ones by default.
    Each with the message its table's director event carried (the stored event)."""
    calls_, events = s.director_calls, s.events
    query = select(calls_, events.c.data.label("event_data")).outerjoin(events, and_(
        events.c.event == calls_.c.event, events.c.table_no == calls_.c.table_no,
        events.c.seq == calls_.c.seq, events.c.type == "director")).where(
        calls_.c.event == event)
    if open_only:
        query = query.where(calls_.c.resolved_at.is_(None))
    with db.read() as conn:
        rows = conn.execute(query.order_by(calls_.c.called_at, calls_.c.id)).all()
    return [DirectorCall(r.id, r.table_no, r.seq, r.board, r.seat, r.reason, r.law, r.detail,
                         r.called_at, r.acknowledged_at, r.acknowledged_by, r.resolved_at,
                         r.resolved_by, _message(r.event_data)) for r in rows]


def _message(data: str | None) -> tuple[str, dict[str, Any]] | None:
    """The message a stored event carries (tablemodel.wire reads it), or None."""
    return None if data is None else message_of(json.loads(data))


def _call_row(conn: Any, event: str, call_id: int) -> Any:
    row = conn.execute(select(s.director_calls).where(
        s.director_calls.c.event == event, s.director_calls.c.id == call_id)).first()
    if row is None:
        raise RulingError(f"no director call {call_id}")
    return row


def acknowledge(db: Database, event: str, call_id: int, *, by: str,
                clock: Clock = time.time) -> str:
    """The director is on the way: the call is marked, and the table told (``director_ack``)
    so its displays clear. Acknowledging twice queues one command; its id."""
    with db.write() as conn:
        row = _call_row(conn, event, call_id)
        ident = f"ack-{event}-t{row.table_no}-{row.seq}"[:64]
        now = clock()
        if row.acknowledged_at is None:
            conn.execute(update(s.director_calls).where(s.director_calls.c.id == row.id)
                         .values(acknowledged_at=now, acknowledged_by=by))
        if conn.execute(select(s.commands.c.id).where(s.commands.c.id == ident)).first():
            return ident
        data = ruling_data(ACKNOWLEDGEMENT, {"call": row.seq})
        conn.execute(insert(s.commands).values(
            id=ident, event=event, table_no=row.table_no, type="ruling",
            data=json.dumps(data), created_at=now, created_by=by, board=row.board))
    return ident


def resolve(db: Database, event: str, call_id: int, *, by: str, clock: Clock = time.time) -> int:
    """The director has dealt with the call: it leaves the queue. A call resolved without
    "on my way" first is acknowledged too, so the table's displays stop saying "director
    called". The call's table (its open calls in the tables grid changed)."""
    with db.read() as conn:
        acknowledged = _call_row(conn, event, call_id).acknowledged_at is not None
    if not acknowledged:
        acknowledge(db, event, call_id, by=by, clock=clock)
    with db.write() as conn:
        row = _call_row(conn, event, call_id)
        if row.resolved_at is None:
            conn.execute(update(s.director_calls).where(s.director_calls.c.id == row.id)
                         .values(resolved_at=clock(), resolved_by=by))
    return int(row.table_no)


# -- corrections on the server ---------------------------------------------------------------

_AUDITED = ("contract", "declarer", "tricks", "score_ns", "adjusted", "corrected_by")


def correct_result(db: Database, session: Session, table: int, board: int, *,
                   contract: str | None, declarer: str | None, tricks: int | None,
                   adjusted: str | None, score_ns: int | None, by: str, note: str | None,
                   clock: Clock = time.time) -> dict[str, Any]:
    """Fix the result of ``table`` on ``board`` (or enter one that never arrived); the row
    as it is now. The score comes from the laws, never from what was typed, except an
    assigned score (Law 12C1); an artificial score (Law 12C2) has none."""
    if board not in session.plan.boards():
        raise RulingError(f"board {board} is not played in this session")
    if not 1 <= table <= session.tables:
        raise RulingError(f"table {table} is not between 1 and {session.tables}")
    vulnerability = board_conditions(session, board)[1]
    after = _corrected(board, contract, declarer, tricks, adjusted, score_ns, vulnerability)
    after["corrected_by"] = by
    now = clock()
    with db.write() as conn:
        # The director's count stands whole: no revoke transfer apart from it any more.
        before = write_result(conn, session, table, board, {**after, "transferred": None},
                              now, _AUDITED)
        conn.execute(insert(s.corrections).values(
            event=session.event, table_no=table, board=board, kind="result",
            detail=json.dumps({"before": before, "after": after}, sort_keys=True),
            note=(note or "").strip()[:200] or None, made_by=by, made_at=now))
    return after


def _corrected(board: int, contract: str | None, declarer: str | None, tricks: int | None,
               adjusted: str | None, score_ns: int | None,
               vulnerability: Vulnerability) -> dict[str, Any]:
    adjusted = (adjusted or "").strip() or None
    if adjusted is not None and len(adjusted) > 16:
        raise RulingError(f"an adjusted score is at most 16 characters, not {adjusted!r}")
    try:
        artificial = parse_adjusted(adjusted)
    except ValueError as error:
        raise RulingError(str(error)) from None
    try:
        parsed = parse_contract(contract.strip()) if contract and contract.strip() else None
        seat = Seat.from_str(declarer.strip().upper()) if declarer and declarer.strip() else None
    except RulesError as error:
        raise RulingError(str(error)) from None
    text = format_contract(parsed) if parsed is not None else ("Pass" if contract else None)
    values = {"contract": text,
              "declarer": None if seat is None or parsed is None else str(seat),
              "tricks": tricks if parsed is not None else None, "adjusted": adjusted}
    if artificial is not None:
        # Law 12C2: an artificial adjusted score replaces the result; it has no points.
        return {**values, "score_ns": None, "table_score_ns": None}
    if adjusted is not None:
        # Law 12C1: an assigned score is the director's, in points, kept as given.
        if score_ns is None:
            raise RulingError("an assigned score needs the NS points")
        return {**values, "adjusted": "assigned", "score_ns": score_ns,
                "table_score_ns": None}
    if contract is None or not contract.strip():
        raise RulingError("give the contract (or Pass), or an adjusted score")
    try:
        # Law 77: the score from the contract, declarer, tricks and the board's vulnerability.
        points = duplicate_score_ns(parsed, seat, tricks, vulnerability)
    except RulesError as error:
        raise RulingError(str(error)) from None
    return {**values, "score_ns": points, "table_score_ns": None}


# -- the record --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One line of the session's record: a ruling sent to a table, or a correction here."""

    at: float
    by: str | None
    table: int
    board: int | None
    kind: str
    detail: dict[str, Any]
    note: str | None
    answer: str | None  # a ruling's answer: "ruling" (applied), "refused", None (not yet)
    answer_reason: str | None
    sent: bool
    source: str  # "ruling", "correction", or "table" (an option a player chose on the keypad)
    #: a refusal's reason as the table's message (code, params), or None (tablemodel.wire)
    answer_message: tuple[str, dict[str, Any]] | None = None


def history(db: Database, event: str) -> list[Entry]:
    """Every ruling and correction of ``event``, and every option the tables recorded
    themselves (a penalty card, a lead option, a reservation of rights: the same kinds),
    newest first."""
    with db.read() as conn:
        answers = s.events.alias("answers")
        commands = conn.execute(select(s.commands, answers.c.data.label("answer_data"))
                                .outerjoin(answers, and_(
                                    answers.c.event == s.commands.c.event,
                                    answers.c.table_no == s.commands.c.table_no,
                                    answers.c.seq == s.commands.c.answer_seq,
                                    answers.c.type == "refused"))
                                .where(s.commands.c.event == event,
                                       s.commands.c.type == "ruling")).all()
        corrections = conn.execute(select(s.corrections).where(
            s.corrections.c.event == event)).all()
        options = conn.execute(select(s.events).where(
            s.events.c.event == event, s.events.c.type == "option")).all()
    entries: list[Entry] = []
    for c in commands:
        command = Command.from_row(c.id, "ruling", c.data)
        try:
            kind = command.value(RulingData).kind
        except WireError:
            kind = "?"  # a command this version cannot read: listed all the same
        entries.append(Entry(c.created_at, c.created_by, c.table_no, c.board, kind,
                             dict(command.data), c.note, c.answer, c.answer_reason,
                             c.sent_at is not None, "ruling", _message(c.answer_data)))
    entries += [Entry(c.made_at, c.made_by, c.table_no, c.board, c.kind, json.loads(c.detail),
                      c.note, None, None, True, "correction") for c in corrections]
    for o in options:
        try:
            option = Event.from_row(o.seq, o.type, o.ts, o.board, o.data).value(RulingData)
        except WireError:
            continue  # stored by a version whose options this one cannot read
        entries.append(Entry(o.received_at, option.by, o.table_no, o.board, option.kind,
                             option.fields(leave=("cmd", "by")), None, "ruling", None, True,
                             "table"))
    return sorted(entries, key=lambda entry: -entry.at)
