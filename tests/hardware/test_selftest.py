"""The table's self-test on simulated hardware: the real keypad scanner on MockFactory, the
real LCD driver on a fake I2C bus, BuzzerLeds on mock PWM pins and the card reader on
loop://. A simulated person follows the prompts, checks what the LCDs and pins show, and
answers; faults come out by name."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.cardreader import CardReader
from hardware.events import KeyEvent
from hardware.feedback import BuzzerLeds
from hardware.keypad import MatrixKeypad
from hardware.layout import KeypadLayout
from hardware.lcd import CharacterLcd
from hardware.protocol import CardRead, Health
from hardware.selftest import SelfTest
from hardware.sim import MatrixSimulator
from laws import Card, Seat
from tests.hardware.fake_lcd import FakeBus

ADDRESSES = {Seat.N: 0x27, Seat.E: 0x26, Seat.S: 0x25, Seat.W: 0x23}


class Watched(queue.Queue[Any]):
    """The events queue, which also lets the person wait until a key press was reported."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = threading.Condition()
        self.presses: list[tuple[Seat, str, bool]] = []

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        with self.seen:
            if isinstance(item, KeyEvent):
                self.presses.append((item.seat, item.key, item.pressed))
            self.seen.notify_all()
        super().put(item, block, timeout)

    def wait_key(self, seat: Seat, key: str, pressed: bool) -> bool:
        with self.seen:
            return self.seen.wait_for(lambda: (seat, key, pressed) in self.presses, timeout=10)


class Table:
    def __init__(self) -> None:
        self.layout = KeypadLayout.load()
        self.factory = MockFactory()
        self.pwm = MockFactory(pin_class=MockPWMPin)
        self.matrix = MatrixSimulator(self.factory, self.layout)
        self.events = Watched()
        self.keypad = MatrixKeypad(self.events, self.layout, pin_factory=self.factory,
                                   settle=0.0)
        self.bus = FakeBus(tuple(ADDRESSES.values()))
        self.lcds = {seat: CharacterLcd(self.bus, a, sleep=lambda s: None)
                     for seat, a in ADDRESSES.items()}
        self.feedback = BuzzerLeds(16, 20, 21, pin_factory=self.pwm)
        self.reader = CardReader("loop://", self.events, ask_version=False)

    def press(self, seat: Seat, key: str) -> None:
        """As a finger does: down until the scanner has it, up until it has that too."""
        self.events.presses.clear()
        self.matrix.press(seat, key)
        assert self.events.wait_key(seat, key, True)
        self.matrix.release(seat, key)
        assert self.events.wait_key(seat, key, False)

    def screen(self, seat: Seat) -> list[str]:
        return self.bus.lcds[ADDRESSES[seat]].screen()

    def lit(self, pin: int) -> bool:
        return bool(self.pwm.pin(pin).state)

    def close(self) -> None:
        self.keypad.close()
        self.reader.close()
        self.feedback.close()
        for lcd in self.lcds.values():
            lcd.close()
        self.factory.close()
        self.pwm.close()


@pytest.fixture
def table() -> Iterator[Table]:
    t = Table()
    t.keypad.start()
    t.reader.start()
    try:
        yield t
    finally:
        t.close()


Person = Callable[[str, Seat | None, str], None]


def person(table: Table, *, dead: tuple[Seat, str] | None = None,
           deaf: bool = False) -> tuple[Person, threading.Thread, queue.Queue[Any]]:
    """A careful person: answers OK only to what the table really shows or sounds."""
    asked: queue.Queue[Any] = queue.Queue()

    def act() -> None:
        while (step := asked.get()) is not None:
            name, seat, _ = step
            if name.startswith("display "):
                s = Seat.from_str(name.split()[1])
                right = all(line.startswith(f"Line {n} {s.name}")
                            for n, line in enumerate(table.screen(s), 1))
                table.press(s, "OK" if right else "UNDO")
            elif name.startswith("key "):
                _, s, key = name.split()
                if (Seat.from_str(s), key) != dead:
                    table.press(Seat.from_str(s), key)
            elif name in ("buzzer", "ok_led", "error_led"):
                pin = {"buzzer": 16, "ok_led": 20, "error_led": 21}[name]
                heard = table.lit(pin) and not (deaf and name == "buzzer")
                table.press(Seat.S, "OK" if heard else "UNDO")
            elif name == "reader health":
                table.reader.send(Health("OK", (("rf", "NESW"),)))
            elif name.startswith("reader "):
                assert seat is not None
                table.reader.send(CardRead(Card.from_str("SA"), seat))

    thread = threading.Thread(target=act, daemon=True)
    thread.start()
    return (lambda name, seat, text: asked.put((name, seat, text))), thread, asked


def run(table: Table, timeout: float, **faults: Any) -> Any:
    prompt, thread, asked = person(table, **faults)
    test = SelfTest(table.events, table.layout, displays=table.lcds, feedback=table.feedback,
                    reader=table.reader, timeout=timeout, rest=0.2, prompt=prompt)
    try:
        return test.run()
    finally:
        asked.put(None)
        thread.join(timeout=10)


def test_a_sound_table_passes_every_check(table: Table) -> None:
    report = run(table, timeout=10.0)
    assert report.passed, report.text()
    names = [check.name for check in report.checks]
    assert len([n for n in names if n.startswith("key ")]) == 80
    assert {"display N", "display W", "buzzer", "ok_led", "error_led", "reader health",
            "reader E"} <= set(names)
    assert report.text().endswith(f"{len(names)} passed, 0 failed")
    assert table.screen(Seat.E)[0].startswith("Self-test done")


def test_faults_are_reported_by_name(table: Table) -> None:
    table.bus.fail = False
    report = run(table, timeout=1.0, dead=(Seat.E, "NT"), deaf=True)
    failed = {check.name: check.detail for check in report.failures}
    assert set(failed) == {"key E NT", "buzzer"}, report.text()
    assert failed["key E NT"] == "not read in 1 s"
    assert failed["buzzer"] == "S pressed UNDO"
    assert not report.passed


def test_a_key_read_at_another_seat_is_named(table: Table) -> None:
    """A person pressing at the wrong seat (or a swapped cable) shows in the detail."""
    test = SelfTest(table.events, table.layout, timeout=5.0, rest=0.0)

    def mistaken() -> None:
        table.press(Seat.W, "1")
        table.press(Seat.N, "1")

    helper = threading.Thread(target=mistaken)
    helper.start()
    got = test._key(Seat.N, ("1",), wrong := [])
    helper.join(timeout=10)
    assert got == (Seat.N, "1") and wrong == ["W 1"]
