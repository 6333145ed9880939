"""Simulated seat keypads wired to a board's key matrix pins, as hardware/README.md wires them.

Five row lines are shared by the seats, each seat's row wires joined to them through a diode
(so a seat's rows are only ever pulled low, never joined to another seat's); each seat has
its own four columns with pull-ups. Without a diode per key, closed keys join rows and
columns of one pad into nets, so three keys at three corners of a rectangle pull the fourth
corner's column too: ghost keys happen here as they do on a real membrane pad.

``FakeKeypads`` is ``hw.circuit``: the board's input pins ask it for their level.
MicroPython-compatible, like tests/firmware/fakes.py.
"""

KEYS = (
    ("1", "2", "3", "ALERT"),
    ("4", "5", "6", "UNDO"),
    ("7", "C", "D", "INFO"),
    ("H", "S", "NT", "DIR"),
    ("PASS", "X", "XX", "OK"),
)


def key_position(name):
    for row in range(len(KEYS)):
        if name in KEYS[row]:
            return row, KEYS[row].index(name)
    raise ValueError("no key " + name)


class FakeKeypads:
    """The pads at the seats; ``press``/``release`` close and open a key's contact."""

    def __init__(self, hw, rows, columns, key_diodes=False):
        self.hw = hw
        self.rows = rows  # row pin numbers
        self.columns = columns  # seat -> column pin numbers
        self.key_diodes = key_diodes
        self.closed = {}  # seat -> list of (row, column) whose contact is closed
        for seat in columns:
            self.closed[seat] = []
        self.reads = 0

    def press(self, seat, name):
        position = key_position(name)
        if position not in self.closed[seat]:
            self.closed[seat].append(position)

    def release(self, seat, name):
        position = key_position(name)
        if position in self.closed[seat]:
            self.closed[seat].remove(position)

    def set(self, seat, name, down):
        if down:
            self.press(seat, name)
        else:
            self.release(seat, name)

    def level(self, number):
        self.reads += 1
        for seat in self.columns:
            if number in self.columns[seat]:
                return self._column_level(seat, self.columns[seat].index(number))
        return 1

    def _column_level(self, seat, column):
        low_rows = [r for r in range(len(self.rows)) if self.hw.level(self.rows[r]) == 0]
        if not low_rows:
            return 1
        closed = self.closed[seat]
        if self.key_diodes:
            for row, col in closed:
                if col == column and row in low_rows:
                    return 0
            return 1
        # Without key diodes: the net of the pulled-low row, through closed contacts.
        rows_reached = list(low_rows)
        columns_reached = []
        grew = True
        while grew:
            grew = False
            for row, col in closed:
                if row in rows_reached and col not in columns_reached:
                    columns_reached.append(col)
                    grew = True
                if col in columns_reached and row not in rows_reached:
                    rows_reached.append(row)
                    grew = True
        return 0 if column in columns_reached else 1
