"""A field larger than one screen, for the pages' layout, the room mode and the accessibility
checks: a Mitchell of 30 pairs (15 tables, 12 rounds, 30 boards, each played 12 times), every
board played and so released, the players named, served by waitress on a loopback port.

The results reach the server through ingest, as the bus hands them over (no broker needed:
these tests look at the pages, not the wire). Contracts, leads and tricks vary from table to
table so that travellers and rankings differ.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask

from laws import Board, Seat, parse_contract
from laws.scoring import score_ns
from server import create_app
from server.link.rounds import create_session
from server.services import Services
from server.setup.movements import PHANTOM
from server.setup.session import Session, set_names
from tablemodel.wire import Event, table_topic
from tests.fixtures.broker import TIMEOUT

EVENT = "field"
DIRECTOR_PASSWORD = "field-director"
CONTRACTS = (("3NT", "N", 9), ("4S", "E", 10), ("2HX", "S", 7), ("5DX", "W", 10),
             ("6CX", "N", 12), ("1NT", "W", 7), ("4HX", "S", 11), ("3SX", "E", 8))
LEADS = ("SK", "HT", "D2", "CA", "SQ", "H9")
FIRST = ("María José", "Juan Carlos", "Ana Isabel", "Francisco Javier", "Pilar", "Íñigo",
         "Begoña", "José Antonio", "Mercedes", "Luis Miguel")
LAST = ("Fernández de la Fuente", "García", "Martínez Echeverría", "López", "Sánchez-Ostiz",
        "Pérez", "Gómez de Segura", "Ruiz", "Olabarrieta", "Díaz")


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


@dataclass
class Field:
    app: Flask
    session: Session
    results: int
    held: list[Callable[[], None]]  # results not sent yet: each call sends one

    def send_held(self) -> None:
        """The next result held back reaches the server, and the hub tells the pages."""
        self.held.pop(0)()
        services(self.app).hub.notify({"results", "tables"})


def build(app: Flask, hold: int = 0) -> Field:
    """The field played, but for the last ``hold`` results (its last board's), whose sending
    ``Field.send_held`` does. Each event is stamped a second after the one before, so the
    boards finish in their numbers' order."""
    db = services(app).db
    session = create_session(db, event=EVENT, title="Campeonato de Euskadi por parejas",
                             kind="mitchell", participants=30, boards_per_round=2, rounds=12,
                             seed=11)
    names = {number: f"{FIRST[number % 10]} {LAST[(number * 3) % 10]} – "
                     f"{FIRST[(number + 4) % 10]} {LAST[(number * 7 + 1) % 10]}"
             for number in range(1, 31)}
    set_names(db, session, names)
    seq: dict[int, int] = defaultdict(int)
    sent = [0]

    def send(table: int, kind: str, board: int | None, data: dict[str, Any]) -> None:
        seq[table] += 1
        sent[0] += 1
        event = Event(seq[table], kind, 1_800_000_000.0 + sent[0], board, data)
        outcome = services(app).ingest(table_topic(EVENT, table, "events"), event.to_payload())
        assert outcome.rejected is None, outcome.rejected

    plays = [(board, n, seat) for board in session.plan.boards()
             for n, seat in enumerate(s for s in session.plan.schedule(board)
                                      if PHANTOM not in (s.ns, s.ew))]
    assigned: set[tuple[int, int]] = set()
    held: list[Callable[[], None]] = []
    for at, (board, n, seat) in enumerate(plays):
        if (seat.table, seat.round) not in assigned:
            assigned.add((seat.table, seat.round))
            send(seat.table, "assign", None, {
                "cmd": f"assign-{EVENT}-r{seat.round}-t{seat.table}", "round": seat.round,
                "ns": seat.ns, "ew": seat.ew, "boards": list(seat.boards)})
        contract, declarer, tricks = CONTRACTS[(board + n) % len(CONTRACTS)]
        tricks += (n % 3) - 1
        send(seat.table, "card", board, {"seat": "W", "card": LEADS[(board + n) % 6]})
        result = {"contract": contract, "declarer": declarer, "tricks": tricks,
                  "score_ns": score_ns(parse_contract(contract), Seat.from_str(declarer),
                                       tricks, Board(board).vulnerability)}

        def play(table: int = seat.table, board: int = board,
                 result: dict[str, Any] = result) -> None:
            send(table, "result", board, result)
        if at < len(plays) - hold:
            play()
        else:
            held.append(play)
    services(app).hub.notify({"results", "tables"})
    return Field(app, session, len(plays) - hold, held)


def empty_app(tmp_path: Path) -> Iterator[Flask]:
    """The app on a fresh SQLite file, no session set up yet; closed afterwards."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "field.db"), "EVENT": EVENT,
                      "SECRET_KEY": "field-test", "DIRECTOR_PASSWORD": DIRECTOR_PASSWORD,
                      "ANALYSIS": False})
    try:
        yield app
    finally:
        services(app).close()


def field_app(tmp_path: Path, hold: int = 0) -> Iterator[Field]:
    """The app on a fresh SQLite file with the field played (but ``hold`` results); closed
    afterwards."""
    for app in empty_app(tmp_path):
        yield build(app, hold)


def served(app: Flask) -> Iterator[str]:
    from server.serve import serve
    running = serve(app, port=0, threads=16)
    try:
        yield running.address
    finally:
        assert running.stop(TIMEOUT), "waitress did not stop"
