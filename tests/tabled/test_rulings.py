"""The ruling kinds, defined once (tablemodel.rulings), and what derives from them: the wire's
schema, the seat displays' words, the server's checks and the console's form."""

from __future__ import annotations

from typing import Any

import pytest

from laws import Seat
from tabled import i18n
from tablemodel.rulings import FIELDS, KINDS, RulingDataError, kind_of
from tablemodel.state import Phase
from tablemodel.texts import Words
from tablemodel.wire import COMMANDS, EVENTS, RULINGS, Command, WireError

from .helpers import Table, reach

LANGUAGES = ("es", "en")


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_is_worded_in_both_languages_and_names_its_laws(name: str) -> None:
    kind = KINDS[name]
    assert kind.name == name
    assert kind.laws.strip()
    every = [kind.words, kind.short]
    for spec in kind.fields:
        every += [spec.words, *(c.words for c in spec.choices)]
        if spec.help is not None:
            every.append(spec.help)
    for words in every:
        assert isinstance(words, Words)
        assert all(words[lang].strip() for lang in LANGUAGES)
    assert all(len(kind.short[lang]) <= 12 for lang in LANGUAGES)  # a seat display's line


def test_the_wire_takes_every_field_of_every_kind_and_nothing_else() -> None:
    assert RULINGS == tuple(KINDS)
    for schema in (EVENTS["ruling"], COMMANDS["ruling"]):
        assert set(schema.fields) - {"cmd", "kind"} == set(FIELDS)


def test_a_field_has_one_meaning_in_every_kind() -> None:
    for kind in KINDS.values():
        for spec in kind.fields:
            assert FIELDS[spec.name].kind == spec.kind


@pytest.mark.parametrize(("kind", "data", "reason"), [
    ("unauthorised_information", {}, "needs side"),
    ("unauthorised_information", {"side": "NE"}, "not one of NS, EW"),
    ("lead_restriction", {"seat": "E", "suit": "H", "law": "26"}, "needs required"),
    ("require_pass", {"seat": "E", "law": "31", "scope": "forever"}, "not one of"),
    ("undo_cards", {"cards": 0}, "at least one card"),
    ("score", {"adjusted": "A60/40", "score_ns": 100}, "no NS points"),
])
def test_the_wire_refuses_what_the_kind_does_not_allow(kind: str, data: dict[str, Any],
                                                       reason: str) -> None:
    with pytest.raises(WireError, match=reason):
        Command.from_payload(Command("c", "ruling", {"kind": kind, **data}).to_payload())


def test_a_form_is_typed_by_its_kind() -> None:
    data = kind_of("lead_restriction").data(
        {"seat": "e", "suit": "h", "required": "forbidden", "law": " 26B ", "calls": "9"})
    assert data == {"kind": "lead_restriction", "seat": "E", "suit": "H", "required": False,
                    "law": "26B"}
    with pytest.raises(RulingDataError, match="unknown ruling"):
        kind_of("teleport")


def test_the_seat_displays_say_each_kind_in_their_language() -> None:
    for name, kind in KINDS.items():
        assert i18n.ruling(name, "es") == kind.short["es"]
        assert i18n.ruling(name, "en") == kind.short["en"]


# -- Law 16B: unauthorised information recorded against a pair ------------------------------

def test_unauthorised_information_is_recorded_against_a_pair(table: Table) -> None:
    reach(table, Phase.SETUP)
    table.calls("1C", "1H")
    table.mark()
    table.command("r-1", "ruling", {"kind": "unauthorised_information", "side": "EW",
                                    "law": "16B1"})
    [event] = table.new_events()
    assert (event.type, event.data["kind"], event.data["side"]) == (
        "ruling", "unauthorised_information", "EW")
    board = table.state.board
    assert board is not None
    [record] = board.records
    assert (record.kind, record.data, record.calls, record.cards, record.seq) == (
        "unauthorised_information", {"side": "EW", "law": "16B1"}, 2, 0, event.seq)
    # the auction goes on as before: a record, not a rectification
    table.calls("Pass")
    assert [str(e.seat) for e in board.auction.entries] == ["N", "E", "S"]
    assert board.auction.turn is Seat.W


def test_unauthorised_information_needs_a_board(table: Table) -> None:
    reach(table, Phase.BOARD)
    table.mark()
    table.command("r-1", "ruling", {"kind": "unauthorised_information", "side": "NS"})
    [event] = table.new_events()
    assert event.type == "refused" and "no board on the table" in event.data["reason"]
