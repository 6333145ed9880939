"""After a board: the pages a seat's display shows once the result is confirmed (issue 32).

What the server lets a table show of the boards it has finished arrives retained on the
table's own topic (``bidbox/v1/<event>/table/<t>/afterboard``, docs/mqtt.md), decoded by
``tablemodel.wire.afterboard_from_payload`` into an :class:`AfterBoard`. The server sends nothing
of a board the release rule hides (some table the movement schedules still has to play it,
and the director has not released it): only that it is not released. Here the table turns
that into pages of three lines for a seat's twenty-character display, in Spanish or English:

- **Result**: the table's own result and, once released, the pair's score on the board (the
  percentage at matchpoints, the IMPs at IMP scorings).
- **Traveller** (``Planilla``): every table's result on the board, two to a page, best for
  North-South first; this table's own line marked with ``*``.
- **Double dummy** (``Doble muerto``): the contracts each seat makes (the level, ``-`` for
  none), then par.

A board not released shows one page that says when the results come. Each page the director
turned off in set-up is left out; with every page off the table shows none, as before.

The keys (docs/keypad.md, "After the board"): between boards (the ``board`` and ``round_end``
phases) INFO turns to the next page, and past the last back to the plain display; UNDO with
nothing typed shows the board this table played before (round to the newest): a board of an
earlier round released since is there too. Every other key does what it always does:
OK plays the next board, so the pages never hold up the next auction. The pages open by
themselves on every display once a board's result is confirmed.

Pure: no I/O; the daemon (``tabled.daemon``) keeps the latest ``AfterBoard`` and each seat's
:class:`Browsing`, and asks :func:`page_lines` for the lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from laws import RulesError, Strain, parse_contract

from .state import Phase, Result, TableState
from .texts import Words, table
from .wire import AfterBoard, Line, Shown
from .words import contract_pieces, plain, seat_letter, strain_pieces

WIDTH = 20
ROWS = 2  # traveller lines on a page: the first line is the page's heading
PAGE_KINDS = ("score", "traveller", "record")
"""The director's switches (the console's set-up), in the order the pages come."""
DD_STRAINS = (Strain.C, Strain.D, Strain.H, Strain.S, Strain.NT)
DD_SEATS = ("N", "S", "E", "W")
BETWEEN = frozenset({Phase.BOARD, Phase.ROUND_END})
"""Where the pages show: no board on the table, so no auction or play is held up."""

TEXTS = table("after the board", {
    "head": Words(es="T{board} {title}", en="B{board} {title}"),
    "head_short": Words(es="T{board}", en="B{board}"),
    "title_result": Words(es="Resultado", en="Result"),
    "title_traveller": Words(es="Planilla", en="Traveller"),
    "title_record": Words(es="Doble muerto", en="Makeable"),
    "title_par": Words(es="Par", en="Par"),
    "wait1": Words(es="Resultados cuando", en="Results once every"),
    "wait2": Words(es="lo jueguen todos", en="table has played it"),
    "nothing1": Words(es="Sin resultados", en="No results"),
    "nothing2": Words(es="de otras mesas", en="from other tables"),
    "percent": Words(es="NS {ns}% EO {ew}%", en="NS {ns}% EW {ew}%"),
    "imps": Words(es="NS {ns} EO {ew} IMP", en="NS {ns} EW {ew} IMP"),
    "imps_short": Words(es="NS {ns} IMP", en="NS {ns} IMP"),
    "no_score": Words(es="Sin puntuación aún", en="Not scored yet"),
    "par": Words(es="Par NS {score}", en="Par NS {score}"),
    "par_none": Words(es="Par: todos pasan", en="Par: passed out"),
    "next": Words(es="INFO: siguiente", en="INFO: next page"),
    "last": Words(es="INFO: salir", en="INFO: leave"),
})


class LayoutError(ValueError):
    """A line that would not fit twenty columns in any of its forms."""


# -- each seat's place in the pages --------------------------------------------------------

@dataclass(frozen=True)
class Browsing:
    """A seat looking at the pages of ``board``, page ``page`` (from 0)."""

    board: int
    page: int = 0


def finished(state: TableState, shown: AfterBoard | None) -> list[int]:
    """The boards this table has finished, newest first: this round's (the table's own
    record), then those of earlier rounds the server names (a board is often released only
    rounds later: a Mitchell's, at the end)."""
    boards = list(reversed(list(state.results)))
    if shown is not None:
        boards += [b.board for b in shown.boards if b.board not in boards]
    return boards


def opened(state: TableState, shown: AfterBoard | None) -> Browsing | None:
    """What a display shows once a board is confirmed: the first page of the newest board,
    when the director turned any page on; None otherwise."""
    boards = finished(state, shown)
    if shown is None or not shown.on or not boards or state.phase not in BETWEEN:
        return None
    return Browsing(boards[0])


def key(browsing: Browsing | None, key: str, typed: bool, state: TableState,
        shown: AfterBoard | None, language: str) -> tuple[bool, Browsing | None]:
    """A key pressed at a seat between boards: (taken, where the seat is now). Only INFO and
    UNDO (with nothing typed) are taken; every other key goes to the controller as always."""
    boards = finished(state, shown)
    if (shown is None or not shown.on or not boards or state.phase not in BETWEEN
            or typed or key not in ("INFO", "UNDO")):
        return False, browsing
    if key == "UNDO":
        if browsing is None:
            return False, None
        at = boards.index(browsing.board) if browsing.board in boards else -1
        return True, Browsing(boards[(at + 1) % len(boards)])
    if browsing is None or browsing.board not in boards:
        return True, Browsing(boards[0])
    count = len(pages(shown, browsing.board, state, language))
    return True, (Browsing(browsing.board, browsing.page + 1)
                  if browsing.page + 1 < count else None)


# -- the pages -------------------------------------------------------------------------------

def _t(key: str, language: str, **args: object) -> str:
    return TEXTS.text(key, language, **args)


def fitting(*forms: str) -> str:
    """The first form that fits a line; a layout that fits in none is an error, never a
    line cut short without a word."""
    for form in forms:
        if len(form) <= WIDTH:
            return form
    raise LayoutError(f"no form fits {WIDTH} columns: {forms!r}")


def number(value: float, language: str, *, sign: bool = False) -> str:
    """Two decimals, with the decimal comma in Spanish: ``62,50``; ``+5,33``."""
    text = f"{value:+.2f}" if sign else f"{value:.2f}"
    return text.replace(".", ",") if language == "es" else text


def _contract(text: str | None, declarer: str | None, language: str,
              adjusted: str | None) -> str:
    """``4♥X S``; passed out in words; an artificial score as the director wrote it."""
    if text is None:
        return adjusted or "?"
    try:
        parsed = parse_contract(text)
    except RulesError:
        return text
    shown = plain(contract_pieces(text, language))
    if parsed is None:
        return shown
    return shown + (" " + seat_letter(declarer, language) if declarer else "")


def _made(text: str | None, tricks: int | None) -> str:
    """The tricks as a traveller writes them: ``=``, ``+1``, ``-2``."""
    if text is None or tricks is None:
        return ""
    try:
        parsed = parse_contract(text)
    except RulesError:
        return ""
    if parsed is None:
        return ""
    over = tricks - parsed.level - 6
    return "=" if over == 0 else f"{over:+d}"


def _score(value: int | None) -> str:
    return "" if value is None else f"{value:+d}" if value else "0"


def traveller_line(line: Line, own: bool, language: str) -> str:
    """``*3-13 4♥ S = +420``: this table's line marked; the pairs go when it would not fit."""
    pairs = f"{'*' if own else ''}{line.ns}-{line.ew}"
    what = _contract(line.contract, line.declarer, language, line.adjusted)
    made = _made(line.contract, line.tricks)
    score = _score(line.score_ns)
    body = " ".join(p for p in (what, made, score) if p)
    return fitting(f"{pairs} {body}", f"{'*' if own else ''}{body}")


def own_line(result: Result, language: str) -> str:
    """The table's own result: ``4♥ S 10 +420``."""
    if result.adjusted:
        what = result.adjusted
        tricks = ""
    else:
        what = _contract(result.contract_text, str(result.declarer) if result.declarer
                         else None, language, None)
        tricks = "" if result.contract is None or result.tricks is None else str(result.tricks)
    score = _score(result.score_ns)
    return fitting(" ".join(p for p in (what, tricks, score) if p), what)


def line_result(line: Line, language: str) -> str:
    """A traveller's line as the table's own result (a board of an earlier round)."""
    what = _contract(line.contract, line.declarer, language, line.adjusted)
    tricks = "" if line.contract in (None, "Pass") or line.tricks is None else str(line.tricks)
    return fitting(" ".join(p for p in (what, tricks, _score(line.score_ns)) if p), what)


def _score_lines(found: Shown, language: str) -> str:
    if found.score is None:
        return _t("no_score", language)
    ns, ew = found.score
    if found.unit == "%":
        return fitting(_t("percent", language, ns=number(ns, language),
                          ew=number(ew, language)))
    a, b = number(ns, language, sign=True), number(ew, language, sign=True)
    return fitting(_t("imps", language, ns=a, ew=b), _t("imps_short", language, ns=a))


def _dd_line(seat: str, tricks: Sequence[int], language: str) -> str:
    """``N ♣2 ♦3 ♥4 ♠- ST3``: the level each strain makes (``-``: not one)."""
    parts = [seat_letter(seat, language)]
    for strain, taken in zip(DD_STRAINS, tricks, strict=True):
        level = taken - 6
        parts.append(plain(strain_pieces(strain, language)) + (str(level) if level > 0
                                                                else "-"))
    return fitting(" ".join(parts))


def _par_lines(found: Shown, language: str) -> list[str]:
    """Par and its contracts, as many lines as they take (never cut)."""
    if found.par is None:
        return []
    if not found.par_contracts or found.par_contracts == ("Pass",):
        return [_t("par_none", language)]
    lines = [_t("par", language, score=_score(found.par))]
    current = ""
    for text in found.par_contracts:
        word = _contract(text[:-1], text[-1], language, None)
        joined = f"{current}, {word}" if current else word
        if len(joined) <= WIDTH:
            current = joined
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


Page = tuple[str, str, str]  # the kind's title key, then the page's two lines


def pages(shown: AfterBoard | None, board: int, state: TableState,
          language: str) -> list[Page]:
    """The pages of ``board`` for this table, in order; none when the director turned
    every page off (or the server has said nothing)."""
    if shown is None or not shown.on:
        return []
    found = shown.of(board)
    if found is None or not found.released:
        # The release rule: nothing of a board another table still has to play.
        return [("title_result", _t("wait1", language), _t("wait2", language))]
    result = state.results.get(board)
    mine = next((line for line in found.traveller if line.table == shown.table), None)
    out: list[Page] = []
    if shown.score:
        first = (own_line(result, language) if result is not None
                 else line_result(mine, language) if mine is not None else "")
        out.append(("title_result", first, _score_lines(found, language)))
    if shown.traveller:
        rows = [traveller_line(line, line.table == shown.table, language)
                for line in found.traveller]
        others = [line for line in found.traveller if line.table != shown.table]
        if not others:
            out.append(("title_traveller", _t("nothing1", language),
                        _t("nothing2", language)))
        for at in range(0, len(rows), ROWS):
            chunk = rows[at:at + ROWS]
            out.append(("title_traveller", chunk[0], chunk[1] if len(chunk) > 1 else ""))
    if shown.record and found.tricks is not None:
        lines = [_dd_line(seat, found.tricks[seat], language) for seat in DD_SEATS
                 if seat in found.tricks]
        for at in range(0, len(lines), 2):
            chunk = lines[at:at + 2]
            out.append(("title_record", chunk[0], chunk[1] if len(chunk) > 1 else ""))
        par = _par_lines(found, language)
        for at in range(0, len(par), 2):
            chunk = par[at:at + 2]
            out.append(("title_par", chunk[0], chunk[1] if len(chunk) > 1 else ""))
    return out


def heading(board: int, title: str, at: int, count: int, language: str) -> str:
    """``T5 Planilla      2/4``: the board, the page's kind, where in the pages."""
    where = f"{at + 1}/{count}"
    for left in (_t("head", language, board=board, title=title),
                 _t("head_short", language, board=board)):
        if len(left) + 1 + len(where) <= WIDTH:
            return left + where.rjust(WIDTH - len(left))
    return fitting(_t("head_short", language, board=board))


def page_lines(browsing: Browsing, shown: AfterBoard | None, state: TableState,
               language: str) -> list[str] | None:
    """The first three lines of a seat's display on its page; None if it has no page
    there (every page turned off, or the page gone)."""
    found = pages(shown, browsing.board, state, language)
    if not found or browsing.page >= len(found):
        return None
    title, first, second = found[browsing.page]
    return [heading(browsing.board, _t(title, language), browsing.page, len(found),
                    language), first, second]


def hint(browsing: Browsing, shown: AfterBoard | None, state: TableState,
         language: str) -> str:
    """The last line while nothing else is there: which key turns the page."""
    count = len(pages(shown, browsing.board, state, language))
    return _t("last" if browsing.page + 1 >= count else "next", language)
