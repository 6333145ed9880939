"""A two-section event as a director runs it (issue 17), from an empty database, in Chromium:
the Register page imports the club's 60 members (Spanish names with accents), the set-up page
makes section A, an 8-table Mitchell with the arrow switched in its last round,
and section B, a 6-table Howell; fourteen simulated tables (tabled's own daemon, simulated
players typing their register numbers, then bidding and playing the dealt hands) play it
over the real broker, the director starting each round on the console; the live page's
rankings, the players' names beside them, must equal a matchpoint computation written here
from Law 78A (tests/handscore.py).

``BIDBOX_SCREENSHOTS=docs/screenshots`` writes the pictures docs/console.md shows."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect
from sqlalchemy import select

from bidbox.broker import Broker, BrokerUsers
from bidbox.demo import play_assigned_rounds
from mqttlink import BrokerSettings
from server.setup.movements import PHANTOM, Sectioned
from server.storage import schema as s
from tests import handscore
from tests.browser.conftest import DIRECTOR_PASSWORD, services, wait_until
from tests.browser.test_register import members
from tests.browser.test_screenshots import _folder
from tests.fixtures.broker import EVENT, TIMEOUT
from tests.handscore import Played

TABLES = 8 + 6
ROUNDS = 8


@pytest.fixture
def broker_users() -> BrokerUsers:
    """Logins for the fourteen tables of both sections (the default fixture has four)."""
    return BrokerUsers.generate(EVENT, range(1, TABLES + 1))


class Room:
    """The club room: one simulated table per table number, each in its own thread, playing
    every round the server assigns until the test stops them."""

    def __init__(self, broker: Broker, users: BrokerUsers, folder: Path,
                 club: list[int]) -> None:
        from sim.players import SimulatedPlayers
        from sim.simtable import SimulatedTable

        self.club = club
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.tables = []
        for number in range(1, TABLES + 1):
            login = users.table(number)
            table = SimulatedTable(folder / f"table-{number}.db", event=EVENT, number=number,
                                   broker=BrokerSettings("127.0.0.1", broker.port,
                                                         login.username, login.password),
                                   timeout=TIMEOUT)
            self.tables.append((table, SimulatedPlayers(table, seed=number, speed=0.0,
                                                          variety=0.4)))
        self.threads = [threading.Thread(target=self._play, args=pair, daemon=True,
                                         name=f"table-{pair[0].number}")
                        for pair in self.tables]

    def __enter__(self) -> Room:
        try:
            for table, _ in self.tables:
                table.start()
            for thread in self.threads:
                thread.start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _play(self, table: Any, players: Any) -> None:
        try:
            play_assigned_rounds(
                table, players, lambda board, assignment: players.play_board(
                    board, assignment.deals[board]),
                until=self.stop.is_set, stopping=self.stop.is_set, numbers=self.numbers)
        except Exception as error:  # the test reports it
            if not self.stop.is_set():
                self.errors.append(f"table {table.number}: {type(error).__name__}: {error}")

    def numbers(self, ns: int, ew: int) -> dict[Any, int]:
        """Pair p's players are the register's members 2p - 1 and 2p, wherever they sit."""
        from laws import Seat

        return {Seat.N: self.club[2 * ns - 2], Seat.S: self.club[2 * ns - 1],
                Seat.E: self.club[2 * ew - 2], Seat.W: self.club[2 * ew - 1]}

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            if thread.is_alive():
                thread.join(TIMEOUT)
        for table, _ in self.tables:
            table.stop()


def _results(app: Any) -> list[Any]:
    with services(app).db.read() as conn:
        return conn.execute(select(s.results).where(s.results.c.event == EVENT)).all()


def test_a_director_sets_up_and_runs_a_two_section_event(page: Any, live_app: Any,
                                                          broker: Broker,
                                                          broker_users: BrokerUsers,
                                                          tmp_path: Path) -> None:
    shots = _folder(tmp_path)
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto("/console/login?lang=en")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", DIRECTOR_PASSWORD)
    page.click("button[type=submit]")

    # The club's register: 60 members from the CSV file Spanish Excel writes.
    club = members()
    upload = tmp_path / "socios.csv"
    upload.write_bytes(("Nº socio;Apellidos y nombre;Licencia federativa\r\n" + "".join(
        f"{number};{name};{licence}\r\n" for number, name, licence in club)).encode("cp1252"))
    page.goto("/console/register?lang=en")
    page.set_input_files("form.register-import input[name=csv]", str(upload))
    page.click("form.register-import button[type=submit]")
    expect(page.locator("body")).to_contain_text("60 new")

    # The set-up page: section A and one more row for section B.
    page.goto("/console/?lang=en")
    page.fill("input[name=title]", "Thursday pairs")
    page.select_option("select[name=movement]", "mitchell")
    page.fill("input[name=participants]", "16")
    page.fill("input[name=boards_per_round]", "1")
    page.fill("input[name=arrow_rounds]", str(ROUNDS))
    rows = page.locator("#sections tbody tr")
    expect(rows).to_have_count(3)
    page.click("#add-section")
    expect(rows).to_have_count(4)
    expect(rows.nth(3).locator(".letter")).to_have_text("E")
    page.select_option("select[name=section_movement-1]", "howell")
    page.fill("input[name=section_pairs-1]", "12")
    page.fill("input[name=section_rounds-1]", str(ROUNDS))
    page.select_option("select[name=scope]", "section")
    page.fill("input[name=seed]", "2026")
    page.screenshot(path=str(shots / "console-setup-sections.en.png"), full_page=True)
    page.locator("form.stacked button[type=submit]").click()
    expect(page.locator("body")).to_contain_text("Thursday pairs")
    expect(page.locator("#sections li")).to_have_text([
        "Section A: Mitchell, 16 pairs, 8 tables, 8 rounds · arrow-switch in round 8",
        "Section B: Howell, 12 pairs, 6 tables, 8 rounds"])
    page.screenshot(path=str(shots / "console-session-sections.en.png"), full_page=True)

    session = services(live_app).session
    assert session is not None and [x.letter for x in session.sections] == ["A", "B"]
    plan = session.plan
    assert isinstance(plan, Sectioned) and plan.tables == TABLES and plan.rounds == ROUNDS

    with Room(broker, broker_users, tmp_path, [number for number, _, _ in club]) as room:
        for number in range(1, ROUNDS + 1):
            page.goto("/console/session?lang=en")
            page.fill("section.round input[name=round]", str(number))
            page.click("section.round button[type=submit]")
            expect(page.locator("body")).to_contain_text(f"Round {number}")
            wanted = {(seat.table, board) for seat in plan.round(number)
                      if PHANTOM not in (seat.ns, seat.ew) for board in seat.boards}
            wait_until(live_app, lambda wanted=wanted: wanted <= {
                (r.table_no, r.board) for r in _results(live_app)} or bool(room.errors),
                timeout=TIMEOUT * 4)
            assert not room.errors, room.errors
        page.goto("/console/?lang=en")
        expect(page.locator("[data-table='9'] a").first).to_have_text("B1")
        page.screenshot(path=str(shots / "console-sections-tables.en.png"), full_page=True)

    # Independent matchpoints: every board within its section, one ranking in A (the arrow
    # switched), one in B (a Howell).
    played = [Played(r.table_no, r.board, r.ns, r.ew, r.score_ns) for r in _results(live_app)]
    assert len(played) == sum(len(seat.boards) for seat in plan.seatings if not seat.sit_out)
    # In A's switched round the pairs numbered EW (9 to 16) sat North-South.
    last = [(r.ns, r.ew) for r in _results(live_app) if r.table_no <= 8 and r.round == ROUNDS]
    assert len(last) == 8 and all(ns > 8 >= ew for ns, ew in last)
    groups = {p.number: p.group for p in plan.participants}
    want = handscore.rankings(played, groups,
                              lambda row: plan.section_of_table(row.table)[0].letter)
    assert set(want) == {"A", "B"}
    # The tables' varied auctions (sim variety) make a field to rank, not a tie of everyone.
    assert all(len({round(pc, 6) for _, pc in ranking}) > len(ranking) // 2
               for ranking in want.values())

    for language in ("en", "es"):
        page.goto(f"/?lang={language}")
        for group, ranking in want.items():
            table = page.locator(f"table.ranking[data-group='{group}']")
            expect(table.locator("caption")).to_contain_text(
                {"en": f"Section {group}", "es": f"Sección {group}"}[language])
            shown = table.locator("tbody tr")
            expect(shown).to_have_count(len(ranking))
            participants = [int(shown.nth(i).get_attribute("data-participant"))
                            for i in range(len(ranking))]
            percents = [float(shown.nth(i).locator("td.percent").inner_text().replace(",", "."))
                        for i in range(len(ranking))]
            assert participants == [pair for pair, _ in ranking], (group, language)
            # Named from the register by the numbers typed at the tables.
            best = ranking[0][0]
            expect(shown.first.locator("td.names")).to_contain_text(club[2 * best - 2][1])
            assert percents == pytest.approx([round(pc, 2) for _, pc in ranking], abs=0.006)
        page.screenshot(path=str(shots / f"live-sections.{language}.png"), full_page=True)

