"""Whether a director's password is too weak, and why (``bidbox server --password-env``).

The console is reachable from the club's Wi-Fi, where the players' phones are: a password that
a person would guess in a few tries (the club's name, "bridge", 1234567890) is refused at start
with the reason, so the director can choose another. Generated passwords always pass.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Iterable

MIN_LENGTH = 10
MIN_DIFFERENT = 5

#: The most used passwords (English and Spanish), and the words a bridge club reaches for first.
#: Compared without case or accents; a password that is mostly one of them is refused too.
COMMON = frozenset("""
password password1 password123 passw0rd p@ssw0rd p@ssword contraseña contraseña1 clave
clave123 secreto secret 123456 1234567 12345678 123456789 1234567890 0123456789 987654321
111111 000000 123123 654321 112233 121212 abc123 abcd1234 qwerty qwerty123 qwertyuiop
asdfghjkl zxcvbnm 1q2w3e4r 1qaz2wsx iloveyou teamo tequiero letmein welcome bienvenido
bienvenida admin administrator administrador root master maestro monkey dragon shadow
sunshine princess princesa football futbol baseball superman batman trustno1 starwars
michael jordan barcelona realmadrid madrid america mariposa hola hola123 holahola
bridge bridge123 bridgeclub clubdebridge bridge2024 bridge2025 duplicate duplicado
director director123 directora arbitro tournament torneo bidding subasta bidbox
""".split())

_SKIP = "-_. "


def _plain(text: str) -> str:
    """Case-folded, accents dropped (``Contraseña`` and ``contrasena`` are one word)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_COMMON_PLAIN = frozenset(_plain(word) for word in COMMON)


def _mostly(password: str, word: str) -> bool:
    """Whether ``word`` (plain) makes up at least half of ``password`` (plain): what is left
    once every occurrence is taken out is no longer than what was taken out."""
    if len(word) < 3 or word not in password:
        return False
    left = password.replace(word, "")
    return len(left) <= len(password) - len(left)


def _is_sequence(password: str) -> bool:
    """Every character one step from the one before, the same way (``1234567890``,
    ``abcdefghij``, ``zyxwvutsrq``; 9 then 0 counts as a step, as on a keyboard)."""
    steps = {_step(a, b) for a, b in itertools.pairwise(password)}
    return len(steps) == 1 and steps <= {1, -1}


def _step(a: str, b: str) -> int:
    if a + b == "90":
        return 1
    if a + b == "09":
        return -1
    return ord(b) - ord(a)


def _is_repetition(password: str) -> bool:
    """A shorter piece said again and again (``abcdeabcde``, ``12121212ab`` is not)."""
    size = len(password)
    return any(password == (password[:period] * (size // period + 1))[:size]
               for period in range(1, size // 2 + 1))


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
    plain = _plain(password)
    bare = "".join(c for c in plain if c not in _SKIP)
    if plain in _COMMON_PLAIN or bare in _COMMON_PLAIN:
        return "it is one of the most used passwords"
    for what, value in (*names, ("the name of this software", "bidbox")):
        word = "".join(c for c in _plain(value) if c not in _SKIP)
        if _mostly(bare, word):
            return f"it is mostly {what} ({value})"
    for word in sorted(_COMMON_PLAIN, key=len, reverse=True):
        if _mostly(bare, word):
            return f"it is mostly a well-known password ({word})"
    if _is_sequence(bare) or _is_repetition(bare):
        return "it is a plain sequence or repetition of characters"
    return None
