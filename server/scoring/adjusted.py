"""Adjusted scores in full (Law 12C): the session's figures for artificial scores, and the
director's weighted and split assigned scores.

Artificial scores (Law 12C2) are written on the result as text ("A+/A-", "A60/40") and scored
by :mod:`server.scoring.fieldscore`; here are the figures the session gives "A+", "A=" and "A-" (60,
50 and 40 % by the Laws, or the club's own) and whether the regulation gives a side in no
way at fault the larger of average plus and its session percentage (:class:`ScoringRules`).

Assigned scores (Law 12C1) are real scores. A weighted one (12C1(c): 30 % of 4H= and 70 %
of 4H-1) and a split one (12C1(d): a different score for each side) are stored in
``assigned_scores`` with each side's scores and weights, and the result row says
``weighted`` or ``split``; :func:`server.scoring.standings.field` scores them into the field. Each
score is the laws' own (``laws``, Law 77) from the contract, the declarer and the
tricks the director writes, as the table would have scored it.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, insert, select, update

from laws import RulesError, Seat, Vulnerability, format_contract, parse_contract
from laws.scoring import score_ns as duplicate_score_ns
from server.errors import Refused
from server.scoring import fieldscore as fs
from server.scoring.results import write_result
from server.setup.session import Session, board_conditions
from server.storage import schema as s
from server.storage.db import Database

Clock = Callable[[], float]


class AdjustedError(Refused):
    """Figures or an assigned score that cannot be taken; the message says what to write."""


# -- the session's figures for artificial scores ---------------------------------------------

@dataclass(frozen=True)
class ScoringRules:
    """Law 12C2(a): average plus at least 60 %, average 50 %, average minus at most 40 %;
    ``session_percent``: the regulation gives a side in no way at fault the larger of
    average plus and its percentage on the other boards."""

    avg_plus: int = 60
    avg: int = 50
    avg_minus: int = 40
    session_percent: bool = False

    @property
    def averages(self) -> dict[str, int]:
        return fs.averages_of(self.avg_plus, self.avg, self.avg_minus)


def rules_of(db: Database, session: Session) -> ScoringRules:
    with db.read() as conn:
        row = conn.execute(select(s.scoring_rules).where(
            s.scoring_rules.c.session_id == session.id)).first()
    if row is None:
        return ScoringRules()
    return ScoringRules(row.avg_plus, row.avg, row.avg_minus, bool(row.session_percent))


def set_rules(db: Database, session: Session, rules: ScoringRules, *, by: str,
              clock: Clock = time.time) -> ScoringRules:
    """Store the session's figures; a bad one is refused and nothing changes."""
    try:
        rules.averages  # noqa: B018 (checks the figures)
    except ValueError as error:
        raise AdjustedError(str(error)) from None
    own = (rules.avg_plus, rules.avg, rules.avg_minus) != (60, 50, 40)
    if own and not session.scoring.entry.club_percentages:
        raise AdjustedError("a session scored in IMPs gives average plus and minus as +3 and "
                            "-3 IMPs: the club's own percentages are for matchpoints")
    values = {"avg_plus": rules.avg_plus, "avg": rules.avg, "avg_minus": rules.avg_minus,
              "session_percent": rules.session_percent, "set_by": by, "set_at": clock()}
    with db.write() as conn:
        key = s.scoring_rules.c.session_id == session.id
        if conn.execute(select(s.scoring_rules.c.session_id).where(key)).first() is None:
            conn.execute(insert(s.scoring_rules).values(session_id=session.id, **values))
        else:
            conn.execute(update(s.scoring_rules).where(key).values(**values))
    return rules


# -- weighted and split assigned scores ------------------------------------------------------

@dataclass(frozen=True)
class Part:
    """One score of an assigned score, with its weight in percent."""

    weight: int
    contract: str  # as laws writes it, or "Pass"
    declarer: str | None
    tricks: int | None
    score_ns: int

    @property
    def text(self) -> str:
        played = self.contract if self.declarer is None else \
            f"{self.contract} {self.declarer} {self.tricks}"
        return played if self.weight == 100 else f"{self.weight}% {played}"

    def to_json(self) -> list[Any]:
        return [self.weight, self.score_ns, self.contract, self.declarer, self.tricks]

    @classmethod
    def from_json(cls, value: list[Any]) -> Part:
        weight, score, contract, declarer, tricks = value
        return cls(int(weight), str(contract), declarer, tricks, int(score))


_PART = re.compile(r"(?:(\d{1,3})\s*%\s*)?(.+)")
HOW = "write e.g. 30% 4H S 10 + 70% 4H S 9 (weight, contract, declarer, tricks), or Pass"


def parse_parts(text: str, vulnerability: Vulnerability) -> tuple[Part, ...]:
    """A side's assigned score as the director writes it: "4H S 10" (one score), or a
    weighted one, "30% 4H S 10 + 70% 4H S 9" (Law 12C1(c)); "Pass" for a board passed out.
    Each score comes from the laws (Law 77) for the board's vulnerability."""
    parts: list[Part] = []
    for piece in re.split(r"[+;]", text or ""):
        piece = piece.strip()
        if not piece:
            continue
        match = _PART.fullmatch(piece)
        assert match is not None  # (.+) matches any non-empty text
        weight = int(match.group(1)) if match.group(1) else 100
        words = match.group(2).split()
        try:
            if len(words) == 1 and words[0].lower() in ("pass", "paso"):
                parts.append(Part(weight, "Pass", None, None, 0))
                continue
            if len(words) != 3:
                raise AdjustedError(f"{piece!r}: {HOW}")
            contract = parse_contract(words[0].upper())
            if contract is None:
                raise AdjustedError(f"{piece!r}: a passed-out board is just Pass")
            declarer = Seat.from_str(words[1].upper())
            tricks = int(words[2])
            points = duplicate_score_ns(contract, declarer, tricks, vulnerability)
        except (RulesError, ValueError) as error:
            if isinstance(error, AdjustedError):
                raise
            raise AdjustedError(f"{piece!r}: {error}; {HOW}") from None
        parts.append(Part(weight, format_contract(contract), str(declarer), tricks, points))
    if not parts:
        raise AdjustedError(f"no score given; {HOW}")
    try:
        fs.check_weighted(tuple((p.weight, p.score_ns) for p in parts))
    except ValueError as error:
        raise AdjustedError(str(error)) from None
    return tuple(parts)


@dataclass(frozen=True)
class Assigned:
    """A weighted or split assigned score: each side's scores."""

    ns: tuple[Part, ...]
    ew: tuple[Part, ...]

    @property
    def kind(self) -> str:
        if self.ns != self.ew:
            return "split"
        return "weighted" if len(self.ns) > 1 else "assigned"

    @property
    def scores(self) -> tuple[fs.Weighted, fs.Weighted]:
        return (tuple((p.weight, p.score_ns) for p in self.ns),
                tuple((p.weight, p.score_ns) for p in self.ew))

    @property
    def text(self) -> str:
        """How a traveller writes it: "30% 4H S 10 + 70% 4H S 9", or each side's."""
        ns = " + ".join(p.text for p in self.ns)
        if self.kind != "split":
            return ns
        return f"NS {ns} / EW {' + '.join(p.text for p in self.ew)}"


def assign(db: Database, session: Session, table: int, board: int, ns: str,
           ew: str | None = None, *, by: str, note: str | None,
           clock: Clock = time.time) -> Assigned:
    """Give the result of ``table`` on ``board`` an assigned score: ``ns`` for both sides, or
    ``ns`` for North-South and ``ew`` for East-West (a split score, Law 12C1(d)); each may be
    weighted (Law 12C1(c)). The result row changes, and the corrections keep what was there
    before, as for any correction."""
    if board not in session.plan.boards():
        raise AdjustedError(f"board {board} is not played in this session")
    if not 1 <= table <= session.tables:
        raise AdjustedError(f"table {table} is not between 1 and {session.tables}")
    note = (note or "").strip()
    if not note:
        raise AdjustedError("say why: the note is the ruling's record")
    vulnerability = board_conditions(session, board)[1]
    ns_parts = parse_parts(ns, vulnerability)
    ew_parts = parse_parts(ew, vulnerability) if ew and ew.strip() else ns_parts
    given = Assigned(ns_parts, ew_parts)
    single = given.kind == "assigned"
    after: dict[str, Any] = {
        "contract": ns_parts[0].contract if single else None,
        "declarer": ns_parts[0].declarer if single else None,
        "tricks": ns_parts[0].tricks if single else None,
        "score_ns": ns_parts[0].score_ns if single else None, "table_score_ns": None,
        "adjusted": given.kind, "corrected_by": by}
    scored_key = and_(s.assigned_scores.c.event == session.event,
                      s.assigned_scores.c.table_no == table,
                      s.assigned_scores.c.board == board)
    now = clock()
    with db.write() as conn:
        before = write_result(conn, session, table, board, after, now, after)
        conn.execute(delete(s.assigned_scores).where(scored_key))
        conn.execute(insert(s.assigned_scores).values(
            event=session.event, table_no=table, board=board,
            ns=json.dumps([p.to_json() for p in ns_parts]),
            ew=json.dumps([p.to_json() for p in ew_parts]), given_by=by, given_at=now))
        detail = {"before": before, "after": after, "ns": given.text if single else
                  " + ".join(p.text for p in ns_parts),
                  "ew": " + ".join(p.text for p in ew_parts)}
        conn.execute(insert(s.corrections).values(
            event=session.event, table_no=table, board=board, kind=given.kind,
            detail=json.dumps(detail, sort_keys=True), note=note[:200], made_by=by,
            made_at=now))
    return given


def assigned_of(db: Database, session: Session) -> dict[tuple[int, int], Assigned]:
    """(table, board) -> the weighted or split score stored for it."""
    with db.read() as conn:
        rows = conn.execute(select(s.assigned_scores).where(
            s.assigned_scores.c.event == session.event)).all()
    return {(r.table_no, r.board): Assigned(
        tuple(Part.from_json(p) for p in json.loads(r.ns)),
        tuple(Part.from_json(p) for p in json.loads(r.ew))) for r in rows}
