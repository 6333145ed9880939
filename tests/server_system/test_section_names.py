"""One name per table (issue 32): a session of two sections, played through a real Mosquitto
and the real server. Section B's first table is told its name, its pairs as the pages name
them and, at the end of the round, where each part goes, all by section B's names (the
session numbers its tables on, 4 to 6, for topics and logins only); the console's pages and
the results pack's PDF traveller name that table the same way."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from bidbox.broker import Broker, BrokerUsers
from bidbox.demo import player_numbers
from laws import Seat
from server.link.rounds import create_session, start_round
from server.setup.movements import Section
from server.storage import schema as s
from sim.players import SimulatedPlayers
from tablemodel.state import Phase
from tests.fixtures.broker import EVENT, TIMEOUT
from tests.server.test_printouts import pdf_text
from tests.server_system.conftest import ServerFactory, services, wait_until
from tests.server_system.test_dealt_at_table import director, simulated

pytestmark = pytest.mark.broker

ROWS = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S)


def cells(html: str, marker: str) -> list[str]:
    """The text of the first cell of each row of the table that follows ``marker``."""
    part = html[html.index(marker):]
    part = part[:part.index("</table>")]
    return [re.sub(r"<[^>]+>", "", row.split("</td>")[0]).strip()
            for row in ROWS.findall(part) if "<td" in row]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="no poppler-utils")
def test_section_b_is_told_b_tables_and_every_page_names_them_so(
        start_server: ServerFactory, broker: Broker, broker_users: BrokerUsers,
        tmp_path: Path) -> None:
    app: Flask = start_server()
    found = services(app)
    session = create_session(found.db, event=EVENT, title="Dos secciones", kind="mitchell",
                             participants=0, boards_per_round=0, seed=3, sections=[
                                 Section("A", "mitchell", 6, 1, rounds=3),
                                 Section("B", "mitchell", 6, 1, rounds=3, first_board=4)])
    assert [session.table_label(n) for n in (1, 3, 4, 6)] == ["A1", "A3", "B1", "B3"]
    seat = session.plan.at(1, 4)
    assert (seat.next_ew, seat.next_boards) == (5, 6)  # the session's numbers: B2 and B3
    client: FlaskClient
    client, _ = director(app)
    with simulated(broker, broker_users, tmp_path, 4) as table:
        start_round(found.db, session, 1)
        found.commands_queued()
        assert table.daemon.wait_for(lambda state: state.assignment is not None, TIMEOUT)
        assignment = table.state.assignment
        assert assignment.label == "B1"
        # The pairs as the pages call them: B's NS pair 1 and EW pair 1, not 7 and 10.
        assert (assignment.ns, assignment.ew) == (7, 10)
        assert "NS B1  EO B1" in table.daemon.view(Seat.N) or \
            "NS B1  EW B1" in table.daemon.view(Seat.N)
        players = SimulatedPlayers(table, seed=4, speed=0.0, director_rate=0.0)
        players.enter_players(player_numbers(assignment.ns, assignment.ew))
        players.play_board(4, assignment.deals[4])
        assert table.daemon.wait_for(lambda state: state.phase is Phase.ROUND_END, TIMEOUT)
        shown = table.daemon.view(Seat.E)
        assert any(line.endswith("B2") and line.startswith(("EW", "EO")) for line in shown), \
            shown
        assert any(line.startswith(("Boards", "Tableros")) and line.endswith("B3")
                   for line in shown), shown
        assert not any(line.endswith((" 5", " 6")) for line in shown), shown
        wait_until(found, lambda: _results(found) == 1)

    # The console's pages: the rulings form, the results grid, the boards without a result,
    # the forms that correct a result or assign a score, the players at the tables.
    rulings = client.get("/console/rulings").get_data(as_text=True)
    assert '<option value="4">B1</option>' in rulings
    results = client.get("/console/results").get_data(as_text=True)
    assert "Mesa B1" in results or "Table B1" in results
    assert "Mesa 4" not in results and "Table 4<" not in results
    assert '<option value="4">B1</option>' in results  # the correction form
    scoring = client.get("/console/scoring").get_data(as_text=True)
    assert '<option value="4">B1</option>' in scoring  # the assigned score's form
    missing = cells(results, 'class="grid missing"')
    assert missing and set(missing) == {"1"}  # the round column; the table is the second
    assert re.search(r'data-missing="r1-t1-b1"><td>1</td><td>A1</td>', results)
    seated = client.get("/console/register").get_data(as_text=True)
    assert re.search(r'data-table="4"><td>B1</td>', seated), "players at the tables"
    # The results pack's traveller of board 4, in the PDF the director prints.
    text = pdf_text(client.get("/console/report.pdf?language=en").data, tmp_path)
    traveller = text[text.index("Board 4"):]
    assert re.search(r"^B1$", traveller, re.M), traveller[:400]


def _results(found: object) -> int:
    with found.db.read() as conn:  # type: ignore[attr-defined]
        return len(conn.execute(select(s.results).where(s.results.c.event == EVENT)).all())
