"""``python3 -m hardware.register --sorted`` as a person runs it: at a terminal (a pty), with the
card reader board on another pty speaking docs/serial-protocol.md.

The board's lines are the card reader firmware's own, from a sorted deck streamed onto it at a
person's pace (tests/firmware/deck_stream.py); the person's slips are put in between: a card the
reader could not read, the last card put down again, an earlier card put down again, cards out
of order (noticed at once, and noticed a suit later), two cards on the reader at once; and the
one question at the end.
"""

from __future__ import annotations

import io
import os
import select
import sys
import threading
from pathlib import Path

import pytest

from firmware.common import protocol as board
from hardware import register
from hardware.protocol import TagRead, VersionQuery, decode
from hardware.tags import TagTable
from laws import Card
from tests.firmware import deck_stream
from tests.processes import spawned

from .test_register import Device

STARTUP = 60.0
"""Seconds for a Python process to start on a busy machine; a pass never waits this long."""
WAIT = 20.0


class Terminal:
    """The person's terminal: a pty whose slave is the command's stdin, stdout and stderr."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        self.seen = ""

    def expect(self, text: str, timeout: float = WAIT) -> str:
        """Read until ``text`` has been printed; return all printed before it (since the last
        ``expect``), and keep what came after it for the next."""
        while text not in self.seen:
            ready, _, _ = select.select([self.master], [], [], timeout)
            assert ready, f"waited {timeout} s for {text!r}; the terminal shows {self.seen!r}"
            try:
                data = os.read(self.master, 4096)
            except OSError:  # the command ended and closed its end
                data = b""
            assert data, f"the command ended before printing {text!r}: {self.seen!r}"
            self.seen += data.decode("utf-8", "replace").replace("\r\n", "\n")
        before, _, self.seen = self.seen.partition(text)
        return before

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture(scope="module")
def board_lines() -> list[bytes]:
    """What the card reader firmware sent for a whole sorted deck: 52 T lines, and an E 103
    where the person slid a card on before the last was off."""
    hw, _, _, _ = deck_stream.stream(0)
    return [line + b"\n" for line in hw.serial.take().split(b"\n") if line]


def tags_of(lines: list[bytes]) -> list[bytes]:
    return [line for line in lines if line.startswith(b"T ")]


def uid(line: bytes) -> str:
    message = decode(line)
    assert isinstance(message, TagRead)
    return message.uid


def start(reader: Device, terminal: Terminal, tags_file: Path, *extra: str) -> spawned:
    return spawned([sys.executable, "-m", "hardware.register", reader.path,
                    "--tags", str(tags_file), "--deck", "board-07", "--sorted",
                    "--timeout", str(STARTUP), *extra],
                   stdin=terminal.slave, stdout=terminal.slave, stderr=terminal.slave)


def test_a_sorted_deck_registered_at_the_terminal_with_a_person_s_slips(
        tmp_path: Path, board_lines: list[bytes]) -> None:
    tags_file = tmp_path / "tags.json"
    T = tags_of(board_lines)
    assert len(T) == 52
    spades = board_lines[board_lines.index(T[39]):]  # the board's own lines, its E 103 too
    reader, terminal = Device(), Terminal()
    try:
        with start(reader, terminal, tags_file) as process:
            terminal.expect("Registering deck 'board-07'", STARTUP)
            assert decode(reader.receive_line()) == VersionQuery()  # the reader is listening
            os.write(reader.master, board.version_line("cardreader", "0.1.0"))
            os.write(reader.master, b"".join(T[0:6]))  # C2..C7
            terminal.expect("\aC7 ")
            # C8 answers garbled three polls running: the board says E 101.
            os.write(reader.master, board.error_line(101, "tag read failed at N"))
            terminal.expect("\a\athe reader could not read the card; "
                            "put C8 on the reader again")
            os.write(reader.master, T[6])
            terminal.expect("\aC8 ")
            # C8 put down again (no bell, no card), then C5 from the pile (refused).
            os.write(reader.master, T[6] + T[3])
            shown = terminal.expect(f"\a\arefused: tag {uid(T[3])} was scanned already, as C5; "
                                    "put C9 on the reader again")
            assert "\a" not in shown
            os.write(reader.master, b"".join(T[7:13]))
            terminal.expect("\aCA (clubs done, 13/52)")
            # D3 where D2 belongs: taken as D2; the person sees its face and takes it back.
            os.write(reader.master, T[14])
            terminal.expect("\aD2 ")
            terminal.type("u")
            terminal.expect("took D2 back (13/52); put D2 on the reader")
            os.write(reader.master, b"".join(T[13:26]))
            terminal.expect("\aDA (diamonds done, 26/52)")
            # HT before H9, noticed only at the end of hearts: back to H9.
            os.write(reader.master, b"".join([*T[26:33], T[34], T[33], *T[35:39]]))
            terminal.expect("(hearts done, 39/52)")
            terminal.type("h9")
            terminal.expect("back to H9: 6 cards forgotten (33/52); put H9 on the reader")
            os.write(reader.master, b"".join(T[33:39]))
            terminal.expect("\aHA (hearts done, 39/52)")
            os.write(reader.master, b"".join(spades))
            terminal.expect("\a\atwo cards on the reader: take them off; "
                            "put S4 on the reader again")
            terminal.expect("\aSA (spades done, 52/52)")
            terminal.expect("save deck 'board-07'? y = save, n = drop it")
            assert not tags_file.exists()  # nothing is written before the answer
            terminal.type("later")
            terminal.expect("'later'? type u to take the last card back")
            terminal.expect("save deck 'board-07'?")
            terminal.type("y")
            terminal.expect("deck 'board-07' saved")
            assert process.wait(WAIT) == 0
    finally:
        reader.close()
        terminal.close()
    table = TagTable.load(tags_file)
    assert table.deck("board-07") == dict(zip(Card.ALL, map(uid, T), strict=True))


def test_no_at_the_question_saves_nothing(tmp_path: Path, board_lines: list[bytes]) -> None:
    tags_file = tmp_path / "tags.json"
    TagTable().dump(tags_file)
    before = tags_file.read_bytes()
    reader, terminal = Device(), Terminal()
    try:
        with start(reader, terminal, tags_file) as process:
            terminal.expect("Registering deck", STARTUP)
            reader.receive_line()
            os.write(reader.master, b"".join(board_lines))
            terminal.expect("save deck 'board-07'?")
            terminal.type("n")
            terminal.expect("nothing saved")
            assert process.wait(WAIT) == 1
    finally:
        reader.close()
        terminal.close()
    assert tags_file.read_bytes() == before


def run_in_thread(argv: list[str], terminal: io.TextIOBase) -> tuple[threading.Thread, list[int]]:
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(register.main(
        argv, terminal=terminal)), daemon=True)  # type: ignore[arg-type]
    thread.start()
    return thread, result


def test_without_a_terminal_to_ask_nothing_is_saved(
        tmp_path: Path, board_lines: list[bytes], capsys: pytest.CaptureFixture[str]) -> None:
    tags_file = tmp_path / "tags.json"
    reader = Device()
    try:
        thread, result = run_in_thread([reader.path, "--tags", str(tags_file), "--deck", "d",
                                        "--sorted", "--timeout", str(WAIT)], io.StringIO(""))
        reader.receive_line()
        os.write(reader.master, b"".join(board_lines))
        thread.join(WAIT)
        assert result == [1]
    finally:
        reader.close()
    assert not tags_file.exists()
    assert "no terminal to ask whether to save: nothing saved (--yes" in capsys.readouterr().out


def wait_for(capsys: pytest.CaptureFixture[str], thread: threading.Thread, text: str) -> None:
    """Until the command run by ``thread`` has printed ``text`` (within ``WAIT`` seconds)."""
    shown = ""
    for _ in range(int(WAIT * 20)):
        shown += capsys.readouterr().out
        if text in shown:
            return
        thread.join(0.05)
    pytest.fail(f"waited {WAIT} s for {text!r}; shown: {shown!r}")


def test_the_prompted_routine_takes_a_card_back_too(
        tmp_path: Path, board_lines: list[bytes], capsys: pytest.CaptureFixture[str]) -> None:
    tags_file = tmp_path / "tags.json"
    T = tags_of(board_lines)
    typed_r, typed_w = os.pipe()
    reader = Device()
    try:
        with os.fdopen(typed_r) as keys, os.fdopen(typed_w, "w") as keyboard:
            thread, result = run_in_thread([reader.path, "--tags", str(tags_file), "--deck",
                                            "d", "--timeout", str(WAIT)], keys)
            reader.receive_line()
            os.write(reader.master, T[0] + T[2])  # C2, then C4 where C3 belongs
            wait_for(capsys, thread, "2/52 C3 = ")
            keyboard.write("u\n")
            keyboard.flush()
            wait_for(capsys, thread, "took C3 back (1/52); scan C3")
            os.write(reader.master, b"".join(T[1:]))
            thread.join(WAIT)
            assert result == [0]
    finally:
        reader.close()
    assert TagTable.load(tags_file).deck("d") == dict(zip(Card.ALL, map(uid, T), strict=True))


def test_the_benchmark_times_both_routines_in_one_run(capsys: pytest.CaptureFixture[str]) -> None:
    """bench.register (not a test itself) still runs both routines through the command."""
    from bench import register as bench_register

    assert bench_register.main(["--decks", "1"]) == 0
    out = capsys.readouterr().out
    assert "prompted (baseline):  n=52 " in out and "sorted:               n=52 " in out
    today = float(out.split("prompted (baseline):")[2].split()[0])
    fast = float(out.split("sorted, in one pass:")[1].split()[0])
    assert fast < today
