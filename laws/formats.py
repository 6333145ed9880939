"""Records from a file, whichever format it is in (PBN or LIN)."""

from __future__ import annotations

import os
from pathlib import Path

from . import lin, pbn
from .records import Record

_LIN_KEYS = (b"pn|", b"md|", b"vg|", b"qx|", b"ah|", b"mb|", b"st|", b"rh|")


def sniff(data: bytes, name: str = "") -> str:
    """``"pbn"`` or ``"lin"``: by the file's extension, else by its first bytes."""
    suffix = Path(name).suffix.lower()
    if suffix in (".pbn", ".lin"):
        return suffix[1:]
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:64]
    return "lin" if head.startswith(_LIN_KEYS) else "pbn"


def loads(data: bytes, name: str = "") -> list[Record]:
    return lin.loads(data) if sniff(data, name) == "lin" else pbn.loads(data)


def load_path(path: str | os.PathLike[str]) -> list[Record]:
    """Every record of the file; unreadable parts are problems on the records, not errors.
    An I/O error (a missing file) is the one thing that raises."""
    data = Path(path).read_bytes()
    return loads(data, os.fspath(path))
