"""Simulated players who replay a recorded board at a simulated table.

They do what the players of the record did, through the keypads and the card reader: choose
the board, scan the four hands (the first table to play a board records its deal), make the
calls with their alerts, play the cards in order, claim what the record's result says when
its play stops early, and confirm the result. The table checks everything with the laws, as
it would for people; the record's own agreement with the laws is ``bidbox replay``'s job.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tabled.rules import Bid, Card, Seat
from tabled.rules.auction import Auction
from tabled.rules.calls import DOUBLE, PASS, REDOUBLE, Strain
from tabled.rules.play import Play
from tabled.rules.records import AuctionItem, Record
from tabled.rules.replay import ReplayResult, replay

from .simtable import SimulatedTable

STRAIN_KEYS = {Strain.C: "C", Strain.D: "D", Strain.H: "H", Strain.S: "S", Strain.NT: "NT"}
DIGIT_KEYS = {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "C", 9: "D", 0: "S"}

# Seconds a person takes, at speed 1: to make a call, to play a card, to scan a card.
PAUSES = {"call": 2.0, "card": 2.5, "scan": 0.3, "confirm": 3.0}


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


class RecordedPlayers:
    """Four players at one simulated table who play recorded boards."""

    def __init__(self, table: SimulatedTable, *, speed: float = 0.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.table = table
        self.speed = speed
        self.sleep = sleep

    def pause(self, what: str) -> None:
        if self.speed > 0:
            self.sleep(PAUSES[what] * self.speed)

    def enter_players(self, numbers: dict[Seat, int]) -> None:
        for seat in Seat:
            self.table.press(seat, *number_keys(numbers[seat]), "OK")

    def play_board(self, record: Record) -> None:
        table = self.table
        assert record.board is not None
        table.press(Seat.N, *number_keys(record.board), "OK")
        board = table.state.board
        if board is None or board.number != record.board:
            raise RuntimeError(f"the table did not take board {record.board}")
        deal = record.deal
        assert deal is not None
        for seat in Seat:
            for card in sorted(deal[seat], key=lambda c: c.index):
                self.pause("scan")
                table.scan(card, seat)
        dealer = record.auction_dealer or record.dealer or board.dealer
        auction = Auction(dealer)
        # A board the record only says was passed out is four passes (Law 22A).
        items = record.auction or [AuctionItem(PASS)] * 4
        for item in items:
            seat = auction.seat_at(len(auction))
            self.pause("call")
            table.press(seat, *call_keys(item.call))
            auction.make_call(item.call, seat)
            if item.alert:
                table.press(seat.partner, "ALERT")
        if auction.is_passed_out:
            self.confirm()
            return
        contract, declarer = auction.contract, auction.declarer
        assert contract is not None and declarer is not None
        play = Play(contract, declarer, record.deal)
        for card in card_sequence(record, play):
            if play.is_over:
                break
            self.pause("card")
            table.scan(card)  # one reader for the table: the known hands say whose card
            play.play(card)
        if not play.is_over:
            self.claim(play, declarer, record)
        self.confirm()

    def claim(self, play: Play, declarer: Seat, record: Record) -> None:
        """Declarer claims what the record's result says is left for the declaring side."""
        expected = replay(record).tricks
        assert expected is not None
        tricks = expected - play.declarer_tricks_played
        self.table.press(declarer, *number_keys(tricks), "OK")
        for opponent in (declarer.lho, declarer.rho):
            self.table.press(opponent, "OK")

    def confirm(self) -> None:
        self.pause("confirm")
        self.table.press(Seat.N, "OK")
        self.table.press(Seat.E, "OK")
