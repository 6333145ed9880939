"""The Register page in Chromium, as a director uses it (issue 17): a club's 60 members
imported from the CSV file Spanish Excel writes (Windows-1252, ``;``, a Spanish header), a
session created from it, a table's players signing in over the real broker (one the
register lacks), the visitor added from the page and sent to the tables, and the names at
the tables kept current on the page. ``BIDBOX_SCREENSHOTS=docs/screenshots`` writes the
pictures the guides show; otherwise they go to the test's temporary folder."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from bidbox.broker import Broker, BrokerUsers
from server.link.rounds import create_session, start_round
from server.setup import player_register as register
from tablemodel.wire import Event, state_payload, table_topic
from tests.browser.conftest import EVENT, services, wait_until
from tests.fixtures.broker import MqttClient

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
expect = sync_api.expect

from tests.browser.test_console_live import sign_in  # noqa: E402

FIRST = ["Íñigo", "Begoña", "José María", "Ángeles", "Nuria", "Jesús", "Mónica", "Joaquín",
         "Inés", "Álvaro", "Lucía", "Ramón"]
LAST = ["Muñoz", "Ibáñez", "Pérez", "Sáenz", "Núñez", "García", "Martín", "López", "Gómez",
        "Fernández", "Castaño", "Ordóñez", "Peña", "Díaz", "Suárez"]


def members(count: int = 60) -> list[tuple[int, str, str]]:
    """``count`` members (60 at most): number, a Spanish name with accents, a licence. The
    first name and first surname cycle by 12 and 15, so no two of 60 are alike."""
    found = []
    for index in range(count):
        first, last = FIRST[index % len(FIRST)], LAST[index % len(LAST)]
        second = LAST[(7 * index + 3) % len(LAST)]
        if second == last:
            second = LAST[(index + 1) % len(LAST)]
        number = 1000 + 7 * index
        found.append((number, f"{first} {last} {second}", f"28/{number + index:05d}"))
    return found


def _folder(tmp_path: Path) -> Path:
    chosen = os.environ.get("BIDBOX_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _open(page: Any, path: str) -> None:
    """A console page, once its stream answered (the live sections then miss nothing)."""
    with page.expect_response(lambda response: "/console/stream" in response.url):
        page.goto(path)


def test_the_director_imports_sixty_members_and_adds_a_visitor(
        page: Any, live_app: Flask, broker: Broker, broker_users: BrokerUsers,
        tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    club = members()
    assert len({name for _, name, _ in club}) == 60
    text = "Nº socio;Apellidos y nombre;Licencia federativa\r\n" + "".join(
        f"{number};{name};{licence}\r\n" for number, name, licence in club)
    upload = tmp_path / "socios.csv"
    upload.write_bytes(text.encode("cp1252"))  # as Spanish Excel saves "CSV (delimitado)"

    sign_in(page)
    page.click("nav.console-nav >> text=Registro")
    expect(page.locator("h1")).to_have_text("Registro de jugadores")
    page.set_input_files("form.register-import input[name=csv]", str(upload))
    page.click("form.register-import button[type=submit]")
    expect(page.locator("body")).to_contain_text("Registro importado: 60 nuevos, 0 actualizados.")
    rows = page.locator("table.register tbody tr")
    expect(rows).to_have_count(60)
    for number, name, licence in (club[0], club[33], club[59]):
        row = page.locator(f"tr[data-player='{number}']")
        expect(row.locator("input[name=name]")).to_have_value(name)
        expect(row.locator("input[name=licence]")).to_have_value(licence)
    db = services(live_app).db
    assert [(m.number, m.name, m.licence) for m in register.members(db)] == club

    # A file with a bad row: refused with its line, nothing changes.
    bad = tmp_path / "mal.csv"
    bad.write_bytes("1;Ana Ruiz;\r\nuno;Luis Gil;\r\n".encode("cp1252"))
    page.set_input_files("form.register-import input[name=csv]", str(bad))
    page.click("form.register-import button[type=submit]")
    expect(page.locator("body")).to_contain_text(
        "No se ha hecho: no se ha importado nada: línea 2: el número 'uno' no es un número de "
        "jugador")
    expect(rows).to_have_count(60)

    # The session is created from the register; table 1's players sign in over the broker,
    # one with a number the register does not have.
    session = create_session(db, event=EVENT, title="Torneo del martes", kind="mitchell",
                             participants=8, boards_per_round=2, seed=7)
    start_round(db, session, 1, by="test")
    table = MqttClient(broker, broker_users.table(1))
    table.connect()
    try:
        seating = session.plan.round(1)[0]
        seated = {"N": club[0][0], "E": club[1][0], "S": club[2][0], "W": 7777}
        _open(page, "/console/register")
        events = [("assign", {"cmd": f"assign-{EVENT}-r1-t1", "round": 1, "ns": seating.ns,
                              "ew": seating.ew, "boards": list(seating.boards)})]
        events += [("player", {"seat": seat, "number": number})
                   for seat, number in seated.items()]
        for seq, (kind, data) in enumerate(events, start=1):
            code = table.publish(table_topic(EVENT, 1, "events"),
                                 Event(seq, kind, time.time(), None, data).to_payload())
            assert not code.is_failure, code
        # As a table's uplink does after its events: its retained state, which tells the
        # server (and the page's seated section, with no reload) that the table moved on.
        code = table.publish(table_topic(EVENT, 1, "state"), state_payload(
            {"seq": len(events), "ts": time.time(), "phase": "board", "round": 1}),
            retain=True)
        assert not code.is_failure, code
        wait_until(live_app, lambda: len(register.seated(db, EVENT, 1)[0].get(1, {})) == 4)
        line = page.locator("[data-fragment=seated] tr[data-table='1']")
        expect(line).to_contain_text(f"{club[0][0]} · {club[0][1]}")
        expect(line).to_contain_text("7777 no está en el registro")
    finally:
        table.close()

    # The director adds the stranger as a visitor: into the register, the session, the tables.
    page.fill("form.register-visitor input[name=number]", "7777")
    page.fill("form.register-visitor input[name=name]", "Visitante Ñandú Peñalver")
    page.fill("form.register-visitor input[name=licence]", "ARG-1234")
    page.click("form.register-visitor button[type=submit]")
    expect(page.locator("body")).to_contain_text(
        f"Visitante 7777 (Visitante Ñandú Peñalver) añadido y enviado a {session.tables} "
        "mesas.")
    expect(rows).to_have_count(61)
    expect(page.locator("tr[data-player='7777']")).to_contain_text("Visitante")
    expect(page.locator("[data-fragment=seated] tr[data-table='1']")).to_contain_text(
        "7777 · Visitante Ñandú Peñalver")
    expect(page.locator("#register-session")).to_contain_text("61 jugadores")
    assert register.session_members(db, session)[7777].licence == "ARG-1234"

    # An edit from the list changes the register, not the running session.
    row = page.locator(f"tr[data-player='{club[5][0]}']")
    row.locator("input[name=name]").fill("Nuria Castaño (corregido)")
    row.locator("button[type=submit]").click()
    expect(page.locator("body")).to_contain_text(f"Jugador {club[5][0]} guardado.")
    assert register.member(db, club[5][0]).name == "Nuria Castaño (corregido)"  # type: ignore[union-attr]
    assert register.session_members(db, session)[club[5][0]].name == club[5][1]

    page.goto("/console/register")
    page.screenshot(path=str(folder / "register.es.png"), full_page=True)
    page.goto("/console/register?lang=en")
    expect(page.locator("h1")).to_have_text("Player register")
    expect(page.locator("[data-fragment=seated]")).to_contain_text(
        re.compile(r"7777 · Visitante Ñandú Peñalver"))
    page.screenshot(path=str(folder / "register.png"), full_page=True)
    page.goto("/console/?lang=es")
