"""The card reader's firmware while a person streams a sorted deck onto it (``hardware.register
--sorted``): every tag arrives once, in the order the cards were put down, soon enough for the
bell a card; under CPython and under MicroPython's WebAssembly port (byte for byte).

deck_stream.py has the person and the chips' timing; here is what the host must get.
"""

from __future__ import annotations

from firmware.cardreader.app import POLL_MS
from firmware.common.debounce import CARD_HOLD_MS
from hardware.protocol import DeviceError, Message, TagRead, decode
from laws import Seat

from . import deck_stream
from .test_micropython import both_interpreters, pytestmark_micropython

BELL_MS = 250
"""The bench's reaction to the bell: a card must be named well inside it."""


def sent(hw: object, start: int) -> tuple[list[Message], list[int]]:
    data = hw.serial.take()  # type: ignore[attr-defined]
    clock = hw.clock  # type: ignore[attr-defined]
    stamps = [clock.ticks_diff(ms, start) for ms, _ in hw.serial.stamps]  # type: ignore[attr-defined]
    return [decode(line + b"\n") for line in data.split(b"\n") if line], stamps


def test_a_whole_sorted_deck_arrives_once_each_and_in_order() -> None:
    for start_ms in (0, deck_stream.WRAP_START):  # and across the ticks' wrap
        hw, start, uids, landed = deck_stream.stream(start_ms)
        messages, stamps = sent(hw, start)
        tags = [m for m in messages if isinstance(m, TagRead)]
        assert tags == [TagRead(uid.hex().upper(), Seat.N) for uid in uids]
        # The one card slid on while the last lay there long enough: reported once, between.
        errors = [(n, m) for n, m in enumerate(messages) if not isinstance(m, TagRead)]
        assert [(n, m.code) for n, m in errors if isinstance(m, DeviceError)] == [(41, 103)]
        assert len(errors) == 1
        read_at = [ms for ms, m in zip(stamps, messages, strict=True) if isinstance(m, TagRead)]
        waits = [read_at[n] - landed[n] for n in range(52)]
        overlapped = {31, 41}  # they landed on a card still there: read once it is lifted
        garbled = 7
        for n, wait in enumerate(waits):
            assert wait >= 0
            if n in overlapped:
                continue
            # The next poll of a free antenna names it; a garbled answer costs one more poll.
            bound = (2 if n == garbled else 1) * POLL_MS + POLL_MS // 2
            assert wait <= bound, (n, wait)
            assert wait < BELL_MS
        # The wobbled card (lifted and put back within CARD_HOLD_MS) came once, not twice.
        assert deck_stream.WOBBLE_MS < CARD_HOLD_MS


def test_a_swipe_longer_than_a_poll_is_never_missed() -> None:
    assert deck_stream.SWIPE_MS > POLL_MS
    for seed in range(1, 4):  # the swipe lands at other moments of the poll cycle
        hw, start, uids, _ = deck_stream.stream(0, seed=seed)
        messages, _ = sent(hw, start)
        assert [m.uid for m in messages if isinstance(m, TagRead)] == [
            uid.hex().upper() for uid in uids]


@pytestmark_micropython
def test_the_deck_stream_is_the_same_under_micropython() -> None:
    under_micropython, here = both_interpreters("deck_stream")
    assert under_micropython == here
    assert len(here) == 2 and here[0].count(b"\nT ") == 51
