"""A simultaneous across three clubs, to the central server (issue 19, docs/scale.md).

Each club runs its own Mosquitto (bridged to the centre's as ``bidbox provision`` writes it,
:class:`LoopbackFederation`), its own server on SQLite driving its own rounds, and three
simulated tables (the real table daemon, simulated players bidding and playing the dealt
hands) on its own broker. The centre runs its broker and a central server on PostgreSQL
whose session has one section per club, scored across the field. One club's line to the
centre is cut through two rounds and restored; another club's broker is restarted under its
playing tables. Every event a club's server stored must be at the centre exactly once, under
that club's section, and the central rankings must equal matchpoints worked out here from
every club's results across the field (tests/handscore.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from bidbox.demo import play_assigned_rounds
from bidbox.loadtest_clubs import LoopbackFederation
from mqttlink import BrokerSettings
from server import create_app
from server.link.rounds import create_session, start_round
from server.scoring import standings
from server.services import Services
from server.setup.movements import PHANTOM, Section, Sectioned
from server.setup.session import Session
from server.storage import schema as s
from tests import handscore
from tests.handscore import Played

EVENT = "simul"
CLUBS = ("bilbao", "madrid", "sevilla")
TABLES = 3  # each club: a 3-table Mitchell of 6 pairs, 3 rounds of one board
ROUNDS = 3
SEED = 2026  # the same deals at every club and at the centre
WAIT = 120.0


def _url(settings: BrokerSettings) -> str:
    return (f"mqtt://{settings.username}:{settings.password}@{settings.host}:"
            f"{settings.port}")


def _services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


def _wait(app: Flask, predicate: Any, what: str) -> None:
    """On the app's live hub (woken by every batch it stores) until ``predicate()``."""
    hub = _services(app).hub
    deadline = time.monotonic() + WAIT
    seen = hub.version
    while not predicate():
        left = deadline - time.monotonic()
        assert left > 0, f"timed out waiting for {what}"
        seen = hub.wait(seen, min(left, 0.25)).version


class Club:
    """A club's server and tables; the tables play every round the server assigns."""

    def __init__(self, federation: LoopbackFederation, name: str, folder: Path) -> None:
        from sim.players import SimulatedPlayers
        from sim.simtable import SimulatedTable

        club = federation.clubs[name]
        self.name = name
        self.app = create_app({
            "TESTING": True, "DATABASE": str(folder / f"{name}.db"), "EVENT": EVENT,
            "SECRET_KEY": name, "ANALYSIS": False, "BROKER_URL": _url(club.server_settings())})
        self.session: Session = create_session(
            _services(self.app).db, event=EVENT, title=f"Simultáneo en {name}",
            kind="mitchell", participants=2 * TABLES, boards_per_round=1, rounds=ROUNDS,
            seed=SEED)
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.tables = []
        for number in range(1, TABLES + 1):
            table = SimulatedTable(folder / f"{name}-{number}.db", event=EVENT, number=number,
                                   broker=club.table_settings(number), timeout=WAIT)
            players = SimulatedPlayers(table, seed=hash((name, number)) % 1000, speed=0.0,
                                       variety=0.5)
            self.tables.append((table, players))
        self.threads = [threading.Thread(target=self._play, args=pair, daemon=True)
                        for pair in self.tables]

    def start(self) -> None:
        for table, _ in self.tables:
            table.start()
        for thread in self.threads:
            thread.start()

    def _play(self, table: Any, players: Any) -> None:
        try:
            play_assigned_rounds(table, players, lambda board, assignment: players.play_board(
                board, assignment.deals[board]), until=self.stop.is_set,
                stopping=self.stop.is_set)
        except Exception as error:
            if not self.stop.is_set():
                self.errors.append(f"{self.name} table {table.number}: {error!r}")

    def play_round(self, number: int) -> None:
        services = _services(self.app)
        start_round(services.db, self.session, number, by="test")
        services.commands_queued()

    def finished(self, number: int) -> bool:
        wanted = {(seat.table, board) for seat in self.session.plan.round(number)
                  if PHANTOM not in (seat.ns, seat.ew) for board in seat.boards}
        return wanted <= {(r.table_no, r.board) for r in self.results()} or bool(self.errors)

    def results(self) -> list[Any]:
        with _services(self.app).db.read() as conn:
            return conn.execute(select(s.results).where(s.results.c.event == EVENT)).all()

    def events(self) -> set[tuple[int, int, str]]:
        with _services(self.app).db.read() as conn:
            return {(r.table_no, r.seq, r.type) for r in conn.execute(
                select(s.events.c.table_no, s.events.c.seq, s.events.c.type).where(
                    s.events.c.event == EVENT))}

    def journalled(self) -> set[tuple[int, int]]:
        """Once the players stopped and every table's broker acknowledged all it journalled:
        (table, seq) of every event the club's tables made, the truth to find everywhere."""
        self.stop.set()
        for thread in self.threads:
            thread.join(WAIT)
            assert not thread.is_alive(), "a club's players did not stop"
        found: set[tuple[int, int]] = set()
        for table, _ in self.tables:
            daemon = table.daemon
            assert daemon.wait_for(lambda _, d=daemon: not d.inflight, WAIT), \
                f"{self.name} table {table.number} kept events unacknowledged"
            found |= {(table.number, seq) for seq in range(1, daemon.journal.last_seq + 1)}
        return found

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            if thread.is_alive():
                thread.join(WAIT)
        for table, _ in self.tables:
            table.stop()
        _services(self.app).close()


@pytest.fixture
def federation(mosquitto_bin: Path, tmp_path: Path) -> Iterator[LoopbackFederation]:
    with LoopbackFederation(tmp_path / "federation", CLUBS, tables=TABLES, event=EVENT,
                            binary=mosquitto_bin) as running:
        yield running


@pytest.fixture
def centre(federation: LoopbackFederation, pg_url: str) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": pg_url, "EVENT": EVENT, "SECRET_KEY": "c",
                      "ANALYSIS": False, "CENTRE": True,
                      "BROKER_URL": _url(federation.centre_settings)})
    try:
        yield app
    finally:
        _services(app).close()


@pytest.fixture
def clubs(federation: LoopbackFederation, tmp_path: Path) -> Iterator[dict[str, Club]]:
    made: dict[str, Club] = {}
    try:
        for name in CLUBS:
            made[name] = Club(federation, name, tmp_path)
        yield made
    finally:
        for club in made.values():
            club.close()


def test_three_clubs_reach_the_centre_once_through_a_cut_and_a_restart(
        federation: LoopbackFederation, centre: Flask, clubs: dict[str, Club]) -> None:
    central = create_session(
        _services(centre).db, event=EVENT, title="Simultáneo", kind="", participants=0,
        boards_per_round=0, scope="field", seed=SEED,
        sections=[Section(name, "mitchell", 2 * TABLES, 1, ROUNDS) for name in CLUBS])
    plan = central.plan
    assert isinstance(plan, Sectioned)
    for club in clubs.values():
        club.start()

    federation.clubs["bilbao"].proxy.cut()  # bilbao plays two rounds cut off from the centre
    for number in range(1, ROUNDS + 1):
        if number == 2:  # madrid's broker restarted under its tables (a service restart)
            federation.clubs["madrid"].broker.restart()
        for club in clubs.values():
            club.play_round(number)
        for club in clubs.values():
            _wait(club.app, lambda club=club, number=number: club.finished(number),
                  f"{club.name} round {number}")
            assert not club.errors, club.errors
        if number == 2:
            federation.clubs["bilbao"].proxy.restore()

    # Every event each club's tables journalled: at its club's server and at the centre,
    # under the club's section, each once, of the same type; nothing else at the centre.
    def at_centre() -> set[tuple[int, int, str]]:
        with _services(centre).db.read() as conn:
            return {(r.table_no, r.seq, r.type) for r in conn.execute(
                select(s.events.c.table_no, s.events.c.seq, s.events.c.type).where(
                    s.events.c.event == EVENT))}

    journalled = {name: club.journalled() for name, club in clubs.items()}
    for name, club in clubs.items():
        _wait(club.app, lambda club=club, name=name: {
            (t, q) for t, q, _ in club.events()} == journalled[name], f"{name}'s events")
    expected = {(plan.table_of(name, table), seq, kind)
                for name, club in clubs.items() for table, seq, kind in club.events()}
    assert {(t, q) for t, q, _ in expected} == {
        (plan.table_of(name, t), q) for name, keys in journalled.items() for t, q in keys}
    _wait(centre, lambda: {(t, q) for t, q, _ in at_centre()} == {
        (t, q) for t, q, _ in expected}, "every club's events at the centre")
    with _services(centre).db.read() as conn:
        stored = conn.execute(select(s.events.c.table_no, s.events.c.seq).where(
            s.events.c.event == EVENT)).all()
    assert len(stored) == len(set(stored)) == len(expected)
    assert at_centre() == expected

    # The central field: every club's results on the same boards, matchpoints across it.
    results = [Played(plan.table_of(name, r.table_no), r.board,
                      r.ns + plan.first_numbers[CLUBS.index(name)],
                      r.ew + plan.first_numbers[CLUBS.index(name)], r.score_ns)
               for name, club in clubs.items() for r in club.results()]
    assert len(results) == len(CLUBS) * TABLES * ROUNDS
    central_rows = {(r.table, r.board, r.ns_pair, r.ew_pair, r.score_ns)
                    for r in standings.all_results(_services(centre).db, central)}
    assert central_rows == {tuple(p) for p in results}
    assert standings.released_boards(_services(centre).db, central) == set(plan.boards())
    groups = {p.number: p.group.partition(" ")[2] for p in plan.participants}
    want = handscore.rankings(results, groups)
    got: dict[str, list[tuple[int, float]]] = {}
    for standing in standings.field(_services(centre).db, central, public=True).standings:
        assert standing.percent is not None
        got.setdefault(standing.group, []).append((standing.participant, standing.percent))
    assert set(got) == set(want) == {"NS", "EW"}
    for group, ranking in want.items():
        assert [p for p, _ in got[group]] == [p for p, _ in ranking], group
        assert [round(pc, 6) for _, pc in got[group]] == [round(pc, 6) for _, pc in ranking]
    assert len({round(pc, 6) for ranking in want.values() for _, pc in ranking}) > 4
