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
from .errors import (
    IllegalCardError,
    IllegalClaimError,
    LeadRestrictionError,
    PenaltyCardError,
    RulesError,
)
from .penalty import (
    LEAD_OPTIONS,
    FacedLead,
    LeadOption,
    PenaltyCard,
    PenaltyLeadOption,
    PlayRestriction,
    PrematureOption,
    Unverified,
    is_honour,
)


@dataclass(frozen=True, slots=True)
class LeadRestriction:
    """Law 26: at the offender's partner's first turn to lead, declarer requires or forbids a
    suit; a prohibition lasts for as long as that player retains the lead. With ``trick``
    (0-based, Law 50D2(a)) it starts at that trick's lead rather than the first."""

    seat: Seat
    suit: Suit
    required: bool
    law: str = "26"
    trick: int | None = None


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
    # Law 61A: "61" a failure to follow suit; "57A", "26", "50D2" a failure to comply, when
    # able, with that rectification's option (found later with an unknown hand).
    law: str = "61"


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
        self.penalty_cards: list[PenaltyCard] = []  # Law 50A: face up until played
        self.faced_lead: FacedLead | None = None    # Laws 54-56: waiting for an option
        self._penalty_lead_chosen: int | None = None  # the trick declarer chose for (50D2)
        # Law 57A: (offender's partner, trick) waiting for declarer's option, and the options
        # chosen; Law 51A: (cards played, card) the penalty card declarer designated.
        self.premature: tuple[Seat, int] | None = None
        self.play_restrictions: list[PlayRestriction] = []
        self._designated: tuple[int, Card] | None = None
        self._retracted: int | None = None  # Law 55B: the trick declarer's lead went back on
        # Law 52B: a defender's card played where a penalty card had to be, waiting for
        # declarer to accept it (52B1) or not (52B2): (seat, card, the penalty card due);
        # and (cards played, seat) once declarer has accepted it.
        self.breach: tuple[Seat, Card, Card] | None = None
        self._waived: tuple[int, Seat] | None = None
        # Laws 57A, 26, 50D2 with a hand the table does not know: cards that complied or were
        # the Law 59 exception, until the hand's later cards tell (Law 61A).
        self.unverified: list[Unverified] = []

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

    def _restrictions_for(self, seat: Seat) -> list[LeadRestriction]:
        return [r for r in self.lead_restrictions if r.seat is seat]

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
                return IllegalCardError("play_stopped_disputed_claim", "68D")
            if claim is not None and claim.state is ClaimState.PENDING:
                return IllegalCardError("play_stopped_claim", "68D")
            return IllegalCardError("play_over_all_tricks", "44")
        if card in self._played:
            return IllegalCardError("card_played_already", "45A", card=str(card))
        faced = self.faced_lead
        if faced is not None:
            return IllegalCardError("lead_waits_for_option", faced.law, seat=str(faced.seat))
        if self.breach is not None:
            return IllegalCardError("breach_waits_for_option", "52B", seat=str(self.breach[0]),
                                    card=str(self.breach[1]))
        owner = self._owners.get(card)
        if seat is None:
            seat = owner if owner is not None else turn
        if owner is None and seat in self._hands:
            # Law 45A: a known hand plays only its own cards.
            return IllegalCardError("card_not_in_hand", "45A", card=str(card), seat=str(seat))
        if owner is not None and owner is not seat:
            return IllegalCardError("card_in_other_hand", "45A", card=str(card),
                                    owner=str(owner), seat=str(seat))
        trick = self.tricks[-1]
        if seat is not turn:
            if not trick.cards:
                return IllegalCardError("lead_out_of_turn", self._lead_out_of_turn_law(seat),
                                        seat=str(seat), turn=str(turn))
            return IllegalCardError("play_out_of_turn", "57", seat=str(seat), turn=str(turn))
        if not trick.cards and self.penalty_lead_pending is seat:
            return IllegalCardError("lead_before_penalty_option", "50D2", seat=str(seat))
        premature = self.premature
        if premature is not None and premature == (seat, len(self.tricks) - 1):
            # Law 57A (60C: the offending side's play does not take declarer's option away).
            return IllegalCardError("play_before_premature_option", "57A", seat=str(seat))
        if self.penalty_choice_pending is seat:
            return IllegalCardError("play_designated_penalty", "51A", seat=str(seat))
        hand = self._hands.get(seat)
        if hand is None and self.lead_restrictions and not trick.cards:
            refused = self._unknown_lead_refusal(seat, card)
            if refused is not None:
                return refused
        if hand is not None and self.lead_restrictions and not trick.cards:
            refused = self._known_lead_refusal(seat, card, hand)
            if refused is not None:
                return refused
        if (trick.cards and hand is not None and not self.accept_revokes
                and self._fails_to_follow(seat, card, trick.cards[0][1].suit)):
            led = trick.cards[0][1].suit
            return IllegalCardError("must_follow_suit", "44C", seat=str(seat), suit=led.name)
        if self.play_restrictions and trick.cards:
            for bound in self.play_restrictions:
                if bound.seat is seat and bound.trick == len(self.tricks) - 1:
                    refused = self._play_restriction_refusal(bound, card, trick)
                    if refused is not None:
                        return refused
        if self.penalty_cards:
            return self._penalty_refusal(seat, card, trick)
        return None

    def _known_lead_refusal(self, seat: Seat, card: Card,
                            hand: set[Card]) -> LeadRestrictionError | None:
        """Laws 26, 50D2(a): a lead the restriction on ``seat`` forbids, the hand known."""
        for restriction in self._restrictions_for(seat):
            if not self._restriction_applies(restriction):
                continue
            suit = restriction.suit
            if (restriction.required and card.suit is not suit
                    and any(c.suit is suit for c in hand)):
                return LeadRestrictionError("must_lead_suit", restriction.law, suit, True,
                                            seat=str(seat), suit=suit.name)
            if (not restriction.required and card.suit is suit
                    and any(c.suit is not suit for c in hand)):
                return LeadRestrictionError("may_not_lead_suit", restriction.law, suit, False,
                                            seat=str(seat), suit=suit.name)
        return None

    def _play_restriction_refusal(self, restriction: PlayRestriction, card: Card,
                                  trick: Trick) -> IllegalCardError | None:
        """Law 57A as declarer chose it; Law 59: a player who cannot comply (no card of the
        suit led for 57A1-2; obliged to follow suit, or none of the named suit, for 57A3;
        only cards of the forbidden suit for 57A4) plays any otherwise legal card. An
        unknown hand is checked against what the table has seen of it."""
        seat = restriction.seat
        hand = self._hands.get(seat)
        led = trick.led_suit
        if led is None:
            return None
        if hand is None:
            return self._unknown_play_refusal(restriction, card, led)
        of_led = sorted((c for c in hand if c.suit is led), key=lambda c: c.index)
        option = restriction.option
        if option in (PrematureOption.HIGHEST, PrematureOption.LOWEST):
            if not of_led:
                return None  # Law 59
            wanted = of_led[-1] if option is PrematureOption.HIGHEST else of_led[0]
            if card != wanted:
                highest = option is PrematureOption.HIGHEST
                return IllegalCardError("must_play_highest" if highest else "must_play_lowest",
                                        "57A", seat=str(seat),
                                        suit=led.name, wanted=str(wanted))
            return None
        named = restriction.suit
        if of_led or named is None:
            return None  # Law 59: obliged to follow suit
        holds = any(c.suit is named for c in hand)
        if option is PrematureOption.REQUIRE and holds and card.suit is not named:
            return IllegalCardError("must_play_suit", "57A", seat=str(seat), suit=named.name)
        if (option is PrematureOption.FORBID and card.suit is named
                and any(c.suit is not named for c in hand)):
            return IllegalCardError("may_not_play_suit", "57A", seat=str(seat),
                                    suit=named.name)
        return None

    # -- restrictions on a hand the table does not know (Laws 57A, 59, 61A) ------------------

    def _seen_in_hand(self, seat: Seat) -> list[Card]:
        """The cards of an unknown hand the table has seen and that are still in it: its
        penalty cards (Law 50A: face up on the table until played)."""
        return [p.card for p in self.penalty_cards if p.seat is seat]

    def _shown_out_of(self, seat: Seat, suit: Suit) -> bool:
        """``seat`` has failed to follow to ``suit`` before: Law 59, it cannot be asked to
        play one (a revoke, if it was one, is the revoke's to settle, Law 61)."""
        return suit in self._shown_out[seat]

    def _unknown_play_refusal(self, restriction: PlayRestriction, card: Card,
                              led: Suit) -> IllegalCardError | None:
        """Law 57A with the hand unknown: refuse only what the cards seen prove: a card seen
        in the hand (a penalty card) that the option requires instead of ``card``."""
        seat = restriction.seat
        seen = self._seen_in_hand(seat)
        of_led = [c for c in seen if c.suit is led]
        option = restriction.option
        if option in (PrematureOption.HIGHEST, PrematureOption.LOWEST):
            if self._shown_out_of(seat, led):
                return None  # Law 59: no card of the suit led
            if card.suit is not led and of_led:
                return IllegalCardError("holds_must_follow_suit", "44C", seat=str(seat),
                                        held=str(of_led[0]), suit=led.name)
            higher = option is PrematureOption.HIGHEST
            beaten = [c for c in of_led if (c.index > card.index) is higher and c != card]
            if card.suit is led and beaten:
                return IllegalCardError("holds_not_highest" if higher else "holds_not_lowest",
                                        "57A", seat=str(seat), held=str(beaten[0]),
                                        card=str(card), suit=led.name)
            return None
        named = restriction.suit
        if named is None or card.suit is led or of_led:
            return None  # Law 59: obliged to follow suit (44C refuses a discard then)
        if option is PrematureOption.REQUIRE and card.suit is not named:
            named_seen = [c for c in seen if c.suit is named]
            if named_seen:
                return IllegalCardError("holds_must_play_suit", "57A", seat=str(seat),
                                        held=str(named_seen[0]), suit=named.name)
        if option is PrematureOption.FORBID and card.suit is named:
            other = [c for c in seen if c.suit is not named]
            if other:
                return IllegalCardError("holds_may_not_play_suit", "57A", seat=str(seat),
                                        held=str(other[0]), suit=named.name)
        return None

    def _unknown_lead_refusal(self, seat: Seat, card: Card) -> IllegalCardError | None:
        """A lead restriction (Laws 26, 50D2) on a hand the table does not know: refuse what
        the cards seen in it prove it could have done instead (Law 59 otherwise)."""
        seen = self._seen_in_hand(seat)
        for restriction in self._restrictions_for(seat):
            if not self._restriction_applies(restriction):
                continue
            suit = restriction.suit
            if restriction.required and card.suit is not suit:
                held = [c for c in seen if c.suit is suit]
                if held:
                    return LeadRestrictionError("holds_must_lead_suit", restriction.law, suit,
                                                True, seat=str(seat), held=str(held[0]),
                                                suit=suit.name)
            if not restriction.required and card.suit is suit:
                held = [c for c in seen if c.suit is not suit]
                if held:
                    return LeadRestrictionError("holds_may_not_lead_suit", restriction.law, suit,
                                                False, seat=str(seat), held=str(held[0]),
                                                suit=suit.name)
        return None

    def _unverified_by(self, seat: Seat, card: Card, trick: Trick,
                       index: int) -> list[Unverified]:
        """What ``card``, about to be played by ``seat`` with its hand unknown, leaves to be
        verified by the hand's later cards (Laws 57A, 26, 50D2; Law 59 the exception)."""
        found: list[Unverified] = []
        led = trick.led_suit
        if led is None:
            for restriction in self._restrictions_for(seat):
                if not self._restriction_applies(restriction):
                    continue
                suit = restriction.suit
                if restriction.required and card.suit is not suit \
                        and not self._shown_out_of(seat, suit):
                    found.append(Unverified(seat, index, card, suit, "suit", restriction.law))
                elif not restriction.required and card.suit is suit:
                    found.append(Unverified(seat, index, card, suit, "other", restriction.law))
            return found
        for bound in self.play_restrictions:
            if bound.seat is not seat or bound.trick != index:
                continue
            option = bound.option
            if option in (PrematureOption.HIGHEST, PrematureOption.LOWEST):
                if card.suit is led:
                    proof = "higher" if option is PrematureOption.HIGHEST else "lower"
                    found.append(Unverified(seat, index, card, led, proof, "57A"))
                continue
            named = bound.suit
            if named is None or card.suit is led:
                continue
            if option is PrematureOption.REQUIRE and card.suit is not named \
                    and not self._shown_out_of(seat, named):
                found.append(Unverified(seat, index, card, named, "suit", "57A"))
            elif option is PrematureOption.FORBID and card.suit is named:
                found.append(Unverified(seat, index, card, named, "other", "57A"))
        return found

    def _breach_proven(self, seat: Seat, card: Card, index: int) -> Revoke | None:
        """Law 61A: a later card of a hand proves it could have complied with the restriction
        it played under: a revoke on that trick (63 and 64 then apply as to any)."""
        for pending in self.unverified:
            if pending.seat is seat and pending.trick < index and pending.proven_by(card):
                self.unverified.remove(pending)
                return Revoke(seat, pending.trick, pending.suit, pending.card,
                              detected_at_trick=index, law=pending.law)
        return None

    def _penalty_refusal(self, seat: Seat, card: Card, trick: Trick) -> PenaltyCardError | None:
        own = [p for p in self.penalty_cards if p.seat is seat]
        if self._waived == (len(self._played), seat):
            return None  # Law 52B1: declarer accepted this card in the penalty card's place
        designated = self._designated
        if (designated is not None and designated[0] == len(self._played)
                and any(p.card == designated[1] for p in own) and card != designated[1]):
            # Law 51A: the penalty card declarer designated is the one played at this turn.
            return PenaltyCardError("must_play_penalty_card", "51A", designated[1],
                                    seat=str(seat), due=str(designated[1]))
        if not own or any(p.card == card for p in own):
            return None
        led = trick.led_suit
        for penalty in own:
            if penalty.major and self._can_play_now(seat, penalty.card, led, card):
                # Law 50D1: at the first legal opportunity, leading, following, discarding
                # or trumping; Law 52B: another card is declarer's to accept or not.
                return PenaltyCardError("must_play_penalty_card", "50D1", penalty.card,
                                        seat=str(seat), due=str(penalty.card))
        for penalty in own:
            if (not penalty.major and card.suit is penalty.card.suit
                    and not is_honour(card)):
                # Law 50C: no lower card of the suit before the minor penalty card (an
                # honour may be played instead).
                return PenaltyCardError("penalty_card_before_lower", "50C", penalty.card,
                                        seat=str(seat), due=str(penalty.card),
                                        suit=card.suit.name)
        return None

    def _can_play_now(self, seat: Seat, penalty: Card, led: Suit | None, offered: Card) -> bool:
        """Law 50D1: the penalty card can be played to this trick: a lead, the suit led,
        or a discard or ruff (the hand holds no card of the suit led, or, unknown, the card
        offered shows it). A lead a restriction forbids is not a legal opportunity (Laws
        26, 50D2(a) come first)."""
        if not self._restrictions_allow(seat, penalty):
            return False
        if led is None or penalty.suit is led:
            return True
        counts = self._suit_counts.get(seat)
        if counts is not None:
            return counts[led._value_] == 0
        return offered.suit is not led

    def _restrictions_allow(self, seat: Seat, card: Card) -> bool:
        """A rectification's restriction on this lead or play (Laws 26, 50D2(a), 57A)
        allows ``card``: one it forbids is no legal opportunity for a penalty card."""
        trick = self.current
        if not trick.cards:
            hand = self._hands.get(seat)
            return (hand is None or not self.lead_restrictions
                    or self._known_lead_refusal(seat, card, hand) is None)
        index = len(self.tricks) - 1
        return not any(bound.seat is seat and bound.trick == index
                       and self._play_restriction_refusal(bound, card, trick)
                       for bound in self.play_restrictions)

    def _fails_to_follow(self, seat: Seat, card: Card, led: Suit) -> bool:
        """Law 44C: a card of another suit while the (known) hand holds the suit led."""
        counts = self._suit_counts.get(seat)
        return card.suit is not led and counts is not None and counts[led._value_] > 0

    def _lead_out_of_turn_law(self, seat: Seat) -> str:
        if (self._retracted == len(self.tricks) - 1 and not self.current.cards
                and seat.side is not self.declarer.side):
            return "60B"  # a defender plays before declarer leads from the right hand
        if self._completed == 0:
            return "54"  # the opening lead faced out of turn
        if seat.side is self.declarer.side:
            return "55"  # declarer leads from the wrong hand
        return "56"  # a defender leads out of turn

    def _restriction_applies(self, restriction: LeadRestriction) -> bool:
        # Law 26A2(a)/26B: the first turn to lead; a prohibition goes on while that player
        # keeps the lead, that is for as long as every lead since the first has been theirs.
        seat = restriction.seat
        if restriction.trick is not None:
            # Law 50D2(a): from the lead declarer chose for, while that player keeps it.
            index = len(self.tricks) - 1
            if index < restriction.trick:
                return False
            if restriction.required:
                return index == restriction.trick
            return all(t.leader is seat for t in self.tricks[restriction.trick:])
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
        breach: Revoke | None = None
        if turn not in self._hands:
            # Laws 57A, 59, 61A: what the hand's cards so far leave open, before this card
            # changes the count of leads the restrictions go by.
            if self.unverified:
                breach = self._breach_proven(turn, card, index)
            if self.play_restrictions or self.lead_restrictions:
                self.unverified.extend(self._unverified_by(turn, card, trick, index))
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
        if breach is not None and revoke is None:
            revoke = breach
        trick.cards.append((turn, card))
        self._played[card] = turn
        if self.penalty_cards:
            # Law 50A: a penalty card stays face up until played.
            self.penalty_cards = [p for p in self.penalty_cards if p.card != card]
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

    # -- cards seen out of turn: penalty cards (Laws 49-52), leads (Laws 53-56) ---------

    def penalty_cards_of(self, seat: Seat) -> list[PenaltyCard]:
        return [p for p in self.penalty_cards if p.seat is seat]

    @property
    def penalty_lead_pending(self) -> Seat | None:
        """Law 50D2: the defender to lead while partner has a major penalty card, until
        declarer has chosen (once for each lead)."""
        turn = self.turn
        if (turn is None or self.faced_lead is not None or self.breach is not None
                or self.current.cards or turn.side is self.declarer.side
                or self._penalty_lead_chosen == len(self.tricks) - 1):
            return None
        if any(p.major for p in self.penalty_cards_of(turn.partner)):
            return turn
        return None

    def penalty_choices(self, seat: Seat) -> list[PenaltyCard]:
        """Law 51A: ``seat``'s penalty cards that can legally be played now, when one of them
        is major (so one must be played, 50D1); with two or more declarer designates."""
        led = self.current.led_suit
        counts = self._suit_counts.get(seat)
        playable = [p for p in self.penalty_cards_of(seat)
                    if (led is None or p.card.suit is led
                        or (counts is not None and counts[led._value_] == 0))
                    and self._restrictions_allow(seat, p.card)]
        return playable if any(p.major for p in playable) else []

    @property
    def penalty_choice_pending(self) -> Seat | None:
        """Law 51A: the defender on turn with two or more penalty cards that can be played,
        until declarer designates one."""
        turn = self.turn
        if (turn is None or self.faced_lead is not None or self.premature is not None
                or self.breach is not None or turn.side is self.declarer.side
                or self.penalty_lead_pending is not None):
            return None
        designated = self._designated
        if designated is not None and designated[0] == len(self._played):
            return None
        return turn if len(self.penalty_choices(turn)) >= 2 else None

    def designate_penalty_card(self, card: Card) -> PenaltyCard:
        """Law 51A: declarer designates which of the defender's penalty cards is played."""
        seat = self.penalty_choice_pending
        if seat is None:
            raise IllegalCardError("no_penalty_choice", "51A")
        for penalty in self.penalty_choices(seat):
            if penalty.card == card:
                self._designated = (len(self._played), card)
                return penalty
        raise IllegalCardError("not_a_penalty_card_now", "51A", card=str(card), seat=str(seat))

    def choose_premature_option(self, option: PrematureOption,
                                suit: Suit | None = None) -> PlayRestriction:
        """Law 57A: declarer's option for the partner of the defender who played too soon."""
        pending = self.premature
        if pending is None:
            raise IllegalCardError("no_premature_option", "57A")
        seat, index = pending
        led = self.tricks[index].led_suit
        if option in (PrematureOption.REQUIRE, PrematureOption.FORBID):
            if suit is None:
                raise IllegalCardError("name_the_suit", "57A")
            if suit is led:
                raise IllegalCardError("another_suit_than_led", "57A")
        else:
            suit = None
        restriction = PlayRestriction(seat, index, option, suit)
        self.play_restrictions.append(restriction)
        self.premature = None
        return restriction

    def _check_card_of(self, seat: Seat, card: Card, law: str) -> None:
        if self.is_over:
            raise IllegalCardError("play_over", "44")
        if card in self._played:
            raise IllegalCardError("card_played_already", law, card=str(card))
        owner = self._owners.get(card)
        if (owner is not None and owner is not seat) or (owner is None and seat in self._hands):
            raise IllegalCardError("card_not_in_hand", "45A", card=str(card), seat=str(seat))

    def expose(self, seat: Seat, card: Card, major: bool | None = None,
               law: str = "50") -> PenaltyCard:
        """Law 49: a defender's card exposed (dropped face up, played out of turn, named)
        becomes a penalty card; Law 50B: major if ``major`` says so, or by default if it is
        an honour, minor otherwise (a card below an honour exposed inadvertently)."""
        if seat.side is self.declarer.side:
            # Law 48A: declarer (and dummy) exposing a card is not rectified.
            raise IllegalCardError("not_a_defender", "48A", seat=str(seat))
        self._check_card_of(seat, card, "49")
        if any(p.card == card for p in self.penalty_cards):
            raise IllegalCardError("penalty_card_already", "50A", card=str(card))
        penalty = PenaltyCard(seat, card, is_honour(card) if major is None else major, law)
        self.penalty_cards.append(penalty)
        trick = self.current
        if (law == "57A" and trick.cards and not trick.is_complete
                and trick.card_of(seat.partner) is None):
            # Law 57A: partner has still to play to this trick: declarer chooses how.
            self.premature = (seat.partner, len(self.tricks) - 1)
        return penalty

    def pick_up(self, card: Card) -> PenaltyCard:
        """The director lets a penalty card go back to the hand (Law 50 preamble: the
        director may designate otherwise)."""
        for penalty in self.penalty_cards:
            if penalty.card == card:
                self.penalty_cards.remove(penalty)
                return penalty
        raise IllegalCardError("not_a_penalty_card", "50", card=str(card))

    def breach_penalty(self, seat: Seat, card: Card) -> tuple[Seat, Card, Card]:
        """Law 52B: ``seat`` has led or played ``card`` where the law requires a penalty
        card (50C, 50D1, 51A); the card was seen, and the play waits for declarer to accept
        it or not (:meth:`choose_breach_option`)."""
        refused = self._refusal(card, seat)
        if not isinstance(refused, PenaltyCardError):
            raise IllegalCardError("not_in_place_of_penalty", "52B", card=str(card))
        self.breach = (seat, card, refused.card)
        return self.breach

    def choose_breach_option(self, accept: bool) -> tuple[Seat, Card]:
        """Law 52B1: declarer accepts the card played in the penalty card's place: it is
        played, and the penalty card stays one. Law 52B2: declarer does not: the card played
        becomes a major penalty card, and the penalty card due is played in its place. The
        card to play now is returned."""
        breach = self.breach
        if breach is None:
            raise IllegalCardError("no_breach_waits", "52B")
        seat, card, due = breach
        self.breach = None
        if accept:
            self._waived = (len(self._played), seat)
            return seat, card
        self.penalty_cards.append(PenaltyCard(seat, card, True, "52B2"))
        self._designated = (len(self._played), due)
        return seat, due

    def choose_penalty_lead(self, option: PenaltyLeadOption,
                            suit: Suit | None = None) -> LeadRestriction | None:
        """Law 50D2: declarer requires or forbids the suit of partner's major penalty card
        (a); the penalty cards of that suit are picked up. Or (b) leaves the lead free and
        the penalty card stays."""
        leader = self.penalty_lead_pending
        if leader is None:
            raise IllegalCardError("no_leader_with_penalty", "50D2")
        majors = [p for p in self.penalty_cards_of(leader.partner) if p.major]
        index = len(self.tricks) - 1
        if option is PenaltyLeadOption.FREE:
            self._penalty_lead_chosen = index
            return None
        suits = {p.card.suit for p in majors}
        if suit is None:
            if len(suits) != 1:
                raise IllegalCardError("penalty_cards_in_two_suits", "51B2")
            suit = next(iter(suits))
        if suit not in suits:
            raise IllegalCardError("no_major_penalty_in_suit", "50D2",
                                   partner=str(leader.partner), suit=suit.name)
        # Law 50D2(a), 51B: every penalty card of the suit goes back to the hand.
        self.penalty_cards = [p for p in self.penalty_cards
                              if not (p.seat is leader.partner and p.card.suit is suit)]
        restriction = LeadRestriction(leader, suit, option is PenaltyLeadOption.REQUIRE,
                                      "50D2", index)
        self.lead_restrictions.append(restriction)
        self._penalty_lead_chosen = index
        return restriction

    def face_lead(self, seat: Seat, card: Card) -> FacedLead:
        """A lead faced out of turn (Laws 54, 55, 56): the card is kept, known to all, and
        the play waits for :meth:`choose_lead_option`."""
        turn = self.turn
        if turn is None or self.current.cards or seat is turn:
            raise IllegalCardError("not_a_lead_out_of_turn", "53", seat=str(seat))
        if self.faced_lead is not None:
            raise IllegalCardError("lead_out_of_turn_waits", "53")
        if self._completed == 0 and seat.side is self.declarer.side:
            # Declarer's side faces the opening lead: not a lead out of turn of 54-56; the
            # director rules (Law 24 before the auction closes, 48 after).
            raise IllegalCardError("declarer_side_lead", "54", seat=str(seat))
        self._check_card_of(seat, card, "45A")
        self.faced_lead = FacedLead(seat, card, self._lead_out_of_turn_law(seat),
                                    len(self.tricks) - 1)
        return self.faced_lead

    def lead_choosers(self) -> frozenset[Seat]:
        """Who chooses what happens to the faced lead: declarer when a defender led (Laws
        53, 54, 56; dummy has no say, 43A), either defender when declarer did (55A)."""
        faced = self.faced_lead
        if faced is None:
            return frozenset()
        if faced.seat.side is self.declarer.side:
            return frozenset((self.declarer.lho, self.declarer.rho))
        return frozenset((self.declarer,))

    def choose_lead_option(self, option: LeadOption) -> FacedLead:
        """Apply the non-offending side's choice on the faced lead: accept it (53A, 54B,
        55A: the card then is played by the caller, and the next hand plays second), make
        declarer dummy (54A: partner declares; the lead is then from the right hand), or
        refuse it (54D, 56: a major penalty card; 55B: back to declarer's hand)."""
        faced = self.faced_lead
        if faced is None:
            raise IllegalCardError("no_lead_out_of_turn", "53")
        if option not in LEAD_OPTIONS[faced.law]:
            raise IllegalCardError("option_not_given", faced.law, rule=faced.law,
                                   option=option.value)
        self.faced_lead = None
        trick = self.current
        if option is LeadOption.BECOME_DUMMY:
            self.declarer = self.declarer.partner  # Law 54A: the offender is now on lead
        if option in (LeadOption.ACCEPT, LeadOption.BECOME_DUMMY):
            trick.leader = faced.seat
            self._next = faced.seat
        elif faced.seat.side is not self.declarer.side:
            self.penalty_cards.append(PenaltyCard(faced.seat, faced.card, True, "56"))
        else:
            self._retracted = len(self.tricks) - 1  # Law 55B; Law 60B for a defender's card
        return faced

    # -- claims and concessions --------------------------------------------------------

    @property
    def tricks_left(self) -> int:
        return 13 - self._completed

    def make_claim(self, seat: Seat, tricks: int) -> Claim:
        """Law 68A/B: ``seat`` claims ``tricks`` of the remaining tricks for its side and
        concedes the rest."""
        if self.is_over:
            raise IllegalClaimError("claim_play_over", "68")
        if seat is self.dummy:
            raise IllegalClaimError("dummy_may_not_claim", "43A1(c)")
        if self.claim is not None and self.claim.state is not ClaimState.DISPUTED:
            raise IllegalClaimError("claim_waiting", "68")
        if not 0 <= tricks <= self.tricks_left:
            raise IllegalClaimError("claim_tricks_out_of_range", "68", tricks=tricks,
                                    left=self.tricks_left)
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
            raise IllegalClaimError("no_claim_waiting", "69")
        if seat is claim.seat:
            raise IllegalClaimError("claimer_answers", "69A", seat=str(seat))
        needed = claim.needs(self.declarer)
        if not agree:
            if claim.seat.side is not self.declarer.side and seat is claim.seat.partner:
                self.claim = None  # Law 68B2: no claim and no concession
                return claim
            claim.state = ClaimState.DISPUTED
            return claim
        if seat not in needed:
            raise IllegalClaimError("not_asked_to_agree", "69A", seat=str(seat))
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
            raise IllegalClaimError("no_disputed_claim", "70")
        if tricks_for_claimer is None:
            self.claim = None
            return
        if not 0 <= tricks_for_claimer <= self.tricks_left:
            raise IllegalClaimError("ruled_tricks_out_of_range", "70", tricks=tricks_for_claimer,
                                    left=self.tricks_left)
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

    def tricks_in_play(self) -> int:
        """Declarer's tricks won in the play, with an agreed claim's or concession's, before
        any revoke transfer (Law 64A)."""
        if not self.is_over:
            raise RulesError("play_not_over")
        return self.tricks_won(self.declarer.side) + self._claimed_by(self.declarer.side)

    def declarer_tricks(self, transfer: int | None = None) -> int:
        """Declarer's tricks at the end: tricks won, plus an agreed claim's or concession's,
        plus the revoke adjustment of Law 64 (``transfer``: the director's, Law 64C, instead
        of the one Law 64A gives)."""
        if transfer is None:
            transfer = self.revoke_transfer()
        return max(0, min(13, self.tricks_in_play() + transfer))
