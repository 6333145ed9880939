"""Four bots at a simulated table: they bid and play a whole board, then drive the table.

:func:`script` works the board out in advance (the calls with their alerts, the cards, an
occasional claim) as a :class:`~sim.recorded.BoardScript`, and :class:`SimulatedPlayers`
hands it to :class:`~sim.recorded.RecordedPlayers`, which presses the keys and scans the
cards. A seeded coin now and then has a player press DIR during the auction or the play: the
table records a director call and goes on (tabled/control/keys.py: DIR only appends a
``director`` event), so the board still reaches its result.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Iterable, Mapping

from laws import Board, Card, Deal, Seat, Side
from laws.auction import Auction
from laws.board import Hand
from laws.calls import DOUBLE, PASS
from laws.play import Play
from laws.records import AuctionItem
from sim.recorded import BoardScript, RecordedPlayers
from sim.simtable import SimulatedTable
from tablemodel.state import Phase

from .bidding import choose_call
from .card_play import choose_card, sure_claim
from .field import Styles, judgement_of, slipped
from .irregular import Steps, kind_for, play_out


def varied(calls: list[AuctionItem], rng: random.Random,
           rate: float) -> list[AuctionItem] | None:
    """Another auction than ``calls`` with probability ``rate``: all pass, or the last bid
    doubled by the opponent next to call (always legal there, Law 19A1); None: keep it."""
    if rate <= 0 or rng.random() >= rate:
        return None
    passes = [AuctionItem(PASS) for _ in range(3)]
    bids = [i for i, item in enumerate(calls) if item.call.is_bid]
    if not bids or rng.random() < 0.5:
        return [AuctionItem(PASS), *passes]
    last = bids[-1]
    if last + 1 < len(calls) and calls[last + 1].call != PASS:
        return None  # doubled already
    return [*calls[:last + 1], AuctionItem(DOUBLE), *passes]


def script(board: int, deal: Deal, *, seed: int = 0, claim_rate: float = 0.1,
           calls: list[AuctionItem] | None = None, irregular: bool = False,
           styles: Styles | None = None) -> BoardScript:
    """The whole board as the four bots bid and play it; the same arguments give the same
    script. With probability ``claim_rate`` (seeded), declarer claims the rest at the first
    moment its side can see that every remaining trick is theirs. ``calls``: a whole auction
    to play instead of the bots' own (the golden records' doubled and passed-out tables).
    ``irregular``: some boards have a card seen out of turn (sim.players.irregular).
    ``styles``: how each side's pair bids and plays (sim.players.field); none, the bots'."""
    rng = random.Random(f"{seed}:{board}:claim")
    calls = list(bots_calls(board, deal, styles) if calls is None else calls)
    auction = _made(board, calls)  # an illegal call raises here
    if not auction.is_over:
        raise ValueError(f"board {board}: the auction given is not over")
    hands = {seat: sorted(deal[seat], key=lambda c: c.index) for seat in Seat}
    cards: list[Card] = []
    claim: tuple[Seat, int] | None = None
    steps: Steps = {}
    contract, declarer = auction.contract, auction.declarer
    if contract is not None and declarer is not None and irregular and kind_for(board):
        play = Play(contract, declarer, deal)
        cards = play_out(play, deal, auction, board, seed, steps)
    elif contract is not None and declarer is not None:
        play = Play(contract, declarer, deal)
        claims = rng.random() < claim_rate
        slips = any(style.slips > 0 for style in (styles or {}).values())
        chosen = iter(()) if slips else iter(_bots_cards(board, _key(deal), tuple(calls)))
        errors = random.Random(f"{seed}:{board}:slips")
        while not play.is_over:
            if claims and sure_claim(play, deal):
                claim = (declarer, play.tricks_left)
                break
            seat = play.turn
            assert seat is not None
            if slips:  # each card the bots' unless the side on play slips
                card = slipped(play, choose_card(play, seat, deal, auction=auction), styles,
                               errors)
            else:
                card = next(chosen)
            play.play(card, seat)
            cards.append(card)
    return BoardScript(board, hands, calls, cards, claim, steps)


# The bots are deterministic: a deal and an auction give the same calls and cards at every
# table. A process keeps the last boards' (a load test's shard runs 25 tables of a section,
# which play the same boards), so each is worked out once there, not once a table.
BOTS_CACHE = 128


def _key(deal: Deal) -> tuple[tuple[Seat, Hand], ...]:
    return tuple((seat, deal.hands[seat]) for seat in Seat if seat in deal.hands)


def bots_calls(board: int, deal: Deal,
               styles: Styles | None = None) -> tuple[AuctionItem, ...]:
    """The bots' whole auction of ``deal`` as board ``board`` (its dealer), each side valuing
    its hands as its style says (sim.players.field)."""
    judgements = (judgement_of(styles, Seat.N), judgement_of(styles, Seat.E))
    return _bots_calls(board, _key(deal), judgements)


@functools.lru_cache(maxsize=BOTS_CACHE)
def _bots_calls(board: int, hands: tuple[tuple[Seat, Hand], ...],
                judgements: tuple[int, int] = (0, 0)) -> tuple[AuctionItem, ...]:
    return tuple(bid(Auction(Board(board).dealer), Deal(dict(hands)),
                     {Side.NS: judgements[0], Side.EW: judgements[1]}))


@functools.lru_cache(maxsize=BOTS_CACHE)
def _bots_cards(board: int, hands: tuple[tuple[Seat, Hand], ...],
                calls: tuple[AuctionItem, ...]) -> tuple[Card, ...]:
    """The bots' play of every card after ``calls``, with no claim."""
    deal = Deal(dict(hands))
    auction = _made(board, calls)
    assert auction.contract is not None and auction.declarer is not None
    play = Play(auction.contract, auction.declarer, deal)
    cards = []
    while not play.is_over:
        seat = play.turn
        assert seat is not None
        card = choose_card(play, seat, deal, auction=auction)
        play.play(card, seat)
        cards.append(card)
    return tuple(cards)


def _made(board: int, calls: Iterable[AuctionItem]) -> Auction:
    """Board ``board``'s auction with ``calls`` made on it."""
    auction = Auction(Board(board).dealer)
    for item in calls:
        auction.make_call(item.call, alert=item.alert)
    return auction


def bid(auction: Auction, deal: Deal,
        judgements: Mapping[Side, int] | None = None) -> list[AuctionItem]:
    """The bots' calls from here to the end of ``auction``, made on it; ``judgements``: the
    points each side adds when valuing its hands (sim.players.field)."""
    calls: list[AuctionItem] = []
    while not auction.is_over:
        seat = auction.turn
        assert seat is not None
        choice = choose_call(auction, sorted(deal[seat]),
                             judgement=(judgements or {}).get(seat.side, 0))
        auction.make_call(choice.call, alert=choice.alert)
        calls.append(AuctionItem(choice.call, choice.alert, choice.meaning if choice.alert
                                 else None))
    return calls


class SimulatedPlayers:
    """Four seeded bots at ``table``: seed 004's system, textbook card play, human pauses
    (scaled by ``speed``; 0 is as fast as the table goes), a director now and then."""

    def __init__(self, table: SimulatedTable, *, seed: int = 0, speed: float = 0.0,
                 director_rate: float = 0.02, claim_rate: float = 0.1,
                 sleep: Callable[[float], None] = time.sleep, irregular: bool = False,
                 variety: float = 0.0) -> None:
        self.table = table
        self.seed = seed
        # With probability ``variety`` (seeded by seed and board) the table's auction departs
        # from the bots' own: passed out, or the final contract doubled. The bots alone bid
        # and play a deal the same at every table; a field's results differ.
        self.variety = variety
        self.irregular = irregular
        self.director_rate = director_rate
        self.claim_rate = claim_rate
        self.players = RecordedPlayers(table, speed=speed, sleep=sleep,
                                       rng=random.Random(f"{seed}:pace"))
        self.director_calls = 0

    def enter_players(self, numbers: dict[Seat, int]) -> None:
        self.players.enter_players(numbers)

    def play_board(self, board: int, deal: Deal, styles: Styles | None = None) -> BoardScript:
        """Bid and play ``board`` through the table to its confirmed result; ``styles``: the
        seated pairs' (sim.players.field), the bots' own without."""
        other = None
        if self.variety > 0:  # the bots' auction alone first: the play follows the one chosen
            own = list(bots_calls(board, deal, styles))
            other = varied(own, random.Random(f"{self.seed}:{board}:variety"), self.variety)
        plan = script(board, deal, seed=self.seed, claim_rate=self.claim_rate,
                      irregular=self.irregular and other is None, calls=other, styles=styles)
        rng = random.Random(f"{self.seed}:{board}:director")
        # With probability director_rate the board has one director call, at a moment of
        # the auction or the play drawn with the same seed.
        moment: int | None = None
        if rng.random() < self.director_rate:
            moment = rng.randrange(len(plan.calls) + len(plan.cards))
        while self.players.step(plan):
            state = self.table.state
            if (moment is not None and state.board is not None
                    and state.phase in (Phase.AUCTION, Phase.LEAD, Phase.PLAY)
                    and len(state.board.auction) + len(state.board.cards) >= moment):
                self.table.press(rng.choice(list(Seat)), "DIR")  # Law 9B1(a)
                self.director_calls += 1
                moment = None
        return plan
