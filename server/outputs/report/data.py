"""What the printed pages show, gathered from the session: rankings, travellers, hand records
with their double-dummy table and par, and each pair's score card. Pure data; the templates in
``server/templates/report/`` lay it out, in the language they are given."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from laws import Board, Deal, RulesError, Seat, Suit, Vulnerability
from server.scoring import adjusted, standings
from server.scoring import analysis as dd
from server.scoring import penalties as penalty_book
from server.scoring.analysis import Analysis, AnalysisError
from server.scoring.fieldscore import Scored, Standing
from server.scoring.swiss import swiss_of
from server.setup.session import (
    Session,
    board_conditions,
    deals_of,
    participants_of,
    stored_analysis,
)
from server.storage.db import Database
from tablemodel import words

SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
DD_STRAINS = ("NT", "S", "H", "D", "C")
DD_SEATS = ("N", "S", "E", "W")


@dataclass(frozen=True)
class HandRecord:
    board: int
    dealer: Seat
    vulnerability: Vulnerability
    hands: dict[str, dict[str, str]]  # seat letter -> suit letter -> ranks ("" = void)
    hcp: dict[str, int]
    analysis: Analysis | None


@dataclass(frozen=True)
class Line:
    """One table's line of a traveller."""

    table: int
    round: int | None
    ns: int | None
    ew: int | None
    contract: str | None
    declarer: str | None
    tricks: int | None
    lead: str | None
    score_ns: int | None
    adjusted: str | None
    assigned: str | None  # a weighted or split score's parts
    scored: Scored | None


@dataclass(frozen=True)
class CardLine:
    """One board of a pair's score card, from its own side."""

    round: int | None
    board: int
    direction: str  # "NS" or "EW"
    opponents: int | None
    line: Line
    points: float | None  # its matchpoints or IMPs
    percent: float | None


@dataclass
class Pack:
    session: Session
    method: str
    standings: list[tuple[str, list[Standing]]]
    labels: dict[int, Any]
    penalties: list[penalty_book.Penalty]
    travellers: dict[int, list[Line]]
    hands: dict[int, HandRecord]
    cards: dict[int, list[CardLine]] = field(default_factory=dict)
    unscored: str | None = None
    swiss: Any = None  # a Swiss's server.scoring.swiss.Swiss: its standings in VPs and its matches


def hand_record(board: int, pbn: str, analysis: Analysis | None,
                conditions: tuple[Seat, Vulnerability] | None = None) -> HandRecord | None:
    try:
        deal = Deal.from_pbn(pbn)
    except RulesError:
        return None
    dealer, vulnerability = conditions or (Board(board).dealer, Board(board).vulnerability)
    hands = {str(seat): {str(suit): _holding(deal, seat, suit) for suit in SUITS}
             for seat in Seat if seat in deal}
    return HandRecord(board, dealer, vulnerability, hands,
                      {str(seat): deal.hcp(seat) for seat in Seat if seat in deal}, analysis)


def _holding(deal: Deal, seat: Seat, suit: Suit) -> str:
    ranks = sorted((card.rank for card in deal[seat] if card.suit is suit), reverse=True)
    return " ".join(words.rank_text(rank) for rank in ranks)


def analysed(board: int, pbn: str, stored: str | None,
             conditions: tuple[Seat, Vulnerability] | None = None) -> Analysis | None:
    """The stored double-dummy analysis, else solved now when the solver is installed (a
    printout is made once, off the room's pages: its 0.3 s a board is spent here)."""
    if stored is not None:
        try:
            return Analysis.from_json(stored)
        except (AnalysisError, ValueError):
            pass
    if not dd.available():
        return None
    try:
        return dd.analyse(pbn, board, conditions)
    except AnalysisError:
        return None


def hand_records(db: Database, session: Session) -> dict[int, HandRecord]:
    found: dict[int, HandRecord] = {}
    for board, pbn in sorted(deals_of(db, session).items()):
        conditions = board_conditions(session, board)
        record = hand_record(board, pbn,
                             analysed(board, pbn, stored_analysis(db, session, board)[0],
                                      conditions), conditions)
        if record is not None:
            found[board] = record
    return found


GROUP_ORDER = {"NS": 0, "EW": 1}


def pack(db: Database, session: Session) -> Pack:
    """Everything the results pack prints, every board counted (the director's copy)."""
    rows = standings.all_results(db, session)
    assigned = {key: given.text for key, given in adjusted.assigned_of(db, session).items()}
    unscored = None
    try:
        scored = standings.field(db, session, public=False)
    except ValueError as error:
        unscored = str(error)
        scored = standings.Field({}, [], session.scoring.method)
    by_result = {(x.result.table or 0, x.result.board): x
                 for lines in scored.scored.values() for x in lines}
    travellers: dict[int, list[Line]] = defaultdict(list)
    for row in rows:
        travellers[row.board].append(Line(
            row.table, row.round, row.ns_pair, row.ew_pair, row.contract, row.declarer,
            row.tricks, row.lead, row.score_ns, row.adjusted,
            assigned.get((row.table, row.board)) if row.adjusted in ("weighted", "split")
            else None, by_result.get((row.table, row.board))))
    groups: dict[str, list[Standing]] = defaultdict(list)
    for st in scored.standings:
        groups[st.group].append(st)
    result = Pack(session, scored.method,
                  sorted(groups.items(), key=lambda g: (GROUP_ORDER.get(g[0], 2), g[0])),
                  participants_of(db, session),
                  [p for p in penalty_book.given(db, session) if p.standing],
                  dict(sorted(travellers.items())), hand_records(db, session),
                  unscored=unscored)
    result.cards = score_cards(result.travellers)
    if session.kind.paired and unscored is None:  # a Swiss: ranked in victory points
        result.swiss = swiss_of(db, session, public=False, scored_field=scored)
    return result


def score_cards(travellers: Mapping[int, list[Line]]) -> dict[int, list[CardLine]]:
    """Each pair's boards in the order it played them, each from its own side."""
    cards: dict[int, list[CardLine]] = defaultdict(list)
    for board, lines in travellers.items():
        for line in lines:
            scored = line.scored
            for direction, me, them in (("NS", line.ns, line.ew), ("EW", line.ew, line.ns)):
                if me is None:
                    continue
                ns = direction == "NS"
                points = None if scored is None else (scored.ns if ns else scored.ew)
                percent = None if scored is None else (
                    scored.ns_percent if ns else scored.ew_percent)
                cards[me].append(CardLine(line.round, board, direction, them, line, points,
                                          percent))
    return {pair: sorted(card, key=lambda c: (c.round or 0, c.board))
            for pair, card in sorted(cards.items())}
