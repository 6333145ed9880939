"""End to end: a board released by its last table is analysed in the background, and its page
then shows the double-dummy table and par (endplay, the optional extra)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from server.scoring.analysis import analyse
from server.setup.session import deals_of, stored_analysis
from tests.server.conftest import make_app, services
from tests.server.test_display import Room

pytest.importorskip("endplay")


@pytest.fixture
def analysing_app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(str(tmp_path / "bidbox.db"), ANALYSIS=True)
    yield app
    services(app).close()


def test_a_released_board_gets_its_analysis_without_a_request(analysing_app: Flask) -> None:
    room = Room(analysing_app)
    last = room.play_all_but_one(1, "3NT", "N", 9)
    hub = services(analysing_app).hub
    assert stored_analysis(services(analysing_app).db, room.session, 1) == (None, None)
    room.play(last, 1, "3NT", "N", 10)  # the board is released now
    deadline = time.monotonic() + 30
    seen = hub.version
    while stored_analysis(services(analysing_app).db, room.session, 1)[0] is None:
        left = deadline - time.monotonic()
        assert left > 0, "the released board was never analysed"
        seen = hub.wait(seen, left).version
    deal = deals_of(services(analysing_app).db, room.session)[1]
    expected = analyse(deal, 1)
    page = analysing_app.test_client().get("/board/1?lang=en").get_data(as_text=True)
    assert f"NS {expected.par_score:+d}:" in page  # the par line of the hand record
    # Board 2 was never played: no analysis was made for it.
    assert stored_analysis(services(analysing_app).db, room.session, 2) == (None, None)
