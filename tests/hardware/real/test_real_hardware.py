"""Checks on a real table: a Raspberry Pi with its keypads, LCDs, buzzer and card reader.

Never run in CI: every test here skips unless ``BIDBOX_REAL_HARDWARE=1`` is set *and* the
device is present, because a CI machine may have /sys/class/gpio without any of our wiring.

    BIDBOX_REAL_HARDWARE=1 python3 -m pytest tests/hardware/real -v -s
    # optional:
    BIDBOX_CARD_READER=/dev/serial/by-id/usb-...   the card reader's port
    BIDBOX_LCD_ADDRESSES=0x27,0x26,0x25,0x23       the seats' LCDs (N, E, S, W)
    BIDBOX_INTERACTIVE=1                           tests that ask you to press keys

They use gpiozero's default pin factory (lgpio on a Pi 5), so lgpio must be installed or
gpiozero's fallback warning fails the test.
"""

from __future__ import annotations

import os
import queue
from pathlib import Path
from typing import Any

import pytest

from hardware.cardreader import CardReader
from hardware.events import KeyEvent, ReaderMessage, ReaderStatus
from hardware.feedback import BuzzerLeds
from hardware.keypad import MatrixKeypad
from hardware.lcd import CharacterLcd
from hardware.protocol import Health, HealthQuery, Version
from laws import Seat

REAL = os.environ.get("BIDBOX_REAL_HARDWARE") == "1"
GPIO = any(Path(p).exists() for p in ("/dev/gpiomem", "/dev/gpiochip0", "/sys/class/gpio"))
I2C = Path("/dev/i2c-1").exists()
CARD_READER = os.environ.get("BIDBOX_CARD_READER", "")
INTERACTIVE = os.environ.get("BIDBOX_INTERACTIVE") == "1"
LCD_ADDRESSES = [int(a, 16) for a in
                 os.environ.get("BIDBOX_LCD_ADDRESSES", "0x27,0x26,0x25,0x23").split(",")]

pytestmark = pytest.mark.skipif(not REAL, reason="set BIDBOX_REAL_HARDWARE=1 on a real table")
needs_gpio = pytest.mark.skipif(not GPIO, reason="no GPIO on this machine")


@needs_gpio
def test_no_key_reads_as_pressed_at_rest() -> None:
    """Catches a stuck key, a missing pull-up, a short between lines or a missing row diode."""
    events: queue.Queue[Any] = queue.Queue()
    with MatrixKeypad(events) as keypad:
        for _ in range(20):
            keypad.scan_once()
    assert events.empty(), f"keys down with nobody touching them: {list(events.queue)}"


@needs_gpio
@pytest.mark.skipif(not INTERACTIVE, reason="set BIDBOX_INTERACTIVE=1 to press keys")
@pytest.mark.parametrize("seat", list(Seat), ids=str)
def test_each_seat_presses_ok(seat: Seat) -> None:
    events: queue.Queue[Any] = queue.Queue()
    with MatrixKeypad(events) as keypad:
        keypad.start()
        print(f"\npress OK on the {seat} keypad (15 s)")
        while True:
            event = events.get(timeout=15)
            if isinstance(event, KeyEvent) and event.pressed:
                assert (event.seat, event.key) == (seat, "OK")
                return


@needs_gpio
def test_feedback_patterns_play() -> None:
    with BuzzerLeds() as feedback:
        for name in ("ok", "error", "attention"):
            feedback.play(name, background=False)


@pytest.mark.skipif(not I2C, reason="no /dev/i2c-1 (enable I2C in raspi-config)")
@pytest.mark.parametrize("address", LCD_ADDRESSES, ids=hex)
def test_lcd_shows_text(address: int) -> None:
    with CharacterLcd(1, address) as lcd:
        lcd.show([f"bidbox LCD 0x{address:02X}", "Señor Núñez 1♥ 2♠", "¿Explicación?",
                  "12345678901234567890"])


@pytest.mark.skipif(not (CARD_READER and Path(CARD_READER).exists()),
                    reason="set BIDBOX_CARD_READER to the reader's port")
def test_card_reader_answers_version_and_health() -> None:
    events: queue.Queue[Any] = queue.Queue()
    with CardReader(CARD_READER, events) as reader:
        status = events.get(timeout=5)
        assert isinstance(status, ReaderStatus) and status.connected
        message = _next_message(events)
        assert isinstance(message, Version) and message.protocol == 1
        reader.send(HealthQuery())
        assert isinstance(_next_message(events), Health)


def _next_message(events: queue.Queue[Any]) -> Any:
    while True:
        event = events.get(timeout=2)
        if isinstance(event, ReaderMessage):
            return event.message
