"""Every signal that ends a long-running command stops what the command started.

Ctrl-C raises ``KeyboardInterrupt`` in the main thread, so a command's ``finally`` stops its
broker, server and tables. SIGTERM (``kill``, ``systemctl stop``) and SIGHUP (the terminal
closed) would end the process at once by default and leave a private Mosquitto running, and
Mosquitto itself takes SIGHUP as "reload", not "stop". :func:`stop_on_signals` makes both raise
:class:`Stopped` in the main thread instead, so the same ``finally`` runs.

While the command stops what it started (``with signals.shield():`` in its ``finally``), a
signal, Ctrl-C too, is only noted: a stop cut short is what leaves a broker behind.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def say(text: str) -> None:
    """Print a line and flush it; nothing if the terminal is gone (SIGHUP closed it), so the
    stop that follows is not cut short by an ``OSError``."""
    with contextlib.suppress(OSError, ValueError):
        print(text, flush=True)


def warn(text: str) -> None:
    """``say`` on standard error."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=sys.stderr, flush=True)


class Stopped(BaseException):
    """A signal asked the command to stop. A ``BaseException``, like ``KeyboardInterrupt``, so
    an ``except Exception`` on the way out does not swallow it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        """The shell's convention for a command ended by a signal: 128 + its number."""
        return 128 + self.signum


class Signals:
    """What :func:`stop_on_signals` yields; ``with signals.shield():`` around a stop."""

    def __init__(self, say: Callable[[str], None] | None) -> None:
        self.say = say
        self.shielded = False
        self.raised = False
        self.noted: list[int] = []

    @contextmanager
    def shield(self) -> Iterator[None]:
        """Within the block SIGTERM, SIGHUP and SIGINT are noted, not acted upon: a stop cut
        short is what leaves a broker behind. A signal noted there, when none had stopped the
        command yet, raises :class:`Stopped` once the block is over."""
        was = self.shielded
        before = signal.signal(signal.SIGINT, self._handle)
        self.shielded = True
        try:
            yield
        finally:
            self.shielded = was
            signal.signal(signal.SIGINT, before)
        if self.noted and not self.raised and not was:
            self.raised = True
            raise Stopped(self.noted[0])

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.shielded:
            self.noted.append(signum)
            if self.say is not None:
                self.say(f"{signal.Signals(signum).name}: already stopping, please wait")
            return
        self.raised = True
        raise Stopped(signum)


@contextmanager
def stop_on_signals(say: Callable[[str], None] | None = None) -> Iterator[Signals]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Stopped` in the main thread; the
    handlers that were there before come back when it ends. Call from the main thread."""
    signals = Signals(say)
    before = {sig: signal.signal(sig, signals._handle)
              for sig in (*SIGNALS, signal.SIGINT)}
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C: KeyboardInterrupt
    try:
        yield signals
    finally:
        for sig, previous in before.items():
            signal.signal(sig, previous)
