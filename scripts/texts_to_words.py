"""Rewrite a text table of pairs into ``Words(es=..., en=...)`` in place, and prove it lost nothing.

    python3 scripts/texts_to_words.py FILE NAME ORDER

``NAME`` is the dict assigned in ``FILE`` (or passed to a call such as ``register({...})``:
give the called name) whose values are pairs of strings, ``ORDER`` the pairs' order: ``en,es``
(the seat displays' old tables), ``es,en`` (the console's), or ``dict`` for values that are
``{"es": ..., "en": ...}`` (the pages' old shape). Each value becomes ``Words(es=..., en=...)``
with each string's own source kept (its quotes, its implicit concatenation); comments are left
as they are.
Afterwards the file's table is read again and compared with the old one, key by key and
language by language: the script fails if any key or text was lost or changed. The import of
``Words`` and the dict's type annotation are left to the person running it.

Issue 16 converted the tables with it; a table still in pairs is converted the same way.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Any


def _table(tree: ast.Module, name: str) -> ast.Dict:
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        if isinstance(target, ast.Name) and target.id == name and isinstance(value, ast.Dict):
            return value
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == name and node.args and isinstance(node.args[0], ast.Dict)):
            return node.args[0]
    raise SystemExit(f"no dict {name!r} assigned in the file")


def _old(source: str, name: str, order: tuple[str, ...]) -> dict[Any, dict[str, str]]:
    found = _table(ast.parse(source), name)
    old: dict[Any, dict[str, str]] = {}
    for key, value in zip(found.keys, found.values, strict=True):
        assert key is not None
        read = ast.literal_eval(value)
        old[ast.literal_eval(key)] = read if order == ("dict",) else dict(
            zip(order, read, strict=True))
    return old


def _segments(source: str, value: ast.expr, order: tuple[str, ...]) -> dict[str, str]:
    """Each language's string as written in the source."""
    if order == ("dict",) and isinstance(value, ast.Dict):
        keys = [ast.literal_eval(k) if k is not None else None for k in value.keys]
        elts = value.values
    elif isinstance(value, ast.Tuple) and len(value.elts) == 2:
        keys, elts = list(order), value.elts
    else:
        raise SystemExit(f"the value at line {value.lineno} is not a text in two languages")
    if sorted(str(k) for k in keys) != ["en", "es"]:
        raise SystemExit(f"the value at line {value.lineno} is not in exactly es and en")
    found = {}
    for key, elt in zip(keys, elts, strict=True):
        segment = ast.get_source_segment(source, elt)
        assert segment is not None
        found[str(key)] = segment
    return found


def _words(source: str, name: str) -> dict[Any, dict[str, str]]:
    found = _table(ast.parse(source), name)
    words: dict[Any, dict[str, str]] = {}
    for key, value in zip(found.keys, found.values, strict=True):
        assert key is not None
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                and value.func.id == "Words" and not value.args):
            raise SystemExit(f"{ast.literal_eval(key)!r} is not Words(es=..., en=...)")
        words[ast.literal_eval(key)] = {k.arg: ast.literal_eval(k.value)
                                        for k in value.keywords if k.arg}
    return words


def _reflow(segment: str, column: int) -> str:
    first, *rest = segment.split("\n")
    return "".join([first, *("\n" + " " * column + line.lstrip() for line in rest)])


def convert(source: str, name: str, order: tuple[str, ...]) -> str:
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(lineno: int, col: int) -> int:  # ast columns count UTF-8 bytes
        line = lines[lineno - 1]
        return starts[lineno - 1] + len(line.encode()[:col].decode())

    edits: list[tuple[int, int, str]] = []
    for value in _table(ast.parse(source), name).values:
        by = _segments(source, value, order)
        # A pair written over several lines keeps its line breaks, re-indented under Words(.
        start = offset(value.lineno, value.col_offset)
        assert value.end_lineno is not None and value.end_col_offset is not None
        end = offset(value.end_lineno, value.end_col_offset)
        if "\n" in source[start:end]:
            column = value.col_offset + len("Words(")
            text = (f"Words(es={_reflow(by['es'], column + 3)},\n"
                    f"{' ' * column}en={_reflow(by['en'], column + 3)})")
        else:
            text = f"Words(es={by['es']}, en={by['en']})"
        edits.append((start, end, text))
    for start, end, text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    return source


def main(argv: list[str]) -> int:
    path, name, order_text = Path(argv[0]), argv[1], argv[2]
    order = tuple(order_text.split(","))
    if sorted(order) != ["en", "es"] and order != ("dict",):
        raise SystemExit("ORDER is en,es or es,en or dict")
    before = path.read_text(encoding="utf-8")
    old = _old(before, name, order)
    after = convert(before, name, order)
    new = _words(after, name)
    if new != old:
        lost = sorted(set(old) - set(new), key=str)
        changed = sorted((k for k in old if k in new and old[k] != new[k]), key=str)
        raise SystemExit(f"not written: lost {lost}, changed {changed}")
    path.write_text(after, encoding="utf-8")
    print(f"{path}: {name}: {len(new)} texts, each in es and en, none lost")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
