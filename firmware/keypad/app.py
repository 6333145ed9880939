"""The USB seat-keypad module: seat key matrices to ``K`` lines, ``L`` lines to seat LCDs.

Each scan (every ``scan_ms``) reads every seat's matrix; a key that held a new state for
``stable_ms`` (10 ms, the protocol's minimum) is sent as ``K <seat> <key> down`` or ``up``.
A held key sends one ``down``; chords send one line per key. Key names are those of
``hardware/keypad.toml``, so the Pi handles these keys exactly as its own GPIO keypads.

At power-up a key already down (a stuck key, or something lying on the pad) is reported as
``E 203 key <seat> <key> stuck`` and ignored until it comes up. An LCD that does not answer
is reported as ``E 202 LCD <seat>`` once, and set up afresh by the next ``L`` line for it.
"""

from firmware.common import protocol
from firmware.common.debounce import KEY_STABLE_MS, KeyDebouncer
from firmware.common.health import PartWatch, seat_map

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from typing import Any

    from firmware.common.device import Device
    from firmware.drivers.matrix import KeyMatrix

#: The 20 keys of a seat, one tuple per row, as in hardware/keypad.toml.
KEYS = (
    ("1", "2", "3", "ALERT"),
    ("4", "5", "6", "UNDO"),
    ("7", "C", "D", "INFO"),
    ("H", "S", "NT", "DIR"),
    ("PASS", "X", "XX", "OK"),
)
SCAN_MS = 2


class KeypadApp:
    """The keypads' part of the device: ``start()`` once, then ``step()`` in the loop."""

    def __init__(self, device: "Device", matrix: "KeyMatrix", lcds: "dict[str, Any]",
                 keys: "tuple[tuple[str, ...], ...]" = KEYS, scan_ms: int = SCAN_MS,
                 stable_ms: int = KEY_STABLE_MS, ghost_filter: bool = True) -> None:
        self.device = device
        self.clock = device.clock
        self.matrix = matrix
        self.lcds = lcds
        self.keys = keys
        self.scan_ms = scan_ms
        self.stable_ms = stable_ms
        for row in keys:
            for key in row:
                if not protocol.is_key(key):
                    raise ValueError("not a key name: %r" % key)  # noqa: UP031
        columns = max([len(row) for row in keys])
        self.debouncers = {}
        for seat in matrix.columns:
            self.debouncers[seat] = KeyDebouncer(self.clock, len(keys), columns, stable_ms,
                                                 ghost_filter)
        self.lcd_watch = {seat: PartWatch(self.clock) for seat in lcds}
        self.stuck: list[tuple[str, int, int]] = []
        self._next_scan = self.clock.ticks_ms()
        device.add(self)

    def start(self) -> None:
        """Say hello, set the LCDs up, and find keys that are down already."""
        self.device.hello()
        for seat in protocol.SEATS:
            if seat in self.lcds:
                self._lcd(seat, None, "")
        # Scan for as long as a press takes to count, then whatever is down is stuck.
        waited = 0
        while True:
            now = self.clock.ticks_ms()
            readings = self.matrix.scan()
            for seat in self.debouncers:
                for row, column, down in self.debouncers[seat].update(readings[seat], now):
                    if down:
                        self.stuck.append((seat, row, column))
            if waited > self.stable_ms:
                break
            self.clock.sleep_ms(self.scan_ms)
            waited += self.scan_ms
        for seat, row, column in self.stuck:
            self.device.error(protocol.KEY_STUCK,
                              "key %s %s stuck" % (seat, self.keys[row][column]))  # noqa: UP031
        self._next_scan = self.clock.ticks_ms()

    def step(self) -> None:
        self.device.step()
        now = self.clock.ticks_ms()
        if self.clock.ticks_diff(now, self._next_scan) < 0:
            return
        self._next_scan = self.clock.ticks_add(now, self.scan_ms)
        readings = self.matrix.scan()
        for seat in protocol.SEATS:
            debouncer = self.debouncers.get(seat)
            if debouncer is None:
                continue
            for row, column, down in debouncer.update(readings[seat], now):
                if (seat, row, column) in self.stuck:
                    if not down:  # a stuck key that came up is a key like any other again
                        self.stuck.remove((seat, row, column))
                    continue
                if row < len(self.keys) and column < len(self.keys[row]):
                    self.device.key(seat, self.keys[row][column], down)

    # -- LCDs ----------------------------------------------------------------------------------

    def lcd_text(self, seat: str, row: int, text: str) -> None:
        """An ``L`` line: ``text`` on ``row`` of the LCD at ``seat``."""
        if seat not in self.lcds:
            self.device.bad_lines += 1
            self.device.error(protocol.BAD_ARGUMENT, "no LCD at " + seat)
            return
        self._lcd(seat, row, text)

    def _lcd(self, seat: str, row: "int | None", text: str) -> None:
        lcd = self.lcds[seat]
        watch = self.lcd_watch[seat]
        try:
            if row is None:
                lcd.reset()
            else:
                lcd.write_row(row, text)
        except OSError:
            lcd.ready = False
            if watch.lost(self.clock.ticks_ms()):
                self.device.error(protocol.LCD_NOT_RESPONDING, "LCD " + seat)
            return
        watch.answered()

    def health(self) -> "tuple[str, list[tuple[str, str]]]":
        answering = {}
        for seat in self.lcds:
            answering[seat] = self.lcd_watch[seat].up is True
        status = "OK"
        if self.stuck or len([seat for seat in answering if answering[seat]]) < len(answering):
            status = "WARN"
        fields = [("keys", str(self.device.keys))]
        if self.lcds:
            fields.append(("lcd", seat_map(answering)))
        if self.stuck:
            stuck = ",".join(["%s-%s" % (s, self.keys[r][c]) for s, r, c in self.stuck])  # noqa: UP031
            fields.append(("stuck", stuck))
        return status, fields
