"""The thin shim over MicroPython's ``machine`` and ``time``: the one module that touches them.

Everything else on the board gets its pins, buses, clock and serial line from here, as plain
objects passed in; the tests pass simulated objects of the same shape instead
(``firmware/interfaces.py`` names the shapes). Under CPython this module imports but its
constructors refuse to work: there is no hardware to reach.
"""

import sys
import time

try:
    import machine  # type: ignore[import-not-found]
except ImportError:  # CPython (the tests), where nothing here is used
    machine = None

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from firmware.interfaces import I2C, SPI, Pin
    from firmware.interfaces import Clock as AnyClock


def _machine() -> "Any":
    if machine is None:
        raise OSError("no MicroPython machine module: this runs on the board only")
    return machine


class Clock:
    """``time.ticks_ms`` and friends; ticks wrap around, so compare them with ``ticks_diff``."""

    def ticks_ms(self) -> int:
        return time.ticks_ms()  # type: ignore[attr-defined,no-any-return]

    def ticks_diff(self, end: int, start: int) -> int:
        return time.ticks_diff(end, start)  # type: ignore[attr-defined,no-any-return]

    def ticks_add(self, ticks: int, delta: int) -> int:
        return time.ticks_add(ticks, delta)  # type: ignore[attr-defined,no-any-return]

    def sleep_ms(self, ms: int) -> None:
        time.sleep_ms(ms)  # type: ignore[attr-defined]

    def sleep_us(self, us: int) -> None:
        time.sleep_us(us)  # type: ignore[attr-defined]


class UsbSerial:
    """The USB CDC serial port (the REPL's stdin/stdout, which is ours while main.py runs).

    Reading polls stdin without blocking. Writing goes to the raw byte stream; if no host has
    the port open the USB stack drops it, which is what we want: a line nobody reads is lost
    either way, and the device must not depend on DTR.
    """

    def __init__(self) -> None:
        import select

        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self) -> bytes:
        data = b""
        while len(data) < 128 and self._poll.poll(0):
            data += self._in.read(1)
        return data

    def write(self, data: bytes) -> None:
        self._out.write(data)


def input_pin(number: int, pull_up: bool = True) -> "Pin":
    m = _machine()
    return m.Pin(number, m.Pin.IN, m.Pin.PULL_UP if pull_up else None)  # type: ignore[no-any-return]


def output_pin(number: int, value: int = 1) -> "Pin":
    m = _machine()
    return m.Pin(number, m.Pin.OUT, value=value)  # type: ignore[no-any-return]


def open_drain_pin(number: int) -> "Pin":
    """A pin that only pulls low (1 = let go): matrix rows, so no two outputs ever fight."""
    m = _machine()
    return m.Pin(number, m.Pin.OPEN_DRAIN, value=1)  # type: ignore[no-any-return]


def spi(bus: int, sck: int, mosi: int, miso: int, baudrate: int = 1000000) -> "SPI":
    """A hardware SPI bus in mode 0 (what the MFRC522 speaks)."""
    m = _machine()
    return m.SPI(bus, baudrate=baudrate, polarity=0, phase=0, bits=8,  # type: ignore[no-any-return]
                 firstbit=m.SPI.MSB, sck=m.Pin(sck), mosi=m.Pin(mosi), miso=m.Pin(miso))


def i2c(bus: "int | None", sda: int, scl: int, freq: int = 100000) -> "I2C":
    """A hardware I2C bus (``bus`` 0 or 1), or a software one on any two pins (``bus=None``)."""
    m = _machine()
    if bus is None:
        return m.SoftI2C(sda=m.Pin(sda), scl=m.Pin(scl), freq=freq)  # type: ignore[no-any-return]
    return m.I2C(bus, sda=m.Pin(sda), scl=m.Pin(scl), freq=freq)  # type: ignore[no-any-return]


def run_forever(step: "Callable[[], None]", clock: "AnyClock", idle_ms: int = 1) -> None:
    """The main loop: one step of the application, then a short rest, for ever."""
    while True:
        step()
        clock.sleep_ms(idle_ms)
