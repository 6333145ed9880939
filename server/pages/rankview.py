"""The rankings of a large field as a person reads them: a page at a time, filtered by
section, and searched by a pair's number or label or a player's name (docs/display.md); and
the console's results grid, a section or a page of tables at a time (``grid_page``).

A national simultaneous of 5,000 tables ranks 10,000 pairs in hundreds of groups: the whole
list is megabytes of page that nobody reads through. The public page, its API and the
director's console all take the same query (``?q=``, ``?section=``, ``?page=``) and show
``PAGE_ROWS`` rows of it, in the rankings' own order (section by section, North-South
first), with how many matched and how many pages they fill.

The search folds case and accents (``García`` is found by ``garcia``): a number finds the pair
of that number and the pairs numbered so within their section (``12`` finds "12 NS", "A12 NS"
and "B12 EW"; with ``section=A`` only A's); a label finds its pairs (``a12``, ``a12 ns``); other
text finds the pairs whose names hold it.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

PAGE_ROWS = 100
"""Rows a page of the rankings holds."""
MAX_TEXT = 64
MAX_PAGE = 10_000
_SECTION = re.compile(r"[A-Z]{1,4}")


class QueryError(ValueError):
    """A query the rankings cannot take; the message says which part and why."""


def fold(text: str) -> str:
    """Lower case, no accents, single spaces: "  García  Ñúñez" -> "garcia nunez"."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text)
                    if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


def section_arg(args: Mapping[str, str]) -> str:
    """A request's ``section`` (upper case, "" for none); QueryError for one that is not a
    section's letters. The rankings' and the console's tables grid's alike."""
    section = str(args.get("section", "")).strip().upper()
    if section and not _SECTION.fullmatch(section):
        raise QueryError(f"section {section[:8]!r}: a section's letters, such as A or AB")
    return section


def page_arg(args: Mapping[str, str], name: str = "page") -> int:
    """A request's page number (1 when none); QueryError for one out of bounds."""
    raw = str(args.get(name, "1")).strip() or "1"
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= MAX_PAGE:
        raise QueryError(f"{name} {raw[:8]!r}: a number from 1 to {MAX_PAGE}")
    return int(raw)


@dataclass(frozen=True)
class RankingQuery:
    text: str = ""
    section: str = ""
    page: int = 1

    @classmethod
    def from_args(cls, args: Mapping[str, str]) -> RankingQuery:
        """The query of a request's arguments; QueryError for one out of bounds."""
        text = " ".join(str(args.get("q", "")).split())
        if len(text) > MAX_TEXT:
            raise QueryError(f"q: at most {MAX_TEXT} characters")
        return cls(text, section_arg(args), page_arg(args))

    @property
    def filtered(self) -> bool:
        return bool(self.text or self.section)

    def args(self, **changes: Any) -> dict[str, Any]:
        """The query as URL arguments, with ``changes``; the defaults left out."""
        values = {"q": self.text, "section": self.section, "page": self.page, **changes}
        return {k: v for k, v in values.items()
                if v not in ("", None) and not (k == "page" and v == 1)}


@dataclass(frozen=True)
class RankingPage:
    rows: list[Any]         # this page's standings, in the rankings' order
    query: RankingQuery
    page: int               # the page shown (the last one if the query asked past it)
    pages: int              # pages the matched rows fill (1 when none matched)
    matched: int            # rows the query matched
    total: int              # rows in the rankings
    sections: list[str]     # the sections of the field, in order ("" when it has none)
    first: int              # the place of this page's first row among the matched (1-based)

    def to_json(self) -> dict[str, Any]:
        return {"q": self.query.text, "section": self.query.section, "page": self.page,
                "pages": self.pages, "matched": self.matched, "total": self.total,
                "page_rows": PAGE_ROWS, "sections": self.sections}


def _matches(needle: str, number: int, label: str, names: str) -> bool:
    folded = fold(label)
    token = folded.split(" ")[0]
    if needle.isdigit():  # a pair's number, or its number within its section ("A12")
        return int(needle) == number or token.lstrip("abcdefghijklmnopqrstuvwxyz") == needle
    return token == needle or folded == needle or folded.startswith(needle + " ") \
        or needle in fold(names)


def select(standings: Sequence[Any], query: RankingQuery, *,
           labels: Mapping[int, tuple[str, str]], order: Callable[[str], Any],
           section_of: Callable[[str], str]) -> RankingPage:
    """The page of ``standings`` (rows with ``participant`` and ``group``) that ``query``
    asks for. ``labels``: each participant's (label, names); ``order``: a group's sort key
    (the rankings' order); ``section_of``: a group's section letter, "" for none."""
    ordered = sorted(standings, key=lambda row: order(row.group))  # stable within a group
    sections = sorted({section_of(row.group) for row in ordered} - {""},
                      key=lambda s: (len(s), s))
    kept = ordered
    if query.section:
        kept = [row for row in kept if section_of(row.group) == query.section]
    needle = fold(query.text)
    if needle:
        kept = [row for row in kept
                if _matches(needle, row.participant,
                            *labels.get(row.participant, (str(row.participant), "")))]
    pages = max(1, math.ceil(len(kept) / PAGE_ROWS))
    page = min(query.page, pages)
    start = (page - 1) * PAGE_ROWS
    return RankingPage(kept[start:start + PAGE_ROWS], query, page, pages, len(kept),
                       len(ordered), sections, start + 1)


# -- the console's results grid ------------------------------------------------------------

GRID_TABLES = 50
"""The most tables (columns) the console's results grid shows at once: a club's whole room;
of a bigger field, one section (``?section=``, the rankings' own), or a page of tables
(``?grid=``) when it has no sections. At 5,000 tables the whole grid was 8 MB of page."""


@dataclass(frozen=True)
class GridPage:
    tables: list[int]       # the tables shown, in order
    page: int               # the page of tables (a field without sections)
    pages: int              # pages of tables (1 for a field shown whole or by section)
    section: str            # the section shown, "" for all or none
    sections: list[str]     # the field's sections, when it is shown by section

    def args(self, **changes: Any) -> dict[str, Any]:
        """The grid's place as URL arguments, with ``changes``; the defaults left out."""
        values = {"section": self.section, "grid": self.page, **changes}
        return {k: v for k, v in values.items()
                if v not in ("", None) and not (k == "grid" and v == 1)}


def grid_page(tables: int, sections: Sequence[tuple[str, Sequence[int]]],
              args: Mapping[str, str]) -> GridPage:
    """The tables of the results grid the request's ``section`` and ``grid`` ask for, of a
    field of ``tables`` tables in ``sections`` ((letter, its tables); empty: none). The
    whole field up to ``GRID_TABLES``; else the section asked for (the first when none or
    one the field does not have), or, without sections, the page of tables asked for (the
    last when past it)."""
    every = list(range(1, tables + 1))
    if tables <= GRID_TABLES:
        return GridPage(every, 1, 1, "", [])
    if len(sections) > 1:
        letters = [letter for letter, _ in sections]
        asked = str(args.get("section", "")).strip().upper()
        letter = asked if asked in letters else letters[0]
        return GridPage(list(dict(sections)[letter]), 1, 1, letter, letters)
    pages = math.ceil(tables / GRID_TABLES)
    raw = str(args.get("grid", "1")).strip()
    page = min(int(raw), pages) if raw.isascii() and raw.isdigit() and int(raw) >= 1 else 1
    start = (page - 1) * GRID_TABLES
    return GridPage(every[start:start + GRID_TABLES], page, pages, "", [])
