"""Every bought part's figure and price says where it comes from (or that nothing was found).

The parts' dimensions (hardware/enclosures/parts.py) and the catalogue's prices
(hardware/circuits/catalogue.py) are what a club builds and budgets from: a figure without a
source, or a price that is neither found nor marked an estimate, fails here.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from hardware.circuits import catalogue
from hardware.enclosures import parts

PARTS = Path(parts.__file__)


def test_every_dimension_names_its_source_or_says_none_was_found() -> None:
    lines = PARTS.read_text().splitlines()
    tree = ast.parse(PARTS.read_text())
    unsourced = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ClassDef)
                and dataclasses.is_dataclass(getattr(parts, node.name))):
            continue
        block_comment = False  # a comment block before fields covers those that follow
        for item in node.body:
            before = lines[item.lineno - 2].strip()
            # (not the indented tail of the field above's comment, "#     ...")
            block_comment = block_comment or (before.startswith("# ")
                                              and not before.startswith("#  "))
            if isinstance(item, ast.AnnAssign):
                if "#" not in lines[item.lineno - 1] and not block_comment:
                    unsourced.append(f"{node.name}.{ast.unparse(item.target)}")
    assert unsourced == []
    text = PARTS.read_text()
    for document in ("HAT:", "PICO:", "LCD2004:", "WP7113:"):  # each cited is described
        assert document in text.split('"""')[1]


def kinds() -> list[catalogue.PartKind]:
    return [k for k in vars(catalogue).values() if isinstance(k, catalogue.PartKind)]


def test_every_price_is_found_with_its_source_or_marked_an_estimate() -> None:
    for kind in kinds():
        assert kind.price > 0 and kind.price_source, kind.mpn
        if kind.price_source != catalogue.ESTIMATE:
            assert kind.price_source.startswith("USD "), kind.price_source
            dollars = float(kind.price_source.split()[1].rstrip(","))
            assert kind.price == catalogue.usd(dollars)
    for what, _, quantity, each, source in catalogue.OFF_BOARD:
        assert quantity > 0 and each > 0 and source, what
    found = [k for k in kinds() if k.price_source != catalogue.ESTIMATE]
    assert found and len(found) < len(kinds())  # some found, and the rest said to be guesses
