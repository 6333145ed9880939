"""The hand viewer (issue 31): every table's play of a released board, each card analysed
double dummy in the background, the tricks each card gave away, the pairs' totals, and the
pages of the live results and of the static site.

A session of 18 real results (tests/server/test_exports.py's: the qualifier's records, or the
golden pairs session) is played card by card through ingest, on an app that analyses."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from laws import Card, Seat, Strain
from laws.pbn import load_path
from server.link.rounds import create_session
from server.outputs import playanalysis, publish
from server.outputs.playanalysis import PlayAnalysis
from server.scoring.analysis import analyse
from server.scoring.standings import all_results, released_boards
from server.setup.session import Session, deals_of, set_names
from tests.records import played_pbn
from tests.server.conftest import EVENT, make_app, services
from tests.server.test_exports import FIRST_BOARD, play_session

pytest.importorskip("endplay")


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, Session]]:
    """An analysing app whose session's 18 results were played card by card; every board
    released, every play analysed in the background (waited for, bounded)."""
    app = make_app(str(tmp_path_factory.mktemp("hands") / "bidbox.db"), ANALYSIS=True)
    db = services(app).db
    session = played_session(app)
    services(app).hub.notify({"results"})
    wanted = sum(1 for row in all_results(db, session) if row.contract not in (None, "Pass"))
    deadline = time.monotonic() + 120
    seen = services(app).hub.version
    while len(playanalysis.stored(db, session)) < wanted:
        left = deadline - time.monotonic()
        assert left > 0, "the released boards' play was never analysed"
        seen = services(app).hub.wait(seen, min(left, 5.0)).version
    yield app, session
    services(app).close()


def played_session(app: Flask) -> Session:
    """The session played card by card, every board released."""
    db = services(app).db
    records = load_path(played_pbn())
    deals = {r.board: r.deal.to_pbn() for r in records if r.board and r.deal}
    session = create_session(db, event=EVENT, title="Club", kind="mitchell", participants=6,
                             boards_per_round=2, first_board=FIRST_BOARD, deals=deals)
    set_names(db, session, {1: "Ana Ruiz & Luis Gil"})
    play_session(services(app).ingest, session, records)
    return session


def test_every_played_board_is_analysed_card_by_card_in_the_background(
        room: tuple[Flask, Session]) -> None:
    app, session = room
    db = services(app).db
    assert released_boards(db, session) == set(session.plan.boards())
    deals = deals_of(db, session)
    rows = {(r.table, r.board): r for r in all_results(db, session)}
    analyses = playanalysis.stored(db, session)
    assert analyses
    for (table, board), found in analyses.items():
        row = rows[(table, board)]
        assert str(found.declarer) == row.declarer
        # Before the lead: what the solver's own table says declarer makes in the strain.
        table_of = analyse(deals[board], board).tricks
        assert found.cards[0].before == table_of[str(found.strain)][str(found.declarer)]
        # Each card starts where the one before ended.
        assert all(a.after == b.before for a, b in zip(found.cards, found.cards[1:],
                                                        strict=False))
        if len(found.cards) == 52:  # played out: the last figure is the tricks made
            assert found.cards[-1].after == row.tricks
        # What was given away adds up: the start's tricks less the end's is declarer's
        # side's gifts less the defence's.
        declaring, defending = found.given_away()
        assert found.cards[0].before - found.cards[-1].after == declaring - defending


def test_a_card_that_gives_a_trick_away_is_its_players_by_hand() -> None:
    """Declarer's side's tricks fall after a declarer's card: that card gave them; they rise
    after a defender's card: the defender's card gave them."""
    cards = (
        playanalysis.CardPlayed(Seat.E, Card.from_str("SA"), 9, 9),  # the lead, nothing lost
        playanalysis.CardPlayed(Seat.S, Card.from_str("S2"), 9, 8),  # dummy's: declarer -1
        playanalysis.CardPlayed(Seat.W, Card.from_str("S3"), 8, 10),  # defender: +2 to NS
        playanalysis.CardPlayed(Seat.N, Card.from_str("S4"), 10, 10))
    found = PlayAnalysis(Seat.N, Strain.NT, cards)
    assert [c.given_away(Seat.N) for c in cards] == [0, 1, 2, 0]
    assert found.given_away() == (1, 2)
    assert PlayAnalysis.from_json(found.to_json()) == found


def test_the_pairs_totals_add_each_tables_gifts_to_the_right_pair(
        room: tuple[Flask, Session]) -> None:
    app, session = room
    db = services(app).db
    rows = all_results(db, session)
    analyses = playanalysis.stored(db, session)
    totals = playanalysis.summary(rows, analyses)
    expected: dict[int, list[int]] = {}
    for row in rows:
        found = analyses.get((row.table, row.board))
        if found is None:
            continue
        declaring, defending = found.given_away()
        ns = row.declarer in ("N", "S")
        assert row.ns_pair is not None and row.ew_pair is not None
        by, against = (row.ns_pair, row.ew_pair) if ns else (row.ew_pair, row.ns_pair)
        expected.setdefault(by, [0, 0, 0])[0] += declaring
        expected.setdefault(against, [0, 0, 0])[1] += defending
        expected[by][2] += 1
        expected[against][2] += 1
    assert {pair: list(v) for pair, v in totals.items()} == expected


def test_the_live_page_shows_every_tables_play_once_released(
        room: tuple[Flask, Session]) -> None:
    app, session = room
    client = app.test_client()
    board = FIRST_BOARD
    page = client.get(f"/board/{board}/hands?lang=es").get_data(as_text=True)
    rows = [r for r in all_results(services(app).db, session) if r.board == board]
    assert page.count('<section class="play"') == len(rows)
    assert "Bazas regaladas en el carteo: carteador" in page
    assert 'id="plays" type="application/json"' in page and "handviewer.js" in page
    assert f'href="/board/{board}/hands"' in client.get(f"/board/{board}").get_data(
        as_text=True)
    summary = client.get("/hands?lang=en").get_data(as_text=True)
    assert "Tricks given away in play" in summary and "Ana Ruiz &amp; Luis Gil" in summary
    assert client.get("/board/99/hands").status_code == 404


def test_the_static_site_carries_the_viewer(room: tuple[Flask, Session],
                                            tmp_path: Path) -> None:
    app, session = room
    written = publish.write_site(services(app).db, session, tmp_path)
    assert (tmp_path / "handviewer.js") in written and (tmp_path / "handviewer.css") in written
    page = (tmp_path / "en" / f"hands-{FIRST_BOARD}.html").read_text(encoding="utf-8")
    assert 'src="../handviewer.js"' in page and "Tricks given away in play: declarer" in page
    assert "hands.html" in (tmp_path / "en" / "index.html").read_text(encoding="utf-8")
    assert f"hands-{FIRST_BOARD}.html" in (
        tmp_path / "es" / f"board-{FIRST_BOARD}.html").read_text(encoding="utf-8")
