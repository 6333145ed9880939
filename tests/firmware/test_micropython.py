"""The boards' code under MicroPython itself, not only under CPython.

MicroPython's WebAssembly port (the npm package
``@micropython/micropython-webassembly-pyscript``) runs in Node.js. This test copies the
on-board files and the simulated hardware into its file system, runs scenario.py there and
here, and checks that the boards sent the very same bytes: what CPython allows and
MicroPython lacks (a missing str method, slice deletion on a bytearray, a different
exception) shows up as a failure here. ``make test`` installs the package into ``.tools/``
(scripts/setup.py); the test also finds it in npm's global root, or where
``BIDBOX_MICROPYTHON_WASM`` points. It skips only when Node.js or the package is missing.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware import flash
from tests.processes import run

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PACKAGE = "@micropython/micropython-webassembly-pyscript"


def micropython_module() -> Path | None:
    configured = os.environ.get("BIDBOX_MICROPYTHON_WASM")
    if configured:
        return Path(configured)
    local = REPO / ".tools" / "node_modules" / PACKAGE / "micropython.mjs"
    if local.is_file():  # where scripts/setup.py (make test) installs it
        return local
    npm = shutil.which("npm")
    if npm is None:
        return None
    result = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, check=False)
    candidate = Path(result.stdout.strip()) / PACKAGE / "micropython.mjs"
    return candidate if result.returncode == 0 and candidate.is_file() else None


MODULE = micropython_module() if shutil.which("node") else None
pytestmark_micropython = pytest.mark.skipif(MODULE is None,
                                            reason=f"Node.js and {PACKAGE} are needed")
pytestmark = pytestmark_micropython


def micropython_files(scenario: str) -> list[str]:
    """The on-board files, the simulated hardware and ``tests/firmware/<scenario>.py``, as
    paths from the repository's root for micropython_run.mjs."""
    files = sorted({p.relative_to(REPO).as_posix()
                    for board in flash.BOARDS for p in flash.board_files(board)})
    files += ["tests/__init__.py", "tests/firmware/__init__.py"]
    files += [f"tests/firmware/{name}.py"
              for name in ("fakes", "fake_mfrc522", "fake_pn532", "fake_matrix", scenario)]
    return files

def both_interpreters(scenario: str) -> tuple[list[bytes], list[bytes]]:
    """What ``tests/firmware/<scenario>.py``'s ``run(emit)`` emits under MicroPython, and
    under CPython here."""
    assert MODULE is not None
    code = (f"import sys\nsys.path.append('/lib')\nfrom tests.firmware import {scenario}\n"
            f"{scenario}.run(lambda data: print(''.join(['%02x' % b for b in data])))\n"
            "print('done')\n")
    result = run(["node", str(HERE / "micropython_run.mjs"), str(MODULE), str(REPO),
                  *micropython_files(scenario)], input=code, text=True, timeout=300)
    assert result.returncode == 0, result.stderr + result.stdout[-2000:]
    *sent, done = result.stdout.split()
    assert done == "done"
    expected: list[bytes] = []
    importlib.import_module(f"tests.firmware.{scenario}").run(expected.append)
    return [bytes.fromhex(data) for data in sent], expected


def test_the_boards_send_the_same_bytes_under_micropython() -> None:
    under_micropython, here = both_interpreters("scenario")
    assert under_micropython == here
