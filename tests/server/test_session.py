"""The session's rounds: one idempotent assignment per playing table, sent again after a
refusal."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from server.link.rounds import create_session, start_round
from server.storage import schema as s
from tablemodel.wire import Event, table_topic
from tests.server.conftest import EVENT, services


def test_a_round_sent_twice_queues_each_table_once(app: Flask) -> None:
    session = create_session(services(app).db, event=EVENT, title="Club", kind="mitchell",
                             participants=6, boards_per_round=2, seed=3)
    first = start_round(services(app).db, session, 1)
    assert start_round(services(app).db, session, 1) == first
    with services(app).db.read() as conn:
        assert len(conn.execute(select(s.commands)).all()) == 3


def test_a_refused_round_can_be_sent_again(app: Flask) -> None:
    session = create_session(services(app).db, event=EVENT, title="Club", kind="mitchell",
                             participants=6, boards_per_round=2, seed=3)
    [one, *_] = start_round(services(app).db, session, 1)
    services(app).ingest(table_topic(EVENT, 1, "events"), Event(
        1, "refused", 1.0, None, {"cmd": one, "reason": "board 1 is not finished"})
        .to_payload())
    [again, *rest] = start_round(services(app).db, session, 1)
    assert again == f"{one}-2" and rest == first_others(session)
    # ... and sending it once more, unanswered, does not make a third.
    assert start_round(services(app).db, session, 1)[0] == again


def first_others(session: object) -> list[str]:
    return [f"assign-{EVENT}-r1-t{table}" for table in (2, 3)]


def test_the_individual_tells_the_table_who_deals_and_who_is_vulnerable(app: Flask) -> None:
    """Seed 004: each partida's deals go South, West, North, East, with none, East-West,
    North-South and all vulnerable; the assign command carries it, valid on the wire."""
    import json

    from tablemodel.wire import Command

    session = create_session(services(app).db, event=EVENT, title="Individual",
                             kind="individual", participants=4, boards_per_round=4, seed=3)
    [ident] = start_round(services(app).db, session, 2)
    with services(app).db.read() as conn:
        data = json.loads(conn.execute(select(s.commands.c.data)).scalar_one())
    command = Command.from_payload(Command(ident, "assign", data).to_payload())
    boards = command.data["boards"]
    assert [command.data["conditions"][str(b)] for b in boards] == [
        {"dealer": "S", "vul": "None"}, {"dealer": "W", "vul": "EW"},
        {"dealer": "N", "vul": "NS"}, {"dealer": "E", "vul": "Both"}]
    assert services(app).vulnerability(boards[1]).value == "EW"
