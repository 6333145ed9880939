"""Exports of a session: PBN of every table's play and CSV (USEBIO is server/outputs/usebio.py).

The results come from ``results`` (what the laws give, with the director's corrections), the
field scores from :func:`server.scoring.standings.field`, and each board's auction and play from the
events its table sent, replayed by the table's own state (``tablemodel/state.py``, with the
rulings of ``tablemodel/rulings.py``): what the export holds is what the table had. An alert,
made with the call or late, becomes the call's note (PBN 3.5.4: ``=1=`` and its Note
tag), and an explanation given in answer to a question (Law 20F) follows it in the
note, in the words of the answering side's system card. docs/exports.md says what goes
into each format.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from laws import (
    Board,
    Deal,
    RulesError,
    Seat,
    Vulnerability,
    parse_contract,
)
from laws.lin import dumps as dump_lin
from laws.pbn import dumps as dump_pbn
from laws.records import AuctionItem, Record
from server.errors import Refused
from server.scoring import swiss
from server.scoring.adjusted import assigned_of
from server.scoring.analysis import Analysis, AnalysisError
from server.scoring.fieldscore import Scored, Standing, parse_adjusted
from server.scoring.penalties import Penalty
from server.scoring.penalties import given as penalties_given
from server.scoring.standings import ResultRow, all_results
from server.scoring.standings import field as field_scores
from server.setup import player_register as register
from server.setup.movements import Plays
from server.setup.scorings import Method
from server.setup.session import (
    Session,
    board_conditions,
    deals_of,
    participants_of,
    stored_analysis,
)
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.rulings import KINDS
from tablemodel.state import Assignment, BoardState, Conduct, StateError, TableState
from tablemodel.syscard import answer_text
from tablemodel.wire import Answered, Assign, Event, EventType, WireError

PROGRAM = "bidbox"


class ExportError(Refused):
    """A session a format cannot carry; the message says which export to use instead."""


CSV_COLUMNS = ("section", "round", "board", "table", "ns_pair", "ew_pair", "contract",
               "declarer", "tricks", "lead", "score_ns", "adjusted", "ns_points", "ew_points",
               "assigned", "transferred", "north", "east", "south", "west")
PBN_SEATS = {"North": Seat.N, "East": Seat.E, "South": Seat.S, "West": Seat.W}
RANKINGS_COLUMNS = ("group", "rank", "participant", "label", "names", "boards", "score",
                    "percent", "penalty")


# -- a board's record, from its events ---------------------------------------------------------

class _Board:
    """One table's play of one board, replayed by the table's own state (tablemodel.state)."""

    def __init__(self, number: int, deal: Deal | None, conduct: Conduct | None,
                 conditions: tuple[Seat, Vulnerability] | None = None) -> None:
        self.number = number
        facts = Board(number)
        self.conditions = conditions or (facts.dealer, facts.vulnerability)
        self.state = TableState()
        self.state.assignment = Assignment(
            "export", 0, 0, 0, (number,), deals={number: deal} if deal is not None else {},
            conduct=conduct or Conduct())
        self.state.seq = -1  # nothing seen yet: a missing board event may take number 0
        self.board: BoardState | None = None

    def apply(self, event: Event) -> None:
        """Apply ``event`` as the table did: the same laws, the same rulings. Events of other
        boards are not here, so the sequence has gaps (``gaps=True``)."""
        if self.board is None and event.type != "board":
            # The board's own event was not stored: it stands on the table as the session
            # deals it (Law 2, or the individual's partidas).
            dealer, vulnerability = self.conditions
            self.state.apply(Event(event.seq - 1, EventType.BOARD, event.ts, self.number, {
                "board": self.number, "dealer": str(dealer),
                "vul": vulnerability.value}), gaps=True)
        self.state.apply(event, gaps=True)
        self.board = self.state.board or self.board  # a confirmed board leaves the table
        if event.type == "answer" and self.board is not None:
            self._explain(event)

    def _explain(self, event: Event) -> None:
        """An answer to a question (Law 20F) becomes the call's note, in the words of the
        answering side's system card."""
        board = self.board
        assert board is not None
        answer = event.value(Answered)
        question = next(q for q in board.questions if q.seq == answer.question)
        if question.index < len(board.auction):
            answerer = answer.seat
            code = answer.code
            text = answer_text(self.state.conduct.card_of(answerer), code, "en")
            board.auction.annotate(question.index, explanation=text or f"answer {code}")

    def scanned_deal(self) -> Deal | None:
        hands = {} if self.board is None else self.board.known
        if not hands:
            return None
        try:
            return Deal(dict(hands)).completed()
        except RulesError:
            return None


def board_record(events: Iterable[Event], deal: Deal | None = None,
                 conduct: Conduct | None = None,
                 conditions: tuple[Seat, Vulnerability] | None = None) -> Record:
    """One table's play of one board as a :class:`Record`, from the events of that table and
    board in ``seq`` order (events of other boards are skipped). ``deal`` is the hand record,
    when the session has it; otherwise the hands the table scanned, when it scanned them.
    ``conduct`` is the table's assignment's (its system cards word the explanations).
    ``conditions``: the board's dealer and vulnerability when not Law 2's (the individual).

    The events are replayed by the table's own state (tablemodel.state), so the record is what
    the table had: a change of call replaces the seat's call (Law 25A), every ruling applies
    as it did at the table (tablemodel.rulings), an alert is its call's note.

    An event the laws refuse (a gap in the stored events, or a journal the laws refuse) is
    skipped and named in the record's ``problems`` and commentary: an export never fails for
    what a table sent."""
    ours = [event for event in events if event.board is not None]
    if not ours:
        raise ValueError("no event of a board to make a record from")
    number = ours[0].board
    assert number is not None
    fold = _Board(number, deal, conduct, conditions)
    problems: list[str] = []
    for event in ours:
        if event.board != number:
            continue
        try:
            fold.apply(event)
        except (RulesError, StateError, WireError) as error:  # the data's, never a bug
            problems.append(f"event {event.seq} ({event.type}) not applied: {error}")
    board = fold.board
    if board is None:
        dealer, vulnerability = fold.conditions
        return Record(board=number, dealer=dealer, vulnerability=vulnerability,
                      deal=deal, problems=problems, commentary=_commentary(problems, None))
    record = Record(board=number, dealer=board.dealer, vulnerability=board.vulnerability,
                    deal=deal if deal is not None else fold.scanned_deal())
    entries = board.auction.entries
    record.auction = [AuctionItem(entry.call, entry.alert or bool(board.alerted(index)),
                                  note=entry.explanation)
                      for index, entry in enumerate(entries)]
    record.auction_dealer = board.dealer if entries else None
    _play_into(record, board)
    adjusted = None
    result = board.result
    if result is not None:
        adjusted = result.adjusted
        _result_tags(record, None if result.contract is None and result.adjusted
                     else result.contract_text,
                     None if result.declarer is None else str(result.declarer),
                     result.tricks, result.score_ns, adjusted)
    record.problems = problems
    record.commentary = _commentary(problems, adjusted) + _recorded_lines(board)
    return record


RECORDED = "Recorded for the director:"


def _recorded_lines(board: BoardState) -> list[str]:
    """What the table recorded on the board for the director (Laws 16B2, 25B): a
    reservation of rights after a hesitation, a change of call after a pause."""
    lines = []
    for recorded in board.records:
        kind = KINDS.get(recorded.kind)
        name = recorded.kind if kind is None else f"{kind.words['en']} (Law {kind.laws})"
        detail = ", ".join(f"{k} {v}" for k, v in sorted(recorded.data.items()))
        lines.append(f"{RECORDED} {name} after call {recorded.calls}: {detail}")
    return lines


def _play_into(record: Record, board: BoardState) -> None:
    """PBN's play section: one row per trick, each card under its seat (Law 44G gives who
    leads each trick; the table's play placed the cards)."""
    declarer = board.auction.declarer
    if board.play is None or declarer is None:
        return
    record.play_leader = declarer.lho  # Law 41A
    record.play = [{seat: card for seat, card in trick.cards} for trick in board.play.tricks
                   if trick.cards]
    # The same cards in the order played, as LIN writes them (USEBIO's LIN_DATA).
    record.play_sequence = [card for trick in board.play.tricks for _, card in trick.cards]


def _result_tags(record: Record, contract: str | None, declarer: str | None,
                 tricks: int | None, score_ns: int | None, adjusted: str | None) -> None:
    passed_out = contract is not None and _passed_out(contract)
    record.contract_tag = "Pass" if passed_out else (contract or "")
    record.declarer_tag = "" if passed_out else (declarer or "")
    record.result_tag = "" if passed_out or tricks is None else str(tricks)
    # Law 12C2: an artificial score has no points; the commentary gives its percentages.
    record.score_tag = None if score_ns is None else f"NS {score_ns}"


def _transfer_lines(transferred: int | None) -> list[str]:
    """Law 64A: the tricks of the result's count transferred for a revoke, said apart."""
    if not transferred:
        return []
    who = "declarer" if transferred > 0 else "the defenders"
    return [f"Revoke: {abs(transferred)} trick(s) of the result transferred to {who} "
            f"(Law 64)"]


def _commentary(problems: Iterable[str], adjusted: str | None) -> list[str]:
    lines = [f"bidbox: {problem}" for problem in problems]
    if adjusted:
        try:
            artificial = parse_adjusted(adjusted)
        except ValueError:
            artificial = None
        law = "12C2" if artificial is not None else "12C1"
        lines.append(f"Adjusted score {adjusted} (Law {law})")
    return lines


def _passed_out(contract: str) -> bool:
    try:
        return parse_contract(contract) is None
    except RulesError:
        return False


# -- what every export reads -------------------------------------------------------------------

@dataclass(frozen=True)
class _Session:
    session: Session
    rows: list[ResultRow]
    scored: dict[tuple[int, int], Scored]  # (table, board) -> field score
    method: Method | None  # None: the field could not be scored
    standings: list[Standing]
    participants: dict[int, Any]
    date: datetime.date
    unscored: str | None  # why the field scores could not be computed, if they could not
    assigned: dict[tuple[int, int], str] = field(default_factory=dict)  # weighted, split
    penalties: list[Penalty] = field(default_factory=list)  # Laws 90, 91, standing ones
    # The player register (issue 17): the numbers typed at each (table, board) and the
    # session's copy of the register; empty for a session without one.
    seats: dict[tuple[int, int], register.Seats] = field(default_factory=dict)
    players: dict[int, register.Member] = field(default_factory=dict)


def _read(db: Database, session: Session) -> _Session:
    scored: dict[tuple[int, int], Scored] = {}
    standings: list[Standing] = []
    method: Method | None = None
    unscored = None
    try:
        result = field_scores(db, session, public=False)
    except ValueError as error:
        # Results the field cannot score (a pair seated twice on a board): the console shows
        # it to be fixed; the play and the results can still be exported, without points.
        unscored = str(error)
    else:
        scored = {(x.result.table or 0, x.result.board): x
                  for board in result.scored.values() for x in board}
        standings, method = list(result.standings), result.method
    with db.read() as conn:
        created = conn.execute(select(s.sessions.c.created_at).where(
            s.sessions.c.id == session.id)).scalar_one()
    return _Session(session, all_results(db, session), scored, method, standings,
                    participants_of(db, session),
                    datetime.datetime.fromtimestamp(created).date(), unscored,
                    {key: given.text for key, given in assigned_of(db, session).items()},
                    [p for p in penalties_given(db, session) if p.standing],
                    register.seated(db, session.event)[1], register.session_members(db, session))


def _board_events(db: Database, event: str) -> dict[tuple[int, int], list[Event]]:
    """Each table's events of each board, in ``seq`` order."""
    with db.read() as conn:
        rows = conn.execute(select(s.events.c.table_no, s.events.c.seq, s.events.c.type,
                                   s.events.c.ts, s.events.c.board, s.events.c.data).where(
            s.events.c.event == event, s.events.c.board.is_not(None)).order_by(
            s.events.c.table_no, s.events.c.seq)).all()
    found: dict[tuple[int, int], list[Event]] = defaultdict(list)
    for row in rows:
        found[(row.table_no, row.board)].append(
            Event.from_row(row.seq, row.type, row.ts, row.board, row.data))
    return found


def _conducts(db: Database, event: str) -> dict[int, list[tuple[int, Conduct]]]:
    """Each table's assignments' conduct (screens, profile, system cards), in ``seq`` order."""
    with db.read() as conn:
        rows = conn.execute(select(s.events.c.table_no, s.events.c.seq, s.events.c.data).where(
            s.events.c.event == event, s.events.c.type == "assign").order_by(
            s.events.c.table_no, s.events.c.seq)).all()
    found: dict[int, list[tuple[int, Conduct]]] = defaultdict(list)
    for row in rows:
        try:
            conduct = Event.from_row(row.seq, "assign", 0.0, None, row.data).value(
                Assign).conduct
        except WireError:
            conduct = Conduct()  # an assignment this version cannot read: plain words
        found[row.table_no].append((row.seq, conduct))
    return found


def _number(value: float | None) -> str:
    """A field score as text: whole numbers without a point, others to two places."""
    if value is None:
        return ""
    rounded = round(value, 2)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.2f}".rstrip("0")


_PARTNERS = re.compile(r"\s*(?:&|/|\s-\s|\s+y\s+|\s+and\s+)\s*")


def _pair_names(participant: Any) -> tuple[str, str]:
    """The two names of a pair as the director typed them ("Ana Ruiz & Luis Gil"), else the
    pair's names, or its label, for both."""
    if participant is None:
        return "", ""
    text = (participant.names or "").strip()
    parts = [part for part in _PARTNERS.split(text) if part]
    if len(parts) == 2:
        return parts[0], parts[1]
    whole = text or participant.label
    return whole, whole


def _seat_names(data: _Session, row: ResultRow) -> dict[str, str]:
    """Who sat North, South, East and West: the pairs' players, or in the individual the
    players the movement seated there (its partnerships are not participants)."""
    typed = register.names_at(data.seats.get((row.table, row.board), {}), data.players)
    if data.players and typed:  # the names the register gives the numbers typed there
        base = _movement_names(data, row)
        return {tag: typed.get(seat, base[tag]) for tag, seat in PBN_SEATS.items()}
    return _movement_names(data, row)


def _movement_names(data: _Session, row: ResultRow) -> dict[str, str]:
    seating = data.session.plan.find(row.table, row.board)
    names: dict[str, str] = {}
    for side, pair, seats in (("ns", row.ns_pair, ("North", "South")),
                              ("ew", row.ew_pair, ("East", "West"))):
        players = getattr(seating, f"{side}_players", None) if seating is not None else None
        if players:
            found = [_pair_names(data.participants.get(player))[0] for player in players]
        else:
            found = list(_pair_names(data.participants.get(pair or 0)))
        names.update(zip(seats, found, strict=True))
    return names


# -- PBN -------------------------------------------------------------------------------------------

def pbn(db: Database, session: Session) -> str:
    """PBN 2.1: one game per table result, with its auction and play from the table's events
    and its result as the server holds it (corrections included)."""
    data = _read(db, session)
    optimum = _optimum_of(db, session)
    records: list[Record] = []
    for row, record in table_records(db, session, data.rows):
        kept = [line for line in record.commentary if line.startswith(RECORDED)]
        record.commentary = _commentary(record.problems, row.adjusted) + kept
        record.commentary += _transfer_lines(row.transferred)
        record.commentary += _assigned_lines(data, row)
        if not records:
            record.commentary += penalty_lines(data.penalties)
        record.tags = _pbn_tags(data, row)
        analysis = optimum(row.board)
        if analysis is not None:
            optimum_tags(record, analysis)
        records.append(record)
    return dump_pbn(records)


# -- LIN -------------------------------------------------------------------------------------------

#: What a LIN line keeps of a game's PBN tags: the players (its pn) and, in a team match, the
#: room (its qx). No event or scoring: those would make it a vugraph file, not a hand viewer's.
_LIN_TAGS = ("North", "East", "South", "West", "Room")


def lin(db: Database, session: Session) -> str:
    """LIN, Bridge Base Online's format: one line per table result (one board each, as
    BBO's hand viewer and the programs that read BBO's files take them), with its players,
    deal, auction (alerts and their explanations) and play from the table's events."""
    data = _read(db, session)
    records: list[Record] = []
    for row, record in table_records(db, session, data.rows):
        record.tags = {tag: value for tag, value in _pbn_tags(data, row).items()
                       if tag in _LIN_TAGS}
        records.append(record)
    return dump_lin(records)


def table_records(db: Database, session: Session,
                  rows: Iterable[ResultRow]) -> Iterator[tuple[ResultRow, Record]]:
    """Each result's record: the table's auction and play from its events, and the result
    as the server holds it (PBN's and USEBIO's LIN_DATA both write these)."""
    events = _board_events(db, session.event)
    conducts = _conducts(db, session.event)
    deals = {board: Deal.from_pbn(text) for board, text in deals_of(db, session).items()}
    for row in rows:
        board_events = events.get((row.table, row.board))
        if board_events:
            conduct = next((c for seq, c in reversed(conducts.get(row.table, []))
                            if seq < board_events[0].seq), None)
            record = board_record(board_events, deals.get(row.board), conduct,
                                  board_conditions(session, row.board))
        else:  # a result the director entered for a table that sent nothing of the board
            dealer, vulnerability = board_conditions(session, row.board)
            record = Record(board=row.board, dealer=dealer, vulnerability=vulnerability,
                            deal=deals.get(row.board))
        _result_tags(record, row.contract, row.declarer, row.tricks, row.score_ns,
                     row.adjusted)
        yield row, record


#: PBN 2.1's table of double-dummy results: one row per declarer and strain.
OPTIMUM_HEADER = "Declarer;Denomination\\2R;Result\\2R"
_OPTIMUM_SEATS = ("N", "S", "E", "W")
_OPTIMUM_STRAINS = ("NT", "S", "H", "D", "C")


def optimum_tags(record: Record, analysis: Analysis) -> None:
    """PBN 2.1's double-dummy tags of a known deal: ``OptimumResultTable`` (the tricks of
    each declarer in each strain), ``ParContract`` (the side and the contracts that reach
    par, "NS 4S") and ``OptimumScore`` (par from the side that gains it: "NS 620")."""
    record.tags["OptimumResultTable"] = OPTIMUM_HEADER
    record.sections["OptimumResultTable"] = [
        f"{seat} {strain} {analysis.tricks[strain][seat]}"
        for seat in _OPTIMUM_SEATS for strain in _OPTIMUM_STRAINS]
    pars = analysis.pars
    if pars:
        # The side that declares par, which may be the side that loses by it (a sacrifice).
        declaring = "NS" if pars[0].declarer in "NS" else "EW"
        contracts = list(dict.fromkeys(par.contract for par in pars))
        record.tags["ParContract"] = f"{declaring} {', '.join(contracts)}"
    else:
        record.tags["ParContract"] = "Pass"
    # From North-South's side, signed, as the dealing programs write it ("NS -400").
    record.tags["OptimumScore"] = f"NS {analysis.par_score:+d}"


def _optimum_of(db: Database, session: Session) -> Callable[[int], Analysis | None]:
    """Each board's double-dummy analysis as the server stored it in the background when
    the board was released (server/services.py); none for a board without one, whose tags
    are then left out: an export never waits for the solver."""
    found: dict[int, Analysis | None] = {}
    for board in deals_of(db, session):
        text = stored_analysis(db, session, board)[0]
        try:
            found[board] = None if text is None else Analysis.from_json(text)
        except AnalysisError:
            found[board] = None
    return lambda board: found.get(board)


def _assigned_lines(data: _Session, row: ResultRow) -> list[str]:
    """A weighted or split score's parts (Law 12C1(c), (d)), for the game's commentary."""
    text = data.assigned.get((row.table, row.board))
    if row.adjusted not in ("weighted", "split") or text is None:
        return []
    return [f"Assigned score: {text}"]


def penalty_lines(penalties: Iterable[Penalty]) -> list[str]:
    """The session's penalties (Laws 90, 91) as the PBN file's commentary writes them."""
    units = {"mp": "matchpoints", "top": "% of a top", "imps": "IMPs"}
    return [f"Penalty (Law {p.law}): participant {p.participant}, {p.amount:g} "
            f"{units.get(p.unit, p.unit)}: {p.note}" for p in penalties]


def _pbn_tags(data: _Session, row: ResultRow) -> dict[str, str]:
    session = data.session
    tags = {"Event": session.title, "Site": "?", "Date": data.date.strftime("%Y.%m.%d"),
            **_seat_names(data, row), "Scoring": session.scoring.pbn,
            "Section": row.section, "Table": str(session.table_in_section(row.table))}
    if row.round is not None:
        tags["Round"] = str(row.round)
    if session.kind.plays is Plays.TEAMS:
        # Each match is played at two tables; the lower-numbered one is the open room.
        tags["Room"] = "Open" if row.table % 2 else "Closed"
    scored = data.scored.get((row.table, row.board))
    if scored is not None:
        name = None if data.method is None else {
            Method.MP: "ScoreMP", Method.IMPS: "ScoreIMP"}.get(data.method)
        if name is not None:
            tags[name] = f"NS {_number(scored.ns)} EW {_number(scored.ew)}"
        if scored.ns_percent is not None and scored.ew_percent is not None:
            tags["ScorePercentage"] = (f"NS {_number(scored.ns_percent)} "
                                       f"EW {_number(scored.ew_percent)}")
    return tags


# -- CSV ---------------------------------------------------------------------------------------

def csv_text(db: Database, session: Session) -> str:
    """One row per result, with its field score (matchpoints or IMPs)."""
    data = _read(db, session)
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(CSV_COLUMNS)
    for row in data.rows:
        scored = data.scored.get((row.table, row.board))
        writer.writerow([row.section, _text(row.round), row.board,
                         data.session.table_in_section(row.table),
                         _text(row.ns_pair), _text(row.ew_pair), _text(row.contract),
                         _text(row.declarer), _text(row.tricks), _text(row.lead),
                         _text(row.score_ns), _text(row.adjusted),
                         _number(scored.ns if scored else None),
                         _number(scored.ew if scored else None),
                         data.assigned.get((row.table, row.board), "")
                         if row.adjusted in ("weighted", "split") else "",
                         _text(row.transferred), *_csv_names(data, row)])
    return out.getvalue()


def _csv_names(data: _Session, row: ResultRow) -> list[str]:
    """North, East, South and West by the register's names (issue 17); empty without it."""
    if not data.players:
        return ["", "", "", ""]
    typed = register.names_at(data.seats.get((row.table, row.board), {}), data.players)
    return [typed.get(seat, "") for seat in PBN_SEATS.values()]


def rankings_csv(db: Database, session: Session) -> str:
    """The rankings, one row per pair or team, with the penalty apart (Laws 90, 91): the
    score and percentage are after it. A Swiss's are its VP standings (server/scoring/swiss.py)."""
    if session.kind.paired:
        return swiss_rankings_csv(db, session)
    data = _read(db, session)
    if data.unscored is not None:
        raise ExportError(f"the field scores cannot be computed: {data.unscored}")
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(RANKINGS_COLUMNS)
    for st in data.standings:
        participant = data.participants.get(st.participant)
        writer.writerow([st.group, st.rank_label, st.participant,
                         participant.label if participant else "",
                         participant.names if participant else "", st.boards,
                         _number(st.score), _number(st.percent), _number(st.penalty or None)])
    return out.getvalue()


def _text(value: object) -> str:
    return "" if value is None else str(value)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\Z")


def spreadsheet_safe(cell: object) -> object:
    """A cell a spreadsheet will show, not run: text that starts as a formula would (``=``,
    ``+``, ``-``, ``@``, a tab or a line break), such as a player named ``+cmd|...`` or
    ``@SUM(...)``, gets a leading apostrophe, as OWASP's advice on CSV injection has it. A
    number (a score of -420) is left as it is."""
    if isinstance(cell, str) and cell.startswith(_FORMULA_START) and not _NUMBER.match(cell):
        return "'" + cell
    return cell


class SafeWriter:
    """A ``csv.writer`` whose every cell goes through :func:`spreadsheet_safe`."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out, lineterminator="\r\n")

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([spreadsheet_safe(cell) for cell in row])


SWISS_RANKINGS_COLUMNS = ("rank", "team", "label", "names", "matches", "imps", "vp",
                          "penalty_vp")


def swiss_rankings_csv(db: Database, session: Session) -> str:
    """A Swiss's standings for the rankings export: VPs after the penalties, which are
    shown apart (Laws 90, 91)."""
    participants = participants_of(db, session)
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(SWISS_RANKINGS_COLUMNS)
    for line in swiss.swiss_of(db, session, public=False).standings:
        row = participants.get(line.team)
        writer.writerow([line.rank_label, line.team, row.label if row else "",
                         row.names if row else "", line.matches, f"{line.imps:g}",
                         f"{line.vp:.2f}", f"{line.penalty:.2f}" if line.penalty else ""])
    return out.getvalue()
