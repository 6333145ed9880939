"""The table daemon: one thread owns the table; everything else talks to it through a queue.

Drivers (keypads, card reader) and the MQTT uplink put inputs on ``inbox``; the table thread
takes them one at a time: the controller decides what an input means, each accepted event is
appended to the journal (durably) before it is applied to the state, then published, and the
displays are redrawn from the views. Nothing else touches the state.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, assert_never, runtime_checkable

from hardware.display import SeatDisplay
from hardware.events import CardEvent, KeyEvent, ReaderMessage, ReaderStatus
from hardware.feedback import Feedback
from laws import Seat
from tablemodel import afterboard
from tablemodel.afterboard import Browsing
from tablemodel.roundclock import RoundClock
from tablemodel.running import RunningSession
from tablemodel.state import TableState
from tablemodel.wire import AfterBoard, Command, Event, EventType, Phase, WireError

from .control import Controller, Notice, Outcome, Proposed
from .following import SessionJournals
from .journal import Journal, JournalError
from .seat_lines import seat_view

log = logging.getLogger("bidbox.table")


@dataclass(frozen=True)
class Acked:
    """The broker acknowledged the publish with this message id (paho's mid) on the link
    ``link`` (the uplink's count of sessions followed: a late acknowledgement of the link
    before a change of session must not acknowledge an event of the next)."""

    mid: int
    link: int = 0


@dataclass(frozen=True)
class LinkStatus:
    connected: bool
    reason: str = ""


@dataclass(frozen=True)
class BadCommand:
    reason: str


class Stop:
    """Put on the inbox to end the table thread."""


class Tick:
    """Time has passed: do what is due (the screens' tray)."""


Input = (KeyEvent | CardEvent | ReaderStatus | ReaderMessage | Command | BadCommand | Acked
         | LinkStatus | RoundClock | RunningSession | AfterBoard | Tick | Stop)
"""Everything that may be put on the table's inbox: the drivers' events, the uplink's commands
and news, and the table's own ticks and stop."""


def unpublishable(proposed: Proposed, seq: int, ts: float) -> str | None:
    """Why the server would refuse ``proposed`` as event ``seq``, or None: the wire's own
    checks read it as the server will (tablemodel.wire), without the JSON round trip: this runs
    before every event the table journals."""
    try:
        Event.from_json(Event(seq, EventType(proposed.type), ts, proposed.board,
                              proposed.data).to_json())
    except (WireError, ValueError) as error:
        return f"{proposed.type} {dict(proposed.data)}: {error}"
    return None


class Publisher(Protocol):
    """What the daemon needs of the MQTT side (tabled.uplink.Uplink)."""

    def publish_event(self, event: Event) -> int | None:
        """Queue ``event`` for QoS 1 delivery; the message id to expect in ``Acked``."""

    def publish_state(self, snapshot: Mapping[str, Any]) -> None: ...


@runtime_checkable
class SessionPublisher(Protocol):
    """A publisher that can move to another session's topics (tabled.uplink.Uplink)."""

    def follow(self, event: str) -> None:
        """From now on publish and listen as the table of session ``event``."""


BETWEEN_BOARDS = frozenset({Phase.WAITING, Phase.PLAYERS, Phase.BOARD, Phase.ROUND_END})
"""Where a following table may move to another session: no board is on the table, so
nothing of a board is cut in two."""


STATE_INTERVAL = 2.0
"""Seconds between two retained states that differ only in counts (``seq``, ``ts``, calls,
cards). A state whose phase, round, board, boards done or left, or open director calls
changed goes out at once; the counts wait, the last of them always published at the end of
the interval. During the scan of a board every card was a second message beside its event:
this halves the table's, the broker's and the server's messages then, and the server still
learns of a lost last event within the interval."""
_STATE_KEY = ("phase", "round", "board", "boards_done", "boards_left", "director")


def snapshot(state: TableState) -> dict[str, Any]:
    """The retained state: where the table is, with no hidden information (no hands, no
    alert explanations, no calls or cards)."""
    board = state.board
    value: dict[str, Any] = {
        "seq": state.seq, "ts": state.last_ts, "phase": state.phase.value,
        "round": None if state.assignment is None else state.assignment.round,
        "board": None if board is None else board.number,
        "boards_done": len(state.results),
        "boards_left": len(state.boards_left),
        "director": len(state.open_director_calls),
    }
    if board is not None:
        value["calls"] = len(board.auction)
        value["cards"] = len(board.cards)
    return value


class TableDaemon:
    """The table thread and what it owns: state, controller, journal, displays."""

    def __init__(self, journal: Journal | None, *,
                 displays: Mapping[Seat, SeatDisplay] | None = None,
                 feedback: Feedback | None = None, publisher: Publisher | None = None,
                 language: str = "en", clock: Callable[[], float] = time.time,
                 digit: Callable[[str], int | None] | None = None,
                 journals: SessionJournals | None = None, event: str | None = None) -> None:
        """``journals``: the table follows the server's session (tabled.following), and
        ``journal`` is that of session ``event``, the one it followed last; both None
        before it has heard of any, when it takes no input until the server names one."""
        self.journal = journal
        self.journals = journals
        self.event = event
        self.following: str | None = None  # a session the server named, not yet moved to
        self.link = 0  # the uplink's count of sessions moved to (Acked.link)
        self.inbox: queue.Queue[Input] = queue.Queue()
        self.displays = dict(displays or {})
        self.feedback = feedback
        self.publisher = publisher
        self.language = language
        self.clock = clock
        self._digit = digit
        self.state = TableState() if journal is None else TableState.replay(journal.events())
        self.controller = self._controller()
        self.notices: dict[Seat, Notice] = {}
        self.inflight: dict[int, int] = {}  # paho mid -> event seq
        self.connected = False
        self.reader_lost = False
        self.handled = 0          # items taken from the inbox
        self.inputs = 0           # of which keys and cards: simulators wait on this
        self.refused = 0          # inputs refused with a notice
        self.changed = threading.Condition()
        self._shown: dict[Seat, list[str]] = {}
        # Called on the table thread after each event is durable and applied (bench, tests).
        self.listeners: list[Callable[[Event], None]] = []
        self._thread: threading.Thread | None = None
        self.resumed_owed: list[str] = []  # events the journal owed at start, appended then
        self._state_sent: tuple[Any, ...] | None = None  # _STATE_KEY of the last state sent
        self._state_at = 0.0                             # when it was sent (self.clock)
        self.state_due: float | None = None  # a state held back, to go out then
        # The retained round clock (an extension); not journalled: the broker gives it again
        # on every connection.
        self.round_clock: RoundClock | None = None
        # What the server lets the displays show after a board (tablemodel.afterboard), retained
        # at the broker like the clock; and where each seat is in those pages.
        self.afterboard: AfterBoard | None = None
        self.browsing: dict[Seat, Browsing | None] = {}
        self.to_open = False  # a board was confirmed: its pages open once there are any

    # -- life cycle ----------------------------------------------------------------------------

    def start(self) -> None:
        """Resume: append what the journal owes, publish what the broker never acknowledged,
        redraw, take inputs."""
        # A power cut between an event and the one the laws add to it (the result after a
        # pass-out's fourth pass, the last card, an agreed claim) leaves the journal owing
        # that event: without it the table would sit with no result and take no input.
        self.resume()
        self._thread = threading.Thread(target=self.run, name="table", daemon=True)
        self._thread.start()

    def _controller(self) -> Controller:
        return (Controller(self.state) if self._digit is None
                else Controller(self.state, digit=self._digit))

    def resume(self) -> None:
        """Take up the journal: what it owes, what the broker never acknowledged, the
        displays (at start, and in each session a following table moves to)."""
        if self.journal is None:
            self.redraw()
            return
        owed = self.controller.follow_up()
        if owed:
            log.warning("journal: resuming, it owes %s", ", ".join(p.type for p in owed))
            self.resumed_owed = [p.type for p in owed]
            self.apply(Outcome(events=owed))
        self.resend_outbox()
        self.publish_state()
        self.redraw()

    def stop(self, timeout: float = 5.0) -> None:
        self.inbox.put(Stop())
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def run(self) -> None:
        while True:
            # Screens: the tray crosses when it is due, with or without an input meanwhile;
            # a state held back goes out when due in the same way.
            dues = [d for d in (self.controller.next_tick(), self.state_due, self.clock_due())
                    if d is not None]
            try:
                item = self.inbox.get(timeout=None if not dues
                                      else max(0.0, min(dues) - self.clock()))
            except queue.Empty:
                item = Tick()
            if isinstance(item, Stop):
                if self.state_due is not None:  # the last word before going: where we are
                    self.publish_state(force=True)
                return
            with self.changed:
                try:
                    self.handle(item)
                except Exception:  # the table keeps working; the log says what went wrong
                    log.exception("table: input %r failed", item)
                self.handled += 1
                self.changed.notify_all()

    def wait_for(self, predicate: Callable[[TableState], bool], timeout: float = 10.0) -> bool:
        """Block until ``predicate(state)`` holds after some input (simulators, tests)."""
        with self.changed:
            return self.changed.wait_for(lambda: predicate(self.state), timeout)

    # -- inputs --------------------------------------------------------------------------------

    def handle(self, item: Input) -> None:
        """Take one input; then, if the server named another session and the table is now
        free to move there, move."""
        self._handle(item)
        if self.following is not None:
            self.follow_when_free()

    def _handle(self, item: Input) -> None:
        if self.state_due is not None and self.state_due <= self.clock():
            self.publish_state(force=True)
        due = self.controller.next_tick()
        if isinstance(item, Tick) and (due is None or due > self.clock()):
            self.redraw()  # only the held-back state or the round clock's minute was due
            return
        if due is not None and due <= self.clock() and not isinstance(item, Tick):
            self.apply(self.controller.tick(self.clock()))  # what was due comes first
        if isinstance(item, KeyEvent | CardEvent):
            self.inputs += 1
            if self.journal is None:
                return  # no session yet: nothing can be recorded (the displays say waiting)
        if isinstance(item, KeyEvent):
            if item.pressed and not item.repeat:
                self.notices.pop(item.seat, None)
                if self.after_board_key(item.seat, item.key):
                    return
                self.apply(self.controller.key(item.seat, item.key))
        elif isinstance(item, CardEvent):
            self.apply(self.controller.card(item.card, item.seat, now=self.clock()))
        elif isinstance(item, Command):
            if self.journal is not None:
                self.apply(self.controller.command(item))
        elif isinstance(item, Tick):
            self.apply(self.controller.tick(self.clock()))
        elif isinstance(item, Acked):
            if item.link == self.link:
                self.acknowledge([item.mid])
        elif isinstance(item, RunningSession):
            self.session_named(item)
        elif isinstance(item, RoundClock):
            self.round_clock = item
            self.redraw()
        elif isinstance(item, AfterBoard):
            self.afterboard = item
            self.open_pages()
            self.redraw()
        elif isinstance(item, LinkStatus):
            self.connected = item.connected
            log.info("broker %s %s", "connected" if item.connected else "lost", item.reason)
        elif isinstance(item, BadCommand):
            log.warning("refused a command: %s", item.reason)
        elif isinstance(item, ReaderStatus):
            # A reader lost is news for the log; one (re)connected is only a note.
            log.log(logging.INFO if item.connected else logging.WARNING, "card reader %s %s",
                    item.url, "connected" if item.connected else "disconnected")
            # The reader thread reopens the port by itself; the players should know meanwhile.
            if item.connected != self.reader_lost:
                return  # the first connection is no news
            self.reader_lost = not item.connected
            notice = Notice("reader_lost" if self.reader_lost else "reader_back",
                            error=self.reader_lost)
            self.notices.update({seat: notice for seat in Seat})
            self.redraw()
        elif isinstance(item, ReaderMessage):
            log.info("card reader says %s", item.message)
        elif isinstance(item, Stop):
            pass  # run() ends on it before handing anything here
        else:
            # Every kind of input is handled above (mypy checks it); anything else put on the
            # queue is a programming error, logged by run() while the table goes on.
            assert_never(item)

    def apply(self, outcome: Outcome) -> None:
        """Append each proposed event durably, apply it, then the events the laws add."""
        if self.journal is None:
            return  # a following table before its first session records nothing
        accepted = 0
        before = (self.state.phase, self.state.board and self.state.board.number)
        done = len(self.state.results)
        pending = list(outcome.events)
        try:
            while pending:
                proposed = pending.pop(0)
                reason = unpublishable(proposed, self.state.seq + 1, self.clock())
                if reason is not None:
                    # Never journal what the server would refuse: the director would lose it
                    # and the table's journal would disagree with the server's record.
                    log.error("table: an event the wire refuses was not recorded: %s", reason)
                    # Nothing of it took effect: nothing of it is shown; a command is
                    # answered as refused, with the reason.
                    outcome.notices.clear()
                    command = proposed.data.get("cmd")
                    if proposed.type == "ruling" and isinstance(command, str):
                        refused = Proposed("refused", proposed.board,
                                           {"cmd": command, "reason": reason[:200]})
                        if unpublishable(refused, self.state.seq + 1, self.clock()) is None:
                            self.append(refused)
                            accepted += 1
                    break
                self.append(proposed)
                accepted += 1
                pending.extend(self.controller.follow_up())
        except JournalError as error:
            log.error("journal: %s", error)
            outcome.notices.update({seat: Notice("journal_full") for seat in Seat})
        if outcome.repeat is not None:
            self.republish(outcome.repeat, outcome.repeat)
        if outcome.resend is not None:
            self.republish(*outcome.resend)
        if accepted:
            self.notices = {}
            self.publish_state()
            if (self.state.phase, self.state.board and self.state.board.number) != before:
                self.controller.forget_entries()  # what was typed for the last phase
            if len(self.state.results) > done:  # a board confirmed: its pages open
                self.to_open = True
            if self.state.phase not in afterboard.BETWEEN:
                self.browsing = {}  # a board on the table, a new round: the pages close
            self.open_pages()
        self.notices.update(outcome.notices)
        self.signal(accepted, outcome)
        self.redraw()

    def append(self, proposed: Proposed) -> Event:
        assert self.journal is not None  # apply() records nothing without one
        event = self.journal.append(proposed.type, proposed.board, proposed.data, self.clock())
        self.state.apply(event)
        self.publish(event)
        for listener in self.listeners:
            listener(event)
        return event

    def signal(self, accepted: int, outcome: Outcome) -> None:
        errors = any(n.error for n in outcome.notices.values())
        if errors:
            self.refused += 1
        if self.feedback is None:
            return
        if any(e.type == "director" for e in outcome.events):
            self.feedback.attention()
        elif errors:
            self.feedback.error()
        elif accepted:
            self.feedback.ok()

    # -- displays ------------------------------------------------------------------------------

    def current_clock(self) -> RoundClock | None:
        """The round clock of the round on the table: the retained one (it carries the
        director's extensions) when it is for this round, else the assignment's."""
        assignment = self.state.assignment
        if assignment is None:
            return None
        if self.round_clock is not None and self.round_clock.round == assignment.round:
            return self.round_clock
        return assignment.clock

    def clock_due(self) -> float | None:
        """When the round clock's line changes next (a minute less, or the end)."""
        clock = self.current_clock()
        return None if clock is None else clock.next_change(self.clock())

    def view(self, seat: Seat) -> list[str]:
        lines = seat_view(seat, self.state, self.controller.entries[seat],
                          self.notices.get(seat), self.language, reader_lost=self.reader_lost,
                          clock=self.current_clock(), now=self.clock())
        browsing = self.browsing.get(seat)
        if (browsing is None or self.state.phase not in afterboard.BETWEEN
                or browsing.board not in afterboard.finished(self.state, self.afterboard)):
            return lines
        page = afterboard.page_lines(browsing, self.afterboard, self.state, self.language)
        if page is None:
            return lines
        # The last line stays the display's own (keys typed, a notice, the clock).
        return [*page, lines[3] or afterboard.hint(browsing, self.afterboard, self.state,
                                                   self.language)]

    def open_pages(self) -> None:
        """Every display opens the pages of the board just confirmed: at once, or when the
        server's first word arrives (a table that came up a moment before); not once the
        next board is on the table."""
        if not self.to_open:
            return
        if self.state.phase not in afterboard.BETWEEN:
            self.to_open = False
            return
        start = afterboard.opened(self.state, self.afterboard)
        if start is not None:
            self.browsing = {seat: start for seat in Seat}
            self.to_open = False

    def after_board_key(self, seat: Seat, key: str) -> bool:
        """INFO and UNDO between boards turn the after-board pages (tablemodel.afterboard);
        True if the key was theirs. Any other key goes to the controller."""
        taken, where = afterboard.key(self.browsing.get(seat), key,
                                      bool(self.controller.entries[seat].keys), self.state,
                                      self.afterboard, self.language)
        if taken:
            self.browsing[seat] = where
            self.redraw()
        return taken

    def redraw(self) -> None:
        for seat, display in self.displays.items():
            lines = self.view(seat)
            if self._shown.get(seat) != lines:
                display.show(lines)
                self._shown[seat] = lines

    # -- the uplink ----------------------------------------------------------------------------

    def publish(self, event: Event) -> None:
        if self.publisher is None:
            return
        mid = self.publisher.publish_event(event)
        if mid is not None:
            self.inflight[mid] = event.seq

    def publish_state(self, *, force: bool = False) -> None:
        """The retained state now if what it says changed (or ``force``), else at most once
        every ``STATE_INTERVAL`` (see there)."""
        if self.publisher is None or self.journal is None:
            return
        value = snapshot(self.state)
        key = tuple(value.get(name) for name in _STATE_KEY)
        now = self.clock()
        if force or key != self._state_sent or now >= self._state_at + STATE_INTERVAL:
            self.publisher.publish_state(value)
            self._state_sent, self._state_at, self.state_due = key, now, None
        elif self.state_due is None:
            self.state_due = self._state_at + STATE_INTERVAL

    def acknowledge(self, mids: list[int]) -> None:
        seqs = [seq for seq in (self.inflight.pop(mid, None) for mid in mids) if seq]
        if self.journal is None:
            return
        try:
            self.journal.acknowledge(seqs)
        except JournalError as error:
            log.error("journal: %s (they go out again after a restart)", error)

    def resend_outbox(self) -> None:
        """After a restart: every event the broker never acknowledged, in order."""
        if self.journal is None:
            return
        for event in self.journal.unacknowledged():
            self.publish(event)

    def republish(self, since: int, until: int | None) -> None:
        """The server asked again for events ``since..until`` (both included)."""
        if self.journal is None:
            return
        for event in self.journal.events(max(0, since - 1), until):
            self.publish(event)

    # -- the session followed (a table provisioned once: tabled.following) ---------------------

    def session_named(self, running: RunningSession) -> None:
        """The server runs ``running``: a following table moves there once it is free (at
        once if it has no session yet); a table of one event of its own ignores it."""
        if self.journals is None:
            return
        self.following = None if running.event == self.event else running.event
        if self.following is not None:
            log.info("the server runs session %s (%s); this table moves there between boards",
                     running.event, running.title)

    def free_to_follow(self) -> bool:
        """No board on the table, and every event of this session acknowledged by the
        broker: what the table played reaches the server before it moves on."""
        if self.journal is None:
            return True
        if self.state.phase not in BETWEEN_BOARDS:
            return False
        try:
            return self.journal.outbox_size() == 0
        except JournalError:
            return False

    def follow_when_free(self) -> None:
        """Move to the session the server named, if the table is free to."""
        event = self.following
        if event is None or self.journals is None or not self.free_to_follow():
            return
        try:
            journal = self.journals.open(event)
        except (JournalError, OSError, ValueError) as error:
            log.error("cannot open the journal of session %s: %s", event, error)
            self.following = None  # tried again when the server names it again
            return
        old, self.journal, self.event, self.following = self.journal, journal, event, None
        try:
            self.journals.remember(event)
        except OSError as error:  # a restart would then begin in the session before
            log.error("could not note session %s as the one followed: %s", event, error)
        self.state = TableState.replay(journal.events())
        self.controller = self._controller()
        self.notices = {}
        self.inflight.clear()
        self._state_sent, self.state_due, self.round_clock = None, None, None
        # The new session's comes from its own topic.
        self.afterboard, self.browsing, self.to_open = None, {}, False
        if isinstance(self.publisher, SessionPublisher):
            self.publisher.follow(event)
            self.link += 1
        if old is not None:
            old.close()
        log.info("table now plays session %s (journal %s)", event, journal.path)
        self.resume()
