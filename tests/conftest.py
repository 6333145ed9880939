"""Shared settings for the whole suite: where the tournament records live (tests/records.py),
the property tests' profile on CI, and the markers that let a developer run the fast part
alone.

Markers (pyproject.toml declares them) are given here from what a test uses, so no test can
forget its own: ``broker`` (a real Mosquitto), ``browser`` (Chromium), ``postgres`` (a
PostgreSQL server) and ``slow`` (whole commands, fault injection, long fuzzing).
``make test-fast`` runs what has none of them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tests.records import SHARED, played_pbn

# The fixtures every folder may use, defined once: a real Mosquitto (broker, broker_users,
# mosquitto_bin, mqtt_connect) and a fresh PostgreSQL database (pg_url). pytest takes
# pytest_plugins only from the top conftest.
pytest_plugins = ["tests.fixtures.broker", "tests.fixtures.postgres"]

# CI runs the property tests derandomized, so a red build is reproducible from its log.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parents[1]

#: marker -> the fixtures that give it (pytest's fixture closure: a fixture that needs them
#: counts too).
BY_FIXTURE: dict[str, frozenset[str]] = {
    "broker": frozenset({"mosquitto_bin", "fault_broker"}),
    "browser": frozenset({"chromium"}),
    "postgres": frozenset({"pg_url"}),
}
#: marker -> the test files and folders that have it whatever their fixtures: they start
#: commands that start a broker of their own, or run for many seconds.
BY_PATH: dict[str, tuple[str, ...]] = {
    "broker": ("tests/demo/", "tests/loadtest/", "tests/bidbox/test_signals.py"),
    "slow": ("tests/demo/", "tests/loadtest/", "tests/faults/", "tests/bidbox/test_signals.py",
             "tests/table_system/test_power_cut.py", "tests/firmware/test_micropython.py",
             "tests/server/test_printouts.py"),
    "server": ("tests/server/",),
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path)).resolve().relative_to(ROOT).as_posix()
        fixtures = set(getattr(item, "fixturenames", ()))
        params = getattr(getattr(item, "callspec", None), "params", {})
        for marker, names in BY_FIXTURE.items():
            if fixtures & names:
                item.add_marker(marker)
        if params.get("database") == "postgresql":
            item.add_marker("postgres")
        for marker, prefixes in BY_PATH.items():
            if path.startswith(prefixes):
                item.add_marker(marker)


@pytest.fixture
def records_dir() -> Path:
    """The real records, for a test of what one real file holds."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} (../shared/data/records) is not beside this checkout")
    return SHARED


@pytest.fixture
def played_records() -> Path:
    """A PBN of boards played through: the real qualifier, or the golden pairs session."""
    return played_pbn()
