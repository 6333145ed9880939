"""Replay a record through the engine: every call and card checked against the Laws.

The reader gives the record's raw facts (:class:`~laws.records.Record`); this module
asks the auction and the play whether they were legal, and whether the record's parts (the
auction, the Contract and Declarer tags, the opening leader, the play, the Result) agree.
Nothing here raises for a bad record: every disagreement becomes a problem on the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .auction import Auction
from .board import Board, Deal, Vulnerability
from .calls import Contract, format_contract, parse_contract
from .cards import Card, Seat
from .errors import IllegalActionError, RulesError
from .play import Play
from .records import Record
from .scoring import score_ns


@dataclass
class ReplayResult:
    """One table result as the engine sees it."""

    file: str
    index: int
    board: int | None
    contract: str | None
    declarer: str | None
    tricks: int | None
    score_ns: int | None
    problems: list[str] = field(default_factory=list)
    lead: str | None = None
    vulnerability: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "index": self.index, "board": self.board,
                "contract": self.contract, "declarer": self.declarer, "tricks": self.tricks,
                "score_ns": self.score_ns, "ok": self.ok, "problems": list(self.problems)}


@dataclass
class _Outcome:
    contract: Contract | None = None
    declarer: Seat | None = None
    passed_out: bool = False
    known: bool = False  # whether the contract is known at all


def replay(record: Record, file: str = "") -> ReplayResult:
    """Replay one record; never raises for what is in the record."""
    result = ReplayResult(file, record.source_index, record.board, None, None, None, None,
                          problems=list(record.problems))
    try:
        _replay(record, result)
    except RulesError as error:  # a malformed fact the reader let through
        result.problems.append(f"unreadable: {error}")
    return result


def _vulnerability(record: Record) -> Vulnerability | None:
    if record.vulnerability is not None:
        return record.vulnerability
    return Board(record.board).vulnerability if record.board else None


def _dealer(record: Record, problems: list[str]) -> Seat | None:
    dealer = record.dealer
    if record.auction_dealer is not None:
        if dealer is not None and record.auction_dealer is not dealer:
            problems.append(f"the Auction tag starts with {record.auction_dealer} but the "
                            f"Dealer tag says {dealer} (Law 17B)")
        return record.auction_dealer
    if dealer is None and record.board:
        dealer = Board(record.board).dealer
    return dealer


def _replay(record: Record, result: ReplayResult) -> None:
    problems = result.problems
    vulnerability = _vulnerability(record)
    result.vulnerability = None if vulnerability is None else str(vulnerability)
    outcome = _contract(record, problems)
    result.contract = format_contract(outcome.contract) if outcome.known else None
    result.declarer = None if outcome.declarer is None else str(outcome.declarer)
    if outcome.passed_out:
        result.tricks = None
        result.score_ns = 0  # Law 77: a passed-out board scores nothing
        if record.play or record.play_sequence or (record.result_tag or "").strip():
            problems.append("the board was passed out but the record has a play or a Result")
        return
    if outcome.contract is None or outcome.declarer is None:
        if not problems:
            problems.append("no contract: neither an auction nor Contract and Declarer tags")
        return
    tricks = _tricks(record, outcome.contract, outcome.declarer, result)
    result.tricks = tricks
    if tricks is not None and vulnerability is not None:
        result.score_ns = score_ns(outcome.contract, outcome.declarer, tricks, vulnerability)
    elif tricks is not None:
        problems.append("no vulnerability: neither a Vulnerable tag nor a board number")


def _contract(record: Record, problems: list[str]) -> _Outcome:
    """The contract from the auction when there is one, checked against the tags."""
    tagged = _tagged_contract(record, problems)
    if not record.auction:
        return tagged
    dealer = _dealer(record, problems)
    if dealer is None:
        problems.append("the auction has no dealer")
        return tagged
    auction = Auction(dealer)
    for i, item in enumerate(record.auction):
        try:
            auction.make_call(item.call, alert=item.alert, explanation=item.note)
        except IllegalActionError as error:
            problems.append(f"call {i + 1} ({auction.seat_at(len(auction))} {item.call}): "
                            f"{error}")
            return tagged
    if not auction.is_over:
        problems.append(f"the auction is not finished after {len(auction)} calls (Law 22A)")
        return tagged
    outcome = _Outcome(auction.contract, auction.declarer, auction.is_passed_out, True)
    if tagged.known and (tagged.contract, tagged.declarer) != (outcome.contract,
                                                               outcome.declarer):
        problems.append(
            f"the auction gives {_describe(outcome)} but the Contract and Declarer tags say "
            f"{_describe(tagged)}")
    return outcome


def _describe(outcome: _Outcome) -> str:
    if outcome.passed_out or outcome.contract is None:
        return "a pass-out"
    return f"{outcome.contract} by {outcome.declarer if outcome.declarer else '?'}"


def _tagged_contract(record: Record, problems: list[str]) -> _Outcome:
    text = (record.contract_tag or "").strip()
    if not text:
        return _Outcome()
    try:
        contract = parse_contract(text)
    except RulesError:
        problems.append(f"the Contract tag {text!r} is not a contract")
        return _Outcome()
    if contract is None:
        return _Outcome(passed_out=True, known=True)
    declarer: Seat | None = None
    if record.declarer_tag:
        try:
            declarer = Seat.from_str(record.declarer_tag.lstrip("^"))
        except RulesError:
            problems.append(f"the Declarer tag {record.declarer_tag!r} is not a seat")
    return _Outcome(contract, declarer, False, True)


def _result_tag(record: Record, problems: list[str]) -> int | None:
    text = (record.result_tag or "").strip()
    if not text:
        return None
    try:
        tricks = int(text)
    except ValueError:
        problems.append(f"the Result tag {text!r} is not a number of tricks")
        return None
    if not 0 <= tricks <= 13:
        problems.append(f"the Result tag {tricks} is not between 0 and 13")
        return None
    return tricks


def _tricks(record: Record, contract: Contract, declarer: Seat,
            result: ReplayResult) -> int | None:
    """Declarer's tricks: from a complete play, else the Result tag or a claim."""
    problems = result.problems
    stated = _result_tag(record, problems)
    if stated is None and record.claim is not None:
        stated = record.claim
    deal = record.deal
    play = Play(contract, declarer, deal, accept_revokes=True)
    leader = record.play_leader
    if leader is not None and leader is not declarer.lho and record.play:
        problems.append(f"the opening lead is {leader}'s but the defender on declarer's left "
                        f"is {declarer.lho} (Law 41A)")
        return stated
    played = _play_cards(record, play, deal, problems)
    if played and play.tricks and play.tricks[0].cards:
        result.lead = str(play.tricks[0].cards[0][1])
    for revoke in play.revokes:
        problems.append(f"{revoke.seat} revoked on trick {revoke.trick + 1}: played "
                        f"{revoke.card} holding {revoke.suit.name} (Law 61, 64)")
    if play.is_over:
        tricks = play.declarer_tricks()
        if stated is not None and stated != tricks:
            problems.append(f"the Result says {stated} tricks but the play gives {tricks}")
        return tricks
    if stated is not None and played:
        won = play.declarer_tricks_played
        lost = len(play.completed_tricks) - won
        if not won <= stated <= 13 - lost:
            problems.append(f"the Result says {stated} tricks but declarer had already won "
                            f"{won} and lost {lost} when the play stops")
    if stated is None:
        problems.append("no result: the play is not complete and there is no Result tag")
    return stated


def _play_cards(record: Record, play: Play, deal: Deal | None, problems: list[str]) -> bool:
    """Feed the record's cards to the play; False when it has none."""
    if record.play:
        return _play_columns(record.play, play, problems)
    if record.play_sequence:
        for number, card in enumerate(record.play_sequence, 1):
            if not _play_one(play, card, None, number, problems):
                break
        return True
    return False


def _play_columns(tricks: Sequence[Mapping[Seat, Card]], play: Play,
                  problems: list[str]) -> bool:
    """PBN's play section: each row has each seat's card to that trick; the order within
    the trick follows from who led it (Law 44G)."""
    number = 0
    for index, row in enumerate(tricks):
        if play.is_over:
            if any(row.values()):
                problems.append("cards after the end of the play")
            break
        seats = Seat.clockwise_from(play.current.leader)
        for position, seat in enumerate(seats):
            card = row.get(seat)
            if card is None:
                # The play stops here (a claim, or a truncated record); a card after the
                # gap cannot be placed in the play.
                stranded = (sum(1 for s in seats[position + 1:] if s in row)
                            + sum(len(r) for r in tricks[index + 1:]))
                if stranded:
                    problems.append(f"{stranded} cards after the gap in trick {index + 1} "
                                    "are not part of the play")
                return True
            number += 1
            if not _play_one(play, card, seat, number, problems):
                return True
    return True


def _play_one(play: Play, card: Card, seat: Seat | None, number: int,
              problems: list[str]) -> bool:
    try:
        play.play(card, seat)
    except IllegalActionError as error:
        problems.append(f"card {number} ({card}): {error}")
        return False
    return True
