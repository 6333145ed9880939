"""Compressed answers for the public pages, their API and the static files (Flask-Compress:
zstd, Brotli or gzip, as the browser accepts), so that a room full of phones on the club's
Wi-Fi fetches a fraction of the bytes.

Only what anybody may read is compressed: the live pages, the room's screen, the public API,
the scripts and styles. The console's pages and the sign-in form are not: each carries the
director's CSRF token, and compressing a secret next to text a visitor can make the page
repeat lets an eavesdropper who sees the sizes guess it (the BREACH attack). The event
streams are never compressed (their type is not in the list), so each change reaches the page
at once.
"""

from __future__ import annotations

from flask import Flask, Response, request
from flask_compress import Compress

PUBLIC = frozenset({"display", "room", "api"})
"""The blueprints whose answers are the same for everybody."""

_compress = Compress()


def _public(response: Response) -> Response:
    if request.endpoint == "static" and response.status_code == 200:
        # A static file is sent as a stream of the open file: read into memory (they are a
        # few kilobytes), it is compressed whole, gzip included, and the file closed.
        opened = getattr(response.response, "close", None)
        response.direct_passthrough = False
        response.make_sequence()
        if opened is not None:
            opened()
    if request.blueprint in PUBLIC or request.endpoint == "static":
        return _compress.after_request(response)
    return response


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_REGISTER", False)  # only _public decides
    app.config.setdefault("COMPRESS_STREAMS", False)  # the event streams, above all
    _compress.init_app(app)
    app.after_request(_public)
