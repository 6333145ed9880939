"""A USEBIO 1.2 reader for the tests, written from the format's published description (the
USEBIO project's 1.2 specification: a ``USEBIO`` root with its ``Version``; an ``EVENT`` with
its ``EVENT_TYPE``; the event's description, date and board scoring method; its
``PARTICIPANTS``, each pair with its number, place and score; and a ``BOARD`` per board with a
``TRAVELLER_LINE`` per table). It reads only what a scoring program needs and checks every
element it requires is there, so an export that lost one fails here, not at the club's
national body."""

from __future__ import annotations

import datetime
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

REQUIRED_EVENT = ("EVENT_DESCRIPTION", "DATE", "BOARD_SCORING_METHOD", "WINNER_TYPE",
                  "PARTICIPANTS")
REQUIRED_PAIR = ("PAIR_NUMBER", "PLACE", "TOTAL_SCORE")
REQUIRED_LINE = ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER")
METHODS = ("MATCH_POINTS", "CROSS_IMPS", "BUTLER_IMPS", "IMPS", "AGGREGATE")


class UsebioError(ValueError):
    pass


@dataclass
class Pair:
    number: int
    place: str
    total: float
    percentage: float | None
    direction: str | None
    penalty: float
    players: list[str]


@dataclass
class Line:
    ns: int
    ew: int
    contract: str | None
    declarer: str | None
    tricks: int | None
    score: int | None
    ns_points: float | None
    ew_points: float | None


@dataclass
class Event:
    kind: str
    description: str
    date: datetime.date
    method: str
    winner_type: int
    pairs: dict[int, Pair] = field(default_factory=dict)
    boards: dict[int, list[Line]] = field(default_factory=dict)


def _text(element: ET.Element, tag: str, where: str) -> str:
    found = element.find(tag)
    if found is None or found.text is None or not found.text.strip():
        raise UsebioError(f"{where}: no {tag}")
    return found.text.strip()


def _number(element: ET.Element, tag: str) -> float | None:
    text = element.findtext(tag)
    return None if text is None else float(text)


def loads(text: str) -> Event:
    root = ET.fromstring(text)
    if root.tag != "USEBIO" or root.get("Version") != "1.2":
        raise UsebioError(f"not USEBIO 1.2: <{root.tag} Version={root.get('Version')!r}>")
    event = root.find("EVENT")
    if event is None:
        raise UsebioError("no EVENT")
    kind = event.get("EVENT_TYPE")
    if not kind:
        raise UsebioError("EVENT without its EVENT_TYPE")
    for tag in REQUIRED_EVENT:
        if event.find(tag) is None:
            raise UsebioError(f"EVENT: no {tag}")
    method = _text(event, "BOARD_SCORING_METHOD", "EVENT")
    if method not in METHODS:
        raise UsebioError(f"BOARD_SCORING_METHOD {method!r} is none of {METHODS}")
    day = datetime.datetime.strptime(_text(event, "DATE", "EVENT"), "%d/%m/%Y").date()
    read = Event(kind, _text(event, "EVENT_DESCRIPTION", "EVENT"), day, method,
                 int(_text(event, "WINNER_TYPE", "EVENT")))
    participants = event.find("PARTICIPANTS")
    assert participants is not None
    for pair in participants.findall("PAIR"):
        for tag in REQUIRED_PAIR:
            _text(pair, tag, "PAIR")
        number = int(_text(pair, "PAIR_NUMBER", "PAIR"))
        read.pairs[number] = Pair(number, _text(pair, "PLACE", "PAIR"),
                                  float(_text(pair, "TOTAL_SCORE", "PAIR")),
                                  _number(pair, "PERCENTAGE"), pair.findtext("DIRECTION"),
                                  _number(pair, "PENALTY") or 0.0,
                                  [p.findtext("PLAYER_NAME") or ""
                                   for p in pair.findall("PLAYER")])
    names = {"MATCH_POINTS": ("NS_MATCH_POINTS", "EW_MATCH_POINTS")}.get(
        method, ("NS_IMPS", "EW_IMPS"))
    for board in event.findall("BOARD"):
        number = int(_text(board, "BOARD_NUMBER", "BOARD"))
        lines = []
        for line in board.findall("TRAVELLER_LINE"):
            for tag in REQUIRED_LINE:
                _text(line, tag, f"board {number}'s TRAVELLER_LINE")
            tricks, score = line.findtext("TRICKS"), line.findtext("SCORE")
            lines.append(Line(int(_text(line, "NS_PAIR_NUMBER", "")),
                              int(_text(line, "EW_PAIR_NUMBER", "")), line.findtext("CONTRACT"),
                              line.findtext("PLAYED_BY"), int(tricks) if tricks else None,
                              int(score) if score else None, _number(line, names[0]),
                              _number(line, names[1])))
        read.boards[number] = lines
    return read
