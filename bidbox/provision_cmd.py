"""``bidbox provision --tables N --out DIR``: the files of a real event, written once.

DIR receives the broker's config, password file, ACL and TLS certificates (broker/), the
server's HTTPS certificate (web/), one config per table Pi (tables/), the server's environment
(server.env), the CA (ca/) and a README.txt saying what goes where (docs/provision.md,
docs/pi-setup.md). An existing DIR's secrets are never overwritten without --force. No
password is printed but the director's, once.

A federation's clubs bridged to a centre (docs/scale.md): ``--clubs A,B,C --out DIR`` writes
the central broker's files and one login per club (DIR/clubs/<club>.json); each club's
``--club A --centre mqtts://HOST:PORT --centre-login A.json --tables N --out DIR`` also
bridges its broker to the centre.
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
    parser.add_argument("--tables", type=int, help="tables 1 to N (required but with --clubs)")
    parser.add_argument("--out", type=Path, required=True, help="the folder to write into")
    parser.add_argument("--event", default="club",
                        help="the club's (or the event's) name: the first session created in "
                             "the console takes it in the MQTT topics, later ones add their "
                             "date (default club); with --club, the centre's event")
    parser.add_argument("--broker-host", action="append", dest="broker_hosts",
                        metavar="HOST",
                        help="the director's machine's DNS name or IP address as the tables "
                             "and browsers reach it; repeat for more names in the broker's "
                             "and web certificates (the first goes into the tables' configs; "
                             f"default {default_broker_host()})")
    parser.add_argument("--port", type=int, default=8883,
                        help="the broker's TLS port for the tables (default 8883)")
    parser.add_argument("--local-port", type=int, default=1883, metavar="P",
                        help="the broker's plain listener on 127.0.0.1, for the server on the "
                             "same machine (default 1883; another if a Mosquitto of the "
                             "machine's own already listens there)")
    parser.add_argument("--days", type=int, default=825,
                        help="validity of the CA and the broker's and web certificates "
                             "(default 825, the most Apple's devices accept)")
    parser.add_argument("--language", choices=("es", "en"), default="es",
                        help="what the seat displays and the server speak (default es)")
    parser.add_argument("--broker-dir", type=PurePosixPath, default=None, metavar="PATH",
                        help="where broker/ goes on the director's machine "
                             "(default /var/lib/mosquitto/bidbox)")
    parser.add_argument("--club", help="this club's name at the centre (with --centre)")
    parser.add_argument("--centre", metavar="URL",
                        help="mqtts://HOST:PORT of the centre's broker: this club's broker is "
                             "bridged there (default: the URL in --centre-login)")
    parser.add_argument("--centre-login", type=Path, metavar="FILE",
                        help="the club's login from the centre (clubs/<club>.json of "
                             "`bidbox provision --clubs`)")
    parser.add_argument("--clubs", metavar="A,B,...",
                        help="provision the centre instead: its broker, a user and a login "
                             "file per club; --broker-host names the centre")
    parser.add_argument("--add-clubs", metavar="D,E,...",
                        help="add clubs to the centre already provisioned in --out: a user "
                             "and a login each; no other club changes")
    parser.add_argument("--force", action="store_true",
                        help="replace an existing DIR's secrets (new passwords, CA, "
                             "certificates)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from bidbox.provision import BROKER_DIR, CentreLogin, Deployment, ProvisionError, provision

    if args.clubs is not None:
        return run_centre(args)
    if args.add_clubs is not None:
        return run_add_clubs(args)
    try:
        if args.tables is None:
            raise ValueError("--tables N is required (or --clubs, to provision a centre)")
        login = None
        if args.club is not None or args.centre is not None or args.centre_login is not None:
            if args.club is None or args.centre_login is None:
                raise ValueError("a club bridged to a centre needs --club NAME and "
                                 "--centre-login FILE (the centre's clubs/<club>.json)")
            try:
                text = args.centre_login.read_text(encoding="utf-8")
            except OSError as error:
                raise ProvisionError(f"--centre-login: {error}") from None
            login = CentreLogin.loads(text)
        deployment = Deployment(
            event=args.event, tables=args.tables,
            broker_hosts=tuple(args.broker_hosts or [default_broker_host()]),
            port=args.port, local_port=args.local_port, days=args.days,
            language=args.language, broker_dir=args.broker_dir or BROKER_DIR, club=args.club,
            centre=args.centre or (login.url if login is not None else None))
        done = provision(deployment, args.out, force=args.force, centre_login=login)
    except (ValueError, ProvisionError) as error:
        print(f"bidbox provision: {error}", file=sys.stderr)
        return 2
    print(f"event {deployment.event}: tables 1 to {deployment.tables}, "
          f"broker {deployment.broker_url}")
    if deployment.club is not None:
        print(f"club {deployment.club}: its broker is bridged to the centre at "
              f"{deployment.centre}")
    print(f"wrote {len(done.files)} files into {done.out}; its README.txt says what goes where")
    print(f"director console password (shown only now; it is also in server.env): "
          f"{done.director_password}")
    return 0


def run_centre(args: argparse.Namespace) -> int:
    from bidbox.provision import BROKER_DIR, Centre, ProvisionError, provision_centre

    try:
        if args.tables is not None or args.club is not None or args.centre is not None:
            raise ValueError("--clubs provisions a centre: no --tables, --club or --centre")
        centre = Centre(
            clubs=tuple(c.strip() for c in args.clubs.split(",") if c.strip()),
            broker_hosts=tuple(args.broker_hosts or [default_broker_host()]),
            port=args.port, local_port=args.local_port, days=args.days,
            broker_dir=args.broker_dir or BROKER_DIR)
        done = provision_centre(centre, args.out, force=args.force)
    except (ValueError, ProvisionError) as error:
        print(f"bidbox provision: {error}", file=sys.stderr)
        return 2
    print(f"centre {centre.url}: clubs {', '.join(centre.clubs)}")
    print(f"wrote {len(done.files)} files into {done.out}; give each club its "
          f"clubs/<club>.json by a private channel (README.txt)")
    return 0


def run_add_clubs(args: argparse.Namespace) -> int:
    from bidbox.provision import ProvisionError, add_clubs

    try:
        if args.tables is not None or args.club is not None or args.force:
            raise ValueError("--add-clubs changes a centre: no --tables, --club or --force")
        names = [c.strip() for c in args.add_clubs.split(",") if c.strip()]
        add_clubs(args.out, names)
    except (ValueError, ProvisionError) as error:
        print(f"bidbox provision: {error}", file=sys.stderr)
        return 2
    print(f"added {', '.join(names)}: give each its clubs/<club>.json; copy broker/passwd and "
          f"broker/acl to the centre's broker and reload it (systemctl reload mosquitto)")
    return 0
