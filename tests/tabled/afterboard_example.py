"""The example the guide docs/afterboard.md shows, rendered by the table's own code: board 5
of a club's Tuesday, released, at table 1 (pairs 1 and 3), in both languages."""

from __future__ import annotations

from tablemodel import afterboard
from tablemodel.afterboard import Browsing
from tablemodel.state import TableState
from tablemodel.wire import AfterBoard, afterboard_from_payload, afterboard_payload

MESSAGE = {
    "table": 1, "show": {"score": True, "traveller": True, "record": True},
    "boards": [
        {"board": 6, "released": False},
        {"board": 5, "released": True,
         "traveller": [[3, 5, 7, "4S", "S", 11, 450, None], [1, 1, 3, "4S", "S", 10, 420, None],
                       [2, 6, 2, "3NT", "N", 9, 400, None], [4, 4, 8, "5DX", "E", 8, 300, None],
                       [5, 8, 6, "Pass", None, None, 0, None]],
         "score": {"ns": 62.5, "ew": 37.5, "unit": "%"},
         "tricks": {"N": [7, 8, 6, 10, 9], "S": [7, 8, 6, 10, 9], "E": [6, 5, 7, 3, 4],
                    "W": [6, 5, 7, 3, 4]},
         "par": {"score": 420, "contracts": ["4SN", "4SS"]}}]}


def example() -> AfterBoard:
    return afterboard_from_payload(afterboard_payload(MESSAGE))


def screens(language: str) -> list[tuple[str, list[str]]]:
    """Each page of board 5, then board 6's, as four lines of a seat display (the last line
    the key's hint, as on a display with nothing else to say there)."""
    shown = example()
    state = TableState()
    out = []
    for board in (5, 6):
        for at in range(len(afterboard.pages(shown, board, state, language))):
            where = Browsing(board, at)
            lines = afterboard.page_lines(where, shown, state, language)
            assert lines is not None
            out.append((f"{board}.{at + 1}",
                        [*lines, afterboard.hint(where, shown, state, language)]))
    return out


def block(lines: list[str]) -> str:
    """A display as the guide draws it: a frame of twenty columns."""
    edge = "+" + "-" * afterboard.WIDTH + "+"
    return "\n".join([edge, *(f"|{line:<{afterboard.WIDTH}}|" for line in lines), edge])
