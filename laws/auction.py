"""The auction: Laws 17 to 39 as far as a bidding box can enforce them.

An :class:`Auction` answers what is legal (``legal_calls()``, ``is_legal(call)``) and refuses
anything else with an :class:`IllegalCallError` that names the law. The director's
rectifications are data the auction enforces: :class:`PassObligation` (a seat that must pass),
and :meth:`Auction.take_back` (the auction taken back to a given call).
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from .calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Bid, Call, Contract, Doubling
from .cards import Seat
from .errors import IllegalCallError, RulesError


@dataclass(frozen=True, slots=True)
class AuctionEntry:
    """A call as made at the table, with its alert and explanation (Law 20, Law 40B)."""

    seat: Seat
    call: Call
    alert: bool = False
    explanation: str | None = None

    def __str__(self) -> str:
        return f"{self.seat}:{self.call}{'!' if self.alert else ''}"


class PassScope(enum.Enum):
    """How long a director's obligation to pass lasts."""

    NEXT_TURN = "next_turn"  # e.g. Laws 30A, 30B1, 31A2(a): a pass at the next turn only
    AUCTION = "auction"  # e.g. Laws 27B2, 30B2a, 31, 32, 36B2, 37B, 38C: rest of the auction


@dataclass(frozen=True, slots=True)
class PassObligation:
    """A seat that must pass, imposed by the director under ``law``."""

    seat: Seat
    law: str
    scope: PassScope = PassScope.AUCTION
    from_call: int = 0  # the obligation starts at the seat's first turn at or after this index
    # Law 30B2(b): partner may bid but may not double or redouble at that turn.
    bids_allowed: bool = False

    def forbids(self, call: Call) -> bool:
        if self.bids_allowed:
            return call == DOUBLE or call == REDOUBLE
        return call != PASS


class Auction:
    """The calls of one board, in order, from the dealer (Law 17B, 17C)."""

    def __init__(self, dealer: Seat, calls: Sequence[Call] = ()) -> None:
        self.dealer = dealer
        self._entries: list[AuctionEntry] = []
        self._obligations: list[PassObligation] = []
        self._over = False
        for call in calls:
            self.make_call(call)

    # -- what has happened -------------------------------------------------------------

    @property
    def entries(self) -> tuple[AuctionEntry, ...]:
        """The whole auction, for review at a player's turn (Law 20B)."""
        return tuple(self._entries)

    @property
    def calls(self) -> tuple[Call, ...]:
        return tuple(e.call for e in self._entries)

    @property
    def obligations(self) -> tuple[PassObligation, ...]:
        return tuple(self._obligations)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        calls = " ".join(str(e.call) for e in self._entries)
        return f"<Auction dealer={self.dealer} [{calls}]>"

    def copy(self) -> Auction:
        other = Auction(self.dealer)
        other._entries = list(self._entries)
        other._obligations = list(self._obligations)
        other._over = self._over
        return other

    def seat_at(self, index: int) -> Seat:
        """Who makes (or made) the call at position ``index`` (Law 17C: clockwise)."""
        return self.dealer.next(index)

    @property
    def is_over(self) -> bool:
        """Law 22A: four passes, or three consecutive passes after a call."""
        return self._over

    def _changed(self) -> None:
        entries = self._entries
        n = len(entries)
        if n < 4:
            self._over = False
        elif n == 4 and all(e.call == PASS for e in entries):
            self._over = True  # Law 22A1: passed out
        else:
            self._over = all(e.call == PASS for e in entries[-3:])  # Law 22A2

    @property
    def is_passed_out(self) -> bool:
        return self.is_over and all(e.call == PASS for e in self._entries)

    @property
    def turn(self) -> Seat | None:
        """The seat whose turn it is to call, or None once the auction is over."""
        return None if self.is_over else self.seat_at(len(self._entries))

    def _last_bid_index(self) -> int | None:
        for i in range(len(self._entries) - 1, -1, -1):
            if isinstance(self._entries[i].call, Bid):
                return i
        return None

    @property
    def last_bid(self) -> Bid | None:
        i = self._last_bid_index()
        if i is None:
            return None
        call = self._entries[i].call
        assert isinstance(call, Bid)
        return call

    def _last_non_pass(self) -> AuctionEntry | None:
        for entry in reversed(self._entries):
            if entry.call != PASS:
                return entry
        return None

    @property
    def doubling(self) -> Doubling:
        """The doubling state of the last bid (Law 19C: a later legal bid supersedes it)."""
        last = self._last_non_pass()
        if last is None or isinstance(last.call, Bid):
            return Doubling.UNDOUBLED
        return Doubling.DOUBLED if last.call == DOUBLE else Doubling.REDOUBLED

    @property
    def contract(self) -> Contract | None:
        """The final contract once the auction is over (Law 22A2, 19D); None if passed out."""
        bid = self.last_bid
        if not self.is_over or bid is None:
            return None
        return Contract(bid.level, bid.strain, self.doubling)

    @property
    def declarer(self) -> Seat | None:
        """The player of the declaring side who first named the final strain (Definitions)."""
        i = self._last_bid_index()
        if not self.is_over or i is None:
            return None
        final = self._entries[i]
        assert isinstance(final.call, Bid)
        side = final.seat.side
        for entry in self._entries:
            if (isinstance(entry.call, Bid) and entry.seat.side is side
                    and entry.call.strain is final.call.strain):
                return entry.seat
        raise AssertionError("unreachable: the final bid names its own strain")

    @property
    def dummy(self) -> Seat | None:
        declarer = self.declarer
        return None if declarer is None else declarer.partner

    @property
    def opening_leader(self) -> Seat | None:
        """Law 41A: the defender on declarer's left makes the opening lead."""
        declarer = self.declarer
        return None if declarer is None else declarer.lho

    # -- what is allowed ---------------------------------------------------------------

    def _must_pass(self, seat: Seat, index: int) -> PassObligation | None:
        for obligation in self._obligations:
            if obligation.seat is not seat or index < obligation.from_call:
                continue
            if obligation.scope is PassScope.NEXT_TURN:
                first_turn = next(i for i in range(obligation.from_call, index + 1)
                                  if self.seat_at(i) is seat)
                if first_turn != index:
                    continue
            return obligation
        return None

    def barred(self, seat: Seat) -> bool:
        """``seat`` is on turn and the director's ruling allows it only a pass (Law 37;
        not Law 30B2(b), which lets it bid)."""
        if not self._obligations or self._over or self.seat_at(len(self._entries)) is not seat:
            return False
        obligation = self._must_pass(seat, len(self._entries))
        return obligation is not None and not obligation.bids_allowed

    def check(self, call: Call, seat: Seat | None = None) -> None:
        """Raise :class:`IllegalCallError`, naming the law, unless ``call`` is legal now."""
        if self.is_over:
            raise IllegalCallError("auction_over", "39", call=str(call))
        turn = self.seat_at(len(self._entries))
        if seat is not None and seat is not turn:
            if seat is turn.rho and self._entries:
                # Laws 30B3, 31B: a second call by the player who has just called is a
                # change of call, dealt with by Law 25 (replace_call).
                raise IllegalCallError("change_is_not_a_call", "25", seat=str(seat))
            law = "30" if call == PASS else ("31" if isinstance(call, Bid) else "32")
            raise IllegalCallError("call_out_of_turn", law, seat=str(seat), turn=str(turn))
        obligation = self._must_pass(turn, len(self._entries)) if self._obligations else None
        if obligation is not None and obligation.forbids(call):
            if obligation.bids_allowed:
                # Law 30B2(b): partner may pass or bid, but not double or redouble.
                raise IllegalCallError("may_not_double", "30B2(b)", seat=str(turn),
                                       rule=obligation.law, call=str(call))
            raise IllegalCallError("must_pass", "37", seat=str(turn), rule=obligation.law,
                                   call=str(call))
        if isinstance(call, Bid):
            if call.level > 7:
                raise IllegalCallError("bid_above_seven", "38", call=str(call))
            last = self.last_bid
            if last is not None and not call.supersedes(last):
                # Law 18D defines it; Law 27 rectifies it.
                raise IllegalCallError("insufficient_bid", "27", call=str(call), last=str(last))
        elif call == DOUBLE:
            target = self._last_non_pass()
            if target is None or not isinstance(target.call, Bid):
                raise IllegalCallError("double_of_no_bid", "36")  # Law 19A1
            if target.seat.side is turn.side:
                raise IllegalCallError("double_of_own_side", "36")  # Law 19A1
        elif call == REDOUBLE:
            target = self._last_non_pass()
            if target is None or target.call != DOUBLE:
                raise IllegalCallError("redouble_of_no_double", "36")  # Law 19B1
            if target.seat.side is turn.side:
                raise IllegalCallError("redouble_of_own_side", "36")  # Law 19B1

    def is_legal(self, call: Call, seat: Seat | None = None) -> bool:
        try:
            self.check(call, seat)
        except IllegalCallError:
            return False
        return True

    def legal_calls(self) -> Iterator[Call]:
        """Every call the seat on turn may make now (none once the auction is over)."""
        if self.is_over:
            return
        yield PASS
        obligation = self._must_pass(self.seat_at(len(self._entries)), len(self._entries))
        if obligation is not None and not obligation.bids_allowed:
            return  # Law 37
        for call in (DOUBLE, REDOUBLE):
            if self.is_legal(call):
                yield call
        last = self.last_bid
        start = 0 if last is None else last.rank + 1
        yield from ALL_BIDS[start:]

    # -- changing it -------------------------------------------------------------------

    def make_call(self, call: Call, seat: Seat | None = None, *, alert: bool = False,
                  explanation: str | None = None) -> AuctionEntry:
        """Add ``call`` by ``seat`` (default: the seat on turn); refuse it if illegal.

        Law 28A: when the seat on turn must pass and the next seat calls, the call is in
        rotation and the obliged seat's pass is recorded first.
        """
        turn = None if self._over else self.seat_at(len(self._entries))
        if (seat is not None and turn is not None and seat is turn.lho
                and self.barred(turn)):
            self._entries.append(AuctionEntry(turn, PASS))
            self._changed()
            try:
                self.check(call, seat)
            except IllegalCallError:
                self._entries.pop()
                self._changed()
                raise
        else:
            self.check(call, seat)
        entry = AuctionEntry(self.seat_at(len(self._entries)), call, alert, explanation)
        self._entries.append(entry)
        self._changed()
        return entry

    def annotate(self, index: int, *, alert: bool | None = None,
                 explanation: str | None = None) -> AuctionEntry:
        """Attach an alert or an explanation to the call at ``index`` (Laws 20F, 40B)."""
        entry = self._entries[index]
        entry = replace(entry, alert=entry.alert if alert is None else alert,
                        explanation=entry.explanation if explanation is None else explanation)
        self._entries[index] = entry
        return entry

    def can_replace(self, seat: Seat) -> int | None:
        """The index of ``seat``'s call that Law 25A lets it replace now, or None.

        Law 25A1-2: until partner has made a call; Law 25A3: if the auction ended before
        partner's turn, until the end of the auction period (the caller checks that the
        opening lead has not been faced).
        """
        for i in range(len(self._entries) - 1, -1, -1):
            entry = self._entries[i]
            if entry.seat is seat.partner:
                return None
            if entry.seat is seat:
                return i
        return None

    def replace_call(self, seat: Seat, call: Call, *, alert: bool = False,
                     explanation: str | None = None,
                     lho_withdraws: bool = True) -> list[AuctionEntry]:
        """Law 25A: replace ``seat``'s unintended call with ``call``.

        The left-hand opponent may withdraw a call made over the unintended one (Law 25A4;
        2017: 25A6); with ``lho_withdraws=False`` it stands, if still legal over the new call.
        Returns the entries removed. The new call must itself be legal at that point.
        """
        index = self.can_replace(seat)
        if index is None:
            raise IllegalCallError("change_too_late", "25A2", seat=str(seat))
        removed = self._entries[index:]
        kept = [] if lho_withdraws else removed[1:]
        trial = self.copy()
        trial._entries = self._entries[:index]
        trial._changed()
        trial.check(call, seat)
        trial._entries.append(AuctionEntry(seat, call, alert, explanation))
        trial._changed()
        for entry in kept:
            trial.check(entry.call, entry.seat)
            trial._entries.append(entry)
            trial._changed()
        self._entries = trial._entries
        self._changed()
        return removed[:1] if kept else removed

    def take_back(self, length: int) -> list[AuctionEntry]:
        """Cancel every call after the first ``length`` ones, on the director's ruling
        (Law 17E2 passes out of rotation, Law 36A inadmissible doubles, Law 38B, Law 39A).
        Returns the calls cancelled."""
        if not 0 <= length <= len(self._entries):
            raise RulesError("auction_back_out_of_range", length=length,
                             count=len(self._entries))
        removed = self._entries[length:]
        del self._entries[length:]
        self._changed()
        return removed

    def require_pass(self, seat: Seat, law: str, scope: PassScope = PassScope.AUCTION, *,
                     bids_allowed: bool = False) -> PassObligation:
        """The director's ruling that ``seat`` must pass (Laws 27B2, 30, 31, 32, 36B2, 37),
        or with ``bids_allowed`` only that it may not double or redouble (Law 30B2(b))."""
        obligation = PassObligation(seat, law, scope, len(self._entries), bids_allowed)
        self._obligations.append(obligation)
        return obligation
