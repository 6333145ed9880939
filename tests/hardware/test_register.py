"""Tag tables and the registration of RFID decks, by function and from the command line."""

from __future__ import annotations

import json
import os
import queue
import select
import threading
from pathlib import Path
from typing import Any

import pytest

from hardware import register
from hardware.errors import ConfigError, DuplicateTagError, RegistrationError
from hardware.protocol import TagRead, VersionQuery, decode, encode
from hardware.register import ORDER, DeckRegistration
from hardware.tags import TagTable
from laws import Card

from .helpers import TIMEOUT


def deck_tags(prefix: int) -> list[str]:
    return [f"{prefix:02X}{i:06X}" for i in range(52)]


def test_the_order_is_a_new_deck_sorted_by_suit() -> None:
    assert [str(c) for c in ORDER[:3]] == ["C2", "C3", "C4"]
    assert [str(c) for c in ORDER[12:14]] == ["CA", "D2"]
    assert str(ORDER[-1]) == "SA" and len(set(ORDER)) == 52


def test_a_deck_is_learnt_card_by_card() -> None:
    table = TagTable()
    registration = DeckRegistration(table, "board-01")
    for n, tag in enumerate(deck_tags(0x04)):
        assert registration.expected == ORDER[n]
        assert registration.offer(tag) == ORDER[n]
        assert registration.count == n + 1
    assert registration.done and registration.expected is None
    assert len(table) == 0  # nothing is in the table before commit
    registration.commit()
    assert table.lookup("04000000") == (Card.from_str("C2"), "board-01")
    assert table.lookup("04000033") == (Card.from_str("SA"), "board-01")
    with pytest.raises(RegistrationError):
        registration.offer("99999999")


def test_a_tag_scanned_twice_is_refused_and_the_card_asked_for_again() -> None:
    registration = DeckRegistration(TagTable(), "board-01")
    registration.offer("04000000")
    with pytest.raises(DuplicateTagError, match="already, as C2") as caught:
        registration.offer("04000000")
    assert caught.value.tag == "04000000"
    assert registration.expected == Card.from_str("C3")


def test_a_tag_of_another_deck_is_refused() -> None:
    table = TagTable()
    table.add_deck("board-01", deck_tags(0x04))
    registration = DeckRegistration(table, "board-02")
    with pytest.raises(DuplicateTagError, match="C5 of deck 'board-01'"):
        registration.offer("04000003")
    assert registration.count == 0


def test_a_sorted_deck_read_in_one_pass() -> None:
    """The streamed routine: the card just read, seen again, is no new card; any other tag
    seen before is still refused."""
    registration = DeckRegistration(TagTable(), "board-01")
    tags = deck_tags(0x04)
    for tag in tags[:13]:
        assert registration.offer_streamed(tag) is not None
        assert registration.offer_streamed(tag) is None  # left on the reader a moment
    assert registration.expected == Card.from_str("D2")
    with pytest.raises(DuplicateTagError, match="already, as C3"):
        registration.offer_streamed(tags[1])
    for tag in tags[13:]:
        registration.offer_streamed(tag)
    registration.commit()


def test_undo_forgets_the_last_scan() -> None:
    registration = DeckRegistration(TagTable(), "board-01")
    assert registration.undo() is None
    registration.offer("04000000")
    registration.offer("04000001")
    assert registration.undo() == Card.from_str("C3")
    assert registration.expected == Card.from_str("C3")
    registration.offer("04000001")  # the same tag is welcome again


def test_a_registered_deck_is_only_learnt_again_on_purpose() -> None:
    table = TagTable()
    table.add_deck("board-01", deck_tags(0x04))
    with pytest.raises(RegistrationError):
        DeckRegistration(table, "board-01")
    again = DeckRegistration(table, "board-01", replace=True)
    for tag in deck_tags(0x04)[:26] + deck_tags(0x05)[26:]:  # half the stickers replaced
        again.offer(tag)
    again.commit()
    assert len(table) == 52
    assert table.lookup("04000033") is None
    assert table.lookup("05000033") == (Card.from_str("SA"), "board-01")


def test_commit_needs_all_52() -> None:
    registration = DeckRegistration(TagTable(), "board-01")
    registration.offer("04000000")
    with pytest.raises(RegistrationError, match="1 of 52"):
        registration.commit()


def test_tag_table_files_round_trip(tmp_path: Path) -> None:
    table = TagTable()
    table.add_deck("board-01", deck_tags(0x04))
    table.add_deck("board-02", deck_tags(0x05))
    path = tmp_path / "tags.json"
    table.dump(path)
    again = TagTable.load(path)
    assert again.decks == ("board-01", "board-02")
    assert again.dumps() == table.dumps()
    data = json.loads(path.read_text())
    assert data["decks"]["board-02"]["SA"] == "05000033"
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind


@pytest.mark.parametrize("mangle", [
    lambda d: d.update(format="other"),
    lambda d: d.update(version=2),
    lambda d: d["decks"]["b"].pop("SA"),
    lambda d: d["decks"]["b"].update(SA="04000000"),  # a tag twice
    lambda d: d["decks"]["b"].update(SA="xyz"),
    lambda d: d["decks"]["b"].update(ZZ="04999999"),
    lambda d: d["decks"].update(c=d["decks"]["b"]),  # two decks sharing tags
])
def test_bad_tag_tables_are_refused(mangle: Any) -> None:
    table = TagTable()
    table.add_deck("b", deck_tags(0x04))
    data = json.loads(table.dumps())
    mangle(data)
    with pytest.raises(ConfigError):
        TagTable.loads(json.dumps(data))


def test_not_json_is_refused() -> None:
    with pytest.raises(ConfigError):
        TagTable.loads("{not json")


# -- the command line, against a device on a pty ---------------------------------------------


class Device:
    """A pty; the test keeps the slave open too, or reading the master fails until the reader
    has opened it."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)

    def receive_line(self) -> bytes:
        data = b""
        while not data.endswith(b"\n"):
            ready, _, _ = select.select([self.master], [], [], TIMEOUT)
            assert ready
            data += os.read(self.master, 1)
        return data

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


def run_main(argv: list[str]) -> tuple[threading.Thread, queue.Queue[int]]:
    result: queue.Queue[int] = queue.Queue()
    thread = threading.Thread(target=lambda: result.put(register.main(argv)), daemon=True)
    thread.start()
    return thread, result


def test_main_registers_a_deck_from_the_reader(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    tags_file = tmp_path / "tags.json"
    existing = TagTable()
    existing.add_deck("board-01", deck_tags(0x04))
    existing.dump(tags_file)
    device = Device()
    try:
        thread, result = run_main([device.path, "--tags", str(tags_file), "--deck", "board-02",
                                   "--timeout", str(TIMEOUT)])
        assert decode(device.receive_line()) == VersionQuery()  # the reader is listening
        tags = deck_tags(0x05)
        scans = [*tags[:10], tags[9], "04000000", *tags[10:]]  # a repeat, a board-01 tag
        os.write(device.master, b"".join(encode(TagRead(tag)) for tag in scans))
        assert result.get(timeout=TIMEOUT) == 0
        thread.join(TIMEOUT)
    finally:
        device.close()
    table = TagTable.load(tags_file)
    assert table.decks == ("board-01", "board-02")
    assert table.deck("board-02") == dict(zip(Card.ALL, deck_tags(0x05), strict=True))
    out = capsys.readouterr().out
    assert "scan C2" in out
    assert "10/52 CJ = 05000009; scan CQ" in out
    assert "refused: tag 05000009 was scanned already, as CJ; scan CQ again" in out
    assert "refused: tag 04000000 is already C2 of deck 'board-01'; scan CQ again" in out
    assert "52/52 SA = 05000033; all 52 in" in out
    assert "deck 'board-02' saved" in out


def test_main_gives_up_after_the_timeout_and_saves_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tags_file = tmp_path / "tags.json"
    device = Device()
    try:
        thread, result = run_main([device.path, "--tags", str(tags_file), "--deck", "b",
                                   "--timeout", "0.2"])
        device.receive_line()
        os.write(device.master, encode(TagRead("04000000")))
        assert result.get(timeout=TIMEOUT) == 1
        thread.join(TIMEOUT)
    finally:
        device.close()
    assert not tags_file.exists()
    assert "1/52 C2" in capsys.readouterr().out


def test_main_refuses_a_deck_already_in_the_file(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    tags_file = tmp_path / "tags.json"
    table = TagTable()
    table.add_deck("board-01", deck_tags(0x04))
    table.dump(tags_file)
    assert register.main(["loop://", "--tags", str(tags_file), "--deck", "board-01"]) == 1
    assert "already registered" in capsys.readouterr().out
