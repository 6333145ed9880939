"""The shapes of what the shim hands the firmware, as typing Protocols: for mypy and the tests.

CPython only; never copied to a board (the board modules import it only under
``TYPE_CHECKING``, which is false when they run). The shim (``firmware/shim.py``) gives the
real MicroPython objects; tests/firmware gives simulated ones of the same shape.
"""

from __future__ import annotations

from typing import Protocol


class Clock(Protocol):
    """MicroPython's ``time.ticks_*``: milliseconds that wrap around, compared by ticks_diff."""

    def ticks_ms(self) -> int: ...

    def ticks_diff(self, end: int, start: int) -> int: ...

    def ticks_add(self, ticks: int, delta: int) -> int: ...

    def sleep_ms(self, ms: int) -> None: ...

    def sleep_us(self, us: int) -> None: ...


class Serial(Protocol):
    """The USB serial line to the host: ``read()`` never blocks (b"" when nothing came)."""

    def read(self) -> bytes: ...

    def write(self, data: bytes) -> None: ...


class Pin(Protocol):
    """``machine.Pin``: ``value()`` reads, ``value(v)`` drives."""

    def value(self, value: int | None = None) -> int | None: ...


class SPI(Protocol):
    """The part of ``machine.SPI`` the drivers use (chip select is a separate Pin)."""

    def write(self, data: bytes) -> None: ...

    def write_readinto(self, data: bytes, into: bytearray) -> None: ...


class I2C(Protocol):
    """The part of ``machine.I2C`` the drivers use; a device that does not ACK raises OSError."""

    def writeto(self, addr: int, data: bytes) -> int: ...

    def readfrom(self, addr: int, nbytes: int) -> bytes: ...
