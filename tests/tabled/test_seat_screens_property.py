"""Random keys and cards at a table, in both languages: every screen of every seat is four
lines that fit, and the layout never meets a line or a body it would have to cut (issue 33:
"the screens will be driven again, with cases not named here")."""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laws import Seat
from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tablemodel.state import Phase
from tablemodel.syscard import example
from tablemodel.texts import WIDTH
from tests.clock import Clock

from .helpers import PBN, Table

KEYS = ["1", "2", "3", "4", "5", "6", "7", "C", "D", "H", "S", "NT", "PASS", "X", "XX",
        "OK", "UNDO", "INFO", "ALERT"]
ACTIONS = st.lists(st.tuples(st.sampled_from([*KEYS, "CARD", "CARD", "CARD"]),
                             st.sampled_from(list(Seat)), st.integers(0, 12)),
                   min_size=5, max_size=120)


AUCTIONS = [[], ["1NT", "Pass", "Pass", "Pass"],
            ["1C", "ALERT", "Pass", "1H", "Pass", "4H", "Pass", "Pass", "Pass"],
            ["1C", "ALERT", "X", "XX", "Pass", "Pass", "Pass"],
            ["Pass", "Pass", "1S", "2H", "2S", "Pass", "Pass", "Pass"]]


class Faults(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(record.getMessage())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(language=st.sampled_from(["es", "en"]), switch=st.booleans(),
       auction=st.sampled_from(AUCTIONS), actions=ACTIONS)
def test_every_screen_fits_whatever_is_pressed(language: str, switch: bool, auction: list[str],
                                               actions: list[tuple[str, Seat, int]]) -> None:
    faults = Faults()
    logger = logging.getLogger("tabled.seat_lines")
    logger.addHandler(faults)
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal(Path(folder) / "t.db")
        try:
            table = Table(TableDaemon(journal, language=language, clock=Clock()))
            card = example().to_json()
            table.assign([1, 2], deals={"1": PBN}, switch=switch, section="bilbao-centro",
                         label="bilbao-centro-12",
                         roster={"11": "María de los Ángeles Fernández-Castañón"},
                         conduct={"profile": "feb", "cards": {"NS": card, "EW": card}})
            table.press(Seat.N, "1", "1", "OK")
            for other in (Seat.E, Seat.S, Seat.W):
                table.press(other, "OK")         # no number: skipped
            table.press(Seat.N, "OK")            # board 1 on the table
            assert table.phase is Phase.SETUP
            for call in auction:                 # a start, so that the play is reached too
                if call == "ALERT":
                    board = table.state.board
                    assert board is not None
                    table.press(board.auction.entries[-1].seat.partner, "ALERT")
                else:
                    table.calls(call)
            for action, seat, pick in actions:
                board = table.state.board
                if action == "CARD":
                    play = None if board is None else board.play
                    if play is not None and table.phase in (Phase.LEAD, Phase.PLAY):
                        legal = list(play.legal_cards())
                        if legal:
                            table.scan(legal[pick % len(legal)])
                    continue
                table.press(seat, action)
                for each in Seat:
                    rows = table.view(each)
                    assert len(rows) == 4 and all(len(r) <= WIDTH for r in rows), rows
        finally:
            journal.close()
            logger.removeHandler(faults)
    assert faults.seen == []
