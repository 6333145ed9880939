"""bidbox's aggregator: the director's server.

``create_app(test_config=None)`` builds the Flask app: storage (SQLAlchemy Core, SQLite or
PostgreSQL, migrated by Alembic), the live hub, ingest and, when a broker is configured, the
MQTT worker; one blueprint per concern (auth, the JSON API, the director console, the live
results display). ``bidbox server`` serves it with waitress.
"""

from __future__ import annotations

import io
import os
import secrets
import time
from collections.abc import Mapping
from typing import Any

from flask import Flask, Request

MAX_REQUEST = 4 * 1024 * 1024
"""Bytes of the largest request body: twice the largest upload a director makes, a session's
PBN with every table's play (the largest real record file here is 0.3 MB) or a register, or
a system card (``server.setup.pair_cards.MAX_FILE_BYTES``, 0.5 MB). Flask refuses a larger one
(``MAX_CONTENT_LENGTH``) and so do the web servers, before reading it (server/serve.py)."""


class _Request(Request):
    """Uploads held in memory up to the size limit: werkzeug would spool one over 500 KB to
    a temporary file, on a disk the database may share (a full disk stops ingest)."""

    def _get_file_stream(self, total_content_length: int | None, content_type: str | None,
                         filename: str | None = None,
                         content_length: int | None = None) -> Any:
        return io.BytesIO()


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.request_class = _Request
    app.config.from_mapping(
        SECRET_KEY=secrets.token_hex(32),
        DATABASE=os.path.join(app.instance_path, "bidbox.db"),
        EVENT="club",
        BROKER_URL=None,  # mqtt://user:password@host:port; None = no MQTT (tests, exports)
        BROKER_CAFILE=None,
        DIRECTOR_USERNAME="director",
        DIRECTOR_PASSWORD=None,  # set at start: the console's first director
        PASSWORD_METHOD=None,  # werkzeug's password hash method; None: its default, scrypt
        LANGUAGE="es",  # the room's language; a visitor may switch to the other
        ANALYSIS=True,  # double-dummy and par in the background when endplay is installed
        MAX_STREAMS=24,  # open live pages at once; each holds a web thread
        VUGRAPH_DELAY=60.0,  # seconds the public vugraph runs behind the tables
        CLOCK=time.time,  # the server's clock: the round clock's time (tests inject one)
        LIVE_RELAY=None,  # live changes across processes on PostgreSQL; False: this one only
        # The largest request body (server/serve.py): refused with 413 before it is read.
        MAX_CONTENT_LENGTH=MAX_REQUEST,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    if test_config is None:
        app.config.from_prefixed_env("BIDBOX")
    else:
        app.config.from_mapping(test_config)
    if "://" not in str(app.config["DATABASE"]):
        os.makedirs(os.path.dirname(os.path.abspath(app.config["DATABASE"])), exist_ok=True)

    from server.pages import (
        api,
        auth,
        compress,
        console,
        console_register,
        console_scoring,
        display,
        hands,
        headers,
        room,
    )
    from server.services import Services
    from server.texts import i18n

    Services.init_app(app)
    i18n.init_app(app)
    headers.init_app(app)
    compress.init_app(app)
    app.register_blueprint(auth.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(console.bp)
    app.register_blueprint(console_scoring.bp)
    app.register_blueprint(console_register.bp)
    app.register_blueprint(display.bp)
    app.register_blueprint(room.bp)
    app.register_blueprint(hands.bp)
    return app
