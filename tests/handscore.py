"""Matchpoint rankings worked out by hand from raw results, for tests to check the server
against: Law 78A (2 per score beaten, 1 per score equalled) and Neuberg's formula where a board
has fewer results than the top expects ((raw + 1) × E / A − 1). Written from the laws, not
with server/scoring/fieldscore.py."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import NamedTuple


class Played(NamedTuple):
    table: int
    board: int
    ns: int
    ew: int
    score_ns: int


def law_78a(scores: list[int], index: int, expected: int) -> Fraction:
    """The matchpoints of ``scores[index]`` against the others, factored to ``expected``."""
    mine = scores[index]
    raw = sum(2 if mine > other else 1 if mine == other else 0
              for j, other in enumerate(scores) if j != index)
    return Fraction((raw + 1) * expected, len(scores)) - 1


Ranking = dict[str, list[tuple[int, float]]]


def rankings(rows: Iterable[Played], groups: Mapping[int, str],
             unit_of: Callable[[Played], str] = lambda row: "") -> Ranking:
    """Each group's ranking, (pair, percent) best first. ``unit_of`` splits the results into
    what is scored on its own (a section), each with its own top: the most results any of its
    boards has, less one."""
    units: dict[str, list[Played]] = defaultdict(list)
    for row in rows:
        units[unit_of(row)].append(row)
    percents: dict[int, list[Fraction]] = defaultdict(list)
    for unit in units.values():
        by_board: dict[int, list[Played]] = defaultdict(list)
        for row in unit:
            by_board[row.board].append(row)
        top = max(len(results) for results in by_board.values()) - 1
        for results in by_board.values():
            ns_scores = [r.score_ns for r in results]
            for i, row in enumerate(results):
                percents[row.ns].append(100 * law_78a(ns_scores, i, top + 1) / (2 * top))
                percents[row.ew].append(
                    100 * law_78a([-x for x in ns_scores], i, top + 1) / (2 * top))
    ranking: Ranking = defaultdict(list)
    for pair, values in percents.items():
        ranking[groups[pair]].append((pair, float(sum(values) / len(values))))
    return {g: sorted(rows, key=lambda r: (-r[1], r[0])) for g, rows in ranking.items()}
