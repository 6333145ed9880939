"""The errors of the laws engine: one root, then one class for each kind of wrong.

Every error is a ``ValueError`` so callers that only care that input was bad can catch that;
the ones that refuse an action under the Laws carry the number of the law that forbids it.
Every error carries a stable ``code`` and its ``params`` (plain values), from which the table
of messages (``messages.py``) says it in English (``str(error)``) or Spanish; the seat
displays and the director's console render it in their own language from the code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .messages import Param, text

if TYPE_CHECKING:
    from .cards import Card, Suit


class RulesError(ValueError):
    """Root of every error the laws engine raises: ``code`` names its message (messages.py),
    ``params`` fill it."""

    def __init__(self, code: str, /, **params: Param) -> None:
        self.code = code
        self.params: dict[str, Param] = dict(params)
        self.reason = text(code, params)
        super().__init__(self.reason)

    def __reduce__(self) -> tuple[Any, ...]:
        # Copied and pickled whole: the constructor takes a code, not the message.
        return _restore, (type(self), self.args, dict(self.__dict__))


def _restore(cls: type[RulesError], args: tuple[Any, ...],
             state: dict[str, Any]) -> RulesError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


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

    def __init__(self, code: str, law: str, /, **params: Param) -> None:
        super().__init__(code, **params)
        self.law = law
        self.args = (f"{self.reason} (Law {law})",)


class IllegalCallError(IllegalActionError):
    """A call refused by the auction: insufficient, out of turn, inadmissible..."""


class IllegalCardError(IllegalActionError):
    """A card refused by the play: out of turn, from the wrong hand, not following suit..."""


class LeadRestrictionError(IllegalCardError):
    """A lead that breaks a restriction on the leader (Laws 26, 50D2(a)): ``suit`` must be
    led (``required``) or may not be."""

    def __init__(self, code: str, law: str, suit: Suit, required: bool, /,
                 **params: Param) -> None:
        super().__init__(code, law, **params)
        self.suit = suit
        self.required = required


class PenaltyCardError(IllegalCardError):
    """Another card where a penalty card must be played (Laws 50C, 50D1, 51A): ``card`` is
    the penalty card the law requires now."""

    def __init__(self, code: str, law: str, card: Card, /, **params: Param) -> None:
        super().__init__(code, law, **params)
        self.card = card


class IllegalClaimError(IllegalActionError):
    """A claim or concession that cannot be made, accepted or refused here."""


class RecordError(RulesError):
    """A record (PBN, LIN) that cannot be read."""
