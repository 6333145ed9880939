"""The individual (seed 004): the vulnerability the table shows is the one the server scores
with (issue 31), checked on boards scored by hand. Each partida deals South, West, North,
East with none, East-West, North-South and all vulnerable; Law 2's cycle would give boards 2
and 3 other dealers and the other side vulnerable."""

from __future__ import annotations

import json

from flask import Flask
from sqlalchemy import select

from laws import Board, Seat, Vulnerability
from laws.pbn import loads
from server.link.rounds import create_session, start_round
from server.outputs.exports import pbn
from server.scoring.standings import all_results
from server.storage import schema as s
from tablemodel.wire import Event, table_topic
from tests.server.conftest import EVENT, services


def test_a_board_of_the_individual_is_scored_with_its_partidas_vulnerability(
        app: Flask) -> None:
    db = services(app).db
    session = create_session(db, event=EVENT, title="Individual", kind="individual",
                             participants=4, boards_per_round=4, scoring="club", seed=4)
    [ident] = start_round(db, session, 1)
    with db.read() as conn:
        sent = json.loads(conn.execute(select(s.commands.c.data)).scalar_one())
    conditions = sent["conditions"]
    assert conditions["2"] == {"dealer": "W", "vul": "EW"}
    assert conditions["3"] == {"dealer": "N", "vul": "NS"}
    assert (Board(2).dealer, Board(2).vulnerability) == (Seat.E, Vulnerability.NS)  # not it

    seq = 0

    def send(kind: str, number: int | None, /, **data: object) -> None:
        nonlocal seq
        seq += 1
        outcome = services(app).ingest(table_topic(EVENT, 1, "events"), Event(
            seq, kind, 1000.0 + seq, number, data).to_payload())
        assert outcome.rejected is None, outcome.rejected

    send("assign", None, cmd=ident, round=1, ns=13, ew=24, boards=[1, 2, 3, 4],
         conditions=conditions)
    # Board 2, the partida's second deal: West deals, East-West vulnerable. 4H by East, ten
    # tricks: 120 for the tricks and 500 for a vulnerable game, 620 to East-West (Law 77).
    # Law 2's board 2 would make it 420 (East-West not vulnerable).
    send("board", 2, board=2, dealer="W", vul="EW")
    for seat, call in (("W", "1H"), ("N", "Pass"), ("E", "4H"), ("S", "Pass"),
                       ("W", "Pass"), ("N", "Pass")):
        send("call", 2, seat=seat, call=call)
    send("result", 2, contract="4H", declarer="E", tricks=10, score_ns=-620)
    # Board 3: North deals, North-South vulnerable. 3NT by South, nine tricks: 100 and a
    # vulnerable game's 500, 600 to North-South (Law 2's board 3 would say 400).
    send("board", 3, board=3, dealer="N", vul="NS")
    for seat, call in (("N", "Pass"), ("E", "Pass"), ("S", "3NT"), ("W", "Pass"),
                       ("N", "Pass"), ("E", "Pass")):
        send("call", 3, seat=seat, call=call)
    send("result", 3, contract="3NT", declarer="S", tricks=9, score_ns=600)

    scored = {row.board: row.score_ns for row in all_results(db, session)}
    assert scored == {2: -620, 3: 600}
    games = {game.board: game for game in loads(pbn(db, session))}
    assert (games[2].dealer, games[2].vulnerability) == (Seat.W, Vulnerability.EW)
    assert (games[3].dealer, games[3].vulnerability) == (Seat.N, Vulnerability.NS)
    assert games[2].tags["Score"] == "NS -620" and games[3].tags["Score"] == "NS 600"


def test_a_result_entered_by_the_director_is_scored_and_exported_the_same_way(
        app: Flask) -> None:
    """A board the table never sent, entered at the console: the server scores it with the
    partida's vulnerability, and the PBN game states the partida's dealer and vulnerability."""
    from server.link.director_calls import correct_result

    db = services(app).db
    session = create_session(db, event=EVENT, title="Individual", kind="individual",
                             participants=4, boards_per_round=4, scoring="club", seed=4)
    start_round(db, session, 1)
    correct_result(db, session, table=1, board=2, contract="4H", declarer="E", tricks=10,
                   adjusted=None, score_ns=None, by="director", note=None)
    [row] = all_results(db, session)
    assert row.score_ns == -620
    [game] = loads(pbn(db, session))
    assert (game.dealer, game.vulnerability) == (Seat.W, Vulnerability.EW)
