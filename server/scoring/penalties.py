"""Procedural (Law 90) and disciplinary (Law 91) penalties: the director's, to a pair or team.

A penalty is given in the unit the director thinks in: matchpoints, a percentage of a board's
top (the common procedural penalty is 25 % of a top), or IMPs. It is stored as given and
turned into the ranking's unit only when the field is scored (:func:`deductions`), so a
penalty given before the last board is still right once the session's top is known. The
rankings take it off the participant's score and show it in a column of its own
(``Standing.penalty``). A penalty the director withdraws is kept, marked, for the record.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from sqlalchemy import insert, select, update

from server.errors import Refused
from server.setup.session import Session, participants_of
from server.storage import schema as s
from server.storage.db import Database

Clock = Callable[[], float]

LAWS = ("90", "91")  # Law 90: procedural penalty; Law 91: disciplinary penalty
UNITS = ("mp", "top", "imps", "vp")
"""mp: matchpoints; top: a percentage of one board's matchpoint top; imps: IMPs; vp: victory
points, off a Swiss team's VP total (server/scoring/swiss.py)."""
MOST = {"mp": 1000.0, "top": 100.0, "imps": 100.0, "vp": 20.0}
"""The largest single penalty accepted in each unit: a sanity bound against a slip of the
keyboard (a whole top, 100 %, is the most Law 90 practice ever takes on one offence)."""


class PenaltyError(Refused):
    """A penalty that cannot be given or withdrawn; the message says why."""


@dataclass(frozen=True)
class Penalty:
    id: int
    participant: int
    law: str
    unit: str
    amount: float
    note: str
    given_by: str
    given_at: float
    withdrawn_by: str | None
    withdrawn_at: float | None

    @property
    def standing(self) -> bool:
        return self.withdrawn_at is None


def give(db: Database, session: Session, participant: int, law: str, unit: str,
         amount: float, note: str, *, by: str, clock: Clock = time.time) -> int:
    """Record a penalty to ``participant``; its id. ``amount`` is what is taken off, in
    ``unit`` (positive)."""
    allowed = session.scoring.penalty_units  # each scoring's units (server/setup/scorings.py)
    if not allowed:
        raise PenaltyError(f"a {session.scoring} session ranks no field in matchpoints or "
                           "IMPs: there is no score to take a penalty from")
    if law not in LAWS:
        raise PenaltyError(f"a penalty is procedural (Law 90) or disciplinary (Law 91), "
                           f"not Law {law!r}")
    if unit not in allowed:
        raise PenaltyError(f"this session is scored in {_scoring_word(session)}: give the "
                           f"penalty in {' or '.join(allowed)}, not {unit!r}")
    if not math.isfinite(amount) or not 0 < amount <= MOST[unit]:
        raise PenaltyError(f"a penalty in {unit} is more than 0 and at most {MOST[unit]:g}, "
                           f"not {amount:g}")
    known = participants_of(db, session)
    if participant not in known or known[participant].phantom:
        raise PenaltyError(f"{participant} is not a pair or team of this session")
    note = (note or "").strip()
    if not note:
        raise PenaltyError("say why: the note is the penalty's record")
    with db.write() as conn:
        ident = conn.execute(insert(s.penalties).returning(s.penalties.c.id).values(
            session_id=session.id, participant=participant, law=law, unit=unit,
            amount=float(amount), note=note[:200], given_by=by, given_at=clock())).scalar_one()
    return int(ident)


def withdraw(db: Database, session: Session, ident: int, *, by: str,
             clock: Clock = time.time) -> Penalty:
    """The director takes a penalty back (an appeal, a mistake); it stays in the record."""
    with db.write() as conn:
        row = conn.execute(select(s.penalties).where(
            s.penalties.c.session_id == session.id, s.penalties.c.id == ident)).first()
        if row is None:
            raise PenaltyError(f"no penalty {ident} in this session")
        if row.withdrawn_at is None:
            conn.execute(update(s.penalties).where(s.penalties.c.id == ident).values(
                withdrawn_by=by, withdrawn_at=clock()))
    return next(p for p in given(db, session) if p.id == ident)


def given(db: Database, session: Session) -> list[Penalty]:
    """Every penalty of the session, the withdrawn ones too, in the order given."""
    with db.read() as conn:
        rows = conn.execute(select(s.penalties).where(
            s.penalties.c.session_id == session.id).order_by(s.penalties.c.id)).all()
    return [Penalty(r.id, r.participant, r.law, r.unit, r.amount, r.note, r.given_by,
                    r.given_at, r.withdrawn_by, r.withdrawn_at) for r in rows]


def deductions(penalties: Iterable[Penalty], mp_top: float | None) -> dict[int, float]:
    """Each participant's standing penalties added up in the ranking's unit: matchpoints
    (a part of a top becomes that part of ``mp_top``, the matchpoint top of a board) or
    IMPs."""
    total: dict[int, float] = defaultdict(float)
    for penalty in penalties:
        if not penalty.standing or penalty.unit == "vp":
            continue  # VPs come off a Swiss's VP standings (vp_deductions), not its IMPs
        if penalty.unit == "top":
            if not mp_top:
                continue  # one table: no top, and nothing to rank against
            total[penalty.participant] += penalty.amount * mp_top / 100
        else:
            total[penalty.participant] += penalty.amount
    return dict(total)


def vp_deductions(penalties: Iterable[Penalty]) -> dict[int, float]:
    """Each team's standing penalties in VPs added up: a Swiss takes them off its VP total
    (a procedural penalty, Law 90, or a disciplinary one, Law 91)."""
    total: dict[int, float] = defaultdict(float)
    for penalty in penalties:
        if penalty.standing and penalty.unit == "vp":
            total[penalty.participant] += penalty.amount
    return dict(total)


def _scoring_word(session: Session) -> str:
    return session.scoring.entry.counted_in


def by_participant(penalties: Iterable[Penalty]) -> Mapping[int, list[Penalty]]:
    found: dict[int, list[Penalty]] = defaultdict(list)
    for penalty in penalties:
        if penalty.standing:
            found[penalty.participant].append(penalty)
    return found
