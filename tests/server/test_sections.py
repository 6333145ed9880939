"""Sections and the arrow-switch (issue 17): each section its own movement on its own tables,
numbered on through the session; a board scored within its section or across the field; a
one-winner Mitchell that switches arrows. The expected rankings are worked out here from Law
78A and Neuberg's formula, not with server/scoring/fieldscore.py."""

from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest
from flask import Flask
from sqlalchemy import insert, select

from server.link.rounds import create_session, start_round
from server.scoring.standings import all_results, field
from server.setup.movements import (
    PHANTOM,
    MovementError,
    Section,
    Sectioned,
    arrow_switched,
    mitchell,
    section_letters,
    sectioned,
)
from server.setup.session import SessionError, current
from server.storage import schema as s
from tablemodel.wire import Command
from tests import handscore
from tests.handscore import Played
from tests.server.conftest import EVENT, services

A_MITCHELL = Section("A", "mitchell", 16, 2, arrow_rounds=(8,))
B_HOWELL = Section("B", "howell", 12, 2, rounds=8)


def test_sections_number_tables_and_pairs_on_through_the_session() -> None:
    plan = sectioned([A_MITCHELL, B_HOWELL])
    assert isinstance(plan, Sectioned)
    assert plan.tables == 8 + 6 and plan.rounds == 8
    numbers = [p.number for p in plan.participants]
    assert len(numbers) == len(set(numbers)) == 16 + 12
    assert [plan.table_label(t) for t in (1, 8, 9, 14)] == ["A1", "A8", "B1", "B6"]
    with pytest.raises(MovementError):
        plan.table_label(15)
    for seat in plan.seatings:
        section = plan.section_of_table(seat.table)[0].letter
        # A section's pairs play only at its own tables, and only its boards' numbers.
        assert {plan.section_of(seat.ns), plan.section_of(seat.ew)} <= {section}
        assert seat.next_ns is None or plan.section_of_table(seat.next_ns)[0].letter == section
    labels = {p.number: p.label for p in plan.participants}
    assert labels[1] == "A1 NS" and labels[17] == "B1"
    groups = {p.group for p in plan.participants}
    assert groups == {"A", "B"}  # A switches arrows: one winner; a Howell has one anyway


def test_the_arrow_switch_turns_the_chosen_rounds_only() -> None:
    plain = mitchell(16, 2)
    switched = arrow_switched(plain, [7, 8])
    for before, after in zip(plain.seatings, switched.seatings, strict=True):
        if before.round in (7, 8):
            assert (after.ns, after.ew, after.switched) == (before.ew, before.ns, True)
            assert after.boards == before.boards
        else:
            assert after == before
    # Every pair sits both ways: one ranking for the field.
    directions = defaultdict(set)
    for seat in switched.seatings:
        directions[seat.ns].add("NS")
        directions[seat.ew].add("EW")
    assert all(d == {"NS", "EW"} for d in directions.values())
    with pytest.raises(MovementError, match="rounds 1 to 8"):
        arrow_switched(plain, [9])
    with pytest.raises(MovementError, match="for a Mitchell"):
        Section("C", "howell", 8, 2, arrow_rounds=(1,)).plan()
    with pytest.raises(MovementError, match="same letter"):
        sectioned([A_MITCHELL, Section("A", "howell", 8, 2)])


def test_section_letters_go_on_past_z() -> None:
    letters = section_letters(40)
    assert letters[:3] == ["A", "B", "C"] and letters[25:28] == ["Z", "AA", "AB"]
    assert len(set(letters)) == 40


def test_a_session_of_sections_is_stored_and_its_tables_told_their_names(app: Flask) -> None:
    db = services(app).db
    made = create_session(db, event=EVENT, title="Two sections", kind="mitchell",
                          participants=0, boards_per_round=0,
                          sections=[A_MITCHELL, B_HOWELL], seed=5)
    again = current(db, EVENT)
    # Stored with the rounds the movement plays: A's 8 were "as many as it has".
    assert again == made and again.sections == (
        Section("A", "mitchell", 16, 2, rounds=8, arrow_rounds=(8,)), B_HOWELL)
    assert made.movement == "sections" and made.tables == 14 and made.participants == 28
    assert made.table_label(10) == "B2" and made.section_of_table(3) == "A"
    sent = {}
    for number in (1, 8):
        start_round(db, made, number)
    with db.read() as conn:
        for row in conn.execute(select(s.commands)).all():
            command = Command.from_payload(Command(row.id, "assign", json.loads(row.data))
                                           .to_payload())  # valid on the wire
            sent[(command.data["round"], row.table_no)] = command.data
    assert sent[(1, 9)]["label"] == "B1" and sent[(1, 9)]["section"] == "B"
    assert "switch" not in sent[(1, 1)] and sent[(8, 1)]["switch"] is True
    seat = made.plan.at(8, 1)
    assert (sent[(8, 1)]["ns"], sent[(8, 1)]["ew"]) == (seat.ns, seat.ew) == (
        mitchell(16, 2).at(8, 1).ew, 1)
    with pytest.raises(SessionError, match="scope"):
        create_session(db, event="other", title="x", kind="mitchell", participants=0,
                       boards_per_round=0, sections=[A_MITCHELL], scope="room")


@pytest.mark.parametrize("scope", ["section", "field"])
def test_rankings_within_sections_and_across_the_field(app: Flask, scope: str) -> None:
    db = services(app).db
    sections = [Section("A", "mitchell", 10, 2), Section("B", "howell", 8, 2, rounds=5)]
    session = create_session(db, event=EVENT, title="Scored", kind="", participants=0,
                             boards_per_round=0, sections=sections, scope=scope, seed=1)
    plan = session.plan
    assert isinstance(plan, Sectioned)
    rng = random.Random(17)
    rows = [(seat.table, board, seat.ns, seat.ew, rng.choice([-200, -100, 110, 140, 420, 620]))
            for seat in plan.seatings if PHANTOM not in (seat.ns, seat.ew)
            for board in seat.boards]
    # Both sections play boards 1 to 10; only the Mitchell plays nothing else: the field
    # scope compares 5 + 4 results of a board, with Neuberg where a board has fewer.
    with db.write() as conn:
        conn.execute(insert(s.results), [
            {"event": EVENT, "table_no": t, "board": b, "round": 1, "ns": ns, "ew": ew,
             "contract": "1NT", "declarer": "N", "tricks": 7, "score_ns": score,
             "source_seq": 1, "finished_at": 1.0} for t, b, ns, ew, score in rows])
    assert {r.section for r in all_results(db, session)} == {"A", "B"}
    got: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for standing in field(db, session, public=False).standings:
        assert standing.percent is not None
        got[standing.group].append((standing.participant, standing.percent))
    groups = {p.number: p.group if scope == "section" else p.group.partition(" ")[2]
              for p in plan.participants}
    want = handscore.rankings([Played(*row) for row in rows], groups,
                              lambda row: plan.section_of_table(row.table)[0].letter
                              if scope == "section" else "")
    assert set(got) == set(want)
    for group, ranking in want.items():
        assert [p for p, _ in got[group]] == [p for p, _ in ranking], group
        assert [round(pc, 6) for _, pc in got[group]] == [round(pc, 6) for _, pc in ranking]


def test_sections_may_be_named_after_clubs() -> None:
    """At a centre (issue 19) each club is a section: its name runs before the numbers."""
    plan = sectioned([Section("bilbao", "mitchell", 6, 2), Section("madrid", "howell", 4, 2)])
    assert isinstance(plan, Sectioned)
    assert plan.table_label(1) == "bilbao-1" and plan.table_label(4) == "madrid-1"
    assert plan.table_of("madrid", 2) == 5 and plan.table_of("bilbao", 3) == 3
    with pytest.raises(MovementError, match="tables 1 to 2"):
        plan.table_of("madrid", 3)
    with pytest.raises(MovementError, match="no section 'sevilla'"):
        plan.table_of("sevilla", 1)
    labels = {p.number: (p.label, p.group) for p in plan.participants}
    assert labels[1] == ("bilbao-1 NS", "bilbao NS") and labels[7] == ("madrid-1", "madrid")
    for bad in ("", "a b", "x" * 17, "-a"):
        with pytest.raises(MovementError, match="section's name"):
            Section(bad, "howell", 4, 2).plan()


def test_the_console_sets_up_sections_named_after_clubs(app: Flask) -> None:
    """The set-up form as a centre's director fills it: the clubs' sections, named, scored
    across the field; a wrong count of names is refused and nothing is made."""
    from tests.server.conftest import login

    client = app.test_client()
    token = login(client)
    form = {"csrf": token, "title": "Simultáneo", "movement": "mitchell", "participants": "8",
            "boards_per_round": "2", "seed": "4", "section_movement-1": "howell",
            "section_pairs-1": "6", "section_movement-2": "mitchell", "section_pairs-2": "10",
            "scope": "field"}
    refused = client.post("/console/setup?lang=en", data={
        **form, "section_names": "bilbao, madrid"})
    assert refused.status_code == 400 and "2 names for 3 sections" in refused.get_data(
        as_text=True)
    assert services(app).session is None
    made = client.post("/console/setup", data={**form, "section_names": "bilbao, madrid, sevilla"})
    assert made.status_code == 302
    session = services(app).session
    assert session is not None and session.scope == "field"
    assert [(s.letter, s.kind, s.pairs) for s in session.sections] == [
        ("bilbao", "mitchell", 8), ("madrid", "howell", 6), ("sevilla", "mitchell", 10)]
    assert session.table_label(5) == "madrid-1"
