"""Table cards and guide cards for the movement set up (issue 31): what the director puts on
each table and hands each pair before the first round. Pure data from the session's
movement (server/setup/movements.py); ``cards.html`` lays it out and server.outputs.report makes
the PDF.

A **table card** says, round by round, which pair sits North-South and which East-West, which
boards the table plays, and where each pair and the boards go next. A **guide card** says the
same from one pair's side: its table and direction each round, its opponents and boards,
and its sit-out. The individual's cards name the four players' seats; a Swiss's rounds are
paired as they start, so its cards give the rounds paired so far.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.setup.movements import PHANTOM, Movement, Seating
from server.setup.session import Session


@dataclass(frozen=True)
class Next:
    """Where someone or something goes after the round: a table, "stays", or none (the last
    round, or not known yet in a Swiss); ``relay``: the boards rest a round on the relay
    (bye) stand or the sit-out table before that table."""

    table: str | None
    stays: bool = False
    relay: bool = False


@dataclass(frozen=True)
class TableRound:
    round: int
    ns: int  # participant (or the individual's partnership); PHANTOM: nobody
    ew: int
    players: tuple[int, int, int, int] | None  # the individual: N, S, E, W
    boards: str  # "1-3", or "" at a sit-out table
    next_ns: Next
    next_ew: Next
    next_boards: Next


@dataclass(frozen=True)
class PairRound:
    round: int
    table: str | None  # None: sits out this round
    side: str  # "NS", "EW"; the individual: "N", "S", "E", "W"
    opponents: tuple[int, ...]
    boards: str
    next_table: Next


@dataclass(frozen=True)
class TableCard:
    table: int
    label: str
    rounds: list[TableRound]


@dataclass(frozen=True)
class GuideCard:
    participant: int
    rounds: list[PairRound]


def boards_text(boards: tuple[int, ...]) -> str:
    if not boards:
        return ""
    return str(boards[0]) if len(boards) == 1 else f"{boards[0]}-{boards[-1]}"


def _next(session: Session, seating: Seating, table: int | None, who: int) -> Next:
    if seating.round == session.rounds or who == PHANTOM or session.kind.paired:
        return Next(None)
    if table is None:
        return Next(None, stays=True)
    return Next(session.table_label(table))


def _next_boards(session: Session, plan: Movement, seating: Seating) -> Next:
    if seating.round == session.rounds or seating.next_boards is None or session.kind.paired:
        return Next(None)
    following = plan.at(seating.round + 1, seating.next_boards)
    rests = bool(seating.boards) and following.boards != seating.boards
    return Next(session.table_label(seating.next_boards), relay=rests)


def table_cards(session: Session) -> list[TableCard]:
    plan = session.plan
    cards: dict[int, list[TableRound]] = {table: [] for table in range(1, plan.tables + 1)}
    for seating in plan.seatings:
        if session.kind.paired and seating.sit_out and not seating.boards:
            continue
        players = None
        if seating.ns_players is not None and seating.ew_players is not None:
            (north, south), (east, west) = seating.ns_players, seating.ew_players
            players = (north, south, east, west)
        cards[seating.table].append(TableRound(
            seating.round, seating.ns, seating.ew, players, boards_text(seating.boards),
            _next(session, seating, seating.next_ns, seating.ns),
            _next(session, seating, seating.next_ew, seating.ew),
            _next_boards(session, plan, seating)))
    return [TableCard(table, session.table_label(table), rounds)
            for table, rounds in cards.items()]


def guide_cards(session: Session) -> list[GuideCard]:
    """One card for each pair, team or player (the phantom has none)."""
    plan = session.plan
    found: list[GuideCard] = []
    for participant in plan.participants:
        if participant.phantom:
            continue
        rounds: list[PairRound] = []
        for number in range(1, plan.rounds + 1):
            rounds.append(_pair_round(session, plan.round(number), participant.number, number))
        found.append(GuideCard(participant.number, rounds))
    return found


def _pair_round(session: Session, seatings: list[Seating], who: int,
                number: int) -> PairRound:
    for seating in seatings:
        if seating.ns_players is not None and seating.ew_players is not None:
            seats = dict(zip("NSEW", (*seating.ns_players, *seating.ew_players), strict=True))
            for side, player in seats.items():
                if player == who:
                    others = tuple(p for s, p in seats.items() if s != side)
                    return PairRound(number, session.table_label(seating.table), side,
                                     others, boards_text(seating.boards), Next(None))
            continue
        for side, own, other, goes in (("NS", seating.ns, seating.ew, seating.next_ns),
                                       ("EW", seating.ew, seating.ns, seating.next_ew)):
            if own != who:
                continue
            if other == PHANTOM:  # the opposing pair is the phantom: a sit-out
                return PairRound(number, None, side, (), "",
                                 _next(session, seating, goes or seating.table, who))
            return PairRound(number, session.table_label(seating.table), side, (other,),
                             boards_text(seating.boards), _next(session, seating, goes, who))
    return PairRound(number, None, "", (), "", Next(None))
