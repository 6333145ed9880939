"""The 20x4 LCD behind a PCF8574, judged by what an emulated HD44780 shows."""

from __future__ import annotations

import pytest

from hardware.charset import GLYPHS, LcdEncoder, transliterate
from hardware.display import SeatDisplay
from hardware.errors import DisplayError, HardwareError
from hardware.lcd import CharacterLcd

from .fake_lcd import FakeBus

NAMES = {bitmap: ch for ch, bitmap in GLYPHS.items()}


def no_sleep(seconds: float) -> None:
    pass


def make(bus: FakeBus, address: int = 0x27) -> CharacterLcd:
    return CharacterLcd(bus, address, sleep=no_sleep)


@pytest.fixture
def bus() -> FakeBus:
    return FakeBus((0x27, 0x26, 0x25, 0x23), glyph_names=NAMES)


def test_initialisation_leaves_a_blank_screen_in_4_bit_two_line_mode(bus: FakeBus) -> None:
    make(bus)
    lcd = bus.lcds[0x27]
    assert lcd.four_bit and lcd.lines == 2 and lcd.display_on and lcd.backlight
    assert lcd.screen() == [" " * 20] * 4
    assert lcd.commands[:4] == [0x30, 0x30, 0x30, 0x20]  # the three 8-bit sets, then 4-bit


def test_text_lands_on_the_right_rows(bus: FakeBus) -> None:
    display: SeatDisplay = make(bus)
    display.show(["Board 7  Dealer N", "1NT  X   2H", "", "Your turn"])
    assert bus.lcds[0x27].screen() == [
        "Board 7  Dealer N   ", "1NT  X   2H         ", " " * 20, "Your turn           "]


def test_long_lines_end_in_the_read_on_mark_and_missing_lines_blank(bus: FakeBus) -> None:
    lcd = make(bus)
    lcd.show(["x" * 25])
    assert bus.lcds[0x27].screen() == ["x" * 19 + "→"] + [" " * 20] * 3
    with pytest.raises(ValueError):
        lcd.show(["1", "2", "3", "4", "5"])
    with pytest.raises(TypeError):
        lcd.show("one string")


def test_clear(bus: FakeBus) -> None:
    lcd = make(bus)
    lcd.show(["a", "b", "c", "d"])
    lcd.clear()
    assert bus.lcds[0x27].screen() == [" " * 20] * 4


def test_spanish_from_rom_cgram_and_transliteration(bus: FakeBus) -> None:
    lcd = make(bus)
    lcd.show(["Señor Núñez: 2♥", "¿Explicación?", "Sin Triunfo", "ÑANDÚ ü"])
    screen = [line.rstrip() for line in bus.lcds[0x27].screen()]
    assert screen == ["Señor Núñez: 2♥", "¿Explicación?", "Sin Triunfo", "ÑANDÚ ü"]
    lcd_ddram = bus.lcds[0x27].ddram
    assert lcd_ddram[2] == 0xEE  # ñ comes from the ROM, not from CGRAM


def test_more_glyphs_than_slots_fall_back_to_plain_letters(bus: FakeBus) -> None:
    lcd = make(bus)
    lcd.show(["♣♦♥♠", "áéíóú", "ÁÉ"])  # eleven glyphs wanted, eight slots
    assert [line.rstrip() for line in bus.lcds[0x27].screen()] == [
        "♣♦♥♠", "áéíóu", "AE", ""]


def test_past_eight_glyphs_the_opening_marks_give_way_first(bus: FakeBus) -> None:
    lcd = make(bus)
    # suits, five accented letters and the opening marks: eleven glyphs for eight slots
    lcd.show(["¿Reclamación? ¡Sí!", "♣J ♥Q ♦3 ♠7", "Número válido", "Opción"])
    assert [line.rstrip() for line in bus.lcds[0x27].screen()] == [
        "?Reclamación? !Sí!", "♣J ♥Q ♦3 ♠7", "Número válido", "Opción"]


def test_suits_win_the_slots(bus: FakeBus) -> None:
    lcd = make(bus)
    lcd.show(["á é í ó ú Á É Í", "1♣ 2♦ 3♥ 4♠"])
    assert bus.lcds[0x27].screen()[1].rstrip() == "1♣ 2♦ 3♥ 4♠"


def test_changing_glyphs_between_screens(bus: FakeBus) -> None:
    lcd = make(bus)
    lcd.show(["1♥ 2♠", "Sí"])
    lcd.show(["1♥ 2♠", "Dóblo ¡ojo!"])
    assert [line.rstrip() for line in bus.lcds[0x27].screen()[:2]] == ["1♥ 2♠", "Dóblo ¡ojo!"]


def test_only_changed_rows_are_written(bus: FakeBus) -> None:
    lcd = make(bus)
    lcd.show(["Board 7", "1NT", "", ""])
    before = bus.lcds[0x27].data_writes
    lcd.show(["Board 7", "1NT  X", "", ""])
    assert bus.lcds[0x27].data_writes - before == 20  # one row
    lcd.show(["Board 7", "1NT  X", "", ""])
    assert bus.lcds[0x27].data_writes - before == 20  # nothing new


def test_backlight(bus: FakeBus) -> None:
    lcd = make(bus)
    lcd.backlight = False
    assert not bus.lcds[0x27].backlight and not lcd.backlight
    lcd.show(["dark"])
    assert all(not value & 0x08 for _, value in bus.written[-10:])
    lcd.backlight = True
    assert bus.lcds[0x27].backlight


def test_four_seats_on_one_bus(bus: FakeBus) -> None:
    lcds = {address: make(bus, address) for address in (0x27, 0x26, 0x25, 0x23)}
    for seat, lcd in zip("NESW", lcds.values(), strict=True):
        lcd.show([f"Seat {seat}"])
    assert [bus.lcds[a].screen()[0].rstrip() for a in (0x27, 0x26, 0x25, 0x23)] == [
        "Seat N", "Seat E", "Seat S", "Seat W"]


def test_a_missing_lcd_is_a_display_error(bus: FakeBus) -> None:
    with pytest.raises(DisplayError, match="0x24"):
        make(bus, 0x24)
    assert issubclass(DisplayError, HardwareError) and issubclass(DisplayError, OSError)


def test_after_a_failed_write_the_next_show_starts_afresh(bus: FakeBus) -> None:
    lcd = make(bus)
    lcd.show(["1♥"])
    bus.fail = True  # the LCD's cable was pulled ...
    with pytest.raises(DisplayError):
        lcd.show(["2♠"])
    bus.lcds[0x27] = type(bus.lcds[0x27])(NAMES)  # ... and it comes back, powered up afresh
    bus.fail = False
    lcd.show(["2♠"])
    assert bus.lcds[0x27].screen()[0].rstrip() == "2♠"


@pytest.mark.parametrize(("ch", "plain"), [
    ("á", "a"), ("Ñ", "N"), ("ç", "c"), ("¿", "?"), ("¡", "!"), ("♥", "H"), ("€", "E"),
    ("\\", "/"), ("~", "-"), ("漢", "?"), ("ﬁ", "f"),
])
def test_transliteration_is_one_cell_per_character(ch: str, plain: str) -> None:
    assert transliterate(ch) == plain


def test_glyphs_are_5_by_8_and_all_different() -> None:
    for bitmap in GLYPHS.values():
        assert len(bitmap) == 8 and all(row < 32 for row in bitmap)
    assert len(set(GLYPHS.values())) == len(GLYPHS)


def test_a_glyph_looks_like_its_letter() -> None:
    art = ["".join("#" if row >> (4 - bit) & 1 else "." for bit in range(5))
           for row in GLYPHS["Ñ"]]
    assert art == [".##.#", "#.##.", ".....", "#...#", "##..#", "#.#.#", "#..##", "#...#"]


def test_the_encoder_keeps_glyphs_in_their_slots() -> None:
    encoder = LcdEncoder()
    _, first = encoder.encode(["♥ á"])
    _, second = encoder.encode(["♥ é"])
    assert sorted(first) == [0, 1] and list(second) == [1]  # é reuses á's slot; ♥ stays
