"""The table's configuration file (TOML): which table it is, where its journal lives, how to
reach the broker, and the hardware. docs/table.md and deploy/table.example.toml show every key.

A table either plays one event, named in ``event``, into the journal file ``journal``; or,
with no ``event``, it follows the session the server runs (tablemodel.running) and keeps one
journal per session in the folder ``journals``: the file a club provisions once.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from laws import Seat
from mqttlink import BrokerSettings
from tablemodel.running import check_event

from .i18n import LANGUAGES

if TYPE_CHECKING:
    from hardware.pinmap import PinMap

READER_KINDS = ("serial",)
"""The card readers a table can have: ``serial``, the reader board's line protocol over USB
serial (docs/serial-protocol.md; hardware.cardreader.CardReader)."""


class ConfigError(ValueError):
    """The configuration file is wrong; the message names the key."""


@dataclass(frozen=True)
class TableConfig:
    event: str | None
    """The one event the table plays; None: it follows the server's running session."""
    number: int
    journal: Path
    """The journal file; when following the server, the folder of one journal a session."""
    language: str = "es"
    broker: BrokerSettings | None = None
    keypad_layout: Path | None = None           # default: hardware/keypad.toml
    reader_kind: str = "serial"                 # one of READER_KINDS (tabled.runner builds it)
    reader_url: str | None = None               # e.g. /dev/ttyACM0; None: no card reader
    reader_tags: Path | None = None             # a registered deck's tag table (JSON)
    display: str = "lcd"                        # lcd | terminal | none
    i2c_bus: int = 1
    lcd_addresses: dict[Seat, int] = field(default_factory=dict)
    buzzer: int | None = 16
    ok_led: int | None = 20
    error_led: int | None = 21

    @property
    def follows(self) -> bool:
        """The table follows the session the server runs, not one event of its own."""
        return self.event is None


def _get(table: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str,
         default: Any = ...) -> Any:
    if key not in table:
        if default is ...:
            raise ConfigError(f"{where}: '{key}' is missing")
        return default
    value = table[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ConfigError(f"{where}: '{key}' = {value!r} has the wrong type")
    return value


def load(path: str | Path) -> TableConfig:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path}: {error}") from None
    return parse(data, path.parent, str(path))


def parse(data: dict[str, Any], base: Path, name: str = "config") -> TableConfig:
    def resolve(value: str | None) -> Path | None:
        return None if value is None else (base / value).resolve()

    table = _get(data, "table", dict, name)
    where = f"{name} [table]"
    language = _get(table, "language", str, where, "es")
    if language not in LANGUAGES:
        raise ConfigError(f"{where}: language {language!r} is not one of {LANGUAGES}")
    number = _get(table, "number", int, where)
    if number < 1:
        raise ConfigError(f"{where}: number {number} is not a table number")
    broker = None
    if "broker" in data:
        section = _get(data, "broker", dict, name)
        where_b = f"{name} [broker]"
        password = _get(section, "password", str, where_b, None)
        secret = _get(section, "password_file", str, where_b, None)
        if secret is not None:
            secret_path = resolve(secret)
            assert secret_path is not None
            try:
                password = secret_path.read_text(encoding="utf-8").strip()
            except OSError as error:
                raise ConfigError(f"{where_b}: password_file: {error}") from None
        try:
            broker = BrokerSettings.from_url(_get(section, "url", str, where_b))
        except ValueError as error:
            raise ConfigError(f"{where_b}: {error}") from None
        cafile = _get(section, "cafile", str, where_b, None)
        broker = BrokerSettings(
            broker.host, broker.port,
            _get(section, "username", str, where_b, broker.username or f"table-{number}"),
            password if password is not None else broker.password,
            str(resolve(cafile)) if cafile else broker.cafile,
            str(resolve(c)) if (c := _get(section, "certfile", str, where_b, None)) else None,
            str(resolve(k)) if (k := _get(section, "keyfile", str, where_b, None)) else None)
    hw = _get(data, "hardware", dict, name, {})
    where_h = f"{name} [hardware]"
    display = _get(hw, "display", str, where_h, "lcd")
    if display not in ("lcd", "terminal", "none"):
        raise ConfigError(f"{where_h}: display {display!r} is not lcd, terminal or none")
    keypad_layout = resolve(_get(hw, "keypad_layout", str, where_h, None))
    # The LCD addresses, the I2C bus, the buzzer and the LEDs default to the pin map's (the
    # keypad layout file's), which the hub board's circuit is generated from.
    pins = _pin_map(keypad_layout, where_h)
    addresses = _get(hw, "lcd_addresses", dict, where_h,
                     {seat.name: address for seat, address in pins.lcd_addresses.items()})
    try:
        lcds = {Seat.from_str(seat): int(address) for seat, address in addresses.items()}
    except (ValueError, TypeError) as error:
        raise ConfigError(f"{where_h}: lcd_addresses: {error}") from None
    feedback = _get(hw, "feedback", bool, where_h, True)  # false: no buzzer and no LEDs
    reader_kind = _get(hw, "card_reader_kind", str, where_h, "serial")
    if reader_kind not in READER_KINDS:
        raise ConfigError(f"{where_h}: card_reader_kind {reader_kind!r} is not "
                          f"{' or '.join(READER_KINDS)}")
    event = _get(table, "event", str, where, None)
    if event is not None:
        if "journals" in table:
            raise ConfigError(f"{where}: 'journals' is for a table that follows the server's "
                              "session; with 'event' give 'journal', the file")
        journal = resolve(_get(table, "journal", str, where))
    else:
        if "journal" in table:
            raise ConfigError(f"{where}: 'journal' names one event's file: give 'event' too, "
                              "or 'journals' (a folder) to follow the server's session")
        journal = resolve(_get(table, "journals", str, where))
        if broker is None:
            raise ConfigError(f"{where}: a table with no 'event' follows the server's session, "
                              "which it learns from the broker: add [broker], or give 'event'")
    try:
        if event is not None:
            check_event(event)
    except ValueError as error:
        raise ConfigError(f"{where}: {error}") from None
    assert journal is not None
    return TableConfig(
        event=event, number=number, journal=journal,
        language=language, broker=broker,
        keypad_layout=keypad_layout,
        reader_kind=reader_kind, reader_url=_get(hw, "card_reader", str, where_h, None),
        reader_tags=resolve(_get(hw, "deck_tags", str, where_h, None)),
        display=display, i2c_bus=_get(hw, "i2c_bus", int, where_h, pins.i2c_bus),
        lcd_addresses=lcds,
        buzzer=_get(hw, "buzzer", int, where_h, pins.buzzer) if feedback else None,
        ok_led=_get(hw, "ok_led", int, where_h, pins.ok_led) if feedback else None,
        error_led=_get(hw, "error_led", int, where_h, pins.error_led) if feedback else None)


def _pin_map(path: Path | None, where: str) -> PinMap:
    from hardware.errors import ConfigError as PinMapError
    from hardware.pinmap import PinMap

    # A keypad_layout that is not there (yet: the example names /etc/bidbox/keypad.toml) gives
    # the default pin map's values here; the table itself refuses to start without the file.
    try:
        return PinMap.load(path) if path is not None and path.exists() else PinMap.load()
    except PinMapError as error:
        raise ConfigError(f"{where}: keypad_layout: {error}") from None
