"""The player register (issue 17): the club's members and its visitors, by player number.

The director imports the members from a CSV file (number, name, federation licence) as
clubs keep them: UTF-8 with or without a byte-order mark, or Windows-1252 as a Spanish Excel
saves it; ``,`` or ``;`` between the fields; a header row in Spanish or English, or none. A
file with any bad row is refused whole, each bad row named by its line, and nothing is
stored. An import adds new numbers and updates the names and licences of those it names; a
member it does not name stays.

A session copies the register when it is created (``snapshot``): its tables check numbers
against that copy, and its pages and exports show those names, whatever the register
becomes later. A visitor added while a session runs goes into the register and the running
session, and a ``roster`` command tells each of the session's tables (docs/mqtt.md).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import time
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from laws import Seat
from server.errors import Refused
from server.setup.movements import KINDS, Plays
from server.setup.session import Session
from server.storage import schema as s
from server.storage.db import Database
from server.texts import (
    player_register_texts as register_texts,  # noqa: F401 (registers the texts of its errors)
)
from server.texts.i18n import PAGES
from tablemodel.wire import MAX_NAME, MAX_PLAYER, MAX_ROSTER, Command, Event, Player, WireError

MAX_FILE = 2 * 1024 * 1024
"""Bytes: a register file bigger than this is not a club's list of members."""
MAX_NAME_STORED = 80
MAX_LICENCE = 20
MAX_ROSTER_BYTES = 40 * 1024
"""The roster's share of an assignment's 64 KB (tablemodel.wire.MAX_PAYLOAD); the deals, the
system cards and the rest have the other 24 KB."""
MAX_ERRORS = 20
"""Bad rows named in one refusal; the rest are counted."""
_NUMBER = re.compile(r"[0-9]{1,9}")

#: Header words, in Spanish and English, compared without accents or case.
HEADERS: dict[str, frozenset[str]] = {
    "number": frozenset({"number", "no", "n", "num", "nr", "member", "member number",
                         "player number", "numero", "n socio", "socio", "numero de socio",
                         "numero socio", "numero de jugador", "id"}),
    "name": frozenset({"name", "full name", "player", "player name", "nombre", "jugador",
                       "nombre y apellidos", "apellidos y nombre", "apellidos, nombre",
                       "nombre completo"}),
    "licence": frozenset({"licence", "license", "federation licence", "federation license",
                          "licence number", "license number", "licencia", "licencia federativa",
                          "n licencia", "numero de licencia", "federativa", "lic"}),
    # Surnames in a column of their own (a federation's list often has them apart): the
    # name is then the given name and the surnames, "María" + "García Peña".
    "surnames": frozenset({"apellidos", "apellido", "surname", "surnames", "last name",
                           "family name"}),
}
COLUMNS = ("number", "name", "licence")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file or an entry: a text of
    server/texts/player_register_texts.py with its fields, and the file's line it is on."""

    key: str
    args: Mapping[str, Any]
    line: int | None = None

    def text(self, language: str) -> str:
        said = PAGES.text(self.key, language, **self.args)
        if self.line is None:
            return said
        return PAGES.text("register_err_line", language, line=self.line, problem=said)


class RegisterError(Refused):
    """A file or an entry the register refuses; ``text(language)`` says what and where in
    the console's language, ``str()`` in English."""

    def __init__(self, key: str, /, **args: Any) -> None:
        self.problems = [Problem(key, args)]
        self.whole_file = False
        super().__init__(key)

    @classmethod
    def of_file(cls, problems: list[Problem]) -> RegisterError:
        """A file refused: every bad row (the first ``MAX_ERRORS`` named), nothing stored."""
        error = cls("register_err_refused")
        error.problems, error.whole_file = problems, True
        return error

    def text(self, language: str) -> str:
        parts = [problem.text(language) for problem in self.problems[:MAX_ERRORS]]
        if len(self.problems) > MAX_ERRORS:
            parts.append(PAGES.text("register_err_more", language,
                                    n=len(self.problems) - MAX_ERRORS))
        if not self.whole_file:
            return "; ".join(parts)
        return PAGES.text("register_err_refused", language, problems="; ".join(parts))

    def __str__(self) -> str:
        return self.text("en")


@dataclass(frozen=True)
class Member:
    number: int
    name: str
    licence: str | None = None
    visitor: bool = False


@dataclass(frozen=True)
class Imported:
    added: int
    updated: int
    encoding: str
    delimiter: str
    header: bool


# -- reading a file ---------------------------------------------------------------------------

def decode(data: bytes) -> tuple[str, str]:
    """The file's text and the encoding it was in: UTF-16 with its byte-order mark (Excel's
    "Unicode text", tab-separated), UTF-8 (a byte-order mark is dropped), else Windows-1252,
    which is what Excel writes as CSV for a Spanish Windows."""
    for bom, encoding in ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            try:
                return data[2:].decode(encoding), "utf-16"
            except UnicodeDecodeError as error:
                raise RegisterError("register_err_bom", at=error.start + 2) from None
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as error:
            raise RegisterError("register_err_bom", at=error.start + 3) from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError as error:
        raise RegisterError("register_err_encoding", at=error.start) from None


def _folded(text: str) -> str:
    """A header cell as it is compared: no accents, no case, no º or dots, one space."""
    plain = re.sub(r"[º°ª.#:_\-]", " ", text.lower())  # before NFKD makes º an o
    plain = "".join(c for c in unicodedata.normalize("NFKD", plain)
                    if not unicodedata.combining(c))
    return " ".join(plain.split())


def _delimiter(text: str) -> str:
    """Of tab, ``;`` and ``,``, the one the first line with anything on it has most of (a
    tab: Excel's "Unicode text"); ``,`` when it has none."""
    for line in text.splitlines():
        if line.strip():
            counts = {sep: line.count(sep) for sep in ("\t", ";", ",")}
            best = max(counts, key=lambda sep: (counts[sep], sep == ","))
            return best if counts[best] else ","
    return ","


def _header(cells: list[str]) -> list[str] | None:
    """The columns a header row names, in its order, or None when the row is not a header."""
    found: list[str] = []
    for cell in cells:
        folded = _folded(cell)
        if not folded:
            found.append("")
            continue
        column = next((c for c, words in HEADERS.items() if folded in words), None)
        if column is None or column in found:
            return None
        found.append(column)
    return found if "number" in found and ("name" in found or "surnames" in found) else None


def _clean(text: str) -> str:
    """A name as stored: Unicode composed (an accent is one character), spaces single."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def check_number(text: str) -> int:
    digits = text.strip()
    if not _NUMBER.fullmatch(digits) or not 1 <= int(digits) < MAX_PLAYER:
        raise RegisterError("register_err_number", value=digits[:20])
    return int(digits)


def check_name(text: str) -> str:
    name = _clean(text)
    if not name:
        raise RegisterError("register_err_name_empty")
    if len(name) > MAX_NAME_STORED:
        raise RegisterError("register_err_name_long", n=len(name), limit=MAX_NAME_STORED)
    if any(ch < " " or "\ud800" <= ch <= "\udfff" for ch in name):
        raise RegisterError("register_err_name_control")
    return name


def check_licence(text: str | None) -> str | None:
    licence = _clean(text or "")
    if not licence:
        return None
    if len(licence) > MAX_LICENCE or any(ch < " " for ch in licence):
        raise RegisterError("register_err_licence", value=licence[:30], limit=MAX_LICENCE)
    return licence


def parse_csv(data: bytes) -> tuple[list[Member], Imported]:
    """The members a register file lists, in its order; RegisterError naming every bad row
    (by its line in the file) when any is bad."""
    if len(data) > MAX_FILE:
        raise RegisterError("register_err_big", size=len(data), limit=MAX_FILE)
    text, encoding = decode(data)
    delimiter = _delimiter(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    members: list[Member] = []
    problems: list[Problem] = []
    seen: dict[int, int] = {}
    columns: list[str] = list(COLUMNS)
    header = False
    ended = 0  # the file's line the previous row ended on (a quoted name may hold a break)
    try:
        for cells in reader:
            line, ended = ended + 1, reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if not members and not problems and not header:
                named = _header(cells)
                if named is not None:
                    columns, header = named, True
                    continue
            try:
                member = _row(cells, columns)
            except RegisterError as error:
                if not members and not problems and not header and _looks_like_words(cells):
                    # A first row of words that are not headings this page knows.
                    problems.append(Problem("register_err_header", {}, line))
                    continue
                problems.extend(Problem(p.key, p.args, line) for p in error.problems)
                continue
            if member.number in seen:
                problems.append(Problem("register_err_duplicate",
                                        {"number": member.number, "first": seen[member.number]},
                                        line))
                continue
            seen[member.number] = line
            members.append(member)
    except csv.Error as error:
        problems.append(Problem("register_err_csv", {"detail": str(error)}, reader.line_num))
    if problems:
        raise RegisterError.of_file(problems)
    if not members:
        raise RegisterError("register_err_no_players")
    return members, Imported(0, 0, encoding, delimiter, header)


def _row(cells: list[str], columns: list[str]) -> Member:
    values: dict[str, str] = {}
    for at, cell in enumerate(cells):
        column = columns[at] if at < len(columns) else ""
        if column:
            values[column] = cell
        elif cell.strip():
            raise RegisterError("register_err_fields", n=len(cells),
                                expected=sum(1 for c in columns if c))
    if not values.get("number", "").strip():
        raise RegisterError("register_err_no_number")
    name = " ".join(part for part in (values.get("name", ""), values.get("surnames", ""))
                    if part.strip())
    return Member(check_number(values["number"]), check_name(name),
                  check_licence(values.get("licence")))


def _looks_like_words(cells: list[str]) -> bool:
    """A row whose first field (the number's, with no header) is a word: meant as headings."""
    first = cells[0].strip() if cells else ""
    return bool(first) and not any(ch.isdigit() for ch in first)


# -- the register -----------------------------------------------------------------------------

def import_csv(db: Database, data: bytes, *, by: str | None = None,
               clock: Any = time.time) -> Imported:
    """Store the file's members in one transaction: all of them, or (RegisterError) none."""
    members, read = parse_csv(data)
    added = updated = 0
    with db.write() as conn:
        known = {row.number for row in conn.execute(select(s.members.c.number))}
        now = clock()
        for member in members:
            values = {"name": member.name, "licence": member.licence, "visitor": False}
            if member.number in known:
                conn.execute(update(s.members).where(
                    s.members.c.number == member.number).values(**values))
                updated += 1
            else:
                conn.execute(insert(s.members).values(number=member.number, added_at=now,
                                                      added_by=by, **values))
                added += 1
        _check_fits(conn)
    return Imported(added, updated, read.encoding, read.delimiter, read.header)


def members(db: Database) -> list[Member]:
    with db.read() as conn:
        rows = conn.execute(select(s.members).order_by(s.members.c.number)).all()
    return [Member(row.number, row.name, row.licence, bool(row.visitor)) for row in rows]


def member(db: Database, number: int) -> Member | None:
    with db.read() as conn:
        row = conn.execute(select(s.members).where(s.members.c.number == number)).first()
    return None if row is None else Member(row.number, row.name, row.licence, bool(row.visitor))


def edit(db: Database, number: int, name: str, licence: str | None) -> Member:
    """Change a player's name or licence in the register. Sessions already created keep
    their copy (the snapshot rule)."""
    changed = Member(number, check_name(name), check_licence(licence))
    with db.write() as conn:
        done = conn.execute(update(s.members).where(s.members.c.number == number).values(
            name=changed.name, licence=changed.licence))
        if done.rowcount != 1:
            raise RegisterError("register_err_unknown", number=number)
    return changed


def remove(db: Database, number: int) -> None:
    """Take a player out of the register (sessions keep their copy)."""
    with db.write() as conn:
        if conn.execute(delete(s.members).where(s.members.c.number == number)).rowcount != 1:
            raise RegisterError("register_err_unknown", number=number)


def add_visitor(db: Database, number: int, name: str, licence: str | None = None, *,
                session: Session | None = None, by: str | None = None,
                clock: Any = time.time) -> list[str]:
    """A visitor into the register and, when a session with a register runs, into its copy,
    with a ``roster`` command queued for each of its tables; the command ids."""
    visitor = Member(number, check_name(name), check_licence(licence), visitor=True)
    if not 1 <= number < MAX_PLAYER:
        raise RegisterError("register_err_number", value=str(number))
    queued: list[str] = []
    with db.write() as conn:
        found = conn.execute(select(s.members.c.name).where(
            s.members.c.number == number)).scalar()
        if found is not None:
            raise RegisterError("register_err_exists", number=number, name=found)
        if session is not None and conn.execute(select(s.session_players.c.name).where(
                s.session_players.c.session_id == session.id,
                s.session_players.c.number == number)).first():
            raise RegisterError("register_err_in_session", number=number)
        conn.execute(insert(s.members).values(
            number=number, name=visitor.name, licence=visitor.licence, visitor=True,
            added_at=clock(), added_by=by))
        _check_fits(conn)
        if session is not None and not _session_members(conn, session.id):
            # A session created with no register takes any number: it stays so (a roster of
            # one visitor would turn every other player away).
            session = None
        if session is not None:
            conn.execute(insert(s.session_players).values(
                session_id=session.id, number=number, name=visitor.name,
                licence=visitor.licence, visitor=True))
            queued = _queue_roster(conn, session, {number: visitor.name}, by, clock())
    return queued


def _check_fits(conn: Connection) -> None:
    """The register as the assignments will carry it fits the wire (tablemodel.wire): refused
    here, with the reason, rather than when the director starts a round."""
    names = {row.number: row.name for row in conn.execute(
        select(s.members.c.number, s.members.c.name))}
    if len(names) > MAX_ROSTER:
        raise RegisterError("register_err_too_many", n=len(names), limit=MAX_ROSTER)
    size = len(json.dumps(wire_names(names), ensure_ascii=False,
                          separators=(",", ":")).encode())
    if size > MAX_ROSTER_BYTES:
        raise RegisterError("register_err_too_big", size=size, limit=MAX_ROSTER_BYTES)


def _queue_roster(conn: Connection, session: Session, players: Mapping[int, str],
                  by: str | None, now: float) -> list[str]:
    """One ``roster`` command per table of the session. Its id is fixed by the event, the
    table and what it adds, so sending it again changes nothing at a table."""
    data = {"players": wire_names(players)}
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:10]
    queued = []
    for table in range(1, session.tables + 1):
        ident = f"roster-{session.event}-t{table}-{digest}"
        queued.append(ident)
        if conn.execute(select(s.commands.c.id).where(s.commands.c.id == ident)).first():
            continue
        try:
            Command.from_payload(Command(ident, "roster", data).to_payload())
        except WireError as error:
            raise RegisterError("register_err_roster", detail=str(error)) from None
        conn.execute(insert(s.commands).values(
            id=ident, event=session.event, table_no=table, type="roster",
            data=json.dumps(data), created_at=now, created_by=by))
    return queued


# -- a session's copy -------------------------------------------------------------------------

def snapshot(conn: Connection, session_id: int) -> int:
    """Copy the register into a new session (inside the transaction creating it); how many
    players the session has."""
    rows = conn.execute(select(s.members)).all()
    if rows:
        conn.execute(insert(s.session_players), [
            {"session_id": session_id, "number": row.number, "name": row.name,
             "licence": row.licence, "visitor": row.visitor} for row in rows])
    return len(rows)


def session_members(db: Database, session: Session) -> dict[int, Member]:
    """The session's players, by number (empty: the session has no register)."""
    with db.read() as conn:
        return _session_members(conn, session.id)


def _session_members(conn: Connection, session_id: int) -> dict[int, Member]:
    rows = conn.execute(select(s.session_players).where(
        s.session_players.c.session_id == session_id).order_by(
        s.session_players.c.number)).all()
    return {row.number: Member(row.number, row.name, row.licence, bool(row.visitor))
            for row in rows}


def wire_names(players: Mapping[int, str]) -> dict[str, str]:
    """A roster as the wire carries it: numbers as text, names cut to what it allows."""
    return {str(number): name[:MAX_NAME].rstrip() for number, name in players.items()}


def roster(conn: Connection, session_id: int) -> dict[str, str] | None:
    """The ``roster`` of a session's assignments, or None when the session has no register
    (its tables then take any number, as before)."""
    found = _session_members(conn, session_id)
    if not found:
        return None
    return wire_names({number: m.name for number, m in found.items()})


# -- who sat where ----------------------------------------------------------------------------

Seats = dict[Seat, int | None]


def seated(db: Database, event: str, table: int | None = None, *,
           tables: Collection[int] | None = None
           ) -> tuple[dict[int, Seats], dict[tuple[int, int], Seats]]:
    """The numbers the players typed, from the tables' stored events: each table's seats
    now, and each (table, board)'s seats when the board was played. An assignment starts a
    round with nobody seated. Of ``table`` alone, or of ``tables`` (a page of the console's
    grid: a field of thousands of tables is not read whole for it), when given."""
    query = select(s.events.c.table_no, s.events.c.type, s.events.c.board,
                   s.events.c.data).where(s.events.c.event == event,
                                          s.events.c.type.in_(("assign", "player", "board")))
    if table is not None:
        query = query.where(s.events.c.table_no == table)
    if tables is not None:
        query = query.where(s.events.c.table_no.in_(sorted(tables)))
    with db.read() as conn:
        rows = conn.execute(query.order_by(s.events.c.table_no, s.events.c.seq)).all()
    now: dict[int, Seats] = {}
    boards: dict[tuple[int, int], Seats] = {}
    for row in rows:
        seats = now.setdefault(row.table_no, {})
        if row.type == "assign":
            seats.clear()
        elif row.type == "player":
            sat = Event.from_row(0, row.type, 0.0, row.board, row.data).value(Player)
            seats[sat.seat] = sat.number
        elif row.board is not None:
            boards[(row.table_no, row.board)] = dict(seats)
    return now, boards


def names_at(seats: Seats, players: Mapping[int, Member]) -> dict[Seat, str]:
    """Each seat's name (the register's), else its number, else nothing."""
    named: dict[Seat, str] = {}
    for seat in Seat:
        number = seats.get(seat)
        if number is not None:
            found = players.get(number)
            named[seat] = found.name if found is not None else str(number)
    return named


def iter_unknown(seats: Mapping[int, Seats], players: Mapping[int, Member]
                 ) -> Iterable[tuple[int, Seat, int]]:
    """Numbers seated that the session's register does not have (a table without the
    roster, an old session): for the director's eye."""
    for table, at in sorted(seats.items()):
        for seat, number in at.items():
            if number is not None and players and number not in players:
                yield table, seat, number


PAIR_MOVEMENTS = tuple(name for name, kind in KINDS.items() if kind.plays is Plays.PAIRS)
"""Where the two players of a side are a participant: a team has more, and the individual's
participants are its players."""


# -- the club's identity (issue 31) --------------------------------------------------------------

@dataclass(frozen=True)
class Club:
    """The club as its federation knows it: its name and club number (USEBIO's CLUB)."""

    name: str
    number: str


MAX_CLUB_NAME = 120
MAX_CLUB_NUMBER = 40


def club(db: Database) -> Club | None:
    """The club's identity, set once for every session's exports; None until it is set."""
    with db.read() as conn:
        row = conn.execute(select(s.club.c.name, s.club.c.number).where(
            s.club.c.id == 1)).first()
    return None if row is None else Club(row.name, row.number)


def set_club(db: Database, name: str, number: str, *, by: str | None = None,
             clock: Any = time.time) -> Club:
    """Set (or change) the club's name and federation club number; both are required."""
    name, number = " ".join(name.split()), number.strip()
    if not name or len(name) > MAX_CLUB_NAME:
        raise ValueError(f"the club's name is 1 to {MAX_CLUB_NAME} characters")
    if not number or len(number) > MAX_CLUB_NUMBER or not number.isprintable():
        raise ValueError(f"the federation's club number is 1 to {MAX_CLUB_NUMBER} characters")
    with db.write() as conn:
        values = {"name": name, "number": number, "changed_at": clock(), "changed_by": by}
        if conn.execute(select(s.club.c.id).where(s.club.c.id == 1)).first() is None:
            conn.execute(insert(s.club).values(id=1, **values))
        else:
            conn.execute(update(s.club).where(s.club.c.id == 1).values(**values))
    return Club(name, number)
