"""Three clubs bridged to one centre, on loopback, through a cut line, a broker restarted
under its tables and a broker that crashes while its queue waits (docs/scale.md).

The brokers run the files ``bidbox provision`` wrote (:class:`LoopbackFederation`); each
club's tables are the real table daemon on simulated hardware replaying recorded boards
(``sim.simulation``), publishing through their own club's broker; the centre's subscriber
keys every event by (club, event, table, seq). Every wait is on a condition with a bound.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bidbox.loadtest_clubs import EventTap, LoopbackFederation, expected_keys
from laws.formats import load_path
from sim.recorded import Playable, playable
from sim.simulation import Simulation, TableRun
from tests.records import played_pbn

EVENT = "simul"
CLUBS = ("norte", "sur", "este")
TABLES = 2
BOARDS = 2  # each table's
WAIT = 120.0  # seconds: generous bounds for a whole session to cross two brokers
PATTERN = f"bidbox/v1/{EVENT}/table/+/events"


@pytest.fixture(scope="module")
def boards() -> list[Playable]:
    path = played_pbn()
    good, _ = playable(load_path(path), str(path))
    assert len(good) >= TABLES * BOARDS
    return good[:TABLES * BOARDS]


@pytest.fixture
def federation(mosquitto_bin: Path, tmp_path: Path) -> Iterator[LoopbackFederation]:
    with LoopbackFederation(tmp_path / "federation", CLUBS, tables=TABLES, event=EVENT,
                            binary=mosquitto_bin) as running:
        yield running


@pytest.fixture
def taps() -> Iterator[list[EventTap]]:
    made: list[EventTap] = []
    yield made
    for tap in made:
        tap.close()


class Club:
    """One club's tables playing in a thread of their own."""

    def __init__(self, federation: LoopbackFederation, name: str, boards: list[Playable],
                 folder: Path) -> None:
        club = federation.clubs[name]
        folder.mkdir(parents=True)
        self.simulation = Simulation(boards, tables=TABLES, folder=folder, event=EVENT,
                                     boards_per_round=BOARDS, broker_for=club.table_settings,
                                     drain=WAIT)
        self.runs: list[TableRun] = []
        self.thread = threading.Thread(target=self._play, name=f"club-{name}", daemon=True)

    def _play(self) -> None:
        self.runs = self.simulation.run()

    def finish(self) -> list[TableRun]:
        self.thread.join(WAIT)
        assert not self.thread.is_alive(), "the club's tables did not finish in time"
        assert [r.error for r in self.runs] == [None] * TABLES
        # Every event acknowledged by the club's broker before the tables stopped.
        assert [r.unacknowledged for r in self.runs] == [0] * TABLES
        return self.runs


def wait_saved_since(federation: LoopbackFederation, club: str, instant: float) -> None:
    """Until the club broker's persistence file was written after ``instant`` (wall clock):
    its autosave (every 2 s) then holds what it had queued by then."""
    db = federation.clubs[club].broker.config.persistence_dir / "mosquitto.db"
    deadline = time.monotonic() + WAIT
    while not (db.exists() and db.stat().st_mtime > instant):
        assert time.monotonic() < deadline, f"{db} not saved in {WAIT} s"
        threading.Event().wait(0.05)


def test_every_event_of_three_clubs_reaches_the_centre_through_cut_restart_and_crash(
        federation: LoopbackFederation, boards: list[Playable], tmp_path: Path,
        taps: list[EventTap]) -> None:
    centre = EventTap(federation.centre_settings, PATTERN, client_id="centre", centre=True)
    sur_server = EventTap(federation.clubs["sur"].server_settings(), PATTERN,
                          client_id="sur-server", club="sur")
    taps += [centre, sur_server]

    # Norte's line goes down, silently: the centre learns it from the bridge's will once the
    # centre's broker misses its keepalive.
    federation.clubs["norte"].proxy.cut()
    assert federation.wait_links(WAIT, ["norte"], b"0"), federation.links()

    clubs = {name: Club(federation, name, boards, tmp_path / name) for name in CLUBS}
    for club in clubs.values():
        club.thread.start()

    # Sur's broker is restarted under its playing tables (a clean stop: its service
    # restarted); they play on and hand over what they made meanwhile when it is back.
    assert sur_server.wait(lambda t: len(t.first) >= 40, WAIT)
    federation.clubs["sur"].broker.restart()

    runs = {name: club.finish() for name, club in clubs.items()}
    expected = {name: expected_keys(name, EVENT, {r.number: r.events for r in runs[name]})
                for name in CLUBS}
    # Sur and este reach the centre; norte's events are all waiting at its broker.
    assert centre.wait(lambda t: not t.missing(expected["sur"] + expected["este"]), WAIT), \
        centre.missing(expected["sur"] + expected["este"])[:5]
    assert not any(key[0] == "norte" for key in centre.first)
    assert federation.links()["norte"] == b"0"

    # Norte's broker crashes with its queue saved (its tables got their acknowledgements
    # before the last autosave), and comes back from its persistence file.
    wait_saved_since(federation, "norte", time.time())
    federation.clubs["norte"].broker.kill()
    federation.clubs["norte"].broker.start()
    # The line comes back: the queue crosses.
    federation.clubs["norte"].proxy.restore()

    everything = [key for name in CLUBS for key in expected[name]]
    assert centre.wait(lambda t: not t.missing(everything), WAIT), \
        f"lost at the centre: {centre.missing(everything)[:5]} ..."
    assert federation.wait_links(WAIT), federation.links()
    assert set(centre.first) == set(everything)  # nothing but what the tables journalled
    assert centre.bad == [] and centre.differing == set()
    # QoS 1 may deliver twice; the centre's store keeps one per (club, event, table, seq).
    # A duplicate is the same payload again (``differing`` above), so the key is enough.
    print(f"{len(everything)} events, {centre.arrivals} deliveries at the centre: "
          f"{centre.duplicates} duplicates")
