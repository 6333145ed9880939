"""The play: Laws 41 to 70 as far as a table with physical cards can enforce them.

The hands may be known (scanned at the table, or from a record) or not. With known hands a
card from the wrong hand, a card out of turn and a failure to follow suit are seen at once;
with unknown hands the play assumes the seat on turn and a revoke is detected as soon as the
evidence appears: the player later shows a card of the suit they failed to follow.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field

from .board import Deal
from .calls import Contract
from .cards import Card, Seat, Side, Suit
from .errors import IllegalCardError, IllegalClaimError, RulesError


@dataclass(frozen=True, slots=True)
class LeadRestriction:
    """Law 26: at the offender's partner's first turn to lead, declarer requires or forbids a
    suit; a prohibition lasts for as long as that player retains the lead."""

    seat: Seat
    suit: Suit
    required: bool
    law: str = "26"


@dataclass
class Trick:
    """One trick: who led it and the cards in the order played (Law 44)."""

    leader: Seat
    cards: list[tuple[Seat, Card]] = field(default_factory=list)
    won_by: Seat | None = None  # set by the play when the fourth card completes it

    @property
    def is_complete(self) -> bool:
        return len(self.cards) == 4

    @property
    def led_suit(self) -> Suit | None:
        return self.cards[0][1].suit if self.cards else None

    def card_of(self, seat: Seat) -> Card | None:
        for who, card in self.cards:
            if who is seat:
                return card
        return None

    def winner(self, trump: Suit | None) -> Seat:
        """Law 44E-F: the highest trump wins, or else the highest card of the suit led."""
        if not self.is_complete:
            raise ValueError("an incomplete trick has no winner")
        led = self.cards[0][1].suit
        best_seat, best = self.cards[0][0], -1
        for seat, card in self.cards:
            rank = card.index % 13
            strength = 200 + rank if card.suit is trump else (100 + rank if card.suit is led
                                                              else rank)
            if strength > best:
                best_seat, best = seat, strength
        return best_seat

    def __str__(self) -> str:
        return " ".join(str(card) for _, card in self.cards)


@dataclass
class Revoke:
    """A failure to follow suit (Law 61), by ``seat`` on trick ``trick`` (0-based)."""

    seat: Seat
    trick: int
    suit: Suit
    card: Card
    established: bool = False
    detected_at_trick: int = 0


class ClaimState(enum.Enum):
    PENDING = "pending"
    AGREED = "agreed"
    DISPUTED = "disputed"


@dataclass
class Claim:
    """Law 68: ``seat``'s side will win ``tricks`` of the tricks not yet completed (the rest
    are conceded). It needs the opponents' agreement (Law 69); a dispute stops the play and
    goes to the director (Laws 68D, 70)."""

    seat: Seat
    tricks: int
    at_trick: int
    state: ClaimState = ClaimState.PENDING
    agreed_by: set[Seat] = field(default_factory=set)

    def needs(self, declarer: Seat) -> set[Seat]:
        """Who must agree: both defenders when declarer claims; declarer when a defender
        does (and the defender's partner must not object, Law 68B2)."""
        if self.seat.side is declarer.side:
            return {declarer.lho, declarer.rho}
        return {declarer, self.seat.partner}


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """What :meth:`Play.play` reports: the card, its seat, and what it completed or found."""

    seat: Seat
    card: Card
    trick: int
    trick_winner: Seat | None
    revoke: Revoke | None


class Play:
    """The play of one board, from the opening lead to the last trick or a claim."""

    def __init__(self, contract: Contract, declarer: Seat, deal: Deal | None = None, *,
                 accept_revokes: bool = False,
                 lead_restrictions: tuple[LeadRestriction, ...] = ()) -> None:
        self.contract = contract
        self.declarer = declarer
        self.deal = deal.completed() if deal is not None else Deal({})
        # With physical cards a revoke happens and stands until the director rectifies it;
        # an electronic table may instead refuse the card (the default).
        self.accept_revokes = accept_revokes
        self.lead_restrictions = list(lead_restrictions)
        self.tricks: list[Trick] = [Trick(declarer.lho)]  # Law 41A: the opening lead
        self.revokes: list[Revoke] = []
        self.claim: Claim | None = None
        self._completed = 0
        self._played: dict[Card, Seat] = {}
        # The cards each known hand still holds, and whose hand each known card is in.
        self._hands: dict[Seat, set[Card]] = {s: set(h) for s, h in self.deal.hands.items()}
        self._owners: dict[Card, Seat] = {c: s for s, h in self.deal.hands.items() for c in h}
        # How many cards of each suit each known hand still holds (Law 44C asks on every card).
        self._suit_counts: dict[Seat, list[int]] = {}
        for seat, hand in self.deal.hands.items():
            counts = self._suit_counts[seat] = [0, 0, 0, 0]
            for card in hand:
                counts[card.index // 13] += 1
        self._trump = contract.strain.suit
        self._next = declarer.lho
        self._shown_out: dict[Seat, dict[Suit, int]] = {seat: {} for seat in Seat}
        self._leads_by: dict[Seat, int] = {seat: 0 for seat in Seat}

    # -- state -------------------------------------------------------------------------

    @property
    def trump(self) -> Suit | None:
        return self._trump

    @property
    def dummy(self) -> Seat:
        return self.declarer.partner

    @property
    def current(self) -> Trick:
        return self.tricks[-1]

    @property
    def completed_tricks(self) -> list[Trick]:
        return self.tricks[:self._completed]

    @property
    def is_over(self) -> bool:
        return (self._completed == 13
                or (self.claim is not None and self.claim.state is ClaimState.AGREED))

    @property
    def turn(self) -> Seat | None:
        """The hand to play from next (dummy's cards are played by declarer, Law 45B); None
        once the play is over, and while a claim stands (Law 68D: play ceases)."""
        if self._completed == 13 or self.claim is not None:
            return None
        return self._next

    def controller(self, seat: Seat) -> Seat:
        """Who chooses the card for ``seat``: declarer for dummy (Law 45B)."""
        return self.declarer if seat is self.dummy else seat

    def remaining(self, seat: Seat) -> frozenset[Card] | None:
        """The cards ``seat`` still holds, when its hand is known."""
        hand = self._hands.get(seat)
        return None if hand is None else frozenset(hand)

    def played_cards(self) -> dict[Card, Seat]:
        return dict(self._played)

    def tricks_won(self, side: Side) -> int:
        return sum(1 for t in self.completed_tricks if t.won_by is not None
                   and t.won_by.side is side)

    @property
    def declarer_tricks_played(self) -> int:
        return self.tricks_won(self.declarer.side)

    # -- legality ----------------------------------------------------------------------

    def _restriction_for(self, seat: Seat) -> LeadRestriction | None:
        for restriction in self.lead_restrictions:
            if restriction.seat is seat:
                return restriction
        return None

    def legal_cards(self) -> Iterator[Card]:
        """The cards the hand on turn may play now. With its hand unknown: every card not
        yet played and not known to be in another hand."""
        seat = self.turn
        if seat is None:
            return
        for card in Card.ALL:
            if self._refusal(card, seat) is None:
                yield card

    def is_legal(self, card: Card, seat: Seat | None = None) -> bool:
        return self._refusal(card, seat) is None

    def owner(self, card: Card) -> Seat | None:
        return self._owners.get(card)

    def _refusal(self, card: Card, seat: Seat | None) -> IllegalCardError | None:
        turn = self.turn
        if turn is None:
            claim = self.claim
            if claim is not None and claim.state is ClaimState.DISPUTED:
                return IllegalCardError("play stops while the director rules on the claim",
                                        "68D")
            if claim is not None and claim.state is ClaimState.PENDING:
                return IllegalCardError("play stops while the opponents answer the claim",
                                        "68D")
            return IllegalCardError("the play is over: thirteen tricks have been played", "44")
        if card in self._played:
            return IllegalCardError(f"{card} has been played already", "45A")
        owner = self._owners.get(card)
        if seat is None:
            seat = owner if owner is not None else turn
        if owner is None and seat in self._hands:
            # Law 45A: a known hand plays only its own cards.
            return IllegalCardError(f"{card} is not in {seat}'s hand", "45A")
        if owner is not None and owner is not seat:
            return IllegalCardError(f"{card} is in {owner}'s hand, not {seat}'s", "45A")
        trick = self.tricks[-1]
        if seat is not turn:
            if not trick.cards:
                return IllegalCardError(f"{seat} led out of turn; it is {turn}'s lead",
                                        self._lead_out_of_turn_law(seat))
            return IllegalCardError(f"{seat} played out of turn; it is {turn}'s turn", "57")
        hand = self._hands.get(seat)
        if hand is not None and self.lead_restrictions and not trick.cards:
            restriction = self._restriction_for(seat)
            if restriction is not None and self._restriction_applies(restriction):
                holds = any(c.suit is restriction.suit for c in hand)
                if restriction.required and holds and card.suit is not restriction.suit:
                    return IllegalCardError(f"{seat} must lead a {restriction.suit.name}",
                                            restriction.law)
                if (not restriction.required and card.suit is restriction.suit
                        and any(c.suit is not restriction.suit for c in hand)):
                    return IllegalCardError(f"{seat} may not lead a {restriction.suit.name}",
                                            restriction.law)
        if (trick.cards and hand is not None and not self.accept_revokes
                and self._fails_to_follow(seat, card, trick.cards[0][1].suit)):
            led = trick.cards[0][1].suit
            return IllegalCardError(f"{seat} must follow suit in {led.name}", "44C")
        return None

    def _fails_to_follow(self, seat: Seat, card: Card, led: Suit) -> bool:
        """Law 44C: a card of another suit while the (known) hand holds the suit led."""
        counts = self._suit_counts.get(seat)
        return card.suit is not led and counts is not None and counts[led._value_] > 0

    def _lead_out_of_turn_law(self, seat: Seat) -> str:
        if self._completed == 0:
            return "54"  # the opening lead faced out of turn
        if seat.side is self.declarer.side:
            return "55"  # declarer leads from the wrong hand
        return "56"  # a defender leads out of turn

    def _restriction_applies(self, restriction: LeadRestriction) -> bool:
        # Law 26A2(a)/26B: the first turn to lead; a prohibition goes on while that player
        # keeps the lead, that is for as long as every lead since the first has been theirs.
        seat = restriction.seat
        if self._leads_by[seat] == 0:
            return True
        if restriction.required:
            return False
        leaders = [t.leader for t in self.tricks]
        first = leaders.index(seat)
        return all(leader is seat for leader in leaders[first:])

    def check(self, card: Card, seat: Seat | None = None) -> None:
        refusal = self._refusal(card, seat)
        if refusal is not None:
            raise refusal

    # -- playing -----------------------------------------------------------------------

    def play(self, card: Card, seat: Seat | None = None) -> PlayedCard:
        """Play ``card`` from ``seat``'s hand (default: its owner if known, else the seat on
        turn). Refuses what the Laws forbid; records a revoke when revokes are accepted or
        when later evidence reveals one."""
        refusal = self._refusal(card, seat)
        if refusal is not None:
            raise refusal
        turn = self._next
        trick = self.tricks[-1]
        index = len(self.tricks) - 1
        revoke: Revoke | None = None
        if trick.cards:
            led = trick.cards[0][1].suit
            if card.suit is not led:
                if self._fails_to_follow(turn, card, led):
                    revoke = Revoke(turn, index, led, card, detected_at_trick=index)  # Law 61A
                self._shown_out[turn].setdefault(led, index)
        else:
            self._leads_by[turn] += 1
        if revoke is None and self._shown_out[turn]:
            revoke = self._evidence_of_revoke(turn, card, index)
        trick.cards.append((turn, card))
        self._played[card] = turn
        hand = self._hands.get(turn)
        if hand is not None:
            hand.discard(card)
            self._suit_counts[turn][card.index // 13] -= 1
        if revoke is not None and not any(r.seat is revoke.seat and r.trick == revoke.trick
                                           for r in self.revokes):
            self.revokes.append(revoke)
        if self.revokes:
            self._establish_revokes(turn, index)
        winner: Seat | None = None
        if len(trick.cards) == 4:
            winner = trick.won_by = trick.winner(self._trump)
            self._completed += 1
            self._next = winner
            if len(self.tricks) < 13:
                self.tricks.append(Trick(winner))  # Law 44G: the winner leads next
        else:
            self._next = turn.next()
        return PlayedCard(turn, card, index, winner, revoke)

    def _evidence_of_revoke(self, seat: Seat, card: Card, index: int) -> Revoke | None:
        """With the hand unknown, a card of a suit the player showed out of earlier proves
        a revoke on that earlier trick (Law 61)."""
        earlier = self._shown_out[seat].get(card.suit)
        if earlier is None or earlier >= index:
            return None
        failed = self.tricks[earlier].card_of(seat)
        assert failed is not None
        return Revoke(seat, earlier, card.suit, failed, detected_at_trick=index)

    def _establish_revokes(self, seat: Seat, index: int) -> None:
        # Law 63A1: established when the offender or partner plays to a later trick.
        for revoke in self.revokes:
            if (not revoke.established and index > revoke.trick
                    and seat.side is revoke.seat.side):
                revoke.established = True

    # -- claims and concessions --------------------------------------------------------

    @property
    def tricks_left(self) -> int:
        return 13 - self._completed

    def make_claim(self, seat: Seat, tricks: int) -> Claim:
        """Law 68A/B: ``seat`` claims ``tricks`` of the remaining tricks for its side and
        concedes the rest."""
        if self.is_over:
            raise IllegalClaimError("the play is over", "68")
        if seat is self.dummy:
            raise IllegalClaimError("dummy may not claim or concede", "43A1(c)")
        if self.claim is not None and self.claim.state is not ClaimState.DISPUTED:
            raise IllegalClaimError("a claim is already waiting for the opponents", "68")
        if not 0 <= tricks <= self.tricks_left:
            raise IllegalClaimError(
                f"a claim of {tricks} tricks with {self.tricks_left} left", "68")
        self.claim = Claim(seat, tricks, self._completed)
        self._establish_by_claim(seat.side)  # Law 63A3: the offending side claims or concedes
        return self.claim

    def _establish_by_claim(self, side: Side) -> None:
        for revoke in self.revokes:
            if revoke.seat.side is side:
                revoke.established = True

    def respond_to_claim(self, seat: Seat, agree: bool) -> Claim:
        """Law 69A: agreement by the opponents ends the play. Any other player may object
        (dummy too, Law 68D): play stops and the director decides (Law 70) - except that a
        defender's concession to which partner objects at once stands void and play goes
        on (Law 68B2)."""
        claim = self.claim
        if claim is None or claim.state is not ClaimState.PENDING:
            raise IllegalClaimError("there is no claim waiting for an answer", "69")
        if seat is claim.seat:
            raise IllegalClaimError(f"{seat} made the claim", "69A")
        needed = claim.needs(self.declarer)
        if not agree:
            if claim.seat.side is not self.declarer.side and seat is claim.seat.partner:
                self.claim = None  # Law 68B2: no claim and no concession
                return claim
            claim.state = ClaimState.DISPUTED
            return claim
        if seat not in needed:
            raise IllegalClaimError(f"{seat} is not asked to agree to this claim", "69A")
        claim.agreed_by.add(seat)
        if claim.agreed_by >= needed:
            self._agree(claim)
        return claim

    def _agree(self, claim: Claim) -> None:
        claim.state = ClaimState.AGREED
        # Law 63A4 (2017): the offending side agrees to the opponents' claim or concession.
        self._establish_by_claim(claim.seat.side.other)

    def rule_on_claim(self, tricks_for_claimer: int | None) -> None:
        """Law 70: the director settles a disputed claim with a number of tricks for the
        claimer's side, or (None) has the play continue."""
        claim = self.claim
        if claim is None or claim.state is not ClaimState.DISPUTED:
            raise IllegalClaimError("there is no disputed claim", "70")
        if tricks_for_claimer is None:
            self.claim = None
            return
        if not 0 <= tricks_for_claimer <= self.tricks_left:
            raise IllegalClaimError(f"{tricks_for_claimer} tricks with {self.tricks_left} left",
                                    "70")
        claim.tricks = tricks_for_claimer
        self._agree(claim)

    # -- the result --------------------------------------------------------------------

    def _claimed_by(self, side: Side) -> int:
        """Tricks an agreed claim or concession gives ``side`` of those not played."""
        claim = self.claim
        if claim is None or claim.state is not ClaimState.AGREED:
            return 0
        return claim.tricks if claim.seat.side is side else self.tricks_left - claim.tricks

    def revoke_transfer(self) -> int:
        """Law 64A: tricks transferred to the non-offending side, from declarer's view
        (positive: declarer gains; negative: declarer loses)."""
        tricks = self.completed_tricks
        established_sides = {r.seat.side for r in self.revokes if r.established}
        if len(established_sides) == 2:
            return 0  # Law 64B7: both sides revoked; the director restores equity (64C)
        total = 0
        for side in Side:
            transfer = 0
            cap: int | None = None
            counted: set[tuple[Seat, Suit]] = set()
            for revoke in sorted(self.revokes, key=lambda r: r.trick):
                if revoke.seat.side is not side or not revoke.established:
                    continue
                if (revoke.seat, revoke.suit) in counted:
                    continue  # Law 64B2: a later revoke in the same suit by the same player
                counted.add((revoke.seat, revoke.suit))
                if revoke.seat is self.dummy:
                    continue  # Law 64B3: a failure to play a card faced on the table
                if revoke.trick >= 11:
                    continue  # Law 64B6, 62D: a revoke on trick twelve is corrected instead
                revoke_trick = tricks[revoke.trick] if revoke.trick < len(tricks) else None
                winner = revoke_trick.won_by if revoke_trick is not None else None
                won_later = (sum(1 for t in tricks[revoke.trick + 1:]
                                 if t.won_by is not None and t.won_by.side is side)
                             + self._claimed_by(side))
                if winner is revoke.seat:
                    transfer += 1 + (1 if won_later else 0)  # Law 64A1
                elif (winner is not None and winner.side is side) or won_later:
                    transfer += 1  # Law 64A2
                if cap is None:
                    # Only tricks the offending side won from the revoke trick on can move.
                    cap = won_later + (1 if winner is not None and winner.side is side else 0)
            if cap is not None:
                transfer = min(transfer, cap)
            total += -transfer if side is self.declarer.side else transfer
        return total

    def declarer_tricks(self) -> int:
        """Declarer's tricks at the end: tricks won, plus an agreed claim's or concession's,
        plus the revoke adjustment of Law 64."""
        if not self.is_over:
            raise RulesError("the play is not over: no final count of tricks yet")
        won = self.tricks_won(self.declarer.side) + self._claimed_by(self.declarer.side)
        return max(0, min(13, won + self.revoke_transfer()))
