"""The parts the table's boards are made of: what to order, and how each connects.

One ``PartKind`` per orderable part: its schematic pins (number, name, electrical kind), the
KiCad footprint a board house places, a manufacturer part number and a price. The circuits
(``hub``, ``cardreader``) place these; the bill of materials is read back from the generated
netlist, so it lists exactly what the board carries.

Part numbers: each is followed by where it was checked (read 2026-11-27): the maker's
datasheet where one was found, otherwise distributor listings that carry the exact number
(public bills of materials linking DigiKey or Mouser product pages). None was found wrong.

Prices: ``price_source`` says where each price comes from. A found price is a distributor's
single-quantity price seen (2026-11-27) in a stored copy of its product page or in a public
bill of materials quoting it; the pages carry no date of their own, and dollars are turned
into euros at ``USD_TO_EUR``, itself an assumption. Every other price is ``ESTIMATE``: the
project's own figure, not a quote. ``PRICES_DATED`` says so wherever a cost is printed.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.pinmap import HEADER, HEADER_3V3, HEADER_5V, HEADER_GND

PRICES_DATED = ("single quantities, euros: found prices seen 2026-11-27, the rest estimates; "
                "taxes and shipping not included")
ESTIMATE = "estimate"
USD_TO_EUR = 0.86
"""Euros to a dollar: an assumed rate (no published rate was looked up), for found prices."""


def usd(dollars: float) -> float:
    return round(dollars * USD_TO_EUR, 2)


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
    price_source: str = ESTIMATE


def _two(a: str = "1", b: str = "2") -> tuple[PinDef, ...]:
    return (PinDef(1, a), PinDef(2, b))


def _resistor(ohms: str, mpn: str) -> PartKind:
    # Yageo MFR-25 series: the maker's datasheet "Yageo_LR_MFR_1.pdf"
    # <https://www.yageo.com/upload/media/product/products/datasheet/lr/Yageo_LR_MFR_1.pdf>;
    # each of the four numbers is also on a Mouser "603-MFR-25FBF52-..." listing.
    return PartKind("R", "R", ohms,
                    "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
                    "Yageo", mpn, usd(0.10), _two(), "resistor, metal film 1 %, 0.25 W",
                    "USD 0.10, the 10k's DigiKey price (product 398336, in a public BOM), "
                    "taken for every value")


def _header(pins: int, footprint: str, mpn: str, manufacturer: str, price: float,
            description: str, price_source: str = ESTIMATE) -> PartKind:
    return PartKind(f"Conn_{pins}", "J", f"{pins}-way", footprint, manufacturer, mpn, price,
                    tuple(PinDef(n, f"{n}") for n in range(1, pins + 1)), description,
                    price_source)


R_10K = _resistor("10k", "MFR-25FBF52-10K")
R_4K7 = _resistor("4k7", "MFR-25FBF52-4K7")
R_1K = _resistor("1k", "MFR-25FBF52-1K")
R_330 = _resistor("330", "MFR-25FBF52-330R")
# Vishay BAT43-TAP: DigiKey 112-BAT43-TAPCT-ND, Mouser 78-BAT43-TAP (public BOMs).
SCHOTTKY = PartKind("D_Schottky", "D", "BAT43", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
                    "Vishay", "BAT43-TAP", 0.10, _two("K", "A"),
                    "Schottky diode, 30 V 200 mA: the seat row diodes")
# Vishay 1N4148-TAP: DigiKey 1N4148-TAPCT-ND (product 3104296).
SIGNAL_DIODE = PartKind("D", "D", "1N4148", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
                        "Vishay", "1N4148-TAP", 0.03, _two("K", "A"),
                        "signal diode: the buzzer's flyback diode")
# onsemi BC33725TA: DigiKey BC33725TACT-ND (product 1532787).
NPN = PartKind("Q_NPN_CBE", "Q", "BC337", "Package_TO_SOT_THT:TO-92_Inline",
               "onsemi", "BC33725TA", 0.10, (PinDef(1, "C"), PinDef(2, "B"), PinDef(3, "E")),
               "NPN transistor, 800 mA: drives the buzzer")
# onsemi BSS138 (SOT-23, case 318-08): named so in public BOMs; the maker's datasheet was
# not read here.
NMOS = PartKind("Q_NMOS_GSD", "Q", "BSS138", "Package_TO_SOT_SMD:SOT-23",
                "onsemi", "BSS138", 0.15, (PinDef(1, "G"), PinDef(2, "S"), PinDef(3, "D")),
                "N-MOSFET: one I2C line's 3.3 V / 5 V level shifter")
# Kingbright WP7113GD (green) and WP7113ID (red), 5 mm: the maker's datasheet
# <https://www.kingbrightusa.com/images/catalog/SPEC/WP7113GD.pdf> (VF 2.2 V at 20 mA);
# DigiKey product 1747662 for the green.
LED_GREEN = PartKind("LED", "D", "green", "LED_THT:LED_D5.0mm", "Kingbright", "WP7113GD", 0.20,
                     _two("K", "A"), "5 mm LED, green: 'ok'")
LED_RED = PartKind("LED", "D", "red", "LED_THT:LED_D5.0mm", "Kingbright", "WP7113ID", 0.20,
                   _two("K", "A"), "5 mm LED, red: 'error'")
# PUI Audio AI-1223-TWT-5V-2-R: the 5 V member of the AI-1223-TWT series (active magnetic
# indicator, 12 mm); public BOMs list its 3 V sibling AI-1223-TWT-3V-2-R and the older
# AI-1223-TWT-5V-R, datasheet <http://www.puiaudio.com/pdf/AI-1223-TWT-5V-R.pdf> (not read).
BUZZER = PartKind("Buzzer", "BZ", "active 5 V", "Buzzer_Beeper:Buzzer_12x9.5RM7.6",
                  "PUI Audio", "AI-1223-TWT-5V-2-R", 1.50, _two("-", "+"),
                  "active magnetic buzzer, 12 mm, 5 V")
# Panasonic ECA-1HM100: DigiKey P5178-ND, Mouser 667-ECA-1HM100 ("2mm spacing"); DigiKey and
# Mouser also list it as ECA-1HM100I (P10425CT-ND), the same capacitor.
CAP_10U = PartKind("C_Polarized", "C", "10u", "Capacitor_THT:CP_Radial_D5.0mm_P2.00mm",
                   "Panasonic", "ECA-1HM100", usd(0.17), _two("+", "-"),
                   "electrolytic capacitor, 10 uF 50 V: bulk supply decoupling",
                   "USD 0.17, DigiKey P5178-ND (in a public BOM)")


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


# Samtec SSW-120-01-T-D: DigiKey SAM1212-20-ND, "CONN RCPT 40POS 0.1 TIN PCB".
PI_SOCKET = PartKind("Raspberry_Pi_2x20", "J", "Pi GPIO",
                     "Connector_PinSocket_2.54mm:PinSocket_2x20_P2.54mm_Vertical",
                     "Samtec", "SSW-120-01-T-D", usd(2.90),
                     tuple(_pi_pin(n) for n in range(1, 41)),
                     "2x20 socket onto the Pi's 40-pin header",
                     "USD 2.90, DigiKey SAM1212-20-ND (in a public DigiKey BOM export)")

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

# Wurth 61201421621: DigiKey 732-5397-ND, "IDC box header 2x7, 2.54 mm"
# <https://www.digikey.com/en/products/detail/w%C3%BCrth-elektronik/61201421621/4846920>.
SEAT_HEADER = _header(14, "Connector_IDC:IDC-Header_2x07_P2.54mm_Vertical",
                      "61201421621", "Wurth Elektronik", 0.60,
                      "2x7 shrouded box header: one seat's 14-way ribbon")
# Wurth 61300811121: DigiKey 732-5321-ND, 1x8 male header 2.54 mm
# <https://www.digikey.com/en/products/detail/wurth-elektronik/61300811121/4846907>.
READER_HEADER = _header(8, "Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical",
                        "61300811121", "Wurth Elektronik", usd(0.36),
                        "1x8 pin header: one MFRC522 module's cable",
                        "USD 0.36, DigiKey 732-5321-ND (in a public BOM)")
# Raspberry Pi SC0915 (the Pico): DigiKey product 13624793; the product brief gives the
# form factor, 21 x 51 mm.
PICO = PartKind("RaspberryPi_Pico", "U", "Raspberry Pi Pico",
                "Module:RaspberryPi_Pico_Common_THT", "Raspberry Pi", "SC0915", usd(4.00),
                tuple(_pico_pin(n) for n in range(1, 41)),
                "RP2040 board with MicroPython, on USB to the table's Pi",
                "USD 4.00, DigiKey SC0915 (product 13624793, in a public BOM)")

#: Not on a board, but a table needs them; counted in the table's cost.
OFF_BOARD: tuple[tuple[str, str, int, float, str], ...] = (
    # (what, part number or kind, quantity per table, euros each, where the price comes from)
    # The Pi 4's order number is not given: SC0193 (used before) is listed by one reseller for
    # the 4 GB board, and the 2 GB board's number could not be confirmed. Order by name.
    ("Raspberry Pi 4 Model B 2 GB (or Pi 5)", "Pi 4 Model B 2 GB", 1, usd(45.0),
     "USD 45, the maker's launch price of the 2 GB Pi 4 (June 2019, as reported by "
     "multiplayer.it); the Pi 5 launched at USD 60 for 4 GB (September 2023)"),
    # SC0218 is the maker's USB-C supply (DigiKey lists "RPI-USB-C-power-supply" as SC0218).
    ("official power supply, microSD card 32 GB", "SC0218 + 32 GB A1 card", 1, 20.0, ESTIMATE),
    ("20-key (4x5) membrane keypad", "4x5 membrane matrix", 4, 3.0, ESTIMATE),
    ("20x4 LCD with PCF8574 I2C backpack", "HD44780 2004 + PCF8574", 4, 8.0,
     ESTIMATE + " (a branded backpack alone: USD 6.50, DFRobot DFR0175)"),
    ("14-way ribbon cable 1.5 m with 2x7 IDC plugs", "AWG28 1.27 mm ribbon", 4, 2.5, ESTIMATE),
    ("MFRC522 13.56 MHz reader module", "RC522 module", 4, 2.0,
     ESTIMATE + " (domoticx.com: 'less than four dollars')"),
    ("8-way cable to a seat's reader, < 50 cm", "Dupont 8-way", 4, 1.0, ESTIMATE),
    ("USB cable, Pico to Pi", "micro-USB data cable", 1, 2.0, ESTIMATE),
    ("M2.5 and M3 screws and standoffs", "assorted", 1, 2.0, ESTIMATE),
)

#: A two-layer board from a board house, per board at 10 boards (the usual minimum), euros:
#: an estimate (no board house's price page was found).
BOARD_PRICE = {"hub": 2.0, "cardreader": 2.0}
#: PLA for the printed parts, euros per kilogram: an estimate (no dated price found).
FILAMENT_PRICE_PER_KG = 20.0
#: PLA's density, g/cm3: 1.25 (fabbaloo.com, "How to compare the real costs of 3D printing
#: filaments", 2016).
FILAMENT_DENSITY = 1.25
#: An NTAG213 sticker, one per card, 52 per deck (a deck per board): an estimate
#: (iotclass.org lists NTAG213 tags at USD 0.20 at volume, undated).
STICKER_PRICE = 0.15
