"""What every request and the workers share: the database, the live hub, ingest, the bus.

Views call the small service modules (session, standings, rulings, exports) with these; no
view holds SQL of its own.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app
from sqlalchemy import func, select, update
from werkzeug.security import generate_password_hash

from laws import Board, Seat, Vulnerability
from mqttlink import BrokerSettings
from server.link import afterboard
from server.link.bus import Bus
from server.link.centre import ClubTables
from server.link.ingest import Ingest, Seated
from server.link.live import Hub
from server.link.relay import Relay
from server.outputs import playanalysis
from server.scoring import standings
from server.scoring.analysis import Analyser, Analysis
from server.scoring.standings import Field, ResultRow, released_boards
from server.setup.running import running_event
from server.setup.session import Session, board_conditions, current
from server.storage import schema as s
from server.storage.db import Database

log = logging.getLogger(__name__)

DRAIN = 6 * 3600.0
"""Seconds a session the director has left goes on storing what its tables send: they finish
the board they are on before they move to the next session, and a table off the network at
the time sends its last boards when it is back."""
DRAINING = 3
"""The most sessions left that go on storing at once (each holds a connection)."""
AFTER_BOARD_PAUSE = 1.0
"""Seconds at least between two makings of the tables' after-board pages: the players see a
released board a second later at most, and a stream of results costs one computation."""
WATCHER_JOIN = 30.0
"""Seconds close() waits for each watcher to end its pass (a big field's after-board pages
take seconds) before it releases the database under it."""
SCORED_KEPT = 4
"""The most scorings of the field kept at once: the public view and the director's, of the
running session and of one more (a console looking at another session); each holds every
result and ranking of its field (a few megabytes at 5,000 tables)."""
SCORING_KINDS = frozenset({"results", "session"})
"""The live hub's kinds of change that move the field's scores: a result stored, corrected or
released, a penalty, an adjusted score or the session's figures (``results``), another
session or its settings (``session``)."""


@dataclass(frozen=True)
class Scores:
    """The field as one reading saw it: every result, the released boards, and the scores
    and rankings, of the public view (released boards only) or of the director's."""

    rows: tuple[ResultRow, ...]   # every result, released or not, by board and table
    released: frozenset[int]
    field: Field
    public: bool

    @property
    def shown(self) -> list[ResultRow]:
        """The results the view shows: the released boards' for the public, all for the
        director."""
        if not self.public:
            return list(self.rows)
        return [row for row in self.rows if row.board in self.released]


def scoring_fingerprint(db: Database, session: Session) -> tuple[Any, ...]:
    """A cheap summary of everything the field's scores read, which a write changes even when
    it does not tell the live hub (a script, a tool on the database, a process whose relay was
    down): one aggregate query, a few milliseconds at 5,000 results.

    What each write changes here:
    - results: ingest inserts rows and updates them (a later result: ``source_seq``; the lead,
      the seating, the contract played beside a director's score; a correction of the
      console's form: contract, tricks, score, adjusted, ``corrected_by``); a conflict deletes
      them. The count and the sums over every column the pages read cover them; a write that
      keeps every sum the same (two scores swapped between tables) is not seen here, and
      counts on the hub (every writer in the project tells it, ``results``).
    - releases: only inserted (the count).
    - penalties: given (count, sum of amounts) and withdrawn (count of ``withdrawn_at``).
    - assigned adjusted scores: replaced by a delete and an insert (count, newest
      ``given_at``).
    - scoring rules: the figures themselves and when they were set.
    - participants: the groups the rankings are made in (count, the groups' lengths); the
      names and labels are read afresh by every page, not kept here.
    - the session's settings, sections and Swiss pairings are in the ``Session`` value, which
      is part of the key (server/setup/session.py ``current``)."""
    r, rel, pen, adj = s.results.c, s.releases.c, s.penalties.c, s.assigned_scores.c
    rules, part = s.scoring_rules.c, s.participants.c

    def zero(column: Any) -> Any:
        return func.coalesce(column, 0)

    def length(column: Any) -> Any:
        return func.sum(func.length(func.coalesce(column, "")))

    results = select(
        func.count(), func.sum(r.source_seq), func.sum(zero(r.score_ns)),
        func.sum(zero(r.tricks)), func.sum(zero(r.ns) * r.table_no),
        func.sum(zero(r.ew) * r.board), func.sum(zero(r.round)), func.count(r.contract),
        length(r.contract), func.count(r.lead), length(r.lead), func.count(r.adjusted),
        length(r.adjusted), func.count(r.corrected_by), length(r.declarer),
        func.max(r.finished_at)).where(r.event == session.event)
    with db.read() as conn:
        return (
            tuple(conn.execute(results).one()),
            tuple(conn.execute(select(func.count(), func.max(rel.released_at)).where(
                rel.event == session.event)).one()),
            tuple(conn.execute(select(
                func.count(), func.count(pen.withdrawn_at), func.sum(pen.amount),
                func.max(pen.given_at), func.max(pen.withdrawn_at)).where(
                pen.session_id == session.id)).one()),
            tuple(conn.execute(select(func.count(), func.max(adj.given_at)).where(
                adj.event == session.event)).one()),
            tuple(conn.execute(select(rules.avg_plus, rules.avg, rules.avg_minus,
                                      rules.session_percent, rules.set_at).where(
                rules.session_id == session.id)).all()),
            tuple(conn.execute(select(func.count(), func.sum(func.length(part.grp))).where(
                part.session_id == session.id)).one()))


class FieldScores:
    """The field scored once per change for every reader: the live page, the API, the room's
    page and the console ask here, not each of them the scorer (about 0.7 s at 5,000 tables,
    and every open page asks after every change).

    Kept by a key read before the scoring: the session (its ``Session`` value: a change of
    settings gives another), the view (public or the director's), the live hub's version of
    the last change that moves scores (``SCORING_KINDS``, relayed ones from other processes
    included), and ``scoring_fingerprint`` (a write that told no hub). A scoring that raced a
    change is stored under the key read before it, which the change has made old, so the next
    reader scores again. Two readers of the same key at once score once: the second waits for
    the first."""

    def __init__(self, db: Database, hub: Hub, kept: int = SCORED_KEPT) -> None:
        self.db, self.hub, self.kept = db, hub, kept
        self._lock = threading.Lock()
        self._kept: OrderedDict[Hashable, Scores] = OrderedDict()
        self._scoring: dict[Hashable, threading.Lock] = {}

    def key(self, session: Session, public: bool) -> Hashable:
        # The hub's version first: a change told after it gives a later version, and the
        # fingerprint read after it sees at least what the version says.
        version = self.hub.version_of(SCORING_KINDS)
        return (session, public, version, scoring_fingerprint(self.db, session))

    def get(self, session: Session, *, public: bool) -> Scores:
        """The field's scores as they stand; the public view counts released boards only.
        The director's view raises ValueError for a field the laws cannot score yet."""
        key = self.key(session, public)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
            scoring = self._scoring.setdefault(key, threading.Lock())
        with scoring:
            with self._lock:
                found = self._kept.get(key)
                if found is not None:
                    return found
            try:
                scores = self._score(session, public)
            finally:
                with self._lock:
                    self._scoring.pop(key, None)
            with self._lock:
                self._kept[key] = scores
                while len(self._kept) > self.kept:
                    self._kept.popitem(last=False)
            return scores

    def _score(self, session: Session, public: bool) -> Scores:
        rows = standings.all_results(self.db, session)
        released = standings.released_boards(self.db, session, rows)
        if public:
            scored = standings.public_field(self.db, session, rows)
        else:
            scored = standings.field(self.db, session, public=False, results=rows)
        return Scores(tuple(rows), frozenset(released), scored, public)


@dataclass
class Services:
    """``name``: the server's own (config ``EVENT``): the first session's event name, the
    start of the later ones' (server/setup/running.py). ``event``: the running session's."""

    db: Database
    name: str
    hub: Hub
    bus: Any = None  # server.link.bus.Bus when a broker is configured
    analyser: Analyser | None = None
    play_analyser: Analyser | None = None  # each table's play, card by card (issue 31)
    relay: Relay | None = None  # the hub told across processes, on PostgreSQL
    config: dict[str, Any] = field(default_factory=dict)
    _event: str = ""
    _following: threading.Lock = field(default_factory=threading.Lock)
    # The buses of sessions left a moment ago, by event: (the bus, since when).
    _draining: dict[str, tuple[Any, float]] = field(default_factory=dict)
    _closing: threading.Event = field(default_factory=threading.Event)  # close() was called
    # The watchers' threads, which close() waits for before it lets the database go.
    _watchers: list[threading.Thread] = field(default_factory=list)
    ingest: Ingest = field(init=False)  # the running session's (ingest_for)
    scores: FieldScores = field(init=False)  # the field scored once per change

    def __post_init__(self) -> None:
        self.ingest = self.ingest_for(self.event)
        self.scores = FieldScores(self.db, self.hub)

    def scored(self, session: Session, *, public: bool = True) -> Scores:
        """The field's scores for a page or the API (``FieldScores``): scored once per
        change, whoever asks. Exports and printouts score afresh."""
        return self.scores.get(session, public=public)

    @property
    def event(self) -> str:
        """The event name of the session the server runs (its name before the first)."""
        return self._event or self.name

    @classmethod
    def init_app(cls, app: Flask) -> Services:
        db = Database(str(app.config["DATABASE"]))
        db.upgrade()
        name = str(app.config["EVENT"])
        event = running_event(db) or name
        hub = Hub(max_streams=int(app.config.get("MAX_STREAMS", 24)))
        services = cls(db, name, hub, config=dict(app.config), _event=event)
        # Before any thread that notifies starts: each change goes to the relay from the first.
        # One channel for the server, whichever session runs (a change of session included).
        services.relay = live_relay(app.config, db, name, hub)
        services.ensure_director(app.config["DIRECTOR_USERNAME"],
                                 app.config.get("DIRECTOR_PASSWORD"))
        if app.config.get("ANALYSIS"):
            services.analyser = Analyser(services._analysed,
                                         conditions=services.board_conditions)
            services.analyser.start()
            services.play_analyser = Analyser(
                services._play_analysed, name="play",
                solve=lambda _board, text: playanalysis.solve(text.partition("\n")[2]))
            services.play_analyser.start()
            watcher = threading.Thread(target=services._watch_releases, name="releases",
                                       daemon=True)
            watcher.start()
            services._watchers.append(watcher)
        if app.config.get("BROKER_URL"):
            services.bus = services._bus(services.ingest)
            services.bus.start()
            if not app.config.get("CENTRE"):  # a centre sends the clubs' tables nothing
                shower = threading.Thread(target=services._watch_after_board,
                                          name="afterboard", daemon=True)
                shower.start()
                services._watchers.append(shower)
            follower = threading.Thread(target=services._follow_sessions, name="sessions",
                                        daemon=True)
            follower.start()
            services._watchers.append(follower)
        app.extensions["bidbox"] = services
        return services

    def ingest_for(self, event: str) -> Ingest:
        """The ingest of ``event``, asking this server about its own session (the running
        one, or one the director has just left, whose last boards may still come in).
        Config ``INGEST_CLOCK`` (a function giving seconds; default ``time.time``) lets a
        test set the time events are received at."""
        return Ingest(self.db, event, clock=self.config.get("INGEST_CLOCK") or time.time,
                      seating=lambda table, board: self.planned_seating(table, board, event),
                      allowed=lambda table, board: self.result_allowed(table, board, event),
                      vulnerability=lambda board: self.vulnerability(board, event))

    def _bus(self, ingest: Ingest) -> Any:
        """The MQTT side for ``ingest``'s event, as the config says."""
        settings = BrokerSettings.from_url(self.config["BROKER_URL"])
        if self.config.get("BROKER_CAFILE"):
            settings = BrokerSettings(**{**settings.__dict__,
                                         "cafile": self.config["BROKER_CAFILE"]})
        centre = None
        if self.config.get("CENTRE"):  # a simultaneous's centre (server/link/centre.py)
            centre = ClubTables(self.db, ingest.event)
        return Bus(ingest, self.hub, settings, centre=centre)

    def follow_running(self) -> bool:
        """The director created a session, or made another the running one (here or in
        another process of this server): ingest and the MQTT side move to its event, and
        the tables are told (server/link/bus.py ``publish_session``). True if it moved."""
        with self._following:
            event = running_event(self.db) or self.name
            if event == self.event:
                if self.bus is not None:
                    self.bus.wake()  # the first session of the server's own name: say so
                return False
            old, before = self.bus, self.event
            self._event = event
            again = self._draining.pop(event, None)
            if again is not None:  # a session left a moment ago runs again: its bus too
                self.bus, self.ingest = again[0], again[0].ingest
            else:
                self.ingest = self.ingest_for(event)
                if old is not None:
                    self.bus = self._bus(self.ingest)
                    self.bus.start()
            if old is not None:
                # The tables finish the board they are on before they move: the session left
                # goes on storing what they still send it, for a while (DRAIN).
                self._draining[before] = (old, time.monotonic())
                self._drain(keep=DRAINING)
            log.info("the server runs session %s now", event)
        self.hub.notify({"session", "tables", "results", "calls", "commands", "seated"})
        return True

    def _follow_sessions(self) -> None:
        """Another process of this server (a console on PostgreSQL) may change the running
        session: its relayed ``session`` change moves this one too; a minute's look covers a
        change this process was not told of."""
        seen = self.hub.version
        while not self.hub.closed:
            change = self.hub.wait(seen, 60.0)
            seen = change.version
            if self.hub.closed:
                return
            if "session" in change.kinds or not change.kinds:
                try:
                    self.follow_running()
                    with self._following:
                        self._drain()
                except Exception:  # the database away for a moment: the next look retries
                    log.exception("could not follow the running session")

    def _drain(self, keep: int | None = None) -> None:
        """Stop the buses of the sessions left longer than ``DRAIN`` ago, and beyond the
        ``keep`` most recent. What one had not stored stays at the broker, in that session's
        queue (a day), for when it runs again."""
        left = sorted(self._draining.items(), key=lambda item: item[1][1], reverse=True)
        now = time.monotonic()
        for index, (event, (bus, since)) in enumerate(left):
            if now - since > DRAIN or (keep is not None and index >= keep):
                del self._draining[event]
                bus.stop()
                log.info("no longer storing what comes for session %s", event)

    def close(self) -> None:
        """Stop the workers and release the database; a second call does nothing."""
        if self.hub.closed and self.config.get("_closed"):
            return
        self.config["_closed"] = True
        self._closing.set()
        if self.bus is not None:
            self.bus.stop()
        for bus, _ in self._draining.values():
            bus.stop()
        self._draining.clear()
        if self.analyser is not None:
            self.analyser.stop()
        if self.play_analyser is not None:
            self.play_analyser.stop()
        if self.relay is not None:  # after the workers: their last changes go out too
            self.relay.stop()
        self.hub.close()
        for watcher in self._watchers:  # each ends at its next look at the closed hub
            watcher.join(WATCHER_JOIN)
        self.db.dispose()

    # -- helpers the service modules share ---------------------------------------------------

    @property
    def session(self) -> Session | None:
        return current(self.db, self.event)

    def session_of(self, event: str | None) -> Session | None:
        """Session ``event``; the running one for None."""
        return self.session if event is None else current(self.db, event)

    def planned_seating(self, table: int, board: int,
                        event: str | None = None) -> Seated | None:
        session = self.session_of(event)
        if session is None:
            return None
        seating = session.plan.find(table, board)
        return None if seating is None else Seated(seating.round, seating.ns, seating.ew)

    def result_allowed(self, table: int, board: int, event: str | None = None) -> str | None:
        """Why a table may not have a result on ``board`` now: the movement does not put the
        board at that table, or not before a round that has not started. A result sent early
        would otherwise release a board before every table played it."""
        session = self.session_of(event)
        if session is None:
            return None
        seating = session.plan.find(table, board)
        if seating is None or 0 in (seating.ns, seating.ew):
            return f"board {board} is not played at table {table}"
        if session.current_round and seating.round > session.current_round:
            return f"board {board} is for round {seating.round}, which has not started"
        return None

    def board_conditions(self, board: int,
                         event: str | None = None) -> tuple[Seat, Vulnerability]:
        session = self.session_of(event)
        if session is None:
            facts = Board(board)
            return facts.dealer, facts.vulnerability
        return board_conditions(session, board)

    def vulnerability(self, board: int, event: str | None = None) -> Vulnerability:
        return self.board_conditions(board, event)[1]

    def results_changed(self) -> None:
        """The director released or corrected a result, or changed what the tables show
        after a board: the pages fetch again, and the tables are told
        (``_watch_after_board``)."""
        self.hub.notify({"results"})

    def commands_queued(self) -> None:
        """The console queued commands: the bus sends them now (or when it connects)."""
        if self.bus is not None:
            self.bus.wake()
        self.hub.notify({"commands"})

    def ensure_director(self, username: str, password: str | None) -> None:
        if not password:
            return
        with self.db.write() as conn:
            found = conn.execute(select(s.directors.c.username).where(
                s.directors.c.username == username)).first()
            # PASSWORD_METHOD: werkzeug's method (scrypt by default); the test suite's apps
            # pick a cheap one, since every app it builds hashes the director's password.
            hashed = generate_password_hash(
                password, **({"method": method} if (method := self.config.get(
                    "PASSWORD_METHOD")) else {}))
            if found is None:
                conn.execute(s.directors.insert().values(username=username,
                                                         password_hash=hashed))
            else:
                conn.execute(update(s.directors).where(
                    s.directors.c.username == username).values(password_hash=hashed))

    def analyse_released(self, boards: set[int]) -> None:
        """Queue the double-dummy analysis of released boards that have none yet."""
        session = self.session
        if self.analyser is None or session is None:
            return
        with self.db.read() as conn:
            rows = conn.execute(select(s.deals.c.board, s.deals.c.pbn).where(
                s.deals.c.session_id == session.id, s.deals.c.analysis.is_(None),
                s.deals.c.analysis_error.is_(None))).all()
        for row in rows:
            if row.board in boards:
                self.analyser.submit(row.board, row.pbn)

    def _watch_releases(self) -> None:
        """Released boards get their double-dummy analysis in the background, never in a
        request: this thread wakes when results change and queues what became public."""
        seen = self.hub.version
        kinds: frozenset[str] = frozenset({"results"})  # at start: what was released before
        while not self.hub.closed:
            if kinds and "results" not in kinds:
                seen, kinds, _ = self.hub.wait(seen, 60.0)
                continue
            try:
                session = self.session
                if session is not None:
                    released = released_boards(self.db, session)
                    self.analyse_released(released)
                    self.analyse_plays(released)
            except Exception:  # the database away for a moment: next change retries
                if self.hub.closed:
                    return  # the server is stopping under it
                log.exception("could not queue the analysis of released boards")
            seen, kinds, _ = self.hub.wait(seen, 60.0)

    def _watch_after_board(self) -> None:
        """What each table may show after a board (server/link/afterboard.py), made again when
        results, the analysis, the switches or the session change, and handed to the bus to
        publish. On a thread of its own: the field's scores of a big session take seconds
        (a Mitchell of 100 tables, 2,600 results: about 2.5 s on one core), which the
        ingest's thread must not wait for; and at most once every ``AFTER_BOARD_PAUSE``,
        then resting twice as long as it took, so a stream of results costs one computation,
        not one each, and never more than a third of a core."""

        seen = self.hub.version
        kinds: frozenset[str] = frozenset({"results"})  # at start: say what there is
        wanted = frozenset({"results", "analysis", "session"})
        while not self.hub.closed:
            if kinds & wanted:
                started = time.monotonic()
                try:
                    bus, session = self.bus, self.session
                    if bus is not None and session is not None and session.event == bus.event:
                        bus.hand_afterboard(afterboard.payloads(self.db, session))
                except Exception:  # the database away for a moment: the next change
                    if self.hub.closed:
                        return  # the server is stopping under it
                    log.exception("could not make the tables' after-board pages")
                # A second between two, and twice what it took: at most a third of a core.
                took = time.monotonic() - started
                self._closing.wait(max(AFTER_BOARD_PAUSE - took, 2 * took))
            seen, kinds, _ = self.hub.wait(seen, 60.0)

    def analyse_plays(self, boards: set[int]) -> None:
        """Queue the card-by-card analysis of every table's play of the released boards
        that has none yet (or whose play was corrected since)."""
        session = self.session
        if self.play_analyser is None or session is None or not boards:
            return
        for table, board, payload in playanalysis.jobs(self.db, session, boards):
            self.play_analyser.submit(board, f"{table}\n{payload}")

    def _play_analysed(self, board: int, text: str, analysis: Any, error: str | None) -> None:

        session = self.session
        if session is None:
            return
        table, _, payload = text.partition("\n")
        playanalysis.store(self.db, session, int(table), board, payload, analysis, error)
        self.hub.notify({"analysis"})

    def _analysed(self, board: int, deal: str, analysis: Analysis | None,
                  error: str | None) -> None:
        session = self.session
        if session is None:
            return
        with self.db.write() as conn:
            conn.execute(update(s.deals).where(
                s.deals.c.session_id == session.id, s.deals.c.board == board,
                s.deals.c.pbn == deal).values(
                analysis=None if analysis is None else json.dumps(analysis.to_json()),
                analysis_error=None if error is None else error[:200]))
        self.hub.notify({"analysis"})  # also the tables' double-dummy page


def live_relay(config: Mapping[str, Any], db: Database, event: str, hub: Hub) -> Relay | None:
    """On PostgreSQL several processes may serve one event (ingest workers sharing the
    stream): each hub's changes go to the others' (``server.link.relay``), unless ``LIVE_RELAY``
    is false. A SQLite file has one process, and nothing to relay."""
    if db.conninfo is None or config.get("LIVE_RELAY") is False:
        return None
    relay = Relay(hub, db.conninfo, event)
    hub.forward = relay.send
    relay.start()
    return relay


def services() -> Services:
    found: Services = current_app.extensions["bidbox"]
    return found
