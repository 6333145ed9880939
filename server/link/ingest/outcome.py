"""What one message did, as ingest tells its caller (the worker, the live pages)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tablemodel.wire import Command


@dataclass
class Outcome:
    """What one message did: for the worker (commands to send) and the live pages."""

    stored: int = 0
    table: int | None = None  # the table that sent it (None: its topic named none)
    duplicate: bool = False
    rejected: str | None = None
    changed: set[str] = field(default_factory=set)  # tables, results, calls, commands
    online: set[int] = field(default_factory=set)  # tables that said they are online
    commands: list[tuple[int, Command]] = field(default_factory=list)
