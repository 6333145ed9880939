"""The parts the table's boards are made of: what to order, and how each connects.

One ``PartKind`` per orderable part: its schematic pins (number, name, electrical kind), the
KiCad footprint a board house places, a manufacturer part number and an estimated price. The
circuits (``hub``, ``cardreader``) place these; the bill of materials is read back from the
generated netlist, so it lists exactly what the board carries.

Prices are estimates in euros for single quantities in 2024 (the project's figures, as in
hardware/README.md's old table): good enough to compare a table with a commercial scorer,
not a quote. ``PRICES_DATED`` says so wherever a cost is printed.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.pinmap import HEADER, HEADER_3V3, HEADER_5V, HEADER_GND

PRICES_DATED = "2024 estimates, single quantities, euros"


@dataclass(frozen=True)
class PinDef:
    number: int
    name: str
    kind: str = "passive"      # passive | bidir | power_out | power_in | no_connect


@dataclass(frozen=True)
class PartKind:
    name: str                  # the schematic symbol's name
    prefix: str                # reference designator prefix: R, D, Q, J, U...
    value: str
    footprint: str             # KiCad library:footprint
    manufacturer: str
    mpn: str                   # manufacturer part number
    price: float               # euros each, see PRICES_DATED
    pins: tuple[PinDef, ...]
    description: str = ""


def _two(a: str = "1", b: str = "2") -> tuple[PinDef, ...]:
    return (PinDef(1, a), PinDef(2, b))


def _resistor(ohms: str, mpn: str) -> PartKind:
    return PartKind("R", "R", ohms,
                    "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
                    "Yageo", mpn, 0.05, _two(), "resistor, metal film 1 %, 0.25 W")


def _header(pins: int, footprint: str, mpn: str, manufacturer: str, price: float,
            description: str) -> PartKind:
    return PartKind(f"Conn_{pins}", "J", f"{pins}-way", footprint, manufacturer, mpn, price,
                    tuple(PinDef(n, f"{n}") for n in range(1, pins + 1)), description)


R_10K = _resistor("10k", "MFR-25FBF52-10K")
R_4K7 = _resistor("4k7", "MFR-25FBF52-4K7")
R_1K = _resistor("1k", "MFR-25FBF52-1K")
R_330 = _resistor("330", "MFR-25FBF52-330R")
SCHOTTKY = PartKind("D_Schottky", "D", "BAT43", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
                    "Vishay", "BAT43-TAP", 0.10, _two("K", "A"),
                    "Schottky diode, 30 V 200 mA: the seat row diodes")
SIGNAL_DIODE = PartKind("D", "D", "1N4148", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
                        "Vishay", "1N4148-TAP", 0.03, _two("K", "A"),
                        "signal diode: the buzzer's flyback diode")
NPN = PartKind("Q_NPN_CBE", "Q", "BC337", "Package_TO_SOT_THT:TO-92_Inline",
               "onsemi", "BC33725TA", 0.10, (PinDef(1, "C"), PinDef(2, "B"), PinDef(3, "E")),
               "NPN transistor, 800 mA: drives the buzzer")
NMOS = PartKind("Q_NMOS_GSD", "Q", "BSS138", "Package_TO_SOT_SMD:SOT-23",
                "onsemi", "BSS138", 0.15, (PinDef(1, "G"), PinDef(2, "S"), PinDef(3, "D")),
                "N-MOSFET: one I2C line's 3.3 V / 5 V level shifter")
LED_GREEN = PartKind("LED", "D", "green", "LED_THT:LED_D5.0mm", "Kingbright", "WP7113GD", 0.20,
                     _two("K", "A"), "5 mm LED, green: 'ok'")
LED_RED = PartKind("LED", "D", "red", "LED_THT:LED_D5.0mm", "Kingbright", "WP7113ID", 0.20,
                   _two("K", "A"), "5 mm LED, red: 'error'")
BUZZER = PartKind("Buzzer", "BZ", "active 5 V", "Buzzer_Beeper:Buzzer_12x9.5RM7.6",
                  "PUI Audio", "AI-1223-TWT-5V-2-R", 1.50, _two("-", "+"),
                  "active magnetic buzzer, 12 mm, 5 V")
CAP_10U = PartKind("C_Polarized", "C", "10u", "Capacitor_THT:CP_Radial_D5.0mm_P2.00mm",
                   "Panasonic", "ECA-1HM100", 0.10, _two("+", "-"),
                   "electrolytic capacitor, 10 uF 50 V: bulk supply decoupling")


def _pi_pin(number: int) -> PinDef:
    # The hub takes its power from the Pi's header: power inputs, with the rails flagged as
    # driven (several pins of one rail are one supply, not outputs fighting each other).
    gpio = {phys: bcm for bcm, phys in HEADER.items()}
    if number in HEADER_3V3:
        return PinDef(number, "3V3", "power_in")
    if number in HEADER_5V:
        return PinDef(number, "5V", "power_in")
    if number in HEADER_GND:
        return PinDef(number, "GND", "power_in")
    return PinDef(number, f"GPIO{gpio[number]}", "bidir")


PI_SOCKET = PartKind("Raspberry_Pi_2x20", "J", "Pi GPIO",
                     "Connector_PinSocket_2.54mm:PinSocket_2x20_P2.54mm_Vertical",
                     "Samtec", "SSW-120-01-T-D", 3.50,
                     tuple(_pi_pin(n) for n in range(1, 41)),
                     "2x20 socket onto the Pi's 40-pin header")

#: The Pico's physical pins (its datasheet's pinout): GPIO number, or what else it is.
PICO_GP: dict[int, int] = {1: 0, 2: 1, 4: 2, 5: 3, 6: 4, 7: 5, 9: 6, 10: 7, 11: 8, 12: 9,
                           14: 10, 15: 11, 16: 12, 17: 13, 19: 14, 20: 15, 21: 16, 22: 17,
                           24: 18, 25: 19, 26: 20, 27: 21, 29: 22, 31: 26, 32: 27, 34: 28}
PICO_OTHER: dict[int, tuple[str, str]] = {
    3: ("GND", "power_in"), 8: ("GND", "power_in"), 13: ("GND", "power_in"),
    18: ("GND", "power_in"), 23: ("GND", "power_in"), 28: ("GND", "power_in"),
    33: ("AGND", "power_in"), 38: ("GND", "power_in"), 30: ("RUN", "passive"),
    35: ("ADC_VREF", "passive"), 36: ("3V3", "power_out"), 37: ("3V3_EN", "passive"),
    39: ("VSYS", "passive"), 40: ("VBUS", "power_out")}


def _pico_pin(number: int) -> PinDef:
    if number in PICO_GP:
        return PinDef(number, f"GP{PICO_GP[number]}", "bidir")
    name, kind = PICO_OTHER[number]
    return PinDef(number, name, kind)

SEAT_HEADER = _header(14, "Connector_IDC:IDC-Header_2x07_P2.54mm_Vertical",
                      "61201421621", "Wurth Elektronik", 0.60,
                      "2x7 shrouded box header: one seat's 14-way ribbon")
READER_HEADER = _header(8, "Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical",
                        "61300811121", "Wurth Elektronik", 0.30,
                        "1x8 pin header: one MFRC522 module's cable")
PICO = PartKind("RaspberryPi_Pico", "U", "Raspberry Pi Pico",
                "Module:RaspberryPi_Pico_Common_THT", "Raspberry Pi", "SC0915", 4.50,
                tuple(_pico_pin(n) for n in range(1, 41)),
                "RP2040 board with MicroPython, on USB to the table's Pi")

#: Not on a board, but a table needs them; counted in the table's cost.
OFF_BOARD: tuple[tuple[str, str, int, float], ...] = (
    # (what, part number or kind, quantity per table, euros each)
    ("Raspberry Pi 4 Model B 2 GB (or Pi 5 2 GB)", "SC0193", 1, 50.0),
    ("official power supply, microSD card 32 GB", "SC0218 + 32 GB A1 card", 1, 20.0),
    ("20-key (4x5) membrane keypad", "4x5 membrane matrix", 4, 3.0),
    ("20x4 LCD with PCF8574 I2C backpack", "HD44780 2004 + PCF8574", 4, 8.0),
    ("14-way ribbon cable 1.5 m with 2x7 IDC plugs", "AWG28 1.27 mm ribbon", 4, 2.5),
    ("MFRC522 13.56 MHz reader module", "RC522 module", 4, 2.0),
    ("8-way cable to a seat's reader, < 50 cm", "Dupont 8-way", 4, 1.0),
    ("USB cable, Pico to Pi", "micro-USB data cable", 1, 2.0),
    ("M2.5 and M3 screws and standoffs", "assorted", 1, 2.0),
)

#: A two-layer board from a board house, per board at 10 boards (the usual minimum), euros.
BOARD_PRICE = {"hub": 2.0, "cardreader": 2.0}
#: PLA for the printed parts, euros per kilogram; density g/cm3.
FILAMENT_PRICE_PER_KG = 20.0
FILAMENT_DENSITY = 1.24
#: An NTAG213 sticker, one per card, 52 per deck (a deck per board).
STICKER_PRICE = 0.15
