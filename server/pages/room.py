"""The room mode: the results on the club room's big screen, read from across the room
(docs/display.md, "The room's screen").

``/room`` shows in large type (40 px at 1920x1080) what the director picked, a screenful at a
time, turning to the next screen by itself: the released boards' travellers, the newest
first; the rankings; each table's progress. The session's round, clock and boards finished
stay in the header on every screen. What it shows is in the address, so that the screen's
browser keeps it (the console's session page builds it):

- ``show=boards,rankings,progress``: the parts, in that order (any of them, at least one);
- ``seconds=15``: how long each screen stays (5 to 300);
- ``boards=6``: only the newest six released boards (blank or ``all``: every one).

``room.js`` lays the parts out into screens that fit the window (the server cannot know its
size), and fetches ``/room/parts`` again when the live stream says results changed. Everything
passes through the release rule of :mod:`server.scoring.standings`, as on the live page.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, render_template, request
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from server.errors import Refused
from server.link.round_times import server_now
from server.pages import display
from server.pages.progress import session_progress
from server.scoring import standings
from server.scoring.swiss import swiss_of
from server.services import services
from server.setup.movements import pair_number
from server.setup.session import Session
from server.texts.i18n import language, t

bp = Blueprint("room", __name__)

PARTS = ("boards", "rankings", "progress")
SECONDS = 15
"""Seconds each screen stays, unless the address says otherwise."""
FEWEST_SECONDS, MOST_SECONDS = 5, 300
COLUMN_EM = 22
"""The narrowest column room.js lays the parts in, in em of the room's text: a traveller of
eight columns fits in it at 40 px, so a 1920-pixel screen shows two side by side."""


class ChoiceError(Refused):
    """An address that asks the room's screen for something it cannot show; the message is
    in the page's language."""


@dataclass(frozen=True)
class Choice:
    """What the director picked for the room's screen."""

    parts: tuple[str, ...] = PARTS
    seconds: int = SECONDS
    boards: int | None = None  # the newest this many released boards; None: all

    def query(self) -> str:
        """The address's query for this choice, as the console's form writes it."""
        boards = "all" if self.boards is None else str(self.boards)
        return f"show={','.join(self.parts)}&seconds={self.seconds}&boards={boards}"


def choice_from(args: MultiDict[str, str]) -> Choice:
    """The choice in a request's arguments (``show`` as one list, ``show=boards,rankings``,
    or repeated, as the console's check boxes send it); blank ones take the defaults."""
    parts = tuple(part.strip() for given in args.getlist("show") for part in given.split(",")
                  if part.strip())
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise ChoiceError(t("room_bad_part", part=unknown[0][:40],
                            parts=", ".join(PARTS)))
    seconds = _whole(args.get("seconds", ""), "seconds", SECONDS)
    if not FEWEST_SECONDS <= seconds <= MOST_SECONDS:
        raise ChoiceError(t("room_bad_seconds", value=seconds, low=FEWEST_SECONDS,
                            high=MOST_SECONDS))
    text = args.get("boards", "").strip()
    boards = None if text in ("", "all") else _whole(text, "boards", 0)
    if boards is not None and boards < 1:
        raise ChoiceError(t("room_bad_boards", value=text[:20]))
    return Choice(tuple(dict.fromkeys(parts)) or PARTS, seconds, boards)


def _whole(text: str, name: str, default: int) -> int:
    text = text.strip()
    if not text:
        return default
    if not text.isdigit() or len(text) > 6:
        raise ChoiceError(t("room_not_a_number", what=t(f"room_{name}"), value=text[:20]))
    return int(text)


@bp.get("/room")
def page() -> Any:
    return _shown("display/room.html")


@bp.get("/room/parts")
def parts() -> Any:
    """What ``/room`` shows, alone: room.js lays it out again after each change."""
    return _shown("display/_room_parts.html")


def _shown(template: str) -> Any:
    """``template`` with the parts the address asks for; a refusal, or the page that says
    there is no session yet."""
    try:
        choice = choice_from(request.args)
    except ChoiceError as error:
        return render_template("display/room_refused.html", reason=str(error)), 400
    version = services().hub.version  # read before the data: a change after it is told
    session = services().session
    if session is None:
        return render_template("display/empty.html")
    return render_template(template, session=session, choice=choice, version=version,
                           config=_config(choice), texts=display.script_texts(session),
                           **_parts(session, choice), **display.HELPERS)


def _parts(session: Session, choice: Choice) -> dict[str, Any]:
    db = services().db
    display.read_session(session)
    scores = services().scored(session)  # scored once per change for every reader
    scored = scores.field
    boards = newest_first(scores.shown)
    if choice.boards is not None:
        boards = boards[:choice.boards]
    swiss = (swiss_of(db, session, public=True, scored_field=scored)
             if session.kind.paired else None)
    return {"method": scored.method, "labels": display.labels_of(session), "swiss": swiss,
            "groups": display.ranking_groups(scored.standings),
            "boards": [(board, display.traveller(lines, scored.scored.get(board, [])))
                       for board, lines in boards],
            "progress": session_progress(db, session, len(scores.released), server_now())}


def newest_first(rows: list[standings.ResultRow]) -> list[tuple[int, list[Any]]]:
    """The released boards' results, the board whose last result came in latest first (the
    highest number first among boards finished together)."""
    by_board: dict[int, list[standings.ResultRow]] = {}
    for row in rows:
        by_board.setdefault(row.board, []).append(row)
    latest = {board: max(row.finished_at for row in found) for board, found in by_board.items()}
    return [(board, by_board[board])
            for board in sorted(by_board, key=lambda b: (-latest[b], -b))]


def _config(choice: Choice) -> Markup:
    """room.js's settings and words, as JSON safe inside <script>."""
    text = json.dumps({"seconds": choice.seconds, "column_em": COLUMN_EM,
                       "query": choice.query(), "language": language(),
                       "screen": t("room_screen"), "continued": t("room_continued"),
                       "paused": t("room_paused"), "offline": t("display_offline")},
                      ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


@bp.app_context_processor
def room_helpers() -> dict[str, Any]:
    return {"pair_number": pair_number, "room_parts": PARTS}
