"""Screens, alerts, questions and system cards, scripted: for every viewer and every moment,
exactly what each sees (tablemodel.visibility.view_for), with the tray timed on a simulated clock.

Board 1: North deals. Screens put North and East on one side, South and West on the other.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from laws import Seat
from tabled.daemon import TableDaemon, Tick
from tabled.journal import Journal
from tablemodel.state import Phase
from tablemodel.syscard import example
from tablemodel.visibility import DIRECTOR, PUBLIC, VIEWERS, Viewer, view_for
from tests.clock import Clock

from .helpers import PBN, Table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
DELAY = 8.0


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make(tmp_path: Path, clock: Clock) -> Iterator[Any]:
    journals: list[Journal] = []

    def make(screens: bool = True, profile: str = "feb", cards: bool = True) -> Table:
        journal = Journal(tmp_path / f"t{len(journals)}.db")
        journals.append(journal)
        table = Table(TableDaemon(journal, clock=clock))
        conduct: dict[str, Any] = {"profile": profile}
        if screens:
            conduct["screens"] = {"north_with": "E", "tray_delay": DELAY}
        if cards:
            conduct["cards"] = {"NS": example().to_json(), "EW": example().to_json()}
        table.assign([1, 2], deals={"1": PBN}, conduct=conduct)
        table.seat_players()
        table.choose_board(1)
        return table

    yield make
    for journal in journals:
        journal.close()


def seen(table: Table, viewer: Viewer) -> list[str]:
    """The calls ``viewer`` sees, ``!`` for an alert it sees."""
    return [c.call + ("!" if c.alerted else "")
            for c in view_for(viewer, table.state).calls]


def everyone(table: Table) -> dict[Viewer, list[str]]:
    return {viewer: seen(table, viewer) for viewer in VIEWERS}


def at(clock: Clock, table: Table, when: float) -> None:
    """Move the clock; the table does what is due (the daemon's thread would, by timer)."""
    clock.now = when
    table.daemon.handle(Tick())


# -- screens -----------------------------------------------------------------------------------

def test_a_call_reaches_the_other_side_only_when_the_tray_crosses(make: Any,
                                                                   clock: Clock) -> None:
    table = make()
    at(clock, table, 1001)
    table.press(N, "1", "C", "ALERT", "OK")           # North alerts his own call to East
    assert everyone(table) == {N: ["1C!"], E: ["1C!"], S: [], W: [], DIRECTOR: ["1C!"],
                               PUBLIC: ["1C!"]}
    at(clock, table, 1002)
    table.call(E, "Pass")
    at(clock, table, 1007.9)                          # the tray arrived at 1000: not yet
    assert seen(table, S) == [] and seen(table, W) == []
    table.call(S, "1H")                               # South cannot call before it comes
    assert table.notice(S) is not None and table.notice(S).key == "tray_away"
    assert table.view(S)[2] == "Tray: other side"
    at(clock, table, 1008)                            # 8 s after it arrived: it crosses
    tray = [e for e in table.events() if e.type == "tray"]
    assert [(e.ts, dict(e.data)) for e in tray] == [(1008.0, {"calls": 2})]
    # North's alert was made to East: South and West see the call, not the alert.
    assert everyone(table) == {N: ["1C!", "Pass"], E: ["1C!", "Pass"], S: ["1C", "Pass"],
                               W: ["1C", "Pass"], DIRECTOR: ["1C!", "Pass"],
                               PUBLIC: ["1C!", "Pass"]}
    table.press(S, "ALERT")                           # South alerts partner's call to West
    assert seen(table, W) == ["1C!", "Pass"] and seen(table, S) == ["1C!", "Pass"]
    assert table.state.board is not None
    assert [a.by for a in table.state.board.alerted(0)] == [N, S]


def test_the_tray_waits_its_minimum_however_fast_the_calls(make: Any, clock: Clock) -> None:
    table = make()
    at(clock, table, 1000.5)
    table.calls("Pass", "Pass")                       # both of North's side call at once
    assert not [e for e in table.events() if e.type == "tray"]
    at(clock, table, 1020)                            # a slow side: the tray goes at once
    at(clock, table, 1020.5)
    table.calls("1D", "Pass")
    at(clock, table, 1027.9)
    assert len([e for e in table.events() if e.type == "tray"]) == 1
    at(clock, table, 1028)
    crossings = [e.ts for e in table.events() if e.type == "tray"]
    assert crossings == [1020.0, 1028.0]              # each at least DELAY after it arrived


def test_a_call_is_replaced_freely_until_the_tray_crosses(make: Any, clock: Clock) -> None:
    table = make()
    at(clock, table, 1001)
    table.call(N, "1H")
    table.call(E, "Pass")
    table.press(N, "UNDO")                            # unintended: still on the tray
    table.call(N, "1S")
    assert [e.type for e in table.events()][-1] == "change"
    board = table.state.board
    assert board is not None and [str(c) for c in board.auction.calls] == ["1S"]
    table.call(E, "Pass")                             # East calls again over the new call
    at(clock, table, 1008)
    assert seen(table, S) == ["1S", "Pass"]           # 1H never reached South's side
    table.press(N, "UNDO")                            # crossed now: too late (Law 25A)
    assert table.notice(N) is not None and table.notice(N).law == "25A"


def test_questions_and_answers_pass_between_screenmates_only(make: Any, clock: Clock) -> None:
    table = make()
    at(clock, table, 1001)
    table.call(N, "1NT")
    table.call(E, "Pass")
    at(clock, table, 1008)
    table.call(S, "2C")                               # Stayman, not alerted: a reminder
    assert table.notice(S) is not None and table.notice(S).key == "remind_alert"
    assert table.notice(N) is None                    # never to partner (Law 16B)
    table.press(S, "ALERT")
    assert seen(table, W)[-1] == "2C!"
    table.press(W, "INFO", "INFO")                    # W's turn: the question page
    assert table.view(W)[1] == "Ask: 2♣ by S"
    table.press(W, "OK")
    question = table.events()[-1]
    assert question.type == "question" and dict(question.data) == {
        "seat": "W", "index": 2, "to": "S"}           # written, to the screenmate
    assert table.view(S)[1] == "W? 2♣ by S"
    # Laws 20G2, 40B2(b): never the own card's meaning (a memory aid): standard answers,
    # or the card's code typed from memory.
    assert table.view(S)[2] == "1 natural"
    assert "Stayman" not in " ".join(table.view(S))
    table.press(S, "3", "S", "OK")                    # code 30 (S is the digit 0)
    assert dict(table.events()[-1].data) == {"seat": "S", "question": question.seq,
                                             "code": 30}
    assert " ".join(table.view(W)[2:4]).startswith("2♣: Stayman")
    for viewer, questions in {N: 0, E: 0, S: 1, W: 1, DIRECTOR: 1, PUBLIC: 1}.items():
        assert len(view_for(viewer, table.state).questions) == questions, viewer
    table.call(W, "Pass")
    at(clock, table, 1016)
    # North and East see the calls once the tray crosses, but neither the alert nor the
    # question: North never learns how South explained his partner's... own call.
    assert seen(table, N) == ["1NT", "Pass", "2C", "Pass"]
    assert seen(table, E) == ["1NT", "Pass", "2C", "Pass"]


def test_the_opening_lead_is_face_down_until_the_screenmate_says_so(make: Any,
                                                                    clock: Clock) -> None:
    table = make()
    at(clock, table, 1001)
    table.calls("1NT", "Pass")
    at(clock, table, 1008)
    table.calls("Pass", "Pass")
    table.scan("D4")                                  # East leads before the last tray
    assert table.notice(E) is not None and table.notice(E).key == "tray_away"
    at(clock, table, 1016)                            # the auction's last calls cross
    table.scan("D4")
    assert table.phase is Phase.LEAD and table.events()[-1].data["face_down"] is True
    shown = {v: [str(c) for _, c in view_for(v, table.state).cards] for v in VIEWERS}
    assert shown == {N: [], E: ["D4"], S: [], W: [], DIRECTOR: ["D4"], PUBLIC: []}
    assert view_for(W, table.state).dummy is None     # dummy stays in the hand too
    table.press(W, "OK")                              # not West: East's screenmate is North
    assert table.phase is Phase.LEAD
    table.press(N, "OK")
    assert table.events()[-1].type == "faced" and table.phase is Phase.PLAY
    assert {str(c) for _, c in view_for(W, table.state).cards} == {"D4"}
    assert view_for(E, table.state).dummy == table.state.board.known[S]  # type: ignore


# -- without screens --------------------------------------------------------------------------

def test_partner_alerts_and_the_answer_goes_to_the_askers_side(make: Any,
                                                               clock: Clock) -> None:
    table = make(screens=False)
    table.call(N, "1C")
    table.press(S, "ALERT")                           # partner alerts (AEB norms)
    assert everyone(table) == {v: ["1C!"] for v in VIEWERS}
    table.press(E, "INFO", "INFO", "OK")              # East asks; North's partner answers
    question = table.events()[-1]
    assert dict(question.data) == {"seat": "E", "index": 0, "to": "S"}
    table.press(S, "1", "S", "OK")                    # the card's code 10, from memory
    assert {v: len(view_for(v, table.state).questions) for v in VIEWERS} == {
        N: 0, E: 1, S: 1, W: 1, DIRECTOR: 1, PUBLIC: 1}
    assert table.view(E)[2].startswith("1♣: 13-14 or 19-20")
    assert table.view(W)[2].startswith("1♣: 13-14 or 19-20")


def test_answer_by_code_and_a_code_that_does_not_exist(make: Any, clock: Clock) -> None:
    table = make(screens=False)
    table.call(N, "2C")
    table.press(E, "INFO", "INFO", "OK")
    table.press(S, "5", "7", "OK")                    # no answer 57 on the card
    assert table.notice(S) is not None and table.notice(S).key == "bad_code"
    table.press(S, "1", "OK")                         # 1: "natural", a standard answer
    assert table.events()[-1].data["code"] == 1


def test_self_alerting_profile_reminds_the_caller_only(make: Any, clock: Clock) -> None:
    table = make(screens=False, profile="feb-self")
    table.call(N, "2C")
    assert table.notice(N) is not None and table.notice(N).key == "remind_alert"
    assert all(table.notice(s) is None for s in (E, S, W))
    table.press(S, "ALERT")                           # partner does not alert here
    assert table.notice(S) is not None and table.notice(S).key == "alert_nothing"
    table.press(N, "ALERT")
    assert seen(table, E) == ["2C!"]


@pytest.mark.parametrize(("calls", "reminded"), [
    (["1NT", "Pass", "4C"], False),  # natural jump above 3NT: not on the card as alertable
    (["2NT", "Pass", "4C"], True),   # an artificial direct response above 3NT (norm 4.2)
    (["1S", "Pass", "2S", "Pass", "4NT"], False),  # Blackwood: above 3NT, not alerted (3)
])
def test_norms_3_and_4_decide_alerts_above_3nt(make: Any, clock: Clock, calls: list[str],
                                               reminded: bool) -> None:
    table = make(screens=False, profile="feb-self")
    table.calls(*calls)
    caller = table.state.board.auction.entries[-1].seat  # type: ignore[union-attr]
    notice = table.notice(caller)
    assert (notice is not None and notice.key == "remind_alert") is reminded


def test_under_screens_every_artificial_call_is_alerted_above_3nt(make: Any,
                                                                  clock: Clock) -> None:
    table = make()
    at(clock, table, 1001)
    table.calls("1S", "Pass")
    at(clock, table, 1010)
    table.calls("2S", "Pass")
    at(clock, table, 1020)
    table.call(N, "4NT")
    assert table.notice(N) is not None and table.notice(N).key == "remind_alert"


def test_the_opponents_card_is_consulted_at_ones_turn_only(make: Any, clock: Clock) -> None:
    table = make(screens=False)
    table.press(E, "INFO", "INFO")                    # before the auction (40B2(c)(i))
    assert table.view(E)[1] == "NS card"
    table.press(E, "INFO")
    table.call(N, "1C")
    table.press(W, "INFO", "INFO")                    # not West's turn: no question, no card
    assert table.daemon.controller.entries[W].page is None
    table.press(W, "INFO")
    table.press(E, "INFO", "INFO", "INFO")            # East's turn: review, ask, card
    assert table.view(E)[1] == "NS card: 1♣"
    first = table.view(E)[2:4]                        # the meaning, two lines a page
    assert first[0] == "13-14 or 19-20" and first[1].endswith("→")
    table.press(E, "OK")                              # the meaning, further on
    assert table.view(E)[2].startswith(first[1][:-1].split()[-1]) is False
    meaning = " ".join(w for line in (first, table.view(E)[2:4]) for w in " ".join(line).split()
                       if w != "→")
    assert meaning.startswith("13-14 or 19-20 regular, or 13-20 with")


def test_a_late_alert_behind_screens_reaches_the_screenmate_and_the_director(
        make: Any, clock: Clock) -> None:
    table = make()
    at(clock, table, 1001)
    table.call(N, "2C")                               # strong and artificial: not alerted
    assert table.notice(N) is not None and table.notice(N).key == "remind_alert"
    table.call(E, "Pass")
    at(clock, table, 1008)                            # the tray crosses: now it is late
    assert everyone(table) == {v: ["2C", "Pass"] for v in VIEWERS}
    table.press(N, "ALERT")
    alert, director = table.events()[-2:]
    assert alert.type == "alert" and dict(alert.data) == {"seat": "N", "index": 0,
                                                          "late": True}
    assert director.type == "director" and director.data["law"] == "21B"
    assert everyone(table) == {N: ["2C!", "Pass"], E: ["2C!", "Pass"], S: ["2C", "Pass"],
                               W: ["2C", "Pass"], DIRECTOR: ["2C!", "Pass"],
                               PUBLIC: ["2C!", "Pass"]}
    assert [c.late for c in view_for(E, table.state).calls] == [True, False]
    assert table.view(S)[3] == "Director called"      # every display says the director
