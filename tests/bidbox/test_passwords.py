"""A director's password set by the director is refused when weak, with the reason
(``server.passwords.weakness``), and ``bidbox server`` refuses to start on one."""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

import pytest

from server.passwords import COMMON, MIN_DIFFERENT, MIN_LENGTH, weakness
from tests.processes import run

NAMES = (("the director's user name", "Marta"), ("the event's name", "jueves-tarde"))


@pytest.mark.parametrize(("password", "reason"), [
    ("", "it has 0 characters; it needs at least 10"),
    ("pw", "it has 2 characters; it needs at least 10"),
    ("Tr0mp3t@!", "it has 9 characters; it needs at least 10"),
    ("aaaaaaaaaaaa", "it has only 1 different characters; it needs at least 5"),
    ("abababababab", "it has only 2 different characters; it needs at least 5"),
    ("abcdabcdabcd", "it has only 4 different characters; it needs at least 5"),
    ("password123", "it is one of the most used passwords"),
    ("PASSWORD123", "it is one of the most used passwords"),
    ("Contraseña", "it is one of the most used passwords"),
    ("contrasena", "it is one of the most used passwords"),
    ("123456789", "it has 9 characters; it needs at least 10"),
    ("1234567890", "it is one of the most used passwords"),
    ("qwertyuiop", "it is one of the most used passwords"),
    ("Bridge-Club", "it is one of the most used passwords"),
    ("administrador", "it is one of the most used passwords"),
    ("Password2024!", "it is mostly a well-known password (password)"),
    ("bridgeclub-77", "it is mostly a well-known password (bridgeclub)"),
    ("marta-2024!", "it is mostly the director's user name (Marta)"),
    ("JuevesTarde1", "it is mostly the event's name (jueves-tarde)"),
    ("bidbox-2024", "it is mostly the name of this software (bidbox)"),
    ("abcdefghijkl", "it is a plain sequence or repetition of characters"),
    ("zyxwvutsrqpo", "it is a plain sequence or repetition of characters"),
    ("ONMLKJIHGF", "it is a plain sequence or repetition of characters"),
    ("abcdeabcde", "it is a plain sequence or repetition of characters"),
    ("12345-12345", "it is a plain sequence or repetition of characters"),
])
def test_a_weak_password_is_refused_with_its_reason(password: str, reason: str) -> None:
    assert weakness(password, names=NAMES) == reason


@pytest.mark.parametrize("password", [
    "mesa siete norte",          # a phrase: long, not a word anyone lists
    "correct horse battery",
    "Marta juega 3SA doblado",   # the user name in it, but not most of it
    "4Hx-vul-down-one",
    "j7#Lq9!vR2",                # exactly the minimum length
    "abcdefghijkX",              # a sequence broken once
])
def test_a_strong_password_is_accepted(password: str) -> None:
    assert weakness(password, names=NAMES) is None


def test_every_generated_password_is_accepted() -> None:
    # What `bidbox server` (token_urlsafe(9)) and `bidbox provision` (token_urlsafe(12)) make.
    for size in (9, 12):
        for _ in range(2000):
            password = secrets.token_urlsafe(size)
            assert weakness(password, names=NAMES) is None, password


def test_the_well_known_list_is_refused_whole() -> None:
    for word in COMMON:
        assert weakness(word) is not None, word
    assert (MIN_LENGTH, MIN_DIFFERENT) == (10, 5)


def test_the_server_refuses_a_weak_password_before_anything_starts(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    env = {**os.environ, "CLUB_PASSWORD": "Bridge#2030"}
    done = run([sys.executable, "-m", "bidbox", "server", "--db", str(db), "--port", "0",
                "--password-env", "CLUB_PASSWORD"], env=env, text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == (
        "bidbox server: the director's password in $CLUB_PASSWORD is too weak: "
        "it is mostly a well-known password (bridge)")
    assert "live results" not in done.stdout and "Traceback" not in done.stderr
    assert not db.exists()  # no database was made, so nothing was migrated or served
    assert not done.left
