"""A USEBIO 1.2 reader for the tests: it reads a pairs event back the way a scoring program
would, checks the structure element by element, and then checks that the places and totals
the file states agree with its own travellers.

What it was written from (docs/exports.md says the same). The published specification, the
EBU's "USEBIO 1.2" document (usebio.org/documentation/usebio-1.2.pdf) and its DTD
(usebio_v1_2.dtd, public identifier ``-//EBU//DTD USEBIO 1.2//EN``), could not be had: neither
is in any store the project's search tools reach, and no public repository found holds a copy.
The usebio.org page on version 1.3 (stored) says that any valid 1.2 file is valid 1.3 once its
version is changed, and that 1.3 only adds elements. So the content models below are the ones
four independent USEBIO 1.2 programs agree on, and no more:

* files written by Compscore3, in the ABF's Cobalt (``abftech/cobalt``,
  ``results/tests/test_files/*.xml``);
* the New Zealand Scorer converter (``duaneg/scorer-to-usebio``, whose expected output is in
  ``tests/integration_tests/converted/``), written against the DTD it declares;
* Steve Pomeroy's pairs stratification program, which marks each element it reads
  "Mandatory" or "Optional";
* the USEBIO writer of ``rhindonltd/bridge-box-scorer`` (``src/usebio/generate-usebio.ts``).

Where they disagree the reader accepts what each does (e.g. the IMP element names) and says so
in a comment. Where all four write an element in one place, the reader requires that place.
Every check raises :class:`UsebioError` naming the element and where it is.
"""

from __future__ import annotations

import datetime
import math
import re
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

VERSIONS = ("1.2", "1.3")  # 1.3 is 1.2 with more elements (usebio.org)
#: BOARD_SCORING_METHOD's values (the NZ converter's list for 1.2).
METHODS = ("MATCH_POINTS", "CROSS_IMPS", "BUTLER_IMPS", "IMPS", "AGGREGATE", "PAB", "BAM",
           "HYBRID", "OTHER")
#: EVENT_TYPE's values for a pairs event: PAIRS in 1.2 (NZ converter, Pomeroy, bridge-box-
#: scorer); MP_PAIRS and CROSS_IMP are 1.1's, still written by Compscore3 and read by Pomeroy.
PAIRS_TYPES = ("PAIRS", "MP_PAIRS", "CROSS_IMP", "BUTLER_PAIRS")
#: Teams and the individual, as EBU's own importer (``marcshearer/ImportUsebio``) names
#: them: its parser reads TEAMs (number and name as attributes) and MATCHes.
TEAMS_TYPES = ("TEAMS_OF_FOUR", "SWISS_TEAMS", "TEAMS")
INDIVIDUAL = "INDIVIDUAL"
#: The field score of a traveller line, by the method: every source writes NS_MATCH_POINTS
#: and EW_MATCH_POINTS for matchpoints; for IMPs Compscore3 writes NS_CROSS_IMP_POINTS and
#: bridge-box-scorer NS_IMPS.
POINTS = {"MATCH_POINTS": (("NS_MATCH_POINTS", "EW_MATCH_POINTS"),),
          "CROSS_IMPS": (("NS_IMPS", "EW_IMPS"), ("NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS")),
          "BUTLER_IMPS": (("NS_IMPS", "EW_IMPS"),), "IMPS": (("NS_IMPS", "EW_IMPS"),),
          "AGGREGATE": (("NS_POINTS", "EW_POINTS"),)}
#: What EVENT holds before PARTICIPANTS: each at most once, in any order (the four sources put
#: them in four different orders).
EVENT_HEADER = frozenset((
    "EVENT_IDENTIFIER", "EVENT_DESCRIPTION", "PROGRAM_NAME", "PROGRAM_VERSION", "WINNER_TYPE",
    "TITLE", "DATE", "VENUE", "MASTER_POINT_SCALE", "MASTER_POINT_TYPE", "MPS_AWARDED_FLAG",
    "SESSION_COUNT", "SECTION_COUNT", "P2P_CHARGE_RATE", "BOARD_SCORING_METHOD",
    "SCORING_METHOD", "BOARDS_PLAYED", "PAIRS", "EW_PAIRS", "CONTACT", "NOTES",
    "MATCH_SCORING_METHOD"))
#: What the reader needs to check a pairs event besides DATE, which every source requires.
EVENT_NEEDED = ("EVENT_DESCRIPTION", "BOARD_SCORING_METHOD", "WINNER_TYPE")
#: A PAIR's elements after its PAIR_NUMBER, in any order (the sources differ), with at most
#: how many: PLAYER once or twice (two players; one when a name stands for the pair).
PAIR_PARTS = {"DIRECTION": 1, "BOARDS_PLAYED": 1, "PLACE": 1, "TOTAL_SCORE": 1,
              "PERCENTAGE": 1, "ADJUSTMENT": 1, "HANDICAP": 1, "MASTER_POINTS": 2,
              "MASTER_POINTS_AWARDED": 1, "MASTER_POINT_TYPE": 1, "PLAYER": 2}
#: A PLAYER: its name first (Pomeroy: mandatory), then its numbers (Compscore3's order).
PLAYER_MODEL = (("PLAYER_NAME", 1, 1), ("NATIONAL_ID_NUMBER", 0, 1), ("CLUB_ID_NUMBER", 0, 1))
#: A TRAVELLER_LINE up to its field score, in the one order all four sources write.
LINE_MODEL = (("NS_PAIR_NUMBER", 1, 1), ("EW_PAIR_NUMBER", 1, 1), ("CONTRACT", 0, 1),
              ("PLAYED_BY", 0, 1), ("LEAD", 0, 1), ("TRICKS", 0, 1), ("SCORE", 0, 1))

CONTRACT = re.compile(r"[1-7](C|D|H|S|NT)(X|XX|x|xx)?|PASS")
CARD = re.compile(r"[SHDC][AKQJT2-9]|[AKQJT2-9][SHDC]")  # suit first (NZ) or rank first
SCORE = re.compile(r"-?\d+|A\d{4}")  # points, or an artificial score "A6040" (Pomeroy)
PLACE = re.compile(r"(\d+)(=?)")
NUMBER = re.compile(r"-?\d+(\.\d+)?")


class UsebioError(ValueError):
    pass


@dataclass
class Pair:
    number: int
    place: str
    total: float
    percentage: float | None
    direction: str | None
    adjustment: float  # ADJUSTMENT: the final score less the raw one (a penalty is negative)
    players: list[str]
    section: str = ""  # its SECTION's SECTION_ID, when the event has sections

    @property
    def penalty(self) -> float:
        """Laws 90, 91: what the penalties took off, as a positive amount."""
        return -self.adjustment


@dataclass
class Line:
    ns: int
    ew: int
    contract: str | None
    declarer: str | None
    lead: str | None
    tricks: int | None
    score: str | None  # points, or an artificial score such as "A6040"
    ns_points: float
    ew_points: float
    lin: str | None = None  # LIN_DATA: the table's auction and play


@dataclass
class Event:
    kind: str
    description: str
    date: datetime.date
    method: str
    winner_type: int
    club: str | None = None
    pairs: dict[int, Pair] = field(default_factory=dict)  # pairs, teams or players
    boards: dict[int, list[Line]] = field(default_factory=dict)
    matches: list[Match] = field(default_factory=list)  # a teams event's
    version: str = "1.2"
    sections: list[str] = field(default_factory=list)


@dataclass
class Match:
    round: int
    team: int
    opponents: int | None  # None: a bye
    score: float
    opposing_score: float | None
    boards: dict[int, list[Line]] = field(default_factory=dict)


# -- the content models ------------------------------------------------------------------------

def _children(element: ET.Element) -> list[ET.Element]:
    return list(element)


def _sequence(children: list[ET.Element], model: Iterable[tuple[str, int, int]],
              where: str) -> list[ET.Element]:
    """Match ``children`` against a sequence of (tag, fewest, most), in order; return what is
    left after it."""
    at = 0
    for tag, fewest, most in model:
        count = 0
        while at < len(children) and children[at].tag == tag and count < most:
            at, count = at + 1, count + 1
        if count < fewest:
            found = children[at].tag if at < len(children) else "its end"
            raise UsebioError(f"{where}: {tag} expected, found {found}")
    return children[at:]


def _nothing_else(rest: list[ET.Element], where: str) -> None:
    if rest:
        raise UsebioError(f"{where}: {rest[0].tag} is out of place")


def _text(element: ET.Element, tag: str, where: str) -> str:
    found = element.find(tag)
    if found is None or found.text is None or not found.text.strip():
        raise UsebioError(f"{where}: no {tag}")
    return found.text.strip()


def _optional(element: ET.Element, tag: str) -> str | None:
    found = element.find(tag)
    if found is None or found.text is None or not found.text.strip():
        return None
    return found.text.strip()


def _matching(pattern: re.Pattern[str], text: str, what: str, where: str) -> str:
    if not pattern.fullmatch(text):
        raise UsebioError(f"{where}: {what} {text!r} is not one")
    return text


def _float(text: str, what: str, where: str) -> float:
    return float(_matching(NUMBER, text, what, where))


def _int(text: str, what: str, where: str) -> int:
    if not re.fullmatch(r"-?\d+", text):
        raise UsebioError(f"{where}: {what} {text!r} is not a whole number")
    return int(text)


# -- reading ------------------------------------------------------------------------------------

def loads(text: str) -> Event:
    """Read a USEBIO 1.2 pairs event; :class:`UsebioError` says what is wrong and where."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise UsebioError(f"not XML: {error}") from None
    if root.tag != "USEBIO" or root.get("Version") not in VERSIONS:
        raise UsebioError(f"not USEBIO {' or '.join(VERSIONS)}: <{root.tag} "
                          f"Version={root.get('Version')!r}>")
    doctype = re.search(r"<!DOCTYPE\s+(\S+)", text)
    if doctype is not None and doctype.group(1) != "USEBIO":
        raise UsebioError(f"the DOCTYPE names {doctype.group(1)}, not USEBIO")
    # CLUB before the EVENT: every source that writes a CLUB puts it first.
    _nothing_else(_sequence(_children(root), (("CLUB", 0, 1), ("EVENT", 1, 1)), "USEBIO"),
                  "USEBIO")
    club = root.find("CLUB")
    event = root.find("EVENT")
    assert event is not None  # _sequence required it
    read = _event(event, None if club is None else _optional(club, "CLUB_NAME"))
    read.version = str(root.get("Version"))
    _check_totals(read)
    _check_places(read)
    return read


def _event(event: ET.Element, club: str | None) -> Event:
    kind = event.get("EVENT_TYPE")
    if kind not in (*PAIRS_TYPES, *TEAMS_TYPES, INDIVIDUAL):
        raise UsebioError(f"EVENT_TYPE {kind!r} is not a pairs, teams or individual event")
    children = _children(event)
    split = next((i for i, child in enumerate(children)
                  if child.tag in ("PARTICIPANTS", "SECTION")), None)
    if split is None:
        raise UsebioError("EVENT: no PARTICIPANTS")
    seen: Counter[str] = Counter()
    for child in children[:split]:
        if child.tag in ("BOARD", "MATCH"):
            raise UsebioError(f"EVENT: a {child.tag} before the PARTICIPANTS")
        if child.tag not in EVENT_HEADER:
            raise UsebioError(f"EVENT: {child.tag} is no element of an event's heading")
        seen[child.tag] += 1
        if seen[child.tag] > 1:
            raise UsebioError(f"EVENT: {child.tag} more than once")
    for tag in ("DATE", *EVENT_NEEDED):
        _text(event, tag, "EVENT")
    method = _text(event, "BOARD_SCORING_METHOD", "EVENT")
    if method not in METHODS:
        raise UsebioError(f"BOARD_SCORING_METHOD {method!r} is none of {', '.join(METHODS)}")
    try:
        day = datetime.datetime.strptime(_text(event, "DATE", "EVENT"), "%d/%m/%Y").date()
    except ValueError:
        raise UsebioError(f"EVENT: DATE {event.findtext('DATE')!r} is not DD/MM/YYYY") from None
    winner_type = _int(_text(event, "WINNER_TYPE", "EVENT"), "WINNER_TYPE", "EVENT")
    if winner_type not in (1, 2):
        raise UsebioError(f"EVENT: WINNER_TYPE {winner_type} is neither 1 nor 2")
    read = Event(kind, _text(event, "EVENT_DESCRIPTION", "EVENT"), day, method, winner_type,
                 club)
    rest = children[split:]
    if rest[0].tag == "SECTION":  # several sections: each its participants and boards
        _nothing_else(_sequence(rest, (("SECTION", 1, 10**3),), "EVENT"), "EVENT")
        for section in rest:
            name = section.get("SECTION_ID") or ""
            if not name or name in read.sections:
                raise UsebioError(f"SECTION: SECTION_ID {name!r} missing or twice")
            read.sections.append(name)
            parts = _children(section)
            if not parts or parts[0].tag != "PARTICIPANTS":
                raise UsebioError(f"section {name}: no PARTICIPANTS first")
            _participants(parts[0], read, name)
            _nothing_else(_sequence(parts[1:], (("BOARD", 0, 10**6),), f"section {name}"),
                          f"section {name}")
            _boards_of(section, read, f"section {name}")
    else:
        _participants(rest[0], read, "")
        after = "MATCH" if kind in TEAMS_TYPES else "BOARD"
        _nothing_else(_sequence(rest[1:], ((after, 0, 10**6),), "EVENT"), "EVENT")
        if after == "MATCH":
            for match in event.findall("MATCH"):
                read.matches.append(_match(match, read))
        else:
            _boards_of(event, read, "EVENT")
    if not read.pairs:
        raise UsebioError("PARTICIPANTS: none")
    return read


def _participants(participants: ET.Element, read: Event, section: str) -> None:
    wanted = {INDIVIDUAL: "PLAYER"}.get(read.kind, "TEAM" if read.kind in TEAMS_TYPES
                                        else "PAIR")
    for element in _children(participants):
        if element.tag != wanted:
            raise UsebioError(f"PARTICIPANTS: {element.tag} in a {read.kind} event")
        found = (_team(element) if wanted == "TEAM" else _player(element) if
                 wanted == "PLAYER" else _pair(element, read.winner_type))
        found.section = section
        if found.number in read.pairs:
            raise UsebioError(f"PARTICIPANTS: {wanted.lower()} {found.number} twice")
        read.pairs[found.number] = found
    # WINNER_TYPE 2 ranks NS and EW apart: every pair has its DIRECTION, but in a section
    # with one winner (a Howell beside a Mitchell), where none has.
    directions = {p.direction for p in read.pairs.values() if p.section == section}
    if wanted == "PAIR" and read.winner_type == 2 and None in directions and directions != {
            None}:
        raise UsebioError(f"{section or 'PARTICIPANTS'}: WINNER_TYPE 2 ranks NS and EW apart; "
                          "a pair has no DIRECTION")
    if wanted == "PAIR" and read.winner_type == 2 and directions == {None} and not section:
        raise UsebioError("PARTICIPANTS: WINNER_TYPE 2 ranks NS and EW apart; DIRECTION is None")


def _boards_of(parent: ET.Element, read: Event, where: str) -> None:
    """The boards of the event or of one section (sections play the same boards: a board's
    lines are all its sections' lines)."""
    seen: set[int] = set()
    for board in parent.findall("BOARD"):
        number, lines = _board(board, read.method, read)
        if number in seen or (number in read.boards and not read.sections):
            raise UsebioError(f"{where}: board {number} twice")
        seen.add(number)
        read.boards.setdefault(number, []).extend(lines)


def _team(team: ET.Element) -> Pair:
    """A TEAM: its number and name as attributes (as EBU's importer reads them), then its
    place, total and players in any order."""
    number = _int(team.get("TEAM_ID") or "", "TEAM_ID", "TEAM")
    where = f"team {number}"
    if not team.get("TEAM_NAME"):
        raise UsebioError(f"{where}: no TEAM_NAME")
    for child in _children(team):
        if child.tag not in ("PLACE", "TOTAL_SCORE", "ADJUSTMENT", "PLAYER"):
            raise UsebioError(f"{where}: {child.tag} is no element of a TEAM")
    players = [_text(player, "PLAYER_NAME", f"{where}'s PLAYER")
               for player in team.findall("PLAYER")]
    adjustment = _optional(team, "ADJUSTMENT")
    return Pair(number, _matching(PLACE, _text(team, "PLACE", where), "PLACE", where),
                _float(_text(team, "TOTAL_SCORE", where), "TOTAL_SCORE", where), None, None,
                0.0 if adjustment is None else _float(adjustment, "ADJUSTMENT", where), players)


def _player(player: ET.Element) -> Pair:
    """The individual's PLAYER: its number and name first, then its place and total."""
    rest = _sequence(_children(player), (("PLAYER_NUMBER", 1, 1), ("PLAYER_NAME", 1, 1),
                                         ("NATIONAL_ID_NUMBER", 0, 1)), "PLAYER")
    number = _int(_text(player, "PLAYER_NUMBER", "PLAYER"), "PLAYER_NUMBER", "PLAYER")
    where = f"player {number}"
    for child in rest:
        if child.tag not in PAIR_PARTS or child.tag in ("PLAYER", "DIRECTION"):
            raise UsebioError(f"{where}: {child.tag} is no element of a PLAYER")
    adjustment = _optional(player, "ADJUSTMENT")
    return Pair(number, _matching(PLACE, _text(player, "PLACE", where), "PLACE", where),
                _float(_text(player, "TOTAL_SCORE", where), "TOTAL_SCORE", where), None, None,
                0.0 if adjustment is None else _float(adjustment, "ADJUSTMENT", where),
                [_text(player, "PLAYER_NAME", where)])


def _match(match: ET.Element, read: Event) -> Match:
    rest = _sequence(_children(match), (
        ("ROUND_NUMBER", 1, 1), ("TEAM", 1, 1), ("OPPOSING_TEAM", 0, 1), ("TEAM_SCORE", 1, 1),
        ("OPPOSING_TEAM_SCORE", 0, 1), ("TEAM_IMPS", 0, 1), ("OPPOSING_TEAM_IMPS", 0, 1),
        ("BOARD", 0, 10**3)), "MATCH")
    _nothing_else(rest, "MATCH")
    round_ = _int(_text(match, "ROUND_NUMBER", "MATCH"), "ROUND_NUMBER", "MATCH")
    team = _int(_text(match, "TEAM", "MATCH"), "TEAM", "MATCH")
    where = f"round {round_}, team {team}'s match"
    opponents_text = _optional(match, "OPPOSING_TEAM")
    opponents = None if opponents_text is None else _int(opponents_text, "OPPOSING_TEAM",
                                                         where)
    for number in (team, opponents):
        if number is not None and number not in read.pairs:
            raise UsebioError(f"{where}: team {number} is not among the PARTICIPANTS")
    opposing = _optional(match, "OPPOSING_TEAM_SCORE")
    if (opponents is None) != (opposing is None):
        raise UsebioError(f"{where}: an OPPOSING_TEAM needs its OPPOSING_TEAM_SCORE")
    found = Match(round_, team, opponents,
                  _float(_text(match, "TEAM_SCORE", where), "TEAM_SCORE", where),
                  None if opposing is None else _float(opposing, "OPPOSING_TEAM_SCORE", where))
    for board in match.findall("BOARD"):
        number, lines = _board(board, read.method, read, teams=(team, opponents))
        found.boards[number] = lines
    return found


def _pair(pair: ET.Element, winner_type: int) -> Pair:
    rest = _sequence(_children(pair), (("PAIR_NUMBER", 1, 1),), "PAIR")
    number = _int(_text(pair, "PAIR_NUMBER", "PAIR"), "PAIR_NUMBER", "PAIR")
    where = f"pair {number}"
    seen: Counter[str] = Counter()
    for child in rest:
        if child.tag not in PAIR_PARTS:
            raise UsebioError(f"{where}: {child.tag} is no element of a PAIR")
        seen[child.tag] += 1
        if seen[child.tag] > PAIR_PARTS[child.tag]:
            raise UsebioError(f"{where}: {child.tag} more than {PAIR_PARTS[child.tag]} times")
    players = []
    for player in pair.findall("PLAYER"):
        _nothing_else(_sequence(_children(player), PLAYER_MODEL, f"{where}'s PLAYER"),
                      f"{where}'s PLAYER")
        players.append(_text(player, "PLAYER_NAME", f"{where}'s PLAYER"))
    if not players:
        raise UsebioError(f"{where}: no PLAYER")
    # What the reader checks against the rankings: every pair has its place and total.
    place = _matching(PLACE, _text(pair, "PLACE", where), "PLACE", where)
    total = _float(_text(pair, "TOTAL_SCORE", where), "TOTAL_SCORE", where)
    percentage = _optional(pair, "PERCENTAGE")
    adjustment = _optional(pair, "ADJUSTMENT")
    direction = _optional(pair, "DIRECTION")
    if winner_type == 2 and direction not in ("NS", "EW", None):
        raise UsebioError(f"{where}: WINNER_TYPE 2 ranks NS and EW apart; DIRECTION is "
                          f"{direction!r}")
    return Pair(number, place, total,
                None if percentage is None else _float(percentage, "PERCENTAGE", where),
                direction, 0.0 if adjustment is None else _float(adjustment, "ADJUSTMENT",
                                                                  where), players)


def _board(board: ET.Element, method: str, read: Event,
           teams: tuple[int, int | None] | None = None) -> tuple[int, list[Line]]:
    rest = _sequence(_children(board), (("BOARD_NUMBER", 1, 1), ("VULNERABILITY", 0, 1),
                                        ("HAND", 0, 4), ("TRAVELLER_LINE", 1, 10**6)),
                     "BOARD")
    number = _int(_text(board, "BOARD_NUMBER", "BOARD"), "BOARD_NUMBER", "BOARD")
    _nothing_else(rest, f"board {number}")
    lines = []
    played: set[int] = set()
    for index, line in enumerate(board.findall("TRAVELLER_LINE"), 1):
        where = f"board {number}, line {index}"
        found = _line(line, method, where)
        if teams is not None:  # a match's board: its teams, once at each table
            if {found.ns, found.ew} != set(teams):
                raise UsebioError(f"{where}: teams {found.ns} and {found.ew} are not the "
                                  f"match's {teams}")
            lines.append(found)
            continue
        sides: tuple[tuple[int, str], ...] = ((found.ns, "NS"), (found.ew, "EW"))
        if read.kind == INDIVIDUAL:  # partnership 13 is players 1 and 3
            sides = tuple((int(digit), side) for number, side in sides
                          for digit in str(number))
        for pair, side in sides:
            if pair not in read.pairs:
                raise UsebioError(f"{where}: pair {pair} is not among the PARTICIPANTS")
            if pair in played:
                raise UsebioError(f"{where}: pair {pair} plays the board twice")
            played.add(pair)
            direction = read.pairs[pair].direction
            if read.winner_type == 2 and read.pairs[pair].section != read.pairs[
                    sides[0][0]].section:
                raise UsebioError(f"{where}: pairs of two sections")
            if read.winner_type == 2 and direction is not None and direction != side:
                raise UsebioError(f"{where}: pair {pair} is {direction}, sat {side}")
        lines.append(found)
    return number, lines


def _line(line: ET.Element, method: str, where: str) -> Line:
    rest = _sequence(_children(line), LINE_MODEL, where)
    early = {tag for tag, _, _ in LINE_MODEL}
    misplaced = next((child.tag for child in rest if child.tag in early), None)
    if misplaced is not None:
        raise UsebioError(f"{where}: {misplaced} is out of place")
    names = POINTS.get(method)
    if names is None:
        raise UsebioError(f"{where}: the reader takes no {method} field scores")
    lin = None
    if rest and rest[-1].tag == "LIN_DATA":  # BridgeWebs' bidding and play, last
        lin = rest[-1].text or ""
        rest = rest[:-1]
    for pair_of in names:
        if [child.tag for child in rest] == list(pair_of):
            break
    else:
        raise UsebioError(f"{where}: after its SCORE a {method} line has "
                          f"{' or '.join(' '.join(p) for p in names)}, not "
                          f"{' '.join(child.tag for child in rest) or 'nothing'}")
    contract = _optional(line, "CONTRACT")
    if contract is not None:
        _matching(CONTRACT, contract, "CONTRACT", where)
    declarer = _optional(line, "PLAYED_BY")
    if declarer is not None and declarer not in ("N", "E", "S", "W"):
        raise UsebioError(f"{where}: PLAYED_BY {declarer!r} is no seat")
    lead = _optional(line, "LEAD")
    if lead is not None:
        _matching(CARD, lead, "LEAD", where)
    tricks_text = _optional(line, "TRICKS")
    tricks = None if tricks_text is None else _int(tricks_text, "TRICKS", where)
    if tricks is not None and not 0 <= tricks <= 13:
        raise UsebioError(f"{where}: TRICKS {tricks}")
    score = _optional(line, "SCORE")
    if score is not None:
        _matching(SCORE, score, "SCORE", where)
    return Line(_int(_text(line, "NS_PAIR_NUMBER", where), "NS_PAIR_NUMBER", where),
                _int(_text(line, "EW_PAIR_NUMBER", where), "EW_PAIR_NUMBER", where),
                contract, declarer, lead, tricks, score,
                _float(_text(line, pair_of[0], where), pair_of[0], where),
                _float(_text(line, pair_of[1], where), pair_of[1], where), lin)


# -- the file against itself --------------------------------------------------------------------

def _check_totals(read: Event) -> None:
    """Each pair's TOTAL_SCORE is what its lines give it, with its ADJUSTMENT: each figure is
    written to two places, so each may be off by half a hundredth. A team's is its matches'
    scores (victory points in a Swiss); the individual's player's, its partnerships'."""
    points: dict[int, list[float]] = defaultdict(list)
    if read.kind in TEAMS_TYPES:
        for match in read.matches:
            points[match.team].append(match.score)
            if match.opponents is not None and match.opposing_score is not None:
                points[match.opponents].append(match.opposing_score)
    for lines in read.boards.values():
        for line in lines:
            for number, got in ((line.ns, line.ns_points), (line.ew, line.ew_points)):
                for who in ([int(d) for d in str(number)] if read.kind == INDIVIDUAL
                            else [number]):
                    points[who].append(got)
    for number, pair in read.pairs.items():
        got = math.fsum(points[number]) + pair.adjustment
        slack = 0.005 * (len(points[number]) + 2) + 1e-9
        if abs(got - pair.total) > slack:
            raise UsebioError(f"pair {number}: TOTAL_SCORE {pair.total:g}, but its lines and "
                              f"ADJUSTMENT add up to {got:.2f}")


def _check_places(read: Event) -> None:
    """Places are ranks within each ranking group (NS and EW apart for WINNER_TYPE 2): "n" is
    one more than the pairs placed ahead, "n=" is shared, and a pair placed ahead has at least
    the score (PERCENTAGE when every pair has one, else TOTAL_SCORE; both to two places)."""
    groups: dict[str, list[Pair]] = defaultdict(list)
    for pair in read.pairs.values():
        direction = (pair.direction or "") if read.winner_type == 2 else ""
        groups[f"{pair.section} {direction}".strip()].append(pair)
    for group, pairs in groups.items():
        by_percent = all(p.percentage is not None for p in pairs)

        def key(pair: Pair, by_percent: bool = by_percent) -> float:
            return pair.percentage if by_percent and pair.percentage is not None else pair.total

        ranks = {}
        for pair in pairs:
            match = PLACE.fullmatch(pair.place)
            assert match is not None  # _pair checked it
            ranks[pair.number] = int(match.group(1))
        shared = Counter(ranks.values())
        for pair in pairs:
            rank = ranks[pair.number]
            ahead = sum(1 for other in ranks.values() if other < rank)
            if rank != ahead + 1:
                raise UsebioError(f"{group or 'the field'}: pair {pair.number} is placed "
                                  f"{pair.place} with {ahead} pair(s) ahead")
            if pair.place.endswith("=") != (shared[rank] > 1):
                raise UsebioError(f"{group or 'the field'}: pair {pair.number}'s place "
                                  f"{pair.place} and the {shared[rank]} pair(s) placed {rank}")
            for other in pairs:
                if ranks[other.number] < rank and key(other) < key(pair) - 0.01:
                    raise UsebioError(f"{group or 'the field'}: pair {other.number} is placed "
                                      f"ahead of pair {pair.number} with less")
                if ranks[other.number] == rank and abs(key(other) - key(pair)) > 0.01:
                    raise UsebioError(f"{group or 'the field'}: pairs {other.number} and "
                                      f"{pair.number} share a place with different scores")
