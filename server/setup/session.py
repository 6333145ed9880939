"""The session as a value, and what reads it: its set-up, its movement, its boards.

A server runs one session at a time, named by its MQTT event. ``Session`` is what the
director set up (movement, scoring, screens, sections, the round clock's setting...), read
back with ``current``; the hand records, the participants and each board's dealer and
vulnerability are read here too. Setting a session up and starting its rounds is
server/link/rounds.py, which stands above this module with the round clock, the register and the
Swiss pairing, so that everything which needs only the session imports only this.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from laws import Board, Card, Deal, RecordError, RulesError, Seat, Vulnerability
from laws.board import hand_to_pbn
from laws.pbn import loads as load_pbn
from laws.scoring import club_dealer, club_vulnerability
from server.errors import Refused
from server.setup.movements import (
    KINDS,
    OFFERED,
    PHANTOM,
    Movement,
    MovementError,
    MovementKind,
    Pairings,
    Section,
    Sectioned,
    movement,
    sectioned,
    table_name,
)
from server.setup.scorings import Scoring
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.regulation import DEFAULT_PROFILE, DEFAULT_TRAY_DELAY, PROFILES, Screens

MOVEMENTS = OFFERED
"""The movements the set-up offers; each is a ``MovementKind`` (server/setup/movements.py KINDS),
which says what it pairs, its scorings, its words and its builder."""
SCOPES = ("section", "field")
"""How a sectioned session compares a board: within each section, or across the field."""
SCORINGS = tuple(Scoring)
"""Every scoring, each one ``ScoringEntry`` (server/setup/scorings.py): mp: matchpoints;
cross_imps, butler, butler_mean: IMPs pairs; teams: IMPs of a match; swiss: IMPs to VPs;
club, rubber, chicago: the engine's social schemes, each result scored on its own."""
#: What each movement can be scored with (its kind's scorings, the first the default): a
#: team match is IMPs between its two tables; the seed-004 individual is one table of four,
#: with no field to compare against.
ALLOWED_SCORING: dict[str, tuple[Scoring, ...]] = {
    name: kind.scorings for name, kind in KINDS.items()}
DEFAULT_SCORING = {name: kind.default_scoring for name, kind in KINDS.items()}
SCREENS = {"NE-SW": Seat.E, "NW-SE": Seat.W}
"""Screens, by the sides they make: North sits with East (the default) or with West."""
DEALINGS = ("server", "table")
"""Who deals the boards: the server (hand records imported from PBN or dealt here from the
seed), or the tables (shuffled and dealt at the table: the first table to play a board scans
its four hands and the server keeps that deal as the board's hand record; docs/players.md)."""
VUGRAPH_MODES = ("released", "off", "live")
"""What the public vugraph shows (server/pages/vugraph.py): a board only once the release rule
shows its results; nothing; or, for a single match only, the tables live with the delay."""


class SessionError(Refused):
    """A set-up the director must change; the message says what."""


@dataclass(frozen=True)
class Session:
    id: int
    event: str
    title: str
    movement: str
    scoring: Scoring
    tables: int
    rounds: int
    boards_per_round: int
    first_board: int
    participants: int
    current_round: int
    screens: str | None = None  # "NE-SW", "NW-SE", or None: no screens
    tray_delay: float = DEFAULT_TRAY_DELAY
    profile: str = DEFAULT_PROFILE.name
    sections: tuple[Section, ...] = ()  # empty: one movement, as the columns above say
    scope: str = "section"  # of several sections: "section" or "field" (SCOPES)
    pairings: Pairings = ()  # a Swiss: the rounds paired so far (server/scoring/swiss.py)
    vugraph: str = "released"  # the public vugraph (VUGRAPH_MODES)
    dealing: str = "server"  # who deals the boards (DEALINGS)

    @property
    def dealt_at_table(self) -> bool:
        return self.dealing == "table"

    @property
    def kind(self) -> MovementKind:
        """What the session's movement is (server/setup/movements.py KINDS)."""
        return KINDS[self.movement]

    @functools.cached_property
    def plan(self) -> Movement:
        """The movement, made once a Session (a thousand tables' names ask it a thousand
        times; its lru_cache alone would hash every section each time)."""
        if self.sections:
            return _sectioned(self.sections)
        return _movement(self.movement, self.participants, self.boards_per_round, self.rounds,
                         self.first_board, self.pairings if self.kind.paired else ())

    def _place(self, table: int) -> tuple[Section, int] | None:
        """The table's section and its number there, in a session of several sections."""
        plan = self.plan
        if not isinstance(plan, Sectioned):
            return None
        try:
            return plan.section_of_table(table)
        except MovementError:
            return None

    def table_label(self, table: int) -> str:
        """The table's name in the room: "B3" in a session of sections, else its number."""
        place = self._place(table)
        return str(table) if place is None else table_name(place[0].letter, place[1])

    def table_in_section(self, table: int) -> int:
        """The table's number within its section (B3 is 3); the number itself otherwise."""
        place = self._place(table)
        return table if place is None else place[1]

    def section_of_table(self, table: int) -> str:
        """The letter of the table's section ("A" when the session has one)."""
        place = self._place(table)
        if place is not None:
            return place[0].letter
        return self.sections[0].letter if self.sections else "A"


@functools.lru_cache(maxsize=32)
def _movement(kind: str, participants: int, boards_per_round: int, rounds: int,
              first_board: int, pairings: Pairings) -> Movement:
    return movement(kind, participants, boards_per_round, rounds, first_board, pairings)


@functools.lru_cache(maxsize=32)
def _sectioned(sections: tuple[Section, ...]) -> Movement:
    return sectioned(sections)


def _pairings(conn: Connection, session_id: int) -> Pairings:
    """A Swiss's matches of each round paired so far, byes left out (the away team 0)."""
    rows = conn.execute(select(s.swiss_matches).where(
        s.swiss_matches.c.session_id == session_id, s.swiss_matches.c.away != PHANTOM)
        .order_by(s.swiss_matches.c.round, s.swiss_matches.c.match)).all()
    rounds: dict[int, list[tuple[int, int]]] = {}
    for row in rows:
        rounds.setdefault(row.round, []).append((row.home, row.away))
    return tuple(tuple(rounds[number]) for number in sorted(rounds))


def current(db: Database, event: str) -> Session | None:
    with db.read() as conn:
        row = conn.execute(select(s.sessions).where(s.sessions.c.event == event)).first()
        if row is None:
            return None
        parts = conn.execute(select(s.sections).where(
            s.sections.c.session_id == row.id).order_by(s.sections.c.position)).all()
        pairings = _pairings(conn, row.id) if KINDS[row.movement].paired else ()
    sections = tuple(Section(p.letter, p.movement, p.pairs, p.boards_per_round, p.rounds,
                             p.first_board,
                             tuple(int(r) for r in p.arrow_rounds.split(",") if r))
                     for p in parts)
    return Session(row.id, row.event, row.title, row.movement, Scoring(row.scoring), row.tables,
                   row.rounds, row.boards_per_round, row.first_board, row.participants,
                   row.current_round, row.screens, row.tray_delay, row.profile, sections,
                   row.scope, pairings, row.vugraph, row.dealing)


def check_vugraph(mode: str, movement: str) -> str:
    """``mode`` if the public vugraph may show a session of ``movement`` that way. Live only
    for a single match (a teams match of two tables), and only by the director's choice: an
    audience away from the tables may follow a board while the other table has it still to
    play. In a field, a board on the screen would be one that other tables have to play."""
    if mode not in VUGRAPH_MODES:
        raise SessionError(f"vugraph {mode!r}: one of {', '.join(VUGRAPH_MODES)}")
    kind = KINDS.get(movement)
    if mode == "live" and (kind is None or not kind.live_vugraph):
        raise SessionError("the public vugraph shows the tables live only for a single match "
                           "(a teams match of two tables): in a field, a board on the screen "
                           "would be one that another table still has to play")
    return mode


def conduct_of(screens: str | None, tray_delay: float, profile: str) -> dict[str, Any]:
    """The ``conduct`` of an assignment without the cards (tablemodel.state.Conduct), checked
    as the table checks it: a bad value is a :class:`SessionError`."""
    if profile not in PROFILES:
        raise SessionError(f"unknown alert profile {profile!r}; one of {', '.join(PROFILES)}")
    conduct: dict[str, Any] = {"profile": profile}
    if screens is not None:
        if screens not in SCREENS:
            raise SessionError(f"screens {screens!r}: one of {', '.join(SCREENS)}, or none")
        try:
            delay = float(tray_delay)
            Screens(SCREENS[screens], delay)
        except (TypeError, ValueError) as error:
            raise SessionError(str(error)) from None
        conduct["screens"] = {"north_with": str(SCREENS[screens]), "tray_delay": delay}
    elif not 0 <= float(tray_delay) <= 120:
        raise SessionError("the tray delay is 0 to 120 seconds")
    return conduct


def dealt(seed: int, board: int) -> str:
    """A deal made here: the same seed and board always give the same hands."""
    deck = [Card.from_str(f"{suit}{rank}") for suit in "SHDC" for rank in "AKQJT98765432"]
    random.Random(f"{seed}:{board}").shuffle(deck)
    hands = " ".join(hand_to_pbn(deck[i * 13:(i + 1) * 13]) for i in range(4))
    return Deal.from_pbn(f"N:{hands}").to_pbn()


def import_deals(db: Database, session: Session, pbn: str | bytes) -> int:
    """The hand records of a PBN file: one deal per board number the movement uses."""
    if session.dealt_at_table:
        raise SessionError("this session's boards are dealt at the table: its hand records "
                           "are the deals the tables capture")
    deals = read_deals(pbn, session.plan.boards())
    with db.write() as conn:
        store_deals(conn, session.id, deals)
    return len(deals)


def read_deals(pbn: str | bytes, boards: Iterable[int] | None) -> dict[int, str]:
    """Each of ``boards``' deal in a PBN file (None: every board's); a ``SessionError`` that
    says what is wrong with the file (the line and the reason) when it gives none of them:
    the console checks the file this way before it makes a session, so a file that is not
    one of deals makes none."""
    if isinstance(pbn, bytes):
        nul = pbn.find(b"\0")
        if nul >= 0:
            raise SessionError(f"not a PBN file: byte {nul + 1} is a NUL, so "
                               "it is not text (a PBN file is text with tags such as "
                               "[Board \"1\"] and [Deal \"N:...\"])")
        try:
            text = pbn.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = pbn.decode("latin-1")  # PBN 2.1 is ISO 8859-1
    else:
        text = pbn
    try:
        records = load_pbn(text)
    except (RecordError, RulesError) as error:
        raise SessionError(f"not a PBN file: {error}") from None
    if not records:
        first = next(((n, line.strip()) for n, line in enumerate(text.splitlines(), 1)
                      if line.strip()), None)
        said = "it is empty" if first is None else (
            f"line {first[0]} reads {first[1][:60]!r}")
        raise SessionError("not a PBN file: it has no game (a game is tags such as "
                           f"[Board \"1\"] and [Deal \"N:...\"]); {said}")
    wanted = sorted({r.board for r in records if r.board is not None} if boards is None
                    else set(boards))
    deals = {r.board: r.deal.to_pbn() for r in records
             if r.board in wanted and r.deal is not None}
    if deals:
        return deals
    for record in records:  # the first game of this session's that could not be read
        if record.board in wanted and record.problems:
            line = f"line {record.raw_lines[0]}: " if record.raw_lines else ""
            raise SessionError(f"{line}board {record.board}: {record.problems[0]}")
    found = sorted({r.board for r in records if r.board is not None})
    if not found:
        raise SessionError(f"none of the file's {len(records)} games has a [Board] tag")
    raise SessionError(f"the file's games are boards {_span(found)}; this session plays "
                       f"boards {_span(wanted)}")


def _span(numbers: list[int]) -> str:
    """"1-24", or "1-12, 25-36" when there are holes (at most three stretches shown)."""
    stretches: list[list[int]] = []
    for n in numbers:
        if stretches and n == stretches[-1][1] + 1:
            stretches[-1][1] = n
        else:
            stretches.append([n, n])
    text = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in stretches[:3])
    return text + (", ..." if len(stretches) > 3 else "")


def store_deals(conn: Connection, session_id: int, deals: Mapping[int, str]) -> None:
    for pbn in deals.values():
        Deal.from_pbn(pbn)  # validates: 52 different cards, 13 each
    conn.execute(delete(s.deals).where(s.deals.c.session_id == session_id,
                                       s.deals.c.board.in_(list(deals))))
    conn.execute(insert(s.deals), [{"session_id": session_id, "board": b, "pbn": p}
                                   for b, p in sorted(deals.items())])


def capture_deal(conn: Connection, event: str, board: int, pbn: str, table: int,
                 at: float) -> tuple[Seat, ...] | None:
    """A deal a table scanned, for a session whose boards are dealt at the table: kept as
    the board's hand record if it is the first (what the later tables are checked against,
    Law 87). The seats whose hands differ from the deal kept before (empty: captured now,
    or the same hands), or None when the session's boards are not dealt at the table."""
    row = conn.execute(select(s.sessions.c.id, s.sessions.c.dealing).where(
        s.sessions.c.event == event)).first()
    if row is None or row.dealing != "table":
        return None
    stored = conn.execute(select(s.deals.c.pbn).where(
        s.deals.c.session_id == row.id, s.deals.c.board == board)).scalar()
    if stored is not None:
        first, now = Deal.from_pbn(stored), Deal.from_pbn(pbn)
        return tuple(seat for seat in Seat if first[seat] != now[seat])
    conn.execute(insert(s.deals).values(session_id=row.id, board=board, pbn=pbn,
                                        captured_table=table, captured_at=at))
    return ()


def deals_of(db: Database, session: Session) -> dict[int, str]:
    with db.read() as conn:
        rows = conn.execute(select(s.deals.c.board, s.deals.c.pbn).where(
            s.deals.c.session_id == session.id)).all()
    return {row.board: row.pbn for row in rows}


def stored_analysis(db: Database, session: Session,
                    board: int) -> tuple[str | None, str | None]:
    """The board's double-dummy analysis as stored (JSON text), and why it failed if it did."""
    with db.read() as conn:
        row = conn.execute(select(s.deals.c.analysis, s.deals.c.analysis_error).where(
            s.deals.c.session_id == session.id, s.deals.c.board == board)).first()
    return (None, None) if row is None else (row.analysis, row.analysis_error)


def board_conditions(session: Session, board: int) -> tuple[Seat, Vulnerability]:
    """Who deals and who is vulnerable on ``board``: the cycle of 16 (Law 2), except in the
    seed 004 individual, where each partida's four deals go South, West, North, East with
    none, East-West, North-South, all vulnerable."""
    if session.kind.partidas:
        for seating in session.plan.seatings:
            if board in seating.boards:
                index = seating.boards.index(board) + 1
                return club_dealer(index), club_vulnerability(index)
    facts = Board(board)
    return facts.dealer, facts.vulnerability


def participants_of(db: Database, session: Session) -> dict[int, Any]:
    with db.read() as conn:
        rows = conn.execute(select(s.participants).where(
            s.participants.c.session_id == session.id).order_by(
            s.participants.c.number)).all()
    return {row.number: row for row in rows}


def set_names(db: Database, session: Session, names: Mapping[int, str]) -> None:
    with db.write() as conn:
        for number, text in names.items():
            conn.execute(update(s.participants).where(
                s.participants.c.session_id == session.id,
                s.participants.c.number == number).values(names=text[:200]))
