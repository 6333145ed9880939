"""bidbox's aggregator: the director's server.

``create_app(test_config=None)`` builds the Flask app: storage (SQLAlchemy Core, SQLite or
PostgreSQL, migrated by Alembic), the live hub, ingest and, when a broker is configured, the
MQTT worker; one blueprint per concern (auth, the JSON API, the director console, the live
results display). ``bidbox server`` serves it with waitress.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Mapping
from typing import Any

from flask import Flask


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
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
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    if test_config is None:
        app.config.from_prefixed_env("BIDBOX")
    else:
        app.config.from_mapping(test_config)
    if "://" not in str(app.config["DATABASE"]):
        os.makedirs(os.path.dirname(os.path.abspath(app.config["DATABASE"])), exist_ok=True)

    from server import (
        api,
        auth,
        console,
        console_register,
        console_scoring,
        display,
        handviewer,
        headers,
        i18n,
    )
    from server.services import Services

    Services.init_app(app)
    i18n.init_app(app)
    headers.init_app(app)
    app.register_blueprint(auth.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(console.bp)
    app.register_blueprint(console_scoring.bp)
    app.register_blueprint(console_register.bp)
    app.register_blueprint(display.bp)
    app.register_blueprint(handviewer.bp)
    return app
