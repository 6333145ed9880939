"""The director's tables grid of a large field, as a director reads it: a page of tables at a
time, or one section's (docs/console.md, "A large field").

A club's room of 10 or 30 tables is one page, as before. A simultaneous of thousands of tables
is not: nobody reads 5,000 rows, and a grid of 5,000 rows that the director's browser keeps
current costs the server a render of every row that changes, at the round's start every table
every few seconds. The console shows ``PAGE_TABLES`` tables (``?page=``), or a section's
(``?section=B``, paged the same way when a section is larger); the director calls queue, the
round clock and the storage line stay whole above it. The live stream names the tables that
changed: the page fetches the rows of those it shows and leaves the others (console.js).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.pages.rankview import QueryError, page_arg, section_arg
from server.setup.movements import Sectioned
from server.setup.session import Session

__all__ = ["PAGE_TABLES", "QueryError", "TablesView", "default_view", "tables_view"]

PAGE_TABLES = 100
"""Tables a page of the console's grid holds."""


@dataclass(frozen=True)
class TablesView:
    first: int            # the first table number shown (1-based); last < first: none
    last: int             # the last table number shown
    page: int             # the page shown (the last one if the query asked past it)
    pages: int            # pages the chosen tables fill
    section: str          # the section chosen, "" for the whole field
    sections: tuple[str, ...]  # the field's sections, in order; () when it has none
    total: int            # tables in the session

    @property
    def tables(self) -> range:
        return range(self.first, self.last + 1)

    @property
    def paged(self) -> bool:
        """Whether the grid shows part of the field (and so the page names its part)."""
        return self.pages > 1 or bool(self.section)

    def args(self, **changes: Any) -> dict[str, Any]:
        """The view as URL arguments, with ``changes``; the defaults left out."""
        values = {"section": self.section, "page": self.page, **changes}
        return {k: v for k, v in values.items()
                if v not in ("", None) and not (k == "page" and v == 1)}


def _section_range(session: Session, letter: str) -> range:
    plan = session.plan
    if not isinstance(plan, Sectioned):
        raise QueryError(f"section {letter!r}: this session has no sections")
    for index, part in enumerate(plan.sections):
        if part.letter == letter:
            following = (plan.first_tables[index + 1] if index + 1 < len(plan.sections)
                         else plan.tables)
            return range(plan.first_tables[index] + 1, following + 1)
    raise QueryError(f"section {letter!r}: no such section in this session")


def tables_view(session: Session | None, args: Mapping[str, str]) -> TablesView:
    """The tables ``args`` (``section``, ``page``) ask for; QueryError for a bad one."""
    total = 0 if session is None else session.tables
    letters = tuple(part.letter for part in session.sections) if session else ()
    section, page_asked = section_arg(args), page_arg(args)
    chosen = range(1, total + 1)
    if section and session is not None:
        chosen = _section_range(session, section)
    pages = max(1, math.ceil(len(chosen) / PAGE_TABLES))
    page = min(page_asked, pages)
    shown = chosen[(page - 1) * PAGE_TABLES:page * PAGE_TABLES]
    first, last = (shown[0], shown[-1]) if shown else (1, 0)
    return TablesView(first, last, page, pages, section, letters, total)


def default_view(session: Session | None) -> TablesView:
    """The first page of the whole field."""
    return tables_view(session, {})
