"""What each seat's display shows: one pure function of the table state.

``seat_view(seat, state, entry, notice, language)`` returns the four lines of twenty
characters for that seat. It reads what ``tabled.viewing.view_for`` lets the seat see and
what the seat has typed, and nothing else, so the same state always shows the same thing. A
seat never sees another seat's hand, the other side's calls before the tray crosses, an
alert, question or answer that is not its own side's to see, or anything typed at another
keypad.
"""

from __future__ import annotations

from collections.abc import Mapping

from tabled.rules import Seat, Side, Strain
from tabled.rules.play import Play

from . import i18n, words
from .control import DIGITS, Notice, SeatEntry
from .roundclock import RoundClock
from .state import BoardState, Guidance, Phase, Result, TableState
from .syscard import answer_text
from .viewing import View, review_of, view_for

WIDTH = 20


def _t(key: str, language: str, **args: object) -> str:
    return i18n.text(key, language, **_fill(args, language))


def _fill(args: Mapping[str, object], language: str) -> dict[str, object]:
    """Localise the seat letters among a notice's arguments."""
    return {k: words.seat_letter(v, language) if k == "seat" and isinstance(v, str) else v
            for k, v in args.items()}


def _header(board: BoardState, language: str) -> str:
    left = _t("board", language, board=board.number,
              dealer=words.seat_letter(board.dealer, language))
    right = _t("vul", language, vul=words.vulnerability(board.vulnerability, language))
    return f"{left} {right}" if len(left) + len(right) < WIDTH else left


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


def _typed(entry: SeatEntry, language: str, numeric: bool) -> str:
    keys = entry.keys
    if not keys:
        return ""
    if numeric and all(k in DIGITS for k in keys):
        return "> " + "".join(str(DIGITS[k]) for k in keys)
    if keys[0] in ("PASS", "X", "XX"):
        shown = words.call({"PASS": "Pass"}.get(keys[0], keys[0]), language, keyed=True)
    else:  # the keys as pressed, NT as the language writes it
        shown = "".join(keys).replace("NT", words.strain(Strain.NT, language))
    return f"> {shown}" + ("!" if entry.alert else "")


def _notice_line(notice: Notice, language: str, state: TableState | None = None) -> str:
    if notice.key == "law":
        return i18n.law_text(notice.law, language)
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


def _guidance(guidance: Guidance | None, language: str) -> list[str]:
    if guidance is None:
        return [_t("round_over", language)]

    def where(table: int | str | None) -> str:
        return _t("stay", language) if table is None else _t("to_table", language, table=table)

    return [_t("move_ns", language, where=where(guidance.ns)),
            _t("move_ew", language, where=where(guidance.ew)),
            _t("move_boards", language, where=where(guidance.boards))]


def _seated_name(seat: Seat, state: TableState, language: str) -> list[str]:
    """The seat's player as the session's register names them (issue 17), or nothing."""
    number = state.players.get(seat)
    name = state.player_name(number)
    if number is None or name is None:
        return []
    return [_t("player_named", language, number=number, name=name)]


def _body(seat: Seat, state: TableState, entry: SeatEntry, language: str) -> list[str]:
    phase = state.phase
    assignment = state.assignment
    if phase is Phase.WAITING or assignment is None:
        return [_t("waiting", language), _t("waiting2", language)]
    if phase is Phase.PLAYERS:
        head = [_t("round", language, round=assignment.round) if not assignment.label else
                _t("round_table", language, round=assignment.round, table=assignment.label),
                _t("pairs", language, ns=assignment.pair_name("ns"),
                   ew=assignment.pair_name("ew"))]
        if assignment.switch:  # the arrow-switch: the pairs sit the other way this round
            head.append(_t("arrow_switch", language))
        if seat in state.players:
            number = state.players[seat]
            if number is None:
                return [*head, _t("player_skip", language)]
            return [*head, *(_seated_name(seat, state, language)
                             or [_t("player_done", language, number=number)])]
        return [*head, _t("player_number", language)]
    if phase is Phase.BOARD:
        switch = [_t("arrow_switch", language)] if assignment.switch else []
        lines = [_t("round", language, round=assignment.round), *switch,
                 _t("board_ask", language, board=state.next_board())]
        return [*lines, *_seated_name(seat, state, language)]
    if phase is Phase.ROUND_END:
        return _guidance(assignment.guidance, language)
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
        lines.append(_play_lines(seat, board, language)[1])
    elif phase is Phase.AUCTION or review == "calls":
        lines.append(_recent_calls(view, language, 8 if review else 5))
        turn = auction.turn
        if view.tray_here is False or (view.tray_here and len(view.calls) < len(auction)):
            lines.append(_t("tray_other", language))
        elif turn is not None:
            hint = _auction_irregularity(seat, state, board, language)
            lines.append(hint or (_t("your_call", language) if turn is seat
                                  else _t("turn", language, seat=str(turn))))
        elif phase in (Phase.LEAD, Phase.PLAY) and board.play is not None:
            lines.append(_play_lines(seat, board, language)[1])  # the cue stays
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
        return [line, f"{code} {_answer(state, seat, code, language)}"]
    if entry.page is not None and entry.pick is not None \
            and entry.pick < len(board.auction):
        index = entry.pick
        caller = board.auction.entries[index].seat
        call = _call_name(board, index, language)
        who = words.seat_letter(caller, language)
        if entry.page == "ask":
            answers = [q for q in view.questions if q.index == index and q.asker is seat]
            if answers and answers[-1].answer is not None:
                last = _t("answer", language, call=call,
                          text=_answer(state, answers[-1].answerer, answers[-1].answer,
                                       language))
            elif answers:
                last = _t("answer_wait", language, call=call)
            else:
                last = _t("ask_how", language)
            return [_t("ask_page", language, call=call, seat=who), last]
        card = state.conduct.card_of(caller)
        side = words.side(caller.side, language)
        found = None if card is None else card.lookup(board.auction, index)
        if found is None:
            return [_t("card_page", language, side=side, call=call), _t("card_none", language)]
        text = found.meaning(language)
        chunks = [text[i:i + WIDTH] for i in range(0, len(text), WIDTH)] or [""]
        return [_t("card_page", language, side=side, call=call),
                chunks[entry.scroll % len(chunks)]]
    if entry.page == "card":
        card = state.conduct.cards.get(seat.side.other)
        if card is not None:
            side = words.side(seat.side.other, language)
            item = card.entries[entry.scroll % len(card.entries)]
            text = f"{item.sequence}: {item.meaning(language)}"
            return [_t("card_start", language, side=side), text[:WIDTH]]
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
            return [_t("your_card", language) + f" {lead}",
                    _t("face_up_ok" if seat is confirmer else "face_down_wait", language)]
        if seat is confirmer:
            return [_t("face_down_ok", language)]
        return [_t("face_down_wait", language)]
    return []


def _play_lines(seat: Seat, board: BoardState, language: str) -> list[str]:
    play = board.play
    assert play is not None
    first = _t("contract", language, contract=words.contract(play.contract, language),
               declarer=words.seat_letter(play.declarer, language))
    claim = play.claim
    if claim is not None:
        if claim.state.value == "disputed":
            return [first, _t("claim_director", language)]
        return [_t("claim_open", language, seat=str(claim.seat), tricks=claim.tricks),
                _t("claim_ask", language)]
    both = board.simultaneous
    if both is not None:  # Law 58B2: the player designates which of two cards is played
        who, one, two = both
        if seat is play.controller(who):
            return [first, _t("simultaneous_pick", language, first=str(one), second=str(two))]
        return [first, _t("lead_chooser", language, seat=words.seat_letter(who, language))]
    changers = board.may_substitute
    if changers:  # Law 58B3: the opponents who played after the offender may change
        if any(play.controller(s) is seat for s in changers):
            return [first, _t("substitute_how", language)]
        letters = "/".join(words.seat_letter(s, language) for s in changers)
        return [first, _t("lead_chooser", language, seat=letters)]
    breach = play.breach
    if breach is not None:  # Law 52B: declarer accepts the card or has the penalty card
        who, card, due = breach
        line = _t("breach", language, seat=words.seat_letter(who, language), card=str(card),
                  due=str(due))
        return [line, _t("breach_how", language) if seat is play.declarer
                else _t("penalty_lead_wait", language)]
    faced = play.faced_lead
    if faced is not None:  # Laws 53-56: the card stays faced until the option
        line = _t("faced_lead", language, seat=words.seat_letter(faced.seat, language),
                  card=str(faced.card))
        if seat in play.lead_choosers():
            return [line, _t("lead_options_54" if faced.law == "54" else "lead_options",
                             language)]
        chooser = "/".join(words.seat_letter(s, language) for s in sorted(
            play.lead_choosers(), key=lambda s: s.value))
        return [line, _t("lead_chooser", language, seat=chooser)]
    penalties = _penalty_line(play, language)
    leader = play.penalty_lead_pending
    if leader is not None:  # Law 50D2: declarer chooses before the lead
        return [penalties, _t("penalty_lead", language) if seat is play.declarer
                else _t("penalty_lead_wait", language)]
    if play.premature is not None:  # Law 57A: declarer's option before partner plays
        return [penalties or first, _t("premature_options", language)
                if seat is play.declarer else _t("penalty_lead_wait", language)]
    designer = play.penalty_choice_pending
    if designer is not None:  # Law 51A: declarer designates the penalty card to play
        listed = " ".join(f"{n} {p.card}" for n, p in
                          enumerate(play.penalty_choices(designer), start=1))
        return [penalties or first, _t("designate", language, cards=listed)
                if seat is play.declarer else _t("penalty_lead_wait", language)]
    turn = play.turn
    if not board.cards:
        cue = (_t("your_lead", language) if turn is seat
               else _t("lead_by", language, seat=str(turn)))
        return _with_penalties(first, cue, penalties)
    trick = play.current
    cards = " ".join(f"{words.seat_letter(s, language)}{c}" for s, c in trick.cards)
    tricks = _t("tricks", language, ns=play.tricks_won(Side.NS), ew=play.tricks_won(Side.EW))
    if turn is not None and seat is play.declarer and turn is play.dummy:
        cue = _t("dummy_turn", language)
    elif turn is seat and seat is not play.dummy:
        cue = _t("your_card", language)
    else:
        cue = tricks
    return _with_penalties(cards or tricks, cue, penalties)


def _penalty_line(play: Play, language: str) -> str:
    """Law 50A: the penalty cards on the table, shown to every seat: ``Pen W:CJ E:d4``
    (a minor penalty card in lower case)."""
    if not play.penalty_cards:
        return ""
    shown = " ".join(f"{words.seat_letter(p.seat, language)}:"
                     f"{str(p.card) if p.major else str(p.card).lower()}"
                     for p in play.penalty_cards)
    return _t("penalty_line", language, cards=shown)


def _with_penalties(top: str, cue: str, penalties: str) -> list[str]:
    """The play's two lines: ``top`` (the trick, or the contract) and the ``cue`` (whose
    turn it is), with the penalty cards (Law 50A) where they fit. The cue is never lost:
    when the penalty cards fit on neither line they take the top line's place."""
    if not penalties:
        return [top, cue]
    if len(cue) + 1 + len(penalties) <= WIDTH:
        return [top, f"{cue} {penalties}"]
    if len(top) + 1 + len(penalties) <= WIDTH:
        return [f"{top} {penalties}", cue]
    return [penalties, cue]


def _result_lines(seat: Seat, board: BoardState, language: str) -> list[str]:
    result = board.result
    assert result is not None
    score = _t("score", language, score=f"{result.score_ns:+d}" if result.score_ns else "0")
    if result.adjusted:  # the director's text (A60/40) or, if none, "assigned"
        first = (_t("assigned", language) if result.adjusted == "assigned"
                 else result.adjusted)
    elif result.contract is None:
        first = words.passed_out(language)
    else:
        tricks = "" if result.tricks is None else str(result.tricks)
        first = _t("result", language, contract=words.contract(result.contract, language),
                   declarer=words.seat_letter(result.declarer or "", language), tricks=tricks)
    line = f"{first} {score}" if len(first) + len(score) < WIDTH else first
    done = any(s.side is seat.side for s in board.confirmed)
    revoke = _revoke_line(board, result, done, language)
    if revoke:
        return [line, revoke]
    return [line, _t("confirmed", language) if done else _t("confirm", language)]


def clock_line(state: TableState, clock: RoundClock | None, now: float,
               language: str) -> tuple[str, bool]:
    """The round clock's line (tabled.roundclock) and whether it warns: the minutes left,
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
    reader is unplugged; ``clock``: the round clock, read at ``now`` (the table's clock)."""
    lines = _body(seat, state, entry, language)[:3]
    while len(lines) < 3:
        lines.append("")
    phase = state.phase
    numeric = phase in (Phase.PLAYERS, Phase.BOARD) or entry.page == "claim"
    typed = _typed(entry, language, numeric)
    if typed:
        last = typed
    elif notice is not None:
        last = _notice_line(notice, language, state)
    elif reader_lost:
        last = _t("reader_lost", language)
    else:
        timing, urgent = clock_line(state, clock, now, language)
        if state.open_director_calls and not urgent:
            last = _t("director_open", language)
        else:
            last = timing
    return [line[:WIDTH] for line in (*lines, last)]
