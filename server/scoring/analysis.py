"""Double-dummy analysis of a released board: its tricks table and par, for the results display.

The solver is Bo Haglund's DDS, wrapped by ``endplay`` (the optional extra ``bidbox[dds]``).
A deal takes 0.03 to 0.3 s to solve (and endplay half a second to import), so the server
never analyses inside a web request: it submits released boards to an :class:`Analyser`, whose
thread hands each result to a callback that stores it. Without endplay the callback is told
so, and the results display simply shows no double-dummy table.
"""

from __future__ import annotations

import collections
import functools
import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple

from laws import (
    Board,
    Contract,
    Deal,
    Doubling,
    RulesError,
    Seat,
    Strain,
    Vulnerability,
    format_contract,
    parse_contract,
)
from server.errors import Refused

log = logging.getLogger(__name__)

NOT_INSTALLED = "endplay is not installed"

_STRAINS = tuple(str(strain) for strain in Strain)  # C D H S NT: the order of Law 18E
_SEATS = tuple(str(seat) for seat in Seat)  # N E S W


class Par(NamedTuple):
    """One par contract with the tricks double-dummy play takes in it: ``contract`` as
    laws writes one ("4H", "5DX"), ``declarer`` a seat letter, ``over`` the tricks
    above the contract (+1: 4H making 11) or below it (-2: a sacrifice two down)."""

    contract: str
    declarer: str
    over: int

    @property
    def result(self) -> str:
        """"+1", "-2", or "" when it just makes: how the scoring programs print par."""
        return f"{self.over:+d}" if self.over else ""

    def __str__(self) -> str:
        return f"{self.contract}{self.result} {self.declarer}"


class AnalysisError(Refused):
    """A deal that cannot be analysed (not four hands of 13 cards, a bad board number), a
    stored analysis that cannot be read, or no solver installed."""


@dataclass(frozen=True)
class Analysis:
    """What double-dummy play makes of a deal.

    ``tricks[strain][seat]``: the tricks that seat takes as declarer in that strain, with
    strains ``C D H S NT`` and seats ``N E S W``.

    ``par_score`` is from North-South's side (negative when East-West gain it), and
    ``par_contracts`` the contracts that reach it, each as laws writes a contract
    (:func:`format_contract`: level, strain, ``X``/``XX``) followed by the declarer's seat:
    ``"4HN"``, ``"3NTS"``, ``"5DXE"``. A deal that nobody can make anything on has par
    ``["Pass"]`` and 0. Par's overtricks and undertricks are in the score, not the spelling.
    """

    tricks: dict[str, dict[str, int]]
    par_score: int
    par_contracts: list[str]

    @property
    def pars(self) -> list[Par]:
        """The par contracts with their tricks ("4H+1 N"); empty when par is passed out."""
        found = []
        for text in self.par_contracts:
            if text == "Pass":
                continue
            contract, seat = text[:-1], text[-1]
            parsed = parse_contract(contract)
            if parsed is None:
                continue
            taken = self.tricks[str(parsed.strain)][seat]
            found.append(Par(contract, seat, taken - parsed.level - 6))
        return found

    def to_json(self) -> dict[str, Any]:
        return {"tricks": {strain: dict(by_seat) for strain, by_seat in self.tricks.items()},
                "par_score": self.par_score, "par_contracts": list(self.par_contracts)}

    @classmethod
    def from_json(cls, value: Mapping[str, Any] | str | bytes) -> Analysis:
        """Read what :meth:`to_json` wrote, as a dict or as the JSON text stored of it."""
        try:
            if isinstance(value, str | bytes):
                value = json.loads(value)
            if not isinstance(value, Mapping):
                raise TypeError("not an object")
            raw = value["tricks"]
            tricks = {strain: {seat: int(raw[strain][seat]) for seat in _SEATS}
                      for strain in _STRAINS}
            par_score = int(value["par_score"])
            par_contracts = [str(text) for text in value["par_contracts"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise AnalysisError(f"not a stored analysis: {value!r}") from exc
        if any(not 0 <= n <= 13 for by_seat in tricks.values() for n in by_seat.values()):
            raise AnalysisError(f"tricks out of 0..13 in a stored analysis: {value!r}")
        return cls(tricks, par_score, par_contracts)


@functools.cache
def _endplay() -> ModuleType | None:
    """endplay, imported on first use: the import loads DDS and takes most of a second, and
    the server starts whether or not the extra is installed."""
    try:
        import endplay.dds
        import endplay.types
    except (ImportError, OSError):  # OSError: the package is there but libdds will not load
        return None
    return endplay


def available() -> bool:
    """Whether endplay (and so the double-dummy solver) can be used."""
    return _endplay() is not None


def solver() -> ModuleType:
    """endplay, or AnalysisError when it is not installed."""
    endplay = _endplay()
    if endplay is None:
        raise AnalysisError(NOT_INSTALLED)
    return endplay


def denominations(endplay: ModuleType) -> dict[Strain, Any]:
    """Our strains as endplay's denominations (its seats run N E S W, as ours do)."""
    denom = endplay.types.Denom
    return {Strain.C: denom.clubs, Strain.D: denom.diamonds, Strain.H: denom.hearts,
            Strain.S: denom.spades, Strain.NT: denom.nt}


# DDS 2.9, as endplay bundles it, keeps the state of a solve in globals: two solves at once
# from two threads corrupt each other. One solve at a time; DDS already spreads a table's five
# strains over threads of its own.
_SOLVER_LOCK = threading.Lock()


def analyse(deal_pbn: str, board: int,
            conditions: tuple[Seat, Vulnerability] | None = None) -> Analysis:
    """The tricks table and par of a PBN deal (``"N:AKQ.… … … …"``); dealer and vulnerability
    are ``conditions`` when given (the seed 004 individual has its own), else follow from the
    board number. Raises :class:`AnalysisError` for a deal that lacks a hand or a card, or
    when endplay is not installed. Takes up to about 0.3 s: call it from a worker."""
    try:
        deal = Deal.from_pbn(deal_pbn)
        standard = Board(board)
    except RulesError as exc:
        raise AnalysisError(str(exc)) from exc
    dealer, vulnerable = conditions or (standard.dealer, standard.vulnerability)
    if not deal.is_complete_for_play:
        raise AnalysisError(f"a deal to analyse needs all four hands: {deal_pbn!r}")
    endplay = solver()
    types, dds = endplay.types, endplay.dds
    denoms = denominations(endplay)
    strains = {denom: strain for strain, denom in denoms.items()}
    vul = {Vulnerability.NONE: types.Vul.none, Vulnerability.NS: types.Vul.ns,
           Vulnerability.EW: types.Vul.ew, Vulnerability.BOTH: types.Vul.both}
    doublings = {types.Penalty.passed: Doubling.UNDOUBLED, types.Penalty.doubled: Doubling.DOUBLED,
                 types.Penalty.redoubled: Doubling.REDOUBLED}
    try:
        with _SOLVER_LOCK:
            table = dds.calc_dd_table(types.Deal.from_pbn(deal.to_pbn()))
            pars = dds.par(table, vul[vulnerable], types.Player(dealer.value))
        tricks = {str(strain): {str(seat): int(table[denoms[strain], types.Player(seat.value)])
                                for seat in Seat}
                  for strain in Strain}
        # The ParList is walked once, each contract read as it is yielded: for a par both
        # partners reach, endplay yields one structure twice, rewriting its seat in between.
        contracts = [
            format_contract(None) if c.level == 0 else
            format_contract(Contract(c.level, strains[c.denom], doublings[c.penalty]))
            + str(Seat(int(c.declarer)))
            for c in pars]
        score = int(pars.score)
    except Exception as exc:  # whatever a C library's wrapper raises is a failure to analyse
        raise AnalysisError(f"the double-dummy solver failed on {deal_pbn!r}: {exc}") from exc
    return Analysis(tricks, score, contracts)


Done = Callable[[int, str, Any, str | None], None]
Solve = Callable[[int, str], Any]


class Analyser:
    """A background thread that analyses deals queued with submit(); results go to a callback.

    ``on_done(board, deal_pbn, analysis, error)`` is called from the worker thread, once per
    analysis, with exactly one of ``analysis`` and ``error`` set; it should store the result
    and return, not block. Extra ``workers`` only overlap the callbacks: solves take turns.
    ``solve(board, text)``: another analysis than the deal's table and par (a table's play,
    server/outputs/playanalysis.py), with ``text`` what it needs.
    """

    def __init__(self, on_done: Done, *, workers: int = 1,
                 conditions: Callable[[int], tuple[Seat, Vulnerability]] | None = None,
                 solve: Solve | None = None, name: str = "analysis") -> None:
        if workers < 1:
            raise ValueError(f"an analyser needs a worker, not {workers}")
        self._on_done = on_done
        self._workers = workers
        self._conditions = conditions  # board -> (dealer, vulnerability), when not Law 2's
        self._solve = solve
        self._name = name
        self._threads: list[threading.Thread] = []
        self._changed = threading.Condition()
        self._queue: collections.deque[tuple[int, str]] = collections.deque()
        self._pending: set[tuple[int, str]] = set()  # queued or being analysed
        self._running = 0
        self._stopping = False

    def submit(self, board: int, deal_pbn: str) -> None:
        """Queue a deal; a deal already queued or being analysed is not queued again."""
        key = (board, deal_pbn)
        with self._changed:
            if key in self._pending:
                return
            self._pending.add(key)
            self._queue.append(key)
            self._changed.notify()

    def start(self) -> None:
        with self._changed:
            if self._threads:
                raise RuntimeError("the analyser is already started")
            self._stopping = False
            self._threads = [threading.Thread(target=self._work, name=f"bidbox-{self._name}-{i}",
                                              daemon=True) for i in range(self._workers)]
        for thread in self._threads:
            thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the deal in hand and drop the rest of the queue: the server resubmits the
        boards that have no analysis when it starts again."""
        with self._changed:
            self._stopping = True
            self._queue.clear()
            self._pending.clear()
            self._changed.notify_all()
            threads, self._threads = self._threads, []
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        alive = [t.name for t in threads if t.is_alive()]
        if alive:
            log.warning("analysis threads still running after %.1f s: %s", timeout, alive)

    def wait_idle(self, timeout: float) -> bool:
        """Whether the queue empties, with no deal in hand, within ``timeout`` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._queue and not self._running,
                                          timeout)

    def _work(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._queue or self._stopping)
                if self._stopping:
                    return
                key = self._queue.popleft()
                self._running += 1
            try:
                self._analyse(*key)
            finally:
                with self._changed:
                    self._running -= 1
                    self._pending.discard(key)
                    self._changed.notify_all()

    def _analyse(self, board: int, deal_pbn: str) -> None:
        analysis: Any = None
        error: str | None = None
        try:
            if self._solve is not None:
                analysis = self._solve(board, deal_pbn)
            elif self._conditions is None:
                analysis = analyse(deal_pbn, board)
            else:
                analysis = analyse(deal_pbn, board, self._conditions(board))
        except AnalysisError as exc:
            error = str(exc)
        except Exception as exc:  # a bug here must cost one deal, not the thread
            log.exception("analysing board %d failed", board)
            error = f"analysis failed: {exc}"
        try:
            self._on_done(board, deal_pbn, analysis, error)
        except Exception:
            log.exception("the analysis callback failed for board %d", board)
