"""A director's password set by the director is refused when weak, with the reason
(``server.pages.passwords.weakness``), and ``bidbox server`` refuses to start on one."""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

import pytest

from server.pages.passwords import MIN_DIFFERENT, MIN_LENGTH, weakness
from tests.processes import run

NAMES = (("the director's user name", "Marta"), ("the event's name", "jueves-tarde"))


@pytest.mark.parametrize(("password", "reason"), [
    ("", "it has 0 characters; it needs at least 10"),
    ("pw", "it has 2 characters; it needs at least 10"),
    ("Tr0mp3t@!", "it has 9 characters; it needs at least 10"),
    ("aaaaaaaaaaaa", "it has only 1 different characters; it needs at least 5"),
    ("abababababab", "it has only 2 different characters; it needs at least 5"),
    ("abcdabcdabcd", "it has only 4 different characters; it needs at least 5"),
    ("marta-2024!", "it is mostly the director's user name (Marta)"),
    ("JuevesTarde1", "it is mostly the event's name (jueves-tarde)"),
    ("bidbox-2024", "it is mostly the name of this software (bidbox)"),
])
def test_a_weak_password_is_refused_with_its_reason(password: str, reason: str) -> None:
    assert weakness(password, names=NAMES) == reason


@pytest.mark.parametrize(("password", "why"), [
    ("password123", "very common password"),
    ("PASSWORD123", "common"),
    ("1234567890", "common password"),
    ("qwertyuiop", "common password"),
    ("contrasena", ""),
    ("Contraseña2026", ""),
    ("administrador", ""),
    ("Bridge-Club", ""),
    ("Password2024!", "similar to a commonly used password"),
    ("bridgeclub-77", ""),
    ("abcdefghijkl", "Sequences"),
    ("zyxwvutsrqpo", "Sequences"),
    ("abcdeabcde", "Repeats"),
    ("abcdefghijkX", "Sequences"),
    # A season or a city, a year and a symbol (issue 27): what a person tries first.
    ("Summer2026!", ""),
    ("Bilbao2026!", ""),
    ("Verano2026!", ""),
    ("Sevilla2027#", ""),
    ("Bridge#2030", ""),
])
def test_a_password_a_guesser_tries_early_is_refused(password: str, why: str) -> None:
    reason = weakness(password, names=NAMES)
    assert reason is not None and reason.startswith("it would be guessed in about 10^"), reason
    assert why in reason


@pytest.mark.parametrize("password", [
    "mesa siete norte",          # a phrase: long, not a word anyone lists
    "correct horse battery",
    "Marta juega 3SA doblado",   # the user name in it, but not most of it
    "4Hx-vul-down-one",
    "j7#Lq9!vR2",                # exactly the minimum length
])
def test_a_strong_password_is_accepted(password: str) -> None:
    assert weakness(password, names=NAMES) is None


def test_every_generated_password_is_accepted() -> None:
    # What `bidbox server` (token_urlsafe(9)) and `bidbox provision` (token_urlsafe(12)) make.
    for size in (9, 12):
        for _ in range(300):
            password = secrets.token_urlsafe(size)
            assert weakness(password, names=NAMES) is None, password
    assert (MIN_LENGTH, MIN_DIFFERENT) == (10, 5)


def test_the_server_refuses_a_weak_password_before_anything_starts(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    env = {**os.environ, "CLUB_PASSWORD": "Bridge#2030"}
    done = run([sys.executable, "-m", "bidbox", "server", "--db", str(db), "--port", "0",
                "--password-env", "CLUB_PASSWORD"], env=env, text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == (
        "bidbox server: the director's password in $CLUB_PASSWORD is too weak: "
        "it would be guessed in about 10^7 tries (it needs 10^9): Add another word or two. "
        "Uncommon words are better. Capitalization doesn't help very much")
    assert "live results" not in done.stdout and "Traceback" not in done.stderr
    assert not db.exists()  # no database was made, so nothing was migrated or served
    assert not done.left
