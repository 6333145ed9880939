"""Movement kinds, scorings, export formats and ruling kinds are each defined once (issue 28):
every table of them is checked when its module loads, so an entry missing a field, or a
table missing a kind, never starts. Then the three added through those registries alone --
the scrambled Mitchell, Butler against the mean, LIN -- each through the app: the set-up
form offers it, a session runs with it, the export downloads."""

from __future__ import annotations

import dataclasses
import json
import sys
import types
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from bidbox import report_cmd
from laws import Deal
from laws.lin import loads as load_lin
from server.link.rounds import start_round
from server.outputs import handrecords, publish
from server.pages import console_scoring
from server.scoring import standings
from server.services import Services
from server.setup.movements import KINDS, MovementKind, check_kinds, movement, scramble_rounds
from server.setup.scorings import ENTRIES, Method, Scoring, ScoringEntry, check_entries
from server.setup.session import Session, deals_of
from server.storage import schema
from tablemodel.rulings import KINDS as RULING_KINDS
from tablemodel.rulings import Effect
from tablemodel.rulings import check_kinds as check_ruling_kinds
from tablemodel.texts import Words
from tablemodel.wire import Event, table_topic
from tests.server.conftest import EVENT

Director = tuple[FlaskClient, str]


# -- checked when the modules load -----------------------------------------------------------

def test_a_movement_kind_missing_a_field_cannot_be_made() -> None:
    fields: dict[str, Any] = {f.name: getattr(KINDS["howell"], f.name)
                              for f in dataclasses.fields(MovementKind)}
    del fields["usebio"]
    with pytest.raises(TypeError, match="usebio"):
        MovementKind(**fields)


@pytest.mark.parametrize(("change", "why"), [
    ({"words": Words(es="Howell", en="")}, "not whole"),
    ({"scorings": ()}, "not whole"),
    ({"usebio": "PAIRS_AND_TEAMS"}, "no USEBIO event"),
    ({"live_vugraph": True}, "shown live"),
])
def test_a_movement_kind_that_is_not_whole_fails_the_check(change: dict[str, Any],
                                                           why: str) -> None:
    broken = dataclasses.replace(KINDS["howell"], **change)
    with pytest.raises(AssertionError, match=why):
        check_kinds({**KINDS, "howell": broken})
    with pytest.raises(AssertionError, match="not whole"):  # filed under another's name
        check_kinds({**KINDS, "howell": KINDS["mitchell"]})


def test_a_scoring_missing_from_the_table_fails_the_check() -> None:
    with pytest.raises(AssertionError, match="butler_mean"):
        check_entries({s: e for s, e in ENTRIES.items() if s is not Scoring.BUTLER_MEAN})
    with pytest.raises(AssertionError, match="penalty units"):
        check_entries({**ENTRIES, Scoring.MP: dataclasses.replace(ENTRIES[Scoring.MP],
                                                                  penalty_units=())})


def test_a_scoring_entry_missing_a_field_cannot_be_made() -> None:
    with pytest.raises(TypeError, match="counted_in"):
        ScoringEntry(Words(es="x", en="x"), Method.MP, "MP", "MATCH_POINTS",  # type: ignore[call-arg]
                     ("mp",))
    with pytest.raises(AssertionError, match="pbn"):
        ScoringEntry(Words(es="x", en="x"), Method.MP, "", "MATCH_POINTS", ("mp",), "mp")


def test_a_ranked_scoring_without_a_scorer_fails_the_check() -> None:
    with pytest.raises(AssertionError, match="butler_mean"):
        standings.check_scorers({s: f for s, f in standings.SCORERS.items()
                                 if s is not Scoring.BUTLER_MEAN})
    with pytest.raises(AssertionError, match="club"):
        standings.check_scorers({**standings.SCORERS, Scoring.CLUB: standings.SCORERS[
            Scoring.MP]})


def test_the_scorer_table_missing_a_scoring_fails_when_its_module_loads(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The module's own text, less one scorer, run as a module: the import fails."""
    path = Path(standings.__file__)
    text = path.read_text(encoding="utf-8")
    line = "    Scoring.BUTLER_MEAN: lambda _: lambda results: fs.butler(results, \"mean\"),\n"
    assert text.count(line) == 1
    module = types.ModuleType("standings_less_one")
    monkeypatch.setitem(sys.modules, module.__name__, module)  # as an import would
    with pytest.raises(AssertionError, match="scorings without a scorer: \\['butler_mean'\\]"):
        exec(compile(text.replace(line, ""), str(path), "exec"), module.__dict__)


def test_every_pairs_movement_offers_every_pairs_scoring() -> None:
    pairs_scorings = tuple(s for s in Scoring if ENTRIES[s].pairs_field)
    assert Scoring.BUTLER_MEAN in pairs_scorings
    assert KINDS["scrambled_mitchell"].scorings == pairs_scorings == KINDS["howell"].scorings


def test_export_formats_are_checked() -> None:
    lin = publish.FORMATS["lin"]
    with pytest.raises(AssertionError, match="not whole"):
        publish.check_formats({**publish.FORMATS, "lin": dataclasses.replace(lin, extension="")})
    with pytest.raises(AssertionError, match="site_file"):
        publish.check_formats({**publish.FORMATS, "lin": dataclasses.replace(
            lin, site_file="results.pbn")})


def test_dealing_files_are_one_registry_the_console_and_the_command_line_follow() -> None:
    assert report_cmd.DEALING == tuple(handrecords.DEALING_FILES)
    assert [args for endpoint, args, _ in console_scoring.DOWNLOADS
            if endpoint == "scoring.dealing_file"] == [
        {"extension": form.extension} for form in handrecords.DEALING_FILES.values()]
    dup = handrecords.DEALING_FILES["dup"]
    with pytest.raises(AssertionError, match="share an extension"):
        handrecords.check_dealing_files({**handrecords.DEALING_FILES, "dup": dataclasses.replace(
            dup, extension="pbn")})
    with pytest.raises(AssertionError, match="not whole"):
        handrecords.check_dealing_files({**handrecords.DEALING_FILES, "dup": dataclasses.replace(
            dup, content_type="")})


def test_a_ruling_kind_says_its_server_side_effect() -> None:
    effects = {name: kind.effect for name, kind in RULING_KINDS.items()
               if kind.effect is not Effect.NONE}
    assert effects == {"score": Effect.SCORE, "director_ack": Effect.ACKNOWLEDGE}
    boardless = dataclasses.replace(RULING_KINDS["end_round"], effect=Effect.SCORE)
    with pytest.raises(AssertionError, match="needs no board"):
        check_ruling_kinds({**RULING_KINDS, "end_round": boardless})


# -- the scrambled Mitchell ------------------------------------------------------------------

@pytest.mark.parametrize(("rounds", "switched"), [
    (1, (1,)), (3, (2,)), (5, (3,)), (6, (3, 4)), (9, (4, 5)), (10, (4, 5, 6)),
    (13, (6, 7, 8)), (14, (6, 7, 8, 9))])
def test_the_scrambled_mitchell_switches_about_one_round_in_four_in_the_middle(
        rounds: int, switched: tuple[int, ...]) -> None:
    assert scramble_rounds(rounds) == switched


def test_the_scrambled_mitchell_by_hand() -> None:
    """Seven tables: the Mitchell's seatings, but in rounds 3 and 4 every table turns its
    boards, so the EW pair plays them North-South; one ranking, no NS or EW group."""
    plain = movement("mitchell", 14, 2)
    plan = movement("scrambled_mitchell", 14, 2)
    assert (plan.kind, plan.tables, plan.rounds) == ("scrambled_mitchell", 7, 7)
    assert {p.group for p in plan.participants} == {""}
    for before, after in zip(plain.seatings, plan.seatings, strict=True):
        if before.round in (3, 4):
            assert (after.ns, after.ew, after.switched) == (before.ew, before.ns, True)
        else:
            assert after == before
        assert after.boards == before.boards


def _compared(plan: Any) -> set[frozenset[int]]:
    """The pairs whose scores are compared on some board: they held the same cards."""
    lines: dict[tuple[int, str], set[int]] = defaultdict(set)
    for s in plan.seatings:
        for board in s.boards if not s.sit_out else ():
            lines[board, "ns"].add(s.ns)
            lines[board, "ew"].add(s.ew)
    return {frozenset((a, b)) for line in lines.values() for a in line for b in line if a != b}


@pytest.mark.parametrize("pairs", range(12, 41))
def test_from_six_tables_every_pair_is_compared_with_every_other(pairs: int) -> None:
    """What makes it one field: a plain Mitchell compares no NS pair with an EW pair."""
    plan = movement("scrambled_mitchell", pairs, 2)
    real = [p.number for p in plan.participants if not p.phantom]
    everyone = {frozenset((a, b)) for a in real for b in real if a != b}
    assert _compared(plan) == everyone
    assert _compared(movement("mitchell", pairs, 2)) < everyone


@pytest.mark.parametrize("pairs", range(5, 41))
def test_every_pair_plays_both_directions_unless_it_sits_out_the_switch(pairs: int) -> None:
    plan = movement("scrambled_mitchell", pairs, 2)
    for p in plan.participants:
        if p.phantom:
            continue
        mine = [s for s in plan.seatings if p.number in (s.ns, s.ew)]
        sides = {"ns" if s.ns == p.number else "ew" for s in mine if not s.sit_out}
        rested_at_switch = any(s.sit_out and s.switched for s in mine) or any(
            s.sit_out and s.round in scramble_rounds(plan.rounds) for s in mine)
        assert sides == {"ns", "ew"} or rested_at_switch


# -- through the app: set up, run, score, export ----------------------------------------------

def _services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


def _page(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


#: Board 1 (nobody vulnerable) at the five tables that play it, as NS scores.
_RESULTS = [("3NT", "S", 9, 400), ("3NT", "S", 10, 430), ("4S", "S", 10, 420),
            ("3NT", "S", 7, -100), ("7NT", "S", 13, 1520)]


def _set_up(app: Flask, director: Director) -> Session:
    client, token = director
    text = _page(client, "/console/")
    assert "Mitchell con cambio de línea (un solo ganador)" in text
    assert "Butler (dato: la media de todas las marcas)" in text
    response = client.post("/console/setup", data={
        "csrf": token, "title": "Jueves", "movement": "scrambled_mitchell",
        "participants": "10", "boards_per_round": "2", "scoring": "butler_mean", "seed": "7"})
    assert response.status_code == 302
    session = _services(app).session
    assert session is not None
    assert (session.movement, session.scoring, session.tables) == (
        "scrambled_mitchell", Scoring.BUTLER_MEAN, 5)
    for seq, (seating, (contract, declarer, tricks, score)) in enumerate(
            zip(session.plan.schedule(1), _RESULTS, strict=True), start=1):
        outcome = _services(app).ingest(
            table_topic(EVENT, seating.table, "events"),
            Event(seq, "result", 1_000.0 + seq, 1, {
                "contract": contract, "declarer": declarer, "tricks": tricks,
                "score_ns": score}).to_payload())
        assert outcome.rejected is None, outcome.rejected
    return session


def test_a_scrambled_mitchell_scored_in_butler_against_the_mean_runs(
        app: Flask, director: Director) -> None:
    """Board 1's datum is the mean of its five scores, 534 to 530 (Butler's trimmed datum
    would leave out -100 and 1520: 420); 3NT making, 400, is 130 below: -4 IMPs (Law 78B)."""
    session = _set_up(app, director)
    field = standings.field(_services(app).db, session, public=False)
    assert field.method is Method.IMPS
    by_score = {line.result.score_ns: line.ns for line in field.scored[1]}
    assert by_score == {400: -4, 430: -3, 420: -3, -100: -12, 1520: 14}
    # One field: the switched round's table ranks its pairs with everyone else's.
    assert {standing.group for standing in field.standings} == {""}
    switched = [s for s in session.plan.schedule(1) if s.switched]
    assert len(switched) == 1
    assert {switched[0].ns, switched[0].ew} <= {st.participant for st in field.standings}
    # The switched round (the third of five) reaches every table with its switch.
    db = _services(app).db
    for number in (2, 3):
        start_round(db, session, number)
    with db.read() as conn:
        sent = [json.loads(row.data) for row in conn.execute(
            select(schema.commands).where(schema.commands.c.type == "assign")).all()]
    assert {(data["round"], data.get("switch", False)) for data in sent} == {
        (2, False), (3, True)}


def test_the_lin_export_downloads_every_table_result(app: Flask, director: Director) -> None:
    session = _set_up(app, director)
    client, _ = director
    response = client.get("/console/export/lin")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == f'attachment; filename="{EVENT}.lin"'
    records = load_lin(response.get_data(as_text=True))
    assert [record.board for record in records] == [1] * len(_RESULTS)
    deal = Deal.from_pbn(deals_of(_services(app).db, session)[1])
    assert all(record.deal == deal for record in records)
    names = {record.tags["North"] for record in records}
    assert len(names) == len(_RESULTS)  # each table's own pair
    assert "results.lin" in publish.pages(_services(app).db, session)
    assert "LIN (BBO)" in _page(client, "/console/results")
