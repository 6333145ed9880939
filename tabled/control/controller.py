"""The controller: one table's ``Context`` and the dispatcher that hands each input to the
function of its phase."""

from __future__ import annotations

from collections.abc import Callable

from laws import Card, Seat
from tablemodel.state import Phase, TableState
from tablemodel.wire import Command

from . import auction, claims, commands, dealing, keys, play, questions
from .context import Context, SeatEntry
from .outcome import Notice, Outcome, Proposed

#: What a key means in each phase, when nothing else (a question to answer, a page open)
#: takes it first.
PHASE_KEYS: dict[Phase, Callable[[Context, Seat, str, SeatEntry], Outcome]] = {
    Phase.WAITING: keys.waiting_key,
    Phase.PLAYERS: keys.players_key,
    Phase.BOARD: dealing.board_key,
    Phase.SETUP: auction.call_key,
    Phase.AUCTION: auction.call_key,
    Phase.LEAD: play.play_key,
    Phase.PLAY: play.play_key,
    Phase.RESULT: claims.result_key,
    Phase.ROUND_END: keys.round_over_key,
}
assert set(PHASE_KEYS) == set(Phase), "every phase says what its keys mean"


class Controller:
    """Turns inputs into proposed events for one table. One thread calls it.

    It holds the table's ``Context`` and hands each input to the function of its phase
    (tabled.control's modules); the functions read the state and never change it."""

    def __init__(self, state: TableState, *,
                 digit: Callable[[str], int | None] = keys.DIGITS.get) -> None:
        self.context = Context(state, digit)

    @property
    def state(self) -> TableState:
        return self.context.state

    @property
    def entries(self) -> dict[Seat, SeatEntry]:
        """What each seat has typed but not confirmed (the views show it)."""
        return self.context.entries

    def key(self, seat: Seat, key: str) -> Outcome:
        ctx = self.context
        entry = ctx.entries[seat]
        if key == "DIR":
            return keys.summon(ctx, seat)
        if key == "INFO":
            return questions.info_key(ctx, seat, entry)
        board = ctx.state.board
        if board is not None and board.open_questions(seat):
            return questions.answer_question(ctx, seat, key, entry, board)
        if entry.page == "claim":  # Law 68: the claim page takes its keys while it is open
            if board is not None and claims.may_claim(ctx, seat, board):
                answer = claims.claim_key(ctx, seat, key, entry, board)
                if answer is not None:
                    return answer
            entry.page, entry.claim = None, None  # left the page: the key does what it does
        if entry.page is not None and board is not None:
            if key in ("UNDO", "OK"):
                return questions.page_key(ctx, seat, key, entry, board)
            entry.page = None  # any other key leaves the page and does what it does
        return PHASE_KEYS[ctx.state.phase](ctx, seat, key, entry)

    def card(self, card: Card | None, reader_seat: Seat | None, *,
             now: float | None = None) -> Outcome:
        """A card at the reader; ``now`` (the table's clock) tells two cards read together
        (Law 58B) from a card played too soon. What is refused is said to the player whose
        card it is (its slot's player, with one reader the table's); what the laws make
        public (a card faced: a penalty card, a lead out of turn) is said to all."""
        ctx = self.context
        phase = ctx.state.phase
        told = list(Seat) if reader_seat is None else [reader_seat]
        if card is None:
            return Outcome().tell(told, Notice("unknown_card"))
        board = ctx.state.board
        if phase in (Phase.SETUP, Phase.AUCTION) and board is not None:
            # Law 7B: a hand may be counted, and checked on the reader, until the play.
            return dealing.scanned_card(ctx, card, reader_seat, board)
        if phase in (Phase.LEAD, Phase.PLAY) and board is not None:
            return play.played_card(ctx, card, reader_seat, board, now)
        return Outcome().tell(told, Notice("no_card_now", {"card": str(card)}))

    def command(self, command: Command) -> Outcome:
        """A command from the server (tabled.control.commands.answer_command)."""
        return commands.answer_command(self.context, command)

    def tick(self, now: float) -> Outcome:
        """Screens: the tray crosses once it is due."""
        return auction.tick(self.context, now)

    def next_tick(self) -> float | None:
        """When ``tick`` has something to do, or None."""
        return auction.next_tick(self.context)

    def follow_up(self) -> list[Proposed]:
        """Events the laws add after the last one (tabled.control.claims.follow_up)."""
        return claims.follow_up(self.context)

    def forget_entries(self) -> None:
        """The phase or the board changed: what the seats had typed is forgotten."""
        keys.forget_entries(self.context)
