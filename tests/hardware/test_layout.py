"""The key layout and pin map in hardware/keypad.toml."""

from __future__ import annotations

import pytest

from hardware.errors import ConfigError
from hardware.layout import KeypadLayout
from laws import Seat

I2C = {2, 3}
FEEDBACK = {16, 20, 21}  # BuzzerLeds defaults, README pin table


def test_default_layout_fits_the_header(layout: KeypadLayout) -> None:
    pins = [*layout.rows, *(p for seat in Seat for p in layout.columns[seat])]
    assert len(layout.rows) == 5 and layout.width == 4
    assert len(pins) == len(set(pins)) == 21
    assert set(pins) <= set(range(4, 28))  # not the HAT EEPROM pins 0 and 1
    assert not set(pins) & (I2C | FEEDBACK)


def test_default_layout_has_every_key_a_bidding_box_needs(layout: KeypadLayout) -> None:
    names = {key for row in layout.keys for key in row}
    assert len(names) == 20
    assert {"1", "2", "3", "4", "5", "6", "7"} <= names
    assert {"C", "D", "H", "S", "NT", "PASS", "X", "XX"} <= names
    assert {"ALERT", "UNDO", "OK", "DIR", "INFO"} <= names


def test_digits_follow_a_phone_keypad(layout: KeypadLayout) -> None:
    assert {layout.digit(k) for k in ("1", "2", "3", "4", "5", "6", "7", "C", "D", "S")} \
        == set(range(10))
    assert layout.position("C") == (2, 1) and layout.digit("C") == 8  # under 5, like an 8
    assert layout.position("S") == (3, 1) and layout.digit("S") == 0  # under the 8
    assert layout.digit("PASS") is None


def test_default_scan_settings(layout: KeypadLayout) -> None:
    assert (layout.scan.period, layout.scan.debounce) == (0.003, 2)  # 2 x 3 ms: bench.table
    assert layout.scan.repeat_delay == 0  # auto-repeat off
    assert layout.scan.key_diodes is False


def test_key_lookup(layout: KeypadLayout) -> None:
    for r, row in enumerate(layout.keys):
        for c, name in enumerate(row):
            assert layout.position(name) == (r, c)
            assert layout.key_at(r, c) == name
    with pytest.raises(KeyError):
        layout.position("FOO")


GOOD = """
rows = [5, 6]
keys = [["1", "2"], ["PASS", "OK"]]
[columns]
N = [4, 17]
E = [10, 9]
S = [14, 15]
W = [24, 25]
"""


def test_a_small_layout_loads() -> None:
    layout = KeypadLayout.loads(GOOD)
    assert layout.width == 2 and layout.key_at(1, 1) == "OK"


@pytest.mark.parametrize(("old", "new"), [
    ("W = [24, 25]", "W = [24, 5]"),              # a pin used twice
    ("W = [24, 25]", "W = [24]"),                 # too few columns
    ("W = [24, 25]\n", ""),                       # a seat missing
    ('["PASS", "OK"]', '["PASS", "OK", "X"]'),    # ragged key rows
    ('["PASS", "OK"]', '["PASS", "1"]'),          # a key twice
    ('"OK"', '"ok"'),                             # not a protocol key name
    ("rows = [5, 6]", "rows = [5]"),              # key rows and row pins disagree
    ("rows = [5, 6]", 'rows = ["x", 6]'),         # not a pin number
    ("[columns]", "[scan]\ndebounce = 0\n[columns]"),
    ("[columns]", "[scan]\nbogus = 1\n[columns]"),
    ("rows", "rows = = "),                        # not TOML
])
def test_bad_layouts_are_refused(old: str, new: str) -> None:
    assert old in GOOD
    with pytest.raises(ConfigError):
        KeypadLayout.loads(GOOD.replace(old, new, 1))
