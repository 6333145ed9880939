"""The seat keypads' key layout and pin map, read from ``hardware/keypad.toml``."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from laws import Seat

from .errors import ConfigError

DEFAULT_PATH = Path(__file__).with_name("keypad.toml")
_KEY_NAME = re.compile(r"[A-Z0-9]{1,8}")


@dataclass(frozen=True)
class ScanSettings:
    """How the matrix is scanned; see ``[scan]`` in keypad.toml."""

    period: float = 0.005
    debounce: int = 3
    repeat_delay: float = 0.0
    repeat_interval: float = 0.15
    key_diodes: bool = False
    settle: float = 0.0
    idle_wake: bool = True

    def __post_init__(self) -> None:
        if self.settle < 0 or self.settle > 0.01:
            raise ConfigError("settle must be between 0 and 0.01 seconds")
        if self.period <= 0 or self.debounce < 1:
            raise ConfigError("scan period must be > 0 and debounce >= 1")
        if self.repeat_delay < 0 or self.repeat_interval <= 0:
            raise ConfigError("repeat_delay must be >= 0 and repeat_interval > 0")
        if not isinstance(self.idle_wake, bool):
            raise ConfigError("idle_wake must be true or false")


@dataclass(frozen=True)
class KeypadLayout:
    """Which key sits where, and which BCM pin carries each row and each seat's columns."""

    rows: tuple[int, ...]
    columns: Mapping[Seat, tuple[int, ...]]
    keys: tuple[tuple[str, ...], ...]
    digits: Mapping[str, int] = field(default_factory=dict)
    scan: ScanSettings = field(default_factory=ScanSettings)

    def __post_init__(self) -> None:
        if not self.rows or len(self.keys) != len(self.rows):
            raise ConfigError(f"need one key row per row pin: {len(self.rows)} pins, "
                              f"{len(self.keys)} key rows")
        width = len(self.keys[0])
        if any(len(row) != width for row in self.keys) or width == 0:
            raise ConfigError("every key row must have the same number of keys")
        if set(self.columns) != set(Seat):
            raise ConfigError("columns must be given for N, E, S and W")
        if any(len(pins) != width for pins in self.columns.values()):
            raise ConfigError(f"every seat needs {width} column pins")
        names = [key for row in self.keys for key in row]
        bad = [key for key in names if not _KEY_NAME.fullmatch(key)]
        if bad:
            raise ConfigError(f"key names must be 1-8 of A-Z 0-9: {bad}")
        if len(set(names)) != len(names):
            raise ConfigError("a key name appears twice in the layout")
        pins = list(self.rows) + [pin for pins in self.columns.values() for pin in pins]
        if len(set(pins)) != len(pins):
            raise ConfigError(f"a pin is used twice: {sorted(pins)}")
        if any(key not in names for key in self.digits):
            raise ConfigError("digits names a key that is not in the layout")

    @property
    def width(self) -> int:
        return len(self.keys[0])

    def key_at(self, row: int, column: int) -> str:
        return self.keys[row][column]

    def position(self, key: str) -> tuple[int, int]:
        """(row, column) of a key by name."""
        for r, names in enumerate(self.keys):
            if key in names:
                return r, names.index(key)
        raise KeyError(key)

    def digit(self, key: str) -> int | None:
        """The digit a key stands for when a number is asked for, if any."""
        return self.digits.get(key)

    @classmethod
    def load(cls, path: str | Path = DEFAULT_PATH) -> KeypadLayout:
        with open(path, "rb") as stream:
            try:
                data = tomllib.load(stream)
            except tomllib.TOMLDecodeError as exc:
                raise ConfigError(f"{path}: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def loads(cls, text: str) -> KeypadLayout:
        try:
            return cls.from_dict(tomllib.loads(text))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(str(exc)) from None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KeypadLayout:
        try:
            columns = {Seat.from_str(name): tuple(int(p) for p in pins)
                       for name, pins in data["columns"].items()}
            scan = ScanSettings(**data.get("scan", {}))
            return cls(
                rows=tuple(int(p) for p in data["rows"]),
                columns=columns,
                keys=tuple(tuple(str(k) for k in row) for row in data["keys"]),
                digits={str(k): int(v) for k, v in data.get("digits", {}).items()},
                scan=scan,
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ConfigError):
                raise
            raise ConfigError(f"bad keypad layout: {exc!r}") from None
