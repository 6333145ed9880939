"""The errors of the laws engine: one root, then one class for each kind of wrong.

Every error is a ``ValueError`` so callers that only care that input was bad can catch that;
the ones that refuse an action under the Laws carry the number of the law that forbids it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .cards import Card, Suit


class RulesError(ValueError):
    """Root of every error the laws engine raises."""


class InvalidNotationError(RulesError):
    """Text that does not parse as the thing asked for (a card, a call, a contract, a deal)."""


class InvalidCardError(InvalidNotationError):
    """Text that is not a card."""


class InvalidCallError(InvalidNotationError):
    """Text that is not a call."""


class InvalidDealError(InvalidNotationError):
    """A deal that is malformed: a card twice, a hand of the wrong size, bad PBN."""


class IllegalActionError(RulesError):
    """An action the Laws do not allow in this position; ``law`` names the law (e.g. "27")."""

    def __init__(self, message: str, law: str) -> None:
        super().__init__(f"{message} (Law {law})")
        self.reason = message
        self.law = law


class IllegalCallError(IllegalActionError):
    """A call refused by the auction: insufficient, out of turn, inadmissible..."""


class IllegalCardError(IllegalActionError):
    """A card refused by the play: out of turn, from the wrong hand, not following suit..."""


class LeadRestrictionError(IllegalCardError):
    """A lead that breaks a restriction on the leader (Laws 26, 50D2(a)): ``suit`` must be
    led (``required``) or may not be."""

    def __init__(self, message: str, law: str, suit: Suit, required: bool) -> None:
        super().__init__(message, law)
        self.suit = suit
        self.required = required


class PenaltyCardError(IllegalCardError):
    """Another card where a penalty card must be played (Laws 50C, 50D1, 51A): ``card`` is
    the penalty card the law requires now."""

    def __init__(self, message: str, law: str, card: Card) -> None:
        super().__init__(message, law)
        self.card = card


class IllegalClaimError(IllegalActionError):
    """A claim or concession that cannot be made, accepted or refused here."""


class RecordError(RulesError):
    """A record (PBN, LIN) that cannot be read."""
