"""Each test gets a table of its own (tests/laws/table.py), its thread stopped afterwards."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .table import LawTable

MakeTable = Callable[..., LawTable]


@pytest.fixture
def make_table(tmp_path: Path) -> Iterator[MakeTable]:
    made: list[LawTable] = []

    def make(language: str = "en") -> LawTable:
        table = LawTable(tmp_path / f"table-{len(made)}.db", language)
        made.append(table)
        return table

    yield make
    for table in made:
        table.close()


@pytest.fixture
def table(make_table: MakeTable) -> LawTable:
    return make_table()
