"""The card reader on a USB serial port, speaking docs/serial-protocol.md.

pyserial's ``ReaderThread`` reads the port and a ``LineReader`` subclass cuts the bytes into
lines; each good line becomes an event on the table's queue (``CardEvent`` for ``C`` and ``T``
lines, ``KeyEvent`` for ``K`` lines from a USB seat-keypad module, ``ReaderMessage`` for error,
version and health lines). Bad lines are logged, counted by reason in ``stats`` and dropped.

A supervisor thread owns the port: it opens it with ``serial.serial_for_url`` (so tests use
``loop://`` or a pty), and when the reader is unplugged it reports ``ReaderStatus(connected=
False)`` and keeps trying to reopen the same path with exponential backoff. On the Pi the path
is a stable udev name (``/dev/serial/by-id/...``), so a re-plugged reader is found again
without restarting anything.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import serial  # type: ignore[import-untyped]
from serial.threaded import LineReader, ReaderThread  # type: ignore[import-untyped]

from .errors import ProtocolError, ReaderUnavailableError
from .events import CardEvent, EventSink, KeyEvent, ReaderMessage, ReaderStatus
from .protocol import (
    ERROR_CODES,
    MAX_LINE,
    PROTOCOL_VERSION,
    CardRead,
    DeviceError,
    Health,
    KeyChange,
    Message,
    TagRead,
    Version,
    VersionQuery,
    decode,
    encode,
)
from .tags import CardCodes

log = logging.getLogger(__name__)

DEFAULT_BAUDRATE = 115200


class CardReaderSource(Protocol):
    """What the table needs of its card reader: events on its queue, and a way to ask."""

    @property
    def connected(self) -> bool: ...

    def start(self) -> None: ...

    def close(self) -> None: ...

    def send(self, message: Message) -> None: ...


@dataclass
class ReaderStats:
    """Counters kept by the reader thread; read them from anywhere."""

    lines: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    connects: int = 0


class _LineProtocol(LineReader):  # type: ignore[misc]
    """Cuts the byte stream into lines for one connection; tells the supervisor when it ends."""

    TERMINATOR = b"\n"
    ENCODING = "ascii"
    UNICODE_HANDLING = "replace"  # non-ASCII turns into U+FFFD, which decode() refuses

    def __init__(self, reader: CardReader, lost: threading.Event) -> None:
        super().__init__()
        self._reader = reader
        self._lost = lost
        self._discarding = False

    def data_received(self, data: bytes) -> None:
        # Packetizer's own version buffers without limit while it waits for a terminator.
        self.buffer.extend(data)
        while True:
            end = self.buffer.find(self.TERMINATOR)
            if end < 0:
                if len(self.buffer) > MAX_LINE + 1:  # room for a "\r"
                    if not self._discarding:
                        self._reader._reject(ProtocolError(
                            f"line longer than {MAX_LINE}: {bytes(self.buffer[:20])!r}...",
                            "oversize"))
                    self._discarding = True
                    del self.buffer[:]
                return
            packet = bytes(self.buffer[:end])
            del self.buffer[:end + 1]
            if self._discarding:  # the tail of an oversize line
                self._discarding = False
                continue
            self.handle_packet(packet)

    def handle_line(self, line: str) -> None:
        self._reader._handle_line(line)

    def connection_lost(self, exc: BaseException | None) -> None:
        # Not super(): Protocol.connection_lost re-raises exc inside the reader thread.
        if self.buffer and not self._discarding:
            self._reader._reject(ProtocolError(
                f"line cut short by disconnect: {bytes(self.buffer)!r}", "partial"))
        if exc is not None:
            log.warning("card reader %s lost: %s", self._reader.url, exc)
        self.transport = None
        self._lost.set()


class _ReaderThread(ReaderThread):  # type: ignore[misc]
    """pyserial's ReaderThread, except that an ``OSError`` from the port also ends the connection.

    When a USB serial device is pulled out, the ``ioctl`` behind ``in_waiting`` fails with
    ``OSError(EIO)``. ``ReaderThread.run`` only catches ``SerialException``, so its thread would
    die with a traceback and never call ``connection_lost``, and the supervisor would wait for
    ever. This is the same loop with the wider ``except``.
    """

    alive: bool

    def run(self) -> None:
        if not hasattr(self.serial, "cancel_read"):
            self.serial.timeout = 1
        self.protocol = self.protocol_factory()
        self.protocol.connection_made(self)
        self._connection_made.set()
        error: BaseException | None = None
        while self.alive and self.serial.is_open:
            try:
                data = self.serial.read(self.serial.in_waiting or 1)
            except (serial.SerialException, OSError) as exc:
                error = exc
                break
            if data:
                try:
                    self.protocol.data_received(data)
                except Exception as exc:  # a bug of ours must not go unnoticed, nor kill us
                    log.exception("card reader: error handling input")
                    error = exc
                    break
        self.alive = False
        self.protocol.connection_lost(error)
        self.protocol = None


class CardReader:
    """Reads cards (and USB keypad keys) from a serial device into the table's queue.

    ``url`` is anything ``serial.serial_for_url`` opens: ``/dev/serial/by-id/...``,
    ``loop://``, a pty path. ``tags`` maps RFID tag UIDs to cards; without it ``T`` lines give
    ``CardEvent(card=None, tag=uid)``. ``C`` lines need no table: the card text is the code.
    Reconnection waits ``retry_min`` seconds after a loss, doubling up to ``retry_max`` while
    opening fails. After each connection the reader asks the device who it is (``?V``) unless
    ``ask_version`` is false (``loop://`` tests, where the question would come straight back).
    """

    def __init__(self, url: str, events: EventSink, *, tags: CardCodes | None = None,
                 baudrate: int = DEFAULT_BAUDRATE, retry_min: float = 0.1,
                 retry_max: float = 5.0, ask_version: bool = True,
                 clock: Callable[[], float] = time.monotonic,
                 open_port: Callable[..., Any] = serial.serial_for_url) -> None:
        self.url = url
        self.tags = tags
        self.baudrate = baudrate
        self.retry_min = retry_min
        self.retry_max = retry_max
        self.ask_version = ask_version
        self.stats = ReaderStats()
        self._events = events
        self._clock = clock
        self._open_port = open_port
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: Any = None  # the ReaderThread of the current connection
        self._supervisor: threading.Thread | None = None

    def __enter__(self) -> CardReader:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        thread = self._thread
        return thread is not None and bool(thread.alive)

    def start(self) -> None:
        if self._supervisor is not None:
            raise RuntimeError("the card reader is already started")
        self._supervisor = threading.Thread(
            target=self._supervise, name=f"card-reader {self.url}", daemon=True)
        self._supervisor.start()

    def close(self) -> None:
        """Stop reconnecting and close the port. Safe to call twice."""
        self._stop.set()
        with self._lock:
            thread = self._thread
        if thread is not None:
            thread.close()
        if self._supervisor is not None:
            self._supervisor.join(timeout=5)

    def send(self, message: Message) -> None:
        """Send one message (normally ``?V``, ``?H`` or ``L``) to the device."""
        self.write(encode(message))

    def write(self, data: bytes) -> None:
        """Write raw bytes to the port: diagnostics, and ``loop://`` tests of bad lines."""
        with self._lock:
            thread = self._thread
        if thread is None or not thread.alive:
            raise ReaderUnavailableError(f"card reader {self.url} is not connected")
        try:
            thread.write(data)
        except (serial.SerialException, OSError) as exc:
            raise ReaderUnavailableError(f"card reader {self.url}: {exc}") from exc

    # -- the supervisor thread ---------------------------------------------------------------

    def _supervise(self) -> None:
        delay = self.retry_min
        failures = 0
        while not self._stop.is_set():
            try:
                port = self._open_port(self.url, baudrate=self.baudrate, timeout=None,
                                       exclusive=True)
            except (serial.SerialException, OSError, ValueError) as exc:
                (log.warning if failures == 0 else log.debug)(
                    "card reader %s: cannot open (%s); retrying", self.url, exc)
                failures += 1
                self._stop.wait(delay)
                delay = min(delay * 2, self.retry_max)
                continue
            failures = 0
            lost = threading.Event()
            with self._lock:
                if self._stop.is_set():
                    port.close()
                    break
                thread = _ReaderThread(port, functools.partial(_LineProtocol, self, lost))
                self._thread = thread
                self.stats.connects += 1
                # Before start(), so that no line of this connection is queued ahead of it.
                self._events.put(ReaderStatus(True, self.url, self._clock()))
                thread.start()
            log.info("card reader %s connected", self.url)
            if self.ask_version:
                try:
                    thread.write(encode(VersionQuery()))
                except (serial.SerialException, OSError):
                    pass  # lost already; the reader thread has noticed too
            opened = self._clock()
            lost.wait()
            with self._lock:
                self._thread = None
            thread.close()
            self._events.put(ReaderStatus(False, self.url, self._clock()))
            if self._clock() - opened >= self.retry_max:
                delay = self.retry_min  # it was a good connection; come back quickly
            if not self._stop.is_set():
                self._stop.wait(delay)
                delay = min(delay * 2, self.retry_max)

    # -- the reader thread -------------------------------------------------------------------

    def _reject(self, error: ProtocolError) -> None:
        self.stats.rejected[error.reason] += 1
        log.warning("card reader %s: rejected %s line: %s", self.url, error.reason, error)

    def _handle_line(self, line: str) -> None:
        line = line.removesuffix("\r")
        if not line:
            return  # an empty line only ends whatever came before it (protocol: line sync)
        try:
            message = decode(line)
        except ProtocolError as exc:
            self._reject(exc)
            return
        now = self._clock()
        match message:
            case CardRead(card=card, seat=seat):
                self._events.put(CardEvent(card, None, seat, now))
            case TagRead(uid=uid, seat=seat):
                entry = self.tags.lookup(uid) if self.tags is not None else None
                if entry is None:
                    self._events.put(CardEvent(None, uid, seat, now))
                else:
                    self._events.put(CardEvent(entry.card, uid, seat, now, entry.deck))
            case KeyChange(seat=seat, key=key, down=down):
                self._events.put(KeyEvent(seat, key, down, now))
            case DeviceError() | Version() | Health():
                if isinstance(message, DeviceError):
                    log.warning("card reader %s reports: %s (%s)", self.url, message,
                                ERROR_CODES.get(message.code, "unknown code"))
                elif isinstance(message, Version) and message.protocol != PROTOCOL_VERSION:
                    log.warning("card reader %s speaks protocol %d, not %d", self.url,
                                message.protocol, PROTOCOL_VERSION)
                self._events.put(ReaderMessage(message, now))
            case _:
                self._reject(ProtocolError(f"a host command from the device: {line!r}"))
                return
        self.stats.lines += 1
