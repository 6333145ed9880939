"""Whether a director's password is too weak, and why (``bidbox server --password-env``).

The console is reachable from the club's Wi-Fi, where the players' phones are: a password that
a person would guess soon is refused at start with the reason, so the director can choose
another. How soon is estimated by zxcvbn (Dropbox's estimator, maintained in Python as the
``zxcvbn`` package): it knows the most used passwords, names, words, keyboard patterns,
sequences, repetitions, dates and l33t spellings, and counts the guesses an attacker who tries
the likeliest first would need. Told also what a person on the club's network knows (the
director's user name, the event's name, "bidbox", "bridge") and the years around now (its own
list of years ends in 2019, and "Summer2026!" is a season and a year), it must count at least
``MIN_GUESSES``. Generated passwords always pass.
"""

from __future__ import annotations

import datetime
import unicodedata
from collections.abc import Iterable

from zxcvbn import zxcvbn  # type: ignore[import-untyped]

MIN_LENGTH = 10
MIN_DIFFERENT = 5
MIN_GUESSES = 1e9
"""A password zxcvbn counts fewer guesses for is refused: at the sign-in throttle's ten
guesses a quarter of an hour for a user name (server/pages/throttle.py), 10^9 take thousands of
years, and every pattern of issue 27 ("Summer2026!", "Bilbao2026!") counts under 10^9. A
generated password (12 random characters) counts about 10^12."""
KNOWN = ("bidbox", "bridge", "club", "director", "directora", "arbitro", "torneo",
         "administrador", "contrasena", "contraseña", "clave")
"""Words anyone at a bridge club would try first, besides the names given: the console's own
words, in Spanish too (zxcvbn's lists are English)."""

_SKIP = "-_. "


def _plain(text: str) -> str:
    """Case-folded, accents dropped (``Contraseña`` and ``contrasena`` are one word)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _mostly(password: str, word: str) -> bool:
    """Whether ``word`` (plain) makes up at least half of ``password`` (plain): what is left
    once every occurrence is taken out is no longer than what was taken out."""
    if len(word) < 3 or word not in password:
        return False
    left = password.replace(word, "")
    return len(left) <= len(password) - len(left)


def _years(now: datetime.date | None = None) -> list[str]:
    """The years a person reaches for, nearest first: this one, the last ten, the next five."""
    year = (now or datetime.date.today()).year
    return [str(y) for y in sorted(range(year - 10, year + 6), key=lambda y: abs(y - year))]


def weakness(password: str, *, names: Iterable[tuple[str, str]] = ()) -> str | None:
    """Why ``password`` is too weak for the director's console, or None if it will do.

    ``names`` are (what, value) pairs a person on the club's network knows, e.g.
    ``("the director's user name", "director")``; a password that is mostly one of them is
    refused. "bidbox" is always one.
    """
    if len(password) < MIN_LENGTH:
        return f"it has {len(password)} characters; it needs at least {MIN_LENGTH}"
    different = len(set(password))
    if different < MIN_DIFFERENT:
        return (f"it has only {different} different characters; "
                f"it needs at least {MIN_DIFFERENT}")
    names = list(names)
    bare = "".join(c for c in _plain(password) if c not in _SKIP)
    for what, value in (*names, ("the name of this software", "bidbox")):
        word = "".join(c for c in _plain(value) if c not in _SKIP)
        if _mostly(bare, word):
            return f"it is mostly {what} ({value})"
    known = [_plain(value) for _, value in names] + list(KNOWN) + _years()
    # zxcvbn reads at most 72 characters (its time grows with the length); a longer password
    # is judged by its start, which then has to be strong on its own.
    estimate = zxcvbn(password[:72], user_inputs=known)
    if estimate["guesses"] < MIN_GUESSES:
        feedback = estimate["feedback"]
        why = feedback.get("warning") or " ".join(feedback.get("suggestions") or []) or ""
        return (f"it would be guessed in about 10^{estimate['guesses_log10']:.0f} tries "
                f"(it needs 10^9)" + (f": {why.rstrip('.')}" if why else ""))
    return None
