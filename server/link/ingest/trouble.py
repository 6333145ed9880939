"""Why the database refused a write, in words a director can act on.

Ingest's worker holds a batch the database refused and tries it again (``server.link.bus``); the
console's status line and the log say why: the disk is full, the database is locked by
another program, it is read-only, or (PostgreSQL) its server is out of reach.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass

from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError

REASONS = ("disk_full", "locked", "read_only", "unreachable", "error")
"""Every reason the console names (``console_storage_<reason>`` in
server/texts/console_texts.py)."""

_SIGNS = (
    ("disk_full", ("database or disk is full", "no space left", "disk full",
                   "could not extend file", "could not write")),
    ("locked", ("database is locked", "database table is locked", "busy",
                "lock timeout", "could not obtain lock")),
    ("read_only", ("readonly database", "read-only", "read only")),
    ("unreachable", ("connection", "connect", "server closed", "terminating",
                     "shutting down", "the database system is", "unable to open database",
                     "disk i/o error")),
)


@dataclass(frozen=True)
class Trouble:
    """One refusal: the reason (one of ``REASONS``) and the database's own words."""

    reason: str
    detail: str


@dataclass(frozen=True)
class StorageFault:
    """Results not being stored: why, since when (the server's clock), how many tries have
    been refused, and how many messages of the held batch wait."""

    reason: str
    detail: str
    since: float
    tries: int
    waiting: int


def database_away(error: BaseException) -> bool:
    """Whether ``error`` is the database refusing any write now (full, locked, read-only,
    away), rather than this batch being wrong: the batch is then held, not taken apart."""
    if isinstance(error, (OperationalError, DisconnectionError)):
        return True
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS,
                                                      errno.EIO):
        return True
    return isinstance(error, DBAPIError) and trouble(error).reason != "error"


def trouble(error: BaseException) -> Trouble:
    """The reason a director reads for ``error``, and its own first line."""
    original = getattr(error, "orig", None) or error
    detail = (str(original).strip().splitlines() or [type(original).__name__])[0][:200]
    if isinstance(original, OSError) and original.errno in (errno.ENOSPC, errno.EDQUOT):
        return Trouble("disk_full", detail)
    if isinstance(original, OSError) and original.errno == errno.EROFS:
        return Trouble("read_only", detail)
    text = detail.lower()
    for reason, signs in _SIGNS:
        if any(sign in text for sign in signs):
            return Trouble(reason, detail)
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return Trouble("unreachable", detail)
    return Trouble("error", detail)
