"""Every text table in one shape: ``Words(es=..., en=...)`` under a key, in a named table.

The seat displays (``tabled.i18n``), the system card's standard answers (``tabled.syscard``),
the bridge words (``tabled.words``) and the server's pages (``server.i18n``, filled by
``server.display_texts`` and ``server.console_texts``) all keep their texts here: one
registry (``REGISTRY``), one lookup (``TextTable.text``) that names the table and the key it
lacks, or the language it does not know. A ``Words`` cannot be built without both languages.

Standard library only: the table daemon imports it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

LANGUAGES = ("es", "en")
"""The languages every text has: Spanish, the room's usual one, and English."""

K = TypeVar("K", bound=Hashable)


class UnknownLanguage(KeyError):
    """A language no text is written in."""

    def __init__(self, language: object) -> None:
        super().__init__(language)
        self.language = language

    def __str__(self) -> str:
        return f"no texts in language {self.language!r}: one of {', '.join(LANGUAGES)}"


class MissingText(KeyError):
    """A key that a text table does not have."""

    def __init__(self, table: str, key: object) -> None:
        super().__init__(key)
        self.table = table
        self.key = key

    def __str__(self) -> str:
        return f"the {self.table!r} texts have no {self.key!r}"


@dataclass(frozen=True, slots=True)
class Words:
    """One text in both languages; ``words["es"]`` reads one of them."""

    es: str
    en: str

    def __post_init__(self) -> None:
        for language in LANGUAGES:
            if not isinstance(getattr(self, language), str):
                raise TypeError(f"the {language!r} text is not a string: "
                                f"{getattr(self, language)!r}")

    def __getitem__(self, language: str) -> str:
        if language == "es":
            return self.es
        if language == "en":
            return self.en
        raise UnknownLanguage(language)


class TextTable(Mapping[K, Words], Generic[K]):
    """A named table of texts: a read-only mapping of key to ``Words``, grown with ``add``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._entries: dict[K, Words] = {}

    def add(self, entries: Mapping[K, Words]) -> None:
        """Add texts; a key already here, or a value that is not ``Words``, is refused."""
        for key, words in entries.items():
            if not isinstance(words, Words):
                raise TypeError(f"the {self.name!r} text {key!r} is not Words: {words!r}")
            if key in self._entries:
                raise ValueError(f"the {self.name!r} texts already have {key!r}")
        self._entries.update(entries)

    def text(self, key: K, language: str, /, **args: Any) -> str:
        """The text under ``key`` in ``language``, its ``{fields}`` filled from ``args``."""
        words = self._entries.get(key)
        if words is None:
            raise MissingText(self.name, key)
        template = words[language]
        return template.format(**args) if args else template

    def __getitem__(self, key: K) -> Words:
        words = self._entries.get(key)
        if words is None:
            raise MissingText(self.name, key)
        return words

    def __iter__(self) -> Iterator[K]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<TextTable {self.name!r}: {len(self)} texts>"


REGISTRY: dict[str, TextTable[Any]] = {}
"""Every text table by its name (the test of both languages reads them all from here)."""


def table(name: str, entries: Mapping[K, Words] | None = None) -> TextTable[K]:
    """A new text table under ``name`` in the registry, with ``entries`` if given."""
    if name in REGISTRY:
        raise ValueError(f"there is already a text table {name!r}")
    found: TextTable[K] = TextTable(name)
    if entries is not None:
        found.add(entries)
    REGISTRY[name] = found
    return found
