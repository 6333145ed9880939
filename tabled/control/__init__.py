"""From inputs to events: what a key, a scanned card or a server command means now.

The controller reads the state and never changes it. For each input it answers with the
events to append (each one checked with the laws engine first) and the notices to show; a
refused input changes nothing and tells the seat why, naming the law. The keys and what
they do in each phase are in docs/keypad.md.

Its parts, each a module:
- :mod:`.outcome`: what it answers (``Proposed`` events, ``Notice``\\s, the ``Outcome``);
- :mod:`.keys`: what each seat has typed (``SeatEntry``), numbers, calls as keys, DIR;
- :mod:`.auction`: calls, changes (Law 25A), alerts, the screens' tray;
- :mod:`.play`: cards scanned and played, claims, the result and its confirmation;
- :mod:`.questions`: questions, answers, the opponents' card, the review (Laws 20, 40B2(c));
- :mod:`.commands`: the server's commands (assignments, rulings, resend);
- :mod:`.controller`: ``Controller``, which puts them together and sends each key to the
  part its phase belongs to.

The parts are mixins of one ``Controller``, not collaborators: all of them read the same
state and the same seats' entries, and they call one another across the split (a call key
in the play goes to the auction, Law 25A3 and Law 39; a disputed claim, a late alert or a
fouled board calls the director). Collaborators would each need the others handed in; as
mixins each part is a class over the shared ``Room`` and mypy checks every call between them.
"""

from .controller import Controller
from .keys import DIGITS, SeatEntry
from .outcome import Notice, Outcome, Proposed

__all__ = ["DIGITS", "Controller", "Notice", "Outcome", "Proposed", "SeatEntry"]
