"""Cards seen when they should not be: penalty cards (Laws 49-52) and leads out of turn
(Laws 53-56), the values the play keeps for them and the options the laws give.

With physical cards a card dropped face up, or led from the wrong hand, has been seen by
everybody: the table cannot refuse it away. The play keeps it (``PenaltyCard``,
``FacedLead``) and waits for the non-offending side's choice (``LeadOption``,
``PenaltyLeadOption``); the choice is applied by :class:`laws.play.Play`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .cards import Card, Seat, Suit

#: Law 50B: the honours are the ace, king, queen, jack and ten.
HONOUR_RANK = 8  # Card.index % 13 of the ten


def is_honour(card: Card) -> bool:
    return card.index % 13 >= HONOUR_RANK


@dataclass(frozen=True, slots=True)
class PenaltyCard:
    """Law 50A: a defender's card exposed, left face up before its owner until played.
    Law 50B: ``major`` (an honour, or exposed through deliberate play) or minor (a single
    card below an honour exposed inadvertently)."""

    seat: Seat
    card: Card
    major: bool
    law: str = "50"


@dataclass(frozen=True, slots=True)
class FacedLead:
    """A lead faced out of turn (Laws 54, 55, 56): the card stays on the table, known to all,
    until the side that did not offend chooses what happens to it. ``trick`` is 0-based."""

    seat: Seat
    card: Card
    law: str
    trick: int


class LeadOption(enum.Enum):
    """What may be done with a lead faced out of turn."""

    ACCEPT = "accept"            # Law 53A (54B1 for the opening lead, 55A for declarer's)
    BECOME_DUMMY = "dummy"       # Law 54A: declarer spreads his hand and partner declares
    REFUSE = "refuse"            # Law 54D/56: a major penalty card; 55B: back to the hand


class PenaltyLeadOption(enum.Enum):
    """Law 50D2: declarer's choice when the partner of a major penalty card's owner is to
    lead."""

    REQUIRE = "require"   # 50D2(a): lead the suit; the penalty card is picked up
    FORBID = "forbid"     # 50D2(a): not the suit while the lead is kept; picked up
    FREE = "free"         # 50D2(b): any lead; the penalty card stays a penalty card


class PrematureOption(enum.Enum):
    """Law 57A: declarer's choice for the partner of a defender who led or played before
    partner had played to the trick (the card itself is a major penalty card)."""

    HIGHEST = "highest"   # 57A1: the highest card partner holds of the suit led
    LOWEST = "lowest"     # 57A2: the lowest card partner holds of the suit led
    REQUIRE = "require"   # 57A3: a card of another suit declarer names
    FORBID = "forbid"     # 57A4: not a card of another suit declarer names


@dataclass(frozen=True, slots=True)
class PlayRestriction:
    """Law 57A: how ``seat`` must play to trick ``trick`` (0-based); Law 59 lets it play
    any otherwise legal card when it cannot comply."""

    seat: Seat
    trick: int
    option: PrematureOption
    suit: Suit | None = None


@dataclass(frozen=True, slots=True)
class Unverified:
    """A card played under a restriction (Law 57A, or a lead restriction of 26 or 50D2) by a
    hand the table does not know: it may be the Law 59 exception or a failure to comply.
    A later card of the same hand proves which (the hand held it then): a card of ``suit``
    above ``card`` (``proof`` "higher", 57A1), below it ("lower", 57A2), any card of
    ``suit`` ("suit": 57A3, a lead required), or any card of another suit ("other": 57A4, a
    lead forbidden). Law 61A: failing to play, when able, a card or suit an opponent
    specified in rectification is a revoke."""

    seat: Seat
    trick: int
    card: Card
    suit: Suit
    proof: str
    law: str

    def proven_by(self, later: Card) -> bool:
        if self.proof == "higher":
            return later.suit is self.suit and later.index > self.card.index
        if self.proof == "lower":
            return later.suit is self.suit and later.index < self.card.index
        if self.proof == "suit":
            return later.suit is self.suit
        return later.suit is not self.suit  # "other"


#: The options each law of a lead out of turn gives (Laws 54-56); who chooses is
#: :meth:`laws.play.Play.lead_chooser`.
LEAD_OPTIONS: dict[str, tuple[LeadOption, ...]] = {
    "54": (LeadOption.ACCEPT, LeadOption.BECOME_DUMMY, LeadOption.REFUSE),
    "55": (LeadOption.ACCEPT, LeadOption.REFUSE),
    "56": (LeadOption.ACCEPT, LeadOption.REFUSE),
}
