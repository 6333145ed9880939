"""One word for one thing (docs/glossary.md): the Spanish of the seat displays, of the
console and the pages, and of the Spanish guides uses none of the words the glossary lists as
not used.

The Spanish texts are every ``Words`` of the text registry (tablemodel.texts.REGISTRY, filled by
the table's and the server's text modules), the rulings' names, and the prose of docs/*.es.md
(code spans, fenced blocks and link targets left out: they hold commands, file names and the
console's user name).
"""

from __future__ import annotations

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
from tabled import i18n
from tablemodel.rulings import KINDS
from tablemodel.texts import REGISTRY, Words

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
_EXTRA_FORBIDDEN = ["Numero", "valido", "opcion", "salio", "companero", "concesion"]


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
_UNLESS = {"Hoja": r"(?! de manos)", "Salida fuera": r"(?! de turno)"}


def _pattern(word: str) -> re.Pattern[str]:
    # a whole word, as written (Da, Hoja, W are capitalised where they were misused)
    return re.compile(rf"(?<![\w/.-]){re.escape(word)}(?![\w/-]){_UNLESS.get(word, '')}")


def spanish_texts() -> Iterator[tuple[str, str]]:
    for name, found in REGISTRY.items():
        for key, words in found.items():
            yield f"{name}:{key}", words.es
    for kind in KINDS.values():
        yield f"ruling:{kind.name}", kind.words.es
        yield f"ruling short:{kind.name}", kind.short.es
        for field in kind.fields:
            yield f"ruling field:{kind.name}.{field.name}", field.words.es
            for choice in field.choices:
                if isinstance(choice.words, Words):
                    yield f"ruling choice:{kind.name}.{field.name}", choice.words.es


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
