"""The bought parts the enclosures are built around, in millimetres, as named parameters.

Each figure says where it comes from. Checked against a published document: the Raspberry Pi
HAT mechanical specification, the Raspberry Pi Pico datasheet, a 2004A LCD module datasheet,
the Kingbright 5 mm LED datasheet. Where no published figure was found (the keypad, most of the
LCD's outline, the Pi's jacks), the comment says "not found": those are the common catalogue
values, unconfirmed. Measure what you bought: every figure is a parameter of ``SeatUnit`` and
``HubBox``, and docs/builder.en.md lists the unconfirmed ones.

Documents (read 2026-11-27):

- HAT: "Raspberry Pi HAT board mechanical specification", hat-board-mechanical.pdf in
  <https://github.com/raspberrypi/hats>.
- PICO: "Raspberry Pi Pico Datasheet", chapter 2, Mechanical Specification,
  <https://datasheets.raspberrypi.com/pico/pico-datasheet.pdf>; and the Pico product brief,
  <https://datasheets.raspberrypi.com/pico/pico-product-brief.pdf>.
- LCD2004: "LCD2004" module datasheet (20 characters x 4 lines, HD44780), mechanical
  specifications table, <https://cdn.shopify.com/s/files/1/0528/5163/8463/files/lcd2004.pdf>.
- WP7113: Kingbright "T-1 3/4 (5mm) solid state lamp" datasheets, WP7113 series,
  <https://www.kingbrightusa.com/images/catalog/SPEC/WP7113GD.pdf>.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Lcd2004:
    """20x4 HD44780 module (2004A outline) with a PCF8574 backpack soldered behind."""

    pcb_width: float = 98.0         # LCD2004: module size 98.0 x 60.0
    pcb_depth: float = 60.0         # LCD2004
    pcb_thickness: float = 1.6      # not found (the usual board; LCD2004 gives only the total)
    bezel_width: float = 87.0       # not found: the frame around the glass, on the PCB's front
    bezel_depth: float = 40.0       # not found
    bezel_height: float = 9.0       # not found: above the PCB (LCD2004 gives the whole module
    #                                 as 9.2 thick, 13.5 with an LED backlight)
    view_width: float = 76.0        # LCD2004: viewing area 76.0 x 25.2, four lines of twenty
    view_depth: float = 25.2        # LCD2004
    hole_pitch_x: float = 93.0      # not found: mounting holes, centred on the PCB
    hole_pitch_y: float = 55.0      # not found
    hole_diameter: float = 2.5      # not found
    backpack_height: float = 12.0   # not found: header, PCF8574 board and trimmer behind


@dataclass(frozen=True)
class MembraneKeypad:
    """20-key (4 columns x 5 rows) membrane keypad, self-adhesive, with a 9-wire tail."""

    # Not found: no dimensioned listing of the 4x5 pad turned up (one listing of a 5x4 pad
    # gives "~77 x 69", the 4x4 pad's outline, so it is not trusted). Measure yours.
    width: float = 77.0
    depth: float = 98.0
    thickness: float = 0.9
    tail_width: float = 20.0
    connector_width: float = 23.0   # 9 x 2.54 mm = 22.9: the 1x9 housing crimped on the tail
    connector_thickness: float = 2.6  # not found


@dataclass(frozen=True)
class RaspberryPi:
    """Raspberry Pi 4 Model B or Pi 5: the same board outline and holes."""

    width: float = 85.0             # not checked: the Pi 4 drawing (rpi_MECH_4b_4p0.pdf) could
    #                                 not be read here; Simple English Wikipedia says 85.6
    depth: float = 56.0             # HAT: 3.5 + 49 + 3.5, the holes 3.5 in from both edges
    pcb_thickness: float = 1.4      # not found
    height: float = 16.0            # not found: tallest part above the PCB (USB, Ethernet)
    hole_pitch_x: float = 58.0      # HAT: 58 between the holes
    hole_pitch_y: float = 49.0      # HAT: 49
    hole_inset: float = 3.5         # HAT: hole centres 3.5 from the left and bottom edges
    hole_diameter: float = 2.75     # HAT: M2.5 holes drilled to 2.75 +/- 0.05
    usb_c_from_left: float = 11.2   # not found: power socket centre along the long edge
    usb_c_width: float = 9.0        # not found
    usb_c_height: float = 3.3       # not found


@dataclass(frozen=True)
class HubHat:
    """The hub board (hardware.circuits.hub) at HAT size, on the Pi's header and holes."""

    width: float = 65.0             # HAT: 65 x 56 (56.5 only with an SMT header)
    depth: float = 56.0             # HAT
    above_pi: float = 12.5          # HAT asks for at least 8; this is a stacking header's
    #                                 height, not found for a named part
    tallest: float = 9.0            # not found: the 2x7 box headers above the hub board


@dataclass(frozen=True)
class Pico:
    width: float = 51.0             # PICO: "51x21mm 1mm thick PCB"
    depth: float = 21.0             # PICO
    hole_pitch_x: float = 47.0      # PICO's Figure 3 (a drawing; its text does not say)
    hole_pitch_y: float = 11.4      # PICO's Figure 3, likewise
    hole_diameter: float = 2.1      # PICO: "4x 2.1mm (+/- 0.05mm) drilled mounting holes"


@dataclass(frozen=True)
class Indicators:
    led_diameter: float = 5.0       # WP7113: T-1 3/4, 5 mm
    buzzer_diameter: float = 12.0   # the AI-1223's 12 mm (KiCad pairs it with the footprint
    #                                 Buzzer_12x9.5RM7.6); its own datasheet was not read
    buzzer_sound_hole: float = 3.0  # a choice, not a part's figure


@dataclass(frozen=True)
class Ribbon:
    """A 14-way 1.27 mm ribbon to a seat, or the 8-way cable to a reader."""

    width: float = 17.8             # 14 x 1.27 mm pitch = 17.78
    thickness: float = 1.2          # not found
