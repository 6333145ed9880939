"""A Swiss and a barometer set up from the console: the form offers them, starting a round
pairs it and sends every table its match, a round that cannot be paired yet is refused with
the reason, and the rankings fragment shows the VP standings."""

from __future__ import annotations

import html
import json
from typing import Any

from flask import Flask

from server.scoring.penalties import PenaltyError, give
from server.scoring.swiss import stored_pairings
from tests.server.test_console import Director, commands, page, send, services

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


def _results_of_round(app: Flask, number: int, seqs: dict[int, int]) -> None:
    """Every table of round ``number`` sends its boards' results (seq counted by table)."""
    session = services(app).session
    assert session is not None
    for seating in session.plan.round(number):
        for board in seating.boards:
            seqs[seating.table] = seqs.get(seating.table, 0) + 1
            send(app, seating.table, seqs[seating.table], "result", board, contract="3NT",
                 declarer="N", tricks=9, score_ns=400)


def test_the_director_pairs_a_round_by_hand_and_is_told_its_rematches(
        app: Flask, director: Director) -> None:
    client, token = director
    four = {**SETUP, "participants": "4", "boards_per_round": "1", "rounds": "3"}
    assert client.post("/console/setup", data={"csrf": token, **four}).status_code == 302
    assert 'name="pairing"' in page(client, "/console/session?lang=en")
    assert "Emparejar a mano" in page(client, "/console/session?lang=es")
    db = services(app).db

    def start(number: int, pairing: str) -> None:
        client.post("/console/round", data={"csrf": token, "round": str(number),
                                             "pairing": pairing})

    def pairings() -> dict[int, Any]:
        session = services(app).session
        assert session is not None
        return dict(stored_pairings(db, session))

    start(1, "1-2")  # two teams left out: refused, nothing paired nor sent
    assert "teams 3, 4: no opponent nor the bye" in page(client, "/console/session?lang=en")
    assert pairings() == {} and commands(app) == []
    start(1, "1-4, 2-3")  # seeded by hand
    assert pairings()[1].matches == ((1, 4), (2, 3))
    seqs: dict[int, int] = {}
    start(2, "4-1, 3-2")  # round 1's results are not in yet
    assert "round 2 is paired from every result before it" in page(client, "/console/session")
    assert 2 not in pairings()
    _results_of_round(app, 1, seqs)
    start(2, "4-1, 3-2")
    assert pairings()[2].matches == ((4, 1), (3, 2))
    told = html.unescape(page(client, "/console/?lang=en"))
    assert "Rematches, by the director's decision: 4-1, 3-2." in told
    sent = [(c.table_no, json.loads(c.data)) for c in commands(app)]
    assert [(table, data["ns"], data["ew"]) for table, data in sent
            if data["round"] == 2] == [(1, 4, 1), (2, 1, 4), (3, 3, 2), (4, 2, 3)]
    start(2, "1-2, 3-4")  # a round is paired once
    assert "round 2 is paired already" in page(client, "/console/session?lang=en")
    _results_of_round(app, 2, seqs)
    start(3, "")  # the rule again, level on VPs: 1 meets 2, the best it has not met
    assert pairings()[3].matches == ((1, 2), (3, 4))


def test_only_a_swiss_is_paired_by_hand(app: Flask, director: Director) -> None:
    client, token = director
    client.post("/console/setup", data={
        "csrf": token, "title": "Martes", "movement": "mitchell", "participants": "8",
        "boards_per_round": "2", "rounds": "", "scoring": "mp", "seed": "42"})
    assert 'name="pairing"' not in page(client, "/console/session")
    client.post("/console/round", data={"csrf": token, "round": "1", "pairing": "1-2"})
    assert "only a Swiss round is paired by hand" in page(client, "/console/session")
    assert commands(app) == []
