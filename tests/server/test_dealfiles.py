"""Duplimate's DUP and BRI files (issue 31), checked against a board written by hand from
the published description (Jannersten's "convert" note: its example board), then
round-tripped over generated deals, and refused when broken."""

from __future__ import annotations

import pytest

from laws import Deal, Seat
from server.outputs.handrecords import (
    BRI_BYTES,
    DUP_BYTES,
    HandRecordError,
    bri_file,
    dup_file,
    generated,
    read_bri,
    read_dup,
)

# The description's example board: North's, East's and South's cards as the numbers 01 (the
# ace of spades) to 52 (the two of clubs), in the order the machine drew them ...
BRI_EXAMPLE = (b"18043727240822422106250717" b"51503215164929412640314645"
               b"43351128302039140152133403")
# ... and the four hands sorted (the DGE part), each suit after its symbol, the DOS code
# page's spade, heart, diamond and club (bytes 6, 3, 4, 5).
S, H, D, C = b"\x06", b"\x03", b"\x04", b"\x05"
DGE_EXAMPLE = (S + b"J987" + H + b"JT7643" + D + b"A4" + C + b"Q"
               + S + H + b"KQ2" + D + b"QT9" + C + b"AK98543"
               + S + b"AQ42" + H + b"A8" + D + b"KJ762" + C + b"J2"
               + S + b"KT653" + H + b"95" + D + b"853" + C + b"T76")
# Random hands: yes; backwards: no; lowest board 1; one copy; highest board 1.
SETTINGS = b"YN1  1 1  "
EXAMPLE_DEAL = Deal.from_pbn("N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 "
                             "KT653.95.853.T76")


def _sorted_bri(text: bytes) -> bytes:
    hands = [text[i:i + 26] for i in range(0, 78, 26)]
    return b"".join(b"".join(sorted(hand[j:j + 2] for j in range(0, 26, 2)))
                    for hand in hands)


def test_the_description_s_example_board_reads_as_its_deal() -> None:
    assert len(BRI_EXAMPLE) == BRI_BYTES and len(DGE_EXAMPLE) == 68
    by_hand = BRI_EXAMPLE + DGE_EXAMPLE + SETTINGS
    assert len(by_hand) == DUP_BYTES
    assert read_dup(by_hand) == {1: EXAMPLE_DEAL.to_pbn()}
    assert read_bri(BRI_EXAMPLE, first_board=7) == {7: EXAMPLE_DEAL.to_pbn()}
    assert Deal.from_pbn(read_bri(BRI_EXAMPLE)[1])[Seat.W] == EXAMPLE_DEAL[Seat.W]


def test_the_writer_writes_the_example_board_byte_for_byte() -> None:
    """The same board written here: the BRI part with each hand's numbers in order (the
    description lets them come in any order), the DGE part and the settings as by hand."""
    assert dup_file({1: EXAMPLE_DEAL.to_pbn()}) == (_sorted_bri(BRI_EXAMPLE) + DGE_EXAMPLE
                                                    + SETTINGS)
    assert bri_file({1: EXAMPLE_DEAL.to_pbn()}) == _sorted_bri(BRI_EXAMPLE)


def test_a_set_round_trips_and_says_its_boards() -> None:
    deals = generated(31, range(25, 49))
    data = dup_file(deals, copies=3)
    assert len(data) == 24 * DUP_BYTES
    assert data[146:156] == b"YN25 3 48 "  # lowest 25, three copies, highest 48
    assert read_dup(data) == deals
    assert read_bri(bri_file(deals), first_board=25) == deals


@pytest.mark.parametrize(("data", "why"), [
    (BRI_EXAMPLE + DGE_EXAMPLE, "156 bytes a board"),
    (BRI_EXAMPLE[:-2] + b"18" + DGE_EXAMPLE + SETTINGS, "given twice"),
    (BRI_EXAMPLE[:-2] + b"53" + DGE_EXAMPLE + SETTINGS, "01 to 52"),
    (BRI_EXAMPLE + DGE_EXAMPLE[:-1] + b"9" + SETTINGS, "do not match"),
    (BRI_EXAMPLE + DGE_EXAMPLE + b"YNab 1 1  ", "no lowest board"),
])
def test_a_broken_dup_file_is_refused_with_the_reason(data: bytes, why: str) -> None:
    with pytest.raises(HandRecordError, match=why):
        read_dup(data)


def test_boards_that_are_not_a_set_are_refused() -> None:
    deals = generated(1, [1, 2, 4])
    with pytest.raises(HandRecordError, match="boards 3 are missing"):
        dup_file(deals)
    with pytest.raises(HandRecordError, match="board 1"):
        bri_file({1: "N:AKQ... - - -"})
