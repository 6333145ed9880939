"""The journal: numbered events, the outbox of unacknowledged ones, and a file that keeps
both across a restart and belongs to one table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabled.journal import Journal, JournalError
from tablemodel.wire import Event

EVENTS = [
    ("assign", None, {"cmd": "c1", "round": 1, "ns": 1, "ew": 2, "boards": [1]}),
    ("player", None, {"seat": "N", "number": 7}),
    ("board", 1, {"board": 1, "dealer": "N", "vul": "None"}),
    ("call", 1, {"seat": "N", "call": "1NT"}),
    ("director", 1, {"seat": None, "reason": "player", "detail": "Señor López"}),
]


def fill(journal: Journal) -> list[Event]:
    return [journal.append(kind, board, data, ts=100.0 + i)
            for i, (kind, board, data) in enumerate(EVENTS)]


def test_append_numbers_events_from_one(journal: Journal) -> None:
    assert journal.last_seq == 0
    appended = fill(journal)
    assert [e.seq for e in appended] == [1, 2, 3, 4, 5]
    assert journal.last_seq == 5
    assert appended[3] == Event(4, "call", 103.0, 1, {"seat": "N", "call": "1NT"})


def test_events_come_back_as_appended(journal: Journal) -> None:
    appended = fill(journal)
    assert list(journal.events()) == appended
    assert [e.seq for e in journal.events(since=2)] == [3, 4, 5]
    assert [e.seq for e in journal.events(since=1, until=3)] == [2, 3]
    assert list(journal.events(since=5)) == []
    assert list(journal.events())[4].data["detail"] == "Señor López"


def test_empty_journal_has_no_events(journal: Journal) -> None:
    assert list(journal.events()) == []
    assert journal.unacknowledged() == []
    assert journal.outbox_size() == 0


def test_every_event_waits_in_the_outbox_until_acknowledged(journal: Journal) -> None:
    appended = fill(journal)
    assert journal.unacknowledged() == appended
    assert journal.outbox_size() == 5
    journal.acknowledge([2, 4])
    assert [e.seq for e in journal.unacknowledged()] == [1, 3, 5]
    journal.acknowledge([])
    journal.acknowledge([2, 99])  # again, and unknown: harmless
    assert journal.outbox_size() == 3
    # Acknowledged events stay in the log.
    assert [e.seq for e in journal.events()] == [1, 2, 3, 4, 5]


def test_reopening_keeps_numbering_and_outbox(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    first = Journal(path)
    try:
        fill(first)
        first.acknowledge([1, 2, 3])
    finally:
        first.close()
    again = Journal(path)
    try:
        assert again.last_seq == 5
        assert [e.seq for e in again.unacknowledged()] == [4, 5]
        event = again.append("confirm", 1, {"seat": "E"}, ts=200.0)
        assert event.seq == 6
        assert [e.seq for e in again.unacknowledged()] == [4, 5, 6]
        assert [e.type for e in again.events()] == [*(k for k, _, _ in EVENTS), "confirm"]
    finally:
        again.close()


IDENTITY = {"event": "club-2024-05-01", "table": "3"}


@pytest.mark.parametrize("other", [
    {"event": "club-2024-05-01", "table": "4"},
    {"event": "club-2024-05-08", "table": "3"},
])
def test_journal_of_another_table_is_refused(tmp_path: Path, other: dict[str, str]) -> None:
    path = tmp_path / "table.db"
    first = Journal(path, identity=IDENTITY)
    first.append("player", None, {"seat": "N", "number": 1}, ts=1.0)
    first.close()
    with pytest.raises(JournalError, match="belongs to"):
        Journal(path, identity=other)
    # The refusal changed nothing: the right table carries on.
    again = Journal(path, identity=IDENTITY)
    try:
        assert again.last_seq == 1
    finally:
        again.close()


def test_identity_is_adopted_and_extended(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    Journal(path).close()                          # a journal without identity is anyone's
    Journal(path, identity={"table": "3"}).close()
    Journal(path, identity=IDENTITY).close()       # adds the event
    with pytest.raises(JournalError):
        Journal(path, identity={"event": "other", "table": "3"})


def test_journal_error_is_an_os_error() -> None:
    # The daemon catches JournalError around appends; callers that know only OSError
    # (a full or unwritable SD card) catch it too.
    assert issubclass(JournalError, OSError)
