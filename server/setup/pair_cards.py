"""Each pair's system card (tablemodel.syscard), as the director loads it in the console.

A card is a JSON file, read with ``SystemCard.from_json``: a file that is not a card is
refused with the reason, and nothing is stored. The example card (the natural system of
seed 004) can be given to any pair. A card is stored in its own normal form
(``SystemCard.to_json``), and each round's assignment carries the cards of the pairs seated
at the table (``session.assignment``), so a card must leave room for the other pair's and
the deals in one MQTT payload (``MAX_CARD_BYTES``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select

from server.setup.movements import Plays
from server.setup.session import Session, SessionError, participants_of
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.syscard import CardError, SystemCard, example

MAX_CARD_BYTES = 24_000
"""A card's JSON, compact, at most: two of them and 64 deals stay under the wire's 64 KB."""
MAX_FILE_BYTES = 512_000
"""A file bigger than this is not read at all (a card's 400 entries fit in far less)."""


class CardRefused(SessionError):
    """A card the director must fix: the message says why (from tablemodel.syscard)."""


@dataclass(frozen=True)
class LoadedCard:
    participant: int
    name: str
    card: SystemCard
    loaded_at: float
    loaded_by: str | None


def encoded(card: SystemCard) -> str:
    return json.dumps(card.to_json(), ensure_ascii=False, separators=(",", ":"))


def read(data: bytes | str) -> SystemCard:
    """A card from an uploaded file, or :class:`CardRefused` with the reason."""
    if len(data) > MAX_FILE_BYTES:
        raise CardRefused(f"the file has {len(data)} bytes; a card has at most "
                          f"{MAX_CARD_BYTES}")
    try:
        card = SystemCard.loads(data)
    except CardError as error:
        raise CardRefused(f"not a system card: {error}") from None
    size = len(encoded(card).encode())
    if size > MAX_CARD_BYTES:
        raise CardRefused(f"the card takes {size} bytes; at most {MAX_CARD_BYTES} fit beside "
                          "the other pair's card in the table's assignment")
    return card


def _pairs(db: Database, session: Session) -> set[int]:
    """Who may have a card: every participant but the phantom, and no one in the individual
    (no fixed partnerships: the cards would change hands every partida)."""
    if session.kind.plays is Plays.PLAYERS:
        return set()
    return {number for number, row in participants_of(db, session).items() if not row.phantom}


def store(db: Database, session: Session, participant: int, card: SystemCard, *,
          by: str | None = None, clock: Any = time.time) -> None:
    """Give ``participant`` the card (replacing the one it had)."""
    if session.kind.plays is Plays.PLAYERS:
        raise CardRefused("an individual has no fixed pairs: no system cards are sent")
    if participant not in _pairs(db, session):
        raise CardRefused(f"participant {participant} is not a pair of this session")
    text = encoded(card)
    if len(text.encode()) > MAX_CARD_BYTES:
        raise CardRefused(f"the card takes more than {MAX_CARD_BYTES} bytes")
    with db.write() as conn:
        conn.execute(delete(s.system_cards).where(
            s.system_cards.c.session_id == session.id,
            s.system_cards.c.participant == participant))
        conn.execute(insert(s.system_cards).values(
            session_id=session.id, participant=participant, name=card.name[:80], card=text,
            loaded_at=clock(), loaded_by=by))


def store_file(db: Database, session: Session, participant: int, data: bytes | str, *,
               by: str | None = None) -> SystemCard:
    card = read(data)
    store(db, session, participant, card, by=by)
    return card


def store_example(db: Database, session: Session, participant: int, *,
                  by: str | None = None) -> SystemCard:
    card = example()
    store(db, session, participant, card, by=by)
    return card


def remove(db: Database, session: Session, participant: int) -> bool:
    """Take ``participant``'s card away; whether it had one."""
    with db.write() as conn:
        done = conn.execute(delete(s.system_cards).where(
            s.system_cards.c.session_id == session.id,
            s.system_cards.c.participant == participant))
    return bool(done.rowcount)


def loaded(db: Database, session: Session) -> dict[int, LoadedCard]:
    """The session's cards, by participant."""
    with db.read() as conn:
        rows = conn.execute(select(s.system_cards).where(
            s.system_cards.c.session_id == session.id).order_by(
            s.system_cards.c.participant)).all()
    return {row.participant: LoadedCard(row.participant, row.name,
                                        SystemCard.from_json(json.loads(row.card)),
                                        row.loaded_at, row.loaded_by) for row in rows}


def card_of(db: Database, session: Session, participant: int) -> LoadedCard | None:
    return loaded(db, session).get(participant)
