"""Which optional extras each command needs, and a clear word when one is missing.

``pip install bidbox`` alone brings the laws engine and the tools that need nothing else
(``replay``, ``score``, ``provision``). The table daemon needs the ``table`` extra, the
aggregator the ``server`` extra; a command that lacks one says which to install instead of
ending in a ``ModuleNotFoundError`` traceback.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable

#: The modules each extra brings that its commands import at start: module -> distribution
#: (pyproject.toml's optional-dependencies; tests/bidbox/test_extras.py keeps them in step).
EXTRAS: dict[str, dict[str, str]] = {
    "table": {"gpiozero": "gpiozero", "serial": "pyserial", "paho": "paho-mqtt"},
    "server": {"flask": "flask", "sqlalchemy": "sqlalchemy", "alembic": "alembic",
               "waitress": "waitress", "cheroot": "cheroot", "paho": "paho-mqtt",
               "zxcvbn": "zxcvbn"},
    "report": {"weasyprint": "weasyprint"},
}


def missing(extras: Iterable[str]) -> dict[str, list[str]]:
    """extra -> the distributions of it that are not installed (only the extras that lack
    something)."""
    absent: dict[str, list[str]] = {}
    for extra in extras:
        lacking = [dist for module, dist in EXTRAS[extra].items()
                   if importlib.util.find_spec(module) is None]
        if lacking:
            absent[extra] = lacking
    return absent


def advice(command: str, extras: Iterable[str]) -> str | None:
    """What to tell the user when ``command`` cannot run for want of an extra, or None."""
    wanted = list(extras)
    absent = missing(wanted)
    if not absent:
        return None
    lacking = sorted({dist for dists in absent.values() for dist in dists})
    return (f"bidbox {command} needs the {' and '.join(wanted)} extra"
            f"{'s' if len(wanted) > 1 else ''} (missing: {', '.join(lacking)}): "
            f"pip install 'bidbox[{','.join(wanted)}]'")
