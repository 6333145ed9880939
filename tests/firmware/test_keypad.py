"""The USB seat-keypad board against simulated pads and LCDs: bounce, chords, held keys."""

from __future__ import annotations

import pytest

from hardware.layout import KeypadLayout
from hardware.protocol import (
    CardRead,
    DeviceError,
    Health,
    HealthQuery,
    KeyChange,
    LcdText,
    encode,
    frame,
)
from laws import Card, Seat

from .conftest import KeypadBoard, make_keypad_board


def down(seat: str, key: str) -> KeyChange:
    return KeyChange(Seat[seat], key, True)


def up(seat: str, key: str) -> KeyChange:
    return KeyChange(Seat[seat], key, False)


def test_a_press_is_one_down_and_one_up(keypad_board: KeypadBoard) -> None:
    keypad_board.raw()
    keypad_board.pads.press("N", "PASS")
    keypad_board.run(50)
    keypad_board.pads.release("N", "PASS")
    keypad_board.run(50)
    assert keypad_board.messages() == [down("N", "PASS"), up("N", "PASS")]


def test_a_press_counts_after_10_ms_stable(keypad_board: KeypadBoard) -> None:
    keypad_board.raw()
    keypad_board.pads.press("E", "1")
    keypad_board.run(9)
    assert keypad_board.messages() == []
    keypad_board.run(5)  # the scan every 2 ms sees it stable for 10 ms by now
    assert keypad_board.messages() == [down("E", "1")]


def test_contact_bounce_yields_one_down(keypad_board: KeypadBoard) -> None:
    keypad_board.raw()
    pads = keypad_board.pads
    for ms in (1, 3, 2, 4, 1, 5, 3, 2):  # chatter, each state shorter than 10 ms
        pads.press("S", "XX")
        keypad_board.run(ms)
        pads.release("S", "XX")
        keypad_board.run(1)
    assert keypad_board.messages() == []
    pads.press("S", "XX")
    keypad_board.run(30)
    for ms in (2, 1, 3):  # bounce on release too
        pads.release("S", "XX")
        keypad_board.run(ms)
        pads.press("S", "XX")
        keypad_board.run(1)
    pads.release("S", "XX")
    keypad_board.run(30)
    assert keypad_board.messages() == [down("S", "XX"), up("S", "XX")]


def test_a_held_key_is_one_down_without_repeats(keypad_board: KeypadBoard) -> None:
    keypad_board.raw()
    keypad_board.pads.press("W", "OK")
    keypad_board.run(5000)
    assert keypad_board.messages() == [down("W", "OK")]
    keypad_board.pads.release("W", "OK")
    keypad_board.run(20)
    assert keypad_board.messages() == [up("W", "OK")]


def test_a_chord_is_one_line_per_key(keypad_board: KeypadBoard) -> None:
    keypad_board.raw()
    keypad_board.pads.press("N", "4")
    keypad_board.pads.press("N", "NT")
    keypad_board.pads.press("E", "X")  # another seat at the same moment
    keypad_board.run(20)
    assert keypad_board.messages() == [down("N", "4"), down("N", "NT"), down("E", "X")]
    keypad_board.pads.release("N", "NT")
    keypad_board.run(20)
    assert keypad_board.messages() == [up("N", "NT")]


def test_ghost_keys_of_a_plain_membrane_pad_are_not_reported(start_ms: int) -> None:
    board = make_keypad_board(start_ms)
    board.app.start()
    board.raw()
    for key in ("1", "2", "4"):  # three corners: "5" closes electrically too
        board.pads.press("N", key)
        board.run(20)
    assert board.messages() == [down("N", "1"), down("N", "2")]
    board.pads.release("N", "2")
    board.run(20)
    assert board.messages() == [up("N", "2"), down("N", "4")]


def test_with_a_diode_per_key_every_chord_is_read(start_ms: int) -> None:
    board = make_keypad_board(start_ms, key_diodes=True)
    board.app.start()
    board.raw()
    for key in ("1", "2", "4"):
        board.pads.press("N", key)
    board.run(20)
    assert board.messages() == [down("N", "1"), down("N", "2"), down("N", "4")]


def test_a_key_down_at_power_up_is_reported_stuck_and_ignored_until_released(
        start_ms: int) -> None:
    board = make_keypad_board(start_ms)
    board.pads.press("S", "OK")
    board.app.start()
    assert board.messages()[-1:] == [DeviceError(203, "key S OK stuck")]
    board.host_sends(encode(HealthQuery()))
    board.run(100)
    (answer,) = board.messages()
    assert isinstance(answer, Health) and answer.status == "WARN"
    assert answer.get("stuck") == "S-OK"
    board.pads.release("S", "OK")
    board.run(20)
    assert board.messages() == []  # no "up" for a "down" never sent
    board.pads.press("S", "OK")
    board.run(20)
    assert board.messages() == [down("S", "OK")]


def test_the_keys_are_those_of_the_pi_keypad_layout() -> None:
    from firmware.keypad.app import KEYS

    layout = KeypadLayout.load()
    assert tuple(tuple(row) for row in KEYS) == tuple(tuple(row) for row in layout.keys)


def test_lcd_rows_follow_l_lines(keypad_board: KeypadBoard) -> None:
    keypad_board.raw()
    keypad_board.host_sends(encode(LcdText(Seat.S, 0, "1NT  X   2H"))
                            + encode(LcdText(Seat.S, 3, "Your turn*")))
    keypad_board.run(1)
    keypad_board.host_sends(encode(LcdText(Seat.E, 1, "Paso")))
    keypad_board.run(1)
    assert keypad_board.lcds["S"].lcd.screen() == [
        "1NT  X   2H         ", " " * 20, " " * 20, "Your turn*          "]
    assert keypad_board.lcds["E"].lcd.screen()[1] == "Paso" + " " * 16
    keypad_board.host_sends(encode(LcdText(Seat.S, 3)))  # no text clears the row
    keypad_board.run(1)
    assert keypad_board.lcds["S"].lcd.screen()[3] == " " * 20
    assert keypad_board.messages() == []  # commands that succeed are not acknowledged


def test_an_lcd_that_stops_answering_is_reported_once_and_set_up_again(
        keypad_board: KeypadBoard) -> None:
    keypad_board.raw()
    lcd = keypad_board.lcds["W"]
    lcd.powered = False
    for row in range(4):
        keypad_board.host_sends(encode(LcdText(Seat.W, row, "hello")))
        keypad_board.run(1)
    assert keypad_board.messages() == [DeviceError(202, "LCD W")]
    keypad_board.host_sends(encode(HealthQuery()))
    keypad_board.run(1)
    (answer,) = keypad_board.messages()
    assert isinstance(answer, Health)
    assert (answer.status, answer.get("lcd")) == ("WARN", "NES-")
    from tests.hardware.fake_lcd import FakeHD44780

    lcd.lcd = FakeHD44780()  # a fresh controller, as after a power cut: 8-bit mode, blank
    lcd.powered = True
    keypad_board.host_sends(encode(LcdText(Seat.W, 2, "back")))
    keypad_board.run(1)
    assert lcd.lcd.screen()[2] == "back" + " " * 16
    assert keypad_board.messages() == []


@pytest.mark.parametrize(("line", "code"), [
    (frame("L N 4 hello"), 303),
    (frame("L N 0 " + "x" * 21), 303),
    (frame("L N"), 303),
    (frame("L Q 0 x"), 303),
    (frame("?X"), 302),
    (b"?H*00\n", 301),
    (b"L N 0 hello*4a\n", 301),  # lower-case checksum digits
    (b"x" * 100 + b"\n", 304),
    (frame("Z 1"), 302),
])
def test_bad_host_lines_are_answered_with_3xx(keypad_board: KeypadBoard, line: bytes,
                                              code: int) -> None:
    keypad_board.raw()
    keypad_board.host_sends(line)
    keypad_board.run(1)
    (answer,) = keypad_board.messages()
    assert isinstance(answer, DeviceError) and answer.code == code
    assert all(peer.lcd.screen() == [" " * 20] * 4 for peer in keypad_board.lcds.values())


@pytest.mark.parametrize("line", [
    b"?H\n", b"L N 0 hel\n", b"\x00\xff\x03 noise\n", b"\r\n",
    encode(CardRead(Card.from_str("SQ"), Seat.N)),  # our own lines, echoed by the host's tty
    b"\nV 1 keypad 0.1.0*60\n",
    encode(DeviceError(302, "unknown command")),
])
def test_fragments_and_noise_are_dropped_without_an_answer(keypad_board: KeypadBoard,
                                                           line: bytes) -> None:
    keypad_board.raw()
    keypad_board.host_sends(line + encode(LcdText(Seat.N, 0, "after")))
    keypad_board.run(1)
    assert keypad_board.messages() == []
    assert keypad_board.lcds["N"].lcd.screen()[0] == "after" + " " * 15


def test_host_lines_may_end_with_cr_lf(keypad_board: KeypadBoard) -> None:
    keypad_board.raw()
    lcd_line = encode(LcdText(Seat.N, 1, "crlf")).replace(b"\n", b"\r\n")
    keypad_board.host_sends(b"?V*9F\r\n" + lcd_line)
    keypad_board.run(1)
    assert [str(m) for m in keypad_board.messages()] == ["V 1 keypad 0.1.0"]
    assert keypad_board.lcds["N"].lcd.screen()[1] == "crlf" + " " * 16
