"""Exports: real records played through ingest, then written as PBN, USEBIO and CSV.

Each table's events are made from a real record (the calls, the partner's alerts, the cards as
the hands played them, a claim where the record's play stops, the result), published as the
table would publish them and stored by ``server.link.ingest``. The PBN export must read back with
no problems and replay to the record's own contract, tricks and score.
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from laws import Board, Call, Card, Seat, parse_contract
from laws.auction import Auction
from laws.pbn import load_path, loads
from laws.play import Play
from laws.records import Record
from laws.replay import ReplayResult, replay
from server.link.director_calls import correct_result
from server.link.ingest import Ingest
from server.link.rounds import create_session
from server.outputs import publish
from server.outputs.exports import (
    CSV_COLUMNS,
    ExportError,
    board_record,
    csv_text,
    pbn,
)
from server.outputs.usebio import DOCTYPE, usebio
from server.scoring import adjusted
from server.scoring.standings import all_results, field
from server.setup.session import Session, participants_of, set_names
from server.storage import schema as s
from server.storage.db import Database
from tablemodel.wire import Event, table_topic
from tests.records import played_pbn
from tests.server import usebio_read

EVENT = "test"
FIRST_BOARD = 11  # the file's boards are 11 to 20 (the qualifier's and the golden pairs')
SMITH = "Smith <Sons> \"Q\" & O'Brien"  # a name to escape in XML
NOON = 1_699_963_200.0  # 2023-11-14 12:00 UTC: the 14th from UTC-11 to UTC+11


@dataclass
class Played:
    db: Database
    session: Session
    sources: dict[tuple[int, int], Record]  # (table, board) -> the record played there
    expected: dict[tuple[int, int], ReplayResult]
    changed: tuple[int, int]  # the table and board with a change of call and a take-back


class TableEvents:
    """One table's journal as it publishes it: numbered events, through ingest."""

    def __init__(self, ingest: Ingest, table: int, event: str = EVENT) -> None:
        self.ingest = ingest
        self.table = table
        self.event = event
        self.seq = 0

    def __call__(self, kind: str, board: int | None, /, **data: Any) -> None:
        self.seq += 1
        event = Event(self.seq, kind, NOON + self.seq, board, data)
        outcome = self.ingest(table_topic(self.event, self.table, "events"), event.to_payload())
        assert outcome.rejected is None, outcome.rejected
        assert outcome.stored == 1


def cards_played(record: Record, play: Play) -> Iterator[tuple[Seat, Card]]:
    """The record's cards in the order played, with the hand each came from (Law 44G)."""
    for row in record.play:
        for seat in Seat.clockwise_from(play.current.leader):
            card = row.get(seat)
            if card is None or play.is_over:
                return
            yield play.play(card).seat, card


def play_board(send: TableEvents, record: Record, expected: ReplayResult, *,
               change_and_take_back: bool = False) -> None:
    """What the table sends for one board of ``record``: a call with a note is alerted by
    partner; with ``change_and_take_back`` the dealer first makes an unintended call and
    changes it (Law 25A), and the second call is a wrong one the director takes back."""
    number = record.board
    assert number is not None and record.deal is not None
    board = Board(number)
    send("board", number, board=number, dealer=str(board.dealer), vul=str(board.vulnerability))
    auction = Auction(board.dealer)
    for index, item in enumerate(record.auction):
        seat = auction.seat_at(index)
        if change_and_take_back and index < 2:
            wrong = next(c for c in auction.legal_calls() if c != item.call)
            send("call", number, seat=str(seat), call=str(wrong))
            if index == 0:
                send("change", number, seat=str(seat), call=str(item.call))  # Law 25A
            else:
                send("ruling", number, cmd="take-back-1", kind="take_back", calls=1)
                send("call", number, seat=str(seat), call=str(item.call))
        else:
            send("call", number, seat=str(seat), call=str(item.call))
        auction.make_call(item.call)
        if item.note is not None or item.alert:
            send("alert", number, seat=str(seat.partner), index=index)
    if auction.is_passed_out:
        send("result", number, contract="Pass", declarer=None, tricks=None, score_ns=0)
    else:
        contract, declarer = auction.contract, auction.declarer
        assert contract is not None and declarer is not None
        play = Play(contract, declarer, record.deal)
        for seat, card in cards_played(record, play):
            send("card", number, seat=str(seat), card=str(card))
        if not play.is_over:
            assert expected.tricks is not None
            send("claim", number, seat=str(declarer),
                 tricks=expected.tricks - play.declarer_tricks_played)
            for defender in (declarer.lho, declarer.rho):
                send("claim_answer", number, seat=str(defender), agree=True)
        send("result", number, contract=expected.contract, declarer=expected.declarer,
             tricks=expected.tricks, score_ns=expected.score_ns)
    send("confirm", number, seat="N")
    send("confirm", number, seat="E")


def chosen(records: list[Record], board: int) -> list[tuple[Record, ReplayResult]]:
    """Three records of ``board`` for three tables: a play to the end when the file has one,
    a claim, and another; the first board's third is passed out."""
    mine = [(r, replay(r)) for r in records if r.board == board]
    mine = [(r, res) for r, res in mine if res.ok]
    passed = [x for x in mine if x[1].contract == "Pass"]
    played = [x for x in mine if x[1].contract != "Pass"]
    whole = [x for x in played if len(x[0].play) == 13 and all(len(t) == 4 for t in x[0].play)]
    claimed = [x for x in played if len(x[0].play) < 13 or any(len(t) < 4 for t in x[0].play)]
    ordered = whole[:1] + claimed[:1] + (passed[:1] if board == FIRST_BOARD else [])
    return (ordered + whole[1:] + claimed[1:])[:3]


@pytest.fixture(scope="module")
def realbridge() -> list[Record]:
    """The real qualifier, or without ../shared the golden pairs session."""
    return load_path(played_pbn())


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    database = Database(str(tmp_path_factory.mktemp("exports") / "bidbox.db"))
    database.upgrade()
    yield database
    database.dispose()


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Database]:
    """A database of one's own, for a test that sets up its own session."""
    database = Database(str(tmp_path / "bidbox.db"))
    database.upgrade()
    yield database
    database.dispose()


@pytest.fixture(scope="module")
def played(db: Database, realbridge: list[Record]) -> Played:
    """One session of 18 results, played once for the module: the exports only read it."""
    deals = {r.board: r.deal.to_pbn() for r in realbridge if r.board and r.deal}
    session = create_session(db, event=EVENT, title="Club", kind="mitchell", participants=6,
                             boards_per_round=2, first_board=FIRST_BOARD, deals=deals,
                             clock=lambda: NOON)
    set_names(db, session, {1: "Ana Ruiz & Luis Gil", 5: SMITH})
    changed = (1, FIRST_BOARD)
    sources, expected = play_session(Ingest(db, EVENT, clock=lambda: NOON), session,
                                     realbridge, changed)
    assert len(all_results(db, session)) == len(expected) == 18
    return Played(db, session, sources, expected, changed)


def play_session(ingest: Ingest, session: Session, records: list[Record],
                 changed: tuple[int, int] | None = None
                 ) -> tuple[dict[tuple[int, int], Record], dict[tuple[int, int], ReplayResult]]:
    """Every table plays its boards of every round from ``records`` (three records of each
    board, ``chosen``), card by card through ``ingest``; at ``changed`` (table, board) the
    dealer changes a call and the director takes one back. The record and the result of
    each (table, board)."""
    tables = {t: TableEvents(ingest, t) for t in range(1, session.tables + 1)}
    picks = {board: chosen(records, board) for board in session.plan.boards()}
    sources: dict[tuple[int, int], Record] = {}
    expected: dict[tuple[int, int], ReplayResult] = {}
    for number in range(1, session.rounds + 1):
        for seating in session.plan.round(number):
            send = tables[seating.table]
            send("assign", None, cmd=f"assign-r{number}-t{seating.table}", round=number,
                 ns=seating.ns, ew=seating.ew, boards=list(seating.boards))
            for board in seating.boards:
                record, result = picks[board][seating.table - 1]
                play_board(send, record, result,
                           change_and_take_back=(seating.table, board) == changed)
                sources[(seating.table, board)] = record
                expected[(seating.table, board)] = result
    return sources, expected


# -- PBN -----------------------------------------------------------------------------------------

def where(game: Record) -> tuple[int, int]:
    """The table and board of an exported game."""
    assert game.tags["Table"].isdigit() and game.board is not None
    return int(game.tags["Table"]), game.board


def exported(played: Played) -> dict[tuple[int, int], Record]:
    return {where(game): game for game in loads(pbn(played.db, played.session))}


def test_pbn_reads_back_and_replays_to_every_tables_result(played: Played) -> None:
    games = loads(pbn(played.db, played.session))
    assert len(games) == len(played.expected)
    for game in games:
        # Neither the reader nor the fold of the events found anything wrong.
        assert game.problems == [] and game.commentary == []
        key = where(game)
        want = played.expected[key]
        got = replay(game)
        assert got.problems == [], (key, got.problems)
        assert (got.contract, got.declarer, got.tricks, got.score_ns) == (
            want.contract, want.declarer, want.tricks, want.score_ns), key
        assert game.tags["Score"] == f"NS {want.score_ns}"


def test_pbn_carries_the_tables_auction_with_alerts_and_its_play(played: Played) -> None:
    games = exported(played)
    for key, source in played.sources.items():
        game = games[key]
        assert game.calls == source.calls, key
        # The partner alerted each call the record explains: a note that says so (PBN
        # 3.5.4), never the suffix "!" (which PBN reads as "good call", 3.5.3).
        assert [(i.note or "").startswith("Alert") for i in game.auction] == [
            i.note is not None for i in source.auction]
        assert not any(i.alert or i.nags for i in game.auction)
        assert game.deal == source.deal
        assert (game.dealer, game.vulnerability) == (source.dealer, source.vulnerability)
        # The play as far as it went: the same cards, trick by trick, in PBN's columns.
        assert len(game.play) <= len(source.play)
        for mine, theirs in zip(game.play, source.play, strict=False):
            assert mine.items() <= theirs.items(), key
            assert len(mine) < 4 or mine == theirs, key
        if source.play:
            assert game.play_leader is source.play_leader


def test_pbn_passed_out_and_claimed_boards(played: Played) -> None:
    games = exported(played)
    passed = [k for k, r in played.expected.items() if r.contract == "Pass"]
    assert passed
    for key in passed:
        game = games[key]
        assert (game.contract_tag, game.declarer_tag, game.result_tag) == ("Pass", "", "")
        assert game.play == [] and len(game.calls) == 4
    claimed = [k for k, r in played.sources.items()
               if r.play and sum(len(t) for t in r.play) < 52]
    assert claimed
    for key in claimed:
        game = games[key]
        # The play stops at the claim; the Result tag is the claim's tricks.
        assert game.result_tag == str(played.expected[key].tricks)
        assert sum(len(t) for t in game.play) < 52


def test_pbn_folds_a_change_of_call_and_a_take_back(played: Played) -> None:
    games = exported(played)
    game = games[played.changed]
    assert game.calls == played.sources[played.changed].calls
    assert replay(game).ok


def test_pbn_identification_tags(played: Played) -> None:
    games = loads(pbn(played.db, played.session))
    participants = participants_of(played.db, played.session)
    rows = {(r.table, r.board): r for r in all_results(played.db, played.session)}
    for game in games:
        row = rows[where(game)]
        assert game.tags["Event"] == "Club"
        assert game.tags["Date"] == "2023.11.14"
        assert game.tags["Round"] == str(row.round)
        assert game.tags["Scoring"] == "MP"
        assert row.ns_pair is not None and row.ew_pair is not None
        if row.ns_pair == 1:
            assert (game.tags["North"], game.tags["South"]) == ("Ana Ruiz", "Luis Gil")
        else:
            label = participants[row.ns_pair].label
            assert game.tags["North"] == game.tags["South"] == label
        if row.ew_pair == 5:
            assert (game.tags["East"], game.tags["West"]) == ('Smith <Sons> "Q"', "O'Brien")
        else:
            assert game.tags["East"] == game.tags["West"] == participants[row.ew_pair].label
        assert game.tags["ScoreMP"].startswith("NS ")


# -- the fold of a board's events --------------------------------------------------------------

def _events(*items: tuple[str, dict[str, Any]], board: int = 1) -> list[Event]:
    return [Event(seq, kind, 0.0, board, data) for seq, (kind, data) in enumerate(items, 1)]


def _call(seat: str, call: str) -> tuple[str, dict[str, Any]]:
    return "call", {"seat": seat, "call": call}


@pytest.mark.parametrize(("events", "calls"), [
    # Law 25A: N's unintended 1H becomes 1S; E's call over it goes with it (Law 25A4).
    ([_call("N", "1H"), _call("E", "Pass"), ("change", {"seat": "N", "call": "1S"}),
      _call("E", "2C")], ["1S", "2C"]),
    # Laws 36A, 39A: the director takes the auction back to the first two calls.
    ([_call("N", "1H"), _call("E", "X"), _call("S", "XX"),
      ("ruling", {"cmd": "c", "kind": "take_back", "calls": 2}), _call("S", "2H")],
     ["1H", "X", "2H"]),
    # Law 28A: W must pass, so N's call at W's turn is in rotation, after W's pass.
    ([_call("N", "Pass"), _call("E", "1C"), _call("S", "Pass"),
      ("ruling", {"cmd": "c", "kind": "require_pass", "seat": "W", "law": "31"}),
      _call("N", "1D")], ["Pass", "1C", "Pass", "Pass", "1D"]),
    # The board put on the table again starts the auction afresh.
    ([_call("N", "1H"), ("board", {"board": 1, "dealer": "N", "vul": "None"}),
      _call("N", "1C")], ["1C"]),
])
def test_the_fold_of_the_auction(events: list[tuple[str, dict[str, Any]]],
                                 calls: list[str]) -> None:
    record = board_record(_events(*events))
    assert record.calls == [Call.from_str(c) for c in calls]
    assert record.problems == []


_ONE_NT_BY_N = [_call("N", "1NT"), _call("E", "Pass"), _call("S", "Pass"), _call("W", "Pass")]


def test_alerts_and_undone_cards() -> None:
    events = _events(*_ONE_NT_BY_N, ("alert", {"seat": "S", "index": 0}),
                     ("card", {"seat": "E", "card": "S2"}), ("card", {"seat": "S", "card": "S3"}),
                     ("ruling", {"cmd": "u", "kind": "undo_cards", "cards": 1}),
                     ("card", {"seat": "S", "card": "S4"}), ("card", {"seat": "W", "card": "S5"}),
                     ("card", {"seat": "N", "card": "SA"}), ("card", {"seat": "N", "card": "H2"}))
    record = board_record(events)
    assert [i.alert for i in record.auction] == [True, False, False, False]
    assert record.play_leader is Seat.E
    assert record.play == [{Seat.E: Card.from_str("S2"), Seat.S: Card.from_str("S4"),
                            Seat.W: Card.from_str("S5"), Seat.N: Card.from_str("SA")},
                           {Seat.N: Card.from_str("H2")}]
    assert record.problems == []


def test_an_event_the_laws_refuse_is_a_problem_not_a_failure() -> None:
    # E's 1C is insufficient over N's 1NT (Law 27): a journal no table writes, or a gap.
    record = board_record(_events(_call("N", "1NT"), _call("E", "1C"), _call("E", "Pass")))
    assert record.calls == [Call.from_str("1NT"), Call.from_str("Pass")]
    assert len(record.problems) == 1 and "event 2 (call)" in record.problems[0]
    assert "Law 27" in record.problems[0]
    assert record.commentary == [f"bidbox: {record.problems[0]}"]


def test_the_deal_the_table_scanned_when_the_session_has_none() -> None:
    hands = ["SAKQJT98765432", "HAKQJT98765432", "DAKQJT98765432", "CAKQJT98765432"]
    scans = [("hand_card", {"seat": seat, "card": hand[0] + rank})
             for seat, hand in zip("NESW", hands, strict=True) for rank in hand[1:]]
    record = board_record(_events(*scans, _call("N", "Pass")))
    assert record.deal is not None
    assert record.deal.to_pbn() == ("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. "
                                    "...AKQJT98765432")


# -- CSV -----------------------------------------------------------------------------------------

def test_csv_has_a_header_and_one_row_per_result(played: Played) -> None:
    rows = list(csv.DictReader(io.StringIO(csv_text(played.db, played.session))))
    assert rows and tuple(rows[0]) == CSV_COLUMNS
    scored = {(x.result.table, x.result.board): x
              for board in field(played.db, played.session, public=False).scored.values()
              for x in board}
    results = all_results(played.db, played.session)
    assert len(rows) == len(results)
    for row, result in zip(rows, results, strict=True):
        assert (int(row["table"]), int(row["board"])) == (result.table, result.board)
        assert row["section"] == result.section
        assert row["ns_pair"] == str(result.ns_pair) and row["ew_pair"] == str(result.ew_pair)
        assert row["contract"] == (result.contract or "")
        assert row["score_ns"] == str(result.score_ns)
        assert row["lead"] == (result.lead or "")
        points = scored[(result.table, result.board)]
        assert float(row["ns_points"]) == pytest.approx(points.ns, abs=0.005)
        assert float(row["ew_points"]) == pytest.approx(points.ew, abs=0.005)
        want = played.expected[(result.table, result.board)]
        assert row["tricks"] == ("" if want.tricks is None else str(want.tricks))


# -- USEBIO -------------------------------------------------------------------------------------

def test_usebio_is_well_formed_with_pairs_and_travellers(played: Played) -> None:
    text = usebio(played.db, played.session)
    root = ET.fromstring(text.encode("utf-8"))
    assert (root.tag, root.get("Version")) == ("USEBIO", "1.2")
    event = root.find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == "PAIRS"
    assert event.findtext("BOARD_SCORING_METHOD") == "MATCH_POINTS"
    assert event.findtext("EVENT_DESCRIPTION") == "Club"
    assert event.findtext("DATE") == "14/11/2023"
    numbers = {int(p.findtext("PAIR_NUMBER", "")) for p in event.iter("PAIR")}
    assert numbers == set(participants_of(played.db, played.session))
    names = [p.findtext("PLAYER_NAME") for p in event.iter("PLAYER")]
    assert "Ana Ruiz" in names and "Luis Gil" in names
    places = {p.findtext("PLACE") for p in event.iter("PAIR")}
    assert "1" in places or "1=" in places
    scored = {(x.result.ns, x.result.ew, x.result.board): x
              for board in field(played.db, played.session, public=False).scored.values()
              for x in board}
    results = {(r.ns_pair, r.ew_pair, r.board): r
               for r in all_results(played.db, played.session)}
    lines = 0
    for board in event.iter("BOARD"):
        number = int(board.findtext("BOARD_NUMBER", ""))
        for line in board.iter("TRAVELLER_LINE"):
            lines += 1
            key = (int(line.findtext("NS_PAIR_NUMBER", "")),
                   int(line.findtext("EW_PAIR_NUMBER", "")), number)
            result = results[key]
            assert line.findtext("SCORE") == str(result.score_ns)
            want = "PASS" if result.contract == "Pass" else result.contract
            assert line.findtext("CONTRACT") == want
            assert float(line.findtext("NS_MATCH_POINTS", "")) == pytest.approx(
                scored[key].ns, abs=0.005)
            assert float(line.findtext("EW_MATCH_POINTS", "")) == pytest.approx(
                scored[key].ew, abs=0.005)
    assert lines == len(results)


def test_usebio_escapes_names(played: Played) -> None:
    root = ET.fromstring(usebio(played.db, played.session).encode("utf-8"))
    pair = next(p for p in root.iter("PAIR") if p.findtext("PAIR_NUMBER") == "5")
    assert [p.findtext("PLAYER_NAME") for p in pair.iter("PLAYER")] == [
        'Smith <Sons> "Q"', "O'Brien"]


def test_usebio_reads_back_and_agrees_with_the_rankings(played: Played) -> None:
    """The reader (tests/server/usebio_read.py) checks every element's place and the file
    against itself; here its places, totals and points against the field's own rankings."""
    text = usebio(played.db, played.session)
    assert text.splitlines()[1] == DOCTYPE.format(version="1.2", underscored="1_2")
    read = usebio_read.loads(text)
    result = field(played.db, played.session, public=False)
    assert (read.kind, read.method, read.description) == ("PAIRS", "MATCH_POINTS", "Club")
    assert read.winner_type == 2 and read.club is None
    assert {st.participant for st in result.standings} == set(read.pairs)
    for st in result.standings:
        pair = read.pairs[st.participant]
        assert (pair.place, pair.direction) == (st.rank_label, st.group)
        assert pair.total == pytest.approx(st.score, abs=0.005)
        assert pair.percentage == pytest.approx(st.percent, abs=0.005)
        assert pair.penalty == 0
    lines = {(line.ns, board): line for board, found in read.boards.items() for line in found}
    assert len(lines) == sum(len(board) for board in result.scored.values()) == 18
    for board, scored in result.scored.items():
        for x in scored:
            line = lines[(x.result.ns, board)]
            assert line.ew == x.result.ew
            assert (line.ns_points, line.ew_points) == (pytest.approx(x.ns, abs=0.005),
                                                        pytest.approx(x.ew, abs=0.005))


def _mutated(text: str, change: Callable[[ET.Element], None]) -> str:
    root = ET.fromstring(text.encode("utf-8"))
    change(root)
    return ET.tostring(root, encoding="unicode")


def _first(root: ET.Element, path: str) -> ET.Element:
    found = root.find(path)
    assert found is not None, path
    return found


def _drop(path: str, tag: str) -> Callable[[ET.Element], None]:
    def change(root: ET.Element) -> None:
        parent = _first(root, path)
        parent.remove(_first(parent, tag))
    return change


def _swap(path: str, first: str, second: str) -> Callable[[ET.Element], None]:
    def change(root: ET.Element) -> None:
        parent = _first(root, path)
        children = list(parent)
        i = next(n for n, c in enumerate(children) if c.tag == first)
        j = next(n for n, c in enumerate(children) if c.tag == second)
        children[i], children[j] = children[j], children[i]
        parent[:] = children
    return change


def _set(path: str, value: str) -> Callable[[ET.Element], None]:
    def change(root: ET.Element) -> None:
        _first(root, path).text = value
    return change


def _rename(path: str, tag: str) -> Callable[[ET.Element], None]:
    def change(root: ET.Element) -> None:
        _first(root, path).tag = tag
    return change


def _club_last(root: ET.Element) -> None:
    club = ET.Element("CLUB")
    ET.SubElement(club, "CLUB_NAME").text = "Club"
    root.append(club)


def _places_swapped(root: ET.Element) -> None:
    """A pair placed below another, on a place of its own (not shared, "2="), is given the
    best percentage of all: a pair placed ahead of it then has less."""
    behind = next(p for p in root.iter("PAIR") if p.findtext("PLACE") not in ("1", "1=")
                  and not (p.findtext("PLACE") or "=").endswith("="))
    _first(behind, "PERCENTAGE").text = "100.00"


def _more(path: str) -> Callable[[ET.Element], None]:
    def change(root: ET.Element) -> None:
        element = _first(root, path)
        element.text = str(float(element.text or "0") + 1)
    return change


LINE = "EVENT/BOARD/TRAVELLER_LINE"
BROKEN = {
    "not USEBIO 1.2": lambda root: root.set("Version", "1.1"),
    "EVENT: no DATE": _drop("EVENT", "DATE"),
    "EVENT: no BOARD_SCORING_METHOD": _drop("EVENT", "BOARD_SCORING_METHOD"),
    "EVENT: no PARTICIPANTS": _drop("EVENT", "PARTICIPANTS"),
    "DATE '2023-11-14' is not DD/MM/YYYY": _set("EVENT/DATE", "2023-11-14"),
    "PAIR_NUMBER expected, found DIRECTION": _drop("EVENT/PARTICIPANTS/PAIR", "PAIR_NUMBER"),
    "no PLAYER": lambda root: [pair.remove(p) for pair in root.iter("PAIR")
                               for p in pair.findall("PLAYER")],
    "EW_PAIR_NUMBER expected, found CONTRACT": _drop(LINE, "EW_PAIR_NUMBER"),
    "line 1: PLAYED_BY is out of place": _swap(LINE, "CONTRACT", "SCORE"),
    "has NS_MATCH_POINTS EW_MATCH_POINTS, not NS_IMPS": _rename(LINE + "/NS_MATCH_POINTS",
                                                                "NS_IMPS"),
    "EVENT: a BOARD before the PARTICIPANTS": lambda root: _first(root, "EVENT").insert(
        0, _first(root, "EVENT/BOARD")),
    "CLUB is out of place": _club_last,
    "pair 99 is not among the PARTICIPANTS": _set(LINE + "/NS_PAIR_NUMBER", "99"),
    "CONTRACT '8NT' is not one": _set(LINE + "/CONTRACT", "8NT"),
    "but its lines and ADJUSTMENT add up to": _more("EVENT/PARTICIPANTS/PAIR/TOTAL_SCORE"),
    "placed ahead of pair": _places_swapped,
}


@pytest.mark.parametrize("message", list(BROKEN))
def test_the_usebio_reader_refuses_what_the_sources_do_not_allow(played: Played,
                                                                  message: str) -> None:
    text = _mutated(usebio(played.db, played.session), BROKEN[message])
    with pytest.raises(usebio_read.UsebioError, match=re.escape(message.strip())):
        usebio_read.loads(text)


def test_an_artificial_score_is_an_a_score_in_the_clubs_figures(fresh: Database) -> None:
    """Law 12C2: the director's "A+/A-" on a board, with the club's 65/50/35, is SCORE
    "A6535" on its line; the line has no contract, and the file still adds up."""
    session = create_session(fresh, event="art", title="Art", kind="mitchell", participants=6,
                             boards_per_round=2, clock=lambda: NOON)
    ingest = Ingest(fresh, "art", clock=lambda: NOON)
    tables = {t: TableEvents(ingest, t, "art") for t in range(1, session.tables + 1)}
    for number in range(1, session.rounds + 1):
        for seating in session.plan.round(number):
            send = tables[seating.table]
            send("assign", None, cmd=f"assign-r{number}-t{seating.table}", round=number,
                 ns=seating.ns, ew=seating.ew, boards=list(seating.boards))
            for board in seating.boards:
                _passed_out(send, board)
    first = session.plan.at(1, 1)
    adjusted.set_rules(fresh, session, adjusted.ScoringRules(65, 50, 35, False), by="td")
    correct_result(fresh, session, 1, first.boards[0], contract=None, declarer=None,
                   tricks=None, adjusted="A+/A-", score_ns=None, by="td", note="Law 12C2")
    text = usebio(fresh, session)
    read = usebio_read.loads(text)
    [line] = [x for x in read.boards[first.boards[0]] if x.ns == first.ns]
    assert (line.score, line.contract, line.tricks) == ("A6535", None, None)
    assert line.ns_points > line.ew_points  # average plus to North-South
    result = field(fresh, session, public=False)
    for st in result.standings:
        assert read.pairs[st.participant].place == st.rank_label
        assert read.pairs[st.participant].total == pytest.approx(st.score, abs=0.005)


# -- other movements, adjusted scores ----------------------------------------------------------

def _start(db: Database, event: str, table: int, round_: int, seating: Any) -> TableEvents:
    send = TableEvents(Ingest(db, event, clock=lambda: NOON), table, event)
    send("assign", None, cmd=f"assign-{event}-{table}", round=round_, ns=seating.ns,
         ew=seating.ew, boards=list(seating.boards))
    return send


def _passed_out(send: TableEvents, number: int) -> None:
    board = Board(number)
    send("board", number, board=number, dealer=str(board.dealer), vul=str(board.vulnerability))
    for index in range(4):
        send("call", number, seat=str(board.dealer.next(index)), call="Pass")
    send("result", number, contract="Pass", declarer=None, tricks=None, score_ns=0)


def test_the_individual_names_the_players_the_movement_seated(fresh: Database) -> None:
    session = create_session(fresh, event="four", title="Social", kind="individual",
                             participants=4, boards_per_round=4, scoring="club",
                             clock=lambda: NOON)
    set_names(fresh, session, {1: "Ana", 2: "Bea", 3: "Cid", 4: "Dan"})
    seating = session.plan.at(1, 1)
    _passed_out(_start(fresh, "four", 1, 1, seating), seating.boards[0])
    [game] = loads(pbn(fresh, session))
    assert seating.ns_players == (3, 1) and seating.ew_players == (4, 2)
    names = [game.tags[seat] for seat in ("North", "South", "East", "West")]
    assert names == ["Cid", "Ana", "Dan", "Bea"]
    [row] = list(csv.DictReader(io.StringIO(csv_text(fresh, session))))
    assert (row["ns_pair"], row["ew_pair"], row["contract"]) == ("13", "24", "Pass")
    # USEBIO's individual: its players, and each line's partnerships (13: players 1 and 3)
    read = usebio_read.loads(usebio(fresh, session))
    assert read.kind == "INDIVIDUAL" and read.method == "AGGREGATE"
    assert {n: p.players for n, p in read.pairs.items()} == {
        1: ["Ana"], 2: ["Bea"], 3: ["Cid"], 4: ["Dan"]}
    [line] = read.boards[seating.boards[0]]
    assert (line.ns, line.ew, line.contract) == (13, 24, "PASS")


def test_a_team_match_has_rooms_and_an_adjusted_score(fresh: Database) -> None:
    session = create_session(fresh, event="match", title="Match", kind="teams", participants=2,
                             boards_per_round=2, rounds=1, scoring="teams", clock=lambda: NOON)
    open_room, closed_room = session.plan.round(1)
    _passed_out(_start(fresh, "match", 1, 1, open_room), 1)
    send = _start(fresh, "match", 2, 1, closed_room)
    send("board", 1, board=1, dealer="N", vul="None")
    send("call", 1, seat="N", call="1NT")
    # Law 12C2: the director gave an artificial score; the board has no points. The server
    # takes it from its own ruling command, which the table answers.
    with fresh.write() as conn:
        conn.execute(s.commands.insert().values(
            id="adj", event="match", table_no=2, type="ruling", created_at=NOON,
            data=json.dumps({"kind": "score", "adjusted": "A60/40"})))
    send("ruling", 1, cmd="adj", kind="score", adjusted="A60/40")
    games = {g.tags["Table"]: g for g in loads(pbn(fresh, session))}
    assert (games["1"].tags["Room"], games["2"].tags["Room"]) == ("Open", "Closed")
    adjusted = games["2"]
    assert "Score" not in adjusted.tags and adjusted.contract_tag == ""
    assert adjusted.commentary == ["Adjusted score A60/40 (Law 12C2)"]
    assert adjusted.calls == [Call.from_str("1NT")] and not adjusted.auction_complete
    rows = {r["table"]: r for r in csv.DictReader(io.StringIO(csv_text(fresh, session)))}
    assert (rows["2"]["adjusted"], rows["2"]["score_ns"]) == ("A60/40", "")
    # USEBIO's team match: the two teams, and the round's match with both tables' lines
    read = usebio_read.loads(usebio(fresh, session))
    assert read.kind == "TEAMS_OF_FOUR" and set(read.pairs) == {1, 2}
    [match] = read.matches
    assert (match.round, match.team, match.opponents) == (1, 1, 2)
    assert [(line.ns, line.ew) for line in match.boards[1]] == [(1, 2), (2, 1)]


def test_results_the_field_cannot_score_still_export_their_play(fresh: Database) -> None:
    session = create_session(fresh, event="muddle", title="Muddle", kind="mitchell",
                             participants=6, boards_per_round=2, clock=lambda: NOON)
    first = session.plan.at(1, 1)
    # Table 2 was told the wrong seating: pairs 1 and 4 have two results on board 1.
    for table in (1, 2):
        _passed_out(_start(fresh, "muddle", table, 1, first), first.boards[0])
    with pytest.raises(ValueError, match="more than one result"):
        field(fresh, session, public=False)
    assert [g.tags["Table"] for g in loads(pbn(fresh, session))] == ["1", "2"]
    rows = list(csv.DictReader(io.StringIO(csv_text(fresh, session))))
    assert [(r["table"], r["ns_points"], r["ew_points"]) for r in rows] == [
        ("1", "", ""), ("2", "", "")]
    with pytest.raises(ExportError, match="field scores cannot be computed"):
        usebio(fresh, session)
    # The site carries the PBN and CSV, and says why it has no USEBIO file.
    files = publish.pages(fresh, session)
    assert {"results.pbn", "results.csv"} <= set(files) and "results.xml" not in files
    assert "USEBIO (XML): no se ha escrito / not written (the field scores cannot be " \
           "computed" in str(files["index.html"])


def test_a_revoke_transfer_has_its_own_column_and_comment(fresh: Database) -> None:
    """Law 64A: the tricks transferred for a revoke are exported apart from the count."""
    session = create_session(fresh, event="revoke", title="Revoke", kind="mitchell",
                             participants=6, boards_per_round=2, clock=lambda: NOON)
    first = session.plan.at(1, 1)
    send = _start(fresh, "revoke", 1, 1, first)
    number = first.boards[0]
    board = Board(number)
    send("board", number, board=number, dealer=str(board.dealer), vul=str(board.vulnerability))
    for index, call in enumerate(("1NT", "Pass", "Pass", "Pass")):
        send("call", number, seat=str(board.dealer.next(index)), call=call)
    send("result", number, contract="1NT", declarer=str(board.dealer), tricks=8,
         score_ns=0, transferred=-1)
    [row] = csv.DictReader(io.StringIO(csv_text(fresh, session)))
    assert (row["tricks"], row["transferred"]) == ("8", "-1")
    [game] = loads(pbn(fresh, session))
    assert game.tags["Result"] == "8"
    assert ("Revoke: 1 trick(s) of the result transferred to the defenders (Law 64)"
            in game.commentary)


def test_what_the_table_recorded_for_the_director_is_in_the_commentary() -> None:
    """Law 16B2: the opponents reserved their rights after a hesitation, on the keypad."""
    record = board_record(_events(
        _call("N", "1NT"), _call("E", "Pass"), _call("S", "3NT"),
        ("option", {"kind": "unauthorised_information", "side": "NS", "law": "16B2",
                    "by": "E"})))
    assert record.problems == []
    assert record.commentary == ["Recorded for the director: Unauthorised information "
                                 "(Law 16B) after call 3: by E, law 16B2, side NS"]


def test_an_independent_pbn_reader_reads_every_game_as_the_table_had_it(
        played: Played) -> None:
    """endplay's PBN reader (written apart from bidbox) reads the session's file: every game
    has the table's contract, declarer, tricks and score, and the alerted calls are alerts
    with their notes as endplay reads them (PBN 3.5.4), not the suffix "!" it refuses."""
    endplay_pbn = pytest.importorskip("endplay.parsers.pbn")
    text = pbn(played.db, played.session)
    boards = endplay_pbn.loads(text)
    assert len(boards) == len(played.expected) == 18
    seats = "NESW"
    alerted = 0
    for board in boards:
        key = (int(board.info["Table"]), board.board_num)
        want = played.expected[key]
        contract = board.contract
        if want.contract == "Pass":
            assert contract.level == 0, key
            continue
        mine = parse_contract(want.contract)
        assert mine is not None
        strains = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "nt"}
        doublings = {"UNDOUBLED": "passed", "DOUBLED": "doubled", "REDOUBLED": "redoubled"}
        assert (contract.level, contract.denom.name, contract.penalty.name) == (
            mine.level, strains[str(mine.strain)], doublings[mine.doubling.name]), key
        assert seats[int(contract.declarer)] == want.declarer, key
        assert contract.level + 6 + contract.result == want.tricks, key
        ns = 1 if want.declarer in "NS" else -1
        assert ns * contract.score(board.vul) == want.score_ns, key
        alerted += sum(1 for call in board.auction
                       if call.alertable and (call.announcement or "").startswith("Alert"))
    assert alerted > 0


def test_pbn_gives_each_known_deal_its_double_dummy_table_and_par(played: Played) -> None:
    """PBN 2.1's OptimumResultTable, ParContract and OptimumScore where the deal is known,
    the same as the solver's own analysis of the board."""
    pytest.importorskip("endplay")
    from server.scoring.analysis import analyse
    from server.setup.session import deals_of

    deals = deals_of(played.db, played.session)
    solved = {board: analyse(text, board) for board, text in deals.items()}
    without = exported(played)  # before the analyses are stored: no tags, no wait
    assert not any("OptimumScore" in game.tags for game in without.values())
    with played.db.write() as conn:  # as the server's analyser stores them (services.py)
        for board, analysis in solved.items():
            conn.execute(update(s.deals).where(
                s.deals.c.session_id == played.session.id, s.deals.c.board == board).values(
                analysis=json.dumps(analysis.to_json())))
    games = exported(played)
    assert games
    for (_, board), game in games.items():
        analysis = solved[board]
        assert game.tags["OptimumResultTable"] == "Declarer;Denomination\\2R;Result\\2R"
        rows = game.sections["OptimumResultTable"]
        assert len(rows) == 20
        for row in rows:
            seat, strain, tricks = row.split()
            assert analysis.tricks[strain][seat] == int(tricks)
        side, _, score = game.tags["OptimumScore"].partition(" ")
        assert (1 if side == "NS" else -1) * int(score) == analysis.par_score
        if analysis.pars:
            assert game.tags["ParContract"].split(" ", 1)[1].split(", ") == list(
                dict.fromkeys(p.contract for p in analysis.pars))


def test_usebio_lines_carry_each_tables_auction_and_play_as_lin(played: Played) -> None:
    """BridgeWebs shows the bidding and play of a traveller line from its LIN_DATA: each
    line's LIN reads back (the engine's LIN reader) to the table's calls, and replays to
    the line's contract and tricks."""
    from laws import lin as lin_format

    read = usebio_read.loads(usebio(played.db, played.session))
    checked = 0
    for number, lines in read.boards.items():
        for line in lines:
            assert line.lin, (number, line.ns)
            [record] = lin_format.loads(line.lin)
            got = replay(record)
            contract = "PASS" if got.contract == "Pass" else got.contract
            assert (contract, got.tricks if line.tricks is not None else None) == (
                line.contract, line.tricks), (number, line.ns)
            checked += 1
    assert checked == len(played.expected)
