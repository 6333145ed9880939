"""Guessing the director's password is slowed and then locked, the director is told, and every
answer carries the headers that keep the pages from being framed or sniffed (issue 20).

The clock is the app's ``CLOCK``, moved by the test: no test waits for a delay to pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from server.pages.headers import HEADERS
from server.pages.throttle import FREE, LOCK, LOCK_AT, MAX_WAIT, WINDOW, wait_after
from tests.clock import Clock
from tests.server.conftest import PASSWORD, make_app, services

ATTACKER = "192.168.1.66"
OTHER = "192.168.1.77"


@pytest.fixture
def clock() -> Clock:
    return Clock(1_800_000_000.0)


@pytest.fixture
def app(tmp_path: Any, clock: Clock) -> Iterator[Flask]:
    app = make_app(str(tmp_path / "bidbox.db"), CLOCK=clock)
    yield app
    services(app).close()


def attempt(client: FlaskClient, password: str, *, address: str = ATTACKER,
            username: str = "director") -> Any:
    page = client.get("/console/login", environ_base={"REMOTE_ADDR": address})
    token = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True))
    assert token is not None
    return client.post("/console/login", environ_base={"REMOTE_ADDR": address},
                       data={"username": username, "password": password,
                             "csrf": token.group(1)})


def test_the_waits_grow_then_stop_growing() -> None:
    assert [wait_after(n) for n in range(FREE)] == [0.0] * FREE
    waits = [wait_after(n) for n in range(FREE, LOCK_AT)]
    assert waits == sorted(waits) and waits[0] == 1.0 and waits[1] == 2.0
    assert all(w <= MAX_WAIT for w in waits)


def test_guesses_wait_longer_and_longer_then_lock(client: FlaskClient, clock: Clock) -> None:
    """Bounded: LOCK_AT wrong passwords, each at the first moment it is allowed."""
    waits = []
    for n in range(1, LOCK_AT + 1):
        answer = attempt(client, f"guess-{n}")
        assert answer.status_code == 200, n  # looked at, and wrong
        assert "Usuario o contraseña incorrectos" in answer.get_data(as_text=True)
        if n < FREE:
            continue  # free: the next guess is looked at at once
        refused = attempt(client, "another")
        assert refused.status_code == 429, n
        wait = int(refused.headers["Retry-After"])
        waits.append(wait)
        clock.now += wait
    # growing delays, then the lock's quarter of an hour
    assert waits[:-1] == sorted(waits[:-1]) and waits[0] >= 1
    assert waits[-1] == LOCK and waits[-2] < LOCK


def test_a_wait_refuses_even_the_right_password(client: FlaskClient, clock: Clock) -> None:
    for n in range(FREE + 1):
        attempt(client, f"guess-{n}")
    answer = attempt(client, PASSWORD)
    assert answer.status_code == 429
    assert "espere" in answer.get_data(as_text=True)
    clock.now += int(answer.headers["Retry-After"])
    assert attempt(client, PASSWORD).status_code == 302  # in, once the wait is over


def test_a_lock_holds_for_its_time_then_lifts(client: FlaskClient, clock: Clock) -> None:
    for n in range(LOCK_AT):
        clock.now += MAX_WAIT  # every guess after its wait: the lock, not the delay, stops them
        attempt(client, f"guess-{n}")
    clock.now += LOCK - 1
    locked = attempt(client, PASSWORD)
    assert locked.status_code == 429
    assert "bloqueado" in locked.get_data(as_text=True)
    clock.now += 1
    assert attempt(client, PASSWORD).status_code == 302


def test_the_user_name_is_throttled_across_addresses(client: FlaskClient,
                                                      clock: Clock) -> None:
    """Spreading guesses over addresses does not escape the per-user wait."""
    for n in range(FREE + 1):
        attempt(client, f"guess-{n}", address=f"10.0.0.{n + 1}")
    assert attempt(client, "guess", address="10.0.0.200").status_code == 429
    # another user name from a fresh address is not held by it
    assert attempt(client, "x", address="10.0.0.201", username="someone").status_code == 200


def test_the_address_is_throttled_across_user_names(client: FlaskClient) -> None:
    for n in range(FREE + 1):
        attempt(client, "guess", username=f"user{n}")
    assert attempt(client, "guess", username="yet-another").status_code == 429
    assert attempt(client, "guess", address=OTHER, username="fresh").status_code == 200


def test_the_director_at_the_machine_is_never_locked_out_by_others(client: FlaskClient,
                                                                   clock: Clock) -> None:
    """Guesses under the director's name from the network lock the name, not loopback."""
    for n in range(LOCK_AT):
        clock.now += MAX_WAIT
        attempt(client, f"guess-{n}", address=f"10.0.1.{n + 1}")
    assert attempt(client, PASSWORD, address=OTHER).status_code == 429
    assert attempt(client, PASSWORD, address="127.0.0.1").status_code == 302


def test_a_success_clears_the_count(client: FlaskClient, clock: Clock) -> None:
    for n in range(FREE):
        attempt(client, f"guess-{n}", address=OTHER)
    clock.now += wait_after(FREE)
    assert attempt(client, PASSWORD, address=OTHER).status_code == 302
    client.post("/console/logout", data={"csrf": _token(client)})
    for n in range(FREE):
        assert attempt(client, f"again-{n}", address=OTHER).status_code == 200


def _token(client: FlaskClient) -> str:
    page = client.get("/console/")
    found = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True))
    assert found is not None
    return found.group(1)


def test_the_director_is_told_how_many_failed(client: FlaskClient, clock: Clock) -> None:
    client.get("/?lang=en").close()
    assert attempt(client, PASSWORD, address="127.0.0.1").status_code == 302
    client.post("/console/logout", data={"csrf": _token(client)})
    clock.now += 60
    for n in range(FREE + 2):  # FREE looked at, then two refused while waiting
        attempt(client, f"guess-{n}")
    attempt(client, "guess", address=OTHER, username="admin")
    clock.now += 3600
    answer = attempt(client, PASSWORD, address="127.0.0.1")
    assert answer.status_code == 302
    page = client.get("/console/").get_data(as_text=True)
    # FREE wrong and 2 refused from ATTACKER, 1 wrong from OTHER as "admin"
    told = f"since your last sign-in: {FREE + 1} with a wrong password and 2 refused"
    assert told in page, page
    assert "from 2 addresses" in page
    assert f"the last from {OTHER}" in page
    # the console keeps saying it for a day
    page = client.get("/console/").get_data(as_text=True)
    assert told not in page  # said once
    assert f"Failed sign-ins in the last 24 hours: {FREE + 1} with a wrong password" in page
    clock.now += 24 * 3600
    assert "Failed sign-ins" not in client.get("/console/").get_data(as_text=True)


@pytest.mark.parametrize("path", ["/", "/console/login", "/api/v1/results",
                                  "/static/display.js", "/board/1"])
def test_every_answer_carries_the_headers(client: FlaskClient, path: str) -> None:
    answer = client.get(path)
    answer.close()
    for name, value in HEADERS.items():
        assert answer.headers.get(name) == value, (path, name)
    policy = answer.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy


def test_the_console_cannot_be_framed(client: FlaskClient) -> None:
    client_page = client.get("/console/login")
    client_page.close()
    assert client_page.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in client_page.headers["Content-Security-Policy"]


def test_failures_spread_over_more_than_the_window_do_not_lock(client: FlaskClient,
                                                                clock: Clock) -> None:
    """A lock needs LOCK_AT failures within WINDOW; older ones are forgotten by the wait."""
    for n in range(LOCK_AT):
        clock.now += WINDOW / (LOCK_AT - 2)  # ten failures over more than the window
        assert attempt(client, f"guess-{n}").status_code == 200, n
    clock.now += MAX_WAIT
    assert attempt(client, PASSWORD).status_code == 302
