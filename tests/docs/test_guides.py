"""The guides against the code: a guide that names a command, an option, a make target, a
module, a key of the seat keypad or a page of the server that the code lacks fails here.

What is read: every Markdown guide (README.md, docs/, hardware/README.md, firmware/README.md),
its fenced code blocks line by line and its inline code spans. What is checked:

- ``bidbox COMMAND --option ...`` (also ``python3 -m bidbox``, ``.venv/bin/bidbox``, after
  ``sudo``): the command exists and takes every option written after it;
- ``python3 -m MODULE --option ...`` for the project's own modules: the module exists and its
  source names every option;
- ``make TARGET``: the Makefile has the target;
- the keys in the first column of a keys table (headed "key", "keys", "tecla", "teclas") and
  the keys in bold in the keypad and players' guides: keys of ``hardware/keypad.toml``;
- ``/api/...`` and ``/console/...`` addresses: the server answers them (its URL map), or they
  name a part of it (``/api/v1``).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bidbox.cli import build_parser
from hardware.layout import KeypadLayout

ROOT = Path(__file__).resolve().parents[2]
GUIDES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md"),
                 ROOT / "hardware" / "README.md", ROOT / "firmware" / "README.md"])
KEY_GUIDES = ("keypad.md", "players.en.md", "players.es.md", "players.md")

# A command line: an optional prompt, sudo, environment settings, then the program.
_PREFIX = r"^(?:\$\s*)?(?:sudo\s+(?:-u\s+\S+\s+)?)?(?:[A-Z_][A-Z0-9_]*=\S*\s+)*"
BIDBOX = re.compile(_PREFIX + r"(?:\S*/)?(?:bidbox|python3?\s+-m\s+bidbox)\s+([a-z][a-z-]*)(.*)$")
MODULE = re.compile(_PREFIX + r"(?:\S*/)?python3?\s+-m\s+([a-z_][\w.]*)(.*)$")
MAKE = re.compile(_PREFIX + r"make\s+(?:-s\s+)?([a-z][\w-]*)")
OPTION = re.compile(r"(?<![\w-])(--[a-zA-Z][\w-]*)")
ADDRESS = re.compile(r"^(?:GET\s+|POST\s+)?(/(?:api|console)(?:/[^\s`?#]*)?)")
KEY_TABLE_HEADS = {"key", "keys", "tecla", "teclas"}
# Not the project's: their options are their own tools' business.
OTHER_MODULES = {"pytest", "pip", "venv", "mypy", "ruff", "http.server", "json.tool"}


def _snippets(text: str) -> Iterator[str]:
    """The code of a guide: each line of its fenced blocks, then each inline span."""
    for block in re.finditer(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M):
        for line in block.group(1).splitlines():
            yield line.split("  #")[0].strip()
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.S | re.M)
    for span in re.finditer(r"`([^`\n]+)`", prose):
        yield span.group(1).strip()


def _command_part(rest: str) -> str:
    """What still belongs to one command: up to a comment, a pipe or the next command."""
    return re.split(r"\s#|\||;|&&|\)", rest)[0]


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("bidbox has no subcommands")


def _make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([a-z][\w-]*)\s*:", text, re.M))


def _module_source(name: str) -> str | None:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin)
    sources = [path]
    if path.name == "__init__.py" and (path.parent / "__main__.py").is_file():
        sources.append(path.parent / "__main__.py")
    if path.name == "__init__.py":  # a package run with -m: its modules may parse the options
        sources.extend(path.parent.glob("*.py"))
    return "\n".join(p.read_text() for p in sources)


def _faults_of(guide: Path) -> Iterator[str]:
    text = guide.read_text()
    commands = _subcommands()
    targets = _make_targets()
    for snippet in _snippets(text):
        found = BIDBOX.match(snippet)
        if found:
            name, rest = found.groups()
            if name not in commands:
                yield f"`{snippet}`: bidbox has no command {name!r}"
                continue
            accepted = {o for a in commands[name]._actions for o in a.option_strings}
            for option in OPTION.findall(_command_part(rest)):
                if option not in accepted:
                    yield f"`{snippet}`: bidbox {name} takes no {option}"
            continue
        found = MODULE.match(snippet)
        if found:
            name, rest = found.groups()
            if name.split(".")[0] in OTHER_MODULES or name in OTHER_MODULES:
                continue
            source = _module_source(name)
            if source is None:
                yield f"`{snippet}`: there is no module {name}"
                continue
            for option in OPTION.findall(_command_part(rest)):
                if f'"{option}"' not in source and f"'{option}'" not in source:
                    yield f"`{snippet}`: {name} takes no {option}"
            continue
        found = MAKE.match(snippet)
        if found and found.group(1) not in targets:
            yield f"`{snippet}`: the Makefile has no target {found.group(1)!r}"


def _keys_named(guide: Path) -> Iterator[tuple[str, str]]:
    """(key, where) for each key a keypad guide names: the first column of its keys tables
    and the bold capitals of its prose."""
    heads: list[str] | None = None
    for line in guide.read_text().splitlines():
        if not line.startswith("|"):
            heads = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if heads is None:
            heads = [cell.lower() for cell in cells]
            continue
        if set(cells[0]) <= {"-", ":", " "}:
            continue
        if heads[0] in KEY_TABLE_HEADS:
            cell = re.sub(r"\([^)]*\)", "", cells[0])  # "(nothing typed)" and the like
            for token in re.findall(r"\b[A-Z][A-Z0-9]*\b|\b[1-7]\b", cell):
                yield token, f"table row {cells[0]!r}"
    for token in re.findall(r"\*\*([A-Z][A-Z0-9]*)\*\*", guide.read_text()):
        yield token, "in bold"


def test_every_guide_is_read() -> None:
    assert (ROOT / "README.md") in GUIDES and len(GUIDES) > 20
    assert all(guide.is_file() for guide in GUIDES)


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_guide_names_only_commands_options_and_targets_that_exist(guide: Path) -> None:
    assert list(_faults_of(guide)) == []


@pytest.mark.parametrize("guide", [g for g in GUIDES if g.name in KEY_GUIDES],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_keypad_guide_names_only_keys_the_keypad_has(guide: Path) -> None:
    keys = {key for row in KeypadLayout.load().keys for key in row}
    strange = sorted({f"{key} ({where})" for key, where in _keys_named(guide) if key not in keys})
    assert strange == []


def _addresses(guides: list[Path], app: object) -> tuple[int, list[str]]:
    """How many addresses the guides name, and those the server has no page for."""
    from werkzeug.exceptions import MethodNotAllowed, NotFound
    from werkzeug.routing import RequestRedirect

    url_map = app.url_map  # type: ignore[attr-defined]
    adapter = url_map.bind("localhost")
    named, missing = 0, []
    for guide in guides:
        for snippet in _snippets(guide.read_text()):
            found = ADDRESS.match(snippet)
            if not found:
                continue
            named += 1
            # A placeholder (<n>, N, {board}) stands for a number.
            address = re.sub(r"<[^>]+>|\{[^}]+\}|(?<=/)[A-Z]+(?=/|$)", "1", found.group(1))
            address = address.rstrip(".,:…")
            if any(rule.rule.startswith(address.rstrip("/") + "/")
                   for rule in url_map.iter_rules()):
                continue  # a namespace: `/api/v1`, `/api/v1/...`
            try:
                adapter.match(address, method="GET")
            except (MethodNotAllowed, RequestRedirect):
                pass
            except NotFound:
                missing.append(f"{guide.name}: {snippet}")
    return named, missing


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> object:
    from server import create_app

    return create_app({"DATABASE": str(tmp_path_factory.mktemp("guides") / "guides.db"),
                       "TESTING": True, "DIRECTOR_PASSWORD": "guides-test-password-41",
                       "SECRET_KEY": "x" * 32})


def test_the_addresses_a_guide_names_are_pages_the_server_has(app: object) -> None:
    named, missing = _addresses(GUIDES, app)
    assert named > 20 and missing == []


# The checks themselves fail where they should.

def test_a_made_up_command_option_target_or_key_is_caught(tmp_path: Path) -> None:
    guide = tmp_path / "made-up.md"
    guide.write_text("Run `bidbox demo --tables 4 --colour red`, then `bidbox dance`, "
                     "`python3 -m bench --no-such-thing`, `make everything` and press **MAGIC**."
                     "\n\n| key | does |\n|---|---|\n| OK / SHUFFLE | nothing |\n")
    faults = list(_faults_of(guide))
    assert any("takes no --colour" in f for f in faults)
    assert not any("takes no --tables" in f for f in faults)
    assert any("no command 'dance'" in f for f in faults)
    assert any("bench takes no --no-such-thing" in f for f in faults)
    assert any("no target 'everything'" in f for f in faults)
    keys = {key for key, _ in _keys_named(guide)}
    assert {"MAGIC", "SHUFFLE", "OK"} <= keys


def test_a_made_up_address_is_caught(tmp_path: Path, app: object) -> None:
    guide = tmp_path / "made-up.md"
    guide.write_text("See `/api/v1/results`, `/api/v1/vugraph/<n>` and `/api/v1/horoscope`.\n")
    assert _addresses([guide], app) == (3, ["made-up.md: /api/v1/horoscope"])
