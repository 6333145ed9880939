"""Every table's play of a board, analysed card by card with the double-dummy solver (issue 31).

The card readers record the whole play at every table. Once a board is released, the server
analyses each table's play in the background (the same ``server.scoring.analysis.Analyser`` thread,
never in a web request): before and after each card, the tricks declarer's side could still
take, counting those already won, with best play from there on by everyone (DDS's
``AnalysePlay``, through endplay). A card after which declarer's side can take fewer tricks
gave one away if declarer or dummy played it; a defender's card after which declarer's side
can take more gave one away. The hand viewer (server/outputs/handviewer.py) shows it card by card,
and adds it up per pair: tricks given away as declarer and in defence.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select

from laws import Card, Contract, Seat, Strain, parse_contract
from laws.records import Record
from server.outputs.exports import table_records
from server.scoring.analysis import _SOLVER_LOCK, AnalysisError, denominations, solver
from server.scoring.standings import ResultRow, all_results
from server.setup.session import Session, deals_of
from server.storage import schema as s
from server.storage.db import Database


@dataclass(frozen=True)
class CardPlayed:
    """One card, and declarer's side's double-dummy tricks before and after it (the tricks
    won so far counted in)."""

    seat: Seat
    card: Card
    before: int
    after: int

    def given_away(self, declarer: Seat) -> int:
        """The tricks this card gave away: declarer's side can take fewer after declarer's
        or dummy's card, more after a defender's."""
        change = self.after - self.before
        return max(0, -change) if self.seat.side is declarer.side else max(0, change)


@dataclass(frozen=True)
class PlayAnalysis:
    declarer: Seat
    strain: Strain
    cards: tuple[CardPlayed, ...]

    def given_away(self) -> tuple[int, int]:
        """The tricks given away in this play: (by declarer's side, by the defence)."""
        declaring = sum(c.given_away(self.declarer) for c in self.cards
                        if c.seat.side is self.declarer.side)
        defending = sum(c.given_away(self.declarer) for c in self.cards
                        if c.seat.side is not self.declarer.side)
        return declaring, defending

    def to_json(self) -> dict[str, Any]:
        return {"declarer": str(self.declarer), "strain": str(self.strain),
                "cards": [[str(c.seat), str(c.card), c.before, c.after] for c in self.cards]}

    @classmethod
    def from_json(cls, value: Mapping[str, Any] | str) -> PlayAnalysis:
        try:
            if isinstance(value, str):
                value = json.loads(value)
            assert isinstance(value, Mapping)
            return cls(Seat.from_str(value["declarer"]), Strain.from_str(value["strain"]),
                       tuple(CardPlayed(Seat.from_str(seat), Card.from_str(card), int(before),
                                        int(after))
                             for seat, card, before, after in value["cards"]))
        except (AssertionError, KeyError, TypeError, ValueError) as error:
            raise AnalysisError(f"not a stored play analysis: {value!r}") from error


def played_cards(record: Record) -> list[tuple[Seat, Card]]:
    """The record's cards in the order played, each with its seat (the table's own order:
    each trick's cards are kept as the table's play placed them)."""
    return [(seat, card) for trick in record.play for seat, card in trick.items()]


def analyse_play(deal_pbn: str, contract: Contract, declarer: Seat,
                 cards: Sequence[tuple[Seat, Card]]) -> PlayAnalysis:
    """Declarer's side's double-dummy tricks before and after each card of ``cards`` (the
    opening lead first, Law 41A). Raises AnalysisError without endplay or for a play the
    solver refuses."""
    endplay = solver()
    types, dds = endplay.types, endplay.dds
    denoms = denominations(endplay)
    try:
        deal = types.Deal(deal_pbn)
        deal.trump = denoms[contract.strain]
        deal.first = types.Player(declarer.lho.value)
        with _SOLVER_LOCK:
            values = [int(v) for v in dds.analyse_play(
                deal, [types.Card(str(card)) for _, card in cards])]
    except Exception as error:  # the C library's wrapper: a failure to analyse this play
        raise AnalysisError(f"the solver refused the play: {error}") from error
    # DDS leaves out the last trick, where every hand has one card left and nothing can be
    # given away: its cards keep the figure the twelfth trick ended with.
    if len(cards) > 48 and len(values) == 49:
        values += [values[-1]] * (len(cards) + 1 - len(values))
    if len(values) != len(cards) + 1:
        raise AnalysisError(f"the solver gave {len(values)} values for {len(cards)} cards")
    return PlayAnalysis(declarer, contract.strain, tuple(
        CardPlayed(seat, card, values[i], values[i + 1])
        for i, (seat, card) in enumerate(cards)))


# -- what the background job is given, and where it keeps its answer --------------------------

def job(record: Record, deal_pbn: str) -> str | None:
    """What the analyser is handed for one table's play (JSON), or None when there is
    nothing to analyse: no contract (passed out, an adjusted score), or no card played."""
    try:
        contract = parse_contract(record.contract_tag or "")
        declarer = Seat.from_str(record.declarer_tag or "")
    except ValueError:
        return None
    cards = played_cards(record)
    if contract is None or not cards:
        return None
    return json.dumps({"deal": deal_pbn, "contract": str(contract), "declarer": str(declarer),
                       "play": [[str(seat), str(card)] for seat, card in cards]})


def solve(payload: str) -> PlayAnalysis:
    data = json.loads(payload)
    contract = parse_contract(data["contract"])
    if contract is None:
        raise AnalysisError("a passed-out board has no play")
    return analyse_play(data["deal"], contract, Seat.from_str(data["declarer"]),
                        [(Seat.from_str(seat), Card.from_str(card))
                         for seat, card in data["play"]])


def jobs(db: Database, session: Session, boards: Iterable[int]) -> list[tuple[int, int, str]]:
    """The released boards' table plays that have no analysis of this very play yet:
    (table, board, job), read from the tables' events as the exports read them."""
    wanted = set(boards)
    deals = deals_of(db, session)
    with db.read() as conn:
        done = {(row.table_no, row.board): row.play for row in conn.execute(
            select(s.play_analysis.c.table_no, s.play_analysis.c.board,
                   s.play_analysis.c.play).where(
                s.play_analysis.c.session_id == session.id))}
    rows = [row for row in all_results(db, session) if row.board in wanted]
    found = []
    for row, record in table_records(db, session, rows):
        text = deals.get(row.board) or (record.deal.to_pbn()
                                        if record.deal is not None else None)
        if text is None:
            continue
        payload = job(record, text)
        if payload is not None and done.get((row.table, row.board)) != payload:
            found.append((row.table, row.board, payload))
    return found


def store(db: Database, session: Session, table: int, board: int, payload: str,
          analysis: PlayAnalysis | None, error: str | None) -> None:
    with db.write() as conn:
        conn.execute(delete(s.play_analysis).where(
            s.play_analysis.c.session_id == session.id, s.play_analysis.c.table_no == table,
            s.play_analysis.c.board == board))
        conn.execute(insert(s.play_analysis).values(
            session_id=session.id, table_no=table, board=board, play=payload,
            analysis=None if analysis is None else json.dumps(analysis.to_json()),
            error=None if error is None else error[:200]))


def stored(db: Database, session: Session,
           board: int | None = None) -> dict[tuple[int, int], PlayAnalysis]:
    """The stored analyses, by (table, board): of one board, or of every board."""
    query = select(s.play_analysis.c.table_no, s.play_analysis.c.board,
                   s.play_analysis.c.analysis).where(
        s.play_analysis.c.session_id == session.id, s.play_analysis.c.analysis.is_not(None))
    if board is not None:
        query = query.where(s.play_analysis.c.board == board)
    found = {}
    with db.read() as conn:
        for row in conn.execute(query):
            try:
                found[(row.table_no, row.board)] = PlayAnalysis.from_json(row.analysis)
            except AnalysisError:
                continue
    return found


def summary(rows: Iterable[ResultRow], analyses: Mapping[tuple[int, int], PlayAnalysis]
            ) -> dict[int, tuple[int, int, int]]:
    """Each pair's tricks given away in play over the boards analysed: (as declarer, in
    defence, boards analysed). Declarer's and dummy's cards count to the declaring pair."""
    given: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in rows:
        analysis = analyses.get((row.table, row.board))
        if analysis is None or row.ns_pair is None or row.ew_pair is None:
            continue
        declaring, defending = analysis.given_away()
        ns_declares = analysis.declarer in (Seat.N, Seat.S)
        declarers, defenders = ((row.ns_pair, row.ew_pair) if ns_declares
                                else (row.ew_pair, row.ns_pair))
        given[declarers][0] += declaring
        given[defenders][1] += defending
        given[declarers][2] += 1
        given[defenders][2] += 1
    return {pair: (a, b, n) for pair, (a, b, n) in sorted(given.items())}
