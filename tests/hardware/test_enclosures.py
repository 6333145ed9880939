"""The printed parts: valid closed solids; the LCD, the keypad, the cables, the Pi and the
Pico fit with the stated clearance; the seat unit holds the table top it is made for; and
``python3 -m hardware.build`` writes closed STL meshes and STEP files that read back."""

from __future__ import annotations

import struct
from collections import Counter
from pathlib import Path

import pytest
from build123d import Cylinder, Part, Pos, import_step

from hardware import build
from hardware.enclosures.hubbox import HubBox
from hardware.enclosures.seat import SeatUnit, box

SEAT = SeatUnit()
HUB = HubBox()
TOUCH = 1e-3  # mm^3: faces that only touch share no volume


@pytest.fixture(scope="module")
def seat() -> dict[str, Part]:
    return SEAT.parts()


@pytest.fixture(scope="module")
def hub() -> dict[str, Part]:
    return HUB.parts()


def overlap(a: Part, b: Part) -> float:
    common = a & b
    return float(common.volume) if common is not None else 0.0


def test_every_part_is_one_valid_closed_solid(seat: dict[str, Part],
                                              hub: dict[str, Part]) -> None:
    for name, part in {**seat, **hub}.items():
        assert part.is_valid, name
        assert part.is_manifold, name
        assert len(part.solids()) == 1, name
        assert part.volume > 10_000, name


def _centred(x: float, y: float, z0: float, z1: float, w: float, d: float) -> Part:
    return box(x - w / 2, x + w / 2, y - d / 2, y + d / 2, z0, z1)


def test_all_four_lines_show_through_the_lcd_window(seat: dict[str, Part]) -> None:
    lcd, h = SEAT.lcd, SEAT.height
    x, y = SEAT.lcd_centre
    sight = _centred(x, y, h - 1, h + SEAT.lid + 1, lcd.view_width, lcd.view_depth)
    assert overlap(sight, seat["seat-lid"]) < TOUCH


def test_the_lcd_fits_its_pocket_with_the_clearance_and_is_held(seat: dict[str, Part]) -> None:
    lcd, c, h = SEAT.lcd, SEAT.clearance, SEAT.height
    x, y = SEAT.lcd_centre
    top = h + SEAT.pocket
    pcb_top = top - lcd.bezel_height
    bezel = _centred(x, y, pcb_top, top, lcd.bezel_width, lcd.bezel_depth)
    module = bezel + _centred(x, y, pcb_top - lcd.pcb_thickness - lcd.backpack_height, pcb_top,
                              lcd.pcb_width, lcd.pcb_depth)
    for part in seat.values():
        assert overlap(module, part) < TOUCH
    # The clearance is what it says: a bezel larger by more than twice it does not go in.
    loose = _centred(x, y, pcb_top, top, lcd.bezel_width + 2 * c + 0.2,
                     lcd.bezel_depth + 2 * c + 0.2)
    assert overlap(loose, seat["seat-lid"]) > 1.0
    # The bezel cannot come out of the top: the window is smaller than it.
    lifted = _centred(x, y, top, top + SEAT.lid, lcd.bezel_width, lcd.bezel_depth)
    assert overlap(lifted, seat["seat-lid"]) > 1.0
    # The PCB rests on the four bosses, which have pilot holes at the LCD's holes.
    for hx, hy in SEAT.lcd_holes():
        screw = Pos(hx, hy, pcb_top + 2) * Cylinder(lcd.hole_diameter / 2 - 0.4, 4)
        assert overlap(screw, seat["seat-lid"]) < TOUCH
        boss = Pos(hx, hy, pcb_top + 0.5) * Cylinder(2.5, 1)
        assert overlap(boss, seat["seat-lid"]) > 1.0


def test_the_keypad_sits_in_its_recess_and_its_tail_passes(seat: dict[str, Part]) -> None:
    pad, c, top = SEAT.keypad, SEAT.clearance, SEAT.height + SEAT.lid
    x, y = SEAT.keypad_centre
    sheet = _centred(x, y, top - pad.thickness, top, pad.width, pad.depth)
    assert overlap(sheet, seat["seat-lid"]) < TOUCH
    loose = _centred(x, y, top - pad.thickness, top, pad.width + 2 * c + 0.2,
                     pad.depth + 2 * c + 0.2)
    assert overlap(loose, seat["seat-lid"]) > 0.1
    sx, sy, _ = SEAT.tail_slot
    plug = _centred(sx, sy, SEAT.height - 5, top + 1, pad.connector_width,
                    pad.connector_thickness)
    assert overlap(plug, seat["seat-lid"]) < TOUCH


def test_the_ribbon_leaves_through_the_cable_exit(seat: dict[str, Part]) -> None:
    x, _, notch = SEAT.cable_exit
    h, d = SEAT.height, SEAT.depth
    ribbon = box(x - SEAT.ribbon.width / 2, x + SEAT.ribbon.width / 2, d - 10, d + 10,
                 h - notch + 0.2, h - notch + 0.2 + SEAT.ribbon.thickness)
    assert overlap(ribbon, seat["seat-body"]) < TOUCH


def _table(thickness: float, edge: float = 0.0) -> Part:
    return box(-300, 300, edge, 400, -thickness, 0)


@pytest.mark.parametrize("thickness", [19.0, 25.0])
def test_the_clip_holds_the_table_top_it_is_made_for(thickness: float) -> None:
    unit = SeatUnit(table_thickness=thickness)
    body = unit.body()
    assert overlap(_table(thickness), body) < TOUCH
    # Not loose: a top thicker than the stated slack does not go in, and the edge locates it.
    assert overlap(_table(thickness + unit.table_clearance + 0.3), body) > 1.0
    assert overlap(_table(thickness, edge=-(unit.table_clearance + 0.3)), body) > 1.0
    # It stands on the table top, not above it.
    assert overlap(box(-300, 300, 0, 400, 0, 0.5), body) > 1.0


def test_the_pi_hub_board_and_pico_fit_the_hub_box(hub: dict[str, Part]) -> None:
    pi, hat = HUB.pi, HUB.hat
    x0, y0, z0 = HUB.pi_origin
    board = box(x0, x0 + pi.width, y0, y0 + pi.depth, z0, z0 + pi.pcb_thickness + pi.height)
    hat_z = z0 + pi.pcb_thickness + hat.above_pi
    stack = box(x0, x0 + hat.width, y0, y0 + hat.depth, hat_z, hat_z + 1.6 + hat.tallest)
    px, py = HUB.pico_origin
    pico = box(px, px + HUB.pico.width, py, py + HUB.pico.depth, z0, z0 + 4)
    for part in hub.values():
        for thing in (board, stack, pico):
            assert overlap(thing, part) < TOUCH
    for (hx, hy), pilot in [(h, HUB.pilot) for h in HUB.pi_holes()] + [
            (h, HUB.pico_pilot) for h in HUB.pico_holes()]:
        screw = Pos(hx, hy, z0 - 2) * Cylinder(pilot / 2 - 0.2, 4)
        assert overlap(screw, hub["hub-base"]) < TOUCH
        standoff = Pos(hx, hy, z0 - 1) * Cylinder(HUB.standoff_diameter / 2, 1)
        assert overlap(standoff, hub["hub-base"]) > 1.0


def test_power_cables_and_lights_have_their_openings(hub: dict[str, Part]) -> None:
    px, pz, _, _ = HUB.power_opening
    plug = box(px - HUB.pi.usb_c_width / 2, px + HUB.pi.usb_c_width / 2, -5, HUB.wall + 1,
               pz - HUB.pi.usb_c_height / 2, pz + HUB.pi.usb_c_height / 2)
    assert overlap(plug, hub["hub-base"]) < TOUCH
    h = HUB.height
    assert len(HUB.cable_notches()) == 4
    for x, _, notch in HUB.cable_notches():
        ribbon = box(x - HUB.ribbon.width / 2, x + HUB.ribbon.width / 2, HUB.depth - 10,
                     HUB.depth + 5, h - notch + 0.2, h - notch + 0.2 + HUB.ribbon.thickness)
        assert overlap(ribbon, hub["hub-base"]) < TOUCH
    y, _, notch = HUB.reader_notch
    bundle = box(HUB.width - 10, HUB.width + 5, y - HUB.ribbon.width / 2,
                 y + HUB.ribbon.width / 2, h - notch + 0.2, h - 0.2)
    assert overlap(bundle, hub["hub-base"]) < TOUCH
    for x, y in HUB.led_centres():
        led = Pos(x, y, h) * Cylinder(HUB.indicators.led_diameter / 2, 10)
        assert overlap(led, hub["hub-lid"]) < TOUCH


def _stl_is_closed(path: Path) -> bool:
    """Every edge of a binary STL's triangles is shared by exactly two triangles."""
    data = path.read_bytes()
    (count,) = struct.unpack_from("<I", data, 80)
    assert len(data) == 84 + 50 * count
    edges: Counter[tuple[tuple[float, ...], tuple[float, ...]]] = Counter()
    for i in range(count):
        values = struct.unpack_from("<12f", data, 84 + 50 * i)
        corners = [tuple(round(v, 4) for v in values[3 + 3 * k: 6 + 3 * k]) for k in range(3)]
        for a, b in ((0, 1), (1, 2), (2, 0)):
            ends = sorted((corners[a], corners[b]))
            edges[(ends[0], ends[1])] += 1
    return count > 0 and all(n == 2 for n in edges.values())


def test_one_command_writes_the_boards_the_parts_and_the_cost(tmp_path: Path) -> None:
    assert build.main(["--out", str(tmp_path)]) == 0
    names = {p.name for p in tmp_path.iterdir()}
    for part in ("seat-body", "seat-lid", "hub-base", "hub-lid"):
        assert {f"{part}.stl", f"{part}.step"} <= names
        assert _stl_is_closed(tmp_path / f"{part}.stl"), part
        again = import_step(str(tmp_path / f"{part}.step"))
        assert again.is_valid
    assert {"hub.net", "hub-bom.csv", "cardreader.net", "cardreader-bom.csv", "cost.md"} <= names
    cost = (tmp_path / "cost.md").read_text()
    total = cost.split("- one table: EUR ")[1].split()[0]
    # The builder's guides state the figure the build computes, in both languages.
    docs = Path(__file__).parents[2] / "docs"
    assert f"**{total}**" in (docs / "builder.en.md").read_text()
    assert f"**{total.replace('.', ',')}**" in (docs / "builder.es.md").read_text()
