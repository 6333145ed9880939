"""The boards as circuits: their ERC passes, their KiCad netlists agree with the pin maps the
software reads, a disagreement is found and named, and the bill of materials is complete."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from hardware.circuits import _skidl, cardreader, catalogue, hub
from hardware.circuits.check import check_hub, check_reader
from hardware.circuits.netlist import BOM_COLUMNS, Netlist, bom, bom_csv, parse
from hardware.pinmap import HEADER, PinMap
from laws import Seat

KINDS = [k for k in vars(catalogue).values() if isinstance(k, catalogue.PartKind)]


@pytest.fixture(scope="module")
def pins() -> PinMap:
    return PinMap.load()


@pytest.fixture(scope="module")
def hub_circuit(pins: PinMap) -> Iterator[Any]:
    yield hub.build(pins)


@pytest.fixture(scope="module")
def hub_netlist(hub_circuit: Any) -> Netlist:
    return parse(_skidl.kicad_netlist(hub_circuit))


@pytest.fixture(scope="module")
def reader_netlist() -> Netlist:
    return parse(_skidl.kicad_netlist(cardreader.build()))


def test_the_hub_passes_its_electrical_rules_check(hub_circuit: Any) -> None:
    errors, warnings, said = _skidl.erc(hub_circuit)
    assert (errors, warnings) == (0, 0), said


def test_the_card_reader_passes_its_electrical_rules_check() -> None:
    errors, warnings, said = _skidl.erc(cardreader.build())
    assert (errors, warnings) == (0, 0), said


def test_the_erc_finds_a_real_fault(pins: PinMap) -> None:
    """Not a check that always passes: a seat connector pin left hanging is reported."""
    circuit = hub.build(pins)
    extra = _skidl.place(circuit, catalogue.SEAT_HEADER, "J9", role="spare")
    extra[1].do_erc = True
    _, warnings, said = _skidl.erc(circuit)
    assert warnings >= 14 and "J9" in said


def test_the_hub_board_agrees_with_the_pin_map(hub_netlist: Netlist, pins: PinMap) -> None:
    assert check_hub(hub_netlist, pins) == []
    # The netlist really is the pin map's: row 0's header pin is GPIO 5's, pin 29.
    assert hub_netlist.net_of("J1", HEADER[pins.keypad.rows[0]]) == "ROW0"


def test_the_card_reader_agrees_with_the_firmware(reader_netlist: Netlist) -> None:
    assert check_reader(reader_netlist) == []


def test_a_gpio_moved_in_the_pin_map_only_is_found(hub_netlist: Netlist, pins: PinMap) -> None:
    """The drivers read a pin map where North's and East's first columns swapped; the board
    was made from the old one."""
    columns = dict(pins.keypad.columns)
    columns[Seat.N], columns[Seat.E] = ((columns[Seat.E][0], *columns[Seat.N][1:]),
                                        (columns[Seat.N][0], *columns[Seat.E][1:]))
    moved = dataclasses.replace(pins, keypad=dataclasses.replace(pins.keypad, columns=columns))
    problems = check_hub(hub_netlist, moved)
    assert any(p.startswith("N column 0 is GPIO 10") for p in problems), problems
    assert any(p.startswith("E column 0 is GPIO 4") for p in problems), problems


def test_a_board_made_from_another_pin_map_is_found(pins: PinMap) -> None:
    swapped = dataclasses.replace(pins, buzzer=pins.ok_led, ok_led=pins.buzzer)
    netlist = parse(_skidl.kicad_netlist(hub.build(swapped)))
    problems = check_hub(netlist, pins)
    assert any("buzzer (GPIO 16)" in p for p in problems), problems
    assert any("ok_led (GPIO 20)" in p for p in problems), problems


def test_a_seat_column_wired_to_another_seats_line_is_found(hub_netlist: Netlist,
                                                          pins: PinMap) -> None:
    east = hub.SEAT_REFS[Seat.E]
    wrong = hub_netlist.moved((east, str(hub.SEAT_PINS["column 2"])), "W_COL2")
    problems = check_hub(wrong, pins)
    assert "W column 2 (GPIO 7) is also wired to E's connector pin 8" in problems
    assert any(p.startswith("E column 2 is GPIO 11") for p in problems)


def test_a_reversed_row_diode_is_found(hub_netlist: Netlist, pins: PinMap) -> None:
    diode = next(n for n in hub_netlist.nets["ROW0"] if n[0].startswith("D"))
    anode_net = hub_netlist.net_of(diode[0], "2")
    assert anode_net is not None
    wrong = hub_netlist.moved((diode[0], "1"), anode_net).moved((diode[0], "2"), "ROW0")
    assert any(p.startswith("row 0 (GPIO 5) reaches seats") for p in check_hub(wrong, pins))


def test_a_reader_on_the_wrong_chip_select_is_found(reader_netlist: Netlist) -> None:
    wiring = cardreader.ReaderWiring.from_firmware()
    moved = dataclasses.replace(wiring, chip_select={**wiring.chip_select, "E": 26})
    netlist = parse(_skidl.kicad_netlist(cardreader.build(moved)))
    assert check_reader(netlist, wiring) == [
        "E's reader CS is GP20 in the firmware, but the board does not wire it to GP20"]


def test_the_hub_bill_of_materials(hub_netlist: Netlist) -> None:
    lines = bom(hub_netlist, KINDS)
    by_mpn = {line.mpn: line for line in lines}
    assert by_mpn["BAT43-TAP"].quantity == 20
    assert by_mpn["MFR-25FBF52-10K"].quantity == 16
    assert by_mpn[catalogue.SEAT_HEADER.mpn].references == ("J2", "J3", "J4", "J5")
    assert sum(line.quantity for line in lines) == len(hub_netlist.components)
    assert all(line.footprint and line.mpn and line.price for line in lines)
    rows = bom_csv(lines).splitlines()
    assert tuple(rows[0].split(",")) == BOM_COLUMNS
    assert len(rows) == len(lines) + 1


def test_the_card_reader_bill_of_materials(reader_netlist: Netlist) -> None:
    by_mpn = {line.mpn: line for line in bom(reader_netlist, KINDS)}
    assert by_mpn[catalogue.PICO.mpn].quantity == 1
    assert by_mpn[catalogue.READER_HEADER.mpn].quantity == 4
    assert by_mpn[catalogue.CAP_10U.mpn].quantity == 4
