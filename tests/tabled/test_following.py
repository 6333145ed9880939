"""A table provisioned once follows the server's session: one journal per session, and a
move to another session only between boards, once the broker has every event of the one
it leaves (tabled.following, tabled.daemon)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from laws import Seat
from tabled.config import parse
from tabled.daemon import Acked, TableDaemon
from tabled.following import SessionJournals
from tabled.journal import JournalError
from tablemodel.running import RunningSession
from tablemodel.state import Phase
from tablemodel.wire import Event, WireError
from tests.clock import Clock

from .helpers import Table, reach


class FollowingPublisher:
    """What the uplink does for the daemon, kept in lists: the events and the sessions."""

    def __init__(self) -> None:
        self.events: list[tuple[str | None, int]] = []
        self.followed: list[str] = []
        self.mid = 0
        self.event: str | None = None

    def publish_event(self, event: Event) -> int | None:
        self.mid += 1
        self.events.append((self.event, event.seq))
        return self.mid

    def publish_state(self, snapshot: Mapping[str, Any]) -> None:
        pass

    def follow(self, event: str) -> None:
        self.followed.append(event)
        self.event = event
        self.mid = 0  # a new client numbers its messages afresh


@pytest.fixture
def journals(tmp_path: Path) -> SessionJournals:
    return SessionJournals(tmp_path / "journals", 3)


@pytest.fixture
def table(journals: SessionJournals) -> Iterator[tuple[Table, FollowingPublisher]]:
    publisher = FollowingPublisher()
    daemon = TableDaemon(None, publisher=publisher, clock=Clock(), journals=journals)
    yield Table(daemon), publisher
    if daemon.journal is not None:
        daemon.journal.close()


def ack_all(table: Table, publisher: FollowingPublisher) -> None:
    table.daemon.handle(Acked(0, -1))  # nothing: another link's
    for mid in range(1, publisher.mid + 1):
        table.daemon.handle(Acked(mid, table.daemon.link))


def test_a_config_with_no_event_follows_the_server(tmp_path: Path) -> None:
    config = parse(tomllib.loads(
        "[table]\nnumber = 3\njournals = 'sessions'\n"
        "[broker]\nurl = 'mqtts://director.local:8883'\npassword = 'x'\n"), tmp_path)
    assert config.follows and config.event is None
    assert config.journal == tmp_path / "sessions"
    fixed = parse(tomllib.loads("[table]\nevent = 'club'\nnumber = 3\njournal = 't.db'\n"),
                  tmp_path)
    assert not fixed.follows and fixed.journal == tmp_path / "t.db"


def test_the_folder_keeps_a_journal_a_session_and_the_last_followed(
        journals: SessionJournals) -> None:
    assert journals.last() is None
    assert journals.path("club-2026-11-28") == journals.folder / "club-2026-11-28.db"
    journals.remember("club-2026-11-28")
    assert journals.last() == "club-2026-11-28"
    opened = journals.open("club-2026-11-28")
    opened.close()
    with pytest.raises(JournalError, match="table '3'"):
        SessionJournals(journals.folder, 4).open("club-2026-11-28").close()
    with pytest.raises(ValueError, match="event name"):
        journals.path("../etc")
    (journals.folder / "running").write_text("no good/name\n")
    assert journals.last() is None  # a marker it cannot use is no session


def test_before_any_session_the_table_records_nothing(
        table: tuple[Table, FollowingPublisher]) -> None:
    t, publisher = table
    t.press(Seat.N, "DIR")
    t.assign()
    assert t.daemon.journal is None and t.phase is Phase.WAITING
    assert publisher.events == []


def test_the_session_named_is_taken_at_once_by_a_table_with_none(
        table: tuple[Table, FollowingPublisher], journals: SessionJournals) -> None:
    t, publisher = table
    t.daemon.handle(RunningSession("club-1", "Lunes"))
    assert t.daemon.event == "club-1" and publisher.followed == ["club-1"]
    assert t.daemon.journal is not None and t.daemon.journal.path == str(
        journals.path("club-1"))
    assert journals.last() == "club-1"
    t.assign()
    assert publisher.events == [("club-1", 1)]
    t.daemon.handle(RunningSession("club-1", "Lunes"))  # again: nothing moves
    assert publisher.followed == ["club-1"]


def test_a_board_is_finished_and_delivered_before_the_table_moves(
        table: tuple[Table, FollowingPublisher], journals: SessionJournals) -> None:
    t, publisher = table
    t.daemon.handle(RunningSession("club-1"))
    reach(t, Phase.AUCTION, boards=[1])
    t.daemon.handle(RunningSession("club-2", "Martes"))
    assert t.daemon.event == "club-1" and t.daemon.following == "club-2"
    t.calls("Pass", "Pass", "Pass")
    t.play_out()
    t.confirm()
    assert t.phase is Phase.ROUND_END
    assert t.daemon.event == "club-1", "events the broker has not acknowledged"
    played = t.daemon.state.results
    ack_all(t, publisher)
    assert t.daemon.event == "club-2" and publisher.followed == ["club-1", "club-2"]
    assert t.phase is Phase.WAITING and journals.last() == "club-2"
    # The session left is kept whole on the card, and taken up again if named again.
    t.daemon.handle(RunningSession("club-1"))
    assert t.daemon.event == "club-1" and t.phase is Phase.ROUND_END
    assert t.daemon.state.results == played


def test_a_late_acknowledgement_of_the_link_before_acknowledges_nothing(
        table: tuple[Table, FollowingPublisher]) -> None:
    t, _ = table
    t.daemon.handle(RunningSession("club-1"))
    t.daemon.handle(RunningSession("club-2"))
    t.assign()
    assert t.daemon.journal is not None and t.daemon.journal.outbox_size() == 1
    t.daemon.handle(Acked(1, t.daemon.link - 1))  # club-1's client's mid 1
    assert t.daemon.journal.outbox_size() == 1
    t.daemon.handle(Acked(1, t.daemon.link))
    assert t.daemon.journal.outbox_size() == 0


def test_a_table_of_one_event_ignores_the_server_s_session(tmp_path: Path) -> None:
    from tabled.journal import Journal

    journal = Journal(tmp_path / "t.db", identity={"event": "club", "table": "1"})
    try:
        daemon = TableDaemon(journal, clock=Clock())
        daemon.handle(RunningSession("club-2"))
        assert daemon.journal is journal and daemon.following is None
    finally:
        journal.close()


@pytest.mark.parametrize("payload", [
    b'{"v":1,"event":"a/b"}', b'{"v":2,"event":"a"}', b'{"v":1}', b"[]", b"\xff",
    b'{"v":1,"event":"a","title":3}', b'{"v":1,"event":"a","extra":1}'])
def test_a_bad_session_message_is_refused_with_a_reason(payload: bytes) -> None:
    with pytest.raises(WireError, match="session"):
        RunningSession.from_payload(payload)


def test_the_session_message_round_trips() -> None:
    running = RunningSession("club-2026-11-28", "Martes tarde · ñ")
    assert RunningSession.from_payload(running.to_payload()) == running
