"""Penalties (Laws 90, 91), the club's figures for artificial scores (Law 12C2) and weighted
and split scores (Law 12C1) through the console, the rankings, the API and the live page.

The field is entered by the director (server corrections: the same service layer the console
uses); the expected rankings are computed here from the laws: a pair's percentage is its
matchpoints over its boards times the board's top, less its penalty over the same.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from server.link import director_calls as rulings
from server.link.rounds import create_session
from server.outputs.usebio import usebio
from server.scoring import adjusted, penalties, standings
from server.services import Services
from server.setup.session import Session
from tests.server.conftest import login

EVENT = "test"
# Board -> the contract every table plays, and each table's tricks: a field with spread.
TRICKS = {1: 7, 2: 8, 3: 9, 4: 10}


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


def make_field(app: Flask, scoring: str = "mp") -> Session:
    """Eight pairs in a Mitchell of 4 tables and 4 rounds of 2 boards: every board played at
    every table, 4H by South making 7 to 10 tricks by table."""
    db = services(app).db
    session = create_session(db, event=EVENT, title="Martes", kind="mitchell", participants=8,
                             boards_per_round=2, seed=7, scoring=scoring)
    for board in session.plan.boards():
        for seating in session.plan.schedule(board):
            rulings.correct_result(db, session, seating.table, board, contract="4H",
                                   declarer="S", tricks=TRICKS[seating.table], adjusted=None,
                                   score_ns=None, by="director", note="entered")
    return session


def percent_by_law(app: Flask, session: Session) -> dict[int, float]:
    """Each pair's percentage from Law 78A, computed here from the stored results."""
    rows = standings.all_results(services(app).db, session)
    mps: dict[int, float] = {}
    tops: dict[int, float] = {}
    for row in rows:
        others = [r.score_ns for r in rows if r.board == row.board and r is not row]
        assert row.score_ns is not None
        ns = sum(2 if row.score_ns > o else 1 if row.score_ns == o else 0 for o in others
                 if o is not None)
        top = 2 * len(others)
        for pair, points in ((row.ns_pair, ns), (row.ew_pair, top - ns)):
            assert pair is not None
            mps[pair] = mps.get(pair, 0) + points
            tops[pair] = tops.get(pair, 0) + top
    return {pair: 100 * mps[pair] / tops[pair] for pair in mps}


def form(client: FlaskClient, token: str, path: str, **data: Any) -> str:
    response = client.post(path, data={"csrf": token, **data}, follow_redirects=True)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_a_penalty_given_in_the_console_comes_off_the_rankings_everywhere(
        app: Flask, client: FlaskClient) -> None:
    session = make_field(app)
    token = login(client)
    plain = percent_by_law(app, session)
    page = form(client, token, "/console/penalty", participant="1", law="90", unit="top",
                amount="25", note="Slow play, warned twice")
    assert "Slow play, warned twice" in page
    # 25 % of a top of 6 is 1.5 matchpoints, over pair 1's 8 boards of top 6: 3.125 %.
    api = client.get("/api/v1/rankings").get_json()
    pair1 = next(r for r in api["rankings"] if r["participant"] == 1)
    assert pair1["penalty"] == 1.5
    assert pair1["percent"] == pytest.approx(round(plain[1] - 3.125, 2))
    others = {r["participant"]: r["percent"] for r in api["rankings"]}
    for pair, percent in plain.items():
        if pair != 1:
            assert others[pair] == pytest.approx(round(percent, 2))
    # The rankings order by the percentage after the penalty, within each direction.
    ns = [r for r in api["rankings"] if r["group"] == "NS"]
    assert [r["participant"] for r in ns] == sorted(
        (pair for pair in plain if pair <= 4),
        key=lambda pair: -(plain[pair] - (3.125 if pair == 1 else 0)))
    console = client.get("/console/fragment/rankings").get_data(as_text=True)
    assert re.search(r'data-participant="1">.*?-1\.50</td>', console, re.S)
    live = client.get("/?lang=en").get_data(as_text=True)
    assert "Penalty" in live and "-1.5" in live
    live_es = client.get("/?lang=es").get_data(as_text=True)
    assert "Penalización" in live_es


def test_a_withdrawn_penalty_stays_in_the_record_and_leaves_the_rankings(
        app: Flask, client: FlaskClient) -> None:
    session = make_field(app)
    token = login(client)
    form(client, token, "/console/penalty", participant="2", law="91", unit="mp",
         amount="3", note="Rude to the opponents")
    fined = standings.field(services(app).db, session, public=False)
    assert {st.participant: st.penalty for st in fined.standings}[2] == 3
    ident = penalties.given(services(app).db, session)[0].id
    page = form(client, token, f"/console/penalty/{ident}/withdraw")
    assert "withdrawn by director" in page or "retirada por director" in page
    after = standings.field(services(app).db, session, public=False)
    assert {st.participant: st.penalty for st in after.standings}[2] == 0
    assert not penalties.given(services(app).db, session)[0].standing


@pytest.mark.parametrize(("data", "reason"), [
    ({"participant": "1", "law": "90", "unit": "imps", "amount": "3"}, "matchpoints"),
    ({"participant": "1", "law": "12", "unit": "mp", "amount": "3"}, "Law 90"),
    ({"participant": "1", "law": "90", "unit": "top", "amount": "250"}, "at most 100"),
    ({"participant": "1", "law": "90", "unit": "top", "amount": "mucho"}, "not a number"),
    ({"participant": "99", "law": "90", "unit": "mp", "amount": "1"}, "not a pair"),
    ({"participant": "1", "law": "90", "unit": "mp", "amount": "1", "note": " "}, "say why"),
])
def test_a_bad_penalty_is_refused_with_the_reason(app: Flask, client: FlaskClient,
                                                  data: dict[str, str], reason: str) -> None:
    session = make_field(app)
    token = login(client)
    page = form(client, token, "/console/penalty?lang=en", **{"note": "x", **data})
    assert reason in page
    assert penalties.given(services(app).db, session) == []


def test_an_imps_session_takes_its_penalty_in_imps(app: Flask, client: FlaskClient) -> None:
    session = make_field(app, scoring="butler")
    token = login(client)
    before = {st.participant: st.score for st in
              standings.field(services(app).db, session, public=False).standings}
    form(client, token, "/console/penalty", participant="5", law="90", unit="imps",
         amount="3", note="Late")
    after = {st.participant: st for st in
             standings.field(services(app).db, session, public=False).standings}
    assert after[5].score == pytest.approx(before[5] - 3)
    assert after[5].penalty == 3


def test_the_clubs_figures_and_the_session_percentage_rule(app: Flask,
                                                          client: FlaskClient) -> None:
    session = make_field(app)
    token = login(client)
    db = services(app).db
    # Board 1 at table 1 (pair 1 NS v pair 5 EW in round 1): A+/A-, pair 1 not at fault.
    seating = session.plan.find(1, 1)
    assert seating is not None
    rulings.correct_result(db, session, 1, 1, contract=None, declarer=None, tricks=None,
                           adjusted="A+/A-", score_ns=None, by="director", note="fouled")
    line = next(x for x in standings.field(db, session, public=False).scored[1]
                if x.result.table == 1)
    assert (line.ns_percent, line.ew_percent) == (60, 40)
    page = form(client, token, "/console/scoring-rules", avg_plus="65", avg="50",
                avg_minus="35")
    assert "65" in page
    line = next(x for x in standings.field(db, session, public=False).scored[1]
                if x.result.table == 1)
    assert (line.ns_percent, line.ew_percent) == (65, 35)
    form(client, token, "/console/scoring-rules", avg_plus="60", avg="50", avg_minus="40",
         session_percent="1")
    field = standings.field(db, session, public=False)
    # Pair 1 (table 1 NS, 7 tricks in 4H: -100 or -50 on every other board) is below 60 %
    # elsewhere, so keeps 60; the rule changes nothing for it.
    line = next(x for x in field.scored[1] if x.result.table == 1)
    assert line.ns_percent == 60
    refused = form(client, token, "/console/scoring-rules?lang=en", avg_plus="55", avg="50",
                   avg_minus="40")
    assert "12C2" in refused
    assert adjusted.rules_of(db, session).session_percent


def test_a_weighted_and_a_split_score_from_the_console(app: Flask, client: FlaskClient) -> None:
    session = make_field(app)
    token = login(client)
    db = services(app).db
    page = form(client, token, "/console/assign?lang=en", table="2", board="3",
                ns="30% 4H S 10 + 70% 4H S 9", note="Misinformation, Law 21B3")
    assert "30% 4H S 10 + 70% 4H S 9" in page
    rows = {(r.table, r.board): r for r in standings.all_results(db, session)}
    assert rows[(2, 3)].adjusted == "weighted" and rows[(2, 3)].corrected_by == "director"
    # Board 3 (dealer S, NS vulnerable? Law 2: board 3 is EW vulnerable): 4H= by S is 420,
    # 4H-1 is -50. The other tables made 7, 9 and 10 tricks: -150, 140... computed here.
    field = standings.field(db, session, public=False)
    lines = {x.result.table: x for x in field.scored[3]}
    others = {t: rows[(t, 3)].score_ns for t in (1, 3, 4)}
    weighted = ((0.3, 420), (0.7, -50))

    def versus(ours: float, theirs: float) -> float:
        return 2 if ours > theirs else 1 if ours == theirs else 0
    expected_ns = sum(w * versus(score, other) for w, score in weighted
                      for other in others.values() if other is not None)
    assert lines[2].ns == pytest.approx(expected_ns)
    form(client, token, "/console/assign", table="3", board="3", ns="4H S 10", ew="4H S 9",
         note="Split: Law 12C1(d)")
    rows = {(r.table, r.board): r for r in standings.all_results(db, session)}
    assert rows[(3, 3)].adjusted == "split"
    # The page lists what was given, board by board, with its kind (Law 12C1).
    listed = client.get("/console/scoring?lang=en").get_data(as_text=True)
    assert listed.index('data-table="2" data-board="3"') < listed.index(
        'data-table="3" data-board="3"')
    assert "weighted (12C1(c))" in listed and "split (12C1(d))" in listed
    assert "NS 4H S 10 / EW 4H S 9" in listed
    assert "in Spanish" in listed and "in English" in listed  # the printouts' languages
    refused = form(client, token, "/console/assign?lang=en", table="3", board="3",
                   ns="30% 4H S 10 + 60% 4H S 9", note="x")
    assert "add up to 100" in refused
    refused = form(client, token, "/console/assign?lang=en", table="3", board="3",
                   ns="4H S", note="x")
    assert "30% 4H S 10" in refused


def test_every_export_carries_the_penalty_and_the_assigned_scores(app: Flask) -> None:
    import csv
    import io
    import xml.etree.ElementTree as ET

    from laws.pbn import loads as load_pbn
    from server.outputs import exports

    session = make_field(app)
    db = services(app).db
    penalties.give(db, session, 3, "90", "top", 50, "Wrong board played", by="director")
    adjusted.assign(db, session, 2, 3, "30% 4H S 10 + 70% 4H S 9", by="director", note="12C1c")
    adjusted.assign(db, session, 3, 3, "4H S 10", "4H S 9", by="director", note="12C1d")
    field = standings.field(db, session, public=False)
    pair3 = next(st for st in field.standings if st.participant == 3)
    assert pair3.penalty == 3  # 50 % of a top of 6
    # PBN: the games read back; the weighted game says its parts, the file the penalty.
    text = exports.pbn(db, session)
    games = load_pbn(text)
    weighted = next(g for g in games if g.tags.get("Table") == "2" and g.board == 3)
    assert "Assigned score: 30% 4H S 10 + 70% 4H S 9" in weighted.commentary
    assert "ScoreMP" in weighted.tags
    assert "Penalty (Law 90): participant 3, 50 % of a top: Wrong board played" in text
    # CSV: the assigned column; the rankings CSV: the penalty apart, the score after it.
    rows = list(csv.DictReader(io.StringIO(exports.csv_text(db, session))))
    split = next(r for r in rows if r["table"] == "3" and r["board"] == "3")
    assert (split["adjusted"], split["assigned"]) == ("split", "NS 4H S 10 / EW 4H S 9")
    ranked = list(csv.DictReader(io.StringIO(exports.rankings_csv(db, session))))
    row3 = next(r for r in ranked if r["participant"] == "3")
    assert row3["penalty"] == "3"
    assert float(row3["percent"]) == pytest.approx(pair3.percent, abs=0.01)
    # USEBIO: the pair's ADJUSTMENT (final less raw: the penalty, negative), its TOTAL_SCORE
    # after it.
    root = ET.fromstring(usebio(db, session))
    pair = next(p for p in root.iter("PAIR") if p.findtext("PAIR_NUMBER") == "3")
    assert pair.findtext("ADJUSTMENT") == "-3"
    assert float(pair.findtext("TOTAL_SCORE") or "nan") == pytest.approx(pair3.score)
