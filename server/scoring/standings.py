"""Results, the release rule, and the field's scores and rankings.

The release rule: a board's results (its traveller, its hand record, its part in the
rankings) are public only once every table the movement schedules to play it has a result
for it, or the director has released it. Nobody in the room learns a board before playing it.
The director's console sees everything; the public pages and API see only released boards,
and the public rankings count released boards only.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select

from laws import RulesError, Seat, parse_contract
from laws.scoring import deal_score
from server.scoring import adjusted as adjusted_scores
from server.scoring import fieldscore as fs
from server.scoring import penalties as penalty_book
from server.setup.movements import PHANTOM, Sectioned
from server.setup.scorings import Method, Scoring
from server.setup.session import Session, board_conditions, participants_of
from server.storage import schema as s
from server.storage.db import Database

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ResultRow:
    """One table's result on one board, as the API gives it."""

    section: str
    round: int | None
    board: int
    table: int
    ns_pair: int | None
    ew_pair: int | None
    contract: str | None
    declarer: str | None
    tricks: int | None
    lead: str | None
    score_ns: int | None
    adjusted: str | None
    table_score_ns: int | None
    finished_at: float
    corrected_by: str | None
    transferred: int | None = None  # Law 64A: of ``tricks``, those moved for a revoke

    def to_json(self) -> dict[str, Any]:
        return {"section": self.section, "round": self.round, "board": self.board,
                "table": self.table, "ns_pair": self.ns_pair, "ew_pair": self.ew_pair,
                "contract": self.contract, "declarer": self.declarer, "tricks": self.tricks,
                "lead": self.lead, "score_ns": self.score_ns, "adjusted": self.adjusted}


def all_results(db: Database, session: Session) -> list[ResultRow]:
    with db.read() as conn:
        rows = conn.execute(select(s.results).where(s.results.c.event == session.event)
                            .order_by(s.results.c.board, s.results.c.table_no)).all()
    return [ResultRow(session.section_of_table(r.table_no), r.round, r.board, r.table_no,
                      r.ns, r.ew, r.contract,
                      r.declarer, r.tricks, r.lead, r.score_ns, r.adjusted, r.table_score_ns,
                      r.finished_at, r.corrected_by, r.transferred) for r in rows]


def released_boards(db: Database, session: Session,
                    results: Iterable[ResultRow] | None = None) -> set[int]:
    """Boards every scheduled table has finished, and those the director released."""
    rows = list(all_results(db, session) if results is None else results)
    finished = {(r.table, r.board) for r in rows}
    with db.read() as conn:
        by_director = set(conn.execute(select(s.releases.c.board).where(
            s.releases.c.event == session.event)).scalars())
    plan = session.plan
    released = set(by_director)
    for board in plan.boards():
        tables = [seat.table for seat in plan.schedule(board)
                  if PHANTOM not in (seat.ns, seat.ew)]
        if tables and all((table, board) in finished for table in tables):
            released.add(board)
    return released


def release(db: Database, session: Session, board: int, by: str,
            clock: Any = time.time) -> None:
    """The director shows a board before every table has finished it (late play)."""
    with db.write() as conn:
        if conn.execute(select(s.releases.c.board).where(
                s.releases.c.event == session.event, s.releases.c.board == board)).first():
            return
        conn.execute(insert(s.releases).values(event=session.event, board=board,
                                               released_at=clock(), released_by=by))


def public_results(db: Database, session: Session,
                   results: Iterable[ResultRow] | None = None) -> list[ResultRow]:
    """The results of released boards, of ``results`` when the caller has read them."""
    rows = list(all_results(db, session) if results is None else results)
    released = released_boards(db, session, rows)
    return [r for r in rows if r.board in released]


def missing(db: Database, session: Session) -> list[tuple[int, int, int]]:
    """(round, table, board) the movement scheduled up to the current round, with no result."""
    done = {(r.table, r.board) for r in all_results(db, session)}
    plan = session.plan
    return [(seat.round, seat.table, board)
            for number in range(1, session.current_round + 1)
            for seat in plan.round(number) if PHANTOM not in (seat.ns, seat.ew)
            for board in seat.boards if (seat.table, board) not in done]


# -- the field's scores ------------------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    scored: dict[int, list[fs.Scored]]  # board -> its results with their field scores
    standings: list[fs.Standing]
    method: Method


def _board_result(row: ResultRow, averages: Mapping[str, int] | None = None,
                  assigned: Mapping[tuple[int, int], Any] | None = None
                  ) -> fs.BoardResult | None:
    """The field's view of one result: ``averages`` are the session's figures for A+, A= and
    A- (Law 12C2), ``assigned`` its weighted and split scores (Law 12C1(c), (d)) by
    (table, board)."""
    if row.ns_pair in (None, PHANTOM) or row.ew_pair in (None, PHANTOM):
        return None
    try:
        adjusted = fs.parse_adjusted(row.adjusted, averages)
    except ValueError:
        adjusted = None
    given = (assigned or {}).get((row.table, row.board))
    if row.adjusted in ("weighted", "split") and given is not None:
        assert row.ns_pair is not None and row.ew_pair is not None
        return fs.BoardResult(row.board, row.ns_pair, row.ew_pair, None, None, row.table,
                              row.round, assigned=given.scores)
    if adjusted is None and row.score_ns is None:
        return None  # a result the laws could not score: the console shows it to be fixed
    return fs.BoardResult(row.board, row.ns_pair, row.ew_pair,
                          None if adjusted is not None else row.score_ns, adjusted, row.table,
                          row.round)


def field(db: Database, session: Session, *, public: bool,
          results: Iterable[ResultRow] | None = None) -> Field:
    """The field's scores and rankings; ``results``: the session's results, when the caller
    has read them already."""
    rows = (public_results(db, session, results) if public
            else list(all_results(db, session) if results is None else results))
    groups = {number: p.grp for number, p in participants_of(db, session).items()}
    if session.scoring.social:
        return _social(session, rows, groups)
    rules = adjusted_scores.rules_of(db, session)
    assigned = adjusted_scores.assigned_of(db, session)
    given = penalty_book.given(db, session)
    scored: dict[int, list[fs.Scored]] = defaultdict(list)
    standings: list[fs.Standing] = []
    for unit_rows, unit_groups in _units(session, rows, groups):
        unit = _field(session, unit_rows, unit_groups, rules, assigned, given)
        for board, lines in unit.scored.items():
            scored[board].extend(lines)
        standings.extend(unit.standings)
    return Field(dict(sorted(scored.items())), standings, session.scoring.method)


def _units(session: Session, rows: list[ResultRow], groups: dict[int, str]
           ) -> list[tuple[list[ResultRow], dict[int, str]]]:
    """What is scored on its own: the whole session; or, in a session of sections scored
    within each section, each section's results and pairs (each with its own top). Scored
    across the field, every board's results from all sections are compared together, and the
    pairs are ranked by direction across the sections ("A NS" and "B NS" are one group)."""
    if len(session.sections) < 2:
        return [(rows, groups)]
    plan = session.plan
    if session.scope == "field":
        return [(rows, {n: group.partition(" ")[2] for n, group in groups.items()})]
    assert isinstance(plan, Sectioned)
    # One pass over the rows and one over the pairs, each pair's section found by bisection:
    # at 200 sections and 10,000 pairs (a 5,000-table simultaneous) a pass per section took
    # minutes a request.
    section_rows: dict[str, list[ResultRow]] = defaultdict(list)
    for row in rows:
        section_rows[row.section].append(row)
    section_groups: dict[str, dict[int, str]] = defaultdict(dict)
    for number, group in groups.items():
        section_groups[plan.section_of(number)][number] = group
    return [(section_rows[section.letter], section_groups[section.letter])
            for section in session.sections]


def _field(session: Session, rows: list[ResultRow], groups: dict[int, str],
           rules: adjusted_scores.ScoringRules,
           assigned: Mapping[tuple[int, int], adjusted_scores.Assigned],
           given: list[penalty_book.Penalty]) -> Field:
    # The club's own figures are percentages: matchpoints only (IMPs take Law 86A's +3/-3).
    averages = rules.averages if session.scoring.entry.club_percentages else None
    by_board: dict[int, list[fs.BoardResult]] = defaultdict(list)
    for row in rows:
        result = _board_result(row, averages, assigned)
        if result is not None:
            by_board[result.board].append(result)
    method = session.scoring.method
    # The top: the most results any board has, less one (Neuberg scales the rest).
    top = max((len(v) for v in by_board.values()), default=1) - 1
    scorer = SCORERS[session.scoring](top)
    scored = {board: scorer(results) for board, results in sorted(by_board.items())}
    mp_top = 2 * top if method is Method.MP else None
    if mp_top is not None and rules.session_percent:
        # Law 12C2(a) as the regulation has it: average plus or the session's percentage.
        lines = fs.session_percent_rule([x for board in scored.values() for x in board],
                                        rules.avg_plus, mp_top)
        scored = defaultdict(list)
        for line in lines:
            scored[line.result.board].append(line)
        scored = dict(scored)
    deductions = penalty_book.deductions(given, mp_top)
    standings = fs.rankings([x for board in scored.values() for x in board], groups,
                            method=method, penalties=deductions, mp_top=mp_top)
    return Field(scored, standings, method)


def public_field(db: Database, session: Session,
                 results: Iterable[ResultRow] | None = None) -> Field:
    """The field for the public pages: a field the laws cannot score yet (a pair with two
    results on a board, say) shows no rankings rather than an error on the room's screen;
    the console shows the director what to fix."""
    try:
        return field(db, session, public=True, results=results)
    except ValueError as error:
        log.warning("the public rankings wait for the director: %s", error)
        return Field({}, [], session.scoring.method)


def _matchpoints(top: int) -> Any:
    def score(results: list[fs.BoardResult]) -> list[fs.Scored]:
        return fs.matchpoints(results, top=top)
    return score


Scorer = Callable[[Sequence[fs.BoardResult]], list[fs.Scored]]

#: How each ranked scoring scores a board's results, given the board's matchpoint top (the
#: most results any board has, less one). Every scoring that ranks a field has one: checked
#: below, when this module loads.
SCORERS: Mapping[Scoring, Callable[[int], Scorer]] = {
    Scoring.MP: _matchpoints,
    Scoring.CROSS_IMPS: lambda _: fs.cross_imps,
    Scoring.BUTLER: lambda _: fs.butler,
    Scoring.BUTLER_MEAN: lambda _: lambda results: fs.butler(results, "mean"),
    Scoring.TEAMS: lambda _: fs.team_match,
    Scoring.SWISS: lambda _: fs.swiss_match_imps,
}


def check_scorers(scorers: Mapping[Scoring, object]) -> None:
    """A scorer for every scoring that ranks a field, and none for a social one."""
    ranked = {scoring for scoring in Scoring if not scoring.social}
    if set(scorers) != ranked:
        raise AssertionError(
            f"scorings without a scorer: {sorted(map(str, ranked - set(scorers)))}; "
            f"social ones with one: {sorted(map(str, set(scorers) - ranked))}")


check_scorers(SCORERS)


def _social(session: Session, rows: list[ResultRow], groups: dict[int, str]) -> Field:
    """Rubber, Chicago or the club's scheme: each result scored on its own (seed 004), the
    partnership's points credited to both its members."""
    scored: dict[int, list[fs.Scored]] = defaultdict(list)
    totals: dict[int, float] = defaultdict(float)
    counts: dict[int, int] = defaultdict(int)
    plan = session.plan
    for row in rows:
        result = _board_result(row)
        if result is None or row.contract is None:
            continue
        seating = plan.find(row.table, row.board)
        try:
            contract = parse_contract(row.contract)
            declarer = Seat.from_str(row.declarer) if row.declarer else None
            vulnerability = board_conditions(session, row.board)[1]
            vulnerable = declarer is not None and vulnerability.is_vulnerable(declarer)
            points = deal_score(session.scoring, contract, vulnerable, row.tricks).net
        except RulesError:
            continue
        ns_points = points if declarer is None or declarer in (Seat.N, Seat.S) else -points
        scored[row.board].append(fs.Scored(result, ns_points, -ns_points, None, None))
        ns_side: Iterable[int] = (seating.ns_players if seating and seating.ns_players
                                  else (result.ns,))
        ew_side: Iterable[int] = (seating.ew_players if seating and seating.ew_players
                                  else (result.ew,))
        for player in ns_side:
            totals[player] += ns_points
            counts[player] += 1
        for player in ew_side:
            totals[player] -= ns_points
            counts[player] += 1
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    standings: list[fs.Standing] = []
    for number, total in ranked:
        rank = 1 + sum(1 for _, other in ranked if other > total)
        tied = sum(1 for _, other in ranked if other == total) > 1
        standings.append(fs.Standing(number, groups.get(number, ""), counts[number], total,
                                     None, rank, f"{rank}{'=' if tied else ''}"))
    return Field(dict(scored), standings, Method.POINTS)
