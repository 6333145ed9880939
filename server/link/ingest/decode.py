"""Decoding: a topic and its payload made into typed values, or the reason they are refused.

Every payload is decoded by ``tablemodel.wire`` (events, retained state); here the topic is
checked against the session and the presence payload against its two words. What cannot be
read becomes a rejection row, kept printable whatever bytes came.
"""

from __future__ import annotations

from typing import Any

from tablemodel.wire import OFFLINE, ONLINE, Event, WireError, parse_topic, state_from_payload

#: (table, kind, value): kind is "events" (an Event), "status" (ONLINE or OFFLINE) or
#: "state" (the retained snapshot as tablemodel.wire reads it).
Decoded = tuple[int, str, Any]


def decode(session: str, topic: str, payload: bytes | str) -> Decoded:
    """The table, the kind of topic and the typed value of one message of ``session``'s
    namespace; a ``WireError`` says why it cannot be read."""
    event, table, kind = parse_topic(topic)
    if event != session:
        raise WireError(f"event {event!r} is not this session's ({session!r})")
    if kind == "events":
        return table, kind, Event.from_payload(payload)
    if kind == "status":
        value = payload.encode() if isinstance(payload, str) else bytes(payload)
        if value not in (ONLINE, OFFLINE):
            raise WireError(f"status {value[:40]!r} is neither online nor offline")
        return table, kind, value
    if kind == "state":
        return table, kind, state_from_payload(payload)
    raise WireError(f"the server does not read {kind!r} topics")


def rejection_row(at: float, topic: str, payload: bytes | str, reason: str) -> dict[str, Any]:
    """The rejections row of a message that cannot be stored."""
    size = len(payload.encode() if isinstance(payload, str) else payload)
    return {"at": at, "topic": printable(topic)[:200], "reason": printable(reason)[:300],
            "size": size}


def printable(text: str) -> str:
    """Text any store takes: control characters and lone surrogates (which no database
    holds) written as escapes; everything else kept as it came."""
    return "".join(ch if " " <= ch != "\x7f" and not "\ud800" <= ch <= "\udfff"
                   else f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"
                   for ch in text)
