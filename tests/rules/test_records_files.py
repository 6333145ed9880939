"""The records files: what each holds, and that they round-trip.

The real records in ../shared/data/records when they are beside the checkout, and always the
golden set the project made for itself in tests/data (tests/data/make_golden.py)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from laws import PASS, Board, Deal, Seat, lin, pbn
from laws.calls import Doubling, parse_contract
from laws.pbn.writer import SUFFIX_NAGS
from laws.records import Record
from laws.replay import replay
from tests.records import GOLDEN, SHARED


def present(real: list[str], golden: list[str]) -> list[Any]:
    """The real files that are here, then the golden ones, each named by its file."""
    paths = [SHARED / name for name in real if (SHARED / name).is_file()]
    paths += [GOLDEN / name for name in golden]
    return [pytest.param(path, id=path.name) for path in paths]


PBN_FILES = present(["realbridge-2021-online-qual-r2.pbn", "mixed-events-3-boards.pbn",
                     "spingold-2014-shared-deals.pbn", "club-pairs-2013-travellers.pbn"],
                    ["pairs.pbn", "travellers.pbn"])
LIN_FILES = present(["bbo-robots-8-boards.lin"], ["robots.lin", "bidding.lin"])
PLAYED_PBN_FILES = present(["realbridge-2021-online-qual-r2.pbn"], ["pairs.pbn"])


def without_problems(records: list[Record]) -> list[Record]:
    return [dataclasses.replace(record, problems=[]) for record in records]


# -- what each file holds --------------------------------------------------------------------


def test_realbridge(records_dir: Path) -> None:
    records = pbn.load_path(records_dir / "realbridge-2021-online-qual-r2.pbn")
    assert len(records) == 299
    assert sum(1 for r in records if r.auction) == 279
    assert sum(1 for r in records if r.play) == 278
    assert all(r.auction_complete for r in records if r.auction)
    assert Counter(r.board for r in records) == {**{b: 30 for b in range(11, 20)}, 20: 29}
    assert sum(len(r.notes) for r in records) == 432
    assert all(item.note for r in records for item in r.auction if item.note_ref is not None)
    # passed out: one auction of four passes, and twenty tables of dummies with no auction
    assert sum(1 for r in records if r.auction and set(r.calls) == {PASS}) == 1
    no_auction = [r for r in records if not r.auction]
    assert len(no_auction) == 20 and {r.contract_tag for r in no_auction} == {"Pass"}
    assert all("Dummy" in r.tags["North"] + r.tags["West"] for r in no_auction)
    assert sum(1 for r in records if r.score_tag is not None) == 279
    assert Counter(len(r.play) for r in records)[13] == 64
    assert all(r.deal is not None and r.deal.is_complete_for_play for r in records)
    assert all(len(r.sections["OptimumResultTable"]) == 20 for r in records)
    assert all(r.problems == [] for r in records)


def test_club_pairs(records_dir: Path) -> None:
    records = pbn.load_path(records_dir / "club-pairs-2013-travellers.pbn")
    assert len(records) == 351
    assert Counter(r.board for r in records) == {b: 13 for b in range(1, 28)}
    assert all(r.auction == [] and r.play == [] for r in records)
    assert all(r.contract_tag and r.declarer_tag and r.result_tag for r in records)
    assert all(r.tags["West"] == r.tags["East"] for r in records)  # pairs, not players
    assert all(r.problems == [] for r in records)


def test_spingold_second_tables_inherit_the_board(records_dir: Path) -> None:
    records = pbn.load_path(records_dir / "spingold-2014-shared-deals.pbn")
    assert [(r.board, r.tags["West"], r.contract_tag) for r in records] == [
        (62, "Brogeland", "6C"), (62, "Nunes", "6SX"), (7, "Helgemo", "6N"),
        (7, "Zia", "6C")]
    for first, second in (records[0:2], records[2:4]):
        assert second.deal == first.deal and second.deal is not None
        assert (second.dealer, second.vulnerability) == (first.dealer, first.vulnerability)
        assert second.tags["Event"] == first.tags["Event"] == "Spingold"
        assert second.tags["Stage"] == first.tags["Stage"]
    assert [len(r.play) for r in records] == [4, 6, 1, 4]  # play sections cut short
    assert records[2].play == [{Seat.N: records[2].play[0][Seat.N]}]  # "HQ - - -"
    assert all(r.auction_complete and r.problems == [] for r in records)


def test_mixed_events(records_dir: Path) -> None:
    cavendish, cap_gemini, bermuda = pbn.load_path(records_dir / "mixed-events-3-boards.pbn")
    # "2C!" is the suffix annotation "good call" (PBN 3.5.3), kept with the NAGs
    assert [str(i.call) + "".join(i.nags) for i in cavendish.auction][:6] == [
        "1H", "Pass", "1S", "Pass", "2C!", "Pass"]
    assert cavendish.notes == {1: "0-4 !ss", 2: "less than 8 points", 3: "17+ with 4 !S"}
    assert cavendish.play[-1] == {Seat.W: cavendish.play[-1][Seat.W]}  # "-  -  -  S6"
    # commentary that nests braces, and an escape that is not one inside it
    assert len(cap_gemini.commentary) == 1
    assert cap_gemini.commentary[0].endswith("{Your host for this match, John Carruthers}")
    assert "Muller\\\\'s" in cap_gemini.commentary[0]
    # "#" reaches back past a game without the tag (PBN 4.8)
    assert bermuda.tags["Scoring"] == "IMP;Cross"
    assert bermuda.problems == [
        "line 116: '--' read as '-' (no card)", "line 116: '--' read as '-' (no card)",
        "call 2NT refers to note 0, which the record does not give",
        "call 3H refers to note 0, which the record does not give"]
    assert cavendish.problems == [] and cap_gemini.problems == []


def test_bbo_robots(records_dir: Path) -> None:
    records = lin.loads((records_dir / "bbo-robots-8-boards.lin").read_bytes())
    assert [r.board for r in records] == list(range(1, 9))
    # the dealer and vulnerability of each board follow the standard cycle
    cycle = [(Board(n).dealer, Board(n).vulnerability) for n in range(1, 9)]
    assert [(r.dealer, r.vulnerability) for r in records] == cycle
    assert all(r.deal is not None and r.deal.is_complete_for_play for r in records)
    assert [r.claim for r in records] == [None, None, 9, None, None, None, 11, None]
    assert [len(r.play_sequence) for r in records] == [52, 52, 44, 52, 52, 52, 44, 52]
    assert [sum(i.alert for i in r.auction) for r in records] == [1, 0, 1, 0, 0, 0, 0, 1]
    assert sum(len(r.notes) for r in records) == 30
    assert all(r.auction_complete and r.problems == [] for r in records)


# -- what each golden file holds (tests/data/make_golden.py) ------------------------------------


def played_cards(record: Record) -> int:
    return sum(len(trick) for trick in record.play)


def test_golden_pairs() -> None:
    records = pbn.load_path(GOLDEN / "pairs.pbn")
    assert len(records) == 60
    assert Counter(r.board for r in records) == {b: 6 for b in range(11, 21)}
    assert all(r.auction_complete and r.problems == [] for r in records)
    assert all(r.deal is not None and r.deal.is_complete_for_play for r in records)
    # every dealer and every vulnerability (boards 11 to 20)
    assert {r.dealer for r in records} == set(Seat)
    assert {str(r.vulnerability) for r in records} == {"None", "NS", "EW", "Both"}
    contracts = [parse_contract(r.contract_tag or "") for r in records]
    # passed out once (four passes, no play), doubled twice, redoubled twice
    passed = [r for r, c in zip(records, contracts, strict=True) if c is None]
    assert [(r.board, r.tags["Table"], set(r.calls), r.play) for r in passed] == [
        (11, "6", {PASS}, [])]
    assert Counter(c.doubling for c in contracts if c is not None) == {
        Doubling.UNDOUBLED: 55, Doubling.DOUBLED: 2, Doubling.REDOUBLED: 2}
    # claims: the play stops short and the Result tag gives the tricks
    claimed = [r for r in records if r.play and played_cards(r) < 52]
    assert len(claimed) == 14 and all(r.result_tag for r in claimed)
    assert sum(1 for r in records if played_cards(r) == 52) == 45
    # alerted calls carry their meaning as a note
    assert sum(len(r.notes) for r in records) == 29
    assert all(item.note for r in records for item in r.auction if item.alert)
    assert all(r.score_tag is not None and r.tags["Table"] for r in records)


def test_golden_travellers() -> None:
    records = pbn.load_path(GOLDEN / "travellers.pbn")
    assert len(records) == 64
    assert Counter(r.board for r in records) == {b: 4 for b in range(1, 17)}
    assert all(r.auction == [] and r.play == [] for r in records)
    # the standard cycle: every dealer and every vulnerability, four boards each
    assert [(r.dealer, r.vulnerability) for r in records[::4]] == [
        (Board(n).dealer, Board(n).vulnerability) for n in range(1, 17)]
    assert Counter(r.contract_tag == "Pass" for r in records)[True] == 8
    assert all(r.contract_tag and r.result_tag for r in records if r.contract_tag != "Pass")
    assert all(r.problems == [] for r in records)


def test_golden_lin_with_play() -> None:
    records = lin.loads((GOLDEN / "robots.lin").read_bytes())
    assert [r.board for r in records] == list(range(1, 9))
    cycle = [(Board(n).dealer, Board(n).vulnerability) for n in range(1, 9)]
    assert [(r.dealer, r.vulnerability) for r in records] == cycle
    assert all(r.deal is not None and r.deal.is_complete_for_play for r in records)
    assert [r.claim for r in records] == [None, None, 11, None, None, None, None, 11]
    assert [len(r.play_sequence) for r in records] == [52, 52, 32, 52, 52, 52, 52, 48]
    assert [sum(i.alert for i in r.auction) for r in records] == [1, 0, 0, 2, 0, 1, 1, 1]
    assert sum(len(r.notes) for r in records) == 6
    assert all(r.auction_complete and r.problems == [] for r in records)


def test_golden_lin_without_play() -> None:
    records = lin.loads((GOLDEN / "bidding.lin").read_bytes())
    assert [r.board for r in records] == list(range(1, 17))
    assert all(r.play_sequence == [] and r.auction_complete for r in records)
    # the result as a claim of the whole (mc) with no card played; the passed-out board none
    assert [r.claim is None for r in records].count(True) == 1
    assert [replay(r).contract for r in records][11] == "Pass"
    assert all(replay(r).ok for r in records)


# -- round trips -----------------------------------------------------------------------------


def exported(records: list[Record]) -> list[Record]:
    """The records as PBN export format states them: suffix annotations as NAGs (3.5.3)."""
    return [dataclasses.replace(record, auction=[
        dataclasses.replace(item, nags=tuple(SUFFIX_NAGS.get(n, n) for n in item.nags))
        for item in record.auction]) for record in records]


@pytest.mark.parametrize("path", PBN_FILES)
def test_pbn_files_round_trip(path: Path) -> None:
    first = pbn.load_path(path)
    text = pbn.dumps(first)
    again = pbn.loads(text)
    assert without_problems(again) == without_problems(exported(first))
    # the writer adds no problem of its own: what remains is what the file said
    assert all(set(b.problems) <= set(a.problems) for a, b in zip(first, again, strict=True))
    assert pbn.dumps(again) == text


@pytest.mark.parametrize("path", PBN_FILES)
def test_pbn_files_read_the_same_from_crlf_lines(path: Path) -> None:
    data = path.read_bytes()
    text = data.decode()
    as_lines = list(pbn.iter_records(text.replace("\r\n", "\n").replace("\n", "\r\n")
                                     .splitlines(keepends=True)))
    assert as_lines == pbn.loads(data)


@pytest.mark.parametrize("path", LIN_FILES)
def test_lin_files_round_trip(path: Path) -> None:
    first = lin.loads(path.read_bytes())
    text = lin.dumps(first)
    assert lin.loads(text) == first
    assert len(text.splitlines()) == len(first)


@pytest.mark.parametrize("path", LIN_FILES)
def test_lin_records_go_out_as_pbn(path: Path) -> None:
    records = lin.loads(path.read_bytes())
    again = pbn.loads(pbn.dumps(records))
    for a, b in zip(records, again, strict=True):
        assert (b.board, b.dealer, b.vulnerability, b.deal) == (a.board, a.dealer,
                                                                a.vulnerability, a.deal)
        # An alert goes out as a note saying so (PBN 3.5.4), the explanation after it.
        assert [(i.call, i.note) for i in b.auction] == [
            (i.call, f"Alert: {i.note}" if i.alert and i.note else "Alert" if i.alert
             else i.note) for i in a.auction]
        assert not any(i.alert for i in b.auction)
        assert b.play_sequence == []  # PBN's play needs the seats, which the engine decides


@pytest.mark.parametrize("path", PLAYED_PBN_FILES)
def test_pbn_records_go_out_as_lin(path: Path) -> None:
    records = pbn.load_path(path)
    again = lin.loads(lin.dumps(records))
    assert len(again) == len(records)
    for a, b in zip(records, again, strict=True):
        assert (b.board, b.dealer, b.vulnerability, b.deal) == (a.board, a.dealer,
                                                                a.vulnerability, a.deal)
        assert [(i.call, i.alert, i.note) for i in b.auction] == [
            (i.call, i.alert, i.note) for i in a.auction]
        assert isinstance(b.deal, Deal)
