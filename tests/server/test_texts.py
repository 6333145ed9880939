"""Every text table, the table daemon's and the server's, in one registry and one shape:
every text in Spanish and English with the same fields, and every text a page asks for by
name is there (a missing one would show its key: server.texts.i18n.t)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import server.pages.console  # registers the movements' names, beside the texts below
import server.texts.clock_texts
import server.texts.console_texts
import server.texts.display_texts
import server.texts.player_register_texts
import server.texts.rankview_texts
import server.texts.scoring_texts
import tabled.i18n
import tablemodel.syscard
import tablemodel.words
from server.pages.display import SCRIPT_TEXTS
from server.texts.i18n import PAGES
from tablemodel.texts import LANGUAGES, REGISTRY, Words

SERVER = Path(server.texts.console_texts.__file__).parents[1]  # the server package
# Importing them registers their tables.
MODULES = (server.pages.console, server.texts.clock_texts, server.texts.display_texts,
           server.texts.player_register_texts, server.texts.rankview_texts,
           server.texts.scoring_texts, tabled.i18n, tablemodel.syscard, tablemodel.words)
TABLES = ("pages", "seat display", "seat display laws", "answers", "bridge words")
LITERAL = re.compile(r"""(?<![\w.])t\(\s*["']([\w-]+)["']\s*[,)]""")


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_table_is_registered() -> None:
    assert set(TABLES) <= set(REGISTRY)
    assert REGISTRY["pages"] is PAGES
    # the rulings' words are the ruling kinds' (tablemodel/rulings.py), registered with the pages
    assert len(PAGES) >= 280 and len(REGISTRY["seat display"]) > 70
    from server.link import (
        director_calls as rulings,  # registers them
    )
    assert all(f"console_kind_{name}" in PAGES for name in rulings.KINDS)


@pytest.mark.parametrize("name", TABLES)
def test_every_text_has_both_languages_with_the_same_fields(name: str) -> None:
    table = REGISTRY[name]
    assert len(table) > 0
    for key, words in table.items():
        assert isinstance(words, Words), key
        for language in LANGUAGES:
            assert words[language].strip(), (name, key, language)
        assert fields(words.es) == fields(words.en), (name, key)


def test_every_text_a_page_names_exists() -> None:
    named: set[str] = set(SCRIPT_TEXTS)
    sources = [*SERVER.joinpath("templates").rglob("*.html"), *SERVER.rglob("*.py")]
    for path in sources:
        if path.name != "i18n.py":  # its docstring shows t("key", ...)
            named.update(LITERAL.findall(path.read_text(encoding="utf-8")))
    assert len(named) > 200
    assert sorted(key for key in named if key not in PAGES) == []
