"""``bidbox table --config table.toml``: the table daemon on a Pi.
``bidbox table --sim``: the same daemon on simulated hardware, driven from the terminal.
``bidbox table --selftest --config table.toml``: check a built table's keys, displays, buzzer,
LEDs and card reader, with a pass/fail report (stop the bidbox-table service first).

In simulator mode each line typed is one action:

    N 1 H OK          North presses 1, H, OK (keys as on the pad: 1-7 C D H S NT PASS X XX
                      ALERT UNDO INFO DIR OK)
    scan SA [N]       the card reader reads the ace of spades (at North's slot)
    assign 1 1 2 1-4  round 1: NS pair 1, EW pair 2, boards 1 to 4 (what the director's
                      server sends; with a broker the server's commands arrive by MQTT)
    quit
"""

from __future__ import annotations

import argparse
import itertools
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from laws import Card, RulesError, Seat


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "table", help="run the table daemon (on a Pi, or simulated with --sim)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--config", type=Path, help="the table's TOML configuration")
    mode.add_argument("--sim", action="store_true", help="simulated hardware on this terminal")
    parser.add_argument("--broker", help="simulator: mqtt://user:password@host:port")
    parser.add_argument("--event", default="sim", help="simulator: event name (default sim)")
    parser.add_argument("--number", type=int, default=1, help="simulator: table number")
    parser.add_argument("--journal", type=Path, help="simulator: journal file (default: temp)")
    parser.add_argument("--language", default="en", choices=["en", "es"])
    parser.add_argument("--selftest", action="store_true",
                        help="with --config: check every key, display line, the buzzer, LEDs "
                             "and the card reader, then report (exit 0 if all passed)")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="self-test: seconds to wait at each step (default 20)")
    parser.add_argument("--json", action="store_true", help="self-test: the report as JSON")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.set_defaults(run=run, extras=("table",))


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.selftest:
        if args.config is None:
            print("bidbox table: --selftest needs --config", file=sys.stderr)
            return 2
        return _run_selftest(args, sys.stdout)
    if args.config is not None:
        return _run_config(args.config)
    return _run_sim(args, sys.stdin, sys.stdout)


def _run_config(path: Path) -> int:
    from tabled.config import ConfigError, load
    from tabled.runner import Table

    try:
        config = load(path)
    except ConfigError as error:
        print(f"bidbox table: {error}", file=sys.stderr)
        return 2
    Table(config).run_until_signal()
    return 0


def _run_selftest(args: argparse.Namespace, stdout: TextIO, *, pin_factory: Any = None,
                  i2c_bus: Any = None) -> int:
    """Build the table's drivers from its configuration (not the daemon) and run the checks.
    ``pin_factory`` and ``i2c_bus`` are for the tests' simulated hardware."""
    import contextlib
    import queue

    from hardware.cardreader import CardReader
    from hardware.display import SeatDisplay, TerminalDisplay
    from hardware.errors import HardwareError
    from hardware.feedback import BuzzerLeds
    from hardware.keypad import MatrixKeypad
    from hardware.layout import KeypadLayout
    from hardware.lcd import CharacterLcd
    from hardware.selftest import SelfTest
    from tabled.config import ConfigError, load

    try:
        config = load(args.config)
        layout = (KeypadLayout.load(config.keypad_layout) if config.keypad_layout
                  else KeypadLayout.load())
    except (ConfigError, HardwareError, OSError) as error:
        print(f"bidbox table: {error}", file=sys.stderr)
        return 2
    events: queue.Queue[Any] = queue.Queue()
    with contextlib.ExitStack() as stack:
        displays: dict[Seat, SeatDisplay] = {}
        absent: dict[Seat, str] = {}
        if config.display == "terminal":
            displays = {seat: TerminalDisplay(seat, stdout) for seat in Seat}
        elif config.display == "lcd":
            bus = config.i2c_bus if i2c_bus is None else i2c_bus
            for seat in Seat:
                address = config.lcd_addresses.get(seat, 0x27)
                try:
                    lcd = CharacterLcd(bus, address)
                except HardwareError as error:
                    absent[seat] = f"LCD at I2C {address:#04x}: {error}"
                    continue
                displays[seat] = lcd
                stack.callback(lcd.close)
        feedback = None
        if any(p is not None for p in (config.buzzer, config.ok_led, config.error_led)):
            feedback = BuzzerLeds(config.buzzer, config.ok_led, config.error_led,
                                  pin_factory=pin_factory)
            stack.callback(feedback.close)
        keypad = MatrixKeypad(events, layout, pin_factory=pin_factory)
        stack.callback(keypad.close)
        keypad.start()
        reader = None
        if config.reader_url:
            reader = CardReader(config.reader_url, events)
            stack.callback(reader.close)
            reader.start()

        def say(name: str, seat: Seat | None, text: str) -> None:
            if not args.json:
                print(f"{name}: {text}" + (f" ({seat.name})" if seat else ""), file=stdout,
                      flush=True)

        test = SelfTest(events, layout, displays=displays, feedback=feedback, reader=reader,
                        timeout=args.timeout, language=config.language, prompt=say,
                        absent=absent)
        report = test.run()
    print(report.json() if args.json else report.text(), file=stdout, flush=True)
    return 0 if report.passed else 1


def _run_sim(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from bidbox.stopping import Stopped, stop_on_signals
    from hardware.display import TerminalDisplay
    from hardware.feedback import TerminalFeedback
    from mqttlink import BrokerSettings
    from sim.simtable import SimulatedTable

    broker = BrokerSettings.from_url(args.broker) if args.broker else None
    with tempfile.TemporaryDirectory(prefix="bidbox-sim-") as folder:
        journal = args.journal or Path(folder) / "table.db"
        displays = {seat: TerminalDisplay(seat, stdout) for seat in Seat}
        # SIGTERM and SIGHUP (the terminal closed) stop the table as "quit" does: the
        # table thread stops, the journal closes and the uplink says "offline".
        with stop_on_signals() as signals, SimulatedTable(
                journal, event=args.event, number=args.number, broker=broker,
                displays=displays, feedback=TerminalFeedback(stream=stdout),
                language=args.language) as table:
            try:
                print(__doc__.split("\n\n", 1)[1], file=stdout, flush=True)
                commands = itertools.count(1)
                for line in stdin:
                    words = line.split()
                    if not words:
                        continue
                    if words[0] == "quit":
                        break
                    try:
                        _sim_action(table, words, commands)
                    except (ValueError, RulesError) as error:
                        print(f"? {error}", file=stdout)
            except Stopped:
                pass
            finally:
                with signals.shield():
                    table.stop()
    return 0


def _sim_action(table: Any, words: list[str], commands: Any) -> None:
    from tablemodel.wire import Command

    head = words[0].upper()
    if head == "SCAN":
        seat = Seat.from_str(words[2]) if len(words) > 2 else None
        table.scan(Card.from_str(words[1]), seat)
    elif head == "ASSIGN":
        if len(words) != 5:
            raise ValueError("assign ROUND NS-PAIR EW-PAIR FIRST-LAST")
        first, _, last = words[4].partition("-")
        boards = list(range(int(first), int(last or first) + 1))
        table.daemon.inbox.put(Command(f"local-{next(commands)}", "assign", {
            "round": int(words[1]), "ns": int(words[2]), "ew": int(words[3]),
            "boards": boards}))
    else:
        table.press(Seat.from_str(words[0]), *(w.upper() for w in words[1:]))
