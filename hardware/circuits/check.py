"""Do the boards agree with the pin maps the software reads? Each check returns the
disagreements found in a generated netlist, in words a builder can act on; none is a pass.

``check_hub`` walks the hub board from the Pi's header: every line the table's pin map names
(``PinMap.functions()``) must reach what that function needs (a row: four Schottky diodes to
the same row wire of the four seat connectors; a seat's column: that seat's connector and a
pull-up, and no other seat; SDA and SCL: a level shifter to every seat's I2C wire; the buzzer's
transistor; each LED), and no other GPIO may be wired. ``check_reader`` does the same for the
card reader module against the firmware's own wiring.
"""

from __future__ import annotations

from hardware.pinmap import HEADER, HEADER_3V3, HEADER_5V, HEADER_GND, PinMap
from laws import Seat

from . import catalogue as cat
from .cardreader import PICO_3V3, READER_PINS, SEATS, ReaderWiring, pico_pin
from .hub import SEAT_PINS
from .netlist import Netlist, Node


def _mpn(netlist: Netlist, ref: str) -> str:
    component = netlist.components.get(ref)
    return component.fields.get("MPN", "") if component else ""


def _other_end(netlist: Netlist, node: Node) -> frozenset[Node]:
    """The net at a two-pin part's other pin."""
    ref, pin = node
    return netlist.on_net(ref, "2" if pin == "1" else "1")


def check_hub(netlist: Netlist, pins: PinMap) -> list[str]:
    problems: list[str] = []
    pi = netlist.by_role("pi")
    seats = {seat: netlist.by_role(f"seat {seat.name}") for seat in Seat}
    if pi is None:
        return ["no Pi header (role 'pi') on the board"]
    missing = [seat.name for seat, conn in seats.items() if conn is None]
    if missing:
        return [f"no seat connector for {', '.join(missing)}"]
    conn = {seat: c.ref for seat, c in seats.items() if c is not None}
    seat_of = {ref: seat for seat, ref in conn.items()}
    three3 = netlist.on_net(pi.ref, HEADER_3V3[0])
    five = netlist.on_net(pi.ref, HEADER_5V[0])

    def at_header(what: str, gpio: int) -> frozenset[Node]:
        nodes = netlist.on_net(pi.ref, HEADER[gpio])
        if not nodes:
            problems.append(f"{what} is GPIO {gpio} in the pin map, but header pin "
                            f"{HEADER[gpio]} is not connected")
        return nodes

    def seat_nodes(nodes: frozenset[Node]) -> set[Node]:
        return {node for node in nodes if node[0] in seat_of}

    for row, gpio in enumerate(pins.keypad.rows):
        what = f"row {row}"
        nodes = at_header(what, gpio)
        cathodes = [n for n in nodes if _mpn(netlist, n[0]) == cat.SCHOTTKY.mpn and n[1] == "1"]
        reached: dict[Seat, str] = {}
        for cathode in cathodes:
            for ref, pin in seat_nodes(_other_end(netlist, cathode)):
                reached[seat_of[ref]] = pin
        if set(reached) != set(Seat) or len(cathodes) != 4:
            problems.append(f"{what} (GPIO {gpio}) reaches seats "
                            f"{''.join(s.name for s in reached) or 'none'} through "
                            f"{len(cathodes)} row diodes; it needs N, E, S and W through one "
                            "diode each, cathode at the Pi")
        for seat, pin in reached.items():
            if pin != str(SEAT_PINS[what]):
                problems.append(f"{what} (GPIO {gpio}) reaches {seat.name}'s connector at "
                                f"pin {pin}, not at its row {row} wire (pin {SEAT_PINS[what]})")
        if seat_nodes(nodes):
            problems.append(f"{what} (GPIO {gpio}) reaches a seat connector without a diode")
    for seat in Seat:
        for column, gpio in enumerate(pins.keypad.columns[seat]):
            what = f"{seat.name} column {column}"
            nodes = at_header(what, gpio)
            wanted = (conn[seat], str(SEAT_PINS[f"column {column}"]))
            others = seat_nodes(nodes) - {wanted}
            if wanted not in nodes:
                problems.append(f"{what} is GPIO {gpio} in the pin map, but that line does not "
                                f"reach {seat.name}'s connector pin {wanted[1]}")
            for ref, pin in sorted(others):
                problems.append(f"{what} (GPIO {gpio}) is also wired to "
                                f"{seat_of[ref].name}'s connector pin {pin}")
            pullups = [n for n in nodes if _mpn(netlist, n[0]) == cat.R_10K.mpn
                       and _other_end(netlist, n) == three3]
            if nodes and len(pullups) != 1:
                problems.append(f"{what} (GPIO {gpio}) has {len(pullups)} pull-ups to 3.3 V, "
                                "not one")
    for what, gpio in (("SDA", pins.sda), ("SCL", pins.scl)):
        nodes = at_header(what, gpio)
        sources = [n for n in nodes if _mpn(netlist, n[0]) == cat.NMOS.mpn and n[1] == "2"]
        if len(sources) != 1:
            problems.append(f"{what} (GPIO {gpio}) does not reach one level shifter's source")
            continue
        ref = sources[0][0]
        if netlist.on_net(ref, 1) != three3:
            problems.append(f"{what}'s level shifter {ref} has its gate off 3.3 V")
        high = netlist.on_net(ref, 3)
        want = {(conn[s], str(SEAT_PINS[what])) for s in Seat}
        if not want <= high:
            problems.append(f"{what}'s 5 V side does not reach every seat's pin "
                            f"{SEAT_PINS[what]}")
    nodes = at_header("buzzer", pins.buzzer)
    base_ok = any(_mpn(netlist, n[0]) == cat.R_1K.mpn and any(
        _mpn(netlist, m[0]) == cat.NPN.mpn and m[1] == "2" for m in _other_end(netlist, n))
        for n in nodes)
    if nodes and not base_ok:
        problems.append(f"buzzer (GPIO {pins.buzzer}) does not reach the transistor's base "
                        "through its resistor")
    for what, gpio, led in (("ok_led", pins.ok_led, cat.LED_GREEN),
                            ("error_led", pins.error_led, cat.LED_RED)):
        nodes = at_header(what, gpio)
        lit = any(_mpn(netlist, n[0]) == cat.R_330.mpn and any(
            _mpn(netlist, m[0]) == led.mpn and m[1] == "2" for m in _other_end(netlist, n))
            for n in nodes)
        if nodes and not lit:
            problems.append(f"{what} (GPIO {gpio}) does not reach the {led.value} LED's anode "
                            "through its resistor")
    for seat in Seat:
        for name, rail in (("+5V", five), ("GND", netlist.on_net(pi.ref, HEADER_GND[0]))):
            if (conn[seat], str(SEAT_PINS[name])) not in rail:
                problems.append(f"{seat.name}'s connector pin {SEAT_PINS[name]} is not on {name}")
    named = {HEADER[gpio] for _, gpio in pins.functions()}
    for gpio, phys in sorted(HEADER.items()):
        if phys not in named and netlist.net_of(pi.ref, phys) is not None:
            problems.append(f"GPIO {gpio} (header pin {phys}) is wired on the board but is not "
                            "in the pin map")
    return problems


def check_reader(netlist: Netlist, wiring: ReaderWiring | None = None) -> list[str]:
    wiring = wiring or ReaderWiring.from_firmware()
    problems: list[str] = []
    pico = netlist.by_role("pico")
    if pico is None:
        return ["no Pico (role 'pico') on the board"]
    supply = netlist.on_net(pico.ref, PICO_3V3)
    bus = {"SCK": wiring.sck, "MOSI": wiring.mosi, "MISO": wiring.miso}
    for seat in SEATS:
        reader = netlist.by_role(f"reader {seat}")
        if seat not in wiring.chip_select:
            if reader is not None:
                problems.append(f"a reader connector for {seat}, which the firmware does not "
                                "read")
            continue
        if reader is None:
            problems.append(f"no reader connector for {seat}")
            continue
        lines = dict(bus, CS=wiring.chip_select[seat])
        for line, gp in lines.items():
            at_pico = netlist.on_net(pico.ref, pico_pin(gp))
            if (reader.ref, str(READER_PINS[line])) not in at_pico:
                problems.append(f"{seat}'s reader {line} is GP{gp} in the firmware, but the "
                                f"board does not wire it to GP{gp}")
        for line in ("RST", "3V3"):
            if (reader.ref, str(READER_PINS[line])) not in supply:
                problems.append(f"{seat}'s reader {line} is not on the Pico's 3.3 V")
    chip_selects = [netlist.net_of(pico.ref, pico_pin(gp)) for gp in wiring.chip_select.values()]
    if len(set(chip_selects)) != len(chip_selects):
        problems.append("two readers share a chip select")
    return problems
