"""The card reader board against simulated MFRC522 and PN532 chips, at register level.

Each seat's chip sits behind the shim's SPI (or I2C) exactly as on the board; cards are
placed, held, lifted and replaced in simulated time, and what the board sends is read back
with the Pi's own decoder (``hardware.protocol.decode``).
"""

from __future__ import annotations

import pytest

from firmware.cardreader import main as cardreader_main
from firmware.common.cards import TagMap
from firmware.drivers import mfrc522
from hardware.protocol import CardRead, DeviceError, Health, HealthQuery, TagRead, Version, encode
from laws import Card, Seat

from .conftest import CardReaderBoard, make_mfrc522_board, make_pn532_board
from .fake_mfrc522 import FakeTag

UID4 = bytes.fromhex("04A1B2C3")
UID7 = bytes.fromhex("04A1B2C3D4E5F6")
UID10 = bytes.fromhex("0102030405060708090A")


def health(board: CardReaderBoard) -> Health:
    board.host_sends(encode(HealthQuery()))
    board.run(1)
    (answer,) = board.messages()
    assert isinstance(answer, Health)
    return answer


def test_power_up_says_who_it_is_after_a_lone_newline() -> None:
    board = make_mfrc522_board()
    board.app.start()
    assert board.raw() == b"\n" + encode(Version(1, "cardreader", "0.1.0"))
    for chip in board.chips.values():
        assert chip.antenna  # every reader was set up


@pytest.mark.parametrize("uid", [UID4, UID7, UID10], ids=["4-byte", "7-byte", "10-byte"])
def test_a_card_placed_is_sent_once_with_its_seat(reader_board: CardReaderBoard,
                                                  uid: bytes) -> None:
    reader_board.raw()
    reader_board.chips["S"].place(FakeTag(uid))
    reader_board.run(60)
    assert reader_board.messages() == [TagRead(uid.hex().upper(), Seat.S)]


def test_a_card_held_on_the_reader_is_not_sent_again(reader_board: CardReaderBoard) -> None:
    reader_board.raw()
    chip = reader_board.chips["E"]
    chip.place(FakeTag(UID7))
    reader_board.run(5000)
    assert reader_board.messages() == [TagRead(UID7.hex().upper(), Seat.E)]
    assert chip.transceives > 100 * 4  # it was polled all along, and seen every time


def test_lifted_and_put_back_is_a_new_placement_only_after_500_ms(
        reader_board: CardReaderBoard) -> None:
    reader_board.raw()
    chip = reader_board.chips["W"]
    tag = FakeTag(UID4)
    chip.place(tag)
    reader_board.run(100)
    chip.remove(tag)
    reader_board.run(300)  # a hand lifting it a little
    chip.place(tag)
    reader_board.run(100)
    assert len(reader_board.messages()) == 1
    chip.remove(tag)
    reader_board.run(600)
    chip.place(tag)
    reader_board.run(100)
    assert reader_board.messages() == [TagRead("04A1B2C3", Seat.W)]


def test_cards_at_several_seats_each_come_with_their_seat(
        reader_board: CardReaderBoard) -> None:
    reader_board.raw()
    for n, seat in enumerate("NESW"):
        reader_board.chips[seat].place(FakeTag(bytes([4, 0, 0, n])))
    reader_board.run(60)
    assert reader_board.messages() == [TagRead(f"040000{n:02X}", Seat[seat])
                                       for n, seat in enumerate("NESW")]


def test_a_second_card_on_a_held_one_is_one_error_103(reader_board: CardReaderBoard) -> None:
    reader_board.raw()
    chip = reader_board.chips["N"]
    first, second = FakeTag(UID7), FakeTag(bytes.fromhex("04A1B2C3D4E5F7"))
    chip.place(first)
    reader_board.run(60)
    chip.place(second)
    reader_board.run(1000)
    assert reader_board.messages() == [TagRead(UID7.hex().upper(), Seat.N),
                                       DeviceError(103, "two cards at N")]
    chip.remove(second)
    reader_board.run(1000)
    assert reader_board.messages() == []  # the first card never left
    chip.remove(first)
    chip.place(second)
    reader_board.run(100)
    assert reader_board.messages() == [TagRead("04A1B2C3D4E5F7", Seat.N)]


def test_a_tag_that_answers_garbled_is_error_101_once_and_then_read(
        reader_board: CardReaderBoard) -> None:
    reader_board.raw()
    tag = FakeTag(UID4)
    tag.garbled = 10
    reader_board.chips["E"].place(tag)
    reader_board.run(2000)
    assert reader_board.messages() == [DeviceError(101, "tag read failed at E"),
                                       TagRead("04A1B2C3", Seat.E)]


def test_one_garbled_answer_is_retried_silently(reader_board: CardReaderBoard) -> None:
    reader_board.raw()
    tag = FakeTag(UID4)
    tag.garbled = 1
    reader_board.chips["E"].place(tag)
    reader_board.run(200)
    assert reader_board.messages() == [TagRead("04A1B2C3", Seat.E)]


@pytest.mark.parametrize("dead_value", [0x00, 0xFF])
def test_a_reader_that_stops_answering_is_reported_once_and_comes_back(
        start_ms: int, dead_value: int) -> None:
    board = make_mfrc522_board(start_ms)
    board.app.start()
    board.raw()
    chip = board.chips["S"]
    chip.dead_value = dead_value
    chip.power_off()
    board.run(3000)
    assert board.messages() == [DeviceError(201, "reader S")]
    answer = health(board)
    assert answer.status == "WARN" and answer.get("rf") == "NE-W"
    assert answer.get("errors") == "1"
    chip.power_on()  # back with its reset values: antenna off until set up again
    assert not chip.antenna
    board.run(1100)
    assert chip.antenna
    chip.place(FakeTag(UID4))
    board.run(100)
    assert board.messages() == [TagRead("04A1B2C3", Seat.S)]
    assert health(board).get("rf") == "NESW"


def test_a_reader_missing_at_power_up(start_ms: int) -> None:
    board = make_mfrc522_board(start_ms, seats="NES")  # nothing on W's chip select
    board.app.start()
    assert board.messages()[1:] == [DeviceError(201, "reader W")]
    board.run(5000)
    assert board.messages() == []
    assert health(board).status == "WARN"


def test_every_reader_gone_is_fail(reader_board: CardReaderBoard) -> None:
    for chip in reader_board.chips.values():
        chip.power_off()
    reader_board.run(100)
    assert [m.code for m in reader_board.messages() if isinstance(m, DeviceError)] \
        == [201, 201, 201, 201]
    answer = health(reader_board)
    assert answer.status == "FAIL" and answer.get("rf") == "----"


def test_health_counts_reads_and_uptime(reader_board: CardReaderBoard) -> None:
    reader_board.chips["N"].place(FakeTag(UID4))
    reader_board.run(2500)
    reader_board.raw()
    answer = health(reader_board)
    assert answer.status == "OK"
    assert answer.fields[:2] == (("uptime", "2"), ("reads", "1"))
    assert answer.get("errors") == "0"


def test_the_driver_halts_the_tag_so_that_it_answers_every_poll() -> None:
    board = make_mfrc522_board(seats="N")
    board.app.start()
    chip = board.chips["N"]
    tag = FakeTag(UID4)
    chip.place(tag)
    driver = board.app.seats[0].driver
    for _ in range(5):
        assert driver.scan() == [UID4]
        assert tag.state == "halt"


def test_the_driver_reports_a_chip_that_never_finishes() -> None:
    board = make_mfrc522_board(seats="N")
    board.app.start()
    chip = board.chips["N"]
    chip._transceive = lambda last_bits: None  # never raises an interrupt request
    with pytest.raises(mfrc522.NotResponding):
        board.app.seats[0].driver.scan()


def test_a_tag_table_on_the_board_turns_tags_into_cards(start_ms: int,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: object) -> None:
    blob = TagMap.build({"04A1B2C3": "SQ", "04A1B2C3D4E5F6": "C2"})
    monkeypatch.setattr(cardreader_main.cards, "load", lambda path: TagMap(blob))
    board = make_mfrc522_board(start_ms)
    board.app.start()
    board.raw()
    board.chips["N"].place(FakeTag(UID4))
    board.chips["E"].place(FakeTag(UID7))
    board.chips["S"].place(FakeTag(UID10))  # not in the table: sent as a tag
    board.run(60)
    assert board.messages() == [CardRead(Card.from_str("SQ"), Seat.N),
                                CardRead(Card.from_str("C2"), Seat.E),
                                TagRead(UID10.hex().upper(), Seat.S)]


# -- PN532 ------------------------------------------------------------------------------------


def test_pn532_readers(monkeypatch: pytest.MonkeyPatch, start_ms: int) -> None:
    board = make_pn532_board(monkeypatch, start_ms)
    board.app.start()
    assert board.messages() == [Version(1, "cardreader", "0.1.0")]
    assert all(chip.sam_configured for chip in board.chips.values())
    tag = FakeTag(UID7)
    board.chips["W"].place(tag)
    board.run(3000)
    assert board.messages() == [TagRead(UID7.hex().upper(), Seat.W)]
    board.chips["W"].remove(tag)
    board.run(600)
    board.chips["W"].place(tag)
    board.chips["E"].place(FakeTag(UID4))
    board.chips["E"].place(FakeTag(UID10))
    board.run(1000)
    # W's card on the first poll; E's two cards only after three polls agree.
    assert board.messages() == [TagRead(UID7.hex().upper(), Seat.W),
                                DeviceError(103, "two cards at E")]
    assert all(chip.bad_frames == 0 for chip in board.chips.values())


def test_pn532_two_cards_and_a_garbled_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    board = make_pn532_board(monkeypatch)
    board.app.start()
    board.raw()
    chip = board.chips["E"]
    chip.place(FakeTag(UID4))
    chip.place(FakeTag(UID7))
    board.run(1000)
    assert board.messages() == [DeviceError(103, "two cards at E")]
    chip.field.pop()
    chip.corrupt_next = 5  # noise on the bus: answers with a bad checksum
    board.run(1000)
    assert board.messages() == [DeviceError(101, "tag read failed at E"),
                                TagRead("04A1B2C3", Seat.E)]


def test_pn532_unplugged_and_back(monkeypatch: pytest.MonkeyPatch, start_ms: int) -> None:
    board = make_pn532_board(monkeypatch, start_ms)
    board.app.start()
    board.raw()
    chip = board.chips["N"]
    chip.power_off()
    board.run(3000)
    assert board.messages() == [DeviceError(201, "reader N")]
    chip.power_on()  # not configured until set up again
    board.run(1100)
    assert chip.sam_configured
    chip.place(FakeTag(UID4))
    board.run(100)
    assert board.messages() == [TagRead("04A1B2C3", Seat.N)]
