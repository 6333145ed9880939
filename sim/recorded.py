"""Simulated players who replay a recorded board at a simulated table.

They do what the players of the record did, through the keypads and the card reader: choose
the board, scan the four hands (the first table to play a board records its deal), make the
calls with their alerts, play the cards in order, claim what the record's result says when
its play stops early, and confirm the result. The table checks everything with the laws, as
it would for people; the record's own agreement with the laws is ``bidbox replay``'s job.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from laws import Bid, Board, Card, Seat, Side
from laws.auction import Auction
from laws.calls import DOUBLE, PASS, REDOUBLE, Strain
from laws.play import Play
from laws.records import AuctionItem, Record
from laws.replay import ReplayResult, replay
from tablemodel.regulation import Screens
from tablemodel.state import BoardState, Phase
from tablemodel.visibility import review_of

from .simtable import SimulatedTable

STRAIN_KEYS = {Strain.C: "C", Strain.D: "D", Strain.H: "H", Strain.S: "S", Strain.NT: "NT"}
DIGIT_KEYS = {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "C", 9: "D", 0: "S"}

# Seconds a person takes, at speed 1: to sit down and type their number, to type the board's,
# to make a call, to play a card, to scan a card, to agree the result.
PAUSES = {"player": 4.0, "board": 3.0, "call": 2.0, "card": 2.5, "scan": 0.3, "confirm": 3.0}
SPREAD = 0.5
"""With a ``rng``, each pause is drawn between (1 - SPREAD) and (1 + SPREAD) times its mean:
people are not clocks. Without it, a room of simulated tables would scan, call and play in
lock-step, every table's input in the same millisecond, every 0.3 s: a load no club makes."""


def number_keys(number: int) -> list[str]:
    return [DIGIT_KEYS[int(d)] for d in str(number)]


def call_keys(call: object) -> list[str]:
    if call == PASS:
        return ["PASS", "OK"]
    if call == DOUBLE:
        return ["X", "OK"]
    if call == REDOUBLE:
        return ["XX", "OK"]
    assert isinstance(call, Bid)
    return [str(call.level), STRAIN_KEYS[call.strain], "OK"]


@dataclass
class Playable:
    """A record the table can play, with what ``bidbox replay`` says of it."""

    record: Record
    expected: ReplayResult


def playable(records: list[Record], file: str = "") -> tuple[list[Playable], list[str]]:
    """The records with a whole deal, an auction and a result that replays cleanly."""
    good: list[Playable] = []
    skipped: list[str] = []
    for record in records:
        result = replay(record, file)
        why = None
        if not result.ok:
            why = "; ".join(result.problems)
        elif (record.board is None or record.deal is None
              or not record.deal.is_complete_for_play):
            why = "no board number or not a whole deal"
        elif not record.auction and result.contract != "Pass":
            why = "no auction"
        if why:
            skipped.append(f"record {record.source_index}: {why}")
        else:
            good.append(Playable(record, result))
    return good, skipped


def card_sequence(record: Record, play: Play) -> Iterator[Card]:
    """The record's cards in the order played (PBN rows are by seat; Law 44G says who led)."""
    if record.play_sequence:
        yield from record.play_sequence
        return
    for row in record.play:
        leader = play.current.leader
        for seat in Seat.clockwise_from(leader):
            card = row.get(seat)
            if card is None:
                return
            yield card


@dataclass
class BoardScript:
    """What the players of a record do at the table, worked out once from the record."""

    board: int
    hands: dict[Seat, list[Card]]
    calls: list[AuctionItem]
    cards: list[Card]
    claim: tuple[Seat, int] | None  # who claims and the tricks their side takes of the rest
    # What players do before the card at a position of ``cards`` (sim.players.irregular):
    # ("scan", None, card) a card seen out of turn; ("press", seat, key) an option chosen.
    steps: dict[int, list[tuple[str, Seat | None, str]]] = field(default_factory=dict)

    @classmethod
    def of(cls, record: Record, tricks: int | None = None) -> BoardScript:
        """``tricks``: declarer's tricks by ``bidbox replay``, when the caller has them."""
        deal = record.deal
        assert record.board is not None and deal is not None
        hands = {seat: sorted(deal[seat], key=lambda c: c.index) for seat in Seat}
        dealer = record.auction_dealer or record.dealer or Board(record.board).dealer
        auction = Auction(dealer)
        # A board the record only says was passed out is four passes (Law 22A).
        calls = list(record.auction) or [AuctionItem(PASS)] * 4
        for item in calls:
            auction.make_call(item.call)
        cards: list[Card] = []
        claim = None
        if not auction.is_passed_out:
            contract, declarer = auction.contract, auction.declarer
            assert contract is not None and declarer is not None
            play = Play(contract, declarer, deal)
            for card in card_sequence(record, play):
                if play.is_over:
                    break
                play.play(card)
                cards.append(card)
            if not play.is_over:
                expected = tricks if tricks is not None else replay(record).tricks
                assert expected is not None
                claim = (declarer, expected - play.declarer_tricks_played)
        return cls(record.board, hands, calls, cards, claim)


class RecordedPlayers:
    """Four players at one simulated table who play recorded boards.

    ``step`` looks at the table's state and does the one thing that comes next, so the
    players pick up wherever the table is, after a restart too.
    """

    def __init__(self, table: SimulatedTable, *, speed: float = 0.0,
                 sleep: Callable[[float], None] = time.sleep,
                 rng: random.Random | None = None) -> None:
        self.table = table
        self.speed = speed
        self.sleep = sleep
        self.rng = rng
        self._steps_done: dict[tuple[int, int], int] = {}  # (board, card position): steps

    def pause(self, what: str) -> None:
        if self.speed > 0:
            spread = 1.0 if self.rng is None else self.rng.uniform(1 - SPREAD, 1 + SPREAD)
            self.sleep(PAUSES[what] * self.speed * spread)

    def enter_players(self, numbers: dict[Seat, int]) -> None:
        for seat in Seat:
            if seat not in self.table.state.players:
                self.pause("player")
                self.table.press(seat, *number_keys(numbers[seat]), "OK")

    def play_board(self, record: Record | BoardScript) -> None:
        script = record if isinstance(record, BoardScript) else BoardScript.of(record)
        while self.step(script):
            pass

    def step(self, script: BoardScript) -> bool:
        """Do the next thing for ``script``'s board; False once its result is confirmed."""
        table = self.table
        state = table.state
        if script.board in state.results:
            return False
        phase = state.phase
        board = state.board
        if phase is Phase.BOARD or board is None:
            self.pause("board")
            table.press(Seat.N, *number_keys(script.board), "OK")
            return True
        if board.number != script.board:
            raise RuntimeError(f"board {board.number} is on the table, not {script.board}")
        if phase is Phase.SETUP and any(len(board.scans[s]) < 13 for s in Seat):
            seat = next(s for s in Seat if len(board.scans[s]) < 13)
            self.pause("scan")
            table.scan(script.hands[seat][len(board.scans[seat])], seat)
        elif phase in (Phase.SETUP, Phase.AUCTION):
            entries = board.auction.entries
            conduct = state.conduct
            if conduct.screens is not None or conduct.profile.self_alert:
                self._self_alerting_step(script, board, conduct.screens)
            elif entries and script.calls[len(entries) - 1].alert and not entries[-1].alert:
                table.press(entries[-1].seat.partner, "ALERT")
            else:
                self.pause("call")
                table.press(board.auction.seat_at(len(entries)),
                            *call_keys(script.calls[len(entries)].call))
        elif phase in (Phase.LEAD, Phase.PLAY):
            self._play_step(script, board)
        elif phase is Phase.RESULT:
            self.pause("confirm")
            side = {s.side for s in board.confirmed}
            table.press(Seat.N if Side.NS not in side else Seat.E, "OK")
        else:
            raise RuntimeError(f"board {script.board}: nothing to do in phase {phase}")
        return True

    def _self_alerting_step(self, script: BoardScript, board: BoardState,
                            screens: Screens | None) -> None:
        """Each player alerts their own alertable calls at once; under screens each also
        alerts partner's when the tray brings them (to the screenmate), and a player calls
        only once the tray is on their side."""
        table = self.table
        entries = board.auction.entries
        turn = board.auction.seat_at(len(entries))
        if screens is not None:
            if board.tray is None or board.tray_away(screens, turn):
                self.wait_for_tray()
                return
            for seat in (turn, screens.screenmate(turn)):
                partner = [i for i, e in enumerate(entries) if e.seat is seat.partner]
                if partner and script.calls[partner[-1]].alert and not any(
                        a.by is seat for a in board.alerted(partner[-1])):
                    table.press(seat, "ALERT")
                    return
        self.pause("call")
        item = script.calls[len(entries)]
        keys = call_keys(item.call)
        if item.alert:
            keys = [*keys[:-1], "ALERT", "OK"]  # alerted with the call itself
        table.press(turn, *keys)

    def wait_for_tray(self) -> None:
        """Screens: the table's own timer moves the tray; wait on the table, not a clock."""
        daemon = self.table.daemon
        board = daemon.state.board
        assert board is not None and board.tray is not None
        calls = len(board.auction)
        if not daemon.wait_for(lambda s: s.board is None or s.board.tray is None
                               or s.board.tray.crossed >= calls, self.table.timeout):
            raise RuntimeError(f"board {board.number}: the tray did not cross")

    def _irregular_step(self, script: BoardScript, board: BoardState) -> bool:
        """The next of the script's steps before the card now due, if any is left: a card
        faced out of turn, an option pressed. True if one was done."""
        at = len(board.cards)
        steps = script.steps.get(at, [])
        done = self._steps_done.get((script.board, at), 0)
        if done >= len(steps):
            return False
        self._steps_done[(script.board, at)] = done + 1
        what, seat, value = steps[done]
        self.pause("card")
        if what == "scan":
            self.table.scan(Card.from_str(value))
        else:
            assert seat is not None
            self.table.press(seat, value)
        return True

    def _claim(self, seat: Seat, tricks: int) -> None:
        """Law 68 at the keypad: INFO to the claim page (past the review when the laws offer
        it now), the tricks, OK, and OK again to confirm the number shown back: one action,
        whose last key makes the claim."""
        entry = self.table.daemon.controller.entries[seat]
        if entry.page == "claim":
            info = 0
        elif entry.review or review_of(seat, self.table.state) is None:
            info = 1
        else:
            info = 2
        self.table.press(seat, *["INFO"] * info, *number_keys(tricks), "OK", "OK")

    def _play_step(self, script: BoardScript, board: BoardState) -> None:
        play = board.play
        assert play is not None
        if board.face_down:
            # Law 41C: the lead is faced (behind screens by the leader's screenmate).
            self.table.press(board.lead_confirmer(self.table.state.conduct.screens), "OK")
            return
        if not board.cards and not board.auction_crossed:
            self.wait_for_tray()
            return
        if play.claim is not None:
            waiting = play.claim.needs(play.declarer) - play.claim.agreed_by
            self.table.press(min(waiting, key=lambda s: s.value), "OK")
        elif self._irregular_step(script, board):
            return
        elif len(board.cards) < len(script.cards):
            self.pause("card")
            # One reader for the table: the known hands say whose card it is.
            self.table.scan(script.cards[len(board.cards)])
        elif script.claim is not None and not board.cards:
            # Law 41C: no claim before the play period: the leader leads first.
            self.pause("card")
            self.table.scan(min(play.legal_cards(), key=lambda c: c.index))
        elif script.claim is not None:
            claimer, tricks = script.claim
            self._claim(claimer, tricks)
        else:
            raise RuntimeError(f"board {script.board}: the play is over but no result")
