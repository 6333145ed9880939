"""A table that follows the server's session: one journal per session in a folder.

A club's table is provisioned once (tabled.config with ``journals`` and no ``event``). Each
session the director creates has its own event name (tablemodel.running), its own topics and
its own numbered journal, ``<folder>/<event>.db``, so a session's record is never mixed with
another's and an old one stays on the card as it was. ``<folder>/running`` names the session
the table followed last: after a restart it carries on there at once, with or without the
network, until the server names another.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from tablemodel.running import check_event

from .journal import Journal, JournalError

MARKER = "running"


class SessionJournals:
    """The folder of a following table's journals, one a session."""

    def __init__(self, folder: str | Path, table: int) -> None:
        self.folder = Path(folder)
        self.table = table
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise JournalError(f"the journals' folder {self.folder}: {error}") from None

    def path(self, event: str) -> Path:
        return self.folder / f"{check_event(event)}.db"

    def last(self) -> str | None:
        """The session the table followed last, if any (and still a name it can use)."""
        try:
            text = (self.folder / MARKER).read_text(encoding="utf-8").strip()
            return check_event(text)
        except (OSError, ValueError, UnicodeDecodeError):
            return None

    def open(self, event: str) -> Journal:
        """The session's journal, made if new; another table's is refused (JournalError)."""
        return Journal(self.path(event), identity={"event": event, "table": str(self.table)})

    def remember(self, event: str) -> None:
        """Note ``event`` as the session followed, durably: written aside, synced, renamed."""
        marker = self.folder / MARKER
        staged = marker.with_name(f".{MARKER}.tmp")
        with open(staged, "w", encoding="utf-8") as out:
            out.write(check_event(event) + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(staged, marker)
        with contextlib.suppress(OSError):  # the rename itself survives a power cut too
            folder = os.open(self.folder, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
