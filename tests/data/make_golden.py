"""Make the golden records in tests/data/ again: ``python -m tests.data.make_golden``.

Every file here is the project's own work, made by its own parts: the deals by the seeded
dealer of the simulation (``sim.players.deal``), the auctions and the play by its four bots
(``sim.players.players.script``, seed 004's system and its card play, claims included), the
results and scores by the laws engine (``laws``), and the text by the engine's PBN and
LIN writers. The same code gives the same bytes: ``tests/sim/test_golden.py`` makes them
again and compares.

- ``pairs.pbn``: boards 11 to 20, each at six tables (a pairs session's travellers with the
  whole auction and play). Some tables claim; a few take a documented detour from the bots'
  bidding so that the file holds what the bots alone seldom bid (``DETOURS``): a passed-out
  board, doubled and redoubled contracts.
- ``travellers.pbn``: boards 1 to 16 (every dealer, every vulnerability) at four tables, the
  results only (contract, declarer, tricks), as a club's travellers are kept.
- ``robots.lin``: boards 1 to 8 with their play in LIN's order and claims (``mc``).
- ``bidding.lin``: boards 1 to 16 with their auctions and results (``mc``), no card played.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from laws import Board, Deal, lin, pbn
from laws.auction import Auction
from laws.calls import DOUBLE, PASS, REDOUBLE, Bid
from laws.play import Play
from laws.records import AuctionItem, Record
from laws.replay import replay
from laws.scoring import score_ns
from sim.players import deal
from sim.players.players import bid, script
from sim.recorded import BoardScript

HERE = Path(__file__).resolve().parent
# One seed a file: each gives the file boards of every kind it is meant to hold.
PAIRS_SEED, TRAVELLERS_SEED, ROBOTS_SEED, BIDDING_SEED = 7, 2026, 2027, 2028
CLAIM_RATE = 0.4
PAIRS_BOARDS = range(11, 21)
PAIRS_TABLES = range(1, 7)

# (board, table) -> what the players there did instead of the bots' auction: every table of
# a real field does not bid alike. "pass": all four pass (Law 22A: the board is passed out);
# "double": the bots' last bid, doubled by the next player and passed out (Law 19A);
# "redouble": the same, redoubled by the doubled side (Law 19B).
DETOURS = {(11, 6): "pass", (13, 5): "double", (15, 2): "redouble", (17, 4): "double",
           (20, 3): "redouble"}

TAGS = {"Event": "bidbox golden records", "Site": "bidbox tests", "Date": "2026.01.17",
        "Scoring": "MP"}


def detour(board: int, kind: str) -> list[AuctionItem]:
    """The auction of a table that took ``kind`` instead of the bots' own."""
    dealt = deal(PAIRS_SEED, board)
    if kind == "pass":
        return [AuctionItem(PASS)] * 4
    calls = bid(Auction(Board(board).dealer), dealt)
    last = max(i for i, item in enumerate(calls) if isinstance(item.call, Bid))
    extra = [DOUBLE] if kind == "double" else [DOUBLE, REDOUBLE]
    return [*calls[:last + 1], *(AuctionItem(c) for c in extra), *[AuctionItem(PASS)] * 3]


def board_script(board: int, table: int) -> BoardScript:
    kind = DETOURS.get((board, table))
    calls = detour(board, kind) if kind else None
    return script(board, deal(PAIRS_SEED, board), seed=table, claim_rate=CLAIM_RATE, calls=calls)


def record_of(played: BoardScript, table: int, *, with_play: bool = True,
              lin_order: bool = False) -> Record:
    """The record of one table's board, its result by the laws engine."""
    number = played.board
    board = Board(number)
    dealt = Deal({seat: frozenset(cards) for seat, cards in played.hands.items()})
    record = Record(tags={**TAGS, "Table": str(table), "Round": "1",
                          **{seat: f"Pair {table} {seat[0]}"
                             for seat in ("North", "East", "South", "West")}},
                    board=number, dealer=board.dealer, vulnerability=board.vulnerability,
                    deal=dealt)
    auction = Auction(board.dealer)
    for item in played.calls:
        auction.make_call(item.call)
    if with_play:
        record.auction = list(played.calls)
        record.auction_dealer = board.dealer
    contract, declarer = auction.contract, auction.declarer
    tricks = None
    if contract is not None and declarer is not None:
        play = Play(contract, declarer, dealt)
        for card in played.cards:
            play.play(card)
        tricks = play.declarer_tricks_played
        if played.claim is not None:
            claimer, rest = played.claim
            assert claimer.side is declarer.side
            tricks += rest
            record.claim = tricks if lin_order else None
        if with_play and lin_order:
            record.play_sequence = list(played.cards)
        elif with_play:
            record.play_leader = declarer.lho  # Law 41A
            record.play = [{seat: card for seat, card in trick.cards}
                           for trick in play.tricks if trick.cards]
    score = score_ns(contract, declarer, tricks, board.vulnerability)
    record.contract_tag = str(contract) if contract is not None else "Pass"
    record.declarer_tag = str(declarer) if declarer is not None else ""
    record.result_tag = str(tricks) if tricks is not None else ""
    record.score_tag = f"NS {score}"
    return record


def pairs() -> list[Record]:
    return [record_of(board_script(board, table), table)
            for board in PAIRS_BOARDS for table in PAIRS_TABLES]


def travellers() -> list[Record]:
    return [record_of(script(board, deal(TRAVELLERS_SEED, board), seed=table,
                             claim_rate=CLAIM_RATE),
                      table, with_play=False)
            for board in range(1, 17) for table in range(1, 5)]


def robots() -> list[Record]:
    return [record_of(script(board, deal(ROBOTS_SEED, board), seed=1, claim_rate=0.5), 1,
                      lin_order=True)
            for board in range(1, 9)]


def bidding() -> list[Record]:
    records = []
    for board in range(1, 17):
        played = script(board, deal(BIDDING_SEED, board), seed=1, claim_rate=0.0)
        record = record_of(played, 1, lin_order=True)
        # No cards: the result alone, as declarer's claim of the whole (LIN mc).
        record.play_sequence = []
        record.claim = int(record.result_tag) if record.result_tag else None
        records.append(record)
    return records


def files() -> Iterator[tuple[str, str]]:
    """Each golden file's name and text."""
    yield "pairs.pbn", pbn.dumps(pairs())
    yield "travellers.pbn", pbn.dumps(travellers())
    yield "robots.lin", lin.dumps(robots())
    yield "bidding.lin", lin.dumps(bidding())


def main() -> int:
    for name, text in files():
        records = (pbn if name.endswith(".pbn") else lin).loads(text)
        bad = [result for result in map(replay, records) if not result.ok]
        assert not bad, f"{name}: {bad[0]}"  # the laws engine accepts every record it made
        (HERE / name).write_text(text)
        print(f"{name}: {len(records)} records")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
