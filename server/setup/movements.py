"""Movements: who sits where, which boards each table plays, and where everyone goes next.

Pure: no I/O. A movement is built once from the director's set-up (kind, number of pairs,
boards per round, rounds) and then only answered questions. The rules we follow, and how
pairs are numbered, are in docs/movements.md.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, NamedTuple

from server.errors import Refused
from server.setup.scorings import Scoring
from tablemodel.texts import Words

PHANTOM: Final = 0  # pair number meaning "nobody": the opposite pair sits out this round
SECTIONS: Final = "sections"  # the movement of a session of several sections (Sectioned)

# A Howell this big already takes 31 rounds; larger fields play a Mitchell.
MAX_HOWELL_PAIRS: Final = 32


class MovementError(Refused):
    """A set-up no movement here can play: the message is meant for the director."""


@dataclass(frozen=True)
class Seating:
    """One table in one round. A ``next_*`` of None: keeps its seat, is finished, or this is
    the last round."""

    round: int  # from 1
    table: int  # from 1
    ns: int  # participant number, or PHANTOM; in the individual, a partnership number
    ew: int
    boards: tuple[int, ...]  # empty at a sit-out table
    next_ns: int | None  # the table the NS pair plays at next round
    next_ew: int | None
    next_boards: int | None  # the table these boards lie at next
    ns_players: tuple[int, int] | None = None  # the individual only: (North, South)
    ew_players: tuple[int, int] | None = None  # (East, West)
    switched: bool = False  # an arrow-switch round: the pair numbered EW sits NS

    @property
    def sit_out(self) -> bool:
        return PHANTOM in (self.ns, self.ew)


@dataclass(frozen=True)
class Participant:
    """A pair, team or player; ``group`` is the ranking group ("NS"/"EW" in a Mitchell, else
    ""). A phantom is listed so that pair numbers do not shift, but never seated."""

    number: int
    label: str
    group: str
    phantom: bool = False


@dataclass(frozen=True)
class Movement:
    """Every seating of a session, and the questions the aggregator asks of them."""

    kind: str
    tables: int
    rounds: int
    boards_per_round: int
    participants: tuple[Participant, ...]
    seatings: tuple[Seating, ...]  # in order of round, then table

    def round(self, number: int) -> list[Seating]:
        if not 1 <= number <= self.rounds:
            raise MovementError(f"this movement has rounds 1 to {self.rounds}, not {number}")
        return [seating for seating in self.seatings if seating.round == number]

    def at(self, round: int, table: int) -> Seating:
        for seating in self.round(round):
            if seating.table == table:
                return seating
        raise MovementError(f"this movement has tables 1 to {self.tables}, not {table}")

    def boards(self) -> list[int]:
        return sorted({board for seating in self.seatings for board in seating.boards})

    def schedule(self, board: int) -> list[Seating]:
        return [seating for seating in self.seatings if board in seating.boards]

    def find(self, table: int, board: int) -> Seating | None:
        for seating in self.schedule(board):
            if seating.table == table:
                return seating
        return None


class _Place(NamedTuple):
    """One table in one round as a design lays it out: ``board_set`` is the set lying on the
    table, an id of the design's own choosing; it is not played if the table is a sit-out."""

    ns: int
    ew: int
    board_set: int
    ns_players: tuple[int, int] | None = None
    ew_players: tuple[int, int] | None = None


_Design = Sequence[Sequence[_Place]]  # rounds, then tables


def _played(place: _Place) -> bool:
    return PHANTOM not in (place.ns, place.ew)


def _set_numbers(design: _Design) -> dict[int, int]:
    """Number the board sets in the order they are first played, so that round 1 has boards
    1, 2, 3... at tables 1, 2, 3... and a curtailed movement uses the lowest numbers."""
    order: dict[int, None] = {}
    for played_only in (True, False):
        for places in design:
            for place in places:
                if _played(place) or not played_only:
                    order.setdefault(place.board_set, None)
    return {board_set: index for index, board_set in enumerate(order)}


def _next_seat(design: _Design, round: int, table: int, who: int, side: str) -> int | None:
    """The table ``who`` sits at next round; None if the seat is the same, or there is no
    next round, or ``who`` is a partnership of the individual (they exist one round only).
    A team sits at both tables, so its pair keeps its seat."""
    if who == PHANTOM or round + 1 == len(design):
        return None
    seats = [(next_table, next_side) for next_table, place in enumerate(design[round + 1])
             for next_side, there in (("ns", place.ns), ("ew", place.ew)) if there == who]
    if not seats or (table, side) in seats:
        return None
    return seats[0][0] + 1


def _next_boards(design: _Design, round: int, table: int) -> int | None:
    """The table where this table's boards lie next: next round, or, when they go to a
    Howell's relay stand, the table that plays them after the rest; None if they are not
    played again. They never stay: no table sees a board set twice."""
    board_set = design[round][table].board_set
    for places in design[round + 1:]:
        tables = [index for index, place in enumerate(places) if place.board_set == board_set]
        if tables:
            return tables[0] + 1
    return None


def _build(kind: str, participants: Sequence[Participant], design: _Design,
           boards_per_round: int, first_board: int) -> Movement:
    numbers = _set_numbers(design)
    seatings = []
    for round, places in enumerate(design):
        for table, place in enumerate(places):
            first = first_board + numbers[place.board_set] * boards_per_round
            boards = tuple(range(first, first + boards_per_round)) if _played(place) else ()
            seatings.append(Seating(
                round=round + 1, table=table + 1, ns=place.ns, ew=place.ew, boards=boards,
                next_ns=_next_seat(design, round, table, place.ns, "ns"),
                next_ew=_next_seat(design, round, table, place.ew, "ew"),
                next_boards=_next_boards(design, round, table),
                ns_players=place.ns_players, ew_players=place.ew_players,
            ))
    return Movement(kind=kind, tables=len(design[0]), rounds=len(design),
                    boards_per_round=boards_per_round, participants=tuple(participants),
                    seatings=tuple(seatings))


def _check_boards(boards_per_round: int, first_board: int) -> None:
    if boards_per_round < 1:
        raise MovementError(f"each round needs at least 1 board, not {boards_per_round}")
    if first_board < 1:
        raise MovementError(f"boards are numbered from 1; the first board cannot be {first_board}")


def _check_rounds(rounds: int | None, most: int, what: str, why: str) -> int:
    if rounds is None:
        return most
    if not 1 <= rounds <= most:
        raise MovementError(f"{what} plays 1 to {most} rounds, not {rounds}: {why}")
    return rounds


# Mitchell ----------------------------------------------------------------------------------

def mitchell(pairs: int, boards_per_round: int, rounds: int | None = None,
             first_board: int = 1) -> Movement:
    """NS pairs stay at their tables, EW pairs move up one table and boards down one.

    With an even number of tables the EW pairs skip a table after half the rounds: without
    the skip they would meet, at round T/2 + 1, the boards they played in round 1.
    """
    _check_boards(boards_per_round, first_board)
    if pairs < 5:
        raise MovementError(f"a Mitchell needs at least 5 pairs (3 tables), not {pairs}; "
                            "4 pairs play a Howell")
    tables = (pairs + 1) // 2
    rounds = _check_rounds(rounds, tables, f"a {tables}-table Mitchell",
                           "more would replay boards")
    odd = pairs % 2 == 1
    skip = tables % 2 == 0
    design = []
    for round in range(rounds):
        moved = round + (1 if skip and round >= tables // 2 else 0)
        # The missing pair is NS at the last table, so the sit-out table never moves.
        design.append([
            _Place(ns=PHANTOM if odd and table == tables - 1 else table + 1,
                   ew=tables + (table - moved) % tables + 1,
                   board_set=(table + round) % tables)
            for table in range(tables)
        ])
    participants = [Participant(table, f"{table} NS", "NS", phantom=odd and table == tables)
                    for table in range(1, tables + 1)]
    participants += [Participant(tables + table, f"{table} EW", "EW")
                     for table in range(1, tables + 1)]
    return _build("mitchell", participants, design, boards_per_round, first_board)


def _mitchell_participants(ns_pairs: int, ew_pairs: int, phantom_ns: int | None
                           ) -> list[Participant]:
    """NS pair t is "t NS" (number t); EW pair e is "e EW" (number ns_pairs + e)."""
    found = [Participant(t, f"{t} NS", "NS", phantom=t == phantom_ns)
             for t in range(1, ns_pairs + 1)]
    found += [Participant(ns_pairs + e, f"{e} EW", "EW") for e in range(1, ew_pairs + 1)]
    return found


def mitchell_relay(pairs: int, boards_per_round: int, rounds: int | None = None,
                   first_board: int = 1) -> Movement:
    """The share-and-relay Mitchell, for an even number of tables T: T sets of boards, one
    of them on a relay (bye) stand between tables T/2 and T/2 + 1, and tables 1 and T share
    a set every round. NS stay, EW move up one table, boards move down one, through the
    relay stand after table T/2 + 1 and to both shared tables after table 2. No skip: every
    EW pair meets every NS pair once in the full T rounds, with no revenge round."""
    _check_boards(boards_per_round, first_board)
    tables = (pairs + 1) // 2
    if pairs < 7 or tables % 2:
        raise MovementError(f"a share-and-relay Mitchell is for an even number of tables "
                            f"(4 or more: 7 or more pairs), not {pairs} pairs")
    rounds = _check_rounds(rounds, tables, f"a {tables}-table share-and-relay Mitchell",
                           "more would replay boards")
    half = tables // 2
    # The board circuit, in the order the sets travel: the shared tables (1 and T), then
    # T-1 down to T/2+1, the relay stand, then T/2 down to 2. Set s starts at place s.
    circuit: list[int | None] = [1, *range(tables - 1, half, -1), None, *range(half, 1, -1)]
    place = {table: at for at, table in enumerate(circuit) if table is not None}
    place[tables] = 0
    odd = pairs % 2 == 1
    # The missing pair is NS at the shared last table: with it, no table shares a set.
    design = [[_Place(ns=PHANTOM if odd and table == tables else table,
                      ew=tables + (table - 1 - round) % tables + 1,
                      board_set=(place[table] - round) % tables)
               for table in range(1, tables + 1)] for round in range(rounds)]
    participants = _mitchell_participants(tables, tables, tables if odd else None)
    return _build("mitchell_relay", participants, design, boards_per_round, first_board)


def mitchell_appendix(pairs: int, boards_per_round: int, rounds: int | None = None,
                      first_board: int = 1) -> Movement:
    """A Mitchell with an appendix table, for T tables and a half (2T + 1 pairs): the boards
    move as in a Mitchell of T - 1 tables (T - 1 sets, T - 1 rounds: fewer boards than a
    Mitchell of T + 1 tables with a sit-out), and table T, the appendix table beside table
    1, shares table 1's boards. The EW pairs move up one table among T + 1, the last the
    sit-out table of the half table (its NS is the phantom; EW T + 1 starts there); with an
    even base the EW pairs skip a table after half the rounds. Nobody meets another pair or
    a board twice."""
    _check_boards(boards_per_round, first_board)
    if pairs < 9 or pairs % 2 == 0:
        raise MovementError(f"a Mitchell with an appendix table is for an odd number of "
                            f"pairs, 9 or more (4 tables and a half), not {pairs}")
    base = (pairs - 1) // 2 - 1  # the base Mitchell's tables: one set of boards each
    rounds = _check_rounds(rounds, base, f"a {base + 1}-table Mitchell with an appendix "
                           "table", "it has a set of boards for each of those")
    places = base + 2  # the base, the appendix table, the sit-out table
    skip = base % 2 == 0
    design = []
    for round in range(rounds):
        moved = round + (1 if skip and round >= base // 2 else 0)
        design.append([_Place(ns=PHANTOM if table == places - 1 else table + 1,
                              ew=places + (table - moved) % places + 1,
                              board_set=base if table == places - 1 else
                              ((0 if table == base else table) + round) % base)
                       for table in range(places)])
    participants = _mitchell_participants(places, places, places)
    return _build("mitchell_appendix", participants, design, boards_per_round, first_board)


def scramble_rounds(rounds: int) -> tuple[int, ...]:
    """The rounds a scrambled Mitchell of ``rounds`` rounds plays with the arrow switched:
    one for up to 5 rounds, two for 6 to 9, three for 10 to 13, one more for each four after
    (about one round in four: more switches make the comparisons no fairer), and together in
    the middle of the session, so that a switch forgotten is seen, and put right, while
    rounds remain to play."""
    count = max(1, (rounds + 2) // 4)
    first = (rounds - count) // 2 + 1
    return tuple(range(first, first + count))


def scrambled_mitchell(pairs: int, boards_per_round: int, rounds: int | None = None,
                       first_board: int = 1) -> Movement:
    """A Mitchell played for one winner, its arrow switches chosen by the movement (the
    "switched" or "scrambled" Mitchell): the pairs move as in :func:`mitchell`, and in the
    rounds of :func:`scramble_rounds` every table turns its boards, so the EW pair plays them
    North-South. Every pair then plays in both directions and one ranking covers the field."""
    plan = mitchell(pairs, boards_per_round, rounds, first_board)
    switched = arrow_switched(plan, scramble_rounds(plan.rounds))
    return dataclasses.replace(switched, kind="scrambled_mitchell")


# Howell ------------------------------------------------------------------------------------

# Three sizes have no cyclic pattern (see _strong_starter) and are tabled: for each round, the
# (match, board set) at each table. A table must never see a set twice, or a result could not
# be told by its table and board. No Howell avoids shared boards for 3 or 5 moving pairs (there
# is no Room square of side 3 or 5): both tables share every round of the 4-pair Howell, and
# all three share the last round of the 6-pair one. The 10-pair one was found by search: a Room
# square of side 9 on the circle's rounds, its matches then spread over the tables.
_HOWELL_TABLED: Final[dict[int, tuple[tuple[tuple[int, int], ...], ...]]] = {
    3: (((0, 0), (1, 0)), ((0, 1), (1, 1)), ((0, 2), (1, 2))),
    5: (((0, 1), (1, 2), (2, 3)), ((0, 3), (2, 4), (1, 2)), ((0, 4), (2, 3), (1, 1)),
        ((0, 2), (1, 1), (2, 4)), ((0, 0), (1, 0), (2, 0))),
    9: (((0, 0), (1, 1), (2, 2), (3, 3), (4, 4)), ((0, 2), (3, 3), (4, 5), (1, 1), (2, 0)),
        ((0, 3), (1, 6), (4, 0), (2, 2), (3, 7)), ((0, 1), (1, 7), (2, 3), (3, 4), (4, 5)),
        ((0, 5), (1, 2), (2, 6), (3, 8), (4, 3)), ((0, 6), (3, 8), (2, 4), (4, 5), (1, 1)),
        ((0, 8), (4, 4), (1, 1), (3, 7), (2, 6)), ((0, 7), (4, 5), (2, 8), (3, 0), (1, 2)),
        ((0, 4), (3, 0), (2, 7), (1, 6), (4, 8))),
}


@cache
def _strong_starter(moving: int) -> tuple[int, ...]:
    """Offsets g, g[0] = 0, such that match k of round r may play set r + g[k].

    A moving pair p meets match k = ±(p - r) in round r, so over the rounds it plays the sets
    p + g[k] ∓ k: all different when {g[0]} and the pairs {g[k] - k, g[k] + k} cover Z_m
    once. The g[k] all differing means no two tables share a set in a round. This is a strong
    starter in Z_m (translated and halved); the search finds one for every odd m up to 31
    but 3, 5 and 9.
    """
    matches = (moving + 1) // 2
    offsets = [0] * matches
    covered = {0}

    def place(k: int) -> bool:
        if k == 0:
            return True
        for offset in range(1, moving):
            low, high = (offset - k) % moving, (offset + k) % moving
            if offset in offsets[k + 1:] or low in covered or high in covered:
                continue
            covered.update((low, high))
            offsets[k] = offset
            if place(k - 1):
                return True
            covered.difference_update((low, high))
        return False

    if not place(matches - 1):
        raise MovementError(f"no Howell pattern for {moving + 1} pairs")  # 3, 5, 9: tabled
    return tuple(offsets)


def _howell_round(moving: int, round: int) -> tuple[tuple[int, int], ...]:
    """The (match, board set) at each table; match k sits at table k + 1 in the cyclic case,
    so that a table's sets r + g[k] all differ."""
    if moving in _HOWELL_TABLED:
        return _HOWELL_TABLED[moving][round]
    return tuple((k, (round + offset) % moving) for k, offset in enumerate(_strong_starter(moving)))


def howell(pairs: int, boards_per_round: int, rounds: int | None = None,
           first_board: int = 1) -> Movement:
    """Every pair meets every other once: the circle method, with the highest-numbered pair
    stationary NS at table 1 and the others turning round the circle one place a round."""
    _check_boards(boards_per_round, first_board)
    if pairs < 4:
        raise MovementError(f"a Howell needs at least 4 pairs, not {pairs}: with fewer, each "
                            "board is played at one table only and there is nothing to compare")
    if pairs > MAX_HOWELL_PAIRS:
        raise MovementError(f"a Howell is for at most {MAX_HOWELL_PAIRS} pairs, not {pairs}; "
                            "play a Mitchell")
    tables = (pairs + 1) // 2
    moving = 2 * tables - 1
    rounds = _check_rounds(rounds, moving, f"a Howell for {pairs} pairs",
                           "by then every pair has met every other")
    # With an odd number of pairs the stationary seat is the phantom: table 1 is the sit-out.
    stationary = 2 * tables if pairs % 2 == 0 else PHANTOM
    design = []
    for round in range(rounds):
        # Match 0 is the stationary pair's; match k pairs the two pairs k places either side
        # of this round's pair on the circle, so every pair meets every other exactly once.
        design.append([
            _Place(ns=stationary, ew=round + 1, board_set=board_set) if k == 0 else
            _Place(ns=(round + k) % moving + 1, ew=(round - k) % moving + 1, board_set=board_set)
            for k, board_set in _howell_round(moving, round)
        ])
    participants = [Participant(number, str(number), "") for number in range(1, moving + 1)]
    participants.append(Participant(2 * tables, str(2 * tables), "", phantom=pairs % 2 == 1))
    return _build("howell", participants, design, boards_per_round, first_board)


# A 3/4 Howell: the first three quarters of the circle's rounds, every board at every table once.
# For each number of tables, each round's board set at each table (a set the table has not
# had, and no pair meets a set twice): found by search (a local search on the circle's
# rounds); where two tables of a round have the same set they share it, as in a barometer.
#: HOWELL_34_TABLE
_HOWELL_34: Final[dict[int, tuple[tuple[int, ...], ...]]] = {
    3: ((2, 2, 2), (0, 0, 0), (3, 3, 3), (1, 1, 1)),
    4: ((3, 3, 3, 3), (4, 4, 4, 4), (1, 1, 1, 1), (0, 0, 0, 0), (2, 2, 2, 2)),
    5: ((0, 2, 2, 5, 2), (4, 1, 1, 4, 1), (5, 3, 3, 0, 3), (6, 6, 6, 6, 6), (1, 4, 4, 1, 4), (3,
        0, 0, 3, 5), (2, 5, 5, 2, 0)),
    6: ((3, 3, 3, 3, 3, 3), (0, 0, 0, 0, 0, 0), (5, 5, 5, 5, 5, 5), (1, 1, 1, 1, 1, 1), (2, 2,
        2, 2, 2, 2), (7, 7, 7, 7, 7, 7), (4, 4, 4, 4, 4, 4), (6, 6, 6, 6, 6, 6)),
    7: ((8, 4, 6, 5, 3, 8, 4), (2, 7, 1, 4, 0, 2, 7), (1, 6, 2, 9, 9, 6, 6), (9, 8, 7, 6, 2, 1,
        1), (0, 3, 5, 1, 5, 7, 8), (6, 1, 8, 3, 8, 9, 5), (7, 5, 9, 0, 4, 3, 3), (3, 0, 4, 7, 7,
        0, 0), (4, 9, 3, 2, 6, 4, 9), (5, 2, 0, 8, 1, 5, 2)),
    8: ((2, 2, 10, 10, 2, 2, 2, 10), (4, 0, 0, 4, 0, 0, 4, 0), (3, 8, 8, 9, 8, 8, 3, 8), (5, 5,
        5, 5, 5, 5, 5, 5), (7, 3, 9, 7, 9, 3, 7, 9), (10, 10, 2, 2, 10, 10, 10, 2), (1, 1, 1, 1,
        1, 1, 1, 1), (0, 7, 7, 0, 7, 7, 0, 7), (8, 9, 3, 8, 3, 9, 8, 3), (6, 6, 6, 6, 6, 6, 6,
        6), (9, 4, 4, 3, 4, 4, 9, 4)),
}


def howell_34(pairs: int, boards_per_round: int, rounds: int | None = None,
              first_board: int = 1) -> Movement:
    """A 3/4 Howell for 3 to 8 tables (no published design for 9 or 10 was found: they are
    refused): the complete Howell's circle of pairs for about three quarters of its rounds
    (4 rounds of 3 tables, 5 of 4, 7 of 5, 8 of 6, 10 of 7, 11 of 8), with as many board sets
    as rounds: every pair plays every set once,
    every table plays every set once (so each board is played at every table), and no pair
    meets another twice. One winner."""
    _check_boards(boards_per_round, first_board)
    tables = (pairs + 1) // 2
    if tables not in _HOWELL_34 or pairs < 5:
        sizes = sorted(_HOWELL_34)
        raise MovementError(f"a 3/4 Howell is for {sizes[0]} to {sizes[-1]} tables "
                            f"({2 * sizes[0] - 1} to {2 * sizes[-1]} pairs), not {pairs} pairs")
    sets = _HOWELL_34[tables]
    full = len(sets)
    rounds = _check_rounds(rounds, full, f"a {tables}-table 3/4 Howell",
                           "it has a set of boards for each of those")
    moving = 2 * tables - 1
    stationary = 2 * tables if pairs % 2 == 0 else PHANTOM
    design = [[_Place(ns=stationary, ew=round + 1, board_set=sets[round][0]) if k == 0 else
               _Place(ns=(round + k) % moving + 1, ew=(round - k) % moving + 1,
                      board_set=sets[round][k])
               for k in range(tables)] for round in range(rounds)]
    participants = [Participant(number, str(number), "") for number in range(1, moving + 1)]
    participants.append(Participant(2 * tables, str(2 * tables), "", phantom=pairs % 2 == 1))
    return _build("howell_34", participants, design, boards_per_round, first_board)


# Teams and the individual ------------------------------------------------------------------

def teams(boards_per_round: int, rounds: int, first_board: int = 1) -> Movement:
    """A two-table match: team 1 NS at table 1 and EW at table 2; both tables play the same
    boards each round, exchanging them half-way."""
    _check_boards(boards_per_round, first_board)
    if rounds < 1:
        raise MovementError(f"a teams match plays at least 1 round, not {rounds}")
    design = [[_Place(1, 2, round), _Place(2, 1, round)] for round in range(rounds)]
    participants = [Participant(1, "Team 1", ""), Participant(2, "Team 2", "")]
    return _build("teams", participants, design, boards_per_round, first_board)


# Seed 004, "ORGANIZACION DEL JUEGO": player 1 (the highest card) keeps the South seat for
# the three partidas; the others sit as its drawings show (North top, West left, East right).
# Each row is (N, S, E, W) for one partida.
_SEED_004_SEATS: Final = ((3, 1, 4, 2), (4, 1, 2, 3), (2, 1, 3, 4))
_SEED_004_BOARDS: Final = 4  # "En cada partida se juegan cuatro manos"


def partnership(player: int, partner: int) -> int:
    """The number of a partnership of the individual: players 1 and 3 are partnership 13."""
    return 10 * min(player, partner) + max(player, partner)


def individual(first_board: int = 1) -> Movement:
    """Seed 004's game for four: three partidas of four deals, each player partnering each
    other once, at one table."""
    _check_boards(_SEED_004_BOARDS, first_board)
    design = [[_Place(ns=partnership(north, south), ew=partnership(east, west),
                      board_set=round, ns_players=(north, south), ew_players=(east, west))]
              for round, (north, south, east, west) in enumerate(_SEED_004_SEATS)]
    participants = [Participant(player, f"Player {player}", "") for player in range(1, 5)]
    return _build("individual", participants, design, _SEED_004_BOARDS, first_board)


# Barometer pairs --------------------------------------------------------------------------

def barometer(pairs: int, boards_per_round: int, rounds: int | None = None,
              first_board: int = 1, *, seating: str = "howell") -> Movement:
    """Every table plays the same boards in the same round (round 1 boards 1, 2..., round 2
    the next set): the pairs sit and move as in a Howell (``seating`` "howell": one
    winner, every pair meets every other) or a Mitchell ("mitchell": NS stay, EW move up one
    table, two winners). Each table has its own copy of the round's boards (duplicated by
    the dealing machine), so the boards never move, and no board is seen twice because each
    round has boards of its own; a Mitchell needs no skip. The live page shows a round's
    boards once every table has finished them (the release rule, server/scoring/standings.py)."""
    _check_boards(boards_per_round, first_board)
    if seating == "howell":
        base = howell(pairs, 1, rounds)
        design = [[_Place(s.ns, s.ew, s.round) for s in base.round(number)]
                  for number in range(1, base.rounds + 1)]
        return _build("barometer", base.participants, design, boards_per_round, first_board)
    if seating != "mitchell":
        raise MovementError(f"a barometer is seated as a howell or a mitchell, not {seating!r}")
    base = mitchell(pairs, 1, 1)  # its checks and its participants
    tables = base.tables
    rounds = _check_rounds(rounds, tables, f"a {tables}-table Mitchell barometer",
                           "more would meet an EW pair again")
    odd = pairs % 2 == 1
    # EW move up one table every round, no skip: every round's boards are new to everyone.
    design = [[_Place(ns=PHANTOM if odd and table == tables - 1 else table + 1,
                      ew=tables + (table - round) % tables + 1, board_set=round)
               for table in range(tables)] for round in range(rounds)]
    return _build("baro_mitchell", base.participants, design, boards_per_round, first_board)


# Swiss teams -------------------------------------------------------------------------------

Pairings = tuple[tuple[tuple[int, int], ...], ...]
"""The matches of each round paired so far, as (home, away) team numbers in table order;
a bye is not a match and is not listed (server/scoring/swiss.py keeps it)."""


def swiss_tables(teams: int) -> int:
    """Two tables a match; with an odd number of teams one team has a bye each round."""
    return 2 * (teams // 2)


def swiss(teams: int, boards_per_round: int, rounds: int, pairings: Pairings = (),
          first_board: int = 1) -> Movement:
    """Swiss teams: match m of a round is at tables 2m - 1 (the open room: the home team NS)
    and 2m (the closed room: the home team EW), as a two-table teams match, and every match
    of the round plays the same boards (each table its own copy). Who meets whom is decided
    round by round from the standings (server/scoring/swiss.py); ``pairings`` are the rounds paired
    so far. A round not paired yet has its tables and boards but nobody seated (both sides
    PHANTOM), so nothing is sent, scheduled or released for it until it is paired."""
    _check_boards(boards_per_round, first_board)
    if teams < 2:
        raise MovementError(f"a Swiss needs at least 2 teams, not {teams}")
    most = teams - 1 if teams % 2 == 0 else teams
    rounds = _check_rounds(rounds, most, f"a Swiss of {teams} teams",
                           "after that a round cannot be paired without a rematch")
    if len(pairings) > rounds:
        raise MovementError(f"{len(pairings)} rounds paired, but the Swiss has {rounds}")
    tables = swiss_tables(teams)
    seatings = []
    for number in range(1, rounds + 1):
        first = first_board + (number - 1) * boards_per_round
        boards = tuple(range(first, first + boards_per_round))
        matches = pairings[number - 1] if number <= len(pairings) else None
        if matches is not None and len(matches) != tables // 2:
            raise MovementError(f"round {number} has {len(matches)} matches; "
                                f"{teams} teams play {tables // 2}")
        for match in range(tables // 2):
            home, away = matches[match] if matches is not None else (PHANTOM, PHANTOM)
            for table, ns, ew in ((2 * match + 1, home, away), (2 * match + 2, away, home)):
                seatings.append(Seating(round=number, table=table, ns=ns, ew=ew,
                                        boards=boards, next_ns=None, next_ew=None,
                                        next_boards=None))
    participants = tuple(Participant(team, f"Team {team}", "") for team in range(1, teams + 1))
    return Movement(kind="swiss", tables=tables, rounds=rounds,
                    boards_per_round=boards_per_round, participants=participants,
                    seatings=tuple(seatings))


# The movement kinds, each defined once ------------------------------------------------------

class Plays(enum.StrEnum):
    """What a movement's participant is: a pair, a team (of two pairs, at two tables) or a
    player (the individual's partnerships last a round)."""

    PAIRS = "pairs"
    TEAMS = "teams"
    PLAYERS = "players"


Builder = Callable[[int, int, int | None, int, Pairings], Movement]
"""participants, boards per round, rounds (None: the movement's own), first board, and a
Swiss's rounds paired so far."""


@dataclass(frozen=True)
class MovementKind:
    """Everything the server asks of a kind of movement, in one entry: its name in both
    languages, what it pairs, the scorings it allows (the first is the default), whether a
    section may play it, its USEBIO event, how it is built, and what sets it apart."""

    name: str
    words: Words
    plays: Plays
    scorings: tuple[Scoring, ...]
    build: Builder | None  # None: built from its sections (``sectioned``)
    usebio: str  # USEBIO's EVENT_TYPE family: PAIRS, TEAMS, SWISS_TEAMS, INDIVIDUAL
    in_sections: bool = False  # a section of a session may play it
    two_winners: bool = False  # a Mitchell: NS and EW ranked apart, the arrow may switch
    paired: bool = False  # a Swiss: each round paired from the standings as it starts
    partidas: bool = False  # dealer and vulnerability follow seed 004's partidas, not Law 2
    offered: bool = True  # in the set-up form's list (sections have a fieldset of their own)
    live_vugraph: bool = False  # one match of two tables: the vugraph may show it live

    @property
    def default_scoring(self) -> Scoring:
        return self.scorings[0]


# What a pairs movement may be scored with: each scoring's entry says (server/setup/scorings.py);
# matchpoints, the first, is the default.
_PAIRS_SCORINGS = tuple(scoring for scoring in Scoring if scoring.entry.pairs_field)


def _needs_rounds(what: str, rounds: int | None) -> int:
    if rounds is None:
        raise MovementError(f"say how many rounds the {what} has")
    return rounds


def _teams_match(participants: int, boards: int, rounds: int | None, first: int,
                 _: Pairings) -> Movement:
    if participants != 2:
        raise MovementError(f"a teams match is between 2 teams, not {participants}")
    return teams(boards, _needs_rounds("teams match", rounds), first)


def _the_individual(participants: int, boards: int, rounds: int | None, first: int,
                    _: Pairings) -> Movement:
    if participants != 4:
        raise MovementError(f"the individual is for 4 players, not {participants}")
    if boards != _SEED_004_BOARDS or rounds not in (None, len(_SEED_004_SEATS)):
        raise MovementError("the individual is 3 rounds of 4 boards (seed 004), not "
                            f"{rounds or 3} rounds of {boards}")
    return individual(first)


def _pairs(build: Callable[[int, int, int | None, int], Movement]) -> Builder:
    return lambda participants, boards, rounds, first, _: build(participants, boards, rounds,
                                                                first)


KINDS: Final[dict[str, MovementKind]] = {kind.name: kind for kind in (
    MovementKind("mitchell", Words(es="Mitchell", en="Mitchell"),
                 Plays.PAIRS, _PAIRS_SCORINGS, _pairs(mitchell), "PAIRS", in_sections=True,
                 two_winners=True),
    MovementKind("mitchell_relay",
                 Words(es="Mitchell con mesas compartidas y atril de relevo (mesas pares)",
                       en="Mitchell, share and relay (an even number of tables)"),
                 Plays.PAIRS, _PAIRS_SCORINGS, _pairs(mitchell_relay), "PAIRS",
                 in_sections=True, two_winners=True),
    MovementKind("mitchell_appendix", Words(es="Mitchell con mesa apéndice (media mesa)",
                                            en="Mitchell with an appendix table (a half "
                                               "table)"),
                 Plays.PAIRS, _PAIRS_SCORINGS, _pairs(mitchell_appendix), "PAIRS",
                 in_sections=True, two_winners=True),
    MovementKind("scrambled_mitchell",
                 Words(es="Mitchell con cambio de línea (un solo ganador)",
                       en="Scrambled Mitchell (arrow-switched: one winner)"),
                 Plays.PAIRS, _PAIRS_SCORINGS, _pairs(scrambled_mitchell), "PAIRS",
                 in_sections=True),
    MovementKind("howell", Words(es="Howell", en="Howell"), Plays.PAIRS, _PAIRS_SCORINGS,
                 _pairs(howell), "PAIRS", in_sections=True),
    MovementKind("howell_34", Words(es="Howell 3/4 (de 3 a 8 mesas)",
                                    en="3/4 Howell (3 to 8 tables)"),
                 Plays.PAIRS, _PAIRS_SCORINGS, _pairs(howell_34), "PAIRS", in_sections=True),
    MovementKind("teams", Words(es="Equipos", en="Teams"), Plays.TEAMS, (Scoring.TEAMS,),
                 _teams_match, "TEAMS", live_vugraph=True),
    MovementKind("individual", Words(es="Individual", en="Individual"), Plays.PLAYERS,
                 (Scoring.CLUB, Scoring.RUBBER, Scoring.CHICAGO), _the_individual,
                 "INDIVIDUAL", partidas=True),
    MovementKind("swiss", Words(es="Suizo por equipos (PV)", en="Swiss teams (VPs)"),
                 Plays.TEAMS, (Scoring.SWISS,),
                 lambda teams_, boards, rounds, first, pairings: swiss(
                     teams_, boards, _needs_rounds("Swiss", rounds), pairings, first),
                 "SWISS_TEAMS", paired=True),
    MovementKind("barometer", Words(es="Barómetro (Howell)", en="Barometer (Howell)"),
                 Plays.PAIRS, _PAIRS_SCORINGS,
                 _pairs(lambda p, b, r, f: barometer(p, b, r, f, seating="howell")), "PAIRS"),
    MovementKind("baro_mitchell", Words(es="Barómetro (Mitchell)", en="Barometer (Mitchell)"),
                 Plays.PAIRS, _PAIRS_SCORINGS,
                 _pairs(lambda p, b, r, f: barometer(p, b, r, f, seating="mitchell")), "PAIRS",
                 two_winners=True),
    MovementKind(SECTIONS, Words(es="Secciones", en="Sections"), Plays.PAIRS,
                 _PAIRS_SCORINGS, None, "PAIRS", offered=False),
)}


USEBIO_EVENTS: Final = ("PAIRS", "TEAMS", "SWISS_TEAMS", "INDIVIDUAL")


def check_kinds(kinds: Mapping[str, MovementKind]) -> None:
    """Every kind is whole: filed under its own name, words in both languages, a builder
    unless it is made of sections, scorings it allows, and a USEBIO event this module knows.
    Run when the module loads, so a bad entry never starts."""
    for name, kind in kinds.items():
        if name != kind.name or not (kind.words.es and kind.words.en):
            raise AssertionError(f"movement kind {name!r} is not whole")
        if not kind.scorings or (kind.build is None) != (name == SECTIONS):
            raise AssertionError(f"movement kind {name!r} is not whole")
        if kind.usebio not in USEBIO_EVENTS:
            raise AssertionError(f"movement kind {name!r}: no USEBIO event {kind.usebio!r}")
        if kind.in_sections and kind.plays is not Plays.PAIRS:
            raise AssertionError(f"movement kind {name!r}: only pairs play in sections")
        if kind.live_vugraph and kind.plays is not Plays.TEAMS:
            raise AssertionError(f"movement kind {name!r}: only a match is shown live")


check_kinds(KINDS)
OFFERED: Final = tuple(name for name, kind in KINDS.items() if kind.offered)
IN_SECTIONS: Final = tuple(name for name, kind in KINDS.items() if kind.in_sections)


def kind_of(name: str) -> MovementKind:
    """The movement kind named ``name``; MovementError, naming the choices, otherwise."""
    found = KINDS.get(name.strip().lower())
    if found is None:
        raise MovementError(f"unknown movement {name!r}: choose one of {', '.join(OFFERED)}")
    return found


def movement(kind: str, participants: int, boards_per_round: int, rounds: int | None = None,
             first_board: int = 1, pairings: Pairings = ()) -> Movement:
    """Build the movement the director asked for by name; ``participants`` counts pairs,
    teams or players as the kind requires."""
    build = kind_of(kind).build
    if build is None:
        raise MovementError(f"a {kind} session is built from its sections")
    return build(participants, boards_per_round, rounds, first_board, pairings)


# Sections and the arrow-switch ------------------------------------------------------------

def arrow_switched(plan: Movement, rounds: Sequence[int]) -> Movement:
    """A Mitchell played for one winner: in ``rounds`` every table turns its arrow, so the
    EW pair sits North-South and the NS pair East-West for the round's boards. Every pair
    then plays both directions, and one ranking covers the field: the participants lose
    their NS/EW groups."""
    if not KINDS[plan.kind].two_winners:
        raise MovementError(f"the arrow-switch is for a Mitchell, not a {plan.kind}")
    chosen = set(rounds)
    wrong = sorted(r for r in chosen if not 1 <= r <= plan.rounds)
    if wrong:
        raise MovementError(f"this Mitchell has rounds 1 to {plan.rounds}; it cannot switch "
                            f"in round {', '.join(map(str, wrong))}")
    if not chosen:
        return plan
    seatings = tuple(
        Seating(seat.round, seat.table, ns=seat.ew, ew=seat.ns, boards=seat.boards,
                next_ns=seat.next_ew, next_ew=seat.next_ns, next_boards=seat.next_boards,
                switched=True)
        if seat.round in chosen and not seat.sit_out else seat
        for seat in plan.seatings)
    participants = tuple(Participant(p.number, p.label, "", p.phantom)
                         for p in plan.participants)
    return Movement(plan.kind, plan.tables, plan.rounds, plan.boards_per_round, participants,
                    seatings)


SECTION_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,15}")
"""A section's name: a letter ("A", "AB") or, at a centre, a club's name ("bilbao")."""


def section_prefix(section: str) -> str:
    """What comes before a table's or a pair's number: "B" for a lettered section ("B3"),
    "bilbao-" for a club's, where the name and the number would run together."""
    return section if section.isalpha() and len(section) <= 2 else f"{section}-"


def pair_number(label: str) -> str:
    """A pair's label without its side ("3 NS" -> "3", "B4 EW" -> "B4"): how a traveller's
    heading and the seat displays name a pair."""
    head, _, tail = label.rpartition(" ")
    return head if head and tail in ("NS", "EW", "EO") else label


def table_name(section: str, number: int) -> str:
    """Table ``number`` of ``section`` as the room calls it: "B3", "bilbao-3"."""
    return f"{section_prefix(section)}{number}"


@dataclass(frozen=True)
class Section:
    """One section of a session as the director sets it up: its letter, its own movement
    (kind, pairs, boards per round, rounds, first board) and the rounds a Mitchell plays with
    the arrow switched."""

    letter: str
    kind: str
    pairs: int
    boards_per_round: int
    rounds: int | None = None
    first_board: int = 1
    arrow_rounds: tuple[int, ...] = ()

    def plan(self) -> Movement:
        if not SECTION_NAME.fullmatch(self.letter):
            raise MovementError(f"a section's name is 1 to 16 letters, digits or '-', not "
                                f"{self.letter!r}")
        if self.kind not in IN_SECTIONS:
            raise MovementError(f"section {self.letter}: a section plays one of "
                                f"{', '.join(IN_SECTIONS)}, not a {self.kind}")
        try:
            plan = movement(self.kind, self.pairs, self.boards_per_round, self.rounds,
                            self.first_board)
            return arrow_switched(plan, self.arrow_rounds) if self.arrow_rounds else plan
        except MovementError as error:
            raise MovementError(f"section {self.letter}: {error}") from None


def section_letters(count: int) -> list[str]:
    """A, B, ... Z, then AA, AB, ...: the names sections go by."""
    letters = []
    for index in range(count):
        name = ""
        index += 1
        while index:
            index, rest = divmod(index - 1, 26)
            name = chr(ord("A") + rest) + name
        letters.append(name)
    return letters


@dataclass(frozen=True)
class Sectioned(Movement):
    """Several sections played as one session: tables and participants are numbered on
    through the sections (section A's tables 1 to 8, B's 9 to 14...), so that topics, table
    logins and the stored results keep one number each; ``table_sections`` and
    ``participant_sections`` give each number its section, and the labels ("B3") are what the
    people in the room see."""

    sections: tuple[Section, ...] = ()
    first_tables: tuple[int, ...] = ()  # each section's first table number, less one
    first_numbers: tuple[int, ...] = ()  # each section's first participant number, less one

    def section_of_table(self, table: int) -> tuple[Section, int]:
        """The section of a table number, and the table's number within it."""
        if not 1 <= table <= self.tables:
            raise MovementError(f"this session has tables 1 to {self.tables}, not {table}")
        index = bisect_left(self.first_tables, table) - 1  # the last section before it
        return self.sections[index], table - self.first_tables[index]

    def table_of(self, section: str, number: int) -> int:
        """The session's number of table ``number`` of ``section`` (a club's table 3 at a
        centre); MovementError if the section has no such table."""
        for part, offset, following in zip(self.sections, self.first_tables,
                                           (*self.first_tables[1:], self.tables), strict=True):
            if part.letter == section:
                if not 1 <= number <= following - offset:
                    raise MovementError(f"section {section} has tables 1 to "
                                        f"{following - offset}, not {number}")
                return offset + number
        raise MovementError(f"no section {section!r} in this session")

    def section_of(self, participant: int) -> str:
        """The letter of the section whose pairs number ``participant``; "" for none."""
        index = bisect_left(self.first_numbers, participant) - 1  # the last offset below it
        return self.sections[index].letter if index >= 0 else ""

    def table_label(self, table: int) -> str:
        section, number = self.section_of_table(table)
        return table_name(section.letter, number)


def sectioned(sections: Sequence[Section]) -> Movement:
    """One movement of several sections, each played on its own tables with its own pairs.
    One section alone is that section's movement, numbered as always."""
    if not sections:
        raise MovementError("a session has at least one section")
    letters = [section.letter for section in sections]
    if len(set(letters)) != len(letters):
        raise MovementError(f"two sections have the same letter: {', '.join(letters)}")
    plans = [section.plan() for section in sections]
    if len(sections) == 1:
        return plans[0]
    seatings: list[Seating] = []
    participants: list[Participant] = []
    first_tables: list[int] = []
    first_numbers: list[int] = []
    tables = numbers = 0
    for section, plan in zip(sections, plans, strict=True):
        first_tables.append(tables)
        first_numbers.append(numbers)

        def number(n: int, offset: int = numbers) -> int:
            return PHANTOM if n == PHANTOM else n + offset

        def table(t: int | None, offset: int = tables) -> int | None:
            return None if t is None else t + offset

        for seat in plan.seatings:
            seatings.append(Seating(
                seat.round, seat.table + tables, number(seat.ns), number(seat.ew), seat.boards,
                table(seat.next_ns), table(seat.next_ew), table(seat.next_boards),
                switched=seat.switched))
        for p in plan.participants:
            group = f"{section.letter} {p.group}".strip()
            participants.append(Participant(number(p.number),
                                            section_prefix(section.letter) + p.label,
                                            group, p.phantom))
        tables += plan.tables
        numbers += max(p.number for p in plan.participants)
    seatings.sort(key=lambda seat: (seat.round, seat.table))
    return Sectioned(SECTIONS, tables, max(plan.rounds for plan in plans),
                     max(plan.boards_per_round for plan in plans), tuple(participants),
                     tuple(seatings), tuple(sections), tuple(first_tables),
                     tuple(first_numbers))
