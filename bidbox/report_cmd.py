"""``bidbox report``: the printed results pack, the hand records, the published website.

    bidbox report --db bidbox.db --out results.pdf [--language en]
    bidbox report --db bidbox.db --what hand-records --out hands.pdf
    bidbox report --db bidbox.db --what cards --out cards.pdf       # table and guide cards
    bidbox report --db bidbox.db --what deals --out deals.pbn       # for a dealing machine
    bidbox report --db bidbox.db --what site --out site/            # a static website folder
    bidbox report --seed 42 --boards 1-24 --what deals --out deals.pbn  # before any session
    bidbox report --db bidbox.db --what dup --out deals.dup         # for a Duplimate
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

#: The files for dealing machines, by their names in server/outputs/handrecords.py
#: DEALING_FILES (the server is imported only when the command runs; a test holds the two
#: lists together).
DEALING = ("deals", "dup", "bri")
WHAT = ("results", "hand-records", "cards", *DEALING, "site")


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "report", help="the results pack (PDF), hand records (PDF, PBN), the results website",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="the server's database (a SQLite file or a URL)")
    parser.add_argument("--event", help="the session's event, when the database has several")
    parser.add_argument("--what", choices=WHAT, default="results",
                        help="results: the results pack (PDF, default); hand-records: the "
                             "hand-record sheet (PDF); cards: the table and guide cards "
                             "(PDF); deals: PBN for a dealing machine; "
                             "dup, bri: Duplimate's DUP or BRI file; "
                             "site: a static website folder")
    parser.add_argument("--out", required=True, help="the file (or, for site, folder) to write")
    parser.add_argument("--language", choices=("es", "en"), default="es")
    parser.add_argument("--seed", type=int, help="deal the hand records with this seed "
                        "instead of reading a session (with --boards)")
    parser.add_argument("--boards", default="1-24", help="boards to deal with --seed (1-24)")
    parser.add_argument("--title", default="bidbox", help="the title of generated hand records")
    parser.set_defaults(run=run, extras=("server",))


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except ValueError as error:  # every error of ours says what to do instead
        print(f"bidbox report: {error}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from server.outputs import handrecords

    out = Path(args.out)
    if args.seed is not None:
        if args.what not in ("hand-records", *DEALING):
            raise ValueError("--seed deals hand records: use it with --what hand-records, "
                             f"{', '.join(DEALING)}")
        deals = handrecords.generated(args.seed, handrecords.parse_boards(args.boards))
        if args.what in DEALING:
            _write_file(out, handrecords.DEALING_FILES[args.what].write(deals, args.title,
                                                                        None))
        else:
            from server.outputs import report
            out.write_bytes(report.hand_records_pdf(deals, args.title, args.language,
                                                    seed=args.seed))
        print(f"{out}: {len(deals)} boards dealt with seed {args.seed}")
        return 0
    if not args.db:
        raise ValueError("give --db (the server's database), or --seed to deal hand records")
    from server.storage.db import Database

    db = Database(args.db)
    try:
        session = _session(db, args.event)
        return _write(db, session, args, out)
    finally:
        db.dispose()


def _session(db: Any, event: str | None) -> Any:
    from sqlalchemy import select

    from server.setup.session import current
    from server.storage import schema as s

    with db.read() as conn:
        events = list(conn.execute(select(s.sessions.c.event)).scalars())
    if event is None:
        if len(events) != 1:
            raise ValueError(f"the database has {len(events)} sessions; name one with --event "
                             f"({', '.join(events) or 'none'})")
        event = events[0]
    found = current(db, event)
    if found is None:
        raise ValueError(f"no session for event {event!r} ({', '.join(events) or 'none'})")
    return found


def _write(db: Any, session: Any, args: argparse.Namespace, out: Path) -> int:
    from server.outputs import handrecords, publish, report

    if args.what == "results":
        out.write_bytes(report.results_pdf(db, session, args.language))
    elif args.what == "hand-records":
        out.write_bytes(report.hand_records_pdf(
            handrecords.of_session(db, session), session.title, args.language,
            conditions=handrecords.conditions_of(session)))
    elif args.what == "cards":
        out.write_bytes(report.cards_pdf(db, session, args.language))
    elif args.what in DEALING:
        _write_file(out, handrecords.DEALING_FILES[args.what].write(
            handrecords.of_session(db, session), session.title,
            handrecords.conditions_of(session)))
    else:
        written = publish.write_site(db, session, out)
        print(f"{out}: {len(written)} files; open {out / 'index.html'}")
        return 0
    print(f"{out}: {args.what} of {session.title!r} ({session.event})")
    return 0


def _write_file(out: Path, content: str | bytes) -> None:
    if isinstance(content, bytes):
        out.write_bytes(content)
    else:
        out.write_text(content, encoding="utf-8")
