"""From inputs to events: what a key, a scanned card or a server command means now.

The controller reads the state and never changes it. For each input it answers with the
events to append (each one checked with the laws engine first) and the notices to show; a
refused input changes nothing and tells the seat why, naming the law. The keys and what
they do in each phase are in docs/keypad.md.

It is plain functions per phase over one explicit context, and a small dispatcher:
- :mod:`.context`: ``Context`` (the table's state, what each seat has typed, the keypad's
  digits, the card out of turn last read at a seat's reader) and ``director``, a call to the
  director any phase may propose;
- :mod:`.outcome`: what it answers (``Proposed`` events, ``Notice``\\s, the ``Outcome``);
- :mod:`.keys`: numbers and calls as keys, DIR, the phases where keys are only numbers;
- :mod:`.dealing`: the board chosen, the hands scanned before the auction, a fouled board;
- :mod:`.auction`: calls, changes (Law 25A), alerts, the screens' tray;
- :mod:`.play`: the keys of the play (the options after an irregularity) and each card played;
- :mod:`.claims`: claims, the result and its confirmation, what the laws add after an event;
- :mod:`.questions`: questions, answers, the opponents' card, the review (Laws 20, 40B2(c));
- :mod:`.commands`: the server's commands (assignments, rulings, roster, resend);
- :mod:`.controller`: ``Controller``, which holds the ``Context`` and hands each input to
  the function of its phase.

Every function takes the ``Context`` first, so a call from one phase into another (a call key
in the play goes to the auction, Law 25A3 and Law 39; a disputed claim, a late alert or a
fouled board calls the director) is a plain call that a reader, mypy or a tool can follow.
"""

from .context import Context, SeatEntry
from .controller import Controller
from .keys import DIGITS
from .outcome import Notice, Outcome, Proposed

__all__ = ["DIGITS", "Context", "Controller", "Notice", "Outcome", "Proposed", "SeatEntry"]
