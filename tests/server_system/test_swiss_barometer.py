"""A Swiss teams event of 12 teams over 5 rounds and a barometer of 10 tables, played by
simulated tables (the real table daemon, sim.players) over a real Mosquitto into the real
server; the standings checked against a computation written here from the stored results:
the IMP scale (Law 78B) and the WBF continuous VP formula, written out again in this file."""

from __future__ import annotations

import csv
import io
import math
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bidbox.broker import Broker, BrokerUsers
from bidbox.demo import play_assigned_rounds
from mqttlink import BrokerSettings
from server.link.rounds import create_session, start_round
from server.link.tables import table_grid
from server.outputs.exports import pbn, rankings_csv
from server.outputs.usebio import usebio
from server.scoring.penalties import give
from server.scoring.standings import all_results, field, released_boards
from server.scoring.swiss import SwissError, stored_pairings, swiss_of
from server.services import Services
from server.setup.session import Session, current
from server.storage import schema as s
from sim.players import SimulatedPlayers
from sim.simtable import SimulatedTable
from tests.fixtures.broker import EVENT
from tests.server import usebio_read
from tests.server_system.conftest import ServerFactory, services

PLAY_BOUND = 900.0  # seconds for a whole session at the tables' own pace, on a busy machine


@pytest.fixture
def broker_users() -> BrokerUsers:
    """Twelve tables: the Swiss's six matches (the fixture's default is four)."""
    return BrokerUsers.generate(EVENT, range(1, 13))


# -- an independent computation -----------------------------------------------------------------

# Law 78B's IMP scale: the lowest difference for 1, 2, ... 24 IMPs.
IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)


def imps_of(difference: int) -> int:
    won = sum(1 for step in IMP_STEPS if abs(difference) >= step)
    return won if difference >= 0 else -won


def wbf_vp(margin: int, boards: int) -> float:
    """The WBF 2013 continuous scale: 10 + 10 (1 - tau^(3M/B)) / (1 - tau^3), B = 15 sqrt(n),
    to the hundredth and at most 20; a hundredth is added where the rounding made an IMP
    worth more than the one before it (the report's correction), repeated until none is."""
    tau = (5 ** 0.5 - 1) / 2
    blitz = 15 * boards ** 0.5
    top = math.ceil(blitz)
    scale = [min(2000, round(100 * (10 + 10 * (1 - tau ** (3 * m / blitz)) / (1 - tau ** 3))))
             for m in range(top + 1)]
    while any(scale[i + 1] - scale[i] > scale[i] - scale[i - 1] for i in range(1, top)):
        for i in range(1, top):
            if scale[i + 1] - scale[i] > scale[i] - scale[i - 1]:
                scale[i] += 1
    return scale[min(abs(margin), top)] / 100


def expected_swiss(rows: list[Any], boards: int) -> tuple[dict[int, float], dict[int, int]]:
    """Each team's VPs and IMP difference from the stored results alone."""
    by_match: dict[tuple[int, frozenset[int]], dict[int, dict[int, int]]] = defaultdict(
        lambda: defaultdict(dict))
    for row in rows:
        # The NS score at the table where each team sits NS, per board.
        by_match[(row.round, frozenset((row.ns, row.ew)))][row.board][row.ns] = row.score_ns
    vps: dict[int, float] = defaultdict(float)
    imps: dict[int, int] = defaultdict(int)
    for (_, teams), board_scores in by_match.items():
        first, second = sorted(teams)
        margin = 0
        for scores in board_scores.values():
            assert set(scores) == {first, second}, "each team NS at one table of the match"
            margin += imps_of(scores[first] - scores[second])
        won = wbf_vp(margin, boards)
        vps[first] += won if margin >= 0 else round(20 - won, 2)
        vps[second] += round(20 - won, 2) if margin >= 0 else won
        imps[first] += margin
        imps[second] -= margin
    return dict(vps), dict(imps)


def expected_matchpoints(rows: list[Any]) -> dict[int, float]:
    """Each pair's percentage: Law 78A, 2 a score beaten and 1 a score equalled, NS with
    NS; every board has every table's result, so the top is 2 (tables - 1)."""
    boards: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        boards[row.board].append(row)
    percents: dict[int, list[float]] = defaultdict(list)
    for results in boards.values():
        top = 2 * (len(results) - 1)
        for row in results:
            others = [other.score_ns for other in results if other is not row]
            ns = sum(2 if row.score_ns > o else 1 if row.score_ns == o else 0 for o in others)
            percents[row.ns].append(100 * ns / top)
            percents[row.ew].append(100 * (top - ns) / top)
    return {pair: sum(p) / len(p) for pair, p in percents.items()}


# -- the room -----------------------------------------------------------------------------------

class Room:
    """The simulated tables, each on a thread of its own playing what the server assigns,
    and the director starting each round once the one before is over."""

    def __init__(self, broker: Broker, users: BrokerUsers, folder: Path, tables: int) -> None:
        self.stopping = threading.Event()
        self.errors: list[str] = []
        self.threads = [threading.Thread(target=self._table, name=f"table-{n}",
                                         args=(n, broker, users, folder), daemon=True)
                        for n in range(1, tables + 1)]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(60.0)
        assert not any(thread.is_alive() for thread in self.threads), "a table did not stop"

    def _table(self, number: int, broker: Broker, users: BrokerUsers, folder: Path) -> None:
        creds = users.table(number)
        settings = BrokerSettings(broker.host, broker.port, creds.username, creds.password)
        try:
            with SimulatedTable(folder / f"table-{number}.db", event=EVENT, number=number,
                                broker=settings, timeout=30.0) as table:
                players = SimulatedPlayers(table, seed=number, speed=0.0, director_rate=0.0)

                def board(board: int, assignment: Any) -> None:
                    players.play_board(board, assignment.deals[board])

                play_assigned_rounds(table, players, board, until=self.stopping.is_set,
                                     stopping=self.stopping.is_set)
        except Exception as error:
            if not self.stopping.is_set():
                self.errors.append(f"table {number}: {type(error).__name__}: {error}")

    def play_round(self, found: Services, session: Session, number: int,
                   deadline: float) -> Session:
        """Start round ``number`` as the director does and wait until every table of it has
        its results and shows "round over"; the session as it is then."""
        start_round(found.db, session, number, by="director")
        found.commands_queued()
        session = current(found.db, EVENT) or session
        playing = [seat for seat in session.plan.round(number) if not seat.sit_out]
        assert playing, f"round {number} seats nobody"
        wanted = {(seat.table, board) for seat in playing for board in seat.boards}
        seen = found.hub.version
        while True:
            assert not self.errors, self.errors
            done = {(r.table, r.board) for r in all_results(found.db, session)}
            ended = {row.table for row in table_grid(found.db, EVENT)
                     if row.round == number and row.phase == "round_end"}
            if wanted <= done and {seat.table for seat in playing} <= ended:
                return current(found.db, EVENT) or session
            left = deadline - time.monotonic()
            assert left > 0, f"round {number}: {len(wanted - done)} results missing in time"
            seen = found.hub.wait(seen, min(left, 5.0)).version


@pytest.fixture
def room(broker: Broker, broker_users: BrokerUsers,
         tmp_path: Path) -> Iterator[Callable[[int], Room]]:
    rooms: list[Room] = []

    def make(tables: int) -> Room:
        made = Room(broker, broker_users, tmp_path, tables)
        rooms.append(made)
        made.start()
        return made

    yield make
    for made in rooms:
        made.stop()


def _rows(found: Services, session: Session) -> list[Any]:
    with found.db.read() as conn:
        return list(conn.execute(select(s.results).where(s.results.c.event == session.event)))


# -- the tests ----------------------------------------------------------------------------------

def test_a_swiss_of_twelve_teams_over_five_rounds(start_server: ServerFactory,
                                                  room: Callable[[int], Room]) -> None:
    app = start_server()
    found = services(app)
    session = create_session(found.db, event=EVENT, title="Swiss", kind="swiss",
                             participants=12, boards_per_round=2, rounds=5, seed=17)
    assert session.tables == 12 and session.scoring == "swiss"
    tables = room(12)
    deadline = time.monotonic() + PLAY_BOUND
    leaders: list[int] = []
    for number in range(1, 6):
        if number > 1:
            # The round is paired from the standings: the leader (by this file's own
            # computation) is at match 1, the home team, against a team it has not met.
            vps, imps = expected_swiss(_rows(found, session), 2)
            leaders.append(min(vps, key=lambda team: (-round(vps[team], 2), -imps[team],
                                                      team)))
        session = tables.play_round(found, session, number, deadline)
        if number > 1:
            assert session.pairings[number - 1][0][0] == leaders[-1]
    pairings = stored_pairings(found.db, session)
    assert sorted(pairings) == [1, 2, 3, 4, 5]
    assert pairings[1].matches == ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12))
    met = [frozenset(match) for p in pairings.values() for match in p.matches]
    assert len(met) == len(set(met)) == 30, "no rematch"
    for p in pairings.values():
        assert sorted(t for match in p.matches for t in match) == list(range(1, 13))
    # Sit at the right tables: the home team NS at the open room, EW at the closed.
    rows = _rows(found, session)
    assert len(rows) == 12 * 2 * 5
    for row in rows:
        home, away = pairings[row.round].matches[(row.table_no - 1) // 2]
        assert (row.ns, row.ew) == ((home, away) if row.table_no % 2 else (away, home))
    # A procedural penalty of 1.5 VPs (Law 90) to team 4.
    give(found.db, session, 4, "90", "vp", 1.5, "slow play", by="director")
    with pytest.raises(ValueError, match="give the penalty in vp"):
        give(found.db, session, 4, "90", "imps", 3, "slow play", by="director")
    vps, imps = expected_swiss(rows, 2)
    vps[4] -= 1.5
    swiss = swiss_of(found.db, session, public=False)
    got = {line.team: line.vp for line in swiss.standings}
    assert got == {team: pytest.approx(round(vp, 2), abs=1e-9) for team, vp in vps.items()}
    assert {line.team: line.imps for line in swiss.standings} == imps
    order = sorted(vps, key=lambda team: (-round(vps[team], 2), -imps[team], team))
    assert [line.team for line in swiss.standings] == order
    assert next(line for line in swiss.standings if line.team == 4).penalty == 1.5
    # The rankings export: the VPs after the penalty, the penalty apart.
    exported = list(csv.DictReader(io.StringIO(rankings_csv(found.db, session))))
    assert [int(row["team"]) for row in exported] == order
    assert {int(row["team"]): row["vp"] for row in exported} == {
        team: f"{round(vp, 2):.2f}" for team, vp in vps.items()}
    assert [row["penalty_vp"] for row in exported if row["team"] == "4"] == ["1.50"]
    # The live page's standings: every board is released once every table played it.
    public = swiss_of(found.db, session, public=True)
    assert [(x.team, x.vp) for x in public.standings] == \
        [(x.team, x.vp) for x in swiss.standings]
    with pytest.raises(SwissError, match="round 6"):
        from server.scoring.swiss import paired
        paired(found.db, session, 6)
    response = app.test_client().get("/api/v1/rankings")
    assert response.status_code == 200
    assert [line["team"] for line in response.get_json()["swiss"]["standings"]] == order
    # The PBN export names each match's rooms: the lower table the open room.
    text = pbn(found.db, session)
    assert text.count('[Room "Open"]') == text.count('[Room "Closed"]') == 12 * 5
    for lang, heading in (("en", "Victory points"), ("es", "Puntos de victoria")):
        page = app.test_client().get(f"/?lang={lang}").get_data(as_text=True)
        assert heading in page
        assert page.count('<tr data-team="') == 12
        assert page.count('class="ranking swiss-round"') == 5


def test_a_barometer_of_ten_tables(start_server: ServerFactory,
                                   room: Callable[[int], Room]) -> None:
    app = start_server()
    found = services(app)
    session = create_session(found.db, event=EVENT, title="Barometer", kind="barometer",
                             participants=20, boards_per_round=2, rounds=3, seed=5)
    assert session.tables == 10
    for number in range(1, 4):
        assert {seat.boards for seat in session.plan.round(number)} == {
            (2 * number - 1, 2 * number)}, "every table plays the round's boards"
    tables = room(10)
    deadline = time.monotonic() + PLAY_BOUND
    for number in range(1, 4):
        assert released_boards(found.db, session) == set(range(1, 2 * number - 1))
        session = tables.play_round(found, session, number, deadline)
        released = released_boards(found.db, session)
        assert released == set(range(1, 2 * number + 1))
        # The release rule: one table's result missing and the board waits.
        rows = all_results(found.db, session)
        held = [r for r in rows if not (r.board == 2 * number and r.table == 7)]
        assert 2 * number not in released_boards(found.db, session, held)
    rows = _rows(found, session)
    assert len(rows) == 10 * 2 * 3
    expected = expected_matchpoints(rows)
    standings = field(found.db, session, public=True).standings
    assert {x.participant: x.percent for x in standings} == {
        pair: pytest.approx(pc, abs=1e-9) for pair, pc in expected.items()}
    order = sorted(expected, key=lambda pair: (-round(expected[pair], 9), pair))
    assert [x.participant for x in standings] == order
    # USEBIO 1.2, read back: one winner, every pair placed as ranked, every traveller.
    event = usebio_read.loads(usebio(found.db, session))
    assert (event.kind, event.winner_type, event.method) == ("PAIRS", 1, "MATCH_POINTS")
    assert {n: p.place.rstrip("=") for n, p in event.pairs.items()} == {
        x.participant: str(x.rank) for x in standings}
    assert sorted(event.boards) == [1, 2, 3, 4, 5, 6]
    assert all(len(lines) == 10 for lines in event.boards.values())
