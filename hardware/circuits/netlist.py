"""A KiCad netlist read back: its components and nets, and the bill of materials from them.

The checks and the bill of materials read the generated file, not the Python that made it,
so what they vouch for is what a board house receives.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .catalogue import PartKind

Node = tuple[str, str]
"""(reference, pin number), e.g. ("J1", "29")."""

_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))')

Sexp = str | list["Sexp"]


def _sexp(text: str) -> Sexp:
    stack: list[list[Sexp]] = [[]]
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            if text[pos:].strip():
                raise ValueError(f"netlist: cannot read at character {pos}")
            break
        pos = match.end()
        opening, closing, quoted, bare = match.groups()
        if opening:
            stack.append([])
        elif closing:
            if len(stack) < 2:
                raise ValueError("netlist: unbalanced ')'")
            done = stack.pop()
            stack[-1].append(done)
        elif quoted is not None:
            stack[-1].append(quoted.replace('\\"', '"'))
        elif bare is not None:
            stack[-1].append(bare)
    if len(stack) != 1 or len(stack[0]) != 1:
        raise ValueError("netlist: unbalanced '('")
    return stack[0][0]


def _items(node: Sexp, head: str) -> Iterable[list[Sexp]]:
    if isinstance(node, list):
        for child in node:
            if isinstance(child, list) and child and child[0] == head:
                yield child


def _value(node: list[Sexp], head: str) -> str:
    for child in _items(node, head):
        return child[1] if len(child) > 1 and isinstance(child[1], str) else ""
    return ""


@dataclass(frozen=True)
class Component:
    ref: str
    value: str
    footprint: str
    fields: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Netlist:
    components: dict[str, Component]
    nets: dict[str, frozenset[Node]]

    def __post_init__(self) -> None:
        where: dict[Node, str] = {}
        for name, nodes in self.nets.items():
            for node in nodes:
                if node in where:
                    raise ValueError(f"netlist: {node} is on nets {where[node]} and {name}")
                where[node] = name
        object.__setattr__(self, "_where", where)

    def net_of(self, ref: str, pin: int | str) -> str | None:
        where: dict[Node, str] = object.__getattribute__(self, "_where")
        return where.get((ref, str(pin)))

    def on_net(self, ref: str, pin: int | str) -> frozenset[Node]:
        """Every node on the same net as (ref, pin), itself included; empty if unconnected."""
        name = self.net_of(ref, pin)
        return self.nets[name] if name is not None else frozenset()

    def by_role(self, role: str) -> Component | None:
        for component in self.components.values():
            if component.fields.get("Role") == role:
                return component
        return None

    def moved(self, node: Node, to_net: str) -> Netlist:
        """A copy with one pin moved to another net: a wiring mistake, for the tests."""
        nets = {name: frozenset(n for n in nodes if n != node)
                for name, nodes in self.nets.items()}
        nets[to_net] = nets.get(to_net, frozenset()) | {node}
        return Netlist(self.components, {k: v for k, v in nets.items() if v})


def parse(text: str) -> Netlist:
    """Read a KiCad (version D / E) netlist."""
    root = _sexp(text)
    if not isinstance(root, list) or not root or root[0] != "export":
        raise ValueError("not a KiCad netlist: it does not start with (export")
    components: dict[str, Component] = {}
    nets: dict[str, frozenset[Node]] = {}
    for section in _items(root, "components"):
        for comp in _items(section, "comp"):
            fields: dict[str, str] = {}
            for group in _items(comp, "fields"):
                for item in _items(group, "field"):
                    name = _value(item, "name")
                    text_value = item[2] if len(item) > 2 and isinstance(item[2], str) else ""
                    fields[name] = text_value
            ref = _value(comp, "ref")
            components[ref] = Component(ref, _value(comp, "value"), _value(comp, "footprint"),
                                        fields)
    for section in _items(root, "nets"):
        for item in _items(section, "net"):
            nodes = frozenset((_value(n, "ref"), _value(n, "pin")) for n in _items(item, "node"))
            nets[_value(item, "name")] = nodes
    return Netlist(components, nets)


@dataclass(frozen=True)
class BomLine:
    references: tuple[str, ...]
    value: str
    footprint: str
    manufacturer: str
    mpn: str
    price: float | None      # euros each, from the catalogue; None if it is not there
    price_source: str = ""   # the catalogue's word on where the price comes from

    @property
    def quantity(self) -> int:
        return len(self.references)

    @property
    def total(self) -> float:
        return (self.price or 0.0) * self.quantity


def _ref_key(ref: str) -> tuple[str, int]:
    match = re.fullmatch(r"([A-Za-z_]+)(\d+)", ref)
    return (match.group(1), int(match.group(2))) if match else (ref, 0)


def bom(netlist: Netlist, kinds: Iterable[PartKind]) -> list[BomLine]:
    """One line per distinct part (value, footprint, MPN), references in order."""
    prices = {kind.mpn: (kind.price, kind.price_source) for kind in kinds}
    groups: dict[tuple[str, str, str, str], list[str]] = {}
    for comp in netlist.components.values():
        key = (comp.value, comp.footprint, comp.fields.get("Manufacturer", ""),
               comp.fields.get("MPN", ""))
        groups.setdefault(key, []).append(comp.ref)
    lines = [BomLine(tuple(sorted(refs, key=_ref_key)), value, footprint, maker, mpn,
                     *prices.get(mpn, (None, "")))
             for (value, footprint, maker, mpn), refs in groups.items()]
    return sorted(lines, key=lambda line: _ref_key(line.references[0]))


BOM_COLUMNS = ("references", "value", "footprint", "manufacturer", "mpn", "quantity",
               "price_each_eur", "price_source")


def bom_csv(lines: Iterable[BomLine]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(BOM_COLUMNS)
    for line in lines:
        writer.writerow([" ".join(line.references), line.value, line.footprint,
                         line.manufacturer, line.mpn, line.quantity,
                         "" if line.price is None else f"{line.price:.2f}",
                         line.price_source])
    return out.getvalue()
