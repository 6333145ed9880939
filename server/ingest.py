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

import functools
import json
import logging
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Connection,
    and_,
    bindparam,
    delete,
    func,
    insert,
    select,
    tuple_,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Dialect

from server import schema as s
from server.db import Database
from server.fieldscore import parse_adjusted
from tabled.rules import Board, RulesError, Seat, Vulnerability, parse_contract
from tabled.rules.scoring import score_ns
from tabled.wire import (
    OFFLINE,
    ONLINE,
    Command,
    Event,
    WireError,
    parse_topic,
    state_from_payload,
)

log = logging.getLogger(__name__)

RESEND_AGAIN_AFTER = 5.0
"""Seconds before the same gap is asked for again (the first ask may have crossed a resend)."""
SHARED_GAP_GRACE = 2.0
"""Seconds a new gap may stay open before the table is asked, when ingest workers share the
stream (an MQTT v5 shared subscription): the missing events are usually in another worker's
batch, and asking at once would have the table send them again, multiplying the stream."""
KEEP_REJECTIONS = 1000


@dataclass
class Outcome:
    """What one message did: for the worker (commands to send) and the live pages."""

    stored: int = 0
    table: int | None = None  # the table that sent it (None: its topic named none)
    duplicate: bool = False
    rejected: str | None = None
    changed: set[str] = field(default_factory=set)  # tables, results, calls, commands
    online: set[int] = field(default_factory=set)  # tables that said they are online
    commands: list[tuple[int, Command]] = field(default_factory=list)


@dataclass(frozen=True)
class Seated:
    round: int | None
    ns: int | None
    ew: int | None


class Ingest:
    """Ingest for one event (one session's MQTT namespace)."""

    def __init__(self, db: Database, event: str, *, clock: Callable[[], float] = time.time,
                 seating: Callable[[int, int], Seated | None] | None = None,
                 vulnerability: Callable[[int], Vulnerability] | None = None) -> None:
        self.db = db
        self.event = event
        self.clock = clock
        self.gap_grace = 0.0  # seconds before a new gap is asked for (SHARED_GAP_GRACE)
        self.seating = seating  # (table, board) -> who the movement put there, a fallback
        # (table, board) -> why the table may not have a result on the board now, or None
        self.allowed: Callable[[int, int], str | None] | None = None
        # board -> who is vulnerable, as the session says (Law 2's cycle unless it says else)
        self.vulnerability = vulnerability or (lambda board: Board(board).vulnerability)
        self.rejected = 0

    def __call__(self, topic: str, payload: bytes | str) -> Outcome:
        return self.many([(topic, payload)])[0]

    def many(self, messages: Iterable[tuple[str, bytes | str]]) -> list[Outcome]:
        """A batch in one write transaction: one commit, one insert of its events, one read
        and one write of each table's status, whatever the batch's size."""
        messages = list(messages)
        outcomes = [Outcome() for _ in messages]
        parsed: list[tuple[int, int, str, Any]] = []  # (index, table, kind, decoded)
        for index, (topic, payload) in enumerate(messages):
            try:
                parsed.append((index, *self._decode(topic, payload)))
            except WireError as error:
                outcomes[index].rejected = str(error)
            else:
                outcomes[index].table = parsed[-1][1]
        with self.db.write() as conn:
            batch = _Statuses(conn, self.event, {table for _, table, _, _ in parsed})
            events = [(i, t, e) for i, t, kind, e in parsed if kind == "events"]
            stored = self._insert(conn, events, outcomes)
            by_table: dict[int, list[tuple[int, Event]]] = {}
            for index, table, event in stored:
                by_table.setdefault(table, []).append((index, event))
            for table, new in by_table.items():
                new.sort(key=lambda item: item[1].seq)
                self._advance(conn, batch, table, new, outcomes)
                for index, event in new:
                    derive = getattr(self, f"_on_{event.type}", None)
                    if derive is not None:
                        derive(conn, table, event, outcomes[index], batch)
            latest_state: dict[int, tuple[int, Mapping[str, Any]]] = {}
            for index, table, kind, value in parsed:
                if kind == "status":
                    batch.set(table, online=value == ONLINE, seen_at=self.clock())
                    outcomes[index].changed.add("tables")
                    if value == ONLINE:
                        outcomes[index].online.add(table)
                elif kind == "state":
                    outcomes[index].changed.add("tables")
                    if table not in latest_state or value["seq"] >= latest_state[table][1]["seq"]:
                        latest_state[table] = (index, value)
            for table, (index, snapshot) in latest_state.items():
                self._state(batch, table, snapshot, outcomes[index])
            batch.flush()
            rejections = [self._rejection(*messages[i], o.rejected)
                          for i, o in enumerate(outcomes) if o.rejected is not None]
            if rejections:
                conn.execute(insert(s.rejections), rejections)
                self._trim_rejections(conn)
        return outcomes

    def reject(self, topic: str, payload: bytes | str, reason: str) -> Outcome:
        """Record a message that can never be stored (the bus calls this when storing it
        failed), so it is acknowledged and its reason kept instead of coming back forever."""
        with self.db.write() as conn:
            conn.execute(insert(s.rejections).values(**self._rejection(topic, payload, reason)))
        return Outcome(rejected=reason)

    def _decode(self, topic: str, payload: bytes | str) -> tuple[int, str, Any]:
        event, table, kind = parse_topic(topic)
        if event != self.event:
            raise WireError(f"event {event!r} is not this session's ({self.event!r})")
        if kind == "events":
            return table, kind, Event.from_payload(payload)
        if kind == "status":
            value = payload.encode() if isinstance(payload, str) else bytes(payload)
            if value not in (ONLINE, OFFLINE):
                raise WireError(f"status {value[:40]!r} is neither online nor offline")
            return table, kind, value
        if kind == "state":
            return table, kind, state_from_payload(payload)
        raise WireError(f"the server does not read {kind!r} topics")

    def _rejection(self, topic: str, payload: bytes | str, reason: str) -> dict[str, Any]:
        self.rejected += 1
        size = len(payload.encode() if isinstance(payload, str) else payload)
        log.warning("rejected %d bytes on %r: %s", size, topic[:200], reason)
        return {"at": self.clock(), "topic": _printable(topic)[:200],
                "reason": _printable(reason)[:300], "size": size}

    def _trim_rejections(self, conn: Connection) -> None:
        newest = conn.execute(select(func.max(s.rejections.c.id))).scalar_one()
        conn.execute(delete(s.rejections).where(s.rejections.c.id <= newest - KEEP_REJECTIONS))

    # -- events ----------------------------------------------------------------------------

    def _insert(self, conn: Connection, events: list[tuple[int, int, Event]],
                outcomes: list[Outcome]) -> list[tuple[int, int, Event]]:
        """Store each event not stored yet, in one statement; the ones that are new.

        The unique constraint decides (so two ingest workers racing cannot both store one);
        a key already stored is a duplicate if its content is the same, else a replayed or
        forged event, rejected."""
        now = self.clock()
        rows: dict[tuple[int, int], dict[str, Any]] = {}
        first: dict[tuple[int, int], int] = {}
        later: list[tuple[int, tuple[int, int], tuple[Any, ...]]] = []
        for index, table, event in events:
            key = (table, event.seq)
            data = json.dumps(dict(event.data), sort_keys=True, separators=(",", ":"))
            if key in rows:
                later.append((index, key, (event.type, event.board, event.ts, data)))
                continue
            first[key] = index
            rows[key] = {"event": self.event, "table_no": table, "seq": event.seq,
                         "type": event.type, "board": event.board, "ts": event.ts,
                         "data": data, "received_at": now}
        if not rows:
            return []
        dialect_insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
        statement = dialect_insert(s.events).on_conflict_do_nothing(
            index_elements=["event", "table_no", "seq"]).returning(
            s.events.c.table_no, s.events.c.seq)
        new = {(row.table_no, row.seq) for row in conn.execute(statement, list(rows.values()))}
        old = [key for key in rows if key not in new]
        # Everything the table said counts: a replay that moves an event to another board or
        # time is as forged as one that changes what it says.
        stored_before: dict[tuple[int, int], tuple[Any, ...]] = {}
        if old:
            found = conn.execute(select(s.events.c.table_no, s.events.c.seq, s.events.c.type,
                                        s.events.c.board, s.events.c.ts, s.events.c.data).where(
                s.events.c.event == self.event,
                tuple_(s.events.c.table_no, s.events.c.seq).in_(old)))
            stored_before = {(r.table_no, r.seq): (r.type, r.board, r.ts, r.data)
                             for r in found}
        for key in old:
            row = rows[key]
            later.append((first[key], key, (row["type"], row["board"], row["ts"], row["data"])))
        for index, key, said in later:
            row = rows[key]
            known = stored_before.get(key) or (row["type"], row["board"], row["ts"], row["data"])
            if known != said:
                outcomes[index].rejected = (f"table {key[0]} event {key[1]}: already stored "
                                            f"with other content (a replayed or forged event)")
            else:
                outcomes[index].duplicate = True
        event_at = {index: event for index, _, event in events}
        stored = [(first[key], key[0], event_at[first[key]]) for key in rows if key in new]
        for index, _, _ in stored:
            outcomes[index].stored = 1
        return stored

    def _advance(self, conn: Connection, batch: _Statuses, table: int,
                 new: list[tuple[int, Event]], outcomes: list[Outcome]) -> None:
        """Move the table's contiguous mark over its new events (in order); ask for what is
        missing below them."""
        row = batch.row(table)
        contiguous, highest_before = row["contiguous_seq"], row["highest_seq"]
        seqs = [event.seq for _, event in new]
        highest = max(highest_before, seqs[-1])
        if seqs[0] == contiguous + 1:
            if highest_before <= contiguous and seqs == list(range(contiguous + 1,
                                                                   contiguous + 1 + len(seqs))):
                contiguous = seqs[-1]  # the usual case: in order, no gap open
            else:
                later = conn.execute(select(s.events.c.seq).where(
                    s.events.c.event == self.event, s.events.c.table_no == table,
                    s.events.c.seq > contiguous).order_by(s.events.c.seq)).scalars()
                for seq in later:
                    if seq != contiguous + 1:
                        break
                    contiguous = seq
        newest = new[-1][1]
        values: dict[str, Any] = {
            "contiguous_seq": contiguous, "highest_seq": highest, "seen_at": self.clock(),
            "last_action_at": max(row["last_action_at"] or 0.0,
                                  max(event.ts for _, event in new))}
        boards = [event.board for _, event in new if event.board is not None]
        if boards and newest.seq >= highest_before:
            values["board"] = boards[-1]
        outcome = outcomes[new[-1][0]]
        if highest > contiguous:
            # Missing: above the contiguous mark, below the newest event when it is new.
            until = highest - 1 if highest == newest.seq else highest
            self._ask_resend(table, row, contiguous, until, newest.seq > highest_before + 1,
                             values, outcome)
        batch.set(table, **values)
        for index, _ in new:
            outcomes[index].changed.add("tables")

    def _ask_resend(self, table: int, row: Mapping[str, Any], contiguous: int, until: int,
                    new_gap: bool, values: dict[str, Any], outcome: Outcome) -> None:
        now = self.clock()
        asked = row["resend_asked_at"]
        waiting = asked is not None and now - asked < RESEND_AGAIN_AFTER
        if self.gap_grace > 0 and new_gap and not waiting:
            # Not yet: ask once the grace is over, at the table's next event or state.
            values["resend_asked_at"] = now - RESEND_AGAIN_AFTER + self.gap_grace
            return
        if waiting and (not new_gap or self.gap_grace > 0):
            return
        ident = f"resend-{table}-{contiguous + 1}-{until}-{int(now * 1000)}"
        outcome.commands.append((table, Command(ident, "resend",
                                                {"since": contiguous + 1, "until": until})))
        values["resend_asked_at"] = now
        log.info("table %d: events %d..%d missing, asked again", table, contiguous + 1, until)

    # -- derived rows, one per event type that makes any -----------------------------------

    def _on_result(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                   batch: _Statuses) -> None:
        board = event.board if event.board is not None else None
        if board is None:
            outcome.rejected = f"table {table} event {event.seq}: a result without a board"
            return
        refusal = self.allowed(table, board) if self.allowed is not None else None
        if refusal is not None:
            outcome.rejected = f"table {table} event {event.seq}: {refusal}"
            return
        row = self.result_row(conn, table, event)
        key = and_(s.results.c.event == self.event, s.results.c.table_no == table,
                   s.results.c.board == board)
        current = conn.execute(select(s.results.c.source_seq, s.results.c.corrected_by,
                                      s.results.c.contract).where(key)).first()
        if current is not None and current.source_seq > event.seq and current.contract is None:
            # A resend brought the board's result after the director's score for it: the
            # score stands, and the contract played joins it for the record.
            conn.execute(update(s.results).where(key).values(
                contract=row["contract"], declarer=row["declarer"], tricks=row["tricks"],
                lead=row["lead"], table_score_ns=row["table_score_ns"]))
            outcome.changed.add("results")
            return
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
        # A table never adjusts its own score: adjusted and assigned scores (Law 12C) come
        # only from the director's rulings (_scored_by_ruling) or corrections.
        adjusted = None
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
                             self.vulnerability(int(event.board or 0)))
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
        claimed: Seated | None = None
        for text in assigns:
            data = json.loads(text)
            sent = self._sent(conn, table, data["cmd"], "assign")
            if sent is not None and board in sent["boards"]:
                return Seated(sent["round"], sent["ns"], sent["ew"])
            if claimed is None and board in data["boards"]:
                claimed = Seated(data["round"], data["ns"], data["ew"])
        # No assignment of ours names the board: the movement's plan, and only without a
        # session (nothing to protect) what the table itself says.
        planned = self.seating(table, board) if self.seating is not None else None
        if planned is not None:
            return planned
        return claimed if claimed is not None else Seated(None, None, None)

    def _lead(self, conn: Connection, table: int, board: int) -> str | None:
        first = conn.execute(select(s.events.c.data).where(
            s.events.c.event == self.event, s.events.c.table_no == table,
            s.events.c.board == board, s.events.c.type == "card").order_by(
            s.events.c.seq).limit(1)).scalar()
        return None if first is None else str(json.loads(first)["card"])

    def _on_card(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                 batch: _Statuses) -> None:
        # A card that arrives after its board's result (a resent gap) may be the lead; a card
        # in order cannot follow its own board's result, so it needs no look.
        if event.board is None or event.seq > batch.before[table]:
            return
        key = and_(s.results.c.event == self.event, s.results.c.table_no == table,
                   s.results.c.board == event.board)
        if conn.execute(select(s.results.c.board).where(key)).first() is not None:
            conn.execute(update(s.results).where(key).values(
                lead=self._lead(conn, table, event.board)))
            outcome.changed.add("results")

    def _on_director(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                     batch: _Statuses) -> None:
        data = event.data
        conn.execute(insert(s.director_calls).values(
            event=self.event, table_no=table, seq=event.seq, board=event.board,
            seat=data.get("seat"), reason=data["reason"], law=data.get("law"),
            detail=data.get("detail"), called_at=event.ts))
        outcome.changed.add("calls")
        # The table's acknowledgement may have come first (a resend fills the gap after it).
        acks = conn.execute(select(s.events.c.data, s.events.c.ts).where(
            s.events.c.event == self.event, s.events.c.table_no == table,
            s.events.c.type == "ruling", s.events.c.seq > event.seq)).all()
        for text, ts in acks:
            ack = json.loads(text)
            if ack.get("kind") == "director_ack" and ack.get("call") in (None, event.seq):
                conn.execute(update(s.director_calls).where(
                    s.director_calls.c.event == self.event,
                    s.director_calls.c.table_no == table, s.director_calls.c.seq == event.seq)
                    .values(acknowledged_at=ts, acknowledged_by="table"))
                break

    def _sent(self, conn: Connection, table: int, ident: str,
              kind: str | None = None) -> Mapping[str, Any] | None:
        """The data of a command the server sent this table, or None: what a table says a
        command held is never taken on its word."""
        query = select(s.commands.c.data).where(
            s.commands.c.event == self.event, s.commands.c.table_no == table,
            s.commands.c.id == ident)
        if kind is not None:
            query = query.where(s.commands.c.type == kind)
        text = conn.execute(query).scalar()
        return None if text is None else dict(json.loads(text))

    def _answer(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                reason: str | None = None) -> None:
        # Only this table's own command: another table cannot answer it for it.
        conn.execute(update(s.commands).where(
            s.commands.c.event == self.event, s.commands.c.table_no == table,
            s.commands.c.id == event.data["cmd"], s.commands.c.answer_seq.is_(None)).values(
            answer_seq=event.seq, answer=event.type, answer_reason=reason))
        outcome.changed.add("commands")

    def _on_assign(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                   batch: _Statuses) -> None:
        batch.set(table, round=event.data["round"])
        self._answer(conn, table, event, outcome)
        # A resend may bring the assignment after results of its boards: they learn now who
        # sat there.
        waiting = conn.execute(select(s.results.c.board, s.results.c.source_seq).where(
            s.results.c.event == self.event, s.results.c.table_no == table,
            s.results.c.round.is_(None),
            s.results.c.board.in_(list(event.data["boards"])))).all()
        for board, seq in waiting:
            seated = self._seated(conn, table, board, max(seq, event.seq + 1))
            conn.execute(update(s.results).where(
                s.results.c.event == self.event, s.results.c.table_no == table,
                s.results.c.board == board).values(round=seated.round, ns=seated.ns,
                                                   ew=seated.ew))
            outcome.changed.add("results")

    def _on_ruling(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                   batch: _Statuses) -> None:
        self._answer(conn, table, event, outcome)
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
        sent = self._sent(conn, table, event.data["cmd"], "ruling")
        if sent is None or sent.get("kind") != "score":
            outcome.rejected = (f"table {table} event {event.seq}: a score ruling the server "
                                f"never sent ({event.data['cmd']!r})")
            return
        adjusted = sent.get("adjusted") or "assigned"
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
            "score_ns": None if artificial is not None else sent.get("score_ns") or 0,
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

    def _on_refused(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                    batch: _Statuses) -> None:
        self._answer(conn, table, event, outcome, reason=event.data["reason"])

    # -- presence and retained state -------------------------------------------------------

    def _state(self, batch: _Statuses, table: int, snapshot: Mapping[str, Any],
               outcome: Outcome) -> None:
        row = batch.row(table)
        values: dict[str, Any] = {"phase": snapshot["phase"], "round": snapshot.get("round"),
                                  "board": snapshot.get("board"), "seen_at": self.clock()}
        seq = snapshot["seq"]
        if seq > row["contiguous_seq"]:  # the table is ahead of what we hold: events were lost
            values["highest_seq"] = max(row["highest_seq"], seq)
            self._ask_resend(table, row, row["contiguous_seq"], seq, seq > row["highest_seq"],
                             values, outcome)
        batch.set(table, **values)


class _Statuses:
    """Each table's status row, read once per batch and written once at its end."""

    def __init__(self, conn: Connection, event: str, tables: set[int]) -> None:
        self.conn = conn
        self.event = event
        self.rows: dict[int, dict[str, Any]] = {}
        self.changed: set[int] = set()
        if tables:
            found = conn.execute(select(s.table_status).where(
                s.table_status.c.event == event, s.table_status.c.table_no.in_(sorted(tables))))
            self.rows = {row.table_no: dict(row._mapping) for row in found}
        missing = sorted(tables - set(self.rows))
        if missing:
            blank = {"online": False, "contiguous_seq": 0, "highest_seq": 0}
            dialect_insert = (pg_insert if conn.dialect.name == "postgresql"
                              else sqlite_insert)
            conn.execute(dialect_insert(s.table_status).on_conflict_do_nothing(), [
                {"event": event, "table_no": t, **blank} for t in missing])
            for table in missing:
                self.rows[table] = {**{c.name: None for c in s.table_status.columns},
                                    "event": event, "table_no": table, **blank}
        #: Each table's highest seq when the batch began: a card below it came late.
        self.before = {table: row["highest_seq"] for table, row in self.rows.items()}

    def row(self, table: int) -> dict[str, Any]:
        return self.rows[table]

    def set(self, table: int, **values: Any) -> None:
        self.rows[table].update(values)
        self.changed.add(table)

    def flush(self) -> None:
        """One executemany of a statement compiled once, its rows handed to the driver as
        they are: SQLAlchemy's own executemany of an UPDATE builds each row's parameters
        through the compiler, and that was three quarters of ingest's time with 200 tables
        (py-spy on the load test)."""
        if not self.changed:
            return
        sql, names = _update_status(self.conn.dialect)
        self.conn.exec_driver_sql(sql, [
            tuple({"b_event": self.event, "b_table": table, **self.rows[table]}[name]
                  for name in names) for table in sorted(self.changed)])


_STATUS_FIELDS = [c.name for c in s.table_status.columns if c.name not in ("event", "table_no")]
_UPDATE_STATUS = update(s.table_status).where(
    s.table_status.c.event == bindparam("b_event"),
    s.table_status.c.table_no == bindparam("b_table")).values(
    {name: bindparam(name) for name in _STATUS_FIELDS})


@functools.cache
def _update_status(dialect: Dialect) -> tuple[str, tuple[str, ...]]:
    """``_UPDATE_STATUS`` in the dialect's own SQL, with its parameters' names in order."""
    compiled = _UPDATE_STATUS.compile(dialect=dialect)
    string = compiled.string
    if compiled.positiontup is not None:
        return string, tuple(compiled.positiontup)
    # A named paramstyle (psycopg's %(name)s): make it positional, the rows are tuples.
    names = tuple(re.findall(r"%\((\w+)\)s", string))
    return re.sub(r"%\((\w+)\)s", "%s", string), names


def _printable(text: str) -> str:
    """Text any store takes: control characters and lone surrogates (which no database
    holds) written as escapes; everything else kept as it came."""
    return "".join(ch if " " <= ch != "\x7f" and not "\ud800" <= ch <= "\udfff"
                   else f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"
                   for ch in text)
