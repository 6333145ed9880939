"""Table cards and guide cards (issue 31): what each table and each pair is told, round by
round, for the movement set up, checked against the movement itself; and the PDF from the
console in the club's language (read back with pdftotext)."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from server.link.rounds import create_session
from server.outputs import report
from server.outputs.report.cards import guide_cards, table_cards
from tests.server.conftest import EVENT, login, services
from tests.server.test_printouts import needs_poppler, pdf_text


def test_a_share_and_relay_mitchell_s_cards_follow_the_movement(app: Flask) -> None:
    session = create_session(services(app).db, event=EVENT, title="Jueves",
                             kind="mitchell_relay", participants=16, boards_per_round=3, seed=1)
    plan = session.plan
    cards = {card.table: card for card in table_cards(session)}
    assert sorted(cards) == list(range(1, 9))
    for card in cards.values():
        for row in card.rounds:
            seating = plan.at(row.round, card.table)
            assert (row.ns, row.ew) == (seating.ns, seating.ew)
            assert row.boards == f"{seating.boards[0]}-{seating.boards[-1]}"
            last = row.round == plan.rounds
            assert row.next_ns.stays != last and row.next_ns.table is None  # NS stay
            assert row.next_ew.table == (None if last else str(card.table % 8 + 1))
    # Table 5's boards rest on the relay stand, then go to table 4 (but after round 7, when
    # they are not played again); table 4's go to table 3.
    assert all(r.next_boards.relay and r.next_boards.table == "4" for r in cards[5].rounds[:6])
    assert cards[5].rounds[6].next_boards.table is None
    assert not any(r.next_boards.relay for r in cards[4].rounds)
    guides = {card.participant: card for card in guide_cards(session)}
    assert len(guides) == 16
    ew = guides[9]  # "1 EW": moves up a table each round
    assert [r.table for r in ew.rounds] == [str(t) for t in range(1, 9)]
    assert all(r.side == "EW" and r.opponents == (int(r.table or 0),) for r in ew.rounds)


def test_the_appendix_mitchell_s_half_table_pair_sits_out_once(app: Flask) -> None:
    session = create_session(services(app).db, event=EVENT, title="Viernes",
                             kind="mitchell_appendix", participants=11, boards_per_round=2,
                             seed=1)
    guides = {card.participant: card for card in guide_cards(session)}
    half = guides[12]  # EW 6, the half table's pair: starts at the sit-out table
    assert half.rounds[0].table is None and half.rounds[1].table == "1"
    # table 5, the appendix, plays table 1's boards every round
    cards = {card.table: card for card in table_cards(session)}
    assert [r.boards for r in cards[5].rounds] == [r.boards for r in cards[1].rounds]


def test_the_individual_s_cards_name_each_seat(app: Flask) -> None:
    session = create_session(services(app).db, event=EVENT, title="Individual",
                             kind="individual", participants=4, boards_per_round=4, seed=1)
    [card] = table_cards(session)
    assert [r.players for r in card.rounds] == [(3, 1, 4, 2), (4, 1, 2, 3), (2, 1, 3, 4)]
    player_one = next(c for c in guide_cards(session) if c.participant == 1)
    assert [r.side for r in player_one.rounds] == ["S", "S", "S"]  # seed 004: player 1 South
    assert player_one.rounds[0].opponents == (3, 4, 2)
    text = report.cards_html(services(app).db, session, "es")
    assert "Sur" in text and "Oeste" in text


@needs_poppler
def test_the_console_prints_the_cards_in_the_club_s_language(
        app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    create_session(services(app).db, event=EVENT, title="Martes", kind="mitchell",
                   participants=10, boards_per_round=2, seed=3)
    login(client)
    assert "Tarjetas de mesa y de pareja (PDF)" in client.get(
        "/console/scoring").get_data(as_text=True)
    text = pdf_text(client.get("/console/table-cards.pdf?language=es").data, tmp_path)
    assert "Mesa 1" in text and "Tarjeta de 3 EO" in text and "Los tableros van a" in text
    assert "descansa" not in text  # ten pairs: nobody sits out
