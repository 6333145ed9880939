"""The hub board: what sits between the Pi's 40-pin header and the four seat cables.

Generated from the table's pin map (``hardware/keypad.toml`` through ``PinMap``), so that
the copper and the drivers name the same GPIO:

- a 2x20 socket onto the Pi's header (J1);
- the 20 row diodes (BAT43 Schottky): each seat's five row wires reach the Pi's shared row
  lines through a diode each, cathode to the Pi, so seats never make phantom keys at each
  other (hardware/README.md, "Row diodes");
- 10 kOhm pull-ups from every seat's column lines to 3.3 V, for long seat cables;
- the I2C level shifter: one BSS138 per line (gate at 3.3 V), 4.7 kOhm pull-ups on the 5 V
  side (the Pi has its own 1.8 kOhm on the 3.3 V side), so the 5 V PCF8574 backpacks read
  the Pi's 3.3 V levels;
- the buzzer's NPN transistor (1 kOhm base resistor, 1N4148 across the buzzer), the green
  and red LEDs with 330 Ohm each;
- a 10 uF capacitor on the 5 V that feeds the four LCDs;
- one 2x7 box header per seat (J2-J5 for N, E, S, W): ``SEAT_PINS`` says which wire is what.
"""

from __future__ import annotations

from typing import Any

from hardware.pinmap import HEADER, HEADER_3V3, HEADER_5V, HEADER_GND, PinMap
from laws import Seat

from . import catalogue as cat
from ._skidl import net, new_circuit, place, skidl

#: The seat cable, 14 wires (2x7 IDC; pin n is wire n of the ribbon). SDA and SCL each sit
#: between ground wires, so the two I2C lines do not couple over a 1.5 m ribbon.
SEAT_PINS: dict[str, int] = {
    "row 0": 1, "row 1": 2, "row 2": 3, "row 3": 4, "row 4": 5,
    "column 0": 6, "column 1": 7, "column 2": 8, "column 3": 9,
    "GND": 10, "SDA": 11, "GND2": 12, "SCL": 13, "+5V": 14,
}
#: Seat connector references, one per seat.
SEAT_REFS: dict[Seat, str] = {Seat.N: "J2", Seat.E: "J3", Seat.S: "J4", Seat.W: "J5"}


def build(pins: PinMap | None = None) -> Any:
    """The hub board as a SKiDL circuit, wired from ``pins`` (default: keypad.toml)."""
    pins = pins or PinMap.load()
    layout = pins.keypad
    c = new_circuit()
    power = skidl().POWER
    gnd, v33, v5 = net(c, "GND"), net(c, "+3V3"), net(c, "+5V")
    for rail in (gnd, v33, v5):
        rail.drive = power
    pi = place(c, cat.PI_SOCKET, "J1", role="pi")
    for phys in HEADER_GND:
        gnd += pi[phys]
    for phys in HEADER_3V3:
        v33 += pi[phys]
    for phys in HEADER_5V:
        v5 += pi[phys]

    def gpio(bcm: int, name: str) -> Any:
        line = net(c, name)
        line += pi[HEADER[bcm]]
        return line

    seats = {seat: place(c, cat.SEAT_HEADER, SEAT_REFS[seat], role=f"seat {seat.name}")
             for seat in Seat}
    sda5, scl5 = net(c, "SDA_5V"), net(c, "SCL_5V")
    for conn in seats.values():
        gnd += conn[SEAT_PINS["GND"]], conn[SEAT_PINS["GND2"]]
        v5 += conn[SEAT_PINS["+5V"]]
        sda5 += conn[SEAT_PINS["SDA"]]
        scl5 += conn[SEAT_PINS["SCL"]]

    diode = 1
    for row, bcm in enumerate(layout.rows):
        line = gpio(bcm, f"ROW{row}")
        for seat in Seat:
            d = place(c, cat.SCHOTTKY, f"D{diode}", role=f"row {row} {seat.name}")
            diode += 1
            seat_row = net(c, f"{seat.name}_ROW{row}")
            line += d["K"]
            seat_row += d["A"], seats[seat][SEAT_PINS[f"row {row}"]]
    resistor = 1
    for seat in Seat:
        for column, bcm in enumerate(layout.columns[seat]):
            line = gpio(bcm, f"{seat.name}_COL{column}")
            r = place(c, cat.R_10K, f"R{resistor}", role=f"pull-up {seat.name} column {column}")
            resistor += 1
            line += r[1], seats[seat][SEAT_PINS[f"column {column}"]]
            v33 += r[2]

    # I2C level shifter (one BSS138 per line): source on the Pi's side, drain on the LCDs'.
    for n, (name, bcm, high) in enumerate((("SDA", pins.sda, sda5), ("SCL", pins.scl, scl5))):
        low = gpio(bcm, name)
        q = place(c, cat.NMOS, f"Q{n + 1}", role=f"level shifter {name}")
        pull = place(c, cat.R_4K7, f"R{resistor}", role=f"pull-up {name} 5V")
        resistor += 1
        v33 += q["G"]
        low += q["S"]
        high += q["D"], pull[1]
        v5 += pull[2]

    # Buzzer: GPIO -> 1k -> base; buzzer from +5V to the collector, 1N4148 across it.
    buzz = gpio(pins.buzzer, "BUZZER")
    base, collector = net(c, "BUZZER_B"), net(c, "BUZZER_C")
    rb = place(c, cat.R_1K, f"R{resistor}", role="buzzer base")
    resistor += 1
    q3 = place(c, cat.NPN, "Q3", role="buzzer driver")
    bz = place(c, cat.BUZZER, "BZ1", role="buzzer")
    flyback = place(c, cat.SIGNAL_DIODE, f"D{diode}", role="buzzer flyback")
    diode += 1
    buzz += rb[1]
    base += rb[2], q3["B"]
    gnd += q3["E"]
    collector += q3["C"], bz["-"], flyback["A"]
    v5 += bz["+"], flyback["K"]

    # LEDs: GPIO -> 330 Ohm -> anode; cathode to ground.
    for name, bcm, kind in (("OK_LED", pins.ok_led, cat.LED_GREEN),
                            ("ERROR_LED", pins.error_led, cat.LED_RED)):
        line = gpio(bcm, name)
        r = place(c, cat.R_330, f"R{resistor}", role=name.lower().replace("_", " "))
        resistor += 1
        led = place(c, kind, f"D{diode}", role=name.lower().replace("_", " "))
        diode += 1
        anode = net(c, f"{name}_A")
        line += r[1]
        anode += r[2], led["A"]
        gnd += led["K"]

    bulk = place(c, cat.CAP_10U, "C1", role="5V bulk")
    v5 += bulk["+"]
    gnd += bulk["-"]

    # The header's GPIO that the pin map does not use (0 and 1, kept for a HAT's ID EEPROM,
    # and any other left free) stay unconnected, on purpose.
    used = {HEADER[gpio] for _, gpio in pins.functions()}
    for phys, pin in ((p, pi[p]) for p in range(1, 41)):
        if phys not in used and pin.net is None:
            pin.do_erc = False
    return c
