"""The bought parts the enclosures are built around, in millimetres, as named parameters.

Each figure is the part's nominal size from its maker's mechanical drawing (the Raspberry Pi
4/5 and Pico drawings; the common "2004A" 20x4 character LCD drawing; the PCF8574 backpack
sold for it), or, for parts sold without a drawing (the membrane keypad), the size as listed.
Measure what you bought: every figure is a parameter of ``SeatUnit`` and ``HubBox``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Lcd2004:
    """20x4 HD44780 module (2004A outline) with a PCF8574 backpack soldered behind."""

    pcb_width: float = 98.0
    pcb_depth: float = 60.0
    pcb_thickness: float = 1.6
    bezel_width: float = 87.0       # the black frame around the glass, on the PCB's front
    bezel_depth: float = 40.0
    bezel_height: float = 9.0       # above the PCB
    view_width: float = 76.0        # the viewing area: all four lines of twenty characters
    view_depth: float = 25.2
    hole_pitch_x: float = 93.0      # mounting holes, centred on the PCB
    hole_pitch_y: float = 55.0
    hole_diameter: float = 2.5
    backpack_height: float = 12.0   # header, PCF8574 board and contrast trimmer behind the PCB


@dataclass(frozen=True)
class MembraneKeypad:
    """20-key (4 columns x 5 rows) membrane keypad, self-adhesive, with a 9-wire tail."""

    width: float = 77.0
    depth: float = 98.0
    thickness: float = 0.9
    tail_width: float = 20.0
    connector_width: float = 23.0   # the 1x9 2.54 mm housing crimped on the tail
    connector_thickness: float = 2.6


@dataclass(frozen=True)
class RaspberryPi:
    """Raspberry Pi 4 Model B or Pi 5: the same board outline and holes."""

    width: float = 85.0
    depth: float = 56.0
    pcb_thickness: float = 1.4
    height: float = 16.0            # tallest part above the PCB (USB and Ethernet jacks)
    hole_pitch_x: float = 58.0
    hole_pitch_y: float = 49.0
    hole_inset: float = 3.5         # hole centres from the board's left and bottom edges
    hole_diameter: float = 2.7      # M2.5
    usb_c_from_left: float = 11.2   # power socket centre along the long edge
    usb_c_width: float = 9.0
    usb_c_height: float = 3.3


@dataclass(frozen=True)
class HubHat:
    """The hub board (hardware.circuits.hub) at HAT size, on the Pi's header and holes."""

    width: float = 65.0
    depth: float = 56.0
    above_pi: float = 12.5          # board's underside above the Pi's PCB (stacking header)
    tallest: float = 9.0            # the 2x7 box headers above the hub board


@dataclass(frozen=True)
class Pico:
    width: float = 51.0
    depth: float = 21.0
    hole_pitch_x: float = 47.0
    hole_pitch_y: float = 11.4
    hole_diameter: float = 2.1


@dataclass(frozen=True)
class Indicators:
    led_diameter: float = 5.0
    buzzer_diameter: float = 12.0
    buzzer_sound_hole: float = 3.0


@dataclass(frozen=True)
class Ribbon:
    """A 14-way 1.27 mm ribbon to a seat, or the 8-way cable to a reader."""

    width: float = 17.8
    thickness: float = 1.2
