"""The one shape of every text table (tablemodel/texts.py): Words in both languages, a named
table, one lookup that says what is missing."""

from __future__ import annotations

import pytest

from tabled import i18n
from tablemodel import syscard, words
from tablemodel.texts import LANGUAGES, REGISTRY, MissingText, TextTable, UnknownLanguage, Words


def test_a_text_has_both_languages_and_reads_each() -> None:
    text = Words(es="Paso", en="Pass")
    assert [text[language] for language in LANGUAGES] == ["Paso", "Pass"]
    with pytest.raises(TypeError):
        Words(es="Paso")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="'en' text is not a string"):
        Words(es="Paso", en=None)  # type: ignore[arg-type]


def test_an_unknown_language_is_named() -> None:
    with pytest.raises(UnknownLanguage) as raised:
        Words(es="Paso", en="Pass")["fr"]
    assert str(raised.value) == "no texts in language 'fr': one of es, en"
    with pytest.raises(UnknownLanguage):
        i18n.text("auction", "EN")


def test_the_lookup_names_the_table_and_the_missing_key() -> None:
    table: TextTable[str] = TextTable("trial")
    table.add({"round": Words(es="Ronda {round}", en="Round {round}")})
    assert table.text("round", "es", round=3) == "Ronda 3"
    assert table.text("round", "en") == "Round {round}"  # no fields given: as written
    with pytest.raises(MissingText) as raised:
        table.text("rounds", "es")
    assert str(raised.value) == "the 'trial' texts have no 'rounds'"
    assert isinstance(raised.value, KeyError)
    with pytest.raises(MissingText):
        table["rounds"]
    assert table.get("rounds") is None and "rounds" not in table


def test_a_table_refuses_a_key_twice_or_a_value_that_is_not_words() -> None:
    table: TextTable[str] = TextTable("trial")
    table.add({"a": Words(es="a", en="a")})
    with pytest.raises(ValueError, match="already have 'a'"):
        table.add({"b": Words(es="b", en="b"), "a": Words(es="x", en="x")})
    with pytest.raises(TypeError, match="is not Words"):
        table.add({"c": ("c", "c")})  # type: ignore[dict-item]
    assert list(table) == ["a"]  # a refused addition adds nothing


def test_the_tables_of_the_table_daemon_are_registered() -> None:
    assert REGISTRY["seat display"] is i18n.TEXTS
    assert REGISTRY["seat display laws"] is i18n.LAW_TEXTS
    assert REGISTRY["answers"] is syscard.STANDARD_ANSWERS
    assert REGISTRY["bridge words"] is words.BRIDGE
    with pytest.raises(ValueError, match="already a text table 'answers'"):
        from tablemodel.texts import table
        table("answers")


def test_the_standard_answers_keep_their_order_and_words() -> None:
    assert list(syscard.STANDARD_ANSWERS) == [1, 0, 2, 3, 4, 5]
    assert syscard.answer_text(None, 0, "es") == "sin acuerdo"
    assert syscard.answer_text(None, 2, "en") == "artificial: see our card"
    assert syscard.answer_text(None, 9, "en") is None
