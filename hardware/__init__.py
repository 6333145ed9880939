"""bidbox: hardware. Drivers that turn keypads, card readers and displays into events.

Every driver puts immutable events (``hardware.events``) on a queue that the table's one
thread drains, and the table codes against the Protocols exported here: ``KeypadSource``,
``CardReaderSource``, ``SeatDisplay`` and ``Feedback``. GPIO devices take gpiozero's
``pin_factory`` (None for the default; a ``MockFactory`` in tests and the simulator).
"""

from .cardreader import CardReader, CardReaderSource, ReaderStats
from .display import SeatDisplay, TerminalDisplay
from .errors import (
    ConfigError,
    DisplayError,
    DuplicateTagError,
    HardwareError,
    ProtocolError,
    ReaderUnavailableError,
    RegistrationError,
)
from .events import CardEvent, EventSink, HardwareEvent, KeyEvent, ReaderMessage, ReaderStatus
from .feedback import BuzzerLeds, Feedback, TerminalFeedback
from .keypad import KeypadSource, MatrixKeypad
from .layout import KeypadLayout, ScanSettings
from .lcd import CharacterLcd
from .tags import TagTable

__all__ = [
    "BuzzerLeds", "CardEvent", "CardReader", "CardReaderSource", "CharacterLcd", "ConfigError",
    "DisplayError", "DuplicateTagError", "EventSink", "Feedback", "HardwareError",
    "HardwareEvent", "KeyEvent", "KeypadLayout", "KeypadSource", "MatrixKeypad",
    "ProtocolError", "ReaderMessage", "ReaderStats", "ReaderStatus", "ReaderUnavailableError",
    "RegistrationError", "ScanSettings", "SeatDisplay", "TagTable", "TerminalDisplay",
    "TerminalFeedback",
]
