"""Buzzer and LEDs: the patterns are schedules, checked step by step on MockPWMPins."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator

import pytest
from gpiozero import DigitalOutputDevice
from gpiozero.pins.mock import MockFactory

from hardware.errors import HardwareError
from hardware.feedback import PATTERNS, BuzzerLeds, Feedback, Step, TerminalFeedback

BUZZER, GREEN, RED = 16, 20, 21


class Recorder:
    """Stands in for waiting: notes the pins at each step and lets the pattern go on."""

    def __init__(self, factory: MockFactory) -> None:
        self.factory = factory
        self.seen: list[tuple[float, float, float, float]] = []
        self.cancel_after: int | None = None

    def __call__(self, seconds: float, cancelled: threading.Event) -> bool:
        pin = self.factory.pin
        self.seen.append((seconds, float(pin(BUZZER).state), float(pin(GREEN).state),
                          float(pin(RED).state)))
        if self.cancel_after is not None and len(self.seen) >= self.cancel_after:
            return True
        return cancelled.is_set()


@pytest.fixture
def recorder(pwm_factory: MockFactory) -> Recorder:
    return Recorder(pwm_factory)


@pytest.fixture
def feedback(pwm_factory: MockFactory, recorder: Recorder) -> Iterator[BuzzerLeds]:
    with BuzzerLeds(BUZZER, GREEN, RED, wait=recorder, pin_factory=pwm_factory) as device:
        yield device


def off(factory: MockFactory) -> bool:
    return all(float(factory.pin(p).state) == 0.0 for p in (BUZZER, GREEN, RED))


def expected(name: str, brightness: float = 1.0, quiet: bool = False) -> list[tuple[float, ...]]:
    return [(s.seconds, float(s.buzzer and not quiet), s.ok_led * brightness,
             s.error_led * brightness) for s in PATTERNS[name]]


@pytest.mark.parametrize("name", ["ok", "error", "attention"])
def test_each_pattern_sets_the_pins_step_by_step_and_ends_off(
        feedback: BuzzerLeds, recorder: Recorder, pwm_factory: MockFactory, name: str) -> None:
    feedback.play(name, background=False)
    assert recorder.seen == expected(name)
    assert off(pwm_factory)


def test_the_patterns_can_be_told_apart() -> None:
    assert PATTERNS["ok"][0].ok_led and not PATTERNS["ok"][0].error_led
    assert all(step.error_led for step in PATTERNS["error"])
    assert sum(step.buzzer for step in PATTERNS["attention"]) == 3
    assert sum(s.seconds for s in PATTERNS["ok"]) < sum(s.seconds for s in PATTERNS["error"])
    for steps in PATTERNS.values():
        assert sum(s.seconds for s in steps) <= 1.5  # never hold up the next call for long


def test_the_feedback_protocol_runs_in_the_background(feedback: BuzzerLeds,
                                                      recorder: Recorder,
                                                      pwm_factory: MockFactory) -> None:
    table_feedback: Feedback = feedback
    table_feedback.error()
    feedback.stop()  # joins the thread: the recorder's waits return at once
    assert recorder.seen == expected("error")
    assert off(pwm_factory)


def test_quiet_and_dimmed(pwm_factory: MockFactory, recorder: Recorder) -> None:
    with BuzzerLeds(BUZZER, GREEN, RED, brightness=0.25, quiet=True, wait=recorder,
                    pin_factory=pwm_factory) as device:
        device.play("attention", background=False)
    assert recorder.seen == expected("attention", brightness=0.25, quiet=True)


def test_a_pattern_cut_short_still_ends_off(feedback: BuzzerLeds, recorder: Recorder,
                                            pwm_factory: MockFactory) -> None:
    recorder.cancel_after = 1
    feedback.play("error", background=False)
    assert len(recorder.seen) == 1
    assert off(pwm_factory)


def test_a_new_pattern_replaces_a_running_one(pwm_factory: MockFactory) -> None:
    started = threading.Event()

    def wait(seconds: float, cancelled: threading.Event) -> bool:
        started.set()
        return cancelled.wait(5)  # the first step would hold for five seconds ...

    with BuzzerLeds(BUZZER, GREEN, RED, wait=wait, pin_factory=pwm_factory) as device:
        device.attention()
        assert started.wait(5)
        assert float(pwm_factory.pin(BUZZER).state) == 1.0
        device.stop()  # ... but stop() cancels it at once
        assert off(pwm_factory)


def test_custom_steps(feedback: BuzzerLeds, recorder: Recorder) -> None:
    feedback.play((Step(0.5, ok_led=0.5), Step(0.5, error_led=0.5)), background=False)
    assert recorder.seen == [(0.5, 0.0, 0.5, 0.0), (0.5, 0.0, 0.0, 0.5)]


def test_pins_may_be_left_out(pwm_factory: MockFactory) -> None:
    seen: list[float] = []

    def wait(seconds: float, cancelled: threading.Event) -> bool:
        seen.append(float(pwm_factory.pin(BUZZER).state))
        return False

    with BuzzerLeds(BUZZER, None, None, wait=wait, pin_factory=pwm_factory) as device:
        device.play("ok", background=False)
    assert seen == [1.0, 0.0]


def test_pins_in_use_are_a_hardware_error(pwm_factory: MockFactory) -> None:
    taken = DigitalOutputDevice(RED, pin_factory=pwm_factory)
    try:
        with pytest.raises(HardwareError, match="feedback pins"):
            BuzzerLeds(BUZZER, GREEN, RED, pin_factory=pwm_factory)
        DigitalOutputDevice(BUZZER, pin_factory=pwm_factory).close()  # given back
    finally:
        taken.close()


def test_brightness_must_be_a_fraction(pwm_factory: MockFactory) -> None:
    with pytest.raises(ValueError):
        BuzzerLeds(pin_factory=pwm_factory, brightness=2)


def test_terminal_feedback() -> None:
    stream = io.StringIO()
    feedback: Feedback = TerminalFeedback("N", stream)
    feedback.ok()
    feedback.error()
    feedback.attention()
    assert stream.getvalue().splitlines() == [
        "[N] beep (ok)", "[N] BZZT BZZT (error)", "[N] pip pip pip (attention)"]
