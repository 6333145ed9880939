"""Install what bidbox needs to run and to be tested, on a fresh machine.

Python packages come from PyPI through pip (the project itself, editable, with its extras);
system packages from Debian's archive through apt-get when they are missing and we are root.
Idempotent: a second run installs nothing new.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys

PYTHON_MODULES = ["pytest", "hypothesis", "mypy", "ruff", "gpiozero", "serial", "paho",
                  "smbus2", "endplay", "flask", "sqlalchemy", "alembic", "waitress", "psycopg",
                  "playwright"]
# command -> Debian package: the demo and the MQTT tests start a private Mosquitto of their own;
# the browser tests drive Debian's Chromium through Playwright (no browser download from
# Playwright). ``--demo`` installs only what the demo needs.
DEBIAN_PACKAGES: dict[str, str] = {"mosquitto": "mosquitto", "chromium": "chromium"}
DEMO_PACKAGES: dict[str, str] = {"mosquitto": "mosquitto"}
SYSTEM_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])


def missing_modules() -> list[str]:
    return [m for m in PYTHON_MODULES if importlib.util.find_spec(m) is None]


def bidbox_installed() -> bool:
    try:
        importlib.metadata.distribution("bidbox")
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def main() -> int:
    if missing_modules() or not bidbox_installed() or shutil.which("bidbox") is None:
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q",
                               "--disable-pip-version-check", "-e", ".[table,server,dds,dev]"])
    wanted = DEMO_PACKAGES if "--demo" in sys.argv[1:] else DEBIAN_PACKAGES
    absent = sorted({pkg for cmd, pkg in wanted.items()
                     if shutil.which(cmd, path=SYSTEM_PATH) is None})
    if absent:
        if os.geteuid() != 0:
            print(f"please install: sudo apt-get install -y {' '.join(absent)}", file=sys.stderr)
            return 1
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.check_call(["apt-get", "update", "-qq"], env=env)
        subprocess.check_call(["apt-get", "install", "-y", "-qq", *absent], env=env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
