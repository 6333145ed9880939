"""``python3 -m hardware.build``: everything a club orders, made from the sources in one go.

From the circuits (``hardware.circuits``): their electrical rules check, the check against
the pin maps the software reads, each board's KiCad netlist and bill of materials. From the
enclosures (``hardware.enclosures``): STL and STEP for every printed part. Then the cost of a
table from those bills of materials, the parts off the boards and the plastic printed.
Written to ``build/hardware/`` (``--out``); nothing here is kept in git: run it again.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_OUT = Path("build") / "hardware"
SEATS_PER_TABLE = 4


class BuildError(Exception):
    """A check failed: the message says which and why; nothing wrong was written."""


@dataclass(frozen=True)
class Board:
    name: str
    netlist: str
    bom: list[Any]         # netlist.BomLine


def build_boards() -> list[Board]:
    """Both boards, checked (ERC and pin maps); BuildError if either fails."""
    from hardware.circuits import _skidl, cardreader, catalogue, hub
    from hardware.circuits.check import check_hub, check_reader
    from hardware.circuits.netlist import bom, parse
    from hardware.pinmap import PinMap

    pins = PinMap.load()
    kinds = [k for k in vars(catalogue).values() if isinstance(k, catalogue.PartKind)]
    boards = []
    for name, circuit, check in (
            ("hub", hub.build(pins), lambda n: check_hub(n, pins)),
            ("cardreader", cardreader.build(), check_reader)):
        errors, warnings, said = _skidl.erc(circuit)
        if errors or warnings:
            raise BuildError(f"{name}: the electrical rules check found {errors} errors and "
                             f"{warnings} warnings:\n{said}")
        text = _skidl.kicad_netlist(circuit)
        netlist = parse(text)
        problems = check(netlist)
        if problems:
            raise BuildError(f"{name}: the board and its pin map disagree:\n  "
                             + "\n  ".join(problems))
        boards.append(Board(name, text, bom(netlist, kinds)))
    return boards


def build_enclosures() -> dict[str, Any]:
    """Every printed part by file name (without extension): build123d Parts."""
    from hardware.enclosures.hubbox import HubBox
    from hardware.enclosures.seat import SeatUnit

    return {**SeatUnit().parts(), **HubBox().parts()}


@dataclass(frozen=True)
class Cost:
    boards_parts: float        # the parts on the hub and card reader boards
    boards: float              # the bare boards from a board house
    off_board: float           # the Pi, keypads, LCDs, readers, cables...
    printing: float            # the plastic of one hub box and four seat units
    grams: float

    @property
    def total(self) -> float:
        return self.boards_parts + self.boards + self.off_board + self.printing


def table_cost(boards: Sequence[Board], parts: dict[str, Any]) -> Cost:
    from hardware.circuits import catalogue as cat

    on_boards = sum(line.total for board in boards for line in board.bom)
    bare = sum(cat.BOARD_PRICE[board.name] for board in boards)
    off = sum(qty * each for _, _, qty, each, _ in cat.OFF_BOARD)
    grams = 0.0
    for name, part in parts.items():
        copies = SEATS_PER_TABLE if name.startswith("seat-") else 1
        grams += copies * part.volume / 1000.0 * cat.FILAMENT_DENSITY
    printing = grams / 1000.0 * cat.FILAMENT_PRICE_PER_KG
    return Cost(on_boards, bare, off, printing, grams)


def cost_text(cost: Cost, boards: Sequence[Board]) -> str:
    from hardware.circuits import catalogue as cat

    lines = [f"# The cost of one table ({cat.PRICES_DATED})", ""]
    for board in boards:
        lines.append(f"## {board.name} board")
        for line in board.bom:
            lines.append(f"- {line.quantity} x {line.value} ({line.manufacturer} {line.mpn}): "
                         f"EUR {line.total:.2f} [{line.price_source}]")
        lines.append("")
    lines.append("## Off the boards")
    for what, part, qty, each, source in cat.OFF_BOARD:
        lines.append(f"- {qty} x {what} ({part}): EUR {qty * each:.2f} [{source}]")
    found = (sum(line.total for board in boards for line in board.bom
                 if line.price_source and not line.price_source.startswith(cat.ESTIMATE))
             + sum(qty * each for _, _, qty, each, source in cat.OFF_BOARD
                   if not source.startswith(cat.ESTIMATE)))
    lines += ["", "## Totals",
              f"- parts on the boards: EUR {cost.boards_parts:.2f}",
              f"- bare boards (hub, card reader): EUR {cost.boards:.2f} [{cat.ESTIMATE}]",
              f"- parts off the boards: EUR {cost.off_board:.2f}",
              f"- printing ({cost.grams:.0f} g of PLA: one hub box, four seat units): "
              f"EUR {cost.printing:.2f} [{cat.ESTIMATE}]",
              f"- one table: EUR {cost.total:.2f}",
              f"- of which from found prices: EUR {found:.2f}; the rest, "
              f"EUR {cost.total - found:.2f}, estimates",
              f"- one RFID deck's stickers: EUR {52 * cat.STICKER_PRICE:.2f} [{cat.ESTIMATE}]",
              ""]
    return "\n".join(lines)


def write(out: Path, *, circuits: bool = True, enclosures: bool = True) -> list[Path]:
    from hardware.circuits.netlist import bom_csv

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    boards = build_boards() if circuits else []
    for board in boards:
        for path, text in ((out / f"{board.name}.net", board.netlist),
                           (out / f"{board.name}-bom.csv", bom_csv(board.bom))):
            path.write_text(text, encoding="utf-8")
            written.append(path)
    parts = build_enclosures() if enclosures else {}
    if parts:
        from build123d import export_step, export_stl

        for name, part in parts.items():
            for path, export in ((out / f"{name}.stl", export_stl),
                                 (out / f"{name}.step", export_step)):
                if not export(part, str(path)):
                    raise BuildError(f"could not write {path}")
                written.append(path)
    if boards and parts:
        path = out / "cost.md"
        path.write_text(cost_text(table_cost(boards, parts), boards), encoding="utf-8")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m hardware.build", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--circuits", action="store_true", help="only the boards")
    which.add_argument("--enclosures", action="store_true", help="only the printed parts")
    args = parser.parse_args(argv)
    try:
        written = write(args.out, circuits=not args.enclosures, enclosures=not args.circuits)
    except ModuleNotFoundError as error:
        print(f"hardware.build needs the hardware extra (pip install -e '.[hardware]'): "
              f"{error}", file=sys.stderr)
        return 2
    except BuildError as error:
        print(f"hardware.build: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
