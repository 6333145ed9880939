"""The centre's view of the clubs' topics (issue 19): a club's table t becomes the central
session's table of that club's section; anything else is refused with its reason."""

from __future__ import annotations

import pytest
from flask import Flask

from server.link.centre import ClubTables, club_topic, subscriptions
from server.link.rounds import create_session
from server.setup.movements import Section
from tablemodel.wire import WireError, table_topic
from tests.clock import Clock
from tests.server.conftest import EVENT, services


def test_a_clubs_table_is_its_sections_table_at_the_centre(app: Flask) -> None:
    db = services(app).db
    clock = Clock(100.0)
    clubs = ClubTables(db, EVENT, clock=clock)
    topic = club_topic("madrid", table_topic(EVENT, 2, "events"))
    with pytest.raises(WireError, match="no session of clubs' sections"):
        clubs.translate(topic)
    create_session(db, event=EVENT, title="Simultáneo", kind="", participants=0,
                   boards_per_round=0, scope="field", seed=4, sections=[
                       Section("bilbao", "mitchell", 8, 2), Section("madrid", "howell", 6, 2)])
    with pytest.raises(WireError, match="no session"):
        clubs.translate(topic)  # read again at most once a second (REFRESH)
    clock.now += 1.0
    assert clubs.translate(topic) == table_topic(EVENT, 4 + 2, "events")
    assert clubs.translate(club_topic("bilbao", table_topic(EVENT, 4, "state"))) == \
        table_topic(EVENT, 4, "state")
    for bad, reason in [
            (club_topic("sevilla", table_topic(EVENT, 1, "events")), "no section 'sevilla'"),
            (club_topic("madrid", table_topic(EVENT, 4, "events")), "tables 1 to 3"),
            (club_topic("madrid", table_topic("other", 1, "events")), "is not the centre's"),
            (club_topic("madrid", table_topic(EVENT, 1, "cmd")), "does not come"),
            (table_topic(EVENT, 1, "events"), "not a club's topic"),
            ("clubs//bidbox/v1/test/table/1/events", "not a club's topic"),
            ("clubs/madrid/bidbox/v1/test/table/x/events", "not a number")]:
        clock.now += 1.0
        with pytest.raises(WireError, match=reason):
            clubs.translate(bad)


def test_the_centre_subscribes_to_every_clubs_tables_but_not_their_commands() -> None:
    topics = [topic for topic, qos in subscriptions("sim") if qos == 1]
    assert topics == ["clubs/+/bidbox/v1/sim/table/+/events",
                      "clubs/+/bidbox/v1/sim/table/+/status",
                      "clubs/+/bidbox/v1/sim/table/+/state"]
