"""Projections: the rows derived from stored events, one handler per event type that makes any.

Results (a table's score is recomputed here with ``laws``, never trusted, only kept
beside ours to show a disagreement), who sat at a board, the director's calls and their
acknowledgements, the answers to the server's commands, and the director's scores (Law 12C).
Each handler runs once per event newly stored; a resend that fills a gap repairs what was
derived before it, so the rows do not depend on the order events arrive in.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, bindparam, insert, select, update

from laws import RulesError, Seat, Vulnerability, parse_contract
from laws.scoring import score_ns
from server.scoring.fieldscore import parse_adjusted
from server.setup import player_register as register
from server.setup.session import capture_deal
from server.storage import schema as s
from tablemodel.rulings import KINDS as RULING_KINDS
from tablemodel.rulings import Effect
from tablemodel.wire import Event, EventType

from .outcome import Outcome
from .sql import Prepared, select_in
from .store import Statuses

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Seated:
    round: int | None
    ns: int | None
    ew: int | None


def _effect(kind: object) -> Effect:
    """What the server does with a ruling of ``kind`` once applied; nothing for a kind this
    server does not know (the wire refuses those before they get here)."""
    found = RULING_KINDS.get(kind) if isinstance(kind, str) else None
    return Effect.NONE if found is None else found.effect


class Projections:
    """Ingest's derived rows. A mixin of :class:`server.link.ingest.Ingest`, which sets what it
    reads."""

    event: str
    # (table, board) -> who the movement put there, a fallback
    seating: Callable[[int, int], Seated | None] | None
    # (table, board) -> why the table may not have a result on the board now, or None
    allowed: Callable[[int, int], str | None] | None
    # board -> who is vulnerable, as the session says (Law 2's cycle unless it says else)
    vulnerability: Callable[[int], Vulnerability]

    def _project(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                 batch: Statuses) -> None:
        """The rows ``event``, newly stored, derives (most types derive none)."""
        derive = DERIVE[event.type]
        if derive is not None:
            derive(self, conn, table, event, outcome, batch)

    def _allowed_board(self, table: int, event: Event, outcome: Outcome,
                       what: str) -> int | None:
        """The board of ``event`` (a result or a deal) if the table may have one on it now;
        else None, with the refusal in ``outcome``."""
        if event.board is None:
            outcome.rejected = f"table {table} event {event.seq}: {what} without a board"
            return None
        refusal = self.allowed(table, event.board) if self.allowed is not None else None
        if refusal is not None:
            outcome.rejected = f"table {table} event {event.seq}: {refusal}"
            return None
        return event.board

    def _on_result(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                   batch: Statuses) -> None:
        board = self._allowed_board(table, event, outcome, "a result")
        if board is None:
            return
        row = self.result_row(conn, table, event)
        key = {"b_event": self.event, "b_table": table, "b_board": board}
        current = _RESULT_NOW(conn, **key).first()
        if current is not None and current.source_seq > event.seq and current.contract is None:
            # A resend brought the board's result after the director's score for it: the
            # score stands, and the contract played joins it for the record.
            conn.execute(update(s.results).where(_key(self.event, table, board)).values(
                contract=row["contract"], declarer=row["declarer"], tricks=row["tricks"],
                lead=row["lead"], table_score_ns=row["table_score_ns"]))
            outcome.changed.add("results")
            return
        if current is None:
            _INSERT_RESULT(conn, event=self.event, table_no=table, board=board, **row)
        elif current.corrected_by is not None:
            # The director corrected this board on the server: the table's result is kept in
            # its events, but the correction stands until the director changes it.
            log.warning("table %d board %d: result event %d left aside, the director's "
                        "correction stands", table, board, event.seq)
            return
        elif current.source_seq < event.seq:  # a later result supersedes (a ruling's score)
            conn.execute(update(s.results).where(_key(self.event, table, board)).values(**row))
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
            # The table says which lead stood; an older table's result is read from its cards.
            "lead": data.get("lead") or self._lead(conn, table, board), "score_ns": score,
            "table_score_ns": data.get("score_ns"), "adjusted": adjusted,
            "transferred": data.get("transferred"),  # Law 64A, apart from the tricks
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
        assigns = [json.loads(text) for text in _ASSIGNS_BEFORE(
            conn, b_event=self.event, b_table=table, b_seq=seq).scalars()]
        # What the server sent under those commands' ids, in one query by primary key (not
        # one query an assignment): a table's word for what a command held is not taken.
        sent = {row.id: row.data for row in select_in(
            conn, s.commands.name, ("id", "table_no", "type", "data"), "event", self.event,
            "id", sorted({str(data["cmd"]) for data in assigns}))
            if row.table_no == table and row.type == "assign"}
        claimed: Seated | None = None
        for data in assigns:
            text = sent.get(data["cmd"])
            held = None if text is None else json.loads(text)
            if held is not None and board in held["boards"]:
                return Seated(held["round"], held["ns"], held["ew"])
            if claimed is None and board in data["boards"]:
                claimed = Seated(data["round"], data["ns"], data["ew"])
        # No assignment of ours names the board: the movement's plan, and only without a
        # session (nothing to protect) what the table itself says.
        planned = self.seating(table, board) if self.seating is not None else None
        if planned is not None:
            return planned
        return claimed if claimed is not None else Seated(None, None, None)

    def _result_data(self, conn: Connection, table: int, seq: int | None) -> dict[str, Any]:
        """The stored data of the result event a results row came from ({} for a row the
        director wrote)."""
        if seq is None:
            return {}
        found = conn.execute(select(s.events.c.data).where(
            s.events.c.event == self.event, s.events.c.table_no == table,
            s.events.c.seq == seq)).scalar()
        return {} if found is None else dict(json.loads(found))

    def _lead(self, conn: Connection, table: int, board: int) -> str | None:
        first = _FIRST_CARD(conn, b_event=self.event, b_table=table, b_board=board).scalar()
        return None if first is None else str(json.loads(first)["card"])

    def _on_deal(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                 batch: Statuses) -> None:
        """Boards dealt at the table: the first table to scan a board's four hands gives its
        hand record (the double-dummy analysis follows once the board is released)."""

        board = self._allowed_board(table, event, outcome, "a deal")
        if board is None:
            return
        differ = capture_deal(conn, self.event, board, event.data["deal"], table, event.ts)
        if differ is None:
            return
        outcome.changed.add("analysis")  # the hand record pages show the deal now
        if differ:
            # Law 87: a table that scanned its hands before the first table's deal reached it
            # (both started the board at once) holds other cards: a fouled board. The first
            # deal stays the hand record; the director is called to the later table.
            conn.execute(insert(s.director_calls).values(
                event=self.event, table_no=table, seq=event.seq, board=board, seat=None,
                reason="fouled_board", law="87",
                detail=(f"the hands of {' '.join(map(str, differ))} differ from the deal "
                        f"captured first"), called_at=event.ts))
            outcome.changed.add("calls")

    def _on_card(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                 batch: Statuses) -> None:
        # A card that arrives after its board's result (a resent gap) may be the lead; a card
        # in order cannot follow its own board's result, so it needs no look.
        if event.board is None or event.seq > batch.before[table]:
            return
        key = and_(s.results.c.event == self.event, s.results.c.table_no == table,
                   s.results.c.board == event.board)
        found = conn.execute(select(s.results.c.source_seq).where(key)).first()
        if found is not None and "lead" not in self._result_data(conn, table, found.source_seq):
            conn.execute(update(s.results).where(key).values(
                lead=self._lead(conn, table, event.board)))
            outcome.changed.add("results")

    def _on_director(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                     batch: Statuses) -> None:
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
            if _effect(ack.get("kind")) is Effect.ACKNOWLEDGE and ack.get("call") in (
                    None, event.seq):
                conn.execute(update(s.director_calls).where(
                    s.director_calls.c.event == self.event,
                    s.director_calls.c.table_no == table, s.director_calls.c.seq == event.seq)
                    .values(acknowledged_at=ts, acknowledged_by="table"))
                break

    def _sent(self, conn: Connection, table: int, ident: str,
              kind: str | None = None) -> Mapping[str, Any] | None:
        """The data of a command the server sent this table, or None: what a table says a
        command held is never taken on its word."""
        if kind is None:
            text = _SENT(conn, b_event=self.event, b_table=table, b_id=ident).scalar()
        else:
            text = _SENT_OF_KIND(conn, b_event=self.event, b_table=table, b_id=ident,
                                 b_type=kind).scalar()
        return None if text is None else dict(json.loads(text))

    def _answer(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                reason: str | None = None) -> None:
        # Only this table's own command: another table cannot answer it for it.
        _ANSWER(conn, b_event=self.event, b_table=table, b_id=event.data["cmd"],
                answer_seq=event.seq, answer=str(event.type), answer_reason=reason)
        outcome.changed.add("commands")

    def _on_assign(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                   batch: Statuses) -> None:
        batch.set(table, round=event.data["round"])
        self._answer(conn, table, event, outcome)
        # A resend may bring the assignment after results of its boards: they learn now who
        # sat there.
        boards = set(event.data["boards"])
        waiting = [row for row in _UNSEATED(conn, b_event=self.event, b_table=table).all()
                   if row.board in boards]
        for row in waiting:
            board = row.board
            seated = self._seated(conn, table, board, max(row.source_seq, event.seq + 1))
            conn.execute(update(s.results).where(
                s.results.c.event == self.event, s.results.c.table_no == table,
                s.results.c.board == board).values(round=seated.round, ns=seated.ns,
                                                   ew=seated.ew))
            outcome.changed.add("results")

    def _on_ruling(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                   batch: Statuses) -> None:
        self._answer(conn, table, event, outcome)
        effect = _effect(event.data["kind"])  # each kind says its effect (tablemodel/rulings.py)
        if effect is Effect.SCORE and event.board is not None:
            self._scored_by_ruling(conn, table, event, outcome)
        if effect is Effect.ACKNOWLEDGE:  # the table has taken the director's answer
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
        if sent is None or _effect(sent.get("kind")) is not Effect.SCORE:
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

    def _on_roster(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                   batch: Statuses) -> None:
        self._answer(conn, table, event, outcome)  # the visitor reached the table (issue 17)

    def _on_player(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                   batch: Statuses) -> None:
        """The register names a pair once both its players sat down (issue 17): "Ana Ruiz &
        Luis Gil", unless the pair has names already (the director's stand). The console, the
        live page and the exports then show them. Only the seated numbers are read from the
        session's register, not all of it: this runs for every player who sits down.
        A player who is not in the register (or a seat left empty) completes no pair, and
        the other pair of the table was named when its own second player sat down: nothing
        more is read then (at a simultaneous's round start, a thousand tables' four players
        each, this was four queries a player for a session with no register)."""
        number = event.data.get("number")
        if number is None:
            return
        found = _SESSION_OF(conn, b_event=self.event).first()
        if found is None or found.movement not in register.PAIR_MOVEMENTS:
            return
        if _IN_REGISTER(conn, b_session=found.id, b_number=number).first() is None:
            return
        assign = _LAST_ASSIGN(conn, b_event=self.event, b_table=table, b_seq=event.seq).first()
        if assign is None:
            return
        seats: register.Seats = {}
        for text in _PLAYERS_AFTER(conn, b_event=self.event, b_table=table,
                                   b_seq=assign.seq).scalars():
            data = json.loads(text)
            seats[Seat.from_str(data["seat"])] = data["number"]
        numbers = sorted({n for n in seats.values() if n is not None})
        players = {row.number: register.Member(row.number, row.name, row.licence,
                                               bool(row.visitor))
                   for row in select_in(conn, s.session_players.name,
                                        ("number", "name", "licence", "visitor"),
                                        "session_id", found.id, "number", numbers)}
        if not players:
            return  # a session with no register, or none of these in it: nothing to name by
        named = register.names_at(seats, players)
        pairs = json.loads(assign.data)
        for pair, (one, two) in ((pairs["ns"], (Seat.N, Seat.S)),
                                 (pairs["ew"], (Seat.E, Seat.W))):
            if seats.get(one) not in players or seats.get(two) not in players:
                continue
            done = _NAME_PAIR(conn, b_session=found.id, b_pair=pair,
                              names=f"{named[one]} & {named[two]}"[:200])
            if done.rowcount > 0:
                outcome.changed.add("results")

    def _on_refused(self, conn: Connection, table: int, event: Event, outcome: Outcome,
                    batch: Statuses) -> None:
        self._answer(conn, table, event, outcome, reason=event.data["reason"])


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
_SENT = Prepared(select(s.commands.c.data).where(
    s.commands.c.event == bindparam("b_event"), s.commands.c.table_no == bindparam("b_table"),
    s.commands.c.id == bindparam("b_id")))
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


_Derive = Callable[[Projections, Connection, int, Event, Outcome, Statuses], None]
#: The rows each event type derives, by type: None where the stored event is all there is.
#: Every type has its entry (checked below), so a new type is a decision, not a silence.
DERIVE: dict[EventType, _Derive | None] = {
    EventType.RESULT: Projections._on_result, EventType.CARD: Projections._on_card,
    EventType.DIRECTOR: Projections._on_director, EventType.ASSIGN: Projections._on_assign,
    EventType.RULING: Projections._on_ruling, EventType.ROSTER: Projections._on_roster,
    EventType.PLAYER: Projections._on_player, EventType.REFUSED: Projections._on_refused,
    EventType.DEAL: Projections._on_deal,
    EventType.BOARD: None, EventType.HAND_CARD: None, EventType.CALL: None,
    EventType.CHANGE: None, EventType.ALERT: None, EventType.QUESTION: None,
    EventType.ANSWER: None, EventType.TRAY: None, EventType.FACED: None,
    EventType.CLAIM: None, EventType.CLAIM_ANSWER: None, EventType.CONFIRM: None,
    EventType.OPTION: None,
}
if set(DERIVE) != set(EventType):
    raise AssertionError(f"event types with no entry in DERIVE: {set(EventType) - set(DERIVE)}")
