"""The import rules of docs/architecture.md, as import-linter contracts (pyproject.toml's
``[tool.importlinter]``), hold on the tree; a deliberate arrow back up is caught; and every
top-level package of the project is under the rules, so a new one cannot slip past them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("laws", "tablemodel", "tabled", "hardware", "mqttlink", "sim", "server", "bidbox",
            "firmware")


def _lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on ``tree`` (its packages first on the path), as ``make lint`` runs it."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    run = "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"
    return subprocess.run([sys.executable, "-c", run, "--config", str(tree / "pyproject.toml"),
                           "--no-cache"],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=300)


def _contracts() -> list[dict[str, object]]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return list(tomllib.load(handle)["tool"]["importlinter"]["contracts"])


def _copy(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    tree.mkdir()
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tree / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_the_tree_keeps_every_import_rule() -> None:
    done = _lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


@pytest.mark.parametrize(("module", "arrow", "contract"), [
    ("laws/cards.py", "import tablemodel.wire", "The laws engine"),
    ("tablemodel/wire.py", "import tabled.control", "The table's model"),
    ("hardware/keypad.py", "import tablemodel.state", "The drivers"),
    ("server/storage/db.py", "import tabled.daemon", "The server never imports"),
    ("mqttlink/client.py", "import laws", "The MQTT link"),
    # a circle, even one hidden in a function: the session value importing what starts rounds
    ("server/setup/session.py", "import server.link.rounds", "No import circle among the server"),
    # a wing importing one above it: the session's set-up importing the console's page
    ("server/setup/movements.py", "import server.pages.console", "The server's wings"),
])
def test_an_arrow_back_up_breaks_the_build(tmp_path: Path, module: str, arrow: str,
                                           contract: str) -> None:
    tree = _copy(tmp_path)
    source = tree / module
    source.write_text(source.read_text(encoding="utf-8") + f"\n{arrow}  # the back-arrow\n",
                      encoding="utf-8")
    done = _lint_imports(tree)
    assert done.returncode != 0
    broken = [line for line in done.stdout.splitlines() if line.endswith("BROKEN")]
    assert any(line.startswith(contract) for line in broken), done.stdout


def test_every_package_of_the_project_is_under_the_rules() -> None:
    """Each top-level package of the project is a root of the contracts and, below the top
    floor, the source of one (a new package cannot slip past the rules unnamed)."""
    on_disk = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests", "bench"}
    with (ROOT / "pyproject.toml").open("rb") as handle:
        roots = set(tomllib.load(handle)["tool"]["importlinter"]["root_packages"])
    assert on_disk == roots == set(PACKAGES)
    sources = {str(m) for contract in _contracts()
               for m in contract.get("source_modules", [])}  # type: ignore[attr-defined]
    # the command line (bidbox) is the top floor: it may import every other package
    assert roots - {"bidbox"} <= sources, sorted(roots - {"bidbox"} - sources)
