"""The golden records in tests/data are what the project's own dealer, bots, laws engine and
writers make today (tests/data/make_golden.py): the same code gives the same bytes."""

from __future__ import annotations

import pytest

from tests.data import make_golden
from tests.records import GOLDEN


@pytest.mark.parametrize(("name", "text"), list(make_golden.files()))
def test_the_golden_files_are_what_the_generator_makes(name: str, text: str) -> None:
    assert (GOLDEN / name).read_text() == text, (
        f"tests/data/{name} differs from what the bots and writers make now: "
        "if that change is meant, run python -m tests.data.make_golden")
