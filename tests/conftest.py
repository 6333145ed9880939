"""Shared fixtures: where the real tournament records live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs the property tests derandomized, so a red build is reproducible from its log.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

RECORDS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "records"


@pytest.fixture
def records_dir() -> Path:
    if not RECORDS.is_dir():
        pytest.skip("../shared/data/records is not beside this checkout")
    return RECORDS
