"""The real records in ../shared/data/records: what they hold, and that they round-trip."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from tabled.rules import PASS, Board, Deal, Seat, lin, pbn
from tabled.rules.records import Record

PBN_FILES = ["realbridge-2021-online-qual-r2.pbn", "mixed-events-3-boards.pbn",
             "spingold-2014-shared-deals.pbn", "club-pairs-2013-travellers.pbn"]
LIN_FILES = ["bbo-robots-8-boards.lin"]


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
    assert [str(i.call) + "!" * i.alert for i in cavendish.auction][:6] == [
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


# -- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", PBN_FILES)
def test_pbn_files_round_trip(records_dir: Path, name: str) -> None:
    first = pbn.load_path(records_dir / name)
    text = pbn.dumps(first)
    again = pbn.loads(text)
    assert without_problems(again) == without_problems(first)
    # the writer adds no problem of its own: what remains is what the file said
    assert all(set(b.problems) <= set(a.problems) for a, b in zip(first, again, strict=True))
    assert pbn.dumps(again) == text


@pytest.mark.parametrize("name", PBN_FILES)
def test_pbn_files_read_the_same_from_crlf_lines(records_dir: Path, name: str) -> None:
    data = (records_dir / name).read_bytes()
    text = data.decode()
    as_lines = list(pbn.iter_records(text.replace("\r\n", "\n").replace("\n", "\r\n")
                                     .splitlines(keepends=True)))
    assert as_lines == pbn.loads(data)


@pytest.mark.parametrize("name", LIN_FILES)
def test_lin_files_round_trip(records_dir: Path, name: str) -> None:
    first = lin.loads((records_dir / name).read_bytes())
    text = lin.dumps(first)
    assert lin.loads(text) == first
    assert len(text.splitlines()) == len(first)


def test_lin_records_go_out_as_pbn(records_dir: Path) -> None:
    records = lin.loads((records_dir / "bbo-robots-8-boards.lin").read_bytes())
    again = pbn.loads(pbn.dumps(records))
    for a, b in zip(records, again, strict=True):
        assert (b.board, b.dealer, b.vulnerability, b.deal) == (a.board, a.dealer,
                                                                a.vulnerability, a.deal)
        assert b.auction == a.auction and b.notes == a.notes
        assert b.play_sequence == []  # PBN's play needs the seats, which the engine decides


def test_pbn_records_go_out_as_lin(records_dir: Path) -> None:
    records = pbn.load_path(records_dir / "realbridge-2021-online-qual-r2.pbn")
    again = lin.loads(lin.dumps(records))
    assert len(again) == len(records)
    for a, b in zip(records, again, strict=True):
        assert (b.board, b.dealer, b.vulnerability, b.deal) == (a.board, a.dealer,
                                                                a.vulnerability, a.deal)
        assert [(i.call, i.alert, i.note) for i in b.auction] == [
            (i.call, i.alert, i.note) for i in a.auction]
        assert isinstance(b.deal, Deal)
