"""The ingest's store phase: each event stored once, each table's numbers kept contiguous, gaps
asked for. Plain functions of the ingest's :class:`~server.link.ingest.context.Context`:
:func:`store_events` (each event new, a duplicate, or a replay with other content, kept
apart), :func:`advance` (a table's contiguous mark over its new events), :func:`retained_state`
(a table's retained state), :func:`keep_rejections`.

- each event is stored once, unique on (event, table, seq); a replayed event is a no-op, and a
  replay with different content under an old number is rejected;
- a gap in a table's numbers is noticed, and the table is asked to resend what is missing
  (the ``resend`` command); so is a retained state whose seq is ahead of what is stored;
- each table's status row (presence, contiguous and highest seq, phase, round and board) is
  read once per batch and written once at its end (:class:`Statuses`);
- the rejections kept are bounded (``KEEP_REJECTIONS``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from server.storage import schema as s
from tablemodel.wire import Command, Event

from .context import Context
from .outcome import Outcome
from .sql import Prepared, insert_returning, select_in

log = logging.getLogger(__name__)

RESEND_AGAIN_AFTER = 5.0
"""Seconds before the same gap is asked for again (the first ask may have crossed a resend)."""
SHARED_GAP_GRACE = 2.0
"""Seconds a new gap may stay open before the table is asked, when ingest workers share the
stream (an MQTT v5 shared subscription): the missing events are usually in another worker's
batch, and asking at once would have the table send them again, multiplying the stream."""
KEEP_REJECTIONS = 1000
MAX_AHEAD = 1000
"""How far above a table's contiguous mark a sequence number is believed: about ten boards of
a table's events. A number further ahead (a table's login publishing 2,147,483,647) is no
gap to ask for: an event that far ahead is stored but sets no mark, and a retained state
that far ahead asks for the next ``MAX_AHEAD`` events only, so a table far ahead for real (a
fresh database under an old journal) is caught up a stretch at a time."""
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
"""An event's data as stored: one spelling whatever order the table wrote it in (made once:
``json.dumps`` with options builds an encoder at every call)."""


def keep_rejections(conn: Connection, rows: list[dict[str, Any]]) -> None:
    conn.execute(insert(s.rejections), rows)
    _trim_rejections(conn)


def _trim_rejections(conn: Connection) -> None:
    newest = conn.execute(select(func.max(s.rejections.c.id))).scalar_one()
    conn.execute(delete(s.rejections).where(s.rejections.c.id <= newest - KEEP_REJECTIONS))


def _keep_conflicts(conn: Connection, rows: list[dict[str, Any]]) -> None:
    dialect_insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    statement = dialect_insert(s.event_conflicts)
    conn.execute(statement.on_conflict_do_update(
        index_elements=["event", "table_no", "seq"],
        set_={name: statement.excluded[name]
              for name in ("type", "board", "ts", "data", "received_at")}), rows)
    log.warning("table %d: %d events came with the numbers of stored ones and other "
                "content; kept for the director to choose", rows[0]["table_no"], len(rows))


def store_events(ctx: Context, conn: Connection, events: list[tuple[int, int, Event]],
            outcomes: list[Outcome]) -> list[tuple[int, int, Event]]:
    """Store each event not stored yet, in one statement; the ones that are new.

    The unique constraint decides (so two ingest workers racing cannot both store one);
    a key already stored is a duplicate if its content is the same, else a replayed or
    forged event, rejected."""
    now = ctx.clock()
    rows: dict[tuple[int, int], dict[str, Any]] = {}
    first: dict[tuple[int, int], int] = {}
    later: list[tuple[int, tuple[int, int], tuple[Any, ...]]] = []
    for index, table, event in events:
        key = (table, event.seq)
        data = _CANONICAL.encode(dict(event.data))
        if key in rows:
            later.append((index, key, (event.type, event.board, event.ts, data)))
            continue
        first[key] = index
        rows[key] = {"event": ctx.event, "table_no": table, "seq": event.seq,
                     "type": event.type, "board": event.board, "ts": event.ts,
                     "data": data, "received_at": now}
    if not rows:
        return []
    # One multi-row INSERT handed to the driver: SQLAlchemy's own executemany with
    # RETURNING built each row's parameters through its compiler, a third of the batch.
    new = {(table_no, seq) for table_no, seq in insert_returning(
        conn, s.events.name, _EVENT_COLUMNS, _EVENT_PG_TYPES,
        [tuple(row[c] for c in _EVENT_COLUMNS) for row in rows.values()],
        conflict=("event", "table_no", "seq"), returning=("table_no", "seq"))}
    old = [key for key in rows if key not in new]
    # Everything the table said counts: a replay that moves an event to another board or
    # time is as forged as one that changes what it says.
    stored_before: dict[tuple[int, int], tuple[Any, ...]] = {}
    if old:
        found = conn.execute(select(s.events.c.table_no, s.events.c.seq, s.events.c.type,
                                    s.events.c.board, s.events.c.ts, s.events.c.data).where(
            s.events.c.event == ctx.event,
            tuple_(s.events.c.table_no, s.events.c.seq).in_(old)))
        stored_before = {(r.table_no, r.seq): (r.type, r.board, r.ts, r.data)
                         for r in found}
    for key in old:
        row = rows[key]
        later.append((first[key], key, (row["type"], row["board"], row["ts"], row["data"])))
    conflicts: dict[tuple[int, int], dict[str, Any]] = {}
    for index, key, said in later:
        row = rows[key]
        known = stored_before.get(key) or (row["type"], row["board"], row["ts"], row["data"])
        if known != said:
            outcomes[index].rejected = (f"table {key[0]} event {key[1]}: already stored "
                                        f"with other content (a replayed or forged event)")
            outcomes[index].changed |= {"tables", "conflicts"}
            kind, board, ts, data = said
            conflicts[key] = {"event": ctx.event, "table_no": key[0], "seq": key[1],
                              "type": kind, "board": board, "ts": ts, "data": data,
                              "received_at": now}
        else:
            outcomes[index].duplicate = True
    if conflicts:
        # Kept beside the stored one (the latest of each number) until the director
        # chooses which stands: either may be the table's own (server/link/conflicts.py).
        _keep_conflicts(conn, list(conflicts.values()))
    event_at = {index: event for index, _, event in events}
    stored = [(first[key], key[0], event_at[first[key]]) for key in rows if key in new]
    for index, _, _ in stored:
        outcomes[index].stored = 1
    return stored


def advance(ctx: Context, conn: Connection, batch: Statuses, table: int,
             new: list[tuple[int, Event]], outcomes: list[Outcome]) -> None:
    """Move the table's contiguous mark over its new events (in order); ask for what is
    missing below them."""
    row = batch.row(table)
    contiguous, highest_before = row["contiguous_seq"], row["highest_seq"]
    seqs = [event.seq for _, event in new]
    if seqs[0] == contiguous + 1:
        if highest_before <= contiguous and seqs == list(range(contiguous + 1,
                                                               contiguous + 1 + len(seqs))):
            contiguous = seqs[-1]  # the usual case: in order, no gap open
        else:
            later = conn.execute(select(s.events.c.seq).where(
                s.events.c.event == ctx.event, s.events.c.table_no == table,
                s.events.c.seq > contiguous).order_by(s.events.c.seq)).scalars()
            for seq in later:
                if seq != contiguous + 1:
                    break
                contiguous = seq
    # Only what is within reach of the contiguous mark counts as the table's highest: a
    # number far ahead cannot be right, and would have every later gap asked up to it.
    reach = contiguous + MAX_AHEAD
    near = [seq for seq in seqs if seq <= reach]
    if len(near) < len(seqs):
        log.warning("table %d: event %d is more than %d ahead of event %d; kept, not "
                    "asked up to", table, seqs[-1], MAX_AHEAD, contiguous)
    highest = max(highest_before if highest_before <= reach else contiguous,
                  near[-1] if near else contiguous, contiguous)
    newest = new[-1][1]
    values: dict[str, Any] = {
        "contiguous_seq": contiguous, "highest_seq": highest, "seen_at": ctx.clock(),
        "last_action_at": max(row["last_action_at"] or 0.0,
                              max(event.ts for _, event in new))}
    boards = [event.board for _, event in new if event.board is not None]
    if boards and newest.seq >= highest_before:
        values["board"] = boards[-1]
    outcome = outcomes[new[-1][0]]
    if highest > contiguous:
        # Missing: above the contiguous mark, below the newest event when it is new.
        until = highest - 1 if highest == newest.seq else highest
        _ask_resend(ctx, table, row, contiguous, until,
                         highest == newest.seq and newest.seq > highest_before + 1,
                         values, outcome)
    batch.set(table, **values)
    for index, _ in new:
        outcomes[index].changed.add("tables")


def _ask_resend(ctx: Context, table: int, row: Mapping[str, Any], contiguous: int,
                until: int, new_gap: bool, values: dict[str, Any], outcome: Outcome) -> None:
    now = ctx.clock()
    asked = row["resend_asked_at"]
    waiting = asked is not None and now - asked < RESEND_AGAIN_AFTER
    if ctx.gap_grace > 0 and new_gap and not waiting:
        # Not yet: ask once the grace is over, at the table's next event or state.
        values["resend_asked_at"] = now - RESEND_AGAIN_AFTER + ctx.gap_grace
        return
    if waiting and (not new_gap or ctx.gap_grace > 0):
        return
    ident = f"resend-{table}-{contiguous + 1}-{until}-{int(now * 1000)}"
    outcome.commands.append((table, Command(ident, "resend",
                                            {"since": contiguous + 1, "until": until})))
    values["resend_asked_at"] = now
    log.info("table %d: events %d..%d missing, asked again", table, contiguous + 1, until)


def retained_state(ctx: Context, batch: Statuses, table: int, snapshot: Mapping[str, Any],
           outcome: Outcome) -> None:
    """A retained state: its phase, round and board go to the status row; a seq ahead
    of what is stored is a gap like any other."""
    row = batch.row(table)
    values: dict[str, Any] = {"phase": snapshot["phase"], "round": snapshot.get("round"),
                              "board": snapshot.get("board"), "seen_at": ctx.clock()}
    seq, contiguous = snapshot["seq"], row["contiguous_seq"]
    if seq > contiguous:  # the table is ahead of what we hold: events were lost
        reach = contiguous + MAX_AHEAD
        if seq > reach:  # not believed: the next stretch is asked for, no mark is set
            log.warning("table %d: its state says event %d, more than %d ahead of event "
                        "%d; asking for the next %d only", table, seq, MAX_AHEAD,
                        contiguous, MAX_AHEAD)
            _ask_resend(ctx, table, row, contiguous, reach, reach > row["highest_seq"],
                             values, outcome)
        else:
            values["highest_seq"] = max(row["highest_seq"], seq)
            _ask_resend(ctx, table, row, contiguous, seq, seq > row["highest_seq"],
                             values, outcome)
    batch.set(table, **values)


class Statuses:
    """Each table's status row, read once per batch and written once at its end."""

    def __init__(self, conn: Connection, event: str, tables: set[int]) -> None:
        self.conn = conn
        self.event = event
        self.rows: dict[int, dict[str, Any]] = {}
        self.changed: set[int] = set()
        if tables:
            found = select_in(conn, s.table_status.name, _STATUS_COLUMNS, "event", event,
                              "table_no", sorted(tables))
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
        _UPDATE_STATUS.many(self.conn, [{"b_event": self.event, "b_table": table,
                                         **self.rows[table]} for table in sorted(self.changed)])


_EVENT_COLUMNS = ("event", "table_no", "seq", "type", "board", "ts", "data", "received_at")
_EVENT_PG_TYPES = ("text", "integer", "integer", "text", "integer", "double precision", "text",
                   "double precision")
_STATUS_COLUMNS = [c.name for c in s.table_status.columns]
_STATUS_FIELDS = [c.name for c in s.table_status.columns if c.name not in ("event", "table_no")]
_UPDATE_STATUS = Prepared(update(s.table_status).where(
    s.table_status.c.event == bindparam("b_event"),
    s.table_status.c.table_no == bindparam("b_table")).values(
    {name: bindparam(name) for name in _STATUS_FIELDS}))
