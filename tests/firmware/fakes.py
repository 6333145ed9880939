"""Simulated board hardware behind the shim's shapes: clock, USB serial, pins, SPI, I2C.

``FakeHw`` stands in for ``firmware.shim`` in a board's ``build(hw)``. Time moves only when a
test (or the firmware's own ``sleep_ms``) moves it, and ticks wrap around at 2**30 as
MicroPython's do, so a test can start the clock just before the wrap.

Written in the firmware's MicroPython-compatible style: tests/firmware/test_micropython.py
runs scenarios with these fakes under real MicroPython too.
"""

TICKS_PERIOD = 1 << 30
TICKS_HALF = TICKS_PERIOD // 2


class FakeClock:
    """MicroPython's ``time.ticks_*`` over simulated milliseconds."""

    def __init__(self, start=0):
        self._ms = start % TICKS_PERIOD
        self._us = 0
        self.slept_ms = 0

    def ticks_ms(self):
        return self._ms

    def ticks_diff(self, end, start):
        return ((end - start + TICKS_HALF) % TICKS_PERIOD) - TICKS_HALF

    def ticks_add(self, ticks, delta):
        return (ticks + delta) % TICKS_PERIOD

    def advance(self, ms):
        self._ms = (self._ms + ms) % TICKS_PERIOD

    def sleep_ms(self, ms):
        self.slept_ms += ms
        self.advance(ms)

    def now_us(self):
        """The time to the microsecond, for ``us_since``: (ticks_ms, microseconds past it)."""
        return (self._ms, self._us)

    def us_since(self, then):
        """Microseconds from ``then`` (a ``now_us()``) to now, across the ticks' wrap."""
        return self.ticks_diff(self._ms, then[0]) * 1000 + self._us - then[1]

    def sleep_us(self, us):
        self._us += us
        if self._us >= 1000:
            self.advance(self._us // 1000)
            self._us = self._us % 1000


class FakeSerial:
    """The USB serial line, device side: the host's bytes in ``inbox``, ours in ``outbox``."""

    def __init__(self):
        self.inbox = b""
        self.outbox = b""

    def read(self):
        data = self.inbox
        self.inbox = b""
        return data

    def write(self, data):
        self.outbox += bytes(data)

    def take(self):
        """What the device wrote since the last take."""
        data = self.outbox
        self.outbox = b""
        return data


class FakePin:
    """``machine.Pin``: an output remembers its level; an input asks the circuit."""

    def __init__(self, hw, number, mode, level=1):
        self.hw = hw
        self.number = number
        self.mode = mode
        self.level = level

    def value(self, level=None):
        if level is None:
            if self.mode == "in":
                return self.hw.read_input(self.number)
            return self.level
        self.level = 1 if level else 0
        self.hw.pin_changed(self.number, self.level)
        return None


class FakeSpi:
    """An SPI bus; the peer whose chip-select pin is low takes part in each transfer."""

    def __init__(self, hw):
        self.hw = hw
        self.transfers = 0

    def _peer(self):
        selected = [self.hw.spi_peers[n] for n in self.hw.spi_peers
                    if n in self.hw.pins and self.hw.pins[n].level == 0]
        if len(selected) > 1:
            raise AssertionError("two chip selects low at once")
        return selected[0] if selected else None

    def write(self, data):
        self.write_readinto(data, bytearray(len(data)))

    def write_readinto(self, data, into):
        self.transfers += 1
        peer = self._peer()
        for i in range(len(data)):
            into[i] = peer.exchange(data[i]) if peer is not None else 0xFF


class FakeI2c:
    """An I2C bus; an address with no peer (or an unpowered one) does not ACK: OSError."""

    def __init__(self):
        self.peers = {}

    def _peer(self, addr):
        peer = self.peers.get(addr)
        if peer is None or not peer.powered:
            raise OSError(19, "ENODEV")  # what MicroPython raises on a missing ACK
        return peer

    def writeto(self, addr, data):
        self._peer(addr).i2c_write(bytes(data))
        return len(data)

    def readfrom(self, addr, nbytes):
        return self._peer(addr).i2c_read(nbytes)


class FakeHw:
    """The shim for a simulated board: what ``firmware.shim`` gives on a real one."""

    def __init__(self, start_ms=0):
        self.clock = FakeClock(start_ms)
        self.serial = FakeSerial()
        self.pins = {}
        self.spi_peers = {}  # chip-select pin number -> peer
        self.spi_bus = FakeSpi(self)
        self.i2c_buses = {}  # (bus, sda, scl) -> FakeI2c
        self.circuit = None  # answers input pins (a key matrix)

    # -- the shim's functions ----------------------------------------------------------------

    def Clock(self):
        return self.clock

    def UsbSerial(self):
        return self.serial

    def _pin(self, number, mode, level):
        if number in self.pins:
            raise AssertionError("pin %d used twice" % number)  # noqa: UP031
        pin = FakePin(self, number, mode, level)
        self.pins[number] = pin
        return pin

    def output_pin(self, number, value=1):
        return self._pin(number, "out", value)

    def open_drain_pin(self, number):
        return self._pin(number, "od", 1)

    def input_pin(self, number, pull_up=True):
        return self._pin(number, "in", 1)

    def spi(self, bus, sck, mosi, miso, baudrate=1000000):
        for number in (sck, mosi, miso):
            self._pin(number, "spi", 0)
        return self.spi_bus

    def i2c(self, bus, sda, scl, freq=100000):
        key = (bus, sda, scl)
        if key not in self.i2c_buses:
            self._pin(sda, "i2c", 1)
            self._pin(scl, "i2c", 1)
            self.i2c_buses[key] = FakeI2c()
        return self.i2c_buses[key]

    # -- the circuit -------------------------------------------------------------------------

    def pin_changed(self, number, level):
        peer = self.spi_peers.get(number)
        if peer is not None:
            peer.chip_select(level == 0)

    def read_input(self, number):
        if self.circuit is None:
            return 1
        return self.circuit.level(number)

    def level(self, number):
        return self.pins[number].level
