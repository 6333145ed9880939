"""Debouncing, in simulated-friendly milliseconds: cards left on a reader, keys that bounce.

Both filters take the time of each sample as an argument (``clock.ticks_ms()`` on the board,
a simulated clock in the tests) and compare times only through ``clock.ticks_diff``, because
MicroPython's ticks wrap around.
"""
# ruff: noqa: UP031  (MicroPython-compatible %-formatting on purpose)

TYPE_CHECKING = False  # mypy reads the block below; the board never runs it
if TYPE_CHECKING:
    from firmware.interfaces import Clock

CARD_HOLD_MS = 500
"""A card is reported when it arrives: when it was not seen in the last 500 ms (protocol)."""
KEY_STABLE_MS = 10
"""A key changes only after its new state held for 10 ms (protocol, ``K`` lines)."""


class CardPresence:
    """Which tags one antenna has seen lately, so that each placement is reported once.

    ``seen(uid, now)`` is true when ``uid`` arrives: it was not seen in the last ``hold_ms``.
    A card left on the reader is seen on every poll and reported only the first time; lifted
    and put down again after more than ``hold_ms`` it is a new placement.
    """

    def __init__(self, clock: "Clock", hold_ms: int = CARD_HOLD_MS) -> None:
        self._clock = clock
        self.hold_ms = hold_ms
        self._last: dict[bytes, int] = {}

    def seen(self, uid: bytes, now: int) -> bool:
        self.forget_old(now)
        arrived = uid not in self._last
        self._last[uid] = now
        return arrived

    def touch(self, now: int) -> None:
        """A tag answered but could not be read: those seen lately are taken as still there."""
        self.forget_old(now)
        for uid in self._last:
            self._last[uid] = now

    def forget_old(self, now: int) -> None:
        for uid in list(self._last):
            if self._clock.ticks_diff(now, self._last[uid]) >= self.hold_ms:
                del self._last[uid]

    def __len__(self) -> int:
        return len(self._last)


def ghost_rows(raw: "list[int]") -> "list[int]":
    """Rows whose reading may include ghost keys.

    On a pad without a diode per key, three keys at three corners of a rectangle also close
    the fourth, so such a reading cannot be told from four keys. A row that reads two or more
    keys while sharing a column with another row that reads any is ambiguous. (The same rule
    as the Pi's ``hardware/matrix.py``: any two keys at once are never ambiguous.)
    """
    suspect = []
    for i in range(len(raw)):
        bits = raw[i]
        if bits & (bits - 1) == 0:  # fewer than two keys in this row
            continue
        for j in range(len(raw)):
            if j != i and bits & raw[j]:
                if i not in suspect:
                    suspect.append(i)
                if j not in suspect:
                    suspect.append(j)
    return suspect


class KeyDebouncer:
    """The debounced state of one seat's key matrix, ``rows`` x ``columns``.

    ``update(raw, now)`` takes one scan (a bitmask per row, bit c set when column c reads
    the key as closed) and returns the keys that changed as ``(row, column, down)``, in row
    and column order. A key changes only after every scan for ``stable_ms`` has read it in
    its new state, so contact bounce yields nothing and a held key yields one ``down``; there
    is no auto-repeat. Rows that may hold ghost keys keep their last state until the pattern
    goes away (``ghost_filter``; turn it off for pads with a diode per key).
    """

    def __init__(self, clock: "Clock", rows: int, columns: int,
                 stable_ms: int = KEY_STABLE_MS, ghost_filter: bool = True) -> None:
        self._clock = clock
        self.rows = rows
        self.columns = columns
        self.stable_ms = stable_ms
        self.ghost_filter = ghost_filter
        self._mask = (1 << columns) - 1
        self.state = [0] * rows
        """The debounced bitmask of each row."""
        self._since: list[list[int | None]] = [[None] * columns for _ in range(rows)]

    def is_down(self, row: int, column: int) -> bool:
        return bool(self.state[row] >> column & 1)

    def update(self, raw: "list[int]", now: int) -> "list[tuple[int, int, bool]]":
        if len(raw) != self.rows:
            raise ValueError("expected %d rows" % self.rows)
        sample = [bits & self._mask for bits in raw]
        if self.ghost_filter:
            for r in ghost_rows(sample):
                sample[r] = self.state[r]
        changes = []
        for r in range(self.rows):
            differ = sample[r] ^ self.state[r]
            since = self._since[r]
            for c in range(self.columns):
                if not differ >> c & 1:
                    since[c] = None
                    continue
                start = since[c]
                if start is None:
                    since[c] = start = now
                if self._clock.ticks_diff(now, start) < self.stable_ms:
                    continue
                since[c] = None
                self.state[r] ^= 1 << c
                changes.append((r, c, bool(self.state[r] >> c & 1)))
        return changes
