"""The table's one pin map: keypad.toml holds every GPIO, and the configuration's defaults
come from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.errors import ConfigError
from hardware.layout import DEFAULT_PATH
from hardware.pinmap import HEADER, RESERVED_GPIO, PinMap
from laws import Seat
from tabled.config import parse


def test_every_line_has_one_gpio_of_the_header() -> None:
    pins = PinMap.load()
    gpios = [gpio for _, gpio in pins.functions()]
    assert len(gpios) == len(set(gpios)) == 26
    assert all(gpio in HEADER and gpio not in RESERVED_GPIO for gpio in gpios)
    assert (pins.buzzer, pins.ok_led, pins.error_led) == (16, 20, 21)
    assert pins.lcd_addresses[Seat.W] == 0x23


@pytest.mark.parametrize(("extra", "complaint"), [
    ("[feedback]\nbuzzer = 5\n", "GPIO used twice"),
    ("[feedback]\nbuzzer = 0\n", "not a usable GPIO"),
    ("[lcd_addresses]\nN = 0x27\nE = 0x27\nS = 0x25\nW = 0x23\n", "same I2C address"),
    ("[lcd_addresses]\nN = 0x27\n", "must give N, E, S and W"),
])
def test_a_wrong_pin_map_is_refused_by_name(tmp_path: Path, extra: str, complaint: str) -> None:
    text = DEFAULT_PATH.read_text()
    for section in ("[feedback]", "[lcd_addresses]"):
        if extra.startswith(section):
            text = text[:text.index(section)]
    path = tmp_path / "keypad.toml"
    path.write_text(text + extra)
    with pytest.raises(ConfigError, match=complaint):
        PinMap.load(path)


def test_a_wrong_named_pin_map_is_a_configuration_error(tmp_path: Path) -> None:
    from tabled.config import ConfigError as TableConfigError

    text = DEFAULT_PATH.read_text().replace("buzzer = 16", "buzzer = 0")
    (tmp_path / "keypad.toml").write_text(text)
    with pytest.raises(TableConfigError, match="keypad_layout: not a usable GPIO"):
        parse({"table": {"event": "e", "number": 1, "journal": "t.db"},
               "hardware": {"keypad_layout": "keypad.toml"}}, tmp_path)


def test_the_configuration_uses_the_named_pin_maps_lines(tmp_path: Path) -> None:
    text = DEFAULT_PATH.read_text()
    text = text.replace("N = 0x27", "N = 0x3f").replace("ok_led = 20", "ok_led = 21").replace(
        "error_led = 21", "error_led = 20")
    (tmp_path / "keypad.toml").write_text(text)
    config = parse({"table": {"event": "e", "number": 1, "journal": "t.db"},
                    "hardware": {"keypad_layout": "keypad.toml"}}, tmp_path)
    assert config.lcd_addresses[Seat.N] == 0x3F
    assert (config.ok_led, config.error_led) == (21, 20)
    plain = parse({"table": {"event": "e", "number": 1, "journal": "t.db"}}, tmp_path)
    assert (plain.ok_led, plain.error_led, plain.lcd_addresses[Seat.N]) == (20, 21, 0x27)
