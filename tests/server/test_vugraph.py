"""Vugraph: a table's board rebuilt from its stored events and cut by
tablemodel.visibility.view_for.

A screens table plays board 1 through ingest: an alerted 1C, a written question and its
answer, the tray crossing, 3NT, a face-down lead faced by the screenmate. Time is simulated
(ingest's clock and ``VUGRAPH_CLOCK``); the table's own clock is far in the past on purpose:
the delay runs from when the server received each event, so a table's clock cannot bring
anything forward.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from laws import Board, Card, Deal, Seat
from server.link.live import HEARTBEAT, Hub
from server.link.rounds import create_session, start_round
from server.pages import vugraph
from server.scoring import standings
from server.services import Services
from server.setup import pair_cards as syscards
from server.setup.session import Session, SessionError, dealt
from server.storage import schema as s
from tablemodel.syscard import example
from tablemodel.wire import Event, table_topic
from tests.clock import Clock
from tests.server.conftest import EVENT, login, make_app

T0 = 1_800_000_000.0
DELAY = 60.0
LEAD = "C9"  # East's, in the deal seed 7 makes for board 1
ONE_CLUB = example().by_code(10)


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


@dataclass
@dataclass
class Played:
    app: Flask
    client: FlaskClient
    clock: Clock
    session: Session


@pytest.fixture
def played(tmp_path: Any) -> Iterator[Played]:
    # A single match, whose director chose the live vugraph: the delay is what hides it.
    yield from board_one_at_table_one(tmp_path, kind="teams", participants=2, rounds=2,
                                      vugraph="live")


@pytest.fixture
def field(tmp_path: Any) -> Iterator[Played]:
    """A Mitchell of three tables, the public vugraph as it comes (released boards only):
    board 1 is played at table 1 in round 1 and at the other tables later."""
    yield from board_one_at_table_one(tmp_path, kind="mitchell", participants=6)


def board_one_at_table_one(tmp_path: Any, **kind: Any) -> Iterator[Played]:
    """Table 1 plays board 1 through ingest up to the faced lead (the module's docstring)."""
    clock = Clock(T0)
    app = make_app(str(tmp_path / "bidbox.db"), VUGRAPH_DELAY=DELAY, VUGRAPH_CLOCK=clock)
    services(app).ingest.clock = clock
    db = services(app).db
    session = create_session(db, event=EVENT, title="Con pantallas", boards_per_round=2,
                             seed=7, screens="NE-SW", tray_delay=8.0, **kind)
    syscards.store(db, session, 1, example())  # NS at table 1 in round 1
    start_round(db, session, 1)
    with db.read() as conn:
        command = conn.execute(select(s.commands).where(s.commands.c.table_no == 1)).one()
    table = Journal(app)
    # -- received at T0: the assignment, the board, the first two calls, the tray
    table.send("assign", None, cmd=command.id, **json.loads(command.data))
    for number, seat in enumerate("NESW", 1):
        table.send("player", None, seat=seat, number=number)
    board = Board(1)
    table.send("board", 1, board=1, dealer=str(board.dealer), vul=str(board.vulnerability))
    table.send("call", 1, seat="N", call="1C", alert=True)  # screens: each alerts their own
    table.send("call", 1, seat="E", call="Pass")
    table.send("tray", 1, calls=2)
    # -- at T0 + 100: West asks South, the screenmate, about 1C; South answers from the card
    clock.now = T0 + 100
    question = table.send("question", 1, seat="W", index=0, to="S")
    table.send("answer", 1, seat="S", question=question, code=10)
    # -- at T0 + 200: the rest of the auction, the face-down lead, faced by North
    clock.now = T0 + 200
    for seat, call in (("S", "1H"), ("W", "Pass")):
        table.send("call", 1, seat=seat, call=call)
    table.send("tray", 1, calls=4)
    for seat, call in (("N", "1NT"), ("E", "Pass")):
        table.send("call", 1, seat=seat, call=call)
    table.send("tray", 1, calls=6)
    for seat, call in (("S", "3NT"), ("W", "Pass")):
        table.send("call", 1, seat=seat, call=call)
    table.send("tray", 1, calls=8)
    for seat, call in (("N", "Pass"), ("E", "Pass")):
        table.send("call", 1, seat=seat, call=call)
    table.send("tray", 1, calls=10)
    table.send("card", 1, seat="E", card=LEAD, face_down=True)
    table.send("faced", 1, seat="N")
    try:
        yield Played(app, app.test_client(), clock, session)
    finally:
        services(app).close()


class Journal:
    """Table 1's journal through ingest; its own clock says 1970 (it cannot be trusted)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.seq = 0

    def send(self, kind: str, on: int | None, /, **data: Any) -> int:
        self.seq += 1
        outcome = services(self.app).ingest(
            table_topic(EVENT, 1, "events"),
            Event(self.seq, kind, 10.0 + self.seq, on, data).to_payload())
        assert outcome.rejected is None and outcome.stored == 1, outcome
        return self.seq


def public(played: Played, at: float, lang: str = "en") -> dict[str, Any]:
    played.clock.now = at
    response = played.client.get(f"/api/v1/vugraph/1?lang={lang}")
    assert response.status_code == 200
    data: dict[str, Any] = response.get_json()
    return data


def calls(data: dict[str, Any]) -> list[str]:
    return [f"{c['seat']}:{c['call']}{'!' if c['alerted'] else ''}" for c in data["calls"]]


# -- the delay ---------------------------------------------------------------------------------

def test_before_the_delay_the_public_sees_nothing(played: Played) -> None:
    data = public(played, T0 + DELAY - 1)
    assert data["board"] is None and data["calls"] == [] and data["cards"] == []
    assert data["delay"] == DELAY


def test_after_the_delay_the_public_sees_the_calls(played: Played) -> None:
    data = public(played, T0 + DELAY + 1)
    assert data["board"] == 1 and data["dealer"] == "N" and data["screens"] == "NE-SW"
    assert calls(data) == ["N:1C!", "E:Pass"]
    assert data["questions"] == []  # asked at T0 + 100: not yet
    assert data["hands"] is None


def test_an_explanation_under_screens_reaches_the_public_only_after_the_delay(
        played: Played) -> None:
    assert public(played, T0 + 100 + DELAY - 1)["questions"] == []
    data = public(played, T0 + 100 + DELAY + 1)
    assert ONE_CLUB is not None
    assert data["questions"] == [{"asker": "W", "index": 0, "answerer": "S", "answer": 10,
                                  "text": ONE_CLUB.en}]
    spanish = public(played, T0 + 100 + DELAY + 1, lang="es")
    assert spanish["questions"][0]["text"] == ONE_CLUB.es
    assert calls(data) == ["N:1C!", "E:Pass"]  # the rest came later


def test_the_whole_board_after_the_delay_but_no_hand(played: Played) -> None:
    data = public(played, T0 + 200 + DELAY + 1)
    assert calls(data) == ["N:1C!", "E:Pass", "S:1H", "W:Pass", "N:1NT", "E:Pass", "S:3NT",
                           "W:Pass", "N:Pass", "E:Pass"]
    assert data["cards"] == [{"seat": "E", "card": LEAD}] and not data["lead_face_down"]
    assert data["released"] is False and data["hands"] is None
    page = played.client.get("/vugraph/1?lang=en").get_data(as_text=True)
    assert 'id="vugraph-auction"' in page and "Auction" in page
    assert 'id="vugraph-hands"' not in page
    for hand in Deal.from_pbn(dealt(7, 1)).to_pbn()[2:].split():
        assert hand not in page and hand.split(".")[0] not in json.dumps(data)
    assert "The hands are shown once the board is released" in page


def test_hands_appear_once_the_board_is_released(played: Played) -> None:
    at = T0 + 200 + DELAY + 1
    assert public(played, at)["hands"] is None
    standings.release(services(played.app).db, played.session, 1, "director")
    data = public(played, at)
    deal = Deal.from_pbn(dealt(7, 1))
    assert data["released"] is True
    for seat in Seat:
        shown = data["hands"][str(seat)]
        cards = {Card.from_str(f"{suit}{rank}") for suit, ranks in shown.items()
                 for rank in ranks}
        assert cards == set(deal[seat])
    page = played.client.get("/vugraph/1?lang=es").get_data(as_text=True)
    assert 'id="vugraph-hands"' in page and "Subasta" in page and "Paso" in page


def test_a_release_does_not_bring_the_calls_forward(played: Played) -> None:
    standings.release(services(played.app).db, played.session, 1, "director")
    assert public(played, T0 + 30)["calls"] == []


def test_the_page_in_both_languages_with_the_alert_and_the_answer(played: Played) -> None:
    played.clock.now = T0 + 200 + DELAY + 1
    english = played.client.get("/vugraph/1?lang=en").get_data(as_text=True)
    assert ONE_CLUB is not None and ONE_CLUB.en in english
    assert "W asks, S explains" not in english  # seats by name
    assert "West asks, South explains" in english and "Screens: North-East" in english
    assert 'class="alert"' in english and "3NT" in english
    spanish = played.client.get("/vugraph/1?lang=es").get_data(as_text=True)
    assert ONE_CLUB.es in spanish and "Oeste pregunta, Sur explica" in spanish
    assert "3" in spanish and "ST" in spanish and "Con pantallas" in spanish


def test_no_session_or_no_such_table_is_a_404(played: Played) -> None:
    assert played.client.get("/api/v1/vugraph/9").status_code == 404
    assert played.client.get("/vugraph/9").status_code == 404
    assert played.client.get("/vugraph/0").status_code == 404


def test_the_live_page_links_each_tables_vugraph(played: Played) -> None:
    page = played.client.get("/").get_data(as_text=True)
    for table in (1, 2):
        assert f'href="/vugraph/{table}"' in page
    assert 'href="/vugraph/3"' not in page  # a match has two tables
    assert "follow a table live" in played.client.get("/?lang=en").get_data(as_text=True)


def test_the_delay_is_said_as_it_is(played: Played) -> None:
    """60 s, not "6 s": the zero of a whole number is no decimal to strip."""
    played.clock.now = T0 + DELAY + 1
    assert "60 s behind the table" in played.client.get("/vugraph/1?lang=en").get_data(
        as_text=True)
    assert "con 60 s de retraso" in played.client.get("/vugraph/1?lang=es").get_data(
        as_text=True)


# -- a field: a board only once released ------------------------------------------------------

def test_a_fields_vugraph_names_the_board_and_shows_nothing_of_it(field: Played) -> None:
    """Table 1 has bid and led board 1; tables 2 and 3 still have it to play: the public
    sees the board's number and nothing else, at once and a minute later."""
    for at in (T0 + 1, T0 + 200 + DELAY + 1, T0 + 10_000):
        data = public(field, at)
        assert data["board"] == 1 and data["withheld"] is True and data["released"] is False
        assert data["calls"] == [] and data["cards"] == [] and data["questions"] == []
        assert data["hands"] is None and data["result"] is None and data["delay"] == 0
    page = field.client.get("/vugraph/1?lang=en").get_data(as_text=True)
    assert 'id="vugraph-withheld"' in page and "playing board 1" in page
    assert 'id="vugraph-auction"' not in page and "3NT" not in page and LEAD not in page
    assert "behind the table" not in page
    index = field.client.get("/?lang=en").get_data(as_text=True)
    assert "boards, once released" in index


def test_a_fields_board_is_shown_whole_once_released(field: Played) -> None:
    standings.release(services(field.app).db, field.session, 1, "director")
    data = public(field, T0 + 201)  # no delay: a released board is public whole
    assert data["withheld"] is False and data["released"] is True
    assert len(data["calls"]) == 10 and data["cards"] == [{"seat": "E", "card": LEAD}]
    assert data["hands"] is not None


def test_the_director_turns_the_public_vugraph_off(field: Played) -> None:
    token = login(field.client)
    page = field.client.get("/console/session?lang=en").get_data(as_text=True)
    assert 'id="public-vugraph"' in page and 'value="live" disabled' in page
    refused = field.client.post("/console/vugraph", data={"vugraph": "live", "csrf": token},
                                follow_redirects=True)
    assert "single match" in refused.get_data(as_text=True)
    assert services(field.app).session.vugraph == "released"  # type: ignore[union-attr]
    field.client.post("/console/vugraph", data={"vugraph": "off", "csrf": token})
    assert services(field.app).session.vugraph == "off"  # type: ignore[union-attr]
    field.clock.now = T0 + 10_000
    off = field.client.get("/vugraph/1?lang=en")
    assert off.status_code == 404 and "turned the public vugraph off" in off.get_data(
        as_text=True)
    assert field.client.get("/api/v1/vugraph/1").status_code == 404
    assert field.client.get("/vugraph/1/stream").status_code == 404
    assert 'id="vugraph-tables"' not in field.client.get("/").get_data(as_text=True)
    assert field.client.get("/console/vugraph/1").status_code == 200  # the director's own


def test_live_is_only_for_a_single_match(tmp_path: Any) -> None:
    app = make_app(str(tmp_path / "bidbox.db"))
    try:
        with pytest.raises(SessionError, match="single match"):
            create_session(services(app).db, event=EVENT, title="x", kind="mitchell",
                           participants=6, boards_per_round=2, vugraph="live")
        with pytest.raises(SessionError, match="vugraph 'on'"):
            create_session(services(app).db, event=EVENT, title="x", kind="mitchell",
                           participants=6, boards_per_round=2, vugraph="on")
    finally:
        services(app).close()


# -- the service, on its own -------------------------------------------------------------------

def test_the_public_sees_a_new_board_only_after_the_delay(played: Played) -> None:
    """Board 1 finished and board 2 put on the table at T0 + 300: until T0 + 360 the public
    still sees board 1 (the last one played), then board 2 with no call."""
    db = services(played.app).db
    table = Journal(played.app)
    table.seq = 25
    played.clock.now = T0 + 300
    table.send("result", 1, contract="3NT", declarer="N", tricks=9, score_ns=400)
    table.send("confirm", 1, seat="N")
    table.send("confirm", 1, seat="E")
    board = Board(2)
    table.send("board", 2, board=2, dealer=str(board.dealer), vul=str(board.vulnerability))
    seen = vugraph.vugraph(db, played.session, 1, now=T0 + 300 + DELAY - 1, delay=DELAY,
                           language="en")
    assert seen.view.board == 1 and len(seen.view.calls) == 10
    seen = vugraph.vugraph(db, played.session, 1, now=T0 + 300 + DELAY + 1, delay=DELAY,
                           language="en")
    assert seen.view.board == 2 and seen.view.calls == ()


def test_the_director_sees_everything_now(played: Played) -> None:
    client = played.client
    login(client)
    played.clock.now = T0  # nothing is public yet
    page = client.get("/console/vugraph/1?lang=en").get_data(as_text=True)
    assert 'id="vugraph-hands"' in page and "Director&#39;s vugraph" in page
    assert ONE_CLUB is not None and ONE_CLUB.en in page
    fragment = client.get("/console/fragment/vugraph-1?lang=en").get_data(as_text=True)
    assert 'id="vugraph-auction"' in fragment and 'id="vugraph-hands"' in fragment
    tables = client.get("/console/fragment/tables").get_data(as_text=True)
    assert 'href="/console/vugraph/1"' in tables
    seen = vugraph.vugraph(services(played.app).db, played.session, 1, now=T0, delay=DELAY,
                           language="en", director=True)
    assert len(seen.view.calls) == 10 and seen.hands is not None and seen.released


def test_the_director_page_needs_a_sign_in(played: Played) -> None:
    response = played.client.get("/console/vugraph/1")
    assert response.status_code == 302 and "/console/login" in response.headers["Location"]


# -- the public page's stream ------------------------------------------------------------------

def test_the_stream_tells_a_change_only_when_the_view_shows_it() -> None:
    """A table's change is told ``delay`` seconds late on the stream's clock (the hub's own
    heartbeat meanwhile); a release is told at once. The clock is simulated: each look at it
    moves it on 5 seconds."""
    hub = Hub()
    ticks = [0.0]

    def clock() -> float:
        ticks[0] += 5.0
        return ticks[0]

    stream = vugraph.delayed(hub, DELAY, tick=0.001, clock=clock)
    try:
        assert "event: hello" in next(stream)
        told_at = ticks[0]
        hub.notify({"tables"})
        chunks = []
        while not (chunk := next(stream)).startswith("event: change"):
            chunks.append(chunk)
        assert '"vugraph"' in chunk
        assert ticks[0] >= told_at + DELAY  # not a moment sooner than the view shows it
        assert chunks and set(chunks) == {": idle\n\n"}  # kept open meanwhile
        released_at = ticks[0]
        hub.notify({"results"})
        assert next(stream).startswith("event: change")
        assert ticks[0] - released_at <= 10.0  # at once
    finally:
        stream.close()
        hub.close()


def test_a_page_that_connects_mid_board_is_told_when_the_held_events_show(
        played: Played) -> None:
    """Events received before the page connected and still held back are told when they
    become public, and not before: at T0 + 150 only the T0 + 100 and T0 + 200 arrivals
    are still held."""
    db = services(played.app).db
    assert vugraph.held(db, EVENT, 1, now=T0 + 150, delay=DELAY) == [10.0, 110.0]
    assert vugraph.held(db, EVENT, 1, now=T0 + 300, delay=DELAY) == []
    hub = Hub()
    ticks = [0.0]

    def clock() -> float:
        ticks[0] += 1.0
        return ticks[0]

    stream = vugraph.delayed(hub, DELAY, soon=[10.0, 110.0], tick=0.001, clock=clock)
    try:
        assert "event: hello" in next(stream)
        while not next(stream).startswith("event: change"):
            pass
        assert 10.0 <= ticks[0] < 12.0
        while not next(stream).startswith("event: change"):
            pass
        assert 110.0 <= ticks[0] < 112.0
    finally:
        stream.close()
        hub.close()


class _Looks(Clock):
    """A simulated clock that moves 0.1 ms at each look until ``until``, then a whole
    heartbeat at each look; the hub hears of each change, ``(time, kind)``, as the clock
    passes its time."""

    def __init__(self, hub: Hub, until: float,
                 changes: Iterable[tuple[float, str]] = ()) -> None:
        super().__init__(now=0.0, step=0.0001)
        self.hub, self.until, self.changes = hub, until, sorted(changes)

    def __call__(self) -> float:
        self.step = 0.0001 if self.now < self.until else HEARTBEAT
        now = super().__call__()
        while self.changes and self.changes[0][0] <= now:
            self.hub.notify({self.changes.pop(0)[1]})
        return now


def _told(stream: Iterator[str], clock: _Looks) -> list[float]:
    """The times at which the stream tells the page to fetch, until the clock's ``until``."""
    told = []
    while True:
        chunk = next(stream)
        if chunk.startswith("event: change"):
            told.append(clock.now)
        elif clock.now > clock.until:
            return told


@pytest.mark.parametrize("held", [True, False], ids=["held", "live"])
def test_changes_within_one_tick_are_told_until_the_later_of_them_shows(held: bool) -> None:
    """Two arrivals 0.3 ms apart, closer than the 1 ms tick, either held before the page
    connected or told live: the page is told once the later one is public, not only when the
    first is (it would fetch a view without the second and hear nothing more of it), and at
    most once a tick."""
    hub = Hub()
    delay = 0.01
    live = () if held else ((0.005, "tables"), (0.0053, "tables"))
    clock = _Looks(hub, until=0.025, changes=live)
    soon = (0.010, 0.0103) if held else ()
    stream = vugraph.delayed(hub, delay, soon=soon, tick=0.001, clock=clock)
    first, later = soon or (0.005 + delay, 0.0053 + delay)
    try:
        assert "event: hello" in next(stream)
        told = _told(stream, clock)
        assert told and told[0] >= first and told[-1] >= later and len(told) <= 2, told
    finally:
        stream.close()
        hub.close()


def test_a_release_is_told_at_once_while_a_tables_change_waits() -> None:
    hub = Hub()
    clock = _Looks(hub, until=0.008, changes=((0.001, "tables"), (0.003, "results")))
    stream = vugraph.delayed(hub, 0.01, tick=0.001, clock=clock)
    try:
        assert "event: hello" in next(stream)
        told = _told(stream, clock)
        assert told and 0.003 <= told[0] < 0.005, told  # the table's change waits till 0.011
    finally:
        stream.close()
        hub.close()
