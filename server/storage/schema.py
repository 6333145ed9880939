"""The aggregator's tables, in SQLAlchemy Core.

Two kinds of rows: what the tables sent (``events``, kept exactly as received, once each), and
what the server derives from them or the director decides (results, calls, table status,
corrections). Anything derived can be rebuilt from ``events``; nothing derived is trusted from
a table (a result's score is recomputed with ``laws``).

Alembic migrations in ``server/storage/migrations`` create these tables; a change here needs a new
revision there (``tests/server/test_migrations.py`` compares the two).
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

#: One session of an event: its movement, scoring and where it stands.
sessions = Table(
    "sessions", metadata,
    Column("id", Integer, primary_key=True),
    Column("event", String(64), nullable=False, unique=True),  # the MQTT event name
    Column("title", String(200), nullable=False),
    Column("movement", String(16), nullable=False),  # mitchell, howell, teams, individual
    Column("scoring", String(16), nullable=False),  # mp, imps_cross, imps_butler, teams, ...
    Column("tables", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("boards_per_round", Integer, nullable=False),
    Column("first_board", Integer, nullable=False, default=1),
    Column("participants", Integer, nullable=False),
    Column("current_round", Integer, nullable=False, default=0),  # 0 = not started
    Column("created_at", Float, nullable=False),
    # How the tables are conducted (tablemodel.state.Conduct): screens "NE-SW" or "NW-SE" (null:
    # none), the tray's minimum time on a side, the regulator's alert profile.
    Column("screens", String(8)),
    Column("tray_delay", Float, nullable=False, server_default="8.0"),
    Column("profile", String(16), nullable=False, server_default="feb"),
    # The round clock (server/link/round_times.py): every round's length and the warning, in
    # minutes (null: no clock), unless a round has its own in round_clocks.
    Column("round_minutes", Integer),
    Column("warning_minutes", Integer),
    # With several sections: each board's results compared within its section ("section")
    # or across the field on the same boards ("field", Neuberg where counts differ).
    Column("scope", String(8), nullable=False, server_default="section"),
    # When the director made it the session the server runs (null: when it was created): the
    # one chosen last runs, the others stay readable (server/setup/running.py).
    Column("selected_at", Float),
    # The public vugraph (server/pages/vugraph.py VUGRAPH_MODES): "released" boards only, "off",
    # or "live" for a single match.
    Column("vugraph", String(8), nullable=False, server_default="released"),
    # Who deals the boards (server/setup/session.py DEALINGS): "server", the hand records imported
    # or dealt here; "table", shuffled and dealt at the table, the first table to play a
    # board capturing its deal.
    Column("dealing", String(8), nullable=False, server_default="server"),
)

#: Each round's clock: its own length and warning (set before or during it), and, once it
#: started, its end on the server's clock, extensions included.
round_clocks = Table(
    "round_clocks", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("minutes", Integer),
    Column("warning", Integer),
    Column("started_at", Float),
    Column("ends_at", Float),
    Column("extended", Integer, nullable=False, server_default="0"),  # minutes added
    Column("set_by", String(64)),
    Column("set_at", Float),
)

#: The sections of a session of several (server/setup/movements.py Sectioned), or of one that
#: switches arrows: each with its own movement, numbered on through the session's tables and
#: participants in the order of ``position``.
sections = Table(
    "sections", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("letter", String(16), nullable=False),  # "A", "AB", or a club's name
    Column("movement", String(16), nullable=False),  # mitchell or howell
    Column("pairs", Integer, nullable=False),
    Column("boards_per_round", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("first_board", Integer, nullable=False),
    Column("arrow_rounds", String(200), nullable=False, server_default=""),  # "7,8"
)

#: The pairs, teams or players of a session, as the movement numbers them.
participants = Table(
    "participants", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("label", String(64), nullable=False),
    # ranking group: NS, EW or ""; in a session of sections "A NS", "B" (a club's name at a
    # centre: "bilbao EW")
    Column("grp", String(24), nullable=False, default=""),
    Column("names", String(200), nullable=False, default=""),
    Column("phantom", Boolean, nullable=False, default=False),
)

#: The club's register of players (server/setup/player_register.py): members imported from a CSV
#: file and visitors the director added; a session copies it when created (``session_players``).
members = Table(
    "members", metadata,
    Column("number", Integer, primary_key=True),  # what the player types at the table
    Column("name", String(80), nullable=False),
    Column("licence", String(20)),  # the federation's licence number, when known
    Column("visitor", Boolean, nullable=False, server_default="0"),
    Column("added_at", Float, nullable=False),
    Column("added_by", String(64)),  # the director; null for an import
)

#: A session's own copy of the register, taken when the session is created: what the tables
#: check numbers against and the names the session shows and exports, whatever the register
#: becomes later. A visitor added while the session runs goes into both.
session_players = Table(
    "session_players", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("name", String(80), nullable=False),
    Column("licence", String(20)),
    Column("visitor", Boolean, nullable=False, server_default="0"),
)

#: The hand records of a session, from a PBN file or made by the project.
deals = Table(
    "deals", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("pbn", String(80), nullable=False),
    Column("analysis", Text),  # JSON: double-dummy tricks and par, computed in the background
    Column("analysis_error", String(200)),
    # A deal captured at the table (boards dealt at the table): which table scanned it, when.
    Column("captured_table", Integer),
    Column("captured_at", Float),
)

#: The club's identity for its exports (USEBIO's CLUB): one row, set once for every session.
club = Table(
    "club", metadata,
    Column("id", Integer, primary_key=True),  # always 1
    Column("name", String(120), nullable=False),
    Column("number", String(40), nullable=False),  # the federation's club number
    Column("changed_at", Float, nullable=False),
    Column("changed_by", String(64)),
)

#: What the tables show after a board (server/link/afterboard.py, issue 32): the director's
#: switches for each page, per session; a session without a row shows every page.
after_board = Table(
    "after_board", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("score", Boolean, nullable=False),      # the pair's score on the board
    Column("traveller", Boolean, nullable=False),  # every table's result
    Column("record", Boolean, nullable=False),     # the double-dummy line and par
    Column("changed_at", Float, nullable=False),
    Column("changed_by", String(64)),
)

#: Each table's play of a board analysed card by card (server/outputs/playanalysis.py): ``play`` is
#: the cards the analysis was made of (a later correction analyses again), ``analysis`` its
#: JSON, ``error`` why it could not be made.
play_analysis = Table(
    "play_analysis", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("table_no", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("play", Text, nullable=False),
    Column("analysis", Text),
    Column("error", String(200)),
)

#: Each pair's (or team's) system card (tablemodel.syscard), as the director loaded it: sent to
#: the tables where the pair sits, inside the round's assignment.
system_cards = Table(
    "system_cards", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("participant", Integer, primary_key=True),
    Column("name", String(80), nullable=False),
    Column("card", Text, nullable=False),  # the card's JSON, as SystemCard.to_json writes it
    Column("loaded_at", Float, nullable=False),
    Column("loaded_by", String(64)),
)

#: Every event a table sent, once: the source of truth on this side.
events = Table(
    "events", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event", String(64), nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("type", String(16), nullable=False),
    Column("board", Integer),
    Column("ts", Float, nullable=False),
    Column("data", Text, nullable=False),  # the validated JSON object
    Column("received_at", Float, nullable=False),
    UniqueConstraint("event", "table_no", "seq", name="uq_events_table_seq"),
)
Index("ix_events_board", events.c.event, events.c.table_no, events.c.board)

#: An event that came with the number of a stored one of its table but other content: two
#: devices publish with that table's login. Kept (the latest of each number) until the
#: director chooses which stands (server/link/conflicts.py).
event_conflicts = Table(
    "event_conflicts", metadata,
    Column("event", String(64), primary_key=True),
    Column("table_no", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("type", String(16), nullable=False),
    Column("board", Integer),
    Column("ts", Float, nullable=False),
    Column("data", Text, nullable=False),
    Column("received_at", Float, nullable=False),
)

#: What the server knows of each table: presence, where it is, and how far its log is stored.
table_status = Table(
    "table_status", metadata,
    Column("event", String(64), primary_key=True),
    Column("table_no", Integer, primary_key=True),
    Column("online", Boolean, nullable=False, default=False),
    Column("phase", String(16)),
    Column("round", Integer),
    Column("board", Integer),
    Column("contiguous_seq", Integer, nullable=False, default=0),  # every seq up to this stored
    Column("highest_seq", Integer, nullable=False, default=0),
    Column("last_action_at", Float),  # the table's clock of its last event
    Column("seen_at", Float),  # our clock when we last heard from it
    Column("resend_asked_at", Float),
)

#: One row per table and board: the result the laws give, recomputed here.
results = Table(
    "results", metadata,
    Column("event", String(64), primary_key=True),
    Column("table_no", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("round", Integer),
    Column("ns", Integer),
    Column("ew", Integer),
    Column("contract", String(8)),  # "4HX", "Pass", or null for an artificial score
    Column("declarer", String(1)),
    Column("tricks", Integer),
    Column("lead", String(2)),
    Column("score_ns", Integer),  # ours, from laws; null for an artificial score
    Column("table_score_ns", Integer),  # what the table said, kept to spot a disagreement
    Column("adjusted", String(16)),
    # Law 64A: of ``tricks``, those transferred for a revoke, from declarer's view (+ won
    # from the defenders, - given to them); null when none moved or a correction set the row
    Column("transferred", Integer),
    Column("source_seq", Integer, nullable=False),  # the event that set this row
    Column("finished_at", Float, nullable=False),
    Column("corrected_by", String(64)),  # the director, when a correction set this row
)

#: Director calls from the tables' DIR key, and what the director did about them.
director_calls = Table(
    "director_calls", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event", String(64), nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("board", Integer),
    Column("seat", String(1)),
    Column("reason", String(32), nullable=False),
    Column("law", String(16)),
    Column("detail", String(200)),
    Column("called_at", Float, nullable=False),
    Column("acknowledged_at", Float),
    Column("acknowledged_by", String(64)),
    Column("resolved_at", Float),
    Column("resolved_by", String(64)),
    UniqueConstraint("event", "table_no", "seq", name="uq_director_calls_seq"),
)

#: Commands to tables (assignments, rulings): an outbox, and the audit trail of corrections.
commands = Table(
    "commands", metadata,
    Column("id", String(64), primary_key=True),
    Column("event", String(64), nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("type", String(16), nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("created_by", String(64)),  # the director, or null for the movement
    Column("board", Integer),
    Column("note", String(200)),  # the director's reason for a ruling
    Column("sent_at", Float),
    Column("answer_seq", Integer),
    Column("answer", String(16)),  # the answering event's type: assign, ruling, refused
    Column("answer_reason", String(200)),
)
Index("ix_commands_unsent", commands.c.event, commands.c.sent_at)

#: Corrections the director made on the server (a result fixed after the table moved on):
#: with the rulings sent to tables (``commands``), the session's record of who did what, when.
corrections = Table(
    "corrections", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event", String(64), nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("board", Integer),
    Column("kind", String(32), nullable=False),
    Column("detail", Text, nullable=False),  # JSON: what was before and after
    Column("note", String(200)),
    Column("made_by", String(64), nullable=False),
    Column("made_at", Float, nullable=False),
)

#: Boards the director released before every scheduled table finished them.
releases = Table(
    "releases", metadata,
    Column("event", String(64), primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("released_at", Float, nullable=False),
    Column("released_by", String(64), nullable=False),
)

#: Procedural (Law 90) and disciplinary (Law 91) penalties the director gave a pair or team:
#: taken off its score in the rankings, shown apart. A withdrawn one stays, marked.
penalties = Table(
    "penalties", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", Integer, ForeignKey("sessions.id"), nullable=False),
    Column("participant", Integer, nullable=False),
    Column("law", String(4), nullable=False),  # "90" or "91"
    Column("unit", String(8), nullable=False),  # mp, top (% of a board's top), imps
    Column("amount", Float, nullable=False),  # how much is taken off, in the unit
    Column("note", String(200), nullable=False),
    Column("given_by", String(64), nullable=False),
    Column("given_at", Float, nullable=False),
    Column("withdrawn_by", String(64)),
    Column("withdrawn_at", Float),
)

#: How the session scores artificial adjusted scores (Law 12C2): the club's figures for
#: average plus, average and average minus, and whether a side given average plus gets its
#: session percentage instead when greater. No row: 60/50/40 and no such rule.
scoring_rules = Table(
    "scoring_rules", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("avg_plus", Integer, nullable=False, server_default="60"),
    Column("avg", Integer, nullable=False, server_default="50"),
    Column("avg_minus", Integer, nullable=False, server_default="40"),
    Column("session_percent", Boolean, nullable=False, server_default="0"),
    Column("set_by", String(64)),
    Column("set_at", Float),
)

#: A weighted (Law 12C1(c)) or split (12C1(d)) assigned score: each side's scores with their
#: weights. Used while the board's ``results`` row says ``weighted`` or ``split``.
assigned_scores = Table(
    "assigned_scores", metadata,
    Column("event", String(64), primary_key=True),
    Column("table_no", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("ns", Text, nullable=False),  # JSON: [[percent, NS score, "4H= S"], ...]
    Column("ew", Text, nullable=False),  # the same for the EW side
    Column("given_by", String(64), nullable=False),
    Column("given_at", Float, nullable=False),
)

#: Who may sign in to the console.
directors = Table(
    "directors", metadata,
    Column("username", String(64), primary_key=True),
    Column("password_hash", String(200), nullable=False),
)

#: Each sign-in to the console, by a hash of its cookie's token; signing out ends it here, so a
#: copied cookie no longer opens the console (server/pages/auth.py).
console_sessions = Table(
    "console_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("username", String(64), nullable=False),
    Column("started_at", Float, nullable=False),
    Column("ended_at", Float),
)

#: Every attempt to sign in to the console, for throttling guesses and telling the director
#: (server/pages/throttle.py); kept a week.
sign_ins = Table(
    "sign_ins", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False, index=True),
    Column("address", String(64), nullable=False, index=True),
    Column("username", String(64), nullable=False, index=True),
    Column("outcome", String(8), nullable=False),  # ok, wrong, refused
)

#: Payloads ingest refused, with the reason: bounded, for the director and the fuzz tests.
rejections = Table(
    "rejections", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("topic", String(200), nullable=False),
    Column("reason", String(300), nullable=False),
    Column("size", Integer, nullable=False),
)

#: A Swiss's pairings, round by round (server/scoring/swiss.py): match m of a round is played at
#: tables 2m - 1 (the home team NS) and 2m (the home team EW). A bye is a row whose
#: ``away`` is 0 (the phantom), after the round's matches.
swiss_matches = Table(
    "swiss_matches", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("match", Integer, primary_key=True),
    Column("home", Integer, nullable=False),
    Column("away", Integer, nullable=False),
    Column("paired_at", Float, nullable=False),
    Column("paired_by", String(64)),
)
