"""A Swiss and a barometer set up from the console: the form offers them, starting a round
pairs it and sends every table its match, a round that cannot be paired yet is refused with
the reason, and the rankings fragment shows the VP standings."""

from __future__ import annotations

import json

from flask import Flask

from server.penalties import PenaltyError, give
from server.swiss import stored_pairings
from tests.server.test_console import Director, commands, page, services

SETUP = {"title": "Suizo", "movement": "swiss", "participants": "7",
         "boards_per_round": "3", "rounds": "4", "scoring": "", "seed": "3"}


def test_the_form_offers_the_new_kinds_in_both_languages(director: Director) -> None:
    client, _ = director
    spanish = page(client, "/console/?lang=es")
    for text in ("Suizo por equipos (PV)", "Barómetro (Howell)", "Barómetro (Mitchell)"):
        assert text in spanish
    english = page(client, "/console/?lang=en")
    for text in ("Swiss teams (VPs)", "Barometer (Howell)", "Barometer (Mitchell)"):
        assert text in english


def test_a_swiss_round_is_paired_and_sent_when_the_director_starts_it(
        app: Flask, director: Director) -> None:
    client, token = director
    response = client.post("/console/setup", data={"csrf": token, **SETUP})
    assert response.status_code == 302
    session = services(app).session
    assert session is not None
    assert (session.movement, session.scoring, session.tables) == ("swiss", "swiss", 6)
    assert client.post("/console/round", data={"csrf": token, "round": "1"}).status_code == 302
    pairings = stored_pairings(services(app).db, session)
    assert pairings[1].matches == ((1, 2), (3, 4), (5, 6)) and pairings[1].bye == 7
    sent = [(c.table_no, json.loads(c.data)) for c in commands(app)]
    assert [(table, data["ns"], data["ew"], data["boards"]) for table, data in sent] == [
        (1, 1, 2, [1, 2, 3]), (2, 2, 1, [1, 2, 3]), (3, 3, 4, [1, 2, 3]),
        (4, 4, 3, [1, 2, 3]), (5, 5, 6, [1, 2, 3]), (6, 6, 5, [1, 2, 3])]
    assert all("next" not in data for _, data in sent), "the next opponents are not known"
    # Round 2 is paired from round 1's results, and there are none yet.
    client.post("/console/round", data={"csrf": token, "round": "2"})
    text = page(client, "/console/session?lang=en")
    assert "round 2 is paired from every result before it" in text
    assert 2 not in stored_pairings(services(app).db, session)
    assert client.post("/console/round", data={"csrf": token, "round": "3"}).status_code == 302
    assert "round 2 is the next to pair, not round 3" in page(client, "/console/session")
    # The standings: the bye's 12 VPs, a penalty in VPs taken off (Law 90).
    found = services(app).session
    assert found is not None
    give(services(app).db, found, 7, "90", "vp", 2, "late arrival", by="director")
    fragment = page(client, "/console/fragment/rankings?lang=en")
    assert "Swiss: standings in victory points" in fragment
    assert "10.00" in fragment and "-2.00" in fragment  # team 7: 12 - 2
    assert "Matches of round 1" in fragment and "bye" in fragment


def test_a_swiss_takes_penalties_in_vps_only(app: Flask, director: Director) -> None:
    client, token = director
    client.post("/console/setup", data={"csrf": token, **SETUP})
    session = services(app).session
    assert session is not None
    try:
        give(services(app).db, session, 1, "91", "mp", 2, "conduct", by="director")
    except PenaltyError as error:
        assert "victory points" in str(error) and "vp" in str(error)
    else:
        raise AssertionError("a matchpoint penalty in a Swiss was accepted")


def test_a_barometer_set_up_from_the_console(app: Flask, director: Director) -> None:
    client, token = director
    client.post("/console/setup", data={
        "csrf": token, "title": "Barómetro", "movement": "baro_mitchell",
        "participants": "8", "boards_per_round": "2", "rounds": "", "scoring": "",
        "seed": "1"})
    session = services(app).session
    assert session is not None and session.scoring == "mp" and session.rounds == 4
    client.post("/console/round", data={"csrf": token, "round": "2"})
    assert {json.loads(c.data)["boards"] == [3, 4] for c in commands(app)} == {True}
