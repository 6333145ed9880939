"""Fuzz of the keypads: contact bounce, chords and held keys through the real scanner on
gpiozero's MockFactory, then random key sequences at every seat through a whole table.

The scanner's rule (hardware/matrix.py, hardware/README.md "Chords and ghost keys"): a key's
state flips after ``debounce`` consecutive scans that all disagree with it, so bounce shorter
than that yields nothing and one press yields one key-down and one key-up; any two keys at
once are read key by key; on a pad without key diodes a pattern that may hold a ghost key
reports nothing new until it clears; a held key repeats only when auto-repeat is configured,
and its repeats are marked. A reference debouncer written from that rule is the oracle.

The table part drives ``TableDaemon.handle`` with what the scanner makes of random keys,
chords, bounce and held keys at all four seats, with the card scans and director's commands
that move it through every phase. Nothing may raise; every event journalled must be one the
wire and the laws accept; the journal must replay to the daemon's state.

``BIDBOX_FUZZ_SEED`` sets the seed, ``BIDBOX_FUZZ_CASES`` scales the runs; docs/fuzzing.md.
"""

from __future__ import annotations

import itertools
import os
import queue
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.events import CardEvent, KeyEvent
from hardware.keypad import MatrixKeypad
from hardware.layout import KeypadLayout
from hardware.sim import MatrixSimulator
from laws import Card, Deal, Seat
from tabled.control import SeatEntry
from tabled.daemon import TableDaemon, snapshot
from tabled.journal import Journal
from tabled.seat_lines import seat_view
from tablemodel.state import Phase, TableState
from tablemodel.wire import Command, Event, WireError
from tests.clock import Clock

SEED = int(os.environ.get("BIDBOX_FUZZ_SEED", "20240808"))
CASES = int(os.environ.get("BIDBOX_FUZZ_CASES", "10000"))
LAYOUT = KeypadLayout.load()
KEYS = [key for row in LAYOUT.keys for key in row]
PERIOD = LAYOUT.scan.period


@pytest.fixture
def rng() -> random.Random:
    print(f"fuzz seed {SEED} (BIDBOX_FUZZ_SEED={SEED} to run this case again)")
    return random.Random(SEED)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    mock = MockFactory()
    yield mock
    mock.close()


class Pads:
    """The simulated matrix and the real scanner on one MockFactory, scanned by hand."""

    def __init__(self, factory: MockFactory, **options: Any) -> None:
        self.events: queue.Queue[KeyEvent] = queue.Queue()
        self.clock = Clock(100.0)
        self.sim = MatrixSimulator(factory, LAYOUT, key_diodes=options.get("key_diodes"))
        self.keypad = MatrixKeypad(self.events, LAYOUT, clock=self.clock, settle=0.0,
                                   pin_factory=factory, **options)
        self.down: dict[Seat, set[str]] = {seat: set() for seat in Seat}

    def set(self, seat: Seat, keys: set[str]) -> None:
        """Make exactly ``keys`` of ``seat`` closed."""
        gone, new = self.down[seat] - keys, keys - self.down[seat]
        if gone:
            self.sim.release(seat, *gone)
        if new:
            self.sim.press(seat, *new)
        self.down[seat] = set(keys)

    def scan(self) -> list[KeyEvent]:
        found = self.keypad.scan_once()
        self.clock.now += PERIOD
        return found

    def close(self) -> None:
        self.keypad.close()


# -- the reference: the debounce rule as docs say it, key by key -------------------------------

class Reference:
    """Each key flips after ``debounce`` consecutive scans that disagree with it."""

    def __init__(self, debounce: int) -> None:
        self.debounce = debounce
        self.state: dict[tuple[Seat, str], bool] = {}
        self.count: Counter[tuple[Seat, str]] = Counter()

    def scan(self, closed: dict[Seat, set[str]]) -> list[tuple[Seat, str, bool]]:
        changes = []
        for seat in Seat:  # the scanner reports seat by seat, each in row-column order
            for key in KEYS:
                now = key in closed[seat]
                if now == self.state.get((seat, key), False):
                    self.count[seat, key] = 0
                    continue
                self.count[seat, key] += 1
                if self.count[seat, key] == self.debounce:
                    self.count[seat, key] = 0
                    self.state[seat, key] = now
                    changes.append((seat, key, now))
        return changes


def chatter(rng: random.Random, debounce: int, start: bool) -> list[bool]:
    """A contact bouncing: runs of either level, each shorter than the debounce."""
    wave: list[bool] = []
    level = start
    for _ in range(rng.randint(0, 3) * 2 if debounce > 1 else 0):
        wave += [level] * rng.randint(1, debounce - 1)
        level = not level
    return wave


def press_wave(rng: random.Random, debounce: int) -> tuple[list[bool], int]:
    """One finger on one key: bounce, held, bounce, let go; or a glitch that is no press."""
    if rng.random() < 0.15:  # a glitch only: never debounce scans of the same level
        return chatter(rng, debounce, True) + [False] * debounce, 0
    held = rng.choice([debounce, debounce + 1, rng.randint(debounce, 40)])
    wave = (chatter(rng, debounce, True) + [True] * held + chatter(rng, debounce, False)
            + [False] * rng.randint(debounce, 3 * debounce))
    return wave, 1


def timelines(rng: random.Random, debounce: int, keys: dict[Seat, list[str]],
              presses: int) -> tuple[list[dict[Seat, set[str]]], Counter[tuple[Seat, str]]]:
    """Per scan, the keys closed at each seat, for ``presses`` presses of each key; and how
    many real presses each key got. Keys run side by side, so they overlap into chords."""
    waves: dict[tuple[Seat, str], list[bool]] = {}
    pressed: Counter[tuple[Seat, str]] = Counter()
    for seat, names in keys.items():
        for key in names:
            wave = [False] * rng.randrange(3 * debounce)
            for _ in range(presses):
                more, real = press_wave(rng, debounce)
                wave += more + [False] * rng.randrange(4)
                pressed[seat, key] += real
            waves[seat, key] = wave
    length = max(map(len, waves.values())) + 2 * debounce
    scans = [{seat: {k for (s, k), w in waves.items() if s is seat and t < len(w) and w[t]}
              for seat in Seat} for t in range(length)]
    return scans, pressed


def run(pads: Pads, scans: list[dict[Seat, set[str]]]) -> list[list[tuple[Seat, str, bool]]]:
    """Each scan's events, as (seat, key, pressed)."""
    out = []
    for closed in scans:
        for seat in Seat:
            pads.set(seat, closed[seat])
        out.append([(e.seat, e.key, e.pressed) for e in pads.scan()])
    return out


@pytest.mark.parametrize(("debounce", "diodes", "per_seat"), [
    (LAYOUT.scan.debounce, LAYOUT.scan.key_diodes, 2),  # the pads as configured
    (3, False, 2), (5, False, 2), (LAYOUT.scan.debounce, True, 4), (3, True, 5)])
def test_bounce_and_chords_follow_the_debounce_rule(factory: MockFactory, rng: random.Random,
                                                     debounce: int, diodes: bool,
                                                     per_seat: int) -> None:
    """Two keys per seat on a plain pad (never ambiguous), more with key diodes: the events
    are exactly the reference's, and each real press is one key-down and one key-up."""
    pads = Pads(factory, debounce=debounce, key_diodes=diodes)
    try:
        for _ in range(max(1, CASES // 2000)):
            keys = {seat: rng.sample(KEYS, rng.randint(1, per_seat)) for seat in Seat}
            scans, pressed = timelines(rng, debounce, keys, presses=rng.randint(5, 15))
            reference = Reference(debounce)
            want = [reference.scan(closed) for closed in scans]
            got = run(pads, scans)
            first = next((t for t, (g, w) in enumerate(zip(got, want, strict=True)) if g != w),
                         None)
            assert first is None, (f"seed {SEED}: scan {first}: got {got[first]}, the rule "
                                   f"gives {want[first]}; closed {scans[first]}")
            downs = Counter((s, k) for events in got for s, k, down in events if down)
            ups = Counter((s, k) for events in got for s, k, down in events if not down)
            assert downs == ups == +pressed, f"seed {SEED}: {downs} {ups} {pressed}"
            assert all(not pads.keypad.pressed(seat) for seat in Seat), f"seed {SEED}"
    finally:
        pads.close()


def test_chords_that_may_ghost_never_invent_a_key(factory: MockFactory,
                                                  rng: random.Random) -> None:
    """Three and four keys at once on a plain pad: a key is reported down only when it was
    down for the last ``debounce`` scans (never a ghost), up only when it was up; whenever a
    seat's keys stay put and are two or fewer for ``debounce`` scans, it reads them right."""
    debounce = LAYOUT.scan.debounce
    pads = Pads(factory, key_diodes=False)
    try:
        for _ in range(max(1, CASES // 2000)):
            keys = {seat: rng.sample(KEYS, rng.randint(3, 5)) for seat in Seat}
            scans, _ = timelines(rng, debounce, keys, presses=rng.randint(5, 12))
            got = run(pads, scans)
            reported: dict[tuple[Seat, str], bool] = {}
            for t, events in enumerate(got):
                window = scans[max(0, t - debounce + 1):t + 1]
                for seat, key, down in events:
                    assert reported.get((seat, key), False) != down, (
                        f"seed {SEED}: scan {t}: {seat} {key} {down} twice")
                    reported[seat, key] = down
                    assert len(window) == debounce and all(
                        (key in closed[seat]) == down for closed in window), (
                        f"seed {SEED}: scan {t}: {seat} {key} {'down' if down else 'up'} "
                        f"but the key was {[key in c[seat] for c in window]}")
                for seat in Seat:
                    steady = all(c[seat] == scans[t][seat] for c in window)
                    if len(window) == debounce and steady and len(scans[t][seat]) <= 2:
                        reads = {k for (s, k), down in reported.items() if s is seat and down}
                        assert reads == scans[t][seat], (
                            f"seed {SEED}: scan {t}: {seat} reads {sorted(reads)}, "
                            f"{sorted(scans[t][seat])} are down")
            assert all(not pads.keypad.pressed(seat) for seat in Seat), f"seed {SEED}"
    finally:
        pads.close()


HELD_SCANS = max(1000, CASES // 2)  # 5,000 scans of 3 ms: a key held for 15 s


def test_a_key_held_down_for_long_is_one_press(factory: MockFactory) -> None:
    pads = Pads(factory)
    try:
        pads.set(Seat.E, {"PASS"})
        got = [e for _ in range(HELD_SCANS) for e in pads.scan()]
        assert [(e.seat, e.key, e.pressed, e.repeat) for e in got] == [
            (Seat.E, "PASS", True, False)]
        pads.set(Seat.E, set())
        got = [e for _ in range(LAYOUT.scan.debounce) for e in pads.scan()]
        assert [(e.key, e.pressed) for e in got] == [("PASS", False)]
    finally:
        pads.close()


def test_a_held_key_repeats_only_as_configured(factory: MockFactory) -> None:
    """With auto-repeat on: the first repeat after ``repeat_delay``, then one every
    ``repeat_interval`` (to the scan), each marked; the release ends them."""
    delay, interval = 0.5, 0.15
    pads = Pads(factory, repeat_delay=delay, repeat_interval=interval)
    try:
        pads.set(Seat.S, {"UNDO"})
        got = [e for _ in range(HELD_SCANS) for e in pads.scan()]
        first, *repeats = got
        assert (first.pressed, first.repeat) == (True, False)
        assert repeats and all(e.pressed and e.repeat and e.key == "UNDO" for e in repeats)
        assert delay <= repeats[0].t - first.t < delay + 2 * PERIOD
        gaps = [b.t - a.t for a, b in itertools.pairwise(repeats)]
        assert all(interval - 1e-9 <= gap < interval + 2 * PERIOD for gap in gaps), gaps
        pads.set(Seat.S, set())
        got = [e for _ in range(LAYOUT.scan.debounce + 200) for e in pads.scan()]
        assert [(e.key, e.pressed, e.repeat) for e in got] == [("UNDO", False, False)]
    finally:
        pads.close()


# -- through a whole table: random fingers at every seat, in every phase -----------------------

DECK = [Card.from_str(suit + rank) for suit in "CDHS" for rank in "23456789TJQKA"]
DIGIT_KEYS = {"8": "C", "9": "D", "0": "S"}
TABLE_STEPS = max(300, CASES // 8)


def number_keys(number: int) -> list[str]:
    return [DIGIT_KEYS.get(d, d) for d in str(number)] + ["OK"]


def call_keys(call: str) -> list[str]:
    named = {"Pass": ["PASS"], "X": ["X"], "XX": ["XX"]}
    return [*named.get(call, [call[0], call[1:]]), "OK"]


def observable(state: TableState) -> dict[str, Any]:
    """What a table shows and what its next input depends on: a replay must agree on all."""
    seen: dict[str, Any] = {
        "snapshot": snapshot(state), "seq": state.seq, "last_ts": state.last_ts,
        "phase": state.phase, "assignment": state.assignment, "players": state.players,
        "results": state.results, "director_calls": state.director_calls,
        "commands": state.commands,
        "views": [seat_view(seat, state, SeatEntry()) for seat in Seat]}
    board = state.board
    if board is not None:
        seen["board"] = (board.number, board.dealer, board.vulnerability, board.known,
                         board.scans, board.auction.entries, board.auction.obligations,
                         board.cards, board.lead_restrictions, board.result, board.confirmed)
        play = board.play
        if play is not None:
            seen["play"] = (play.contract, play.declarer, play.turn, play.claim,
                            [str(t) for t in play.completed_tricks], play.revokes,
                            play.tricks_left)
    return seen


class FuzzedTable:
    """A table daemon fed by the real scanner: fingers on the pads, cards on the reader, and
    the director's commands, all at random but enough of them on purpose to move on."""

    def __init__(self, folder: Path, rng: random.Random) -> None:
        self.rng = rng
        self.journal = Journal(folder / "table.db")
        self.daemon = TableDaemon(self.journal, clock=self.tick, digit=LAYOUT.digit)
        self.daemon.listeners.append(self.on_event)
        self.factory = MockFactory()
        self.pads = Pads(self.factory)
        self.ts = 1_700_000_000.0
        self.commands = 0
        self.phases: Counter[Phase] = Counter()
        self.actions: list[str] = []  # the latest, for a failure's message
        self.refused_on_the_wire: list[str] = []
        self.checks = 0

    def tick(self) -> float:
        self.ts += 0.25
        return self.ts

    def close(self) -> None:
        self.pads.close()
        self.factory.close()
        self.journal.close()

    # -- what must hold --------------------------------------------------------------------

    def on_event(self, event: Event) -> None:
        """Each event as journalled: the server must accept it as it is."""
        try:
            again = Event.from_payload(event.to_payload())
        except WireError as error:
            self.refused_on_the_wire.append(f"{event}: {error}")
            return
        if again != event:
            self.refused_on_the_wire.append(f"{event} comes back as {again}")

    def check(self) -> None:
        """The journal replays to the daemon's state, as after a power cut."""
        self.checks += 1
        replayed = TableState.replay(self.journal.events())
        want, got = observable(self.daemon.state), observable(replayed)
        differ = {k: (want[k], got.get(k)) for k in want if want[k] != got.get(k)}
        assert not differ, (f"seed {SEED}: the replay differs after {self.actions[-5:]}: "
                            f"{differ}")

    # -- inputs ----------------------------------------------------------------------------

    def give(self, item: Any) -> None:
        before = (self.daemon.state.phase, self.daemon.state.seq)
        self.phases[before[0]] += 1
        try:
            self.daemon.handle(item)
        except Exception as error:
            raise AssertionError(f"seed {SEED}: {item!r} in {before[0]} raised {error!r}; "
                                 f"before it: {self.actions[-8:]}") from error
        if self.daemon.state.phase is not before[0]:
            self.check()

    def scan(self, scans: int = 1) -> None:
        for _ in range(scans):
            for event in self.pads.scan():
                self.give(event)

    def tap(self, seat: Seat, key: str) -> None:
        """A finger on one key, perhaps bouncing: one key-down and one key-up come out."""
        debounce = LAYOUT.scan.debounce
        wave = [True] * debounce
        if self.rng.random() < 0.3:  # now and then a bouncing contact
            real = 0
            while not real:  # a glitch is no tap
                wave, real = press_wave(self.rng, debounce)
        downs = ups = 0
        for closed in wave + [False] * debounce:
            self.pads.set(seat, {key} if closed else set())
            for event in self.pads.scan():
                downs += event.pressed
                ups += not event.pressed
                self.give(event)
        assert (downs, ups) == (1, 1), f"seed {SEED}: {seat} {key} gave {downs} down, {ups} up"
        self.actions.append(f"{seat}:{key}")

    def keys(self, seat: Seat, keys: list[str]) -> None:
        for key in keys:
            self.tap(seat, key)

    def chord(self) -> None:
        """Keys at once: at one seat (two, or three that may ghost) or across seats."""
        rng = self.rng
        seats = rng.sample(list(Seat), rng.randint(1, 4))
        keys = {seat: set(rng.sample(KEYS, rng.randint(1, 3))) for seat in seats}
        for seat, down in keys.items():
            self.pads.set(seat, down)
        self.scan(rng.randint(LAYOUT.scan.debounce, 6))
        for seat in seats:
            self.pads.set(seat, set())
        self.scan(LAYOUT.scan.debounce + 1)
        self.actions.append(f"chord {keys}")

    def hold(self) -> None:
        seat, key = self.rng.choice(list(Seat)), self.rng.choice(KEYS)
        self.pads.set(seat, {key})
        self.scan(self.rng.randint(20, 150))
        self.pads.set(seat, set())
        self.scan(LAYOUT.scan.debounce + 1)
        self.actions.append(f"hold {seat}:{key}")

    def card(self, card: Card | None, seat: Seat | None = None) -> None:
        self.actions.append(f"card {card} at {seat}")
        self.give(CardEvent(card, None if card else "DEADBEEF", seat, self.ts))

    def command(self, kind: str, data: dict[str, Any]) -> None:
        """A command as the uplink takes it: one the wire refuses never reaches the table."""
        self.commands += 1
        try:
            command = Command.from_payload(Command(f"c{self.commands}", kind, data).to_payload())
        except WireError:
            return
        self.actions.append(f"command {kind} {data}")
        self.give(command)

    # -- what the fingers do -----------------------------------------------------------------

    def step(self) -> None:
        rng = self.rng
        noise = rng.random()
        if noise < 0.25:
            self.tap(rng.choice(list(Seat)), rng.choice(KEYS))
        elif noise < 0.3:
            self.chord()
        elif noise < 0.32:
            self.hold()
        elif noise < 0.37:
            self.card(rng.choice([*DECK, None]), rng.choice([*Seat, None]))
        elif noise < 0.4:
            self.ruling()
        else:
            self.progress()

    def assign(self) -> None:
        rng = self.rng
        boards = rng.sample(range(1, 37), rng.randint(1, 3))
        data: dict[str, Any] = {"round": rng.randint(1, 9), "ns": rng.randint(1, 20),
                                "ew": rng.randint(1, 20), "boards": boards}
        if rng.random() < 0.6:
            data["deals"] = {str(b): random_deal(rng) for b in boards if rng.random() < 0.8}
        self.command("assign", data)

    def ruling(self) -> None:
        rng = self.rng
        data: dict[str, Any] = {"kind": rng.choice(["take_back", "undo_cards", "require_pass",
                                                    "lead_restriction", "claim", "score",
                                                    "director_ack", "end_round"])}
        options = {"seat": lambda: rng.choice("NESW"), "calls": lambda: rng.randint(0, 12),
                   "cards": lambda: rng.randint(0, 20), "law": lambda: rng.choice(["27B2", "26"]),
                   "scope": lambda: rng.choice(["auction", "next_turn"]),
                   "suit": lambda: rng.choice("CDHS"), "required": lambda: rng.random() < .5,
                   "tricks": lambda: rng.choice([None, *range(14)]),
                   "score_ns": lambda: rng.randrange(-2000, 2000, 10),
                   "adjusted": lambda: rng.choice(["A60/40", "assigned", "A+"]),
                   "call": lambda: rng.randint(1, max(1, self.daemon.state.seq))}
        for name, make in options.items():
            if rng.random() < 0.4:
                data[name] = make()
        self.command("ruling", data)

    def progress(self) -> None:
        """Something the table is waiting for."""
        state, rng = self.daemon.state, self.rng
        phase = state.phase
        if phase in (Phase.WAITING, Phase.ROUND_END):
            self.assign()
        elif phase is Phase.PLAYERS:
            seat = next(s for s in Seat if s not in state.players)
            self.keys(seat, number_keys(rng.randint(1, 500)) if rng.random() < .9 else ["OK"])
        elif phase is Phase.BOARD:
            board = rng.choice(state.boards_left)
            self.keys(rng.choice(list(Seat)), ["OK"] if rng.random() < .5 else number_keys(board))
        elif phase in (Phase.SETUP, Phase.AUCTION):
            self.auction()
        elif phase in (Phase.LEAD, Phase.PLAY):
            self.play()
        elif phase is Phase.RESULT:
            self.tap(rng.choice([Seat.N, Seat.S] if rng.random() < .5 else [Seat.E, Seat.W]),
                     "OK")

    def auction(self) -> None:
        board = self.daemon.state.board
        assert board is not None
        rng, auction = self.rng, board.auction
        if not len(auction) and rng.random() < 0.2:  # a card of a hand scanned at set-up
            hands = board.known or {}
            seat = rng.choice(list(Seat))
            pool = sorted(hands[seat]) if seat in hands else DECK
            self.card(rng.choice(pool), seat if rng.random() < 0.7 else None)
            return
        if len(auction) and rng.random() < 0.15:  # Law 25A: a call changed, or alerted
            last = auction.entries[-1]
            if rng.random() < 0.5:
                self.keys(last.seat.partner, ["ALERT"])
            else:
                self.keys(last.seat, ["UNDO", *call_keys(rng.choice(["Pass", "1NT", "7C"]))])
            return
        seat = auction.turn
        assert seat is not None
        legal = [str(c) for c in auction.legal_calls()]
        call = "Pass" if rng.random() < 0.6 or len(auction) > 12 else rng.choice(legal)
        self.keys(seat, call_keys(call))

    def play(self) -> None:
        board = self.daemon.state.board
        assert board is not None and board.play is not None
        rng, play = self.rng, board.play
        claim = play.claim
        if claim is not None and claim.state.value == "disputed":
            self.command("ruling", {"kind": "claim",
                                    "tricks": rng.choice([None, rng.randint(0, play.tricks_left)])})
        elif claim is not None:
            needed = sorted(claim.needs(play.declarer) - claim.agreed_by, key=list(Seat).index)
            self.tap(rng.choice(needed or list(Seat)), "OK" if rng.random() < 0.85 else "UNDO")
        elif board.face_down:  # Law 41C: the leader (or the screenmate) faces the lead
            self.tap(board.lead_confirmer(self.daemon.state.conduct.screens), "OK")
        elif rng.random() < 0.03:  # a claim on its page (INFO), confirmed (Law 68)
            claimer = rng.choice([s for s in Seat if s is not play.dummy])
            self.keys(claimer, ["INFO"] * rng.randint(1, 2)
                      + number_keys(rng.randint(0, play.tricks_left)) + ["OK"])
        else:
            legal = list(play.legal_cards())
            self.card(rng.choice(legal) if legal else rng.choice(DECK),
                      play.turn if rng.random() < 0.5 else None)


def random_deal(rng: random.Random) -> str:
    cards = DECK[:]
    rng.shuffle(cards)
    return Deal({seat: frozenset(cards[13 * i:13 * i + 13])
                 for i, seat in enumerate(Seat)}).to_pbn()


@pytest.fixture
def table(tmp_path: Path, rng: random.Random) -> Iterator[FuzzedTable]:
    fuzzed = FuzzedTable(tmp_path, rng)
    yield fuzzed
    fuzzed.close()


def test_random_fingers_at_every_seat_never_corrupt_the_table(table: FuzzedTable) -> None:
    for _ in range(TABLE_STEPS):
        table.step()
    table.check()
    print(f"{TABLE_STEPS} steps, {table.daemon.state.seq} events, {table.checks} replays, "
          f"phases {dict(table.phases)}")
    assert not table.refused_on_the_wire, f"seed {SEED}: {table.refused_on_the_wire[:5]}"
    assert set(table.phases) == set(Phase), (
        f"seed {SEED}: never in {set(Phase) - set(table.phases)}")
    played = Counter(e.type for e in table.journal.events())
    assert played["result"] and played["card"] and played["call"], f"seed {SEED}: {played}"


def test_the_replay_check_sees_a_state_the_journal_does_not_give(table: FuzzedTable) -> None:
    """The check can fail: a state changed behind the journal's back is caught."""
    while table.daemon.state.phase is not Phase.PLAYERS:
        table.progress()
    table.daemon.state.players[Seat.N] = 99  # not journalled
    with pytest.raises(AssertionError, match="replay differs"):
        table.check()


def test_a_held_key_with_auto_repeat_is_one_input_at_the_table(tmp_path: Path) -> None:
    """Repeats reach the table marked, and the table takes the key once."""
    factory = MockFactory()
    journal = Journal(tmp_path / "table.db")
    try:
        daemon = TableDaemon(journal, digit=LAYOUT.digit)
        daemon.handle(Command("a1", "assign", {"round": 1, "ns": 1, "ew": 2, "boards": [1]}))
        pads = Pads(factory, repeat_delay=0.3, repeat_interval=0.05)
        try:
            pads.set(Seat.N, {"DIR"})  # a director call each time the table takes the key
            events = [e for _ in range(1000) for e in pads.scan()]
            pads.set(Seat.N, set())
            events += [e for _ in range(LAYOUT.scan.debounce) for e in pads.scan()]
        finally:
            pads.close()
        assert sum(e.repeat for e in events) > 10
        for event in events:
            daemon.handle(event)
        assert [e.type for e in journal.events()] == ["assign", "director"]
    finally:
        journal.close()
        factory.close()
