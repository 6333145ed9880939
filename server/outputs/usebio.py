"""USEBIO results for federations and websites: every kind of event bidbox runs.

``usebio(db, session, version="1.2")`` writes the session as one USEBIO ``EVENT``: its
heading, the club (``CLUB``, set once on the console's Register page), then

* a pairs event (Mitchell, Howell, their variants, barometers): ``PARTICIPANTS`` of ``PAIR``s
  and a ``BOARD`` traveller per board, inside a ``SECTION`` each when the session has several;
* a team match or a Swiss: ``PARTICIPANTS`` of ``TEAM``s with their places and totals (a
  Swiss's in victory points), then a ``MATCH`` per match and round with both teams' scores and
  the match's boards;
* the individual: ``PARTICIPANTS`` of ``PLAYER``s and a traveller per board.

Every traveller line carries the table's auction and play as a LIN string (``LIN_DATA``,
which BridgeWebs shows as the bidding and play). USEBIO 1.3 is 1.2 with more elements: the
file says which version it is. docs/exports.md says where each element comes from and what
could not be checked against the published specification.
"""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Iterable

from laws import Seat
from laws.lin import dumps as dump_lin
from laws.records import Record
from server.outputs.exports import (
    PROGRAM,
    ExportError,
    _number,
    _pair_names,
    _passed_out,
    _read,
    _Session,
    _text,
    table_records,
)
from server.scoring.adjusted import rules_of
from server.scoring.fieldscore import Standing, parse_adjusted
from server.scoring.standings import ResultRow
from server.scoring.swiss import Match, swiss_of
from server.setup import player_register as register
from server.setup.movements import Plays, Sectioned
from server.setup.scorings import Method
from server.setup.session import Session
from server.storage.db import Database

VERSIONS = ("1.2", "1.3")
"""USEBIO 1.3 adds elements to 1.2 and nothing else: a 1.2 file is a 1.3 file once its
version says so (usebio.org's page on 1.3)."""
#: The document type USEBIO 1.2 writers declare: the DTD's public identifier and its address
#: on usebio.org. Nothing fetches it.
DOCTYPE = ('<!DOCTYPE USEBIO PUBLIC "-//EBU//DTD USEBIO {version}//EN" '
           '"http://www.usebio.org/files/usebio_v{underscored}.dtd">')
#: EVENT_TYPE by the movement's kind (server/setup/movements.py MovementKind.usebio).
EVENT_TYPES = {"PAIRS": "PAIRS", "TEAMS": "TEAMS_OF_FOUR", "SWISS_TEAMS": "SWISS_TEAMS",
               "INDIVIDUAL": "INDIVIDUAL"}
_FIELD_SCORES = {Method.MP: ("NS_MATCH_POINTS", "EW_MATCH_POINTS"),
                 Method.IMPS: ("NS_IMPS", "EW_IMPS"),
                 Method.POINTS: ("NS_POINTS", "EW_POINTS")}


def usebio(db: Database, session: Session, *, version: str = VERSIONS[0]) -> str:
    """The session as a USEBIO document (``version`` 1.2 or 1.3). Raises
    :class:`ExportError` when the field cannot be scored (the console says what to fix)."""
    if version not in VERSIONS:
        raise ExportError(f"USEBIO {version} is not written here: {' or '.join(VERSIONS)}")
    data = _read(db, session)
    if data.unscored is not None:
        raise ExportError(f"the field scores cannot be computed: {data.unscored}")
    root = ET.Element("USEBIO", Version=version)
    club = register.club(db)
    if club is not None:
        element = ET.SubElement(root, "CLUB")
        _sub(element, "CLUB_NAME", club.name)
        _sub(element, "CLUB_ID_NUMBER", club.number)
    kind = session.kind
    event = ET.SubElement(root, "EVENT", EVENT_TYPE=EVENT_TYPES[kind.usebio])
    _heading(event, session, data)
    lines = _Lines(db, session, data)
    if kind.plays is Plays.TEAMS:
        _teams(event, db, session, data, lines)
    elif isinstance(session.plan, Sectioned):
        for section in session.plan.sections:
            part = ET.SubElement(event, "SECTION", SECTION_ID=section.letter)
            _pairs_or_players(part, data, lines, section.letter)
    else:
        _pairs_or_players(event, data, lines, None)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    doctype = DOCTYPE.format(version=version, underscored=version.replace(".", "_"))
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{doctype}\n{body}\n'


def _sub(parent: ET.Element, tag: str, text: str) -> ET.Element:
    element = ET.SubElement(parent, tag)
    element.text = text
    return element


def _heading(event: ET.Element, session: Session, data: _Session) -> None:
    _sub(event, "PROGRAM_NAME", PROGRAM)
    _sub(event, "EVENT_DESCRIPTION", session.title)
    _sub(event, "EVENT_IDENTIFIER", session.event)
    _sub(event, "DATE", data.date.strftime("%d/%m/%Y"))
    _sub(event, "BOARD_SCORING_METHOD", session.scoring.usebio)
    if session.kind.plays is Plays.TEAMS:
        _sub(event, "MATCH_SCORING_METHOD",
             "VPS" if session.scoring.entry.matches_in_vps else "IMPS")
    two_winners = {p.grp.rpartition(" ")[2] for p in data.participants.values()} >= {"NS", "EW"}
    _sub(event, "WINNER_TYPE", "2" if two_winners else "1")
    _sub(event, "BOARDS_PLAYED", str(len({row.board for row in data.rows})))
    if isinstance(session.plan, Sectioned):
        _sub(event, "SECTION_COUNT", str(len(session.plan.sections)))


class _Lines:
    """Every result's traveller line, with the table's auction and play as LIN."""

    def __init__(self, db: Database, session: Session, data: _Session) -> None:
        self.data = data
        self.averages = (rules_of(db, session).averages
                         if session.scoring.entry.club_percentages else None)
        self.lin = {(row.table, row.board): _lin(record, row)
                    for row, record in table_records(db, session, data.rows)}

    def write(self, board: ET.Element, row: ResultRow) -> None:
        line = ET.SubElement(board, "TRAVELLER_LINE")
        _sub(line, "NS_PAIR_NUMBER", _text(row.ns_pair))
        _sub(line, "EW_PAIR_NUMBER", _text(row.ew_pair))
        try:
            artificial = parse_adjusted(row.adjusted, self.averages)
        except ValueError:
            artificial = None
        passed_out = row.contract is not None and _passed_out(row.contract)
        if artificial is None and row.contract is not None:
            _sub(line, "CONTRACT", "PASS" if passed_out else row.contract)
            if not passed_out:
                _sub(line, "PLAYED_BY", _text(row.declarer))
                if row.lead:
                    _sub(line, "LEAD", row.lead)
                _sub(line, "TRICKS", _text(row.tricks))
        if artificial is not None:
            # Law 12C2: the percentages the director gave, as "A6040" (docs/exports.md).
            _sub(line, "SCORE", f"A{artificial[0]}{artificial[1]}")
        elif row.score_ns is not None:
            _sub(line, "SCORE", str(row.score_ns))
        scored = self.data.scored.get((row.table, row.board))
        if scored is not None and self.data.method is not None:
            names = _FIELD_SCORES[self.data.method]
            _sub(line, names[0], _number(scored.ns))
            _sub(line, names[1], _number(scored.ew))
        lin = self.lin.get((row.table, row.board))
        if lin:
            _sub(line, "LIN_DATA", lin)


def _lin(record: Record, row: ResultRow) -> str:
    """One board's play as a LIN line (pn, md, mb, pc...), without its newline; empty when
    the table sent no call. A play that stopped short was claimed: LIN's ``mc`` gives the
    tricks the result gives declarer."""
    if not record.auction:
        return ""
    if len(record.play_sequence) < 52 and row.tricks is not None and record.play_sequence:
        record = dataclasses.replace(record, claim=row.tricks)
    return dump_lin([record]).strip()


def _boards(parent: ET.Element, rows: Iterable[ResultRow], lines: _Lines) -> None:
    by_board: dict[int, list[ResultRow]] = defaultdict(list)
    for row in rows:
        by_board[row.board].append(row)
    for number, found in sorted(by_board.items()):
        board = ET.SubElement(parent, "BOARD")
        _sub(board, "BOARD_NUMBER", str(number))
        for row in found:
            lines.write(board, row)


# -- pairs and the individual --------------------------------------------------------------------

def _pairs_or_players(parent: ET.Element, data: _Session, lines: _Lines,
                      section: str | None) -> None:
    """PARTICIPANTS then the boards, of the whole session or of one section."""
    individual = data.session.kind.plays is Plays.PLAYERS
    plan = data.session.plan
    numbers = [n for n, p in data.participants.items() if not p.phantom
               and (section is None or not isinstance(plan, Sectioned)
                    or plan.section_of(n) == section)]
    participants = ET.SubElement(parent, "PARTICIPANTS")
    standing = {st.participant: st for st in data.standings}
    for number in numbers:
        participant = data.participants[number]
        if individual:
            element = ET.SubElement(participants, "PLAYER")
            _sub(element, "PLAYER_NUMBER", str(number))
            member = _registered(data, number)
            _sub(element, "PLAYER_NAME", member.name if member else
                 _pair_names(participant)[0])
            if member is not None and member.licence:
                _sub(element, "NATIONAL_ID_NUMBER", member.licence)
        else:
            element = ET.SubElement(participants, "PAIR")
            _sub(element, "PAIR_NUMBER", str(number))
            direction = participant.grp.rpartition(" ")[2]
            if direction in ("NS", "EW"):
                _sub(element, "DIRECTION", direction)
        _standing(element, standing.get(number))
        if not individual:
            _players(element, data, _side_players(data, number), participant)
    rows = [row for row in data.rows
            if section is None or data.session.section_of_table(row.table) == section]
    _boards(parent, rows, lines)


def _standing(element: ET.Element, st: Standing | None) -> None:
    if st is None:
        return
    _sub(element, "PLACE", st.rank_label)
    _sub(element, "BOARDS_PLAYED", str(st.boards))
    _sub(element, "TOTAL_SCORE", _number(st.score))
    if st.percent is not None:
        _sub(element, "PERCENTAGE", f"{st.percent:.2f}")
    if st.penalty:
        # Laws 90, 91: TOTAL_SCORE and PERCENTAGE are after it. USEBIO's ADJUSTMENT is the
        # final score less the raw one, so a penalty is negative.
        _sub(element, "ADJUSTMENT", _number(-st.penalty))


def _registered(data: _Session, number: int) -> register.Member | None:
    """The individual's player ``number`` in the session's register, when it has one."""
    return data.players.get(number) if data.players else None


def _players(element: ET.Element, data: _Session, registered: list[register.Member],
             participant: object, most: int = 2) -> None:
    """The register's players who sat for the pair (or team), with their federation
    numbers; else the names the director typed."""
    if registered:
        for member in registered[:most]:
            player = ET.SubElement(element, "PLAYER")
            _sub(player, "PLAYER_NAME", member.name)
            if member.licence:
                _sub(player, "NATIONAL_ID_NUMBER", member.licence)
        return
    first, second = _pair_names(participant)
    for name in (first, second) if first != second else (first,):
        player = ET.SubElement(element, "PLAYER")
        _sub(player, "PLAYER_NAME", name)


def _side_players(data: _Session, number: int) -> list[register.Member]:
    """The register's players who sat for pair or team ``number``, in the order they first
    sat; none when the session has no register."""
    if not data.players:
        return []
    found: dict[int, register.Member] = {}
    for row in sorted(data.rows, key=lambda r: (r.round or 0, r.board, r.table)):
        seats = data.seats.get((row.table, row.board), {})
        for side, side_seats in ((row.ns_pair, (Seat.N, Seat.S)),
                                 (row.ew_pair, (Seat.E, Seat.W))):
            if side != number:
                continue
            for seat in side_seats:
                player = seats.get(seat)
                if player is not None and player in data.players:
                    found.setdefault(player, data.players[player])
    return list(found.values())


# -- teams -----------------------------------------------------------------------------------------

def _teams(event: ET.Element, db: Database, session: Session, data: _Session,
           lines: _Lines) -> None:
    """PARTICIPANTS of TEAMs, then a MATCH for each match of each round with its boards."""
    swiss = swiss_of(db, session, public=False) if session.kind.paired else None
    participants = ET.SubElement(event, "PARTICIPANTS")
    if swiss is not None:
        places = {line.team: (line.rank_label, line.vp, line.penalty)
                  for line in swiss.standings}
    else:
        places = {st.participant: (st.rank_label, st.score, st.penalty)
                  for st in data.standings}
    for number, participant in data.participants.items():
        if participant.phantom:
            continue
        team = ET.SubElement(participants, "TEAM", TEAM_ID=str(number),
                             TEAM_NAME=participant.names or participant.label)
        place = places.get(number)
        if place is not None:
            rank, total, penalty = place
            _sub(team, "PLACE", rank)
            _sub(team, "TOTAL_SCORE", _number(total))
            if penalty:
                _sub(team, "ADJUSTMENT", _number(-penalty))
        _players(team, data, _side_players(data, number), participant, most=6)
    if swiss is not None:
        matches = swiss.matches
    else:  # a two-table match: one match a round, team 1 at home
        matches = [Match(round_, 1, 1, 2) for round_ in range(1, session.rounds + 1)]
        totals = _match_imps(data)
        matches = [Match(m.round, 1, 1, 2, *totals.get(m.round, (0, 0.0, 0.0)))
                   for m in matches]
    for match in matches:
        element = ET.SubElement(event, "MATCH")
        _sub(element, "ROUND_NUMBER", str(match.round))
        _sub(element, "TEAM", str(match.home))
        vps = swiss is not None
        if match.bye:
            _sub(element, "TEAM_SCORE", _number(match.home_vp))
            continue
        _sub(element, "OPPOSING_TEAM", str(match.away))
        _sub(element, "TEAM_SCORE", _number(match.home_vp if vps else match.home_imps))
        _sub(element, "OPPOSING_TEAM_SCORE",
             _number(match.away_vp if vps else match.away_imps))
        if vps:
            _sub(element, "TEAM_IMPS", _number(match.home_imps))
            _sub(element, "OPPOSING_TEAM_IMPS", _number(match.away_imps))
        tables = (2 * match.number - 1, 2 * match.number)
        rows = [row for row in data.rows if row.round == match.round and row.table in tables]
        _boards(element, rows, lines)


def _match_imps(data: _Session) -> dict[int, tuple[int, float, float]]:
    """A two-table match's boards scored and both teams' IMPs, by round."""
    found: dict[int, tuple[int, float, float]] = {}
    for row in data.rows:
        scored = data.scored.get((row.table, row.board))
        if scored is None or row.round is None or row.table != 1:
            continue
        boards, home, away = found.get(row.round, (0, 0.0, 0.0))
        # Table 1 has team 1 North-South: its NS IMPs are team 1's.
        found[row.round] = (boards + 1, home + scored.ns, away + scored.ew)
    return found
