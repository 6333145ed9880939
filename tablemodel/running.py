"""The running session: the one event the server runs now, told to every table.

A club provisions its tables once; each week's session is created in the director's console
and named there (its ``event``, the level of the topics below ``bidbox/v1/``). The server
publishes which one runs, retained and at QoS 1, on ``bidbox/v1/session``:
``{"v":1,"event":"club-2026-11-28","title":"Martes"}``. A table that follows the server
(tabled.config: no ``event`` of its own) subscribes to it beside its commands, and moves to
the session it names once it is between boards (tabled.daemon). docs/mqtt.md, "The running
session".

A module apart from tablemodel.wire, which holds the table's events and commands: this is the
only message about the room rather than one table, and it never enters a journal.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .wire import ROOT, VERSION, WireError

SESSION_TOPIC = f"{ROOT}/session"
"""Retained, QoS 1: the server writes it, every table reads it (docs/broker.md)."""
EVENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")
"""What can name a session in the topics: one topic level, a word of the broker's ACL file,
and a file name on the table (its journal), at most 64 characters (the server's column)."""
MAX_TITLE = 200
MAX_SESSION = 1024
"""Bytes: the most a session's payload may be."""


def check_event(name: str) -> str:
    """``name`` if it can name a session, else ValueError saying what may."""
    if not EVENT_NAME.match(name):
        raise ValueError(f"event name {name!r}: 1 to 64 letters, digits, '.', '_' or '-', "
                         "starting with a letter or a digit (it becomes one topic level)")
    return name


@dataclass(frozen=True)
class RunningSession:
    """Which session the server runs: its event (the topics' level) and its title."""

    event: str
    title: str = ""

    def __post_init__(self) -> None:
        check_event(self.event)
        if len(self.title) > MAX_TITLE:
            raise ValueError(f"a session's title is at most {MAX_TITLE} characters")

    def to_payload(self) -> bytes:
        return json.dumps({"v": VERSION, "event": self.event, "title": self.title},
                          separators=(",", ":"), ensure_ascii=False).encode()

    @classmethod
    def from_payload(cls, payload: bytes | str) -> RunningSession:
        """The retained message read back; a ``WireError`` says why it cannot be."""
        raw = payload.encode() if isinstance(payload, str) else bytes(payload)
        if len(raw) > MAX_SESSION:
            raise WireError(f"session of {len(raw)} bytes is over {MAX_SESSION}")
        try:
            value = json.loads(raw.decode())
        except (ValueError, UnicodeDecodeError) as error:
            raise WireError(f"session is not JSON: {error}") from None
        if not isinstance(value, dict) or set(value) - {"v", "event", "title"}:
            raise WireError("session: a JSON object of v, event and title")
        if type(value.get("v")) is not int or value["v"] != VERSION:
            raise WireError(f"session has wire version {value.get('v')!r}, not {VERSION}")
        event, title = value.get("event"), value.get("title", "")
        if not isinstance(event, str) or not isinstance(title, str):
            raise WireError("session: the event and the title are text")
        try:
            return cls(event, title)
        except ValueError as error:
            raise WireError(f"session: {error}") from None
