"""What the server lets each table show after a board (server/link/afterboard.py, issue 32): the
release rule of the pages, the director's switches, the payload's limit. Results come in
through ingest as the tables send them; the messages are read back as a table decodes them."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from laws import Board, Seat, parse_contract
from laws.scoring import score_ns
from server.link import afterboard
from server.link.rounds import create_session
from server.scoring.analysis import Analysis
from server.scoring.standings import release
from server.setup.session import Session
from server.storage import schema as s
from tablemodel.wire import MAX_PAYLOAD, afterboard_from_payload
from tests.server.conftest import EVENT, services
from tests.server.test_exports import TableEvents


def howell(app: Flask) -> Session:
    """Four pairs at two tables: both play board 1 in round 1, board 2 in round 2."""
    return create_session(services(app).db, event=EVENT, title="Martes", kind="howell",
                          participants=4, boards_per_round=1, rounds=2, seed=7)


def play(app: Flask, session: Session, table: int, board: int, contract: str,
         declarer: str, tricks: int) -> None:
    send = TableEvents(services(app).ingest, table)
    seating = next(seat for seat in session.plan.schedule(board) if seat.table == table)
    send("assign", None, cmd=f"assign-t{table}-b{board}", round=seating.round,
         ns=seating.ns, ew=seating.ew, boards=list(seating.boards))
    send("card", board, seat="E", card="SK")
    score = score_ns(parse_contract(contract), Seat.from_str(declarer), tricks,
                     Board(board).vulnerability)
    send("result", board, contract=contract, declarer=declarer, tricks=tricks,
         score_ns=score)


def message(app: Flask, session: Session, table: int) -> dict[str, Any]:
    payload = afterboard.payloads(services(app).db, session)[table]
    afterboard_from_payload(payload)  # what a table reads
    found: dict[str, Any] = json.loads(payload)
    return found


def test_a_board_another_table_still_has_to_play_is_only_said_to_wait(app: Flask) -> None:
    session = howell(app)
    play(app, session, 1, 1, "4S", "N", 10)
    assert message(app, session, 1)["boards"] == [{"board": 1, "released": False}]
    assert message(app, session, 2)["boards"] == []  # it has played nothing
    play(app, session, 2, 1, "4S", "N", 9)
    shown = message(app, session, 1)["boards"]
    assert [b["board"] for b in shown] == [1] and shown[0]["released"]
    # Best for North-South first; this table made it, the other went one down.
    assert [line[0] for line in shown[0]["traveller"]] == [1, 2]
    assert shown[0]["traveller"][0][3:7] == ["4S", "N", 10, 420]
    assert shown[0]["score"] == {"ns": 100.0, "ew": 0.0, "unit": "%"}
    assert message(app, session, 2)["boards"][0]["score"] == {"ns": 0.0, "ew": 100.0,
                                                              "unit": "%"}
    assert "tricks" not in shown[0]  # no analysis stored yet
    analysis = Analysis({strain: {seat: 10 if strain == "S" and seat in "NS" else 6
                                  for seat in "NESW"} for strain in ("C", "D", "H", "S", "NT")},
                        420, ["4SN", "4SS"])
    with services(app).db.write() as conn:
        conn.execute(update(s.deals).where(s.deals.c.session_id == session.id,
                                           s.deals.c.board == 1)
                     .values(analysis=json.dumps(analysis.to_json())))
    shown = message(app, session, 1)["boards"]
    assert shown[0]["tricks"]["N"] == [6, 6, 6, 10, 6]
    assert shown[0]["par"] == {"score": 420, "contracts": ["4SN", "4SS"]}


def test_the_directors_release_shows_a_board_before_every_table_played_it(
        app: Flask) -> None:
    session = howell(app)
    play(app, session, 1, 1, "3NT", "S", 9)
    release(services(app).db, session, 1, "director")
    shown = message(app, session, 1)["boards"][0]
    assert shown["released"] and len(shown["traveller"]) == 1


def test_the_switches_leave_out_what_the_director_turned_off(app: Flask) -> None:
    session = howell(app)
    db = services(app).db
    play(app, session, 1, 1, "4S", "N", 10)
    play(app, session, 2, 1, "4S", "N", 9)
    afterboard.set_pages(db, session, afterboard.Pages(score=False, traveller=True,
                                                       record=False), "director")
    found = message(app, session, 1)
    assert found["show"] == {"score": False, "traveller": True, "record": False}
    assert "score" not in found["boards"][0] and "traveller" in found["boards"][0]
    afterboard.set_pages(db, session, afterboard.Pages(False, False, False), "director")
    found = message(app, session, 1)
    assert found["boards"] == [] and not any(found["show"].values())


def test_the_set_up_form_stores_the_switches(director: tuple[FlaskClient, str],
                                             app: Flask) -> None:
    client, token = director
    response = client.post("/console/setup", data={
        "csrf": token, "title": "Jueves", "movement": "howell", "participants": "4",
        "boards_per_round": "1", "rounds": "2", "seed": "3", "after_board": "1",
        "after_traveller": "on"})
    assert response.status_code == 302, response.get_data(as_text=True)
    session = services(app).session
    assert session is not None
    assert afterboard.pages_of(services(app).db, session) == afterboard.Pages(False, True,
                                                                              False)
    page = client.get("/console/session").get_data(as_text=True)
    assert 'name="after_traveller" value="on" checked' in page
    assert 'name="after_score" value="on">' in page
    # The session page's own form changes them.
    response = client.post("/console/afterboard", data={"csrf": token, "after_score": "on"})
    assert response.status_code == 302
    assert afterboard.pages_of(services(app).db, session) == afterboard.Pages(True, False,
                                                                              False)


def test_a_message_over_the_limit_leaves_out_its_oldest_boards() -> None:
    line = [1, 12, 13, "7NTXX", "N", 13, 2980, None]
    boards = [{"board": n, "released": True, "traveller": [line] * 500}
              for n in range(40, 0, -1)]  # newest first
    payload = afterboard._fitted({"table": 1, "show": {"score": True, "traveller": True,
                                                       "record": True}, "boards": boards})
    assert len(payload) <= MAX_PAYLOAD
    kept = [b.board for b in afterboard_from_payload(payload).boards]
    assert kept and kept == list(range(40, 40 - len(kept), -1))


def test_a_social_scoring_has_no_pairs_score_page(app: Flask) -> None:
    """The individual (seed 004) scores each result on its own: the traveller has it."""
    session = create_session(services(app).db, event=EVENT, title="Individual",
                             kind="individual", participants=4, boards_per_round=4, seed=2)
    assert session.scoring.method.value == "points"
    board = session.plan.round(1)[0].boards[0]
    play(app, session, 1, board, "3NT", "S", 9)
    found = message(app, session, 1)
    assert found["show"]["score"] is False and found["show"]["traveller"] is True
    assert found["boards"][0]["released"] and "score" not in found["boards"][0]
