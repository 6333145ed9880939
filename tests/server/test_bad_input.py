"""Bad input gets a clear refusal, never a silent nothing (issue 27, items 11, 13, 14): a
"PBN" that is not one, a register saved by Excel as "Unicode text", and player names that a
spreadsheet would run as formulas."""

from __future__ import annotations

import csv
import io
import random

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import FileStorage
from werkzeug.test import TestResponse, encode_multipart

from server.outputs.exports import csv_text, rankings_csv, spreadsheet_safe
from server.setup import player_register as register
from server.setup.session import SessionError, read_deals, set_names
from server.storage.db import Database
from tests.server.conftest import services
from tests.server.test_console import Director, pbn_file
from tests.server.test_exports import NOON, _passed_out, _start, fresh  # noqa: F401

NOISE = random.Random(27).randbytes(3000)


@pytest.mark.parametrize(("data", "reason"), [
    (NOISE, "not a PBN file"),
    (b"\xff" * 100 + b"\x00abc", "is a NUL, so it is not text"),
    (b"Nombre;Numero\r\nAna;7\r\n", "line 1 reads 'Nombre;Numero'"),
    (b"", "it is empty"),
    (b'[Board "1"]\n[Deal "N:AKQ.. "]\n', "line 1: board 1: Deal tag"),
    (pbn_file(range(40, 45)), "the file's games are boards 40-44; this session plays boards "
                              "1-16"),
])
def test_a_file_that_gives_no_deal_is_refused_with_the_line_and_the_reason(
        data: bytes, reason: str) -> None:
    with pytest.raises(SessionError) as refused:
        read_deals(data, range(1, 17))
    assert reason in str(refused.value)


def test_a_session_is_not_made_from_a_file_of_random_bytes(
        app: Flask, director: Director) -> None:
    client, token = director
    response = client.post("/console/setup?lang=en", data={
        "csrf": token, "title": "Jueves", "movement": "mitchell", "participants": "8",
        "boards_per_round": "2", "scoring": "mp",
        "pbn": (io.BytesIO(NOISE), "jueves.pbn")}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "not a PBN file" in response.get_data(as_text=True)
    assert services(app).session is None


def test_excels_unicode_text_is_read_as_a_register() -> None:
    text = "Número\tNombre\tLicencia\r\n7\tAna Ruiz Ibáñez\t28/1\r\n8\tLuis Gil\t\r\n"
    members, read = register.parse_csv(b"\xff\xfe" + text.encode("utf-16-le"))
    assert [(m.number, m.name, m.licence) for m in members] == [
        (7, "Ana Ruiz Ibáñez", "28/1"), (8, "Luis Gil", None)]
    assert (read.encoding, read.delimiter) == ("utf-16", "\t")


@pytest.mark.parametrize(("cell", "shown"), [
    ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"), ("@SUM(1+1)*cmd|' /C calc'!A0",
                                                    "'@SUM(1+1)*cmd|' /C calc'!A0"),
    ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"), ("-2+3", "'-2+3"),
    ("\tsneaky", "'\tsneaky"), ("-420", "-420"), ("+1.5", "+1.5"), ("Ana Ruiz", "Ana Ruiz"),
    (-420, -420), ("", ""),
])
def test_a_cell_that_would_be_a_formula_is_shown_as_text(cell: object, shown: object) -> None:
    assert spreadsheet_safe(cell) == shown


def test_the_csv_exports_neutralise_formulas_in_players_names(
        fresh: Database) -> None:  # noqa: F811
    from server.link.rounds import create_session

    session = create_session(fresh, event="four", title="Social", kind="individual",
                             participants=4, boards_per_round=4, scoring="club",
                             clock=lambda: NOON)
    set_names(fresh, session, {1: "+cmd|' /C calc'!A0", 2: "@SUM(1+1)", 3: "Cid", 4: "Dan"})
    seating = session.plan.at(1, 1)
    _passed_out(_start(fresh, "four", 1, 1, seating), seating.boards[0])
    names = [row["names"] for row in csv.DictReader(io.StringIO(rankings_csv(fresh, session)))]
    assert "'+cmd|' /C calc'!A0" in names and "'@SUM(1+1)" in names
    assert not any(name.startswith(("+", "@", "=")) for name in names)
    for row in csv.reader(io.StringIO(csv_text(fresh, session))):
        assert not any(cell.startswith(("+", "@", "=")) for cell in row), row


def test_a_large_hand_record_file_within_the_limit_is_taken_and_a_larger_one_refused(
        app: Flask, director: Director) -> None:
    """The size limit (4 MB) is above what a director uploads: a 3 MB PBN of deals (padded
    with comment lines, as a file with every table's play is long) is imported; one over the
    limit is refused with 413 before the app reads it."""
    from server import MAX_REQUEST

    client, token = director
    client.post("/console/setup", data={
        "csrf": token, "title": "Jueves", "movement": "mitchell", "participants": "8",
        "boards_per_round": "2", "scoring": "mp", "seed": "3"})
    padding = b"".join(b"; a comment line of a long file, as record files have\n"
                       for _ in range(3 * 1024 * 1024 // 54 + 1))
    big = padding + pbn_file(range(1, 9))
    assert 3 * 1024 * 1024 - 100 < len(big) < MAX_REQUEST
    answer = _post_file(client, token, big, "big.pbn")
    assert "8 manos importadas." in client.get("/console/session").get_data(as_text=True)
    assert answer.status_code == 302
    assert _post_file(client, token, padding * 2, "huge.pbn").status_code == 413


def _post_file(client: FlaskClient, token: str, data: bytes, name: str) -> TestResponse:
    """A hand-record upload, its body encoded here and held in memory (werkzeug's test client
    would spool a large one to a temporary file that nothing closes once the app refuses it
    unread)."""
    boundary, body = encode_multipart({"csrf": token, "pbn": FileStorage(io.BytesIO(data),
                                                                          name)})
    return client.post("/console/deals", data=body,
                       content_type=f"multipart/form-data; boundary={boundary}")
