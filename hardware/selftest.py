"""The check a club runs on a built table: every key of every seat, every display line, the
buzzer, the LEDs and the card reader, with a pass/fail report.

``bidbox table --selftest --config table.toml`` builds the drivers from the table's
configuration (never the table daemon: stop the ``bidbox-table`` service first) and runs
``SelfTest``. The person at the table follows the seats' LCDs (and the terminal):

1. **at rest**: nothing is touched; a key reported now is stuck or miswired;
2. **displays**: each seat's LCD shows four numbered lines of twenty characters; that seat
   presses OK if all four read right, UNDO if not (no answer in time is a fail);
3. **keys**: each seat in turn is asked for its twenty keys in order; a key read at another
   seat or as another key is reported by name (a swapped column, a missing row diode);
4. **buzzer, green LED, red LED**: each is switched on in turn; any seat answers OK (heard,
   seen) or UNDO;
5. **card reader**: asked for its health (``?H``), then a card put on each seat's reader must
   arrive as read at that seat.

A step nobody answers fails after ``timeout`` seconds and the test goes on, so a dead key or
LCD never stalls it. The report is one line per check and a summary; ``SelfTest.run()``
returns it, and the command exits 0 only when everything passed.
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from laws import Seat

from .display import SeatDisplay
from .errors import HardwareError
from .events import CardEvent, HardwareEvent, KeyEvent, ReaderMessage, ReaderStatus
from .feedback import BuzzerLeds, Step
from .layout import KeypadLayout
from .protocol import Health, HealthQuery

TEXTS: dict[str, dict[str, str]] = {
    "en": {"title": "bidbox self-test", "rest": "Touch nothing", "line": "Line",
           "lines_ok": "4 lines right? OK/UNDO", "press": "Press", "buzzer": "Buzzer on?",
           "ok_led": "Green light on?", "error_led": "Red light on?", "answer": "OK yes UNDO no",
           "card": "Card on reader", "wait": "Wait...", "done": "Self-test done",
           "passed": "all passed", "failed": "failed"},
    "es": {"title": "autotest bidbox", "rest": "No toque nada", "line": "Linea",
           "lines_ok": "4 lineas bien? OK/UNDO", "press": "Pulse", "buzzer": "Suena el zumbador?",
           "ok_led": "Luz verde encendida?", "error_led": "Luz roja encendida?",
           "answer": "OK si  UNDO no", "card": "Carta en el lector", "wait": "Espere...",
           "done": "Autotest terminado", "passed": "todo bien", "failed": "fallos"},
}


@dataclass(frozen=True)
class Check:
    name: str               # "keys N 1", "display E", "buzzer", "reader S"...
    passed: bool
    detail: str = ""


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(check.passed for check in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [check for check in self.checks if not check.passed]

    def text(self) -> str:
        lines = [f"{'PASS' if c.passed else 'FAIL'}  {c.name}" + (f": {c.detail}" if c.detail
                                                                   else "")
                 for c in self.checks]
        failed = len(self.failures)
        lines.append(f"{len(self.checks) - failed} passed, {failed} failed")
        return "\n".join(lines)

    def json(self) -> str:
        return json.dumps({"passed": self.passed, "checks": [asdict(c) for c in self.checks]})


Prompt = Callable[[str, Seat | None, str], None]
"""Called at each step with (check name, the seat asked or None for any, the text shown)."""


class SelfTest:
    """Runs the checks over drivers that already feed ``events`` (keypad, card reader)."""

    def __init__(self, events: queue.Queue[HardwareEvent], layout: KeypadLayout, *,
                 displays: Mapping[Seat, SeatDisplay] | None = None,
                 feedback: BuzzerLeds | None = None, reader: Any = None,
                 reader_seats: tuple[Seat, ...] = tuple(Seat), timeout: float = 20.0,
                 rest: float = 1.0, language: str = "en", prompt: Prompt | None = None,
                 absent: Mapping[Seat, str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.events = events
        self.layout = layout
        self.displays = dict(displays or {})
        self.absent = dict(absent or {})  # seats whose LCD could not be set up, and why
        self.feedback = feedback
        self.reader = reader
        self.reader_seats = reader_seats
        self.timeout = timeout
        self.rest = rest
        self.texts = TEXTS[language]
        self.prompt = prompt
        self.clock = clock
        self.report = Report()

    # -- plumbing ---------------------------------------------------------------------------
    def _record(self, name: str, passed: bool, detail: str = "") -> None:
        self.report.checks.append(Check(name, passed, detail))

    def _show(self, seat: Seat, lines: list[str]) -> bool:
        display = self.displays.get(seat)
        if display is None:
            return True
        try:
            display.show(lines)
        except (HardwareError, OSError):
            return False
        return True

    def _ask(self, name: str, seat: Seat | None, text: str) -> None:
        for other in self.displays:
            if seat is None or other == seat:
                self._show(other, [self.texts["title"], name, text, ""])
        if self.prompt is not None:
            self.prompt(name, seat, text)

    def _next(self, deadline: float) -> HardwareEvent | None:
        left = deadline - self.clock()
        if left <= 0:
            return None
        try:
            return self.events.get(timeout=left)
        except queue.Empty:
            return None

    def _key(self, seat: Seat | None, keys: tuple[str, ...],
             wrong: list[str]) -> tuple[Seat, str] | None:
        """Wait for one of ``keys`` pressed at ``seat`` (any seat if None); note the others."""
        deadline = self.clock() + self.timeout
        while (event := self._next(deadline)) is not None:
            if not isinstance(event, KeyEvent) or not event.pressed or event.repeat:
                continue
            if (seat is None or event.seat == seat) and event.key in keys:
                return event.seat, event.key
            wrong.append(f"{event.seat.name} {event.key}")
        return None

    # -- the checks -------------------------------------------------------------------------
    def run(self) -> Report:
        self.at_rest()
        self.displays_check()
        for seat in Seat:
            self.keys(seat)
        if self.feedback is not None:
            self.feedback_check()
        if self.reader is not None:
            self.reader_check()
        summary = self.texts["passed"] if self.report.passed else (
            f"{len(self.report.failures)} {self.texts['failed']}")
        for seat in self.displays:
            self._show(seat, [self.texts["done"], summary, "", ""])
        return self.report

    def at_rest(self) -> None:
        self._ask("at rest", None, self.texts["rest"])
        deadline = self.clock() + self.rest
        held: list[str] = []
        while (event := self._next(deadline)) is not None:
            if isinstance(event, KeyEvent) and event.pressed:
                held.append(f"{event.seat.name} {event.key}")
        self._record("at rest", not held, "keys reported untouched: " + ", ".join(held)
                     if held else "")

    def displays_check(self) -> None:
        for seat in Seat:
            name = f"display {seat.name}"
            if seat not in self.displays:
                self._record(name, False, self.absent.get(seat, "no display configured"))
                continue
            line = self.texts["line"]
            lines = [f"{line} {n} {seat.name} ".ljust(20, "#") for n in range(1, 5)]
            if not self._show(seat, lines):
                self._record(name, False, "the LCD did not answer on I2C")
                continue
            if self.prompt is not None:
                self.prompt(name, seat, self.texts["lines_ok"])
            wrong: list[str] = []
            answer = self._key(seat, ("OK", "UNDO"), wrong)
            if answer is None:
                self._record(name, False, f"no OK or UNDO from {seat.name} in "
                             f"{self.timeout:g} s")
            else:
                self._record(name, answer[1] == "OK",
                             "" if answer[1] == "OK" else f"{seat.name} pressed UNDO")

    def keys(self, seat: Seat) -> None:
        for row in self.layout.keys:
            for key in row:
                name = f"key {seat.name} {key}"
                self._ask(name, seat, f"{self.texts['press']} {key}")
                wrong: list[str] = []
                got = self._key(seat, (key,), wrong)
                detail = "read first as " + ", ".join(wrong) if wrong else ""
                if got is None:
                    detail = f"not read in {self.timeout:g} s" + (f"; {detail}" if detail
                                                                  else "")
                self._record(name, got is not None, detail)

    def feedback_check(self) -> None:
        assert self.feedback is not None
        on = {"buzzer": Step(self.timeout, buzzer=True),
              "ok_led": Step(self.timeout, ok_led=1.0),
              "error_led": Step(self.timeout, error_led=1.0)}
        for name, step in on.items():
            self.feedback.play((step,))
            self._ask(name, None, f"{self.texts[name]} {self.texts['answer']}")
            wrong: list[str] = []
            answer = self._key(None, ("OK", "UNDO"), wrong)
            self.feedback.stop()
            if answer is None:
                self._record(name, False, f"no OK or UNDO in {self.timeout:g} s")
            else:
                self._record(name, answer[1] == "OK", "" if answer[1] == "OK"
                             else f"{answer[0].name} pressed UNDO")

    def reader_check(self) -> None:
        if self.prompt is not None:
            self.prompt("reader health", None, "?H")
        deadline = self.clock() + min(self.timeout, 5.0)
        health: Health | None = None
        connected = bool(getattr(self.reader, "connected", False))
        asked = False
        while health is None:
            if connected and not asked:
                try:
                    self.reader.send(HealthQuery())
                    asked = True
                except HardwareError:
                    pass
            event = self._next(deadline)
            if event is None:
                break
            if isinstance(event, ReaderStatus):
                connected = event.connected
            elif isinstance(event, ReaderMessage) and isinstance(event.message, Health):
                health = event.message
        if health is None:
            self._record("reader health", False, "connected, no answer to ?H" if connected
                         else "the card reader is not connected")
        else:
            self._record("reader health", health.status == "OK", str(health))
        for seat in self.reader_seats:
            name = f"reader {seat.name}"
            self._ask(name, seat, self.texts["card"])
            deadline = self.clock() + self.timeout
            elsewhere: list[str] = []
            seen = False
            while not seen and (event := self._next(deadline)) is not None:
                if isinstance(event, CardEvent):
                    if event.seat == seat:
                        seen = True
                    else:
                        elsewhere.append(event.seat.name if event.seat else "no seat")
            detail = "read at " + ", ".join(elsewhere) if elsewhere else ""
            if not seen:
                detail = f"no card read in {self.timeout:g} s" + (f"; {detail}" if detail
                                                                   else "")
            self._record(name, seen, detail)
