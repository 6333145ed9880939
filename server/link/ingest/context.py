"""What every phase of the ingest reads: one explicit value, handed to each phase's functions.

The phases (decode, store, project: the modules beside this one) are plain functions of a
:class:`Context` and a batch's values; :class:`server.link.ingest.Ingest` makes the context once,
from what its maker gives its constructor, and runs the phases in order.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from laws import Board, Vulnerability
from server.storage.db import Database


@dataclass(frozen=True)
class Seated:
    """Who sat at a board: the round, and the pairs North-South and East-West."""

    round: int | None
    ns: int | None
    ew: int | None


def law_2_vulnerability(board: int) -> Vulnerability:
    """Law 2's cycle of 16: who is vulnerable on ``board`` when the session says nothing else."""
    return Board(board).vulnerability


@dataclass(frozen=True)
class Context:
    """One session's ingest: its store and event name, and what the server's services answer
    about the session (none of it for an ingest on its own, as the tests and tools make it).

    ``seating``: (table, board) -> who the movement put there, a fallback when no assignment
    of the table names the board; ``allowed``: (table, board) -> why the table may not have a
    result on the board now, or None; ``vulnerability``: board -> who is vulnerable, as the
    session says; ``gap_grace``: seconds before a new gap is asked for (a worker sharing the
    stream, SHARED_GAP_GRACE)."""

    db: Database
    event: str
    clock: Callable[[], float] = time.time
    seating: Callable[[int, int], Seated | None] | None = None
    allowed: Callable[[int, int], str | None] | None = None
    vulnerability: Callable[[int], Vulnerability] = law_2_vulnerability
    gap_grace: float = 0.0
