"""The server's one root error.

Every error the server raises on purpose is a :class:`ServerError`; what a person or a file
asked for and the server refuses is a :class:`Refused` (also a ``ValueError``, as the callers
that predate the root catch it), whose message says why in words a director can act on. A
page, a command or a replay catches ``Refused`` and shows it; anything else is a programming
error and is not hidden as bad data.
"""

from __future__ import annotations


class ServerError(Exception):
    """The root of the server's own errors."""


class Refused(ServerError, ValueError):
    """A request, a form, a file or a stored value the server refuses; the message says why."""
