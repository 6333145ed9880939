"""``bidbox server --db URL --broker URL``: the director's aggregator.

Serves the director console and the live results display (threads hold the live streams), and
ingests the tables' events from the broker. ``--db`` is a SQLite file (default ``bidbox.db``)
or a ``postgresql://`` URL; the schema is migrated at start. Without ``--broker`` nothing is
ingested (set up a session, export, look at results).

With ``--tls-cert FILE --tls-key FILE`` (default: $BIDBOX_TLS_CERT, $BIDBOX_TLS_KEY) it serves
HTTPS on ``--port`` (default 8443) and redirects plain HTTP on ``--http-port`` (default 8000)
to it; the session cookie is then Secure. Without them, plain HTTP on ``--port`` (default
8000). A director's password given in ``--password-env`` is refused if it is weak.
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import signal
import sys
import threading
from pathlib import Path
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
    parser.add_argument("--centre", action="store_true",
                        help="a simultaneous's centre: read every club's tables through the "
                             "bridges (clubs/<club>/...), each as the section named after its "
                             "club, and send them nothing (docs/scale.md)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to serve on (0.0.0.0 for the club's network)")
    parser.add_argument("--port", type=int, default=None,
                        help="the port of the pages (default 8000; 8443 with --tls-cert)")
    parser.add_argument("--tls-cert", type=Path, metavar="FILE",
                        default=os.environ.get("BIDBOX_TLS_CERT") or None,
                        help="serve HTTPS with this PEM certificate chain (default: "
                             "$BIDBOX_TLS_CERT; bidbox provision writes web/server.crt)")
    parser.add_argument("--tls-key", type=Path, metavar="FILE",
                        default=os.environ.get("BIDBOX_TLS_KEY") or None,
                        help="the certificate's PEM private key (default: $BIDBOX_TLS_KEY)")
    parser.add_argument("--http-port", type=int, default=8000,
                        help="with TLS: a plain-HTTP port that redirects to the HTTPS one "
                             "(default 8000)")
    parser.add_argument("--no-redirect", action="store_true",
                        help="with TLS: no plain-HTTP listener at all")
    parser.add_argument("--threads", type=int, default=32,
                        help="web threads; each open live page holds one")
    parser.add_argument("--language", choices=("es", "en"), default="es")
    parser.add_argument("--director", default="director", help="the console's user name")
    parser.add_argument("--password-env", default="BIDBOX_DIRECTOR_PASSWORD",
                        help="environment variable holding the director's password, refused "
                             "if weak (docs/server.md); when unset, a password is generated "
                             "and printed")
    parser.set_defaults(run=run, extras=("server",))


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    stop = threading.Event()
    # Ctrl-C, SIGTERM (systemctl stop, kill) and SIGHUP (its terminal closed) all stop it the
    # same way: the web server closes its port and the broker is told "offline". Taken
    # before anything starts, so a signal during the start stops it once it has started.
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: stop.set())
    from server.pages.passwords import weakness

    # What can be refused is refused before anything starts (no database, broker or port).
    password = os.environ.get(args.password_env)
    generated = password is None
    if password is None:
        password = secrets.token_urlsafe(9)
    else:
        why = weakness(password, names=(("the director's user name", args.director),
                                         ("the event's name", args.event)))
        if why is not None:
            return refuse(f"the director's password in ${args.password_env} is too weak: "
                          f"{why}")
    if (args.tls_cert is None) != (args.tls_key is None):
        return refuse("give both --tls-cert and --tls-key (or $BIDBOX_TLS_CERT and "
                      "$BIDBOX_TLS_KEY), or neither")
    tls = args.tls_cert is not None
    adapter = None
    if tls:
        from server.serve import TlsFilesError, tls_adapter

        try:
            adapter = tls_adapter(args.tls_cert, args.tls_key)
        except TlsFilesError as error:
            return refuse(str(error))
    port = args.port if args.port is not None else 8443 if tls else 8000

    from server import create_app
    from server.serve import serve, serve_tls

    app = create_app({
        "DATABASE": args.db, "EVENT": args.event, "BROKER_URL": args.broker,
        "CENTRE": args.centre,
        "BROKER_CAFILE": args.cafile, "LANGUAGE": args.language,
        # Live pages hold a thread each: keep eight for the console and ordinary requests.
        "MAX_STREAMS": max(1, args.threads - 8),
        "DIRECTOR_USERNAME": args.director, "DIRECTOR_PASSWORD": password,
        "SECRET_KEY": os.environ.get("BIDBOX_SECRET_KEY") or secrets.token_hex(32),
        # Over HTTPS the browser must never send the session cookie in clear.
        "SESSION_COOKIE_SECURE": tls,
    })
    try:
        if tls:
            served = serve_tls(app, adapter, host=args.host, port=port, threads=args.threads,
                               redirect_port=None if args.no_redirect else args.http_port)
        else:
            served = serve(app, host=args.host, port=port, threads=args.threads)
    except OSError as error:  # the port is taken, or below 1024 without the right
        app.extensions["bidbox"].close()
        return refuse(f"cannot listen on {args.host}: {error}")
    address = served.address
    print(f"live results:     {address}/", flush=True)
    print(f"director console: {address}/console/  (user {args.director}"
          + (f", password {password})" if generated else ")"), flush=True)
    if served.redirect_address is not None:
        print(f"plain http:       {served.redirect_address}/ redirects to {address}/",
              flush=True)
    while not stop.wait(1.0):
        if not served.thread.is_alive():
            print("the web server stopped on its own", file=sys.stderr)
            break
    return 0 if served.stop() else 1


def refuse(why: str) -> int:
    print(f"bidbox server: {why}", file=sys.stderr)
    return 2
