"""A property over random legal auctions behind screens, with random alerts, questions and
answers and random pauses on a simulated clock: partner never sees an alert or an
explanation of their own side's calls; the other side never sees a call before the tray
crosses; the tray never crosses sooner than its minimum after it arrived."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laws import Seat
from tabled.control import Controller, Outcome
from tablemodel.state import TableState
from tablemodel.syscard import example
from tablemodel.visibility import view_for
from tablemodel.wire import Command, Event

from .helpers import PBN

DELAY = 5.0
SIDE = {Seat.N: 0, Seat.E: 0, Seat.S: 1, Seat.W: 1}


class Pure:
    """Controller and state without a journal: each proposed event is applied at once."""

    def __init__(self) -> None:
        self.state = TableState()
        self.controller = Controller(self.state)
        self.now = 1000.0
        self.crossings: list[tuple[float, float]] = []  # (arrived, crossed)

    def apply(self, outcome: Outcome) -> None:
        pending = list(outcome.events)
        while pending:
            proposed = pending.pop(0)
            board = self.state.board
            if proposed.type == "tray" and board is not None and board.tray is not None:
                self.crossings.append((board.tray.arrived, self.now))
            self.state.apply(Event(self.state.seq + 1, proposed.type, self.now,
                                   proposed.board, dict(proposed.data)))
            pending.extend(self.controller.follow_up())

    def keys(self, seat: Seat, *keys: str) -> None:
        for key in keys:
            self.apply(self.controller.key(seat, key))

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.apply(self.controller.tick(self.now))


def start() -> Pure:
    table = Pure()
    card = example().to_json()
    table.apply(table.controller.command(Command("a", "assign", {
        "round": 1, "ns": 1, "ew": 2, "boards": [1], "deals": {"1": PBN},
        "conduct": {"screens": {"north_with": "E", "tray_delay": DELAY},
                    "cards": {"NS": card, "EW": card}}})))
    for number, seat in enumerate(Seat, 1):
        table.keys(seat, str(number), "OK")
    table.keys(Seat.N, "OK")
    return table


def call_keys(text: str) -> list[str]:
    return {"Pass": ["PASS"], "X": ["X"], "XX": ["XX"]}.get(text) or [text[0], text[1:]]


def check(table: Pure) -> None:
    board = table.state.board
    assert board is not None and board.tray is not None
    for seat in Seat:
        view = view_for(seat, table.state)
        for call in view.calls:
            caller_side = SIDE[call.seat]
            # The other side's calls only once the tray has brought them.
            assert caller_side == SIDE[seat] or call.index < board.tray.crossed
        for question in view.questions:
            assert seat in (question.asker, question.answerer)
            assert question.answerer is not seat.partner and question.asker is not seat.partner
        for index, call in enumerate(view.calls):
            mine = [a for a in board.alerted(index) if SIDE[a.by] == SIDE[seat]]
            # The alert a seat sees is one made on its own side of the screen.
            assert call.alerted == bool(mine)
            assert all(a.by is not seat.partner for a in mine)
    for arrived, crossed in table.crossings:
        assert crossed - arrived >= DELAY


action = st.tuples(st.sampled_from(["call", "alert", "ask", "answer", "wait", "replace"]),
                   st.sampled_from(list(Seat)), st.integers(0, 40), st.floats(0.1, 9.0))


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(action, min_size=5, max_size=60))
def test_nothing_leaks_across_the_screen(actions: list[tuple[str, Seat, int, float]]) -> None:
    table = start()
    for kind, seat, number, seconds in actions:
        board = table.state.board
        if board is None or board.auction.is_over:
            break
        if kind == "call":
            turn = board.auction.turn
            assert turn is not None
            legal = [str(c) for c in board.auction.legal_calls()]
            # Passes more often than not, so that auctions end and calls stay low.
            text = "Pass" if number % 3 else legal[number % min(len(legal), 12)]
            table.keys(turn, *call_keys(text), *(["ALERT"] if number % 5 == 0 else []),
                       "OK")
        elif kind == "alert":
            table.keys(seat, "ALERT")
        elif kind == "ask":
            table.keys(seat, "INFO", "INFO", *(["UNDO"] * (number % 3)), "OK", "INFO",
                       "INFO")
        elif kind == "answer":
            table.keys(seat, *(["UNDO"] * (number % 4)), "OK")
        elif kind == "replace":
            table.keys(seat, "UNDO", *call_keys("Pass"), "OK")
        else:
            table.wait(seconds)
        for entry in table.controller.entries.values():
            entry.keys.clear()
        check(table)


def test_the_property_sees_the_tray_cross_at_all() -> None:
    """The property is not vacuous: a plain run crosses the tray and hides calls meanwhile."""
    table = start()
    table.keys(Seat.N, "1", "C", "OK")
    assert [c.call for c in view_for(Seat.S, table.state).calls] == []
    table.keys(Seat.E, "PASS", "OK")
    table.wait(DELAY)
    assert [c.call for c in view_for(Seat.S, table.state).calls] == ["1C", "Pass"]
    assert table.crossings == [(1000.0, 1000.0 + DELAY)]
