"""``bidbox provision --tables N --out DIR``: the files of a real event, written once.

DIR receives the broker's config, password file, ACL and TLS certificates (broker/), the
server's HTTPS certificate (web/), one config per table Pi (tables/), the server's environment
(server.env), the CA (ca/) and a README.txt saying what goes where (docs/provision.md,
docs/pi-setup.md). An existing DIR's secrets are never overwritten without --force. No
password is printed but the director's, once.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path, PurePosixPath
from typing import Any


def default_broker_host() -> str:
    """This machine's mDNS name: right when provisioning runs on the director's machine."""
    name = socket.gethostname()
    return name if "." in name else f"{name}.local"


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "provision", help="write the broker, table and server files of a real event",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, required=True, help="tables 1 to N")
    parser.add_argument("--out", type=Path, required=True, help="the folder to write into")
    parser.add_argument("--event", default="club",
                        help="the event's name in the MQTT topics (default club)")
    parser.add_argument("--broker-host", action="append", dest="broker_hosts",
                        metavar="HOST",
                        help="the director's machine's DNS name or IP address as the tables "
                             "and browsers reach it; repeat for more names in the broker's "
                             "and web certificates (the first goes into the tables' configs; "
                             f"default {default_broker_host()})")
    parser.add_argument("--port", type=int, default=8883,
                        help="the broker's TLS port for the tables (default 8883)")
    parser.add_argument("--days", type=int, default=825,
                        help="validity of the CA and the broker's and web certificates "
                             "(default 825, the most Apple's devices accept)")
    parser.add_argument("--language", choices=("es", "en"), default="es",
                        help="what the seat displays and the server speak (default es)")
    parser.add_argument("--broker-dir", type=PurePosixPath, default=None, metavar="PATH",
                        help="where broker/ goes on the director's machine "
                             "(default /var/lib/mosquitto/bidbox)")
    parser.add_argument("--force", action="store_true",
                        help="replace an existing DIR's secrets (new passwords, CA, "
                             "certificates)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from bidbox.provision import BROKER_DIR, Deployment, ProvisionError, provision

    try:
        deployment = Deployment(
            event=args.event, tables=args.tables,
            broker_hosts=tuple(args.broker_hosts or [default_broker_host()]),
            port=args.port, days=args.days, language=args.language,
            broker_dir=args.broker_dir or BROKER_DIR)
        done = provision(deployment, args.out, force=args.force)
    except (ValueError, ProvisionError) as error:
        print(f"bidbox provision: {error}", file=sys.stderr)
        return 2
    print(f"event {deployment.event}: tables 1 to {deployment.tables}, "
          f"broker {deployment.broker_url}")
    print(f"wrote {len(done.files)} files into {done.out}; its README.txt says what goes where")
    print(f"director console password (shown only now; it is also in server.env): "
          f"{done.director_password}")
    return 0
