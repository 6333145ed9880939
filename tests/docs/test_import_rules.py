"""The import rules of docs/architecture.md, as import-linter contracts (pyproject.toml's
``[tool.importlinter]``), hold on the tree; a deliberate arrow back up is caught; and every
module of the table's package is named in the contracts that list them one by one, so a new
module cannot slip past the rules unnamed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("tabled", "hardware", "mqttlink", "sim", "server", "bidbox", "firmware")


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
    ("tabled/rules/cards.py", "import tabled.wire", "The laws engine"),
    ("tabled/wire.py", "import tabled.control", "The table's model"),
    ("hardware/keypad.py", "import tabled.state", "The drivers"),
    ("server/db.py", "import tabled.daemon", "The server never imports"),
    ("mqttlink/client.py", "import tabled.rules", "The MQTT link"),
    # the circle rulings <-> state <-> wire coming back, at the top of a module or hidden in
    # a function
    ("tabled/rulings.py", "import tabled.state", "The table's model imports one way"),
    ("tabled/table.py", "def _f() -> None:\n    from tabled.wire import Event",
     "The table's model imports one way"),
    ("tabled/wire.py", "import tabled.afterboard", "The table's model imports one way"),
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


def test_the_contracts_name_every_module_of_the_table() -> None:
    """The laws engine's and the drivers' contracts list the table's modules one by one
    (the laws engine lives inside ``tabled``): a new module of ``tabled`` must be added there."""
    modules = {f"tabled.{path.stem}" for path in (ROOT / "tabled").glob("*.py")
               if path.stem != "__init__"}
    modules |= {f"tabled.{path.name}" for path in (ROOT / "tabled").iterdir()
                if (path / "__init__.py").exists()}
    modules.discard("tabled.rules")
    for contract in _contracts():
        if contract.get("source_modules") in (["tabled.rules"], ["hardware"]):
            listed = {m for m in contract["forbidden_modules"]  # type: ignore[attr-defined]
                      if str(m).startswith("tabled.")}
            assert modules <= listed, (contract["name"], sorted(modules - listed))
