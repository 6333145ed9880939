"""The hub box: the Pi with the hub board on top of it, the card reader's Pico beside it, the
buzzer's sound holes and the two LEDs' windows in the lid.

Axes: x along the Pi's long edge, y across it (y = 0 the box's front outer face, where the
Pi's USB-C power socket is), z up from the box's underside. Two printed parts: ``base`` (the
walls, the Pi's and the Pico's standoffs, the power opening and the cable notches: four seat
ribbons along the back, the readers' cables at the side) and ``lid``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from build123d import Box, Cylinder, Part, Pos

from .parts import HubHat, Indicators, Pico, RaspberryPi, Ribbon
from .seat import box


@dataclass(frozen=True)
class HubBox:
    pi: RaspberryPi = field(default_factory=RaspberryPi)
    hat: HubHat = field(default_factory=HubHat)
    pico: Pico = field(default_factory=Pico)
    indicators: Indicators = field(default_factory=Indicators)
    ribbon: Ribbon = field(default_factory=Ribbon)
    clearance: float = 0.4
    wall: float = 2.4
    floor: float = 2.0
    lid: float = 2.4
    margin: float = 4.0
    standoff: float = 5.0           # the Pi's underside above the floor
    standoff_diameter: float = 6.0
    pilot: float = 2.2              # M2.5 self-tapping into plastic
    pico_pilot: float = 1.8         # M2
    seat_cables: int = 4
    led_pitch: float = 12.0         # the LEDs' centres apart, in the lid over the hub board
    post: float = 7.0
    screw_pilot: float = 2.5
    screw_clear: float = 3.4

    @property
    def inner_width(self) -> float:
        return self.pi.width + 2 * (self.post + self.margin + self.clearance)

    @property
    def inner_depth(self) -> float:
        return self.pi.depth + self.pico.depth + 3 * self.margin + 4 * self.clearance + 1.0

    @property
    def width(self) -> float:
        return self.inner_width + 2 * self.wall

    @property
    def depth(self) -> float:
        return self.inner_depth + 2 * self.wall

    @property
    def pi_origin(self) -> tuple[float, float, float]:
        """The Pi board's lower-left corner, underside (x, y, z)."""
        return (self.wall + self.post + self.margin + self.clearance,
                self.wall + self.clearance + 1.0,
                self.floor + self.standoff)

    @property
    def hat_top(self) -> float:
        _, _, z = self.pi_origin
        return z + self.pi.pcb_thickness + self.hat.above_pi + 1.6 + self.hat.tallest

    @property
    def height(self) -> float:
        _, _, z = self.pi_origin
        return max(self.hat_top, z + self.pi.pcb_thickness + self.pi.height) + self.margin

    def pi_holes(self) -> list[tuple[float, float]]:
        x0, y0, _ = self.pi_origin
        i = self.pi.hole_inset
        return [(x0 + i + dx, y0 + i + dy) for dx in (0.0, self.pi.hole_pitch_x)
                for dy in (0.0, self.pi.hole_pitch_y)]

    @property
    def pico_origin(self) -> tuple[float, float]:
        x0, y0, _ = self.pi_origin
        return x0, y0 + self.pi.depth + self.margin + 2 * self.clearance

    def pico_holes(self) -> list[tuple[float, float]]:
        x0, y0 = self.pico_origin
        ix = (self.pico.width - self.pico.hole_pitch_x) / 2
        iy = (self.pico.depth - self.pico.hole_pitch_y) / 2
        return [(x0 + ix + dx, y0 + iy + dy) for dx in (0.0, self.pico.hole_pitch_x)
                for dy in (0.0, self.pico.hole_pitch_y)]

    @property
    def power_opening(self) -> tuple[float, float, float, float]:
        """(x centre, z centre, width, height) of the USB-C opening in the front wall."""
        x0, _, z = self.pi_origin
        return (x0 + self.pi.usb_c_from_left, z + self.pi.pcb_thickness + self.pi.usb_c_height / 2,
                self.pi.usb_c_width + 2 * self.clearance + 2.0,
                self.pi.usb_c_height + 2 * self.clearance + 2.0)

    def cable_notches(self) -> list[tuple[float, float, float]]:
        """(x centre, width, depth down from the top edge) of each seat ribbon's notch at the
        back."""
        count = self.seat_cables
        width = self.ribbon.width + 2 * self.clearance
        depth = self.ribbon.thickness + 2 * self.clearance + 1.0
        # Spread between the back corners' screw posts.
        step = (self.inner_width - 2 * self.post) / count
        return [(self.wall + self.post + step * (i + 0.5), width, depth) for i in range(count)]

    @property
    def reader_notch(self) -> tuple[float, float, float]:
        """(y centre, width, depth down from the top edge) of the readers' cable bundle's notch
        in the right-hand wall, beside the Pico."""
        _, y0 = self.pico_origin
        return (y0 + self.pico.depth / 2, self.ribbon.width + 2 * self.clearance,
                self.ribbon.thickness * 4 + 2 * self.clearance + 1.0)

    def led_centres(self) -> list[tuple[float, float]]:
        x0, y0, _ = self.pi_origin
        x = x0 + self.hat.width - 8.0
        y = y0 + self.pi.depth / 2
        return [(x, y - self.led_pitch / 2), (x, y + self.led_pitch / 2)]

    @property
    def buzzer_centre(self) -> tuple[float, float]:
        x0, y0, _ = self.pi_origin
        return x0 + self.hat.width - 25.0, y0 + self.pi.depth / 2

    def post_centres(self) -> list[tuple[float, float]]:
        lo_x, hi_x = self.wall + self.post / 2, self.width - self.wall - self.post / 2
        lo_y, hi_y = self.wall + self.post / 2, self.depth - self.wall - self.post / 2
        return [(lo_x, lo_y), (hi_x, lo_y), (lo_x, hi_y), (hi_x, hi_y)]

    def base(self) -> Part:
        w, d, h = self.width, self.depth, self.height
        shell = box(0, w, 0, d, 0, h)
        shell -= box(self.wall, w - self.wall, self.wall, d - self.wall, self.floor, h + 1)
        for x, y in self.post_centres():
            shell += Pos(x, y, h / 2) * Box(self.post, self.post, h)
            shell -= Pos(x, y, h / 2 + self.floor) * Cylinder(self.screw_pilot / 2, h)
        for holes, pilot in ((self.pi_holes(), self.pilot),
                             (self.pico_holes(), self.pico_pilot)):
            for x, y in holes:
                # Sunk 0.01 mm into the floor so that the two fuse; the top is exact.
                shell += Pos(x, y, self.floor + self.standoff / 2 - 0.005) * Cylinder(
                    self.standoff_diameter / 2, self.standoff + 0.01)
                shell -= Pos(x, y, self.floor + self.standoff / 2 + 0.5) * Cylinder(
                    pilot / 2, self.standoff)
        px, pz, pw, ph = self.power_opening
        shell -= Pos(px, self.wall / 2, pz) * Box(pw, self.wall * 3, ph)
        for x, width, depth in self.cable_notches():
            shell -= Pos(x, d - self.wall / 2, h - depth / 2) * Box(width, self.wall * 3, depth)
        y, width, depth = self.reader_notch
        shell -= Pos(w - self.wall / 2, y, h - depth / 2) * Box(self.wall * 3, width, depth)
        return shell

    def lid_part(self) -> Part:
        w, d, h, t = self.width, self.depth, self.height, self.lid
        plate = box(0, w, 0, d, h, h + t)
        for x, y in self.post_centres():
            plate -= Pos(x, y, h + t / 2) * Cylinder(self.screw_clear / 2, t * 2)
        led = self.indicators.led_diameter + 2 * self.clearance
        for x, y in self.led_centres():
            plate -= Pos(x, y, h + t / 2) * Cylinder(led / 2, t * 2)
        bx, by = self.buzzer_centre
        hole = self.indicators.buzzer_sound_hole
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                plate -= Pos(bx + dx * hole * 1.8, by + dy * hole * 1.8, h + t / 2) * Cylinder(
                    hole / 2, t * 2)
        # Vents over the Pi's processor, which runs warm in a closed box.
        x0, y0, _ = self.pi_origin
        for i in range(5):
            plate -= box(x0 + 8 + i * 6, x0 + 11 + i * 6, y0 + 10, y0 + 40, h - 1, h + t + 1)
        return plate

    def parts(self) -> dict[str, Part]:
        return {"hub-base": self.base(), "hub-lid": self.lid_part()}
