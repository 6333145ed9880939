"""What each seat's display shows: one pure function of the table state.

``seat_view(seat, state, entry, notice, language)`` returns the four lines of twenty
characters for that seat. It reads the state and what the seat has typed, and nothing
else, so the same state always shows the same thing (the screens issue extends it with the
other viewers). A seat never sees another seat's hand, alerts aside from its own side's rules,
or anything typed at another keypad.
"""

from __future__ import annotations

from tabled.rules import Seat, Side

from . import i18n
from .controller import DIGITS, Notice, SeatEntry
from .state import BoardState, Guidance, Phase, TableState

WIDTH = 20
_VUL_ES = {"None": "Nadie", "EW": "EO", "Both": "Todos"}


def _t(key: str, language: str, **args: object) -> str:
    return i18n.text(key, language, **i18n.fill(args, language))


def _header(board: BoardState, language: str) -> str:
    vul = str(board.vulnerability)
    if language == "es":
        vul = _VUL_ES.get(vul, vul)
    left = _t("board", language, board=board.number, dealer=i18n.seat(str(board.dealer), language))
    right = _t("vul", language, vul=vul)
    return f"{left} {right}" if len(left) + len(right) < WIDTH else left


def _recent_calls(board: BoardState, language: str, count: int) -> str:
    """The newest calls (at most ``count``) that fit on one line: the oldest give way."""
    words: list[str] = []
    for entry in reversed(board.auction.entries[-count:]):
        word = i18n.call(str(entry.call), language) + ("!" if entry.alert else "")
        if sum(len(w) + 1 for w in words) + len(word) > WIDTH:
            break
        words.insert(0, word)
    return " ".join(words)


def _typed(entry: SeatEntry, language: str, numeric: bool) -> str:
    keys = entry.keys
    if not keys:
        return ""
    if numeric and all(k in DIGITS for k in keys):
        return "> " + "".join(str(DIGITS[k]) for k in keys)
    if keys[0] in ("PASS", "X", "XX"):
        shown = i18n.call({"PASS": "Pass"}.get(keys[0], keys[0]), language, short=False)
    else:
        shown = "".join(keys)
        if language == "es":
            shown = shown.replace("NT", "ST")
    return f"> {shown}"


def _notice_line(notice: Notice, language: str) -> str:
    if notice.key == "law":
        return i18n.law_text(notice.law, language)
    args = dict(notice.args)
    args.setdefault("board", "")
    if notice.key == "ruling":
        args["kind"] = i18n.ruling(str(args.get("kind")), language)
    return _t(notice.key, language, **args)


def _guidance(guidance: Guidance | None, language: str) -> list[str]:
    if guidance is None:
        return [_t("round_over", language)]

    def where(table: int | None) -> str:
        return _t("stay", language) if table is None else _t("to_table", language, table=table)

    return [_t("move_ns", language, where=where(guidance.ns)),
            _t("move_ew", language, where=where(guidance.ew)),
            _t("move_boards", language, where=where(guidance.boards))]


def _body(seat: Seat, state: TableState, entry: SeatEntry, language: str) -> list[str]:
    phase = state.phase
    assignment = state.assignment
    if phase is Phase.WAITING or assignment is None:
        return [_t("waiting", language), _t("waiting2", language)]
    if phase is Phase.PLAYERS:
        head = [_t("round", language, round=assignment.round),
                _t("pairs", language, ns=assignment.ns, ew=assignment.ew)]
        if seat in state.players:
            number = state.players[seat]
            return [*head, _t("player_skip", language) if number is None
                    else _t("player_done", language, number=number)]
        return [*head, _t("player_number", language)]
    if phase is Phase.BOARD:
        return [_t("round", language, round=assignment.round),
                _t("board_ask", language, board=state.next_board())]
    if phase is Phase.ROUND_END:
        return _guidance(assignment.guidance, language)
    board = state.board
    assert board is not None
    lines = [_header(board, language)]
    auction = board.auction
    if phase is Phase.SETUP:
        lines.append(_t("scan_or_call", language))
        lines.append(_t("scanned", language, count=len(board.scans[seat])))
    elif phase is Phase.AUCTION or entry.review:
        lines.append(_recent_calls(board, language, 8 if entry.review else 5))
        turn = auction.turn
        if turn is not None:
            lines.append(_t("your_call", language) if turn is seat
                         else _t("turn", language, seat=str(turn)))
    elif phase in (Phase.LEAD, Phase.PLAY):
        lines.extend(_play_lines(seat, board, language))
    elif phase is Phase.RESULT:
        lines.extend(_result_lines(seat, board, language))
    return lines


def _play_lines(seat: Seat, board: BoardState, language: str) -> list[str]:
    play = board.play
    assert play is not None
    contract = i18n.call(str(play.contract), language)
    first = _t("contract", language, contract=contract,
               declarer=i18n.seat(str(play.declarer), language))
    claim = play.claim
    if claim is not None:
        if claim.state.value == "disputed":
            return [first, _t("claim_director", language)]
        return [_t("claim_open", language, seat=str(claim.seat), tricks=claim.tricks),
                _t("claim_ask", language)]
    turn = play.turn
    if not board.cards:
        return [first, _t("your_lead", language) if turn is seat
                else _t("lead_by", language, seat=str(turn))]
    trick = play.current
    cards = " ".join(f"{i18n.seat(str(s), language)}{c}" for s, c in trick.cards)
    tricks = _t("tricks", language, ns=play.tricks_won(Side.NS), ew=play.tricks_won(Side.EW))
    if turn is not None and seat is play.declarer and turn is play.dummy:
        cue = _t("dummy_turn", language)
    elif turn is seat and seat is not play.dummy:
        cue = _t("your_card", language)
    else:
        cue = tricks
    return [cards or tricks, cue]


def _result_lines(seat: Seat, board: BoardState, language: str) -> list[str]:
    result = board.result
    assert result is not None
    score = _t("score", language, score=f"{result.score_ns:+d}" if result.score_ns else "0")
    if result.adjusted:  # the director's text (A60/40) or, if none, "assigned"
        first = (_t("assigned", language) if result.adjusted == "assigned"
                 else result.adjusted)
    elif result.contract is None:
        first = _t("passed_out", language)
    else:
        tricks = "" if result.tricks is None else str(result.tricks)
        first = _t("result", language, contract=i18n.call(result.contract_text, language),
                   declarer=i18n.seat(str(result.declarer or ""), language), tricks=tricks)
    line = f"{first} {score}" if len(first) + len(score) < WIDTH else first
    done = any(s.side is seat.side for s in board.confirmed)
    return [line, _t("confirmed", language) if done else _t("confirm", language)]


def seat_view(seat: Seat, state: TableState, entry: SeatEntry, notice: Notice | None = None,
              language: str = "en", *, reader_lost: bool = False) -> list[str]:
    """The four lines ``seat``'s display shows now; ``reader_lost`` while the card
    reader is unplugged."""
    lines = _body(seat, state, entry, language)[:3]
    while len(lines) < 3:
        lines.append("")
    phase = state.phase
    numeric = phase in (Phase.PLAYERS, Phase.BOARD) or (
        phase in (Phase.LEAD, Phase.PLAY) and not entry.replacing)
    typed = _typed(entry, language, numeric)
    if typed:
        last = typed
    elif notice is not None:
        last = _notice_line(notice, language)
    elif reader_lost:
        last = _t("reader_lost", language)
    elif state.open_director_calls:
        last = _t("director_open", language)
    else:
        last = ""
    return [line[:WIDTH] for line in (*lines, last)]
