"""The errors the drivers raise: one root, then one class for each kind of failure.

``HardwareError`` is an ``OSError`` because what goes wrong down here is input and output: a
device that is absent, unplugged or talking nonsense. Errors about bad values (a config file, a
garbled line) are ``ValueError`` as well, so callers that only care that the input was bad can
catch that, as with gpiozero's ``PinInvalidPin(PinError, ValueError)``.
"""

from __future__ import annotations


class HardwareError(OSError):
    """Root of every error the hardware drivers raise."""


class ConfigError(HardwareError, ValueError):
    """A pin map, key layout or tag table that cannot be used."""


class ProtocolError(HardwareError, ValueError):
    """A serial line that is not a well-formed message of docs/serial-protocol.md.

    ``reason`` says which kind of bad it is: ``"garbage"`` (not printable ASCII or not a
    message), ``"partial"`` (cut short: no checksum field), ``"checksum"`` (the checksum does
    not match) or ``"oversize"`` (longer than ``MAX_LINE``). The reader counts rejects by reason.
    """

    def __init__(self, message: str, reason: str = "garbage") -> None:
        super().__init__(message)
        self.reason = reason


class ReaderUnavailableError(HardwareError):
    """The card reader (or keypad module) is not connected right now."""


class DisplayError(HardwareError):
    """A seat display that did not take what was written to it (e.g. no ACK on the I2C bus)."""


class RegistrationError(HardwareError, ValueError):
    """A deck registration that cannot go on as asked."""


class DuplicateTagError(RegistrationError):
    """A tag that already stands for a card; a tag must name exactly one card of one deck."""

    def __init__(self, message: str, tag: str) -> None:
        super().__init__(message)
        self.tag = tag
