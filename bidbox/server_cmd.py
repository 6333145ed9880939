"""``bidbox server --db URL --broker URL``: the director's aggregator.

Serves the director console and the live results display with waitress (threads hold the
live streams), and ingests the tables' events from the broker. ``--db`` is a SQLite file
(default ``bidbox.db``) or a ``postgresql://`` URL; the schema is migrated at start. Without
``--broker`` nothing is ingested (set up a session, export, look at results).
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import signal
import sys
import threading
from typing import Any


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "server", help="the director's aggregator: ingest, console, live results",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", default="bidbox.db",
                        help="SQLite file or postgresql://user@host/db URL (default bidbox.db)")
    parser.add_argument("--broker", default=os.environ.get("BIDBOX_BROKER_URL"),
                        help="mqtt://user:password@host:port of the event's broker (default: "
                             "$BIDBOX_BROKER_URL, which keeps the password out of `ps`)")
    parser.add_argument("--cafile", help="with mqtts://: the CA that signed the broker")
    parser.add_argument("--event", default="club", help="the event name in the MQTT topics")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to serve on (0.0.0.0 for the club's network)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=32,
                        help="web threads; each open live page holds one")
    parser.add_argument("--language", choices=("es", "en"), default="es")
    parser.add_argument("--director", default="director", help="the console's user name")
    parser.add_argument("--password-env", default="BIDBOX_DIRECTOR_PASSWORD",
                        help="environment variable holding the director's password; when "
                             "unset, a password is generated and printed")
    parser.set_defaults(run=run, extras=("server",))


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    stop = threading.Event()
    # Ctrl-C, SIGTERM (systemctl stop, kill) and SIGHUP (its terminal closed) all stop it the
    # same way: the web server closes its port and the broker is told "offline". Taken
    # before anything starts, so a signal during the start stops it once it has started.
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: stop.set())
    from server import create_app
    from server.serve import serve

    password = os.environ.get(args.password_env)
    generated = password is None
    if password is None:
        password = secrets.token_urlsafe(9)
    app = create_app({
        "DATABASE": args.db, "EVENT": args.event, "BROKER_URL": args.broker,
        "BROKER_CAFILE": args.cafile, "LANGUAGE": args.language,
        # Live pages hold a thread each: keep eight for the console and ordinary requests.
        "MAX_STREAMS": max(1, args.threads - 8),
        "DIRECTOR_USERNAME": args.director, "DIRECTOR_PASSWORD": password,
        "SECRET_KEY": os.environ.get("BIDBOX_SECRET_KEY") or secrets.token_hex(32),
    })
    served = serve(app, host=args.host, port=args.port, threads=args.threads)
    address = served.address
    print(f"live results:     {address}/", flush=True)
    print(f"director console: {address}/console/  (user {args.director}"
          + (f", password {password})" if generated else ")"), flush=True)
    while not stop.wait(1.0):
        if not served.thread.is_alive():
            print("the web server stopped on its own", file=sys.stderr)
            break
    return 0 if served.stop() else 1
