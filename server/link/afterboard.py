"""What each table may show after a board (issue 32), under the release rule.

Once a board's result is agreed, the players see (tablemodel/afterboard.py) the pair's score on
the board, its traveller and its double-dummy line and par, each as the director switched it
on in the session's set-up (``after_board``; every page on for a session without a row). The
server decides what a table may see and publishes it, retained, on the table's own topic
(``bidbox/v1/<event>/table/<t>/afterboard``, docs/mqtt.md): the table asks nothing and holds
nothing the room may not see yet.

The release rule is the pages' own (server/scoring/standings.py ``released_boards``): of a board
that a table the movement schedules has still to play (and that the director has not released),
the message says only ``released: false``: no contract, no score, no percentage, no hand.
Once it is released the table gets the traveller (within its section when the session scores
each section on its own), its pair's percentage (matchpoints) or IMPs, and the board's
double-dummy tricks and par once the analysis is stored.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update

from server.scoring import standings
from server.scoring.analysis import Analysis, AnalysisError
from server.scoring.fieldscore import Scored
from server.setup.scorings import Method
from server.setup.session import Session, stored_analysis
from server.storage import schema as s
from server.storage.db import Database
from server.texts.i18n import PAGES
from tablemodel.afterboard import DD_STRAINS as TABLE_DD_STRAINS
from tablemodel.afterboard import PAGE_KINDS
from tablemodel.texts import Words
from tablemodel.wire import MAX_AFTER_BOARDS, MAX_PAYLOAD, afterboard_board, afterboard_payload

PAGES.add({
    "console_after_board": Words(es="En las mesas, tras cada tablero",
                                 en="At the tables, after each board"),
    "console_after_board_help": Words(
        es="Lo que ven los jugadores al confirmar el resultado, cada tablero solo cuando "
           "todas las mesas lo han jugado (o lo publica el árbitro); antes, «Resultados "
           "cuando lo jueguen todos».",
        en="What the players see once they confirm the result, each board only once every "
           "table has played it (or the director released it); before that, \"Results "
           "once every table has played it\"."),
    "console_after_board_score": Words(es="Porcentaje o IMPs de la pareja",
                                       en="The pair's percentage or IMPs"),
    "console_after_board_traveller": Words(es="Planilla del tablero (resultados de las "
                                              "demás mesas)",
                                           en="The board's traveller (the other tables' "
                                              "results)"),
    "console_after_board_record": Words(es="Doble muerto y par de la mano",
                                        en="The hand record's double dummy and par"),
    "console_after_board_save": Words(es="Guardar", en="Save"),
    "console_after_board_set": Words(es="Las mesas muestran tras cada tablero: {pages}.",
                                     en="The tables show after each board: {pages}."),
    "console_after_board_none": Words(es="nada", en="nothing"),
})

# The double-dummy tricks go to the table in the order the table reads them.
DD_STRAINS = tuple(strain.name for strain in TABLE_DD_STRAINS)
DD_SEATS = ("N", "E", "S", "W")


KINDS = PAGE_KINDS
"""The pages, in the order the tables show them (defined with the table's pages)."""


@dataclass(frozen=True)
class Pages:
    """The director's switches: which pages the tables show after a board."""

    score: bool = True
    traveller: bool = True
    record: bool = True

    @property
    def on(self) -> bool:
        return self.score or self.traveller or self.record


def pages_of(db: Database, session: Session) -> Pages:
    with db.read() as conn:
        row = conn.execute(select(s.after_board).where(
            s.after_board.c.session_id == session.id)).first()
    return Pages() if row is None else Pages(row.score, row.traveller, row.record)


def set_pages(db: Database, session: Session, pages: Pages, by: str | None,
              clock: Callable[[], float] = time.time) -> None:
    values = {"score": pages.score, "traveller": pages.traveller, "record": pages.record,
              "changed_at": clock(), "changed_by": by}
    with db.write() as conn:
        found = conn.execute(select(s.after_board.c.session_id).where(
            s.after_board.c.session_id == session.id)).first()
        if found is None:
            conn.execute(insert(s.after_board).values(session_id=session.id, **values))
        else:
            conn.execute(update(s.after_board).where(
                s.after_board.c.session_id == session.id).values(**values))


def _line(row: standings.ResultRow) -> list[Any]:
    return [row.table, row.ns_pair or 0, row.ew_pair or 0, row.contract, row.declarer,
            row.tricks, row.score_ns, row.adjusted[:16] if row.adjusted else None]


def _ordered(rows: list[standings.ResultRow],
             scored: dict[int, Scored]) -> list[standings.ResultRow]:
    """Best for North-South first, as the travellers of the pages (server/pages/display.py)."""
    def key(row: standings.ResultRow) -> tuple[float, int]:
        found = scored.get(row.table)
        return (-(found.ns if found is not None else (row.score_ns or 0)), row.table)
    return sorted(rows, key=key)


def _record(db: Database, session: Session, board: int) -> dict[str, Any]:
    """The board's double-dummy tricks and par, once the analysis is stored; else nothing."""
    text, _ = stored_analysis(db, session, board)
    if text is None:
        return {}
    try:
        analysis = Analysis.from_json(text)
    except (AnalysisError, ValueError):
        return {}
    return {"tricks": {seat: [analysis.tricks[strain][seat] for strain in DD_STRAINS]
                       for seat in DD_SEATS},
            "par": {"score": analysis.par_score,
                    "contracts": list(analysis.par_contracts)[:8]}}


def payloads(db: Database, session: Session) -> dict[int, bytes]:
    """Each table's message: the switches and, for the boards it finished (the newest
    first, at most ``MAX_AFTER_BOARDS``), what the release rule lets it show. What the
    tables share (a board's traveller, its analysis) is made and checked once; only each
    table's own score is its own. Not in a web request nor on the ingest's thread: the
    field's scores of a big session take seconds (``Services._watch_after_board``)."""
    pages = pages_of(db, session)
    if session.scoring.method is Method.POINTS:
        # A social scoring (the individual's club, rubber, Chicago): each result stands
        # alone, its points on the table's own line; there is no pair's score to show.
        pages = Pages(False, pages.traveller, pages.record)
    rows = standings.all_results(db, session)
    released = standings.released_boards(db, session, rows) if pages.on else set()
    by_table: dict[int, list[standings.ResultRow]] = defaultdict(list)
    by_board: dict[int, list[standings.ResultRow]] = defaultdict(list)
    for row in rows:
        by_table[row.table].append(row)
        by_board[row.board].append(row)
    field = standings.public_field(db, session, rows) if pages.on and released else None
    scored: dict[int, dict[int, Scored]] = defaultdict(dict)  # board -> table -> scored
    if field is not None:
        for board, lines in field.scored.items():
            for line in lines:
                if line.result.table is not None:
                    scored[board][line.result.table] = line
    apart = len(session.sections) > 1 and session.scope == "section"
    shared: dict[tuple[int, str], dict[str, Any]] = {}  # (board, section) -> its checked part

    def common(board: int, section: str) -> dict[str, Any]:
        key = (board, section if apart else "")
        if key not in shared:
            part: dict[str, Any] = {"board": board, "released": True}
            if pages.traveller:
                field_rows = [r for r in by_board[board] if not apart or r.section == section]
                part["traveller"] = [_line(r) for r in _ordered(field_rows,
                                                                scored.get(board, {}))]
            if pages.record:
                part.update(_record(db, session, board))
            shared[key] = dict(afterboard_board(part))
        return shared[key]

    out: dict[int, bytes] = {}
    for table in range(1, session.tables + 1):
        own = sorted(by_table.get(table, []), key=lambda r: -r.finished_at)
        boards: list[Mapping[str, Any]] = []
        for row in own[:MAX_AFTER_BOARDS] if pages.on else []:
            if row.board not in released:
                boards.append({"board": row.board, "released": False})
                continue
            shown = common(row.board, row.section)
            score = _score(scored.get(row.board, {}).get(table), field) if pages.score else None
            if score is not None:
                shown = {**shown, "score": score}
                afterboard_board({"board": row.board, "released": True, "score": score})
            boards.append(shown)
        value = {"table": table, "show": {"score": pages.score, "traveller": pages.traveller,
                                          "record": pages.record}, "boards": boards}
        out[table] = _fitted(value)
    return out


def _score(mine: Scored | None, field: standings.Field | None) -> dict[str, Any] | None:
    """The table's pairs' score on the board: percentages at matchpoints, IMPs at IMPs;
    none at a social scoring (each result stands alone) or where the board is not scored."""
    if mine is None or field is None or field.method is Method.POINTS:
        return None
    if field.method is Method.MP:
        if mine.ns_percent is None or mine.ew_percent is None:
            return None
        return {"ns": round(mine.ns_percent, 2), "ew": round(mine.ew_percent, 2), "unit": "%"}
    return {"ns": round(mine.ns, 2), "ew": round(mine.ew, 2), "unit": "imp"}


def _fitted(value: dict[str, Any]) -> bytes:
    """The message, its oldest boards left out while it is over the wire's limit (a
    traveller of hundreds of tables, several boards): the newest board is the one the
    players look at. Each board was checked on its own (``afterboard_board``)."""
    while len(json.dumps({"v": 1, **value}, separators=(",", ":"), ensure_ascii=False)
              .encode()) > MAX_PAYLOAD and value["boards"]:
        value = {**value, "boards": value["boards"][:-1]}
    return afterboard_payload(value, boards_checked=True)
