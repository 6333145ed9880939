"""Setting a session up and starting its rounds: what the server writes, and what it sends
the tables.

Setting a session up (``create_session``) stores the participants the movement numbers, the
session's copy of the player register and the hand records (imported from PBN or dealt here,
seeded so a deal can be made again); starting a round (``start_round``) queues one ``assign``
command per table in the ``commands`` outbox, which the bus publishes. The command ids are
fixed by event, round and table, so sending a round twice changes nothing at a table (it
answers the same id once). The session itself, as a value, and what reads it are
server/setup/session.py; this module stands above it, beside the round clock, the register and the
Swiss pairing that starting a round needs.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, insert, select, update

from server.link import round_times as roundclock
from server.scoring import swiss
from server.setup import player_register as register
from server.setup.movements import (
    KINDS,
    PHANTOM,
    SECTIONS,
    MovementError,
    Plays,
    Seating,
    Section,
    movement,
    pair_number,
    sectioned,
)
from server.setup.scorings import Scoring
from server.setup.session import (
    ALLOWED_SCORING,
    DEALINGS,
    DEFAULT_SCORING,
    MOVEMENTS,
    SCOPES,
    SCORINGS,
    Session,
    SessionError,
    board_conditions,
    check_vugraph,
    conduct_of,
    current,
    deals_of,
    dealt,
    participants_of,
    store_deals,
)
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.regulation import DEFAULT_PROFILE, DEFAULT_TRAY_DELAY
from tablemodel.roundclock import RoundClock
from tablemodel.wire import Command, WireError


def create_session(db: Database, *, event: str, title: str, kind: str, participants: int,
                   boards_per_round: int, rounds: int | None = None, scoring: str | None = None,
                   first_board: int = 1, names: Mapping[int, str] | None = None,
                   deals: Mapping[int, str] | None = None, seed: int | None = None,
                   screens: str | None = None, tray_delay: float = DEFAULT_TRAY_DELAY,
                   profile: str = DEFAULT_PROFILE.name, round_minutes: int | None = None,
                   warning_minutes: int = 0, sections: Sequence[Section] | None = None,
                   arrow_rounds: Sequence[int] = (), scope: str = "section",
                   vugraph: str = "released", dealing: str = "server",
                   clock: Any = time.time) -> Session:
    """Store a new session for ``event`` (replacing none: one event, one session).

    ``screens`` ("NE-SW", "NW-SE" or None), ``tray_delay`` (seconds the tray stays on a side
    at least) and ``profile`` (the alert norms, tablemodel.regulation.PROFILES) say how every
    table of the session is conducted; each round's assignment carries them.

    ``sections``: several sections, each its own Mitchell or Howell (then ``kind``,
    ``participants``, ``boards_per_round``, ``rounds`` and ``first_board`` are theirs, and
    ``scope`` says whether a board is compared within its section or across the field).
    ``arrow_rounds``: the rounds a one-section Mitchell plays with the arrow switched.
    ``vugraph``: what the public vugraph shows (VUGRAPH_MODES). The new session is the one
    the server runs from now on (server/setup/running.py). ``dealing``: "table" when the boards
    are shuffled and dealt at the table (DEALINGS): no deals are stored or made then, the
    first table to play each board captures it."""
    conduct_of(screens, tray_delay, profile)  # refuses what the tables would refuse
    roundclock.check(round_minutes, warning_minutes)
    if scope not in SCOPES:
        raise SessionError(f"scope {scope!r}: one of {', '.join(SCOPES)}")
    if arrow_rounds and not sections:
        sections = [Section("A", kind, participants, boards_per_round, rounds, first_board,
                            tuple(arrow_rounds))]
    parts = tuple(sections or ())
    if parts:
        kind = SECTIONS if len(parts) > 1 else parts[0].kind
        participants = sum(section.pairs for section in parts)
        first_board = min(section.first_board for section in parts)
    if kind not in KINDS or (kind == SECTIONS and not parts):
        raise SessionError(f"unknown movement {kind!r}; one of {', '.join(MOVEMENTS)}")
    check_vugraph(vugraph, kind)
    if dealing not in DEALINGS:
        raise SessionError(f"dealing {dealing!r}: one of {', '.join(DEALINGS)}")
    if dealing == "table" and (deals or seed is not None):
        raise SessionError("boards dealt at the table have no hand records before play: "
                           "no PBN file or seed with them")
    chosen = scoring or DEFAULT_SCORING[kind]
    if chosen not in SCORINGS:
        raise SessionError(f"unknown scoring {chosen!r}; one of {', '.join(SCORINGS)}")
    scoring = Scoring(chosen)
    if scoring not in ALLOWED_SCORING[kind]:
        raise SessionError(f"a {kind} session is scored with "
                           f"{' or '.join(ALLOWED_SCORING[kind])}, not {scoring}")
    try:
        plan = (sectioned(parts) if parts else
                movement(kind, participants, boards_per_round, rounds, first_board))
    except MovementError as error:
        raise SessionError(str(error)) from None
    with db.write() as conn:
        if conn.execute(select(s.sessions.c.id).where(s.sessions.c.event == event)).first():
            raise SessionError(f"event {event!r} already has a session")
        session_id = conn.execute(insert(s.sessions).returning(s.sessions.c.id).values(
            event=event, title=title, movement=kind, scoring=scoring, tables=plan.tables,
            rounds=plan.rounds, boards_per_round=plan.boards_per_round,
            first_board=first_board, participants=participants, current_round=0,
            created_at=clock(), screens=screens, tray_delay=float(tray_delay),
            profile=profile, round_minutes=round_minutes,
            warning_minutes=warning_minutes, scope=scope, selected_at=clock(),
            vugraph=vugraph, dealing=dealing)).scalar_one()
        if parts:
            conn.execute(insert(s.sections), [
                {"session_id": session_id, "position": position, "letter": section.letter,
                 "movement": section.kind, "pairs": section.pairs,
                 "boards_per_round": section.boards_per_round,
                 "rounds": section.plan().rounds, "first_board": section.first_board,
                 "arrow_rounds": ",".join(map(str, section.arrow_rounds))}
                for position, section in enumerate(parts)])
        conn.execute(insert(s.participants), [
            {"session_id": session_id, "number": p.number, "label": p.label, "grp": p.group,
             "names": (names or {}).get(p.number, ""), "phantom": p.phantom}
            for p in plan.participants])
        register.snapshot(conn, session_id)  # the session's own copy of the player register
        boards = plan.boards()
        if deals is None and seed is not None:
            deals = {board: dealt(seed, board) for board in boards}
        if deals:
            store_deals(conn, session_id, {b: d for b, d in deals.items() if b in boards})
    found = current(db, event)
    assert found is not None
    return found


def assignment(session: Session, seating: Seating, deals: Mapping[int, str],
               cards: Mapping[int, Mapping[str, Any]] | None = None,
               clock: RoundClock | None = None,
               labels: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The ``assign`` command's data for one table (docs/mqtt.md). ``cards``: the session's
    system cards by participant (``stored_cards``); the NS pair's goes under "NS", the
    EW pair's under "EW". The individual has no fixed pairs, so it sends none. ``clock``:
    the round's end and warning (server/link/round_times.py), when the round has a length.
    ``labels``: the participants' labels ("A4 EW"), so the seat displays name the pairs as
    the pages do."""
    data: dict[str, Any] = {"round": seating.round, "ns": seating.ns, "ew": seating.ew,
                            "boards": list(seating.boards)}
    if session.sections:
        data["section"] = session.section_of_table(seating.table)
        data["label"] = session.table_label(seating.table)
    if seating.switched:
        data["switch"] = True  # the arrow-switch: the pair numbered EW sits North-South
    conduct = conduct_of(session.screens, session.tray_delay, session.profile)
    if session.kind.plays is not Plays.PLAYERS and cards:
        sides = {side: cards[number] for side, number in (("NS", seating.ns),
                                                          ("EW", seating.ew))
                 if number in cards}
        if sides:
            conduct["cards"] = sides
    data["conduct"] = conduct
    if session.kind.partidas:
        data["conditions"] = {
            str(b): dict(zip(("dealer", "vul"), map(str, board_conditions(session, b)),
                             strict=True)) for b in seating.boards}
    known = {str(b): deals[b] for b in seating.boards if b in deals}
    if known:
        data["deals"] = known
    if session.dealt_at_table:
        # Law 6: the boards are dealt at the table; those the first table captured come in
        # ``deals`` above, for this table's scans to be checked against (Law 87).
        data["dealing"] = "table"
    if clock is not None:
        data["clock"] = {"ends_at": clock.ends_at, "warning": clock.warning}
    # A Swiss's next opponents are known only once the round is over: no guidance.
    if seating.round < session.rounds and not session.kind.paired:
        # Each part's next table as the room calls it ("B3"), as the pages and cards do.
        data["next"] = {part: None if table is None else session.table_label(table)
                        for part, table in (("ns", seating.next_ns), ("ew", seating.next_ew),
                                            ("boards", seating.next_boards))}
    if session.kind.plays is Plays.PAIRS and labels:
        # The pairs as the pages name them: a Mitchell's EW pair 9 is "1 EW", "A4 EW".
        data["names"] = {side: pair_number(labels[number]) for side, number
                         in (("ns", seating.ns), ("ew", seating.ew)) if number in labels}
    return data


def start_round(db: Database, session: Session, number: int, *, by: str | None = None,
                clock: Any = time.time, hand: str | None = None) -> list[str]:
    """Queue the round's assignment for every table that plays in it; the command ids.
    The round's clock starts now, when the director set a length (server/link/round_times.py).
    ``hand``: a Swiss round's pairing as the director typed it (``swiss.by_hand``)."""
    if not 1 <= number <= session.rounds:
        raise SessionError(f"round {number} is not between 1 and {session.rounds}")
    if session.kind.paired:  # a Swiss: paired from the standings as it starts
        session = swiss.paired(db, session, number, by=by, clock=clock, hand=hand)
    elif hand is not None:
        raise SessionError("only a Swiss round is paired by hand")
    round_clock = roundclock.start(db, session, number, clock())
    deals = deals_of(db, session)
    cards = stored_cards(db, session)
    labels = {number: p.label for number, p in participants_of(db, session).items()}
    queued: list[str] = []
    with db.write() as conn:
        roster = register.roster(conn, session.id)  # its players, for the tables to check
        for seating in session.plan.round(number):
            if PHANTOM in (seating.ns, seating.ew) or not seating.boards:
                continue  # a sit-out: the real pair is told by the director, no table plays
            ident = _assign_id(conn, session, number, seating.table)
            queued.append(ident)
            if conn.execute(select(s.commands.c.id).where(s.commands.c.id == ident)).first():
                continue
            data = assignment(session, seating, deals, cards, round_clock, labels)
            if roster is not None:
                data["roster"] = roster
            checked(ident, data)
            conn.execute(insert(s.commands).values(
                id=ident, event=session.event, table_no=seating.table, type="assign",
                data=json.dumps(data), created_at=clock(), created_by=by))
        conn.execute(update(s.sessions).where(s.sessions.c.id == session.id).values(
            current_round=max(session.current_round, number)))
    return queued


def checked(ident: str, data: Mapping[str, Any]) -> None:
    """The assignment as the table will read it: encoded and decoded with tablemodel.wire, so a
    command the table would refuse (over the size limit with two big cards, say) is never
    queued, and the director is told why."""
    try:
        Command.from_payload(Command(ident, "assign", data).to_payload())
    except WireError as error:
        raise SessionError(f"the assignment {ident} cannot be sent: {error}") from None


def stored_cards(db: Database, session: Session) -> dict[int, dict[str, Any]]:
    """The session's system cards, by participant: each as its JSON object."""
    with db.read() as conn:
        rows = conn.execute(select(s.system_cards.c.participant, s.system_cards.c.card).where(
            s.system_cards.c.session_id == session.id)).all()
    return {row.participant: dict(json.loads(row.card)) for row in rows}


def _assign_id(conn: Connection, session: Session, number: int, table: int) -> str:
    """The round's command id for a table: the same each time the round is sent (so a table
    takes it once), but a new one after the table refused it (it was mid-board, say), so the
    director can send the round again once the table is ready."""
    base = f"assign-{session.event}-r{number}-t{table}"
    attempt, ident = 1, base
    while True:
        answer = conn.execute(select(s.commands.c.answer).where(
            s.commands.c.id == ident)).scalar()
        if answer != "refused":
            return ident
        attempt += 1
        ident = f"{base}-{attempt}"
