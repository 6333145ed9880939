"""How the tables are conducted and each pair's system card: set up in the console, stored,
and sent in the round's assignment as the table reads it (tablemodel.wire, tablemodel.state)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from laws import Seat, Side
from server.link.rounds import assignment, create_session, start_round
from server.services import Services
from server.setup import pair_cards as syscards
from server.setup.session import Session, SessionError, current
from server.storage import schema as s
from tablemodel.regulation import DEFAULT_TRAY_DELAY
from tablemodel.state import Conduct, TableState
from tablemodel.syscard import SystemCard, example
from tablemodel.wire import MAX_PAYLOAD, Command, Event

EVENT = "test"
Director = tuple[FlaskClient, str]


def services(app: Flask) -> Services:
    found: Services = app.extensions["bidbox"]
    return found


def make_session(app: Flask, **more: Any) -> Session:
    options: dict[str, Any] = {"kind": "mitchell", "participants": 8, "boards_per_round": 2,
                               "seed": 7, **more}
    return create_session(services(app).db, event=EVENT, title="Martes", **options)


def assigns(app: Flask) -> dict[int, Command]:
    """The queued assignments by table, decoded as the table decodes them."""
    with services(app).db.read() as conn:
        rows = conn.execute(select(s.commands).where(s.commands.c.type == "assign")).all()
    return {row.table_no: Command.from_payload(
        Command(row.id, row.type, json.loads(row.data)).to_payload()) for row in rows}


def own_card(name: str = "Our Acol") -> dict[str, Any]:
    return {"name": name, "entries": [
        {"code": 10, "seq": "1NT", "alert": False, "en": "12-14 balanced",
         "es": "12-14 equilibrada"},
        {"code": 11, "seq": "1NT 2C", "alert": True, "en": "Stayman", "es": "Stayman"}]}


# -- the session's conduct -------------------------------------------------------------------

def test_a_session_keeps_its_conduct(any_app: Flask) -> None:
    """Screens, the tray's delay and the profile round-trip through the database (both)."""
    made = make_session(any_app, screens="NW-SE", tray_delay=12.5, profile="feb-self")
    again = current(services(any_app).db, EVENT)
    assert again is not None
    assert (made.screens, made.tray_delay, made.profile) == ("NW-SE", 12.5, "feb-self")
    assert (again.screens, again.tray_delay, again.profile) == ("NW-SE", 12.5, "feb-self")


def test_the_defaults_are_no_screens_and_the_federations_profile(app: Flask) -> None:
    made = make_session(app)
    assert (made.screens, made.tray_delay, made.profile) == (None, DEFAULT_TRAY_DELAY, "feb")


@pytest.mark.parametrize(("options", "says"), [
    ({"screens": "N-S"}, "screens"),
    ({"screens": "NE-SW", "tray_delay": 500}, "0 to 120"),
    ({"tray_delay": -1}, "0 to 120"),
    ({"profile": "acbl"}, "profile"),
])
def test_a_conduct_the_tables_would_refuse_is_refused(app: Flask, options: dict[str, Any],
                                                      says: str) -> None:
    with pytest.raises(SessionError, match=says):
        make_session(app, **options)
    assert current(services(app).db, EVENT) is None


@pytest.mark.parametrize(("screens", "north_with"), [("NE-SW", Seat.E), ("NW-SE", Seat.W)])
def test_the_conduct_reaches_the_table_in_its_assignment(any_app: Flask, screens: str,
                                                         north_with: Seat) -> None:
    """Each table's assign command carries the session's screens, tray delay and profile and
    the cards of the pairs seated there (NS pair's under NS); it validates on the wire,
    fits the payload limit with its deals, and the table's own state reads it back."""
    found = make_session(any_app, screens=screens, tray_delay=5.0, profile="feb-self")
    db = services(any_app).db
    mine = SystemCard.from_json(own_card())
    syscards.store(db, found, 1, example(), by="director")
    syscards.store(db, found, 5, mine, by="director")
    start_round(db, found, 1)
    sent = assigns(any_app)
    assert len(sent) == found.tables
    with_cards = 0
    for command in sent.values():
        assert len(command.to_payload()) <= MAX_PAYLOAD
        assert command.data["deals"]  # the whole command: deals and cards together
        conduct = command.data["conduct"]
        assert conduct["screens"] == {"north_with": str(north_with), "tray_delay": 5.0}
        assert conduct["profile"] == "feb-self"
        state = TableState.replay([Event(1, "assign", 1.0, None,
                                         {"cmd": command.id, **command.data})])
        read = state.conduct
        assert read.screens is not None and read.screens.north_with is north_with
        assert read.screens.tray_delay == 5.0 and read.profile.self_alert
        ns, ew = command.data["ns"], command.data["ew"]
        expected = {Side.NS: {1: example(), 5: mine}.get(ns),
                    Side.EW: {1: example(), 5: mine}.get(ew)}
        assert {side: read.cards.get(side) for side in Side} == expected
        with_cards += sum(card is not None for card in expected.values())
    assert with_cards == 2  # pair 1 and pair 5 each sit somewhere in round 1


def test_no_screens_and_no_cards_send_the_profile_alone(app: Flask) -> None:
    found = make_session(app)
    start_round(services(app).db, found, 1)
    for command in assigns(app).values():
        assert command.data["conduct"] == {"profile": "feb"}
        assert Conduct.from_json(command.data["conduct"]).screens is None


def test_the_individual_sends_no_cards(app: Flask) -> None:
    found = make_session(app, kind="individual", participants=4, boards_per_round=4,
                         scoring=None, screens="NE-SW")
    db = services(app).db
    with pytest.raises(SessionError, match="individual"):
        syscards.store(db, found, 1, example())
    plan = found.plan.round(1)[0]
    data = assignment(found, plan, {}, {1: example().to_json(), 2: example().to_json()})
    assert "cards" not in data["conduct"]
    assert data["conduct"]["screens"]["north_with"] == "E"


def big_card(entries: int, width: int) -> dict[str, Any]:
    bids = [f"{level}{strain}" for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT")]
    return {"name": "Big", "entries": [
        {"code": 10 + i, "seq": f"* {bids[i % len(bids)]}", "alert": True,
         "en": "e" * width, "es": "s" * width} for i in range(entries)]}


def test_an_assignment_over_the_wire_limit_is_not_queued(app: Flask) -> None:
    """Cards are capped so that two fit; were a stored one too big anyway (stored before the
    cap, say), the round is refused with the wire's reason instead of queuing a command the
    table would refuse."""
    found = make_session(app)
    db = services(app).db
    huge = big_card(400, 160)
    assert SystemCard.from_json(huge)  # a valid card, only too big to travel
    with db.write() as conn:
        conn.execute(s.system_cards.insert().values(
            session_id=found.id, participant=1, name="Big", card=json.dumps(huge),
            loaded_at=0.0))
    with pytest.raises(SessionError, match=r"cannot be sent.*over the"):
        start_round(db, found, 1)
    assert assigns(app) == {}


# -- system cards in the console -------------------------------------------------------------

def test_the_set_up_form_offers_the_conduct(app: Flask, director: Director) -> None:
    client, token = director
    page = client.get("/console/?lang=en").get_data(as_text=True)
    for text in ('name="screens"', 'value="NE-SW"', 'value="NW-SE"', 'name="tray_delay"',
                 'name="profile"', 'value="feb-self"', "Tray delay"):
        assert text in page
    spanish = client.get("/console/?lang=es").get_data(as_text=True)
    assert "Retraso de la bandeja" in spanish and "Sin pantallas" in spanish
    response = client.post("/console/setup", data={
        "csrf": token, "title": "Con pantallas", "movement": "mitchell", "participants": "6",
        "boards_per_round": "2", "seed": "3", "screens": "NW-SE", "tray_delay": "10",
        "profile": "feb-self"})
    assert response.status_code == 302
    found = current(services(app).db, EVENT)
    assert found is not None
    assert (found.screens, found.tray_delay, found.profile) == ("NW-SE", 10.0, "feb-self")
    session_page = client.get("/console/session?lang=en").get_data(as_text=True)
    assert "North-West / South-East" in session_page and "at least 10.0 s" in session_page


def test_a_bad_tray_delay_in_the_form_is_refused(app: Flask, director: Director) -> None:
    client, token = director
    response = client.post("/console/setup?lang=en", data={
        "csrf": token, "title": "X", "movement": "mitchell", "participants": "6",
        "boards_per_round": "2", "seed": "3", "screens": "NE-SW", "tray_delay": "300"})
    assert response.status_code == 400
    assert "0 to 120 seconds" in response.get_data(as_text=True)
    assert current(services(app).db, EVENT) is None


def current_session(app: Flask) -> Session:
    found = current(services(app).db, EVENT)
    assert found is not None
    return found


def upload(client: FlaskClient, token: str, participant: int, body: bytes,
           name: str = "card.json") -> str:
    response = client.post("/console/cards", data={
        "csrf": token, "participant": str(participant),
        "card": (io.BytesIO(body), name)}, content_type="multipart/form-data",
        follow_redirects=True)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_a_pair_gets_an_uploaded_card_and_can_lose_it(app: Flask, director: Director) -> None:
    found = make_session(app)
    client, token = director
    page = upload(client, token, 3, json.dumps(own_card()).encode())
    assert "Our Acol" in page
    loaded = syscards.loaded(services(app).db, found)
    assert list(loaded) == [3] and loaded[3].card == SystemCard.from_json(own_card())
    assert loaded[3].loaded_by == "director"
    shown = client.get("/console/cards/3?lang=en").get_data(as_text=True)
    assert "Stayman" in shown and "1NT 2C" in shown
    response = client.post("/console/cards/3/remove", data={"csrf": token},
                           follow_redirects=True)
    assert response.status_code == 200
    assert syscards.loaded(services(app).db, found) == {}
    assert client.get("/console/cards/3").status_code == 404


def test_a_pair_gets_the_example_card(app: Flask, director: Director) -> None:
    found = make_session(app)
    client, token = director
    response = client.post("/console/cards", data={"csrf": token, "participant": "2",
                                                   "example": "1"}, follow_redirects=True)
    assert example().name in response.get_data(as_text=True)
    assert syscards.loaded(services(app).db, found)[2].card == example()


@pytest.mark.parametrize(("body", "says"), [
    (b"{not json", "not JSON"),
    (json.dumps({"name": "X", "entries": []}).encode(), "1 to 400 entries"),
    (json.dumps({"name": "X", "entries": [{"code": 10, "seq": "1Z", "en": "a", "es": "b"}]}
                ).encode(), "is not a call"),
    (json.dumps({"name": "X", "entries": [{"code": 3, "seq": "1C", "en": "a", "es": "b"}]}
                ).encode(), "the code is a whole number"),
])
def test_a_bad_card_is_refused_with_the_reason_and_changes_nothing(
        app: Flask, director: Director, body: bytes, says: str) -> None:
    found = make_session(app)
    client, token = director
    syscards.store(services(app).db, found, 3, example())
    page = upload(client, token, 3, body)
    assert "Not done" in page or "No se ha hecho" in page
    assert says in page
    assert syscards.loaded(services(app).db, found)[3].card == example()  # kept as it was


def test_a_card_too_big_to_travel_is_refused(app: Flask, director: Director) -> None:
    make_session(app)
    client, token = director
    card = big_card(100, 150)
    assert SystemCard.from_json(card)  # a valid card, only too big to travel
    page = upload(client, token, 1, json.dumps(card).encode())
    assert "fit beside the other pair" in page
    assert syscards.loaded(services(app).db, current_session(app)) == {}


def test_cards_only_for_the_sessions_pairs(app: Flask, director: Director) -> None:
    found = make_session(app)
    client, token = director
    page = upload(client, token, 99, json.dumps(own_card()).encode())
    assert "not a pair of this session" in page
    assert syscards.loaded(services(app).db, found) == {}


def test_the_session_page_lists_the_cards(app: Flask, director: Director) -> None:
    found = make_session(app)
    syscards.store(services(app).db, found, 4, example())
    client, _ = director
    page = client.get("/console/session?lang=en").get_data(as_text=True)
    assert 'id="cards"' in page and example().name in page
    assert "Give the example card" in page and "no card" in page
