"""One word for one thing (docs/glossary.md): the Spanish of the seat displays, of the
console and the pages, and of the Spanish guides uses none of the words the glossary lists as
not used.

The Spanish texts are every ``Words`` of the text registry (tablemodel.texts.REGISTRY, filled by
every module of the table and the server that registers texts), the rulings' names, the laws
engine's messages (laws/messages.py: the table's refusals and details, which the
console shows), the Spanish the live pages' and the printed pack's templates write themselves
(server/templates), and the prose of docs/*.es.md (code spans, fenced blocks and link targets
left out: they hold commands, file names and the console's user name).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import server.outputs.report.texts
import server.texts.clock_texts
import server.texts.console_texts
import server.texts.display_texts
import server.texts.i18n
import server.texts.player_register_texts
import server.texts.scoring_texts  # noqa: F401  (each registers its texts)
from laws.messages import MESSAGES
from tabled import i18n
from tablemodel.rulings import KINDS
from tablemodel.texts import REGISTRY, Words

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
_EXTRA_FORBIDDEN = ["Numero", "valido", "opcion", "salio", "companero", "concesion"]
_REGISTERS = re.compile(r"PAGES\.add\(|= table\(")


def _register_every_text() -> None:
    """Import every module of the table and the server that registers texts, so none is
    left out of the registry because this test did not name it."""
    for package in ("tabled", "server"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if _REGISTERS.search(path.read_text(encoding="utf-8")):
                module = path.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
                importlib.import_module(module)


_register_every_text()


def forbidden() -> list[str]:
    """The words the glossary's table says are not used in Spanish, and the unaccented
    spellings it names."""
    text = GLOSSARY.read_text(encoding="utf-8")
    table = text[text.index("## Terms"):text.index("Words kept")]
    found: list[str] = []
    for row in table.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("concept", "---"):
            continue
        found.extend(w.strip() for w in cells[3].split(",") if w.strip())
    return found + _EXTRA_FORBIDDEN


#: What may follow a word without it being the misused one: the hand records are a "hoja
#: de manos"; a lead out of turn is a "salida fuera de turno".
_SHEETS = r"(?! de manos| técnicas?| de cálculo)"  # a hoja that is no system card
_UNLESS = {"Hoja": _SHEETS, "Hojas": _SHEETS, "hoja": _SHEETS, "hojas": _SHEETS,
           "Salida fuera": r"(?! de turno)"}


def _pattern(word: str) -> re.Pattern[str]:
    # a whole word, as written (Da, Hoja, W are capitalised where they were misused)
    return re.compile(rf"(?<![\w/.-]){re.escape(word)}(?![\w/-]){_UNLESS.get(word, '')}")


def spanish_texts() -> Iterator[tuple[str, str]]:
    for name, found in REGISTRY.items():
        for key, words in found.items():
            yield f"{name}:{key}", words.es
    for code, message in MESSAGES.items():
        yield f"engine:{code}", message.es
    yield from template_texts()
    for kind in KINDS.values():
        yield f"ruling:{kind.name}", kind.words.es
        yield f"ruling short:{kind.name}", kind.short.es
        for field in kind.fields:
            yield f"ruling field:{kind.name}.{field.name}", field.words.es
            for choice in field.choices:
                if isinstance(choice.words, Words):
                    yield f"ruling choice:{kind.name}.{field.name}", choice.words.es


def template_texts() -> Iterator[tuple[str, str]]:
    """What the templates write themselves, not through a text of the registry: their text
    between tags, and a Spanish string in an expression (``{"es": "..."}``)."""
    for path in sorted((ROOT / "server" / "templates").rglob("*.html")):
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT).as_posix()
        for spanish in re.findall(r'"es":\s*"([^"]*)"', source):
            yield f"template:{where}", spanish
        text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", source, flags=re.S)
        text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
        text = " ".join(re.sub(r"<[^>]*>", " ", text).split())
        if text:
            yield f"template:{where}", text


def test_the_templates_spanish_is_read() -> None:
    found = [text for where, text in template_texts()
             if where == "template:server/templates/report/site_languages.html"]
    assert "Resultados en español" in found and "no se ha escrito / not written" in found[-1]


def _prose(text: str) -> str:
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", " ", text)
    text = re.sub(r"\[[\w./-]+\.md\]", "[]", text)  # a link named by its file
    return re.sub(r"\]\([^)]*\)", "]", text)


def test_the_glossary_lists_the_words_not_used() -> None:
    words = forbidden()
    for expected in ("director", "castigo", "dador", "Hoja", "Reclamo", "W", "EW"):
        assert expected in words


@pytest.mark.parametrize("word", forbidden())
def test_no_spanish_text_of_the_displays_or_the_console_uses(word: str) -> None:
    pattern = _pattern(word)
    wrong = {where: text for where, text in spanish_texts() if pattern.search(text)}
    assert wrong == {}


@pytest.mark.parametrize("guide", sorted((ROOT / "docs").glob("*.es.md")), ids=lambda p: p.name)
def test_no_spanish_guide_uses_a_word_the_glossary_does_not(guide: Path) -> None:
    prose = _prose(guide.read_text(encoding="utf-8"))
    wrong = {word: pattern.findall(prose) for word in forbidden()
             if (pattern := _pattern(word)).search(prose)}
    assert wrong == {}


def test_the_seat_texts_say_arbitro_and_carta_penalizada() -> None:
    spanish = " ".join(w.es for w in i18n.TEXTS.values())
    assert "árbitro" in spanish and "Penaliz." in spanish and "reclama" in spanish
