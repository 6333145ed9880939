"""The board on the table: the board chosen, the hands scanned before the auction (a deal
captured where the board was dealt at the table), a wrong or fouled board."""

from __future__ import annotations

from typing import Any

from laws import Card, Deal, Seat
from laws.messages import text as message
from tablemodel.state import BoardState

from .context import Context, SeatEntry, director
from .keys import typed_number
from .outcome import Notice, Outcome, Proposed


def board_key(ctx: Context, seat: Seat, key: str, entry: SeatEntry) -> Outcome:
    """A seat types the board's number (OK alone: the next board of the round)."""
    done, number = typed_number(ctx, key, entry)
    if not done:
        return Outcome()
    state = ctx.state
    if number is None:
        number = state.next_board()
    if number is None or number not in state.boards_left:
        return Outcome().tell([seat], Notice("not_this_round", {"board": number}))
    dealer, vulnerability = state.board_facts(number)
    return Outcome([Proposed("board", number, {"board": number, "dealer": str(dealer),
                                               "vul": str(vulnerability)})])


def hands_to_scan(ctx: Context, board: BoardState) -> bool:
    """Boards dealt at the table: the auction waits until every player has scanned the
    13 cards of the hand (Law 7B: each counts the cards before looking at them); the
    first table captures the deal so, every later one is checked against it (Law 87)."""
    assignment = ctx.state.assignment
    return (assignment is not None and assignment.dealt_at_table
            and not len(board.auction) and any(len(board.scans[s]) < 13 for s in Seat))


def fouled(ctx: Context, seat: Seat | None, problem: tuple[str, dict[str, Any]],
           board: BoardState) -> Outcome:
    """Laws 15 and 87: a wrong or fouled board; the director decides (one call a
    board, while it is open). ``problem``: a message's code and params (laws/messages.py)."""
    code, params = problem
    detail = message(code, params)
    outcome = Outcome().tell(Seat, Notice("fouled", {"detail": detail}, "87"))
    if not any(c.reason == "fouled_board" and c.board == board.number
               for c in ctx.state.open_director_calls):
        outcome.events.append(director(ctx, seat, "fouled_board", "87", detail, code,
                                       params))
    return outcome


def scanned_card(ctx: Context, card: Card, reader_seat: Seat | None,
                 board: BoardState) -> Outcome:
    """A card of a hand scanned before the play (Law 7B: a hand may be counted, and checked
    on the reader, until the play)."""
    seat = reader_seat
    if seat is None:  # one reader: hands are scanned in turn, North first
        seat = next((s for s in Seat if len(board.scans[s]) < 13), None)
        if seat is None:
            return Outcome()
    scanned = board.scanned_owner(card)
    if scanned is seat:
        return Outcome()  # the same card read twice
    known = next((s for s, hand in board.known.items() if card in hand), None)
    problem: tuple[str, dict[str, Any]] | None = None
    said = {"card": str(card), "seat": str(seat)}
    if scanned is not None:
        problem = ("scanned_twice", {**said, "owner": str(scanned)})
    elif known is not None and known is not seat:
        problem = ("scanned_elsewhere", {**said, "owner": str(known)})
    elif seat in board.known and card not in board.known[seat]:
        problem = ("scanned_not_there", said)
    elif len(board.scans[seat]) >= 13:
        problem = ("scanned_fourteenth", said)
    if problem is None:
        taken = Outcome([Proposed("hand_card", board.number,
                                  {"seat": str(seat), "card": str(card)})])
        captured = captured_deal(ctx, board, seat, card)
        if captured is not None:
            taken.events.append(Proposed("deal", board.number,
                                         {"deal": captured.to_pbn()}))
        return taken
    return fouled(ctx, seat, problem, board)


def captured_deal(ctx: Context, board: BoardState, seat: Seat, card: Card) -> Deal | None:
    """The deal the 52nd card scanned completes, when the board was dealt here (Law 6):
    the assignment did not bring it, so this table is the first to play it and its four
    hands, 13 distinct cards each, become the board's hand record."""
    assignment = ctx.state.assignment
    if (assignment is None or not assignment.dealt_at_table
            or board.number in assignment.deals):
        return None
    if any(len(board.scans[s]) != (12 if s is seat else 13) for s in Seat):
        return None
    return Deal({s: frozenset([*board.scans[s], *([card] if s is seat else [])])
                 for s in Seat})
