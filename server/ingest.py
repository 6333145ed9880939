"""Ingest: what a table published, checked, stored once, and made into results.

``Ingest(db, event)(topic, payload)`` is a plain function of one MQTT message: the worker calls
it for every message, and tests call it directly. It never raises for bad input: a malformed,
oversized or foreign payload is logged, kept in ``rejections`` with the reason, and dropped.

What it guarantees:
- each event is stored once, unique on (event, table, seq); a replayed event is a no-op, and a
  replay with different content under an old number is rejected;
- a gap in a table's numbers is noticed, and the table is asked to resend what is missing
  (the ``resend`` command); so is a retained state whose seq is ahead of what is stored;
- a result's score is recomputed here with ``tabled.rules``: a table's own score is never
  trusted, only kept beside ours to show a disagreement.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from server import schema as s
from server.db import Database
from server.fieldscore import parse_adjusted
from tabled.rules import Board, RulesError, Seat, parse_contract
from tabled.rules.scoring import score_ns
from tabled.wire import OFFLINE, ONLINE, Command, Event, WireError, parse_topic

log = logging.getLogger(__name__)

RESEND_AGAIN_AFTER = 5.0
"""Seconds before the same gap is asked for again (the first ask may have crossed a resend)."""
KEEP_REJECTIONS = 1000


@dataclass
class Outcome:
    """What one message did: for the worker (commands to send) and the live pages."""

    stored: int = 0
    duplicate: bool = False
    rejected: str | None = None
    changed: set[str] = field(default_factory=set)  # tables, results, calls, commands
    commands: list[tuple[int, Command]] = field(default_factory=list)


@dataclass(frozen=True)
class Seated:
    round: int | None
    ns: int | None
    ew: int | None


class Ingest:
    """Ingest for one event (one session's MQTT namespace)."""

    def __init__(self, db: Database, event: str, *, clock: Callable[[], float] = time.time,
                 seating: Callable[[int, int], Seated | None] | None = None) -> None:
        self.db = db
        self.event = event
        self.clock = clock
        self.seating = seating  # (table, board) -> who the movement put there, a fallback
        self.rejected = 0

    def __call__(self, topic: str, payload: bytes | str) -> Outcome:
        return self.many([(topic, payload)])[0]

    def many(self, messages: Iterable[tuple[str, bytes | str]]) -> list[Outcome]:
        """Each message in one write transaction: a batch costs one commit."""
        outcomes: list[Outcome] = []
        rejections: list[dict[str, Any]] = []
        with self.db.write() as conn:
            for topic, payload in messages:
                outcome = self._one(conn, topic, payload)
                if outcome.rejected is not None:
                    rejections.append(self._rejection(topic, payload, outcome.rejected))
                outcomes.append(outcome)
            if rejections:
                conn.execute(insert(s.rejections), rejections)
                self._trim_rejections(conn)
        return outcomes

    # -- one message -----------------------------------------------------------------------

    def _one(self, conn: Connection, topic: str, payload: bytes | str) -> Outcome:
        try:
            event, table, kind = parse_topic(topic)
            if event != self.event:
                raise WireError(f"event {event!r} is not this session's ({self.event!r})")
            if kind == "events":
                return self._event(conn, table, Event.from_payload(payload))
            if kind == "status":
                return self._status(conn, table, payload)
            if kind == "state":
                return self._state(conn, table, payload)
            raise WireError(f"the server does not read {kind!r} topics")
        except WireError as error:
            return Outcome(rejected=str(error))

    def _rejection(self, topic: str, payload: bytes | str, reason: str) -> dict[str, Any]:
        self.rejected += 1
        size = len(payload.encode() if isinstance(payload, str) else payload)
        log.warning("rejected %d bytes on %r: %s", size, topic[:200], reason)
        return {"at": self.clock(), "topic": topic[:200], "reason": reason[:300], "size": size}

    def _trim_rejections(self, conn: Connection) -> None:
        newest = conn.execute(select(func.max(s.rejections.c.id))).scalar_one()
        conn.execute(delete(s.rejections).where(s.rejections.c.id <= newest - KEEP_REJECTIONS))

    # -- events ----------------------------------------------------------------------------

    def _event(self, conn: Connection, table: int, event: Event) -> Outcome:
        outcome = Outcome()
        data = json.dumps(dict(event.data), sort_keys=True, separators=(",", ":"))
        key = and_(s.events.c.event == self.event, s.events.c.table_no == table,
                   s.events.c.seq == event.seq)
        stored = conn.execute(select(s.events.c.type, s.events.c.data).where(key)).first()
        if stored is not None:
            if (stored.type, stored.data) != (event.type, data):
                outcome.rejected = (f"table {table} event {event.seq}: already stored with "
                                    f"other content (a replayed or forged event)")
            else:
                outcome.duplicate = True
            return outcome
        try:
            with conn.begin_nested():
                conn.execute(insert(s.events).values(
                    event=self.event, table_no=table, seq=event.seq, type=event.type,
                    board=event.board, ts=event.ts, data=data, received_at=self.clock()))
        except IntegrityError:  # a second ingest worker stored it first
            outcome.duplicate = True
            return outcome
        outcome.stored = 1
        self._advance(conn, table, event, outcome)
        derive = getattr(self, f"_on_{event.type}", None)
        if derive is not None:
            derive(conn, table, event, outcome)
        return outcome

    def _status_row(self, conn: Connection, table: int) -> Any:
        key = and_(s.table_status.c.event == self.event, s.table_status.c.table_no == table)
        row = conn.execute(select(s.table_status).where(key)).first()
        if row is None:
            conn.execute(insert(s.table_status).values(
                event=self.event, table_no=table, online=False, contiguous_seq=0,
                highest_seq=0))
            row = conn.execute(select(s.table_status).where(key)).one()
        return row

    def _set_status(self, conn: Connection, table: int, **values: Any) -> None:
        conn.execute(update(s.table_status).where(
            s.table_status.c.event == self.event,
            s.table_status.c.table_no == table).values(**values))

    def _advance(self, conn: Connection, table: int, event: Event, outcome: Outcome) -> None:
        """Move the table's contiguous mark; ask for what is missing below a new event."""
        row = self._status_row(conn, table)
        contiguous = row.contiguous_seq
        if event.seq == contiguous + 1:
            later = conn.execute(select(s.events.c.seq).where(
                s.events.c.event == self.event, s.events.c.table_no == table,
                s.events.c.seq > contiguous).order_by(s.events.c.seq)).scalars()
            for seq in later:
                if seq != contiguous + 1:
                    break
                contiguous = seq
        highest = max(row.highest_seq, event.seq)
        values: dict[str, Any] = {
            "contiguous_seq": contiguous, "highest_seq": highest, "seen_at": self.clock(),
            "last_action_at": max(row.last_action_at or 0.0, event.ts)}
        if event.board is not None and event.seq >= row.highest_seq:
            values["board"] = event.board
        if highest > contiguous:
            # Missing: above the contiguous mark, below this event when it is the newest.
            until = highest - 1 if highest == event.seq else highest
            self._ask_resend(table, row, contiguous, until, event.seq > row.highest_seq + 1,
                             values, outcome)
        self._set_status(conn, table, **values)
        outcome.changed.add("tables")

    def _ask_resend(self, table: int, row: Any, contiguous: int, until: int, new_gap: bool,
                    values: dict[str, Any], outcome: Outcome) -> None:
        now = self.clock()
        if not new_gap and row.resend_asked_at is not None and (
                now - row.resend_asked_at < RESEND_AGAIN_AFTER):
            return
        ident = f"resend-{table}-{contiguous + 1}-{until}-{int(now * 1000)}"
        outcome.commands.append((table, Command(ident, "resend",
                                                {"since": contiguous + 1, "until": until})))
        values["resend_asked_at"] = now
        log.info("table %d: events %d..%d missing, asked again", table, contiguous + 1, until)

    # -- derived rows, one per event type that makes any -----------------------------------

    def _on_result(self, conn: Connection, table: int, event: Event, outcome: Outcome) -> None:
        board = event.board if event.board is not None else None
        if board is None:
            outcome.rejected = f"table {table} event {event.seq}: a result without a board"
            return
        row = self.result_row(conn, table, event)
        key = and_(s.results.c.event == self.event, s.results.c.table_no == table,
                   s.results.c.board == board)
        current = conn.execute(select(s.results.c.source_seq, s.results.c.corrected_by)
                               .where(key)).first()
        if current is None:
            conn.execute(insert(s.results).values(event=self.event, table_no=table,
                                                  board=board, **row))
        elif current.corrected_by is not None:
            # The director corrected this board on the server: the table's result is kept in
            # its events, but the correction stands until the director changes it.
            log.warning("table %d board %d: result event %d left aside, the director's "
                        "correction stands", table, board, event.seq)
            return
        elif current.source_seq < event.seq:  # a later result supersedes (a ruling's score)
            conn.execute(update(s.results).where(key).values(**row))
        outcome.changed.add("results")

    def result_row(self, conn: Connection, table: int, event: Event) -> dict[str, Any]:
        data = event.data
        board = int(event.board or 0)
        contract_text = data.get("contract")
        declarer = data.get("declarer")
        tricks = data.get("tricks")
        adjusted = data.get("adjusted")
        try:
            artificial = parse_adjusted(adjusted)
        except ValueError:
            artificial = None
        score: int | None
        if artificial is not None:
            score = None  # Law 12C2: an artificial score has no points, only percentages
        elif adjusted:
            score = int(data["score_ns"])  # Law 12C1: the director's assigned score
        else:
            score = self.recompute(table, event)
        seated = self._seated(conn, table, board, event.seq)
        return {
            "round": seated.round, "ns": seated.ns, "ew": seated.ew,
            "contract": contract_text, "declarer": declarer, "tricks": tricks,
            "lead": self._lead(conn, table, board), "score_ns": score,
            "table_score_ns": data.get("score_ns"), "adjusted": adjusted,
            "source_seq": event.seq, "finished_at": event.ts, "corrected_by": None,
        }

    def recompute(self, table: int, event: Event) -> int | None:
        """The NS score under Law 77 from the contract, declarer and tricks."""
        data = event.data
        try:
            contract = parse_contract(data.get("contract") or "Pass")
            declarer = Seat.from_str(data["declarer"]) if data.get("declarer") else None
            score = score_ns(contract, declarer, data.get("tricks"),
                             Board(int(event.board or 0)).vulnerability)
        except (RulesError, ValueError) as error:
            log.warning("table %d event %d: result cannot be scored: %s", table, event.seq, error)
            return None
        if score != data.get("score_ns"):
            log.warning("table %d board %s: table scored %s, the laws give %d", table,
                        event.board, data.get("score_ns"), score)
        return score

    def _seated(self, conn: Connection, table: int, board: int, seq: int) -> Seated:
        """Who played: the table's own latest assignment holding the board, else the
        movement's plan."""
        assigns = conn.execute(select(s.events.c.data).where(
            s.events.c.event == self.event, s.events.c.table_no == table,
            s.events.c.type == "assign", s.events.c.seq < seq).order_by(
            s.events.c.seq.desc())).scalars()
        for text in assigns:
            data = json.loads(text)
            if board in data["boards"]:
                return Seated(data["round"], data["ns"], data["ew"])
        planned = self.seating(table, board) if self.seating is not None else None
        return planned if planned is not None else Seated(None, None, None)

    def _lead(self, conn: Connection, table: int, board: int) -> str | None:
        first = conn.execute(select(s.events.c.data).where(
            s.events.c.event == self.event, s.events.c.table_no == table,
            s.events.c.board == board, s.events.c.type == "card").order_by(
            s.events.c.seq).limit(1)).scalar()
        return None if first is None else str(json.loads(first)["card"])

    def _on_card(self, conn: Connection, table: int, event: Event, outcome: Outcome) -> None:
        # A card that arrives after its board's result (a resent gap) may be the lead.
        if event.board is None:
            return
        key = and_(s.results.c.event == self.event, s.results.c.table_no == table,
                   s.results.c.board == event.board)
        if conn.execute(select(s.results.c.board).where(key)).first() is not None:
            conn.execute(update(s.results).where(key).values(
                lead=self._lead(conn, table, event.board)))
            outcome.changed.add("results")

    def _on_director(self, conn: Connection, table: int, event: Event, outcome: Outcome) -> None:
        data = event.data
        conn.execute(insert(s.director_calls).values(
            event=self.event, table_no=table, seq=event.seq, board=event.board,
            seat=data.get("seat"), reason=data["reason"], law=data.get("law"),
            detail=data.get("detail"), called_at=event.ts))
        outcome.changed.add("calls")

    def _answer(self, conn: Connection, event: Event, outcome: Outcome,
                reason: str | None = None) -> None:
        conn.execute(update(s.commands).where(s.commands.c.id == event.data["cmd"]).values(
            answer_seq=event.seq, answer=event.type, answer_reason=reason))
        outcome.changed.add("commands")

    def _on_assign(self, conn: Connection, table: int, event: Event, outcome: Outcome) -> None:
        self._set_status(conn, table, round=event.data["round"])
        self._answer(conn, event, outcome)

    def _on_ruling(self, conn: Connection, table: int, event: Event, outcome: Outcome) -> None:
        self._answer(conn, event, outcome)
        if event.data["kind"] == "score" and event.board is not None:
            self._scored_by_ruling(conn, table, event, outcome)
        if event.data["kind"] == "director_ack":  # the table has taken the director's answer
            which = event.data.get("call")
            query = update(s.director_calls).where(
                s.director_calls.c.event == self.event, s.director_calls.c.table_no == table,
                s.director_calls.c.acknowledged_at.is_(None))
            if which is not None:
                query = query.where(s.director_calls.c.seq == which)
            conn.execute(query.values(acknowledged_at=event.ts, acknowledged_by="table"))
            outcome.changed.add("calls")

    def _scored_by_ruling(self, conn: Connection, table: int, event: Event,
                          outcome: Outcome) -> None:
        """The director's score, as the table applied it: artificial (Law 12C2) or assigned
        (Law 12C1). It replaces the board's result; the contract played stays for the record."""
        board = int(event.board or 0)
        adjusted = event.data.get("adjusted") or "assigned"
        try:
            artificial = parse_adjusted(adjusted)
        except ValueError:
            artificial = None
        key = and_(s.results.c.event == self.event, s.results.c.table_no == table,
                   s.results.c.board == board)
        current = conn.execute(select(s.results).where(key)).first()
        if (current is not None and current.source_seq >= event.seq
                and current.corrected_by is None):
            return
        values: dict[str, Any] = {
            "score_ns": None if artificial is not None else event.data.get("score_ns") or 0,
            "adjusted": adjusted, "source_seq": event.seq, "finished_at": event.ts,
            "corrected_by": None}  # the director's later ruling replaces an earlier fix
        if current is None:
            seated = self._seated(conn, table, board, event.seq)
            conn.execute(insert(s.results).values(
                event=self.event, table_no=table, board=board, round=seated.round,
                ns=seated.ns, ew=seated.ew, lead=self._lead(conn, table, board), **values))
        else:
            conn.execute(update(s.results).where(key).values(**values))
        outcome.changed.add("results")

    def _on_refused(self, conn: Connection, table: int, event: Event, outcome: Outcome) -> None:
        self._answer(conn, event, outcome, reason=event.data["reason"])

    # -- presence and retained state -------------------------------------------------------

    def _status(self, conn: Connection, table: int, payload: bytes | str) -> Outcome:
        value = payload.encode() if isinstance(payload, str) else bytes(payload)
        if value not in (ONLINE, OFFLINE):
            raise WireError(f"status {value[:40]!r} is neither online nor offline")
        self._status_row(conn, table)
        self._set_status(conn, table, online=value == ONLINE, seen_at=self.clock())
        return Outcome(changed={"tables"})

    def _state(self, conn: Connection, table: int, payload: bytes | str) -> Outcome:
        snapshot = state_snapshot(payload)
        row = self._status_row(conn, table)
        outcome = Outcome(changed={"tables"})
        values: dict[str, Any] = {"phase": snapshot["phase"], "round": snapshot.get("round"),
                                  "board": snapshot.get("board"), "seen_at": self.clock()}
        seq = snapshot["seq"]
        if seq > row.contiguous_seq:  # the table is ahead of what we hold: events were lost
            values["highest_seq"] = max(row.highest_seq, seq)
            self._ask_resend(table, row, row.contiguous_seq, seq, seq > row.highest_seq,
                             values, outcome)
        self._set_status(conn, table, **values)
        return outcome


_PHASES = frozenset({"waiting", "players", "board", "setup", "auction", "lead", "play", "result",
                     "round_end"})


def state_snapshot(payload: bytes | str) -> Mapping[str, Any]:
    """A table's retained state, validated (it carries no hidden information)."""
    size = len(payload.encode() if isinstance(payload, str) else payload)
    if size > 4096:
        raise WireError(f"state of {size} bytes is too big")
    try:
        value = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as error:
        raise WireError(f"state is not JSON: {error}") from None
    if not isinstance(value, dict) or value.get("v") != 1:
        raise WireError("state is not a version 1 object")
    seq = value.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise WireError(f"state seq {seq!r} is not a count")
    if value.get("phase") not in _PHASES:
        raise WireError(f"state phase {value.get('phase')!r} is unknown")
    for name in ("round", "board"):
        number = value.get(name)
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)
                                   or not 0 <= number <= 9999):
            raise WireError(f"state {name} {number!r} is not a number")
    return value
