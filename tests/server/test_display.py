"""The live results display (server/pages/display.py) through Flask's test client, no browser.

The release rule first: a board's results, traveller and hand record appear on the public
pages and in the public API only once every table scheduled to play it has finished it, or
the director released it. Then the stream, the chart, the hand record and the languages.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import update

from laws import Board, Deal, Seat, parse_contract
from laws.scoring import score_ns
from server.link.rounds import create_session
from server.pages.display import frequency
from server.scoring import standings
from server.scoring.analysis import Analyser, Analysis
from server.services import Services
from server.setup.movements import PHANTOM
from server.setup.session import Session, deals_of
from server.storage import schema as s
from tablemodel import words as bridge
from tablemodel.wire import Event, table_topic

EVENT = "test"  # tests/server/conftest.py's event
PUBLIC_PAGES = ("/", "/?lang=en", "/api/v1/results", "/api/v1/rankings")


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


class Room:
    """The session's tables, publishing through ingest as the bus would: each table's first
    event of a round is its ``assign``, then a lead and the result of each board."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.session = create_session(services(app).db, event=EVENT, title="Martes",
                                      kind="mitchell", participants=6, boards_per_round=2,
                                      seed=1)
        self.seq: dict[int, int] = defaultdict(int)
        self.assigned: set[tuple[int, int]] = set()

    def send(self, table: int, kind: str, board: int | None, data: dict[str, Any]) -> None:
        self.seq[table] += 1
        event = Event(self.seq[table], kind, 1_700_000_000.0 + self.seq[table], board, data)
        outcome = services(self.app).ingest(table_topic(EVENT, table, "events"),
                                            event.to_payload())
        assert outcome.rejected is None, outcome.rejected
        services(self.app).hub.notify(outcome.changed)

    def tables(self, board: int) -> list[Any]:
        """Where the movement plays ``board``: one seating per table, sit-outs left out."""
        return [seat for seat in self.session.plan.schedule(board)
                if PHANTOM not in (seat.ns, seat.ew)]

    def play(self, table: int, board: int, contract: str, declarer: str | None,
             tricks: int | None, lead: str | None = None) -> int:
        seating = next(seat for seat in self.tables(board) if seat.table == table)
        if (table, seating.round) not in self.assigned:
            self.assigned.add((table, seating.round))
            self.send(table, "assign", None, {
                "cmd": f"assign-{EVENT}-r{seating.round}-t{table}", "round": seating.round,
                "ns": seating.ns, "ew": seating.ew, "boards": list(seating.boards)})
        if lead is not None:
            self.send(table, "card", board, {"seat": "W", "card": lead})
        score = score_ns(parse_contract(contract), Seat.from_str(declarer) if declarer else None,
                         tricks, Board(board).vulnerability)
        self.send(table, "result", board, {"contract": contract, "declarer": declarer,
                                           "tricks": tricks, "score_ns": score})
        return score

    def play_all_but_one(self, board: int, contract: str, declarer: str,
                         tricks: int) -> int:
        """Every scheduled table but the last plays ``board``; the last table's number."""
        tables = [seat.table for seat in self.tables(board)]
        for table in tables[:-1]:
            self.play(table, board, contract, declarer, tricks)
        return tables[-1]


@pytest.fixture
def room(app: Flask) -> Room:
    return Room(app)


def text(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code in (200, 404), (path, response.status_code)
    return response.get_data(as_text=True)


def every_public_text(client: FlaskClient, session: Session) -> str:
    paths = [*PUBLIC_PAGES, *(f"/board/{b}" for b in session.plan.boards()),
             *(f"/board/{b}?lang=en" for b in session.plan.boards())]
    return "\n".join(text(client, path) for path in paths)


# -- the release rule -----------------------------------------------------------------------

def test_a_board_is_shown_only_once_every_scheduled_table_finished_it(
        client: FlaskClient, room: Room) -> None:
    assert len(room.tables(1)) > 1
    last = room.play_all_but_one(1, "4H", "S", 10)

    assert client.get("/board/1").status_code == 404
    assert client.get("/api/v1/results").get_json()["results"] == []
    assert client.get("/api/v1/rankings").get_json()["rankings"] == []
    page = text(client, "/")
    assert 'id="board-1"' not in page and "♥" not in page

    room.play(last, 1, "4H", "S", 10, lead="DK")

    api = client.get("/api/v1/results").get_json()
    assert api["released"] == [1]
    assert [(r["board"], r["contract"]) for r in api["results"]] == [
        (1, "4H")] * len(room.tables(1))
    rankings = client.get("/api/v1/rankings").get_json()["rankings"]
    assert {r["boards"] for r in rankings} == {1}
    page = text(client, "/")
    assert 'id="board-1"' in page and "♥" in page
    board = client.get("/board/1")
    assert board.status_code == 200
    html = board.get_data(as_text=True)
    assert html.count('<tr data-table="') == len(room.tables(1))
    assert 'aria-label="diamantes">♦</span>K' in html  # the last table's lead


def test_an_unreleased_board_is_in_no_public_page_nor_api(client: FlaskClient,
                                                          room: Room) -> None:
    for seat in room.tables(1):
        room.play(seat.table, 1, "3NT", "N", 9)
    room.play_all_but_one(2, "6CX", "E", 12)  # board 2: one table still to play it
    unreleased = standings.all_results(services(client.application).db, room.session)
    score = next(r.score_ns for r in unreleased if r.board == 2)
    assert score == -1090

    everything = every_public_text(client, room.session)
    for needle in ("6CX", "6♣", "1090", 'id="board-2"', '"board": 2', '"board":2'):
        assert needle not in everything, needle
    assert client.get("/board/2").status_code == 404
    hidden = text(client, "/board/2")  # nor its hand record, nor its chart
    assert 'class="hand' not in hidden and "holding" not in hidden and "<svg" not in hidden
    rankings = client.get("/api/v1/rankings").get_json()["rankings"]
    assert {r["boards"] for r in rankings} == {1}  # board 2 counts for nobody yet
    # and what is released is there
    assert 'id="board-1"' in everything and "3ST" in everything and "3NT" in everything


def test_the_director_releases_a_board_before_the_last_table(client: FlaskClient,
                                                             room: Room) -> None:
    room.play_all_but_one(3, "2S", "W", 8)
    assert client.get("/board/3").status_code == 404

    standings.release(services(client.application).db, room.session, 3, "director")
    services(client.application).hub.notify({"results"})

    assert client.get("/board/3").status_code == 200
    assert client.get("/api/v1/results").get_json()["released"] == [3]
    assert 'id="board-3"' in text(client, "/")


def test_a_board_page_for_no_such_board_or_no_session(client: FlaskClient, app: Flask) -> None:
    assert client.get("/board/1").status_code == 404
    assert "sesión" in text(client, "/")
    Room(app)
    response = client.get("/board/99")
    assert response.status_code == 404
    assert "99" in response.get_data(as_text=True)


# -- the live stream ------------------------------------------------------------------------

def test_the_stream_says_hello_then_each_change_of_results(client: FlaskClient,
                                                           app: Flask) -> None:
    response = client.get("/live/stream", buffered=False)
    try:
        assert response.status_code == 200
        assert response.mimetype == "text/event-stream"
        assert response.headers["Cache-Control"] == "no-cache"
        assert response.headers["X-Accel-Buffering"] == "no"
        chunks = iter(response.response)
        first = next(chunks)
        assert b"event: hello" in first and b"retry:" in first

        services(app).hub.notify({"calls"})  # not the display's: filtered out
        services(app).hub.notify({"results"})
        change = next(chunks).decode()
        assert change.startswith("event: change\n")
        data = json.loads(re.search(r"^data: (.*)$", change, re.M).group(1))  # type: ignore[union-attr]
        assert data["kinds"] == ["results"]

        services(app).hub.notify({"tables"}, [2])  # a table moved on: the session's progress
        data = json.loads(next(chunks).decode().split("data: ", 1)[1])
        assert data["kinds"] == ["tables"] and data["tables"] == [2]

        services(app).hub.notify({"analysis"})
        assert json.loads(next(chunks).decode().split("data: ", 1)[1])["kinds"] == ["analysis"]
    finally:
        response.close()


def test_the_live_page_follows_the_stream(client: FlaskClient, room: Room) -> None:
    page = text(client, "/")
    assert "display.js" in page and 'id="display-texts"' in page
    texts = json.loads(re.search(r'id="display-texts">(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
    assert texts["language"] == "es" and texts["display_contract"] == "Contrato"
    script = client.get("/static/display.js")
    try:
        assert script.status_code == 200
        assert b'new EventSource("/live/stream")' in script.get_data()
    finally:
        script.close()


# -- the traveller and the frequency chart ----------------------------------------------------

def test_traveller_scores_and_frequency_chart(client: FlaskClient, room: Room) -> None:
    tables = [seat.table for seat in room.tables(4)]
    played = [("4S", "N", 10), ("4S", "N", 11), ("4S", "N", 10)][:len(tables)]
    scores = [room.play(t, 4, *result) for t, result in zip(tables, played, strict=True)]
    html = text(client, "/board/4")

    chart = re.search(r"<svg.*?</svg>", html, re.S).group(0)  # type: ignore[union-attr]
    bars = {int(score): int(count) for score, count in
            re.findall(r'class="bar" data-score="(-?\d+)" data-count="(\d+)"', chart)}
    expected: dict[int, int] = defaultdict(int)
    for score in scores:
        expected[score] += 1
    assert bars == expected
    assert "<title" in chart and "<desc" in chart and 'role="img"' in chart
    assert f"{max(scores)}: {expected[max(scores)]} mesa(s)" in chart
    assert frequency(standings.public_results(services(client.application).db,
                                              room.session)) == sorted(
        expected.items(), reverse=True)

    # Matchpoints: the overtrick beats both others (top 4 with three results: 4, 1, 1).
    traveller = re.search(r'<table class="traveller full[^"]*">.*?</table>', html, re.S).group(0)  # type: ignore[union-attr]
    rows = re.findall(r'<tr data-table="(\d+)">(.*?)</tr>', traveller, re.S)
    assert len(rows) == len(tables)
    first_cells = re.findall(r'<td class="points">([^<]*)</td>', rows[0][1])
    assert first_cells == ["4", "0"]
    assert "100" in re.findall(r'<td class="percent">([^<]*)</td>', rows[0][1])


# -- the hand record, the double-dummy table and par --------------------------------------------

def _holding(deal: Deal, seat: Seat, suit: str) -> str:
    """A suit of a hand as the hand record writes it: "A K 10 3"."""
    ranks = sorted((c.rank for c in deal[seat] if c.suit.name == suit), reverse=True)
    return " ".join("10" if r.char == "T" else r.char for r in ranks)


def _store_analysis(app: Flask, session: Session, board: int, analysis: str | None,
                    error: str | None = None) -> None:
    with services(app).db.write() as conn:
        conn.execute(update(s.deals).where(s.deals.c.session_id == session.id,
                                           s.deals.c.board == board).values(
            analysis=analysis, analysis_error=error))


def test_hand_record_with_double_dummy_and_par(client: FlaskClient, app: Flask,
                                               room: Room) -> None:
    for seat in room.tables(5):
        room.play(seat.table, 5, "3NT", "S", 9)
    html = text(client, "/board/5")
    assert "Análisis no disponible" in html  # no analyser in these tests, and none stored

    deal = Deal.from_pbn(deals_of(services(app).db, room.session)[5])
    for seat in Seat:
        holding = _holding(deal, seat, "S") or "—"
        hand = re.search(rf'<div class="hand hand-{seat.name}">(.*?)</div>', html, re.S)
        assert hand is not None
        assert f'♠</span> <span class="holding">{holding}</span>' in hand.group(1)
        assert f"{deal.hcp(seat)} PH" in hand.group(1)
    assert "Reparte" in html and "Norte" in html  # board 5: North deals
    assert "Vulnerables</dt><dd>NS" in html  # board 5: North-South vulnerable

    analysis = sample_analysis()
    _store_analysis(app, room.session, 5, json.dumps(analysis.to_json()))
    html = text(client, "/board/5")
    dd = re.search(r'<table class="double-dummy">.*?</table>', html, re.S).group(0)  # type: ignore[union-attr]
    cells = re.findall(r'<tr><th scope="row">(\w)</th>(.*?)</tr>', dd, re.S)
    assert [seat for seat, _ in cells] == ["N", "S", "E", "O"]
    north = re.findall(r"<td>(\d+)</td>", cells[0][1])
    assert north == ["9", "10", "8", "7", "6"]  # NT ♠ ♥ ♦ ♣, as sample_analysis sets them
    assert re.findall(r"<td>(\d+)</td>", cells[2][1]) == ["4", "3", "5", "6", "7"]  # East
    par = re.search(r'<p class="par">(.*?)</p>', html, re.S).group(1)  # type: ignore[union-attr]
    assert "NS +620: 4" in par and "♠</span> N, 4" in par and par.endswith("♠</span> S")
    assert "Análisis" not in html


def test_analysis_pending_until_stored(client: FlaskClient, app: Flask, room: Room) -> None:
    # An analyser that never starts: the board waits for its analysis as long as we like.
    services(app).analyser = Analyser(lambda *_: None)
    for seat in room.tables(2):
        room.play(seat.table, 2, "4S", "N", 10)
    assert "Análisis en curso" in text(client, "/board/2")
    assert "Analysis pending" in text(client, "/board/2?lang=en")

    _store_analysis(app, room.session, 2, json.dumps(sample_analysis().to_json()))
    html = text(client, "/board/2")
    assert '<table class="double-dummy">' in html and "Análisis" not in html


# -- languages -------------------------------------------------------------------------------

@pytest.mark.parametrize(("query", "words"), [
    ("", ("Resultados en directo", "Clasificación", "Tableros terminados", "Carteador")),
    ("?lang=en", ("Live results", "Rankings", "Finished boards", "Contract")),
])
def test_spanish_by_default_english_when_asked(client: FlaskClient, room: Room, query: str,
                                               words: tuple[str, ...]) -> None:
    for seat in room.tables(1):
        room.play(seat.table, 1, "1NT", "W", 7)
    page = text(client, f"/{query}")
    for word in words:
        assert word in page
    board = text(client, f"/board/1{query}")
    if query:
        assert "Dealer" in board and "North" in board and "1NT" in board
    else:
        assert "Reparte" in board and "Norte" in board and "1ST" in board
        assert '<td class="declarer">O</td>' in board  # Oeste


def test_the_api_gives_each_result_in_the_language_asked(client: FlaskClient,
                                                        room: Room) -> None:
    """display.js draws a result from the API's "shown" (tablemodel.words), spelling no bridge
    word itself: the same words, suits and seats as the page the server renders."""
    for seat in room.tables(1):
        room.play(seat.table, 1, "3NTX", "W", 9, lead="HT")
    for lang, nt, hearts, west, ew in (("es", "ST", "corazones", "O", "EO"),
                                       ("en", "NT", "hearts", "W", "EW")):
        response = client.get(f"/api/v1/results?lang={lang}")
        assert "lang=" not in response.headers.get("Set-Cookie", "")  # the API remembers none
        api = response.get_json()
        assert api["language"] == lang
        row = api["results"][0]
        assert row["contract"] == "3NTX" and row["declarer"] == "W"  # the data, as before
        assert row["shown"] == {
            "contract": ["3", nt, "X"], "declarer": west,
            "lead": [{"suit": "H", "symbol": "♥", "name": hearts}, "10"],
            # the pairs' labels as the page says them (display.js holds only the page's own)
            "ns": "1 NS", "ew": f"1 {ew}"}
        page = text(client, f"/?lang={lang}")
        assert f'<td class="contract">3{nt}X</td>' in page
        assert f'<td class="declarer">{west}</td>' in page
        assert f'aria-label="{hearts}">♥</span>10</td>' in page
    # Without ?lang= the API answers in the visitor's language, as the pages do.
    assert client.get("/api/v1/results").get_json()["results"][0]["shown"]["declarer"] == "W"
    client.delete_cookie("lang")
    assert client.get("/api/v1/results").get_json()["results"][0]["shown"]["declarer"] == "O"


@pytest.mark.parametrize("odd", ["<b>", "a & b", "\"it's\"", "4H'X", "é<>&\"'"])
def test_the_words_escape_text_as_the_pages_do(odd: str) -> None:
    assert bridge.escape(odd) == str(escape(odd))
    assert bridge.html(bridge.contract_pieces(odd, "es")) == str(escape(odd))


def sample_analysis() -> Analysis:
    """North-South take 9 tricks at NT, 10 in spades, 8, 7, 6 in the others; par 4♠."""
    north = {"NT": 9, "S": 10, "H": 8, "D": 7, "C": 6}
    tricks = {strain: {"N": n, "S": n, "E": 13 - n, "W": 13 - n}
              for strain, n in north.items()}
    return Analysis(tricks, 620, ["4SN", "4SS"])
