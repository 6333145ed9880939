"""Double-dummy analysis: deals whose tricks can be reasoned by hand, the optimum tables of real
records, the stored JSON form, and the background analyser."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from laws import Board, Seat, Strain, Vulnerability
from laws.pbn import load_path
from laws.records import Record
from server.scoring import analysis
from server.scoring.analysis import NOT_INSTALLED, Analyser, Analysis, AnalysisError, analyse

RECORDS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "records"
REALBRIDGE = RECORDS / "realbridge-2021-online-qual-r2.pbn"

# Each hand is one whole suit. In a suit, the side that holds it wins every trick (its holder
# follows or ruffs); at no trump the opening leader runs thirteen tricks, so every declarer
# takes none. Each side makes a grand slam in its suit, and the side with the higher suit
# plays it: the other's only overcall, 7NT doubled, would go thirteen down.
NS_SPADES = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
EW_SPADES = "N:...AKQJT98765432 AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432."
# North holds the top cards of every suit and the others have no void, so North wins every
# trick at no trump whoever leads, and in a major draws trumps in three rounds first.
NORTH_ON_TOP = "N:AKQJ.AKQJ.AKQ.AK T98.T98.JT9.QJT9 765.765.876.8765 432.432.5432.432"
# North's twelve spades and the ace of hearts: thirteen tricks at no trump when East leads,
# none when West leads clubs against South. Nothing outbids 7NT, so it is par, by North alone.
NORTH_ALONE = "N:AKQJT9876543.A.. 2.KQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
# A deal found by search on which no one makes seven tricks in any strain (table below).
PASSED_OUT = "N:A8.T73.987.AKQ82 642.AKQ95.J2.654 KQT93.8642.KT4.T J75.J.AQ653.J973"


def holders(deal_pbn: str) -> dict[Strain, Seat]:
    """The seat holding each suit, in a deal where each hand is one whole suit."""
    first, hands = Seat.from_str(deal_pbn[0]), deal_pbn[2:].split()
    found = {}
    for seat, hand in zip(Seat.clockwise_from(first), hands, strict=True):
        (strain,) = (s for s, holding in zip((Strain.S, Strain.H, Strain.D, Strain.C),
                                             hand.split("."), strict=True) if holding)
        found[strain] = seat
    return found


# Board 1: no one vulnerable, 7S makes 210 + 300 + 1000. Board 2: North-South vulnerable,
# 210 + 500 + 1500. Board 3: East-West vulnerable.
@pytest.mark.parametrize(("deal", "board", "par_score", "par_contracts"), [
    (NS_SPADES, 1, 1510, ["7SN", "7SS"]),
    (NS_SPADES, 2, 2210, ["7SN", "7SS"]),
    (EW_SPADES, 3, -2210, ["7SE", "7SW"]),
    (EW_SPADES, 1, -1510, ["7SE", "7SW"]),
])
def test_one_suit_each(deal: str, board: int, par_score: int, par_contracts: list[str]) -> None:
    pytest.importorskip("endplay")
    result = analyse(deal, board)
    by_strain = holders(deal)
    for strain in Strain:
        for seat in Seat:
            makes = strain is not Strain.NT and by_strain[strain].side is seat.side
            assert result.tricks[str(strain)][str(seat)] == (13 if makes else 0), (strain, seat)
    assert result.par_score == par_score
    assert sorted(result.par_contracts) == par_contracts


def test_a_board_with_its_own_vulnerability_has_its_own_par() -> None:
    """Seed 004's partida: its second deal is East-West vulnerable, not North-South as board
    2 of the cycle of 16 is; the par follows the conditions given."""
    pytest.importorskip("endplay")
    assert analyse(NS_SPADES, 2).par_score == 2210
    assert analyse(NS_SPADES, 2, (Seat.W, Vulnerability.EW)).par_score == 1510


def test_north_holds_the_top_cards() -> None:
    pytest.importorskip("endplay")
    tricks = analyse(NORTH_ON_TOP, 1).tricks
    assert tricks["NT"] == {"N": 13, "E": 0, "S": 13, "W": 0}
    assert (tricks["S"]["N"], tricks["S"]["S"], tricks["H"]["N"], tricks["H"]["S"]) == (13,) * 4


@pytest.mark.parametrize(("board", "par_score"), [(1, 1520), (2, 2220)])
def test_par_by_one_declarer(board: int, par_score: int) -> None:
    pytest.importorskip("endplay")
    result = analyse(NORTH_ALONE, board)
    assert result.tricks["NT"] == {"N": 13, "E": 0, "S": 0, "W": 0}
    assert (result.par_score, result.par_contracts) == (par_score, ["7NTN"])


def test_nobody_makes_anything_so_par_is_a_pass() -> None:
    pytest.importorskip("endplay")
    result = analyse(PASSED_OUT, 3)
    assert result.tricks == {"C": {"N": 6, "E": 4, "S": 6, "W": 4},
                             "D": {"N": 6, "E": 5, "S": 6, "W": 5},
                             "H": {"N": 6, "E": 6, "S": 6, "W": 6},
                             "S": {"N": 6, "E": 4, "S": 6, "W": 4},
                             "NT": {"N": 6, "E": 5, "S": 6, "W": 5}}
    assert (result.par_score, result.par_contracts) == (0, ["Pass"])


def test_a_deal_given_from_another_seat_is_the_same_deal() -> None:
    pytest.importorskip("endplay")
    rotated = "E:" + " ".join(NS_SPADES[2:].split()[1:] + NS_SPADES[2:].split()[:1])
    assert analyse(rotated, 1) == analyse(NS_SPADES, 1)


@pytest.mark.parametrize(("deal", "board"), [
    ("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -", 1),  # a hand unknown
    ("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543", 1),  # 12 cards
    ("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. A..AKQJT987654", 1),  # SA twice
    ("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.", 1),  # three hands
    ("hello", 1),
    (NS_SPADES, 0),  # boards are numbered from 1
])
def test_a_deal_that_cannot_be_analysed(
        deal: str, board: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Told apart before the solver, which is not needed to say so.
    monkeypatch.setattr(analysis, "_endplay", lambda: pytest.fail("the solver was reached"))
    with pytest.raises(AnalysisError):
        analyse(deal, board)


def test_without_endplay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "_endplay", lambda: None)
    assert not analysis.available()
    with pytest.raises(AnalysisError, match=NOT_INSTALLED):
        analyse(NS_SPADES, 1)


def test_available_with_endplay() -> None:
    pytest.importorskip("endplay")
    assert analysis.available()


# -- the real records ----------------------------------------------------------------------


def _realbridge_deals() -> list[object]:
    """One record of each deal in the file: every table's copy carries the same tables."""
    if not REALBRIDGE.is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{REALBRIDGE} is absent"))]
    first: dict[tuple[int | None, str], Record] = {}
    for record in load_path(REALBRIDGE):
        first.setdefault((record.board, str(record.deal)), record)
    return [pytest.param(record, id=f"board-{record.board}") for record in first.values()]


@pytest.mark.parametrize("record", _realbridge_deals())
def test_realbridge_optimum_tables(record: Record) -> None:
    pytest.importorskip("endplay")
    assert record.board is not None and record.deal is not None
    # We take dealer and vulnerability from the board number; the record must agree.
    assert (record.dealer, record.vulnerability) == (Board(record.board).dealer,
                                                      Board(record.board).vulnerability)
    result = analyse(str(record.deal), record.board)
    rows = record.sections["OptimumResultTable"]
    assert len(rows) == 20
    expected = {}
    for row in rows:
        seat, strain, tricks = row.split()
        expected.setdefault(strain, {})[seat] = int(tricks)
    assert result.tricks == expected
    side, score = record.tags["OptimumScore"].split()
    assert result.par_score == (int(score) if side == "NS" else -int(score))


# -- the stored form -----------------------------------------------------------------------

STORED = Analysis(
    tricks={strain: {seat: n for seat, n in zip("NESW", (7, 6, 5, 4), strict=True)}
            for strain in ("C", "D", "H", "S", "NT")},
    par_score=-100,
    par_contracts=["2HXE", "2HXW"],
)


def test_json_round_trip() -> None:
    text = json.dumps(STORED.to_json())
    assert Analysis.from_json(text) == STORED
    assert Analysis.from_json(json.loads(text)) == STORED


@pytest.mark.parametrize("value", [
    "not json",
    "[]",
    {"tricks": STORED.tricks, "par_score": 0},  # no par contracts
    {**STORED.to_json(), "tricks": {**STORED.tricks, "NT": {"N": 7, "E": 6, "S": 5}}},
    {**STORED.to_json(), "tricks": {**STORED.tricks, "NT": {"N": 14, "E": 0, "S": 0, "W": 0}}},
    {**STORED.to_json(), "par_score": "a lot"},
])
def test_a_stored_analysis_that_cannot_be_read(value: object) -> None:
    with pytest.raises(AnalysisError):
        Analysis.from_json(value)  # type: ignore[arg-type]


# -- the analyser --------------------------------------------------------------------------

Call = tuple[int, str, Analysis | None, str | None]


class Results:
    """An on_done that records its calls, from whichever thread makes them."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self._lock = threading.Lock()

    def __call__(self, board: int, deal: str, result: Analysis | None, error: str | None) -> None:
        with self._lock:
            self.calls.append((board, deal, result, error))


@pytest.fixture
def analysers() -> Iterator[Callable[..., Analyser]]:
    made: list[Analyser] = []

    def make(on_done: Callable[[int, str, Analysis | None, str | None], None],
             workers: int = 1) -> Analyser:
        made.append(Analyser(on_done, workers=workers))
        return made[-1]

    yield make
    for analyser in made:
        analyser.stop()


class Gate:
    """Stands in for analyse: each call announces itself, then waits for the gate to open."""

    def __init__(self) -> None:
        self.entered = threading.Semaphore(0)
        self.open = threading.Event()

    def __call__(self, deal_pbn: str, board: int) -> Analysis:
        self.entered.release()
        if not self.open.wait(10):
            raise AssertionError("the gate was never opened")
        if deal_pbn == "boom":
            raise RuntimeError("boom")
        return STORED


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch,
         analysers: Callable[..., Analyser]) -> Iterator[Gate]:
    # Depends on analysers so that it is torn down first: the gate opens before stop().
    fake = Gate()
    monkeypatch.setattr(analysis, "analyse", fake)
    yield fake
    fake.open.set()


def analyser_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("bidbox-analysis")]


def test_analyser_calls_back_once_per_deal(analysers: Callable[..., Analyser]) -> None:
    pytest.importorskip("endplay")
    results = Results()
    analyser = analysers(results)
    deals = {1: NS_SPADES, 2: NS_SPADES, 3: EW_SPADES, 4: NORTH_ON_TOP}
    for board, deal in deals.items():
        analyser.submit(board, deal)
    analyser.start()
    assert analyser.wait_idle(60)
    assert sorted(call[:2] for call in results.calls) == sorted(deals.items())
    for board, deal, result, error in results.calls:
        assert error is None
        assert result == analyse(deal, board)


def test_a_bad_deal_is_an_error_and_the_next_deal_still_runs(
        analysers: Callable[..., Analyser]) -> None:
    results = Results()
    analyser = analysers(results)
    analyser.start()
    analyser.submit(5, "N:AKQ.. - - -")
    analyser.submit(6, NS_SPADES)
    assert analyser.wait_idle(60)
    (bad, good) = results.calls
    assert bad[:3] == (5, "N:AKQ.. - - -", None) and bad[3]
    if analysis.available():
        assert good == (6, NS_SPADES, analyse(NS_SPADES, 6), None)
    else:
        assert good == (6, NS_SPADES, None, NOT_INSTALLED)


def test_an_exception_costs_one_deal_not_the_thread(
        gate: Gate, analysers: Callable[..., Analyser]) -> None:
    results = Results()
    analyser = analysers(results)
    analyser.submit(1, "boom")
    analyser.submit(2, NS_SPADES)
    gate.open.set()
    analyser.start()
    assert analyser.wait_idle(10)
    assert results.calls == [(1, "boom", None, "analysis failed: boom"),
                             (2, NS_SPADES, STORED, None)]


def test_a_failing_callback_does_not_kill_the_thread(
        gate: Gate, analysers: Callable[..., Analyser]) -> None:
    boards: list[int] = []

    def on_done(board: int, deal: str, result: Analysis | None, error: str | None) -> None:
        boards.append(board)
        raise RuntimeError("the database is down")

    analyser = analysers(on_done)
    gate.open.set()
    analyser.start()
    analyser.submit(1, NS_SPADES)
    analyser.submit(2, NS_SPADES)
    assert analyser.wait_idle(10)
    assert boards == [1, 2]


def test_duplicates_are_coalesced_while_pending(
        gate: Gate, analysers: Callable[..., Analyser]) -> None:
    results = Results()
    analyser = analysers(results)
    analyser.start()
    analyser.submit(1, NS_SPADES)
    assert gate.entered.acquire(timeout=5)
    # Board 1 is in hand and board 2 queued: submitting either again neither blocks nor
    # queues a second analysis.
    analyser.submit(1, NS_SPADES)
    analyser.submit(2, NS_SPADES)
    analyser.submit(2, NS_SPADES)
    assert not analyser.wait_idle(0.05)
    gate.open.set()
    assert analyser.wait_idle(10)
    assert [call[0] for call in results.calls] == [1, 2]
    # Once done, the same deal may be analysed again (a corrected hand record, say).
    analyser.submit(1, NS_SPADES)
    assert analyser.wait_idle(10)
    assert [call[0] for call in results.calls] == [1, 2, 1]


def test_workers_analyse_side_by_side(gate: Gate, analysers: Callable[..., Analyser]) -> None:
    results = Results()
    analyser = analysers(results, workers=2)
    analyser.start()
    analyser.submit(1, NS_SPADES)
    analyser.submit(2, EW_SPADES)
    assert gate.entered.acquire(timeout=5) and gate.entered.acquire(timeout=5)
    gate.open.set()
    assert analyser.wait_idle(10)
    assert sorted(call[0] for call in results.calls) == [1, 2]


def test_without_endplay_the_analyser_reports_it(
        monkeypatch: pytest.MonkeyPatch, analysers: Callable[..., Analyser]) -> None:
    monkeypatch.setattr(analysis, "_endplay", lambda: None)
    results = Results()
    analyser = analysers(results)
    analyser.start()
    analyser.submit(1, NS_SPADES)
    assert analyser.wait_idle(10)
    assert results.calls == [(1, NS_SPADES, None, NOT_INSTALLED)]


def test_stop_joins_the_threads(analysers: Callable[..., Analyser]) -> None:
    # Another test's analyser may still be finishing a solve on a busy machine: count this one's.
    before = set(analyser_threads())
    analyser = analysers(Results(), workers=2)
    analyser.start()
    mine = set(analyser_threads()) - before
    assert len(mine) == 2
    with pytest.raises(RuntimeError):
        analyser.start()
    analyser.stop(timeout=5)
    assert not any(thread.is_alive() for thread in mine)


def test_an_analyser_needs_a_worker() -> None:
    with pytest.raises(ValueError):
        Analyser(Results(), workers=0)


def _table(**made: int) -> dict[str, dict[str, int]]:
    """A tricks table of sevens, with the given "SE" (strain then seat) entries."""
    tricks = {strain: dict.fromkeys("NESW", 7) for strain in ("C", "D", "H", "S", "NT")}
    for key, taken in made.items():
        strain, seat = key[:-1], key[-1]
        tricks[strain][seat] = taken
    return tricks


@pytest.mark.parametrize(("made", "contracts", "shown"), [
    ({"SE": 11, "SW": 11}, ["4SE", "4SW"], ["4S+1 E", "4S+1 W"]),  # par 4S, eleven tricks
    ({"NTE": 10}, ["3NTE"], ["3NT+1 E"]),
    ({"DS": 9}, ["5DXS"], ["5DX-2 S"]),  # a sacrifice two down
    ({"HN": 10}, ["4HN"], ["4H N"]),  # just made
    ({}, ["Pass"], []),
])
def test_par_is_printed_with_its_tricks(made: dict[str, int], contracts: list[str],
                                        shown: list[str]) -> None:
    """Par as the scoring programs print it: the contract with its over- or undertricks
    from the double-dummy table, then the declarer (issue 31: "1S E" was 9 tricks)."""
    analysis = Analysis(_table(**made), 0, contracts)
    assert [str(par) for par in analysis.pars] == shown
