"""Every text table in one shape: ``Words(es=..., en=...)`` under a key, in a named table.

The seat displays (``tabled.i18n``), the system card's standard answers (``tablemodel.syscard``),
the bridge words (``tablemodel.words``) and the server's pages (``server.texts.i18n``, filled by
``server.texts.display_texts`` and ``server.texts.console_texts``) all keep their texts here: one
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


# -- laying texts out on a seat display --------------------------------------------------

WIDTH = 20
"""The columns of a seat display's line (a 20x4 LCD)."""

MORE = "→"
"""Ends a page when more of the text follows (the LCD's ROM has it: no custom character)."""


class TooWide(ValueError):
    """A display line longer than the display: a text that must be laid out, not cut."""

    def __init__(self, line: str, width: int = WIDTH) -> None:
        super().__init__(f"{len(line)} characters on a {width}-column line: {line!r}")
        self.line = line


def fit(line: str, width: int = WIDTH) -> str:
    """``line`` as it is, or ``TooWide``: a seat display never cuts a line silently."""
    if len(line) > width:
        raise TooWide(line, width)
    return line


def first_fitting(*candidates: str, width: int = WIDTH) -> str:
    """The first of ``candidates`` that fits a line (the fuller forms first, the shorter
    after); ``TooWide`` if none does."""
    for text in candidates:
        if len(text) <= width:
            return text
    raise TooWide(candidates[-1], width)


KEEP = "\u00a0"
"""A space that ``wrap`` does not break at ("1 require": an option's key and its word stay
together); shown as a space."""


def wrap(text: str, width: int = WIDTH) -> list[str]:
    """``text`` over as many lines of ``width`` as it needs, broken between words (never at
    ``KEEP``); a word longer than a line (a long name) is broken where the line ends.
    Never an empty list."""
    return [line.replace(KEEP, " ") for line in _wrap(text, width)]


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.replace("\t", " ").replace("\n", " ").split(" "):
        if not word:
            continue
        while word:
            joined = f"{line} {word}" if line else word
            if len(joined) <= width:
                line, word = joined, ""
            elif len(word) <= width:  # the word starts the next line
                lines.append(line)
                line = ""
            else:  # a word longer than any line fills this one and goes on below
                room = width - len(line) - 1 if line else width
                if room < 2:
                    lines.append(line)
                    line = ""
                    continue
                lines.append(f"{line} {word[:room]}" if line else word[:room])
                line, word = "", word[room:]
    if line or not lines:
        lines.append(line)
    return lines


def pages(text: str, lines: int, width: int = WIDTH) -> list[list[str]]:
    """``text`` laid out in pages of ``lines`` lines: one page if it fits, else pages whose
    last line ends with ``MORE`` (wrapped one column short to leave it room) but the last
    page's. The seat reads on with the page's key (docs/keypad.md)."""
    if lines < 1:
        raise ValueError("a page has at least one line")
    whole = wrap(text, width)
    if len(whole) <= lines:
        return [whole]
    narrow = wrap(text, width - 1)
    split = [narrow[i:i + lines] for i in range(0, len(narrow), lines)]
    for page in split[:-1]:
        page[-1] = page[-1].ljust(width - 1) + MORE
    return split


def page(text: str, lines: int, at: int, width: int = WIDTH) -> list[str]:
    """Page ``at`` of ``text`` (round to the first after the last)."""
    found = pages(text, lines, width)
    return found[at % len(found)]
