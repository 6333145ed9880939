"""The seat unit: the keypad and the LCD side by side on one lid, in a box that clips onto
the table's edge in front of the player.

Axes: x across the player's view (left to right), y away from the player (y = 0 is the
table's edge, the table top is y >= 0), z up (z = 0 is the table's top surface). Two printed
parts: ``body`` (the box with the table clip and the cable exit) and ``lid`` (the keypad's
recess and tail slot, the LCD's window, the bosses the LCD is screwed to), screwed together
at the corners with four M3 self-tapping screws.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from build123d import Box, Cylinder, Part, Pos

from .parts import Lcd2004, MembraneKeypad, Ribbon


def box(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float) -> Part:
    """A box by its faces' coordinates."""
    return Pos((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2) * Box(x1 - x0, y1 - y0, z1 - z0)


@dataclass(frozen=True)
class SeatUnit:
    keypad: MembraneKeypad = field(default_factory=MembraneKeypad)
    lcd: Lcd2004 = field(default_factory=Lcd2004)
    ribbon: Ribbon = field(default_factory=Ribbon)
    clearance: float = 0.4          # around every bought part, each side
    wall: float = 2.4
    floor: float = 2.0
    lid: float = 3.0
    margin: float = 6.0             # between the parts, and from the parts to the walls
    view_margin: float = 1.0        # the window is this much larger than the viewing area
    skin: float = 1.2               # lid left above the LCD's bezel
    table_thickness: float = 19.0   # the table top the clip is made for
    table_clearance: float = 0.6    # the clip's slack on the table top
    clip_width: float = 60.0
    clip_thickness: float = 4.0
    clip_reach: float = 18.0        # how far the clip's hook goes under the table top
    post: float = 8.0               # corner posts for the lid screws
    screw_pilot: float = 2.5        # M3 self-tapping into plastic
    screw_clear: float = 3.4

    # -- layout -----------------------------------------------------------------------------
    @property
    def width(self) -> float:
        return (2 * self.wall + 3 * self.margin + self.keypad.width + self.lcd.pcb_width
                + 4 * self.clearance)

    @property
    def depth(self) -> float:
        return (2 * self.wall + 2 * self.margin + 2 * self.clearance
                + max(self.keypad.depth, self.lcd.pcb_depth))

    @property
    def pocket(self) -> float:
        """How deep the bezel's pocket goes into the lid from below."""
        return self.lid - self.skin

    @property
    def height(self) -> float:
        """The body's height: the LCD, its backpack and the floor, under the lid."""
        below = (self.lcd.bezel_height - self.pocket + self.lcd.pcb_thickness
                 + self.lcd.backpack_height)
        return self.floor + self.margin / 2 + below

    @property
    def keypad_centre(self) -> tuple[float, float]:
        x = -self.width / 2 + self.wall + self.margin + self.clearance + self.keypad.width / 2
        return x, self.depth / 2

    @property
    def lcd_centre(self) -> tuple[float, float]:
        x = self.width / 2 - self.wall - self.margin - self.clearance - self.lcd.pcb_width / 2
        return x, self.depth / 2

    @property
    def tail_slot(self) -> tuple[float, float, float]:
        """(x, y, ...) centre of the keypad tail's slot, and its length across x."""
        x, y = self.keypad_centre
        y_slot = y + self.keypad.depth / 2 - self.keypad.connector_thickness
        return x, y_slot, self.keypad.connector_width + 2 * self.clearance

    @property
    def cable_exit(self) -> tuple[float, float, float]:
        """(x centre, width, depth down from the body's top edge) of the ribbon's notch."""
        return (0.0, self.ribbon.width + 2 * self.clearance,
                self.ribbon.thickness + 2 * self.clearance + 1.0)

    def post_centres(self) -> list[tuple[float, float]]:
        dx = self.width / 2 - self.wall - self.post / 2
        lo, hi = self.wall + self.post / 2, self.depth - self.wall - self.post / 2
        return [(-dx, lo), (dx, lo), (-dx, hi), (dx, hi)]

    def lcd_holes(self) -> list[tuple[float, float]]:
        x, y = self.lcd_centre
        hx, hy = self.lcd.hole_pitch_x / 2, self.lcd.hole_pitch_y / 2
        return [(x - hx, y - hy), (x + hx, y - hy), (x - hx, y + hy), (x + hx, y + hy)]

    # -- parts ------------------------------------------------------------------------------
    def body(self) -> Part:
        w, d, h = self.width, self.depth, self.height
        shell = Pos(0, d / 2, h / 2) * Box(w, d, h)
        shell -= Pos(0, d / 2, self.floor + h / 2) * Box(w - 2 * self.wall, d - 2 * self.wall, h)
        for x, y in self.post_centres():
            shell += Pos(x, y, h / 2) * Box(self.post, self.post, h)
            shell -= Pos(x, y, h / 2 + self.floor) * Cylinder(self.screw_pilot / 2, h)
        x, width, notch = self.cable_exit
        shell -= Pos(x, d - self.wall / 2, h - notch / 2) * Box(width, self.wall * 3, notch)
        # The clip: a plate on the body's front face, down past the table's edge, and a hook
        # back under the table top; table_clearance of slack at the edge and under the top.
        tc, ct = self.table_clearance, self.clip_thickness
        gap = self.table_thickness + tc
        half = self.clip_width / 2
        shell += box(-half, half, -(tc + ct), 0, 0, h)
        shell += box(-half, half, -(tc + ct), -tc, -(gap + ct), 0)
        shell += box(-half, half, -(tc + ct), self.clip_reach, -(gap + ct), -gap)
        return shell

    def lid_part(self) -> Part:
        w, d, h, t = self.width, self.depth, self.height, self.lid
        plate = Pos(0, d / 2, h + t / 2) * Box(w, d, t)
        for x, y in self.post_centres():
            plate -= Pos(x, y, h + t / 2) * Cylinder(self.screw_clear / 2, t * 2)
        c = self.clearance
        kx, ky = self.keypad_centre
        recess = self.keypad.thickness
        plate -= Pos(kx, ky, h + t - recess / 2) * Box(self.keypad.width + 2 * c,
                                                        self.keypad.depth + 2 * c, recess)
        sx, sy, slot = self.tail_slot
        plate -= Pos(sx, sy, h + t / 2) * Box(slot, self.keypad.connector_thickness + 2 * c,
                                              t * 2)
        lx, ly = self.lcd_centre
        plate -= Pos(lx, ly, h + t / 2) * Box(self.lcd.view_width + 2 * self.view_margin,
                                              self.lcd.view_depth + 2 * self.view_margin, t * 2)
        plate -= Pos(lx, ly, h + self.pocket / 2) * Box(self.lcd.bezel_width + 2 * c,
                                                        self.lcd.bezel_depth + 2 * c,
                                                        self.pocket)
        boss = self.lcd.bezel_height - self.pocket
        for x, y in self.lcd_holes():
            plate += Pos(x, y, h - boss / 2) * Cylinder(3.0, boss)
            plate -= Pos(x, y, h - boss / 2) * Cylinder(1.1, boss)
        return plate

    def parts(self) -> dict[str, Part]:
        return {"seat-body": self.body(), "seat-lid": self.lid_part()}
