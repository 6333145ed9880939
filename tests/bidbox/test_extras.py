"""``pip install bidbox`` without extras: the engine's tools work, and every other command
says which extra to install instead of ending in a ``ModuleNotFoundError`` traceback.

The bare install is a real virtual environment with nothing but the standard library and
this checkout on its path (a ``.pth`` file, as an editable install writes), so the test
needs no network."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bidbox.extras import EXTRAS
from tests.processes import run
from tests.records import REALBRIDGE, played_pbn

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c",
                              "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True, timeout=60)
    Path(purelib.stdout.strip(), "bidbox.pth").write_text(f"{REPO}\n")
    return python


def test_the_extras_listed_are_the_packages_pyproject_puts_in_them() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = project["optional-dependencies"]
    assert project["dependencies"] == []  # the engine and its tools: the standard library
    for extra, modules in EXTRAS.items():
        names = {spec.split(">")[0].split("[")[0].split("=")[0].strip().lower()
                 for spec in declared[extra]}
        assert {dist.lower() for dist in modules.values()} <= names, extra


@pytest.mark.parametrize(("command", "extras"), [
    (["server", "--port", "0"], "server"),
    (["demo"], "table,server"),
    (["loadtest"], "table,server"),
    (["simulate", "--records", "x.pbn", "--offline"], "table"),
    (["table", "--sim"], "table"),
])
def test_a_command_without_its_extra_says_which_to_install(
        bare_python: Path, command: list[str], extras: str) -> None:
    done = run([str(bare_python), "-m", "bidbox", *command], text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"pip install 'bidbox[{extras}]'" in done.stderr
    assert "Traceback" not in done.stderr and "ModuleNotFoundError" not in done.stderr


def test_the_engine_tools_need_no_extra(bare_python: Path) -> None:
    done = run([str(bare_python), "-m", "bidbox", "score", "4HX", "S", "9", "--vul", "NS"],
               text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "NS -200" in done.stdout  # Law 77: doubled, vulnerable, down one
    sample = played_pbn()  # the real qualifier's 299 records, or the golden pairs' 60
    count = 299 if sample == REALBRIDGE else 60
    done = run([str(bare_python), "-m", "bidbox", "replay", str(sample)], text=True,
               timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{count} records: {count} ok" in done.stdout
