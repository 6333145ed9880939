"""Fixtures of the table daemon tests: a journal in a temporary file, closed afterwards, and
tables driven through ``TableDaemon.handle`` (no thread)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tests.clock import Clock

from .helpers import Table

MakeTable = Callable[..., Table]


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    opened = Journal(tmp_path / "journal.db")
    yield opened
    opened.close()


@pytest.fixture
def make_table(tmp_path: Path) -> Iterator[MakeTable]:
    """Tables with a journal each, all closed at the end of the test."""
    journals: list[Journal] = []

    def make(language: str = "en") -> Table:
        journal = Journal(tmp_path / f"table-{len(journals)}.db")
        journals.append(journal)
        return Table(TableDaemon(journal, language=language, clock=Clock()))

    yield make
    for journal in journals:
        journal.close()


@pytest.fixture
def table(make_table: MakeTable) -> Table:
    return make_table()
