"""Tag tables: which RFID tag stands for which card of which deck.

In duplicate every board carries its own deck, so a table file holds every deck of the event
and a tag must be unique across the whole file. The file is JSON, one object per deck mapping
card to tag in deck order::

    {"format": "bidbox-tags", "version": 1,
     "decks": {"board-01": {"C2": "04A1B2C3", "C3": "04A1B2C4", ..., "SA": "04A1B2F6"}}}

Decks are learnt by scanning them (``hardware.register``).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from laws import Card

from .errors import ConfigError, DuplicateTagError
from .protocol import TagRead

FORMAT = "bidbox-tags"
VERSION = 1


class TagEntry(NamedTuple):
    card: Card
    deck: str


class CardCodes(Protocol):
    """What the card reader asks of a code table: the card a tag stands for, if any."""

    def lookup(self, tag: str) -> TagEntry | None: ...


def _check_tag(tag: str) -> str:
    try:
        TagRead(tag)
    except ValueError:
        raise ConfigError(f"not a tag UID: {tag!r}") from None
    return tag


def _check_deck_name(deck: str) -> str:
    if not deck or len(deck) > 32 or not deck.isprintable() or deck != deck.strip():
        raise ConfigError(f"a deck name is 1-32 printable characters: {deck!r}")
    return deck


class TagTable:
    """Every registered deck: card to tag per deck, and the index from tag to (card, deck)."""

    def __init__(self, decks: Mapping[str, Mapping[Card, str]] | None = None) -> None:
        self._decks: dict[str, dict[Card, str]] = {}
        self._index: dict[str, TagEntry] = {}
        for deck, cards in (decks or {}).items():
            if set(cards) != set(Card.ALL):
                raise ConfigError(f"deck {deck!r} needs a tag for each of the 52 cards")
            self.add_deck(deck, [cards[card] for card in Card.ALL])

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, tag: object) -> bool:
        return tag in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._decks)

    @property
    def decks(self) -> tuple[str, ...]:
        return tuple(self._decks)

    def deck(self, name: str) -> Mapping[Card, str]:
        return dict(self._decks[name])

    def lookup(self, tag: str) -> TagEntry | None:
        return self._index.get(tag)

    def add_deck(self, deck: str, tags: Sequence[str], *, replace: bool = False) -> None:
        """Add a deck from its 52 tags in ``Card.ALL`` order (C2..CA, D2..DA, H2..HA, S2..SA)."""
        _check_deck_name(deck)
        if len(tags) != 52:
            raise ConfigError(f"deck {deck!r} needs 52 tags, has {len(tags)}")
        if deck in self._decks and not replace:
            raise ConfigError(f"deck {deck!r} is already registered")
        seen: set[str] = set()
        for card, tag in zip(Card.ALL, tags, strict=True):
            _check_tag(tag)
            entry = self._index.get(tag)
            if tag in seen:
                raise DuplicateTagError(f"tag {tag} for {card} is twice in this deck", tag)
            if entry is not None and entry.deck != deck:
                raise DuplicateTagError(
                    f"tag {tag} for {card} is already {entry.card} of deck {entry.deck!r}", tag)
            seen.add(tag)
        self.remove_deck(deck)
        self._decks[deck] = dict(zip(Card.ALL, tags, strict=True))
        self._index.update((tag, TagEntry(card, deck)) for card, tag in zip(Card.ALL, tags,
                                                                             strict=True))

    def remove_deck(self, deck: str) -> None:
        for tag in self._decks.pop(deck, {}).values():
            del self._index[tag]

    # -- files ------------------------------------------------------------------------------

    def dumps(self) -> str:
        decks = {deck: {str(card): tag for card, tag in cards.items()}
                 for deck, cards in self._decks.items()}
        return json.dumps({"format": FORMAT, "version": VERSION, "decks": decks}, indent=1) + "\n"

    def dump(self, path: str | Path) -> None:
        """Write the table to ``path``, atomically (a crash never leaves half a file)."""
        path = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as stream:
                stream.write(self.dumps())
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise

    @classmethod
    def loads(cls, text: str) -> TagTable:
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"tag table is not JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ConfigError(f"not a {FORMAT} file")
        if data.get("version") != VERSION:
            raise ConfigError(f"tag table version {data.get('version')!r} is not {VERSION}")
        table = cls()
        for deck, cards in data.get("decks", {}).items():
            try:
                by_card = {Card.from_str(text): tag for text, tag in cards.items()}
            except (AttributeError, ValueError) as exc:
                raise ConfigError(f"deck {deck!r}: {exc}") from None
            if len(by_card) != 52:
                raise ConfigError(f"deck {deck!r} has {len(by_card)} cards, not 52")
            try:
                table.add_deck(deck, [by_card[card] for card in Card.ALL])
            except DuplicateTagError as exc:
                raise ConfigError(f"a tag is in the file twice: {exc}") from None
        return table

    @classmethod
    def load(cls, path: str | Path) -> TagTable:
        return cls.loads(Path(path).read_text(encoding="utf-8"))
