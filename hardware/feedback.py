"""Buzzer and LED feedback: "call taken", "refused", "look here".

A pattern is a pure schedule, a tuple of ``Step``s (how long, buzzer on or off, each LED's
brightness), so tests assert the schedule and the pin levels at each step instead of timing a
thread. ``play()`` runs it in a background thread so the table loop never waits; a new pattern
cuts the running one short, and every pattern ends with everything off.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from gpiozero import PWMLED, Buzzer, GPIOZeroError  # type: ignore[import-untyped]

from .errors import HardwareError


class Feedback(Protocol):
    """What the table asks of a seat's or a table's buzzer and lights."""

    def ok(self) -> None:
        """The input was taken (a call, a card)."""

    def error(self) -> None:
        """The input was refused; the seat's display says why."""

    def attention(self) -> None:
        """Something needs a player's eyes: your turn after a pause, the director is called."""


@dataclass(frozen=True, slots=True)
class Step:
    seconds: float
    buzzer: bool = False
    ok_led: float = 0.0
    error_led: float = 0.0


Pattern = tuple[Step, ...]

OFF = Step(0.0)

PATTERNS: dict[str, Pattern] = {
    # One short chirp: quiet enough to repeat after every call in a room of forty tables.
    "ok": (Step(0.05, buzzer=True, ok_led=1.0), Step(0.25, ok_led=1.0)),
    # Two long low-duty buzzes: unmistakably not "ok", even without looking.
    "error": (Step(0.25, buzzer=True, error_led=1.0), Step(0.1, error_led=1.0),
              Step(0.25, buzzer=True, error_led=1.0), Step(0.4, error_led=1.0)),
    # Three quick pips with both lights alternating.
    "attention": (Step(0.06, buzzer=True, ok_led=1.0), Step(0.14, error_led=1.0),
                  Step(0.06, buzzer=True, ok_led=1.0), Step(0.14, error_led=1.0),
                  Step(0.06, buzzer=True, ok_led=1.0), Step(0.14, error_led=1.0)),
}

#: wait(seconds, cancelled) -> True if cancelled; tests inject one that records and returns.
Waiter = Callable[[float, threading.Event], bool]


def _wait(seconds: float, cancelled: threading.Event) -> bool:
    return cancelled.wait(seconds)


class BuzzerLeds:
    """An active buzzer and a green and a red LED (gpiozero ``Buzzer`` and ``PWMLED``).

    One per table, or one per seat on pins of its own. Any of the three pins may be None for
    hardware without it. ``brightness`` scales the LEDs (dim rooms); ``quiet`` silences the
    buzzer, e.g. at the director's request. The LED pins need PWM: under ``MockFactory`` use
    ``MockPWMPin``.
    """

    def __init__(self, buzzer: int | str | None = 16, ok_led: int | str | None = 20,
                 error_led: int | str | None = 21, *, brightness: float = 1.0,
                 quiet: bool = False, wait: Waiter = _wait, pin_factory: Any = None) -> None:
        if not 0.0 <= brightness <= 1.0:
            raise ValueError("brightness must be between 0 and 1")
        self.brightness = brightness
        self.quiet = quiet
        self._wait = wait
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self.buzzer: Any = None
        self.ok_led: Any = None
        self.error_led: Any = None
        try:
            if buzzer is not None:
                self.buzzer = Buzzer(buzzer, pin_factory=pin_factory)
            if ok_led is not None:
                self.ok_led = PWMLED(ok_led, pin_factory=pin_factory)
            if error_led is not None:
                self.error_led = PWMLED(error_led, pin_factory=pin_factory)
        except GPIOZeroError as exc:
            self._close_devices()
            raise HardwareError(f"cannot claim the feedback pins: {exc}") from exc

    def __enter__(self) -> BuzzerLeds:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ok(self) -> None:
        self.play("ok")

    def error(self) -> None:
        self.play("error")

    def attention(self) -> None:
        self.play("attention")

    def play(self, pattern: str | Pattern, *, background: bool = True) -> None:
        """Run a pattern (by name or as steps), cutting short the one that is running."""
        steps = PATTERNS[pattern] if isinstance(pattern, str) else pattern
        self.stop()
        self._cancel = cancel = threading.Event()
        if background:
            self._thread = threading.Thread(target=self._run, args=(steps, cancel),
                                            name="feedback", daemon=True)
            self._thread.start()
        else:
            self._run(steps, cancel)

    def stop(self) -> None:
        """Cut the running pattern short; everything is off when this returns."""
        self._cancel.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self, steps: Pattern, cancel: threading.Event) -> None:
        try:
            for step in steps:
                self._apply(step)
                if self._wait(step.seconds, cancel):
                    break
        finally:
            self._apply(OFF)

    def _apply(self, step: Step) -> None:
        if self.buzzer is not None:
            self.buzzer.value = step.buzzer and not self.quiet
        if self.ok_led is not None:
            self.ok_led.value = step.ok_led * self.brightness
        if self.error_led is not None:
            self.error_led.value = step.error_led * self.brightness

    def close(self) -> None:
        self.stop()
        self._close_devices()

    def _close_devices(self) -> None:
        for device in (self.buzzer, self.ok_led, self.error_led):
            if device is not None:
                device.close()
        self.buzzer = self.ok_led = self.error_led = None


class TerminalFeedback:
    """The simulator's feedback: one line per pattern on a text stream."""

    def __init__(self, name: str = "table", stream: TextIO | None = None) -> None:
        self.name = name
        self.stream = stream if stream is not None else sys.stdout

    def _say(self, what: str) -> None:
        self.stream.write(f"[{self.name}] {what}\n")
        self.stream.flush()

    def ok(self) -> None:
        self._say("beep (ok)")

    def error(self) -> None:
        self._say("BZZT BZZT (error)")

    def attention(self) -> None:
        self._say("pip pip pip (attention)")
