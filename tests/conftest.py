"""Shared fixtures: where the real tournament records live."""

from __future__ import annotations

from pathlib import Path

import pytest

RECORDS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "records"


@pytest.fixture
def records_dir() -> Path:
    if not RECORDS.is_dir():
        pytest.skip("../shared/data/records is not beside this checkout")
    return RECORDS
