"""The table as configured for a Pi: the example config parses, and the assembled table runs
on gpiozero's MockFactory, a loop:// card reader and a fake I2C bus."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.cardreader import CardReader
from hardware.layout import KeypadLayout
from hardware.sim import MatrixSimulator
from laws import Seat
from tabled.config import ConfigError, load, parse
from tabled.runner import Table
from tests.hardware.fake_lcd import FakeBus

EXAMPLE = Path(__file__).parents[2] / "deploy" / "table.example.toml"


def test_the_example_config_reads(tmp_path: Path) -> None:
    shutil.copy(EXAMPLE, tmp_path / "table.toml")
    (tmp_path / "table.secret").write_text("s3cret\n")
    config = load(tmp_path / "table.toml")
    assert (config.event, config.number, config.language) == (None, 3, "es")
    assert config.follows and config.journal == Path("/var/lib/bidbox")
    assert config.broker is not None
    assert (config.broker.host, config.broker.port) == ("director.local", 8883)
    assert (config.broker.username, config.broker.password) == ("table-3", "s3cret")
    assert config.broker.cafile == str(tmp_path / "ca.crt")
    assert config.lcd_addresses[Seat.W] == 0x23
    assert config.reader_url == "/dev/ttyACM0"
    assert config.reader_kind == "serial"


@pytest.mark.parametrize(("text", "complaint"), [
    ("[table]\nnumber = 1\njournal = 'j.db'", "'journal' names one event's file"),
    ("[table]\nnumber = 1", "'journals' is missing"),
    ("[table]\nnumber = 1\njournals = 'j'", "add \\[broker\\], or give 'event'"),
    ("[table]\nevent = 'e'\nnumber = 1\njournal = 'j.db'\njournals = 'j'",
     "'journals' is for a table that follows"),
    ("[table]\nevent = 'a b'\nnumber = 1\njournal = 'j.db'", "event name 'a b'"),
    ("[table]\nevent = 'e'\nnumber = 0\njournal = 'j.db'", "not a table number"),
    ("[table]\nevent = 'e'\nnumber = true\njournal = 'j.db'", "wrong type"),
    ("[table]\nevent = 'e'\nnumber = 1\njournal = 'j.db'\nlanguage = 'fr'", "language"),
    ("[table]\nevent = 'e'\nnumber = 1\njournal = 'j.db'\n[hardware]\ndisplay = 'oled'",
     "display"),
    ("[table]\nevent = 'e'\nnumber = 1\njournal = 'j.db'\n[broker]\nurl = 'http://x'",
     "mqtt://"),
    ("[table]\nevent = 'e'\nnumber = 1\njournal = 'j.db'\n[broker]\nurl = 'mqtt://x'\n"
     "password_file = 'absent'", "password_file"),
    ("[table]\nevent = 'e'\nnumber = 1\njournal = 'j.db'\n[hardware]\n"
     "card_reader_kind = 'telepathy'", "card_reader_kind 'telepathy' is not serial"),
])
def test_a_wrong_config_says_which_key(tmp_path: Path, text: str, complaint: str) -> None:
    import tomllib

    with pytest.raises(ConfigError, match=complaint):
        parse(tomllib.loads(text), tmp_path)


def test_the_assembled_table_takes_keys_and_drives_its_lcds(tmp_path: Path) -> None:
    import tomllib

    config = parse(tomllib.loads(
        "[table]\nevent = 'e'\nnumber = 2\njournal = 'table.db'\nlanguage = 'en'\n"
        "[hardware]\ncard_reader = 'loop://'\nfeedback = false\n"), tmp_path)
    factory = MockFactory()
    simulator = MatrixSimulator(factory, KeypadLayout.load())
    bus = FakeBus((0x27, 0x26, 0x25, 0x23))
    table = Table(config, pin_factory=factory, i2c_bus=bus)
    table.start()
    try:
        simulator.press(Seat.N, "DIR")
        assert table.daemon.wait_for(lambda s: len(s.director_calls) == 1, 5.0)
        simulator.release(Seat.N, "DIR")
        assert table.daemon.state.director_calls[0].seat is Seat.N
        # The table thread redraws after the event: West's LCD (0x23) says so.
        assert table.daemon.wait_for(
            lambda s: bus.lcds[0x23].screen()[3].startswith("Director! (N)"), 5.0)
        assert bus.lcds[0x27].screen()[0].startswith("Waiting for the")
    finally:
        table.stop()
        factory.close()
    assert table.journal.path == str(tmp_path / "table.db")
    assert isinstance(table.reader, CardReader)  # the kind the config names (serial)


def test_an_unplugged_reader_is_said_on_every_display(tmp_path: Path) -> None:
    from hardware.events import ReaderStatus
    from tabled.daemon import TableDaemon
    from tabled.journal import Journal

    journal = Journal(tmp_path / "t.db")
    daemon = TableDaemon(journal, language="es")
    try:
        daemon.handle(ReaderStatus(True, "/dev/ttyACM0", 0.0))
        assert all(daemon.view(seat)[3] == "" for seat in Seat)  # first connection: no news
        daemon.handle(ReaderStatus(False, "/dev/ttyACM0", 1.0))
        assert all(daemon.view(seat)[3] == "Lector desconectado" for seat in Seat)
        daemon.handle(ReaderStatus(True, "/dev/ttyACM0", 2.0))
        assert daemon.view(Seat.S)[3] == "Lector conectado"
        assert journal.last_seq == 0  # the reader's comings and goings are not table events
    finally:
        journal.close()
