"""Questions, answers and the opponents' system card (Laws 20F, 40B2(c)); the review of
the auction (Law 20B): INFO's pages, a question asked about an opponent's call, the answer
given."""

from __future__ import annotations

from laws import PASS, Seat
from tablemodel.state import BoardState, Phase
from tablemodel.syscard import STANDARD_ANSWERS, answer_line, answer_text
from tablemodel.texts import LANGUAGES, pages
from tablemodel.visibility import review_of

from .claims import may_claim
from .context import Context, SeatEntry
from .keys import summon
from .outcome import Notice, Outcome, Proposed


def _pages(texts: dict[str, str]) -> int:
    """How many pages of two lines a text takes on the seat displays, in whichever language
    takes most (the display shows its last page again if its language needs fewer)."""
    return max(len(pages(texts[language], 2)) for language in LANGUAGES)


def _opponent_calls(ctx: Context, seat: Seat, board: BoardState) -> list[int]:
    """The opponents' calls ``seat`` has seen (under screens, what reached its side)."""
    screens = ctx.state.conduct.screens
    seen = (len(board.auction) if screens is None
            else board.seen_by_side(screens, screens.side(seat)))
    entries = board.auction.entries
    return [i for i in range(seen) if entries[i].seat.side is not seat.side]


def _at_turn(ctx: Context, seat: Seat, board: BoardState) -> bool:
    phase = ctx.state.phase
    if phase in (Phase.SETUP, Phase.AUCTION):
        return board.auction.turn is seat
    play = board.play
    if phase is Phase.PLAY and play is not None and play.turn is not None:
        # Declarer plays dummy's cards (Law 45B): dummy's turn is declarer's too.
        turn = play.declarer if play.turn is play.dummy else play.turn
        return turn is seat
    return False


def _may_ask(ctx: Context, seat: Seat, board: BoardState) -> bool:
    """Law 20F1: in the auction, at one's turn; 20F2: after the final pass, the opening
    leader at his turn to lead; 41B: once the lead lies face down, the leader's partner
    and the presumed declarer (not the presumed dummy); in the play, at one's turn to
    play (declarer at dummy's turn too)."""
    play = board.play
    if ctx.state.phase is Phase.LEAD and play is not None:
        if board.cards:
            return seat in (board.cards[0][0].partner, play.declarer)
        return seat is play.turn
    return _at_turn(ctx, seat, board) and (play is None or seat is not play.dummy)


def _may_consult(ctx: Context, seat: Seat, board: BoardState) -> bool:
    """Law 40B2(c): the opponents' card (i) before the auction begins, (ii) in the
    clarification period, (iii) in the auction and the play at one's turn."""
    phase = ctx.state.phase
    if phase is Phase.SETUP or phase is Phase.LEAD:
        return True
    return _at_turn(ctx, seat, board)


def info_key(ctx: Context, seat: Seat, entry: SeatEntry) -> Outcome:
    """INFO goes round the pages: the review of the auction (Law 20B), a question about
    the opponents' calls, the opponents' system card, and back to the plain display."""
    board = ctx.state.board
    order: list[str | None] = [None, "review", "claim", "ask", "card"]
    current = "review" if entry.review and entry.page is None else entry.page
    start = order.index(current)
    if current == "claim":  # the tricks typed there are not a call
        entry.keys.clear()
    entry.claim = None
    for step in range(1, len(order) + 1):
        page = order[(start + step) % len(order)]
        if page == "review" and review_of(seat, ctx.state) is None:
            continue  # Laws 41B, 41C: not at this seat's turn to play now
        if page == "claim" and (board is None or not may_claim(ctx, seat, board)):
            continue
        if page == "ask" and (board is None or not _may_ask(ctx, seat, board)
                              or not _opponent_calls(ctx, seat, board)):
            continue
        if page == "card" and (board is None or not _may_consult(ctx, seat, board)
                               or ctx.state.conduct.cards.get(
                                   seat.side.other) is None):
            continue
        entry.review = page == "review"
        entry.page = page if page in ("ask", "card", "claim") else None
        if page == "claim":
            entry.keys.clear()  # a call half typed is not the tricks claimed
        entry.scroll = 0
        if entry.page in ("ask", "card") and board is not None:
            calls = _opponent_calls(ctx, seat, board)
            bids = [i for i in calls if board.auction.entries[i].call != PASS]
            newest = bids or calls  # the newest that says something, else the newest
            entry.pick = newest[-1] if newest else None
        return Outcome()
    return Outcome()


def page_key(ctx: Context, seat: Seat, key: str, entry: SeatEntry,
             board: BoardState) -> Outcome:
    """UNDO and OK on the question page and the opponents' card page."""
    calls = _opponent_calls(ctx, seat, board)
    if key == "UNDO":  # the opponents' call before, round to the newest
        if calls:
            at = calls.index(entry.pick) if entry.pick in calls else 0
            entry.pick = calls[at - 1]
        entry.scroll = 0
        return Outcome()
    if entry.page == "card":
        entry.scroll += 1  # OK: the next lines of the meaning (or of the card)
        return Outcome()
    if _reading_answer(ctx, seat, entry, board):
        entry.scroll += 1  # OK: the next lines of the answer, before asking again
        return Outcome()
    # OK on the question page: ask about the call shown.
    if not _may_ask(ctx, seat, board):
        entry.page = None
        return Outcome().tell([seat], Notice("ask_turn", law="20F"))
    index = entry.pick
    if index is None or index not in calls:
        return Outcome().tell([seat], Notice("ask_nothing"))
    if any(q.asker is seat and q.index == index and q.answer is None
           for q in board.questions):
        return Outcome()
    screens = ctx.state.conduct.screens
    caller = board.auction.entries[index].seat
    # Law 20F1: the caller's partner answers; under screens, in writing, the screenmate.
    to = caller.partner if screens is None else screens.screenmate(seat)
    entry.page = None
    return Outcome([Proposed("question", board.number,
                             {"seat": str(seat), "index": index, "to": str(to)})]).tell(
        [seat], Notice("asked", error=False))


def _reading_answer(ctx: Context, seat: Seat, entry: SeatEntry,
                    board: BoardState) -> bool:
    """The question page shows an answer with more of it to read."""
    answered = [q for q in board.questions if q.index == entry.pick
                and q.asker in (seat, seat.partner) and q.answer is not None]
    if not answered:
        return False
    last = answered[-1]
    assert last.answer is not None
    card = ctx.state.conduct.card_of(last.answerer)
    texts = {language: answer_text(card, last.answer, language) or str(last.answer)
             for language in LANGUAGES}
    return entry.scroll + 1 < _pages(texts)


def answer_question(ctx: Context, seat: Seat, key: str, entry: SeatEntry,
                    board: BoardState) -> Outcome:
    """A question waits for this seat: its keys answer it, from the list (UNDO shows the
    next answer, OK gives it) or by code (digits, then OK)."""
    question = board.open_questions(seat)[0]
    offered = ctx.state.offered_answers(seat, question)
    if key == "DIR":
        return summon(ctx, seat)
    if key == "UNDO":
        if entry.keys:
            entry.keys.pop()
            return Outcome()
        card = ctx.state.conduct.card_of(seat)
        code = offered[entry.answer % len(offered)]
        texts = {language: answer_line(card, code, language) for language in LANGUAGES}
        if entry.scroll + 1 < _pages(texts):
            entry.scroll += 1  # the rest of the answer shown, before the next one
        else:
            entry.answer = (entry.answer + 1) % len(offered)
            entry.scroll = 0
        return Outcome()
    if key == "OK":
        if entry.keys:
            digits = "".join(str(ctx.digit(k)) for k in entry.keys
                             if ctx.digit(k) is not None)
            entry.keys.clear()
            code = int(digits) if digits else -1
            card = ctx.state.conduct.card_of(seat)
            if code not in STANDARD_ANSWERS and (card is None
                                                 or card.by_code(code) is None):
                return Outcome().tell([seat], Notice("bad_code", {"code": code}))
        else:
            code = offered[entry.answer % len(offered)]
        entry.answer = 0
        entry.scroll = 0
        told = [question.asker]
        if ctx.state.conduct.screens is None:
            told.append(question.asker.partner)  # Law 20F1: the asker's side
        return Outcome([Proposed("answer", board.number,
                                 {"seat": str(seat), "question": question.seq,
                                  "code": code})]).tell(
            told, Notice("answered", {"call": str(board.auction.entries[question.index]
                                                  .call), "code": code, "by": str(seat)},
                         error=False))
    if ctx.digit(key) is not None and len(entry.keys) < 4:
        entry.keys.append(key)
        return Outcome()
    return Outcome().tell([seat], Notice("answer_first"))

