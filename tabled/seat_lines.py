"""What each seat's display shows: one pure function of the table state.

``seat_view(seat, state, entry, notice, language)`` returns the four lines of twenty
characters for that seat. It reads what ``tablemodel.visibility.view_for`` lets the seat see and
what the seat has typed, and nothing else, so the same state always shows the same thing. A
seat never sees another seat's hand, the other side's calls before the tray crosses, an
alert, question or answer that is not its own side's to see, or anything typed at another
keypad.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from laws import Seat, Side, Strain
from laws.play import Play
from tablemodel import words
from tablemodel.roundclock import RoundClock
from tablemodel.state import Assignment, BoardState, Guidance, Phase, Result, TableState
from tablemodel.syscard import answer_line, answer_text
from tablemodel.texts import KEEP, MORE, WIDTH, TooWide, first_fitting, page, pages, wrap
from tablemodel.visibility import View, review_of, view_for

from . import i18n
from .control import DIGITS, Notice, SeatEntry

__all__ = ["ROWS", "WIDTH", "clock_line", "layout", "seat_view"]

ROWS = 4
log = logging.getLogger(__name__)


def _t(key: str, language: str, **args: object) -> str:
    return i18n.text(key, language, **_fill(args, language))


_CARD_ARGS = frozenset({"card", "due", "first", "second"})


def _fill(args: Mapping[str, object], language: str) -> dict[str, object]:
    """Localise a notice's arguments: seat letters (O for West), cards and suits as the
    LCD draws them (``♠Q``, ``♥``)."""
    filled: dict[str, object] = {}
    for key, value in args.items():
        if key == "seat" and isinstance(value, str):
            value = words.seat_letter(value, language)
        elif key in _CARD_ARGS and isinstance(value, str):
            value = words.card(value)
        elif key == "suit" and isinstance(value, str) and value in ("S", "H", "D", "C"):
            value = words.strain_symbol(Strain[value], language)
        filled[key] = value
    return filled


def _header(board: BoardState, language: str) -> str:
    """Board, dealer and vulnerability, for boards 1-999 in both languages: ``T13 Rep N
    Vul Todos`` (the abbreviations are docs/glossary.md's)."""
    left = _t("board", language, board=board.number,
              dealer=words.seat_letter(board.dealer, language))
    right = _t("vul", language, vul=words.vulnerability(board.vulnerability, language))
    return f"{left} {right}"


def _recent_calls(view: View, language: str, count: int) -> str:
    """The newest calls the seat has seen (at most ``count``) that fit on one line: the
    oldest give way. ``!`` marks an alert the seat has seen."""
    shown: list[str] = []
    for entry in reversed(view.calls[-count:]):
        word = words.call(entry.call, language) + ("!" if entry.alerted else "")
        if sum(len(w) + 1 for w in shown) + len(word) > WIDTH:
            break
        shown.insert(0, word)
    return " ".join(shown)


_STRAIN_KEYS = {"C": Strain.C, "D": Strain.D, "H": Strain.H, "S": Strain.S, "NT": Strain.NT}


def _typed(entry: SeatEntry, language: str, numeric: bool) -> str:
    """What the seat has typed, on the last line: digits where a number is asked for (a
    player, a board, tricks, an answer's code), else the call: ``> 1♥``, ``> Paso``."""
    keys = entry.keys
    if not keys:
        return ""
    if numeric and all(k in DIGITS for k in keys):
        return "> " + "".join(str(DIGITS[k]) for k in keys)
    if keys[0] in ("PASS", "X", "XX"):
        shown = words.call({"PASS": "Pass"}.get(keys[0], keys[0]), language, keyed=True)
    else:  # the keys as pressed, a strain as its symbol (NT as the language writes it)
        shown = "".join(words.strain_symbol(_STRAIN_KEYS[k], language)
                        if k in _STRAIN_KEYS else k for k in keys)
    return f"> {shown}" + ("!" if entry.alert else "")


def _notice_text(notice: Notice, language: str, state: TableState | None = None) -> str:
    if notice.key == "law":
        return _refusal_text(notice, language)
    args = dict(notice.args)
    args.setdefault("board", "")
    if notice.key == "ruling":
        args["kind"] = i18n.ruling(str(args.get("kind")), language,
                                   bids_allowed=bool(args.get("bids_allowed")))
    if "call" in args:
        args["call"] = words.call(str(args["call"]), language)
    if notice.key == "answered" and state is not None:
        args["text"] = _answer(state, Seat.from_str(str(args["by"])), int(args["code"]),
                               language)
    return _t(notice.key, language, **args)


def _refusal_text(notice: Notice, language: str) -> str:
    """A refusal: the engine's code as the seat's texts say it, with the law
    (``Asista a ♥ L44C``); a notice without a code, or a code this table has no text
    for, says the law's own text."""
    code, params = notice.args.get("code"), notice.args.get("params")
    if isinstance(code, str) and isinstance(params, Mapping):
        try:
            text = i18n.refusal_text(code, notice.law, language,
                                     **words.message_params(params, language))
        except (KeyError, IndexError, ValueError):
            text = None
        if text is not None and len(wrap(text)) <= 2:
            return text
        log.error("a refusal the seat display cannot say: %r %r", code, params)
    return i18n.law_text(notice.law, language)


def _notice_lines(notice: Notice, language: str, state: TableState | None = None) -> list[str]:
    """A notice on the last line, or on the last two when it needs them; longer (an answer
    to a question) its first two lines end with the read-on mark: the answer is whole on
    INFO's question page."""
    return page(_notice_text(notice, language, state), 2, 0)


def _in_section(name: str, section: str) -> str:
    """A table's or a pair's name without the table's own section ("bilbao-12" -> "12" at a
    table of section bilbao): what a line says when the whole name does not fit."""
    if section and name.startswith(section) and name != section:
        return name[len(section):].lstrip("-") or name
    return name


def _fitting(*candidates: str) -> str:
    """The fullest of ``candidates`` that fits a line, else the shortest (the display wraps
    it rather than cut it)."""
    try:
        return first_fitting(*candidates)
    except TooWide:
        return candidates[-1]


def _guidance(guidance: Guidance | None, language: str, section: str = "") -> list[str]:
    if guidance is None:
        return [_t("round_over", language)]

    def line(key: str, table: int | str | None) -> str:
        if table is None:
            return _t(key, language, where=_t("stay", language))
        return _fitting(*(_t(key, language, where=_t("to_table", language, table=name))
                          for name in (table, _in_section(str(table), section))))

    return [line("move_ns", guidance.ns), line("move_ew", guidance.ew),
            line("move_boards", guidance.boards)]


def _pairs(assignment: Assignment, language: str) -> str:
    """The pairs seated, as the pages name them ("NS B4  EW B1"); in a section whose name
    leaves no room, by their numbers there."""
    section = assignment.section
    return _fitting(*(_t("pairs", language, ns=name(assignment.pair_name("ns")),
                         ew=name(assignment.pair_name("ew")))
                      for name in (str, lambda text: _in_section(text, section))))


def _seated_name(seat: Seat, state: TableState, language: str, lines: int = 2) -> list[str]:
    """The seat's player as the session's register names them (issue 17), or nothing: the
    number and the name on one line, else the name alone, else the name over the ``lines``
    it may have (a name of up to 40 characters takes two)."""
    number = state.players.get(seat)
    name = state.player_name(number)
    if number is None or name is None:
        return []
    whole = _t("player_named", language, number=number, name=name)
    if len(whole) <= WIDTH:
        return [whole]
    return [name] if len(name) <= WIDTH else page(name, max(lines, 1), 0)


def _round_lines(assignment: Assignment, language: str, room: int) -> list[str]:
    """The round and, in a session of sections, the table (a label of up to 16 characters):
    on one line if they fit, else the table on a line of its own when there is ``room``
    for two, else the table alone (it is what the players need to sit down). With no room
    at all (a register name over two lines under the arrow-switch) the round gives way: the
    board screen that follows names it again."""
    if room < 1:
        return []
    if not assignment.label:
        return [_t("round", language, round=assignment.round)]
    whole = _t("round_table", language, round=assignment.round, table=assignment.label)
    if len(whole) <= WIDTH:
        return [whole]
    table = first_fitting(_t("table_only", language, table=assignment.label),
                          assignment.label)
    if room >= 2:
        return [_t("round", language, round=assignment.round), table]
    return [table]


def _body(seat: Seat, state: TableState, entry: SeatEntry, language: str) -> list[str]:
    phase = state.phase
    assignment = state.assignment
    if phase is Phase.WAITING or assignment is None:
        return [_t("waiting", language), _t("waiting2", language)]
    if phase is Phase.PLAYERS:
        # The pairs, the arrow-switch (the pairs sit the other way this round) and the
        # player's number asked or confirmed keep their lines; the round and table take
        # what is left. The question is on the last line: the digits typed take its place.
        rest = [_pairs(assignment, language),
                *([_t("arrow_switch", language)] if assignment.switch else [])]
        number = state.players.get(seat)
        if seat not in state.players:
            who = [_t("player_number", language)]
        elif number is None:
            who = [_t("player_skip", language)]
        else:
            who = (_seated_name(seat, state, language, ROWS - len(rest))
                   or [_t("player_done", language, number=number)])
        room = ROWS - len(rest) - len(who)
        return [*_round_lines(assignment, language, room), *rest, *who]
    if phase is Phase.BOARD:
        switch = [_t("arrow_switch", language)] if assignment.switch else []
        ask = [_t("board_ask", language, board=state.next_board())]
        name = _seated_name(seat, state, language, ROWS - len(switch) - len(ask))
        room = ROWS - len(switch) - len(ask) - len(name)
        return [*_round_lines(assignment, language, room), *switch, *ask, *name]
    if phase is Phase.ROUND_END:
        return _guidance(assignment.guidance, language, assignment.section)
    board = state.board
    assert board is not None
    lines = [_header(board, language)]
    auction = board.auction
    view = view_for(seat, state)
    special = _special_lines(seat, state, board, view, entry, language)
    if special:
        return [lines[0], *special]
    review = review_of(seat, state) if entry.review else None
    if phase is Phase.SETUP:
        # Boards dealt at the table: every hand is scanned before the first call.
        dealt_here = assignment.dealt_at_table and any(len(board.scans[s]) < 13 for s in Seat)
        lines.append(_t("scan_first" if dealt_here else "scan_or_call", language))
        lines.append(_t("scanned", language, count=len(board.scans[seat])))
    elif review == "contract" and board.play is not None:
        # Law 41C: at one's turn in the play, the contract and whether it was doubled
        play = board.play
        lines.append(_t("contract", language,
                        contract=words.contract(play.contract, language),
                        declarer=words.seat_letter(play.declarer, language)))
        lines.extend(_play_cue(seat, board, language))
    elif phase is Phase.AUCTION or review == "calls":
        lines.append(_recent_calls(view, language, 8 if review else 5))
        turn = auction.turn
        if view.tray_here is False or (view.tray_here and len(view.calls) < len(auction)):
            lines.append(_t("tray_other", language))
        elif turn is not None:
            hint = _auction_irregularity(seat, state, board, language)
            lines.extend(wrap(hint) if hint else [
                _t("your_call", language) if turn is seat
                else _t("turn", language, seat=words.seat_letter(turn, language))])
        elif phase in (Phase.LEAD, Phase.PLAY) and board.play is not None:
            lines.extend(_play_cue(seat, board, language))  # the cue stays
    elif phase in (Phase.LEAD, Phase.PLAY):
        lines.extend(_play_lines(seat, board, language))
    elif phase is Phase.RESULT:
        lines.extend(_result_lines(seat, board, language))
    return lines


def _auction_irregularity(seat: Seat, state: TableState, board: BoardState,
                          language: str) -> str:
    """Law 25B: the left-hand opponent of a change of call made after a pause is asked to
    accept it; Law 16B2: the opponents of a player who hesitated may reserve their rights."""
    late = board.late_change
    if late is not None and seat is late.seat.lho:
        return _t("late_change", language)
    over = board.over_change
    if over is not None and seat is over.seat:  # Law 25A4: withdraw it, or let it stand
        return _t("over_change", language, call=words.call(over.call, language))
    index = board.hesitation_open(seat, state.conduct.profile.hesitation)
    if index is not None:
        who = words.seat_letter(board.auction.entries[index].seat, language)
        return _t("hesitation", language, seat=who)
    return ""


def _call_name(board: BoardState, index: int, language: str) -> str:
    return words.call(board.auction.entries[index].call, language)


def _sequence(sequence: str, language: str) -> str:
    """A system card's sequence (``1NT 2C``, ``(1H) X``) as the display writes calls."""
    def one(call: str) -> str:
        inner = call.strip("()")
        shown = words.call(inner, language) if inner not in ("*", "P") else inner
        return f"({shown})" if call.startswith("(") else shown
    return " ".join(one(c) for c in sequence.split())


def _answer(state: TableState, answerer: Seat, code: int, language: str) -> str:
    return answer_text(state.conduct.card_of(answerer), code, language) or str(code)


def _special_lines(seat: Seat, state: TableState, board: BoardState, view: View,
                   entry: SeatEntry, language: str) -> list[str]:
    """A question to answer, the question or card page, or a lead lying face down."""
    waiting = board.open_questions(seat)
    if waiting:
        question = waiting[0]
        caller = board.auction.entries[question.index].seat
        line = _t("question", language, asker=words.seat_letter(question.asker, language),
                  call=_call_name(board, question.index, language),
                  seat=words.seat_letter(caller, language))
        if entry.keys:  # a code being typed shows on the last line
            return [line, _t("answer_how", language)]
        offered = state.offered_answers(seat, question)
        code = offered[entry.answer % len(offered)]
        # The answer offered, over two lines, page by page: UNDO reads on, then offers the
        # next answer (tabled.control.questions); OK gives it.
        return [line, *page(answer_line(state.conduct.card_of(seat), code, language), 2,
                            entry.scroll)]
    if entry.page is not None and entry.pick is not None \
            and entry.pick < len(board.auction):
        index = entry.pick
        caller = board.auction.entries[index].seat
        call = _call_name(board, index, language)
        who = words.seat_letter(caller, language)
        if entry.page == "ask":
            # Law 20F1: the answers to this side's questions about the call (the seat's
            # own, or partner's heard at the table), whole, page by page with OK.
            answers = [q for q in view.questions if q.index == index
                       and q.asker in (seat, seat.partner)]
            title = _t("ask_page", language, call=call, seat=who)
            if answers and answers[-1].answer is not None:
                text = _answer(state, answers[-1].answerer, answers[-1].answer, language)
                return [title, *page(text, 2, entry.scroll)]
            if answers:
                return [title, _t("answer_wait", language, call=call)]
            return [title, _t("ask_how", language)]
        card = state.conduct.card_of(caller)
        side = words.side(caller.side, language)
        found = None if card is None else card.lookup(board.auction, index)
        title = _t("card_page", language, side=side, call=call)
        if found is None:
            return [title, _t("card_none", language)]
        # Law 40B2(c): the meaning whole, two lines a page, OK reads on
        return [title, *page(found.meaning(language), 2, entry.scroll)]
    if entry.page == "card":
        card = state.conduct.cards.get(seat.side.other)
        if card is not None:
            side = words.side(seat.side.other, language)
            # the card's entries one after another, each whole: OK reads on
            shown = [lines for item in card.entries
                     for lines in pages(f"{_sequence(item.sequence, language)}: "
                                        f"{item.meaning(language)}", 2)]
            return [_t("card_start", language, side=side), *shown[entry.scroll % len(shown)]]
    if entry.page == "claim" and board.play is not None:  # Law 68: typed, then shown back
        left = board.play.tricks_left
        if entry.claim is not None:
            return [_t("claim_confirm", language, tricks=entry.claim, left=left),
                    _t("claim_sure", language)]
        return [_t("claim_page", language), _t("claim_left", language, left=left)]
    if board.face_down:  # Law 41A: only the leader knows the card until it is faced
        leader, lead = board.cards[0]
        confirmer = board.lead_confirmer(state.conduct.screens)
        if seat is leader:
            return [_t("your_card", language) + f" {words.card(lead)}",
                    _t("face_up_ok" if seat is confirmer else "face_down_wait", language)]
        if seat is confirmer:
            return [_t("face_down_ok", language)]
        return [_t("face_down_wait", language)]
    return []


def _play_lines(seat: Seat, board: BoardState, language: str) -> list[str]:
    """The play's lines under the header: the trick (or the contract) and the cue (whose
    turn, or the option to choose; on one line or two). With penalty cards on the table
    (Law 50A) the cue stays on the second or third line and the least needed line goes to
    the fourth, where a notice may cover it for a moment: one line of penalty cards and a
    one-line cue keep the trick below them; otherwise the cue comes first and the penalty
    cards after it, in place of the trick. The cue and the penalty cards are never given
    up (with a two-line option, penalty cards that need two lines take one, ending in the
    read-on mark, until the option is chosen)."""
    top, cue, penalties = _play_parts(seat, board, language)
    if not penalties:
        return [top, *cue] if top else cue
    if len(cue) == 1 and len(penalties) == 1:
        return [*penalties, *cue, top] if top else [*penalties, *cue]
    if len(penalties) + len(cue) > ROWS - 1:
        penalties = page(" ".join(penalties), max(1, ROWS - 1 - len(cue)), 0)
    return [*cue, *penalties]


def _play_cue(seat: Seat, board: BoardState, language: str) -> list[str]:
    """Only the play's cue: what the review pages keep under the calls."""
    return _play_parts(seat, board, language)[1]


def _play_parts(seat: Seat, board: BoardState,
                language: str) -> tuple[str, list[str], list[str]]:
    play = board.play
    assert play is not None
    first = _t("contract", language, contract=words.contract(play.contract, language),
               declarer=words.seat_letter(play.declarer, language))
    claim = play.claim
    if claim is not None:
        if claim.state.value == "disputed":
            return first, [_t("claim_director", language)], []
        return (_t("claim_open", language, seat=words.seat_letter(claim.seat, language),
                   tricks=claim.tricks), [_t("claim_ask", language)], [])
    both = board.simultaneous
    if both is not None:  # Law 58B2: the player designates which of two cards is played
        who, one, two = both
        if seat is play.controller(who):
            return first, wrap(_t("simultaneous_pick", language, first=words.card(one),
                                  second=words.card(two))), []
        return first, [_t("lead_chooser", language, seat=words.seat_letter(who, language))], []
    changers = board.may_substitute
    if changers:  # Law 58B3: the opponents who played after the offender may change
        if any(play.controller(s) is seat for s in changers):
            return first, [_t("substitute_how", language)], []
        letters = "/".join(words.seat_letter(s, language) for s in changers)
        return first, [_t("lead_chooser", language, seat=letters)], []
    breach = play.breach
    if breach is not None:  # Law 52B: declarer accepts the card or has the penalty card
        who, card, due = breach
        told = wrap(_t("breach", language, seat=words.seat_letter(who, language),
                       card=words.card(card), due=words.card(due)))
        return "", [*told, _t("breach_how", language) if seat is play.declarer
                    else _t("penalty_lead_wait", language)], []
    faced = play.faced_lead
    if faced is not None:  # Laws 53-56: the card stays faced until the option
        line = _t("faced_lead", language, seat=words.seat_letter(faced.seat, language),
                  card=words.card(faced.card))
        if seat in play.lead_choosers():
            return line, wrap(_t("lead_options_54" if faced.law == "54" else "lead_options",
                                 language)), []
        chooser = "/".join(words.seat_letter(s, language) for s in sorted(
            play.lead_choosers(), key=lambda s: s.value))
        return line, [_t("lead_chooser", language, seat=chooser)], []
    penalties = _penalty_lines(play, language)
    leader = play.penalty_lead_pending
    if leader is not None:  # Law 50D2: declarer chooses before the lead
        return first, wrap(_t("penalty_lead", language)) if seat is play.declarer \
            else [_t("penalty_lead_wait", language)], penalties
    if play.premature is not None:  # Law 57A: declarer's option before partner plays
        return first, wrap(_t("premature_options", language)) if seat is play.declarer \
            else [_t("penalty_lead_wait", language)], penalties
    designer = play.penalty_choice_pending
    if designer is not None:  # Law 51A: declarer designates the penalty card to play
        listed = " ".join(f"{n} {words.card(p.card)}" for n, p in
                          enumerate(play.penalty_choices(designer), start=1))
        return first, wrap(_t("designate", language, cards=listed)) \
            if seat is play.declarer else [_t("penalty_lead_wait", language)], penalties
    turn = play.turn
    if not board.cards:
        cue = (_t("your_lead", language) if turn is seat
               else _t("lead_by", language, seat=words.seat_letter(turn or "", language)))
        return first, [cue], penalties
    tricks = _t("tricks", language, ns=play.tricks_won(Side.NS), ew=play.tricks_won(Side.EW))
    if turn is not None and seat is play.declarer and turn is play.dummy:
        cue = _t("dummy_turn", language)
    elif turn is seat and seat is not play.dummy:
        cue = _t("your_card", language)
    else:
        cue = tricks
    return _trick_line(play, language) or tricks, [cue], penalties


def _trick_line(play: Play, language: str) -> str:
    """The cards of the trick being played, seat and card: ``E:♦4 S:♦J``; four cards with
    tens among them close up (``E:♦10S:♦J``) rather than lose one."""
    shown = [f"{words.seat_letter(s, language)}:{words.card(c)}" for s, c in play.current.cards]
    line = " ".join(shown)
    return line if len(line) <= WIDTH else "".join(shown)


def _penalty_lines(play: Play, language: str) -> list[str]:
    """Law 50A: the penalty cards on the table, shown to every seat, by the seat that owns
    them: ``Penaliz. O:♣J♥Q E:(♦4)`` (a minor penalty card in brackets, Law 50B); over two
    lines when they need it, and nothing left out."""
    if not play.penalty_cards:
        return []
    owners: dict[Seat, list[str]] = {}
    for penalty in play.penalty_cards:
        shown = words.card(penalty.card)
        owners.setdefault(penalty.seat, []).append(shown if penalty.major else f"({shown})")
    listed = " ".join(f"{words.seat_letter(s, language)}:{''.join(cards)}"
                      for s, cards in owners.items())
    return wrap(_t("penalty_line", language, cards=listed))


def _result_lines(seat: Seat, board: BoardState, language: str) -> list[str]:
    result = board.result
    assert result is not None
    score = _t("score", language, score=f"{result.score_ns:+d}" if result.score_ns else "0")
    if result.adjusted == "assigned":  # Law 12C1: the score the director assigned
        first = _t("assigned", language)
    elif result.adjusted:  # the director's text (A60/40): its own score, no NS points
        first, score = result.adjusted, ""
    elif result.contract is None:
        first = words.passed_out(language)
    else:
        tricks = "" if result.tricks is None else str(result.tricks)
        first = _t("result", language, contract=words.contract(result.contract, language),
                   declarer=words.seat_letter(result.declarer or "", language), tricks=tricks)
    lines = wrap(f"{first} {score}".strip())
    if len(lines) > 1:  # the result and the score each on its line
        lines = [first, score] if score else wrap(first)
    done = any(s.side is seat.side for s in board.confirmed)
    revoke = _revoke_line(board, result, done, language)
    if revoke:
        return [*lines, revoke]
    return [*lines, _t("confirmed", language) if done else _t("confirm", language)]


def clock_line(state: TableState, clock: RoundClock | None, now: float,
               language: str) -> tuple[str, bool]:
    """The round clock's line (tablemodel.roundclock) and whether it warns: the minutes left,
    a warning once the director's chosen minutes are left, "time is up" after the end.
    Nothing before a round is assigned, once it is over at this table, or for another
    round than the one on the table."""
    assignment = state.assignment
    if (clock is None or assignment is None or clock.round != assignment.round
            or state.phase in (Phase.WAITING, Phase.ROUND_END)):
        return "", False
    stage = clock.stage(now)
    key = {"running": "clock", "warning": "clock_warn", "over": "clock_over"}[stage]
    return _t(key, language, minutes=clock.minutes_left(now)), stage != "running"


def _revoke_line(board: BoardState, result: Result, done: bool, language: str) -> str:
    """Law 64A: the tricks transferred for a revoke, apart from the result's count, with
    OK to agree to it (the director then confirms or changes it, 64C): ``Revoke: 1 to NS
    OK``; once agreed, the director's call shows on the last line."""
    play = board.play
    if result.adjusted or play is None or not (play.revokes or result.transferred):
        return ""
    declarer = result.declarer or play.declarer
    if result.transferred:
        side = declarer.side if result.transferred > 0 else declarer.side.other
    else:  # nothing moves (Law 64B): shown for the side that did not revoke
        side = play.revokes[0].seat.side.other if play.revokes else declarer.side
    return _t("revoke_agreed" if done else "revoke_agree", language,
              tricks=abs(result.transferred), side=words.side(side, language))


def seat_view(seat: Seat, state: TableState, entry: SeatEntry, notice: Notice | None = None,
              language: str = "en", *, reader_lost: bool = False,
              clock: RoundClock | None = None, now: float = 0.0) -> list[str]:
    """The four lines ``seat``'s display shows now; ``reader_lost`` while the card
    reader is unplugged; ``clock``: the round clock, read at ``now`` (the table's clock).

    The last line is the seat's own: what it is typing, else a notice (on the two last
    lines when it needs them), else an unplugged reader, else the round clock when it
    warns; only then the fourth line of a screen that has one (a page's second line, the
    question for the player number), then an open director call, then the clock."""
    body = _body(seat, state, entry, language)
    phase = state.phase
    board = state.board
    answering = board is not None and bool(board.open_questions(seat))
    numeric = (phase in (Phase.PLAYERS, Phase.BOARD) or entry.page == "claim"
               or answering)
    typed = _typed(entry, language, numeric)
    timing, urgent = clock_line(state, clock, now, language)
    if typed:
        last = [typed]
    elif notice is not None:
        last = _notice_lines(notice, language, state)
    elif reader_lost:
        last = [_t("reader_lost", language)]
    elif urgent:
        last = [timing]
    elif len(body) >= ROWS:
        last = []
    elif state.open_director_calls:
        last = [_t("director_open", language)]
    else:
        last = [timing]
    return layout(body, last)


def layout(body: list[str], last: list[str]) -> list[str]:
    """The four rows: ``body`` from the top, ``last`` at the bottom over what it needs of
    the body's lower lines (the header stays). Every row fits (``tablemodel.texts.fit``): a
    row that does not is a fault in a text, logged, and shown ending in the read-on mark
    rather than cut silently; the table keeps working."""
    if len(body) > ROWS:
        log.error("a seat display body of %d lines: %r", len(body), body)
    keep = ROWS - len(last)
    rows = [*body[:keep], *[""] * max(0, keep - len(body)), *last]
    shown = []
    for row in (r.replace(KEEP, " ") for r in rows):
        if len(row) > WIDTH:
            log.error("a seat display line of %d characters: %r", len(row), row)
            row = row[:WIDTH - 1] + MORE
        shown.append(row)
    return shown
