"""A power cut between an event and the one the laws add to it (found by test_faults_kill).

The table appends the result of a board as a follow-up of the event that ends it (a pass-out's
fourth pass, the last card, the agreement that settles a claim), in a transaction of its own.
A table that loses power between the two comes back with the auction or the play over and no
result, and nothing it will accept, unless ``TableDaemon.start`` appends what the journal
owes, as it now does.
"""

from __future__ import annotations

from pathlib import Path

from laws import Seat
from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tablemodel.state import Phase


def test_a_table_cut_off_between_the_fourth_pass_and_its_result_comes_back_with_it(
        tmp_path: Path) -> None:
    journal = Journal(tmp_path / "table.db")
    journal.append("assign", None, {"cmd": "a-1", "round": 1, "ns": 1, "ew": 2,
                                    "boards": [2]}, 1.0)
    for number, seat in enumerate(Seat):
        journal.append("player", None, {"seat": str(seat), "number": 10 + number}, 2.0)
    journal.append("board", 2, {"board": 2, "dealer": "E", "vul": "NS"}, 3.0)
    for seat in (Seat.E, Seat.S, Seat.W, Seat.N):  # Law 22A: passed out
        journal.append("call", 2, {"seat": str(seat), "call": "Pass"}, 4.0)
    daemon = TableDaemon(journal)  # the power comes back here
    assert daemon.state.board is not None and daemon.state.board.auction.is_over
    daemon.start()
    try:
        assert daemon.wait_for(lambda s: s.phase is Phase.RESULT, 2.0), \
            f"the table resumed in phase {daemon.state.phase}, with no result"
        assert [e.type for e in journal.events(journal.last_seq - 1)] == ["result"]
    finally:
        daemon.stop()
        journal.close()
