"""``bidbox replay`` on a file that is no record file (issue 27, item 12): it says so and
exits non-zero, and the files beside it are still replayed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bidbox.cli import main
from tests.records import GOLDEN_PLAYED


@pytest.mark.parametrize(("data", "said"), [
    (b"Nombre;Numero\r\nAna;7\r\n", "its first line reads 'Nombre;Numero'"),
    (random.Random(12).randbytes(2000).replace(b"\0", b"") + b"\0", "it is not text"),
    (b"", "it is empty"),
])
def test_a_file_that_is_no_record_file_is_named_and_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, said: str) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_bytes(data)
    assert main(["replay", str(junk)]) == 2
    err = capsys.readouterr().err
    assert f"{junk}: not a record file" in err and said in err


def test_the_record_files_beside_it_are_still_replayed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n")
    real = GOLDEN_PLAYED
    assert main(["replay", str(junk), str(real)]) == 2
    out = capsys.readouterr().out
    assert f"{real}:" in out and " ok" in out
