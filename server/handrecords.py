"""Hand records before the session: the PBN deal file a dealing machine reads, and the
printed hand-record sheet (server.report), from the session's deals or from deals generated
here with a seed (the same seed always gives the same deals, so a lost file is dealt again).

A dealing machine reads each board's ``Board``, ``Dealer``, ``Vulnerable`` and ``Deal`` tags
(PBN 2.1 import format); dealer and vulnerability follow from the board number (Law 2) unless
the session says otherwise.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping

from server.db import Database
from server.session import Session, board_conditions, deals_of, dealt
from tabled.rules import Board, Deal, RulesError, Seat, Vulnerability
from tabled.rules.pbn import dumps as dump_pbn
from tabled.rules.records import Record

MOST_BOARDS = 9999  # the wire's board numbers


class HandRecordError(ValueError):
    """Boards or deals that cannot be written; the message says what to give instead."""


def parse_boards(text: str) -> list[int]:
    """Boards as a person writes them: "1-24", "1-12,25-36", "7"."""
    boards: list[int] = []
    for part in text.split(","):
        part = part.strip()
        first, _, last = part.partition("-")
        try:
            low, high = int(first), int(last or first)
        except ValueError:
            raise HandRecordError(f"boards are written 1-24 or 1-12,25-36, not {text!r}") \
                from None
        if not 1 <= low <= high <= MOST_BOARDS:
            raise HandRecordError(f"boards run from 1 to {MOST_BOARDS}, low to high: {part!r}")
        boards.extend(range(low, high + 1))
    return sorted(set(boards))


def generated(seed: int, boards: Iterable[int]) -> dict[int, str]:
    """Deals made here from ``seed``, one per board."""
    return {board: dealt(seed, board) for board in boards}


def of_session(db: Database, session: Session) -> dict[int, str]:
    found = deals_of(db, session)
    if not found:
        raise HandRecordError("the session has no hand records: import a PBN file or deal "
                              "them with a seed when setting it up")
    return found


def conditions_of(session: Session) -> dict[int, tuple[Seat, Vulnerability]]:
    return {board: board_conditions(session, board) for board in session.plan.boards()}


def dealing_pbn(deals: Mapping[int, str], *, event: str, site: str = "?",
                date: datetime.date | None = None,
                conditions: Mapping[int, tuple[Seat, Vulnerability]] | None = None) -> str:
    """The PBN file a dealing machine reads: one game per board, its deal and conditions."""
    when = (date or datetime.date.today()).strftime("%Y.%m.%d")
    records = []
    for board, text in sorted(deals.items()):
        try:
            deal = Deal.from_pbn(text)
        except RulesError as error:
            raise HandRecordError(f"board {board}: {error}") from None
        if not deal.is_complete_for_play:
            raise HandRecordError(f"board {board}: a dealing machine needs all four hands")
        dealer, vulnerability = (conditions or {}).get(board) or (
            Board(board).dealer, Board(board).vulnerability)
        record = Record(board=board, dealer=dealer, vulnerability=vulnerability, deal=deal)
        record.tags = {"Event": event, "Site": site, "Date": when}
        records.append(record)
    return dump_pbn(records)
