"""Swiss teams: each round paired from the standings with no rematch, matches won in VPs.

The pairing rule (docs/movements.md says it for the director):

- Teams are ranked by victory points, then by their IMP difference, then by team number
  (the lower first). Round 1 has no standings yet: the ranking is the team numbers, so
  team 1 meets team 2, 3 meets 4... (number the teams in seeding order to seed them).
- With an odd number of teams the lowest-ranked team that has not had a bye sits out
  (``BYE_VP`` VPs); once every team has had one, the lowest-ranked again.
- Then, down the ranking, the top unpaired team meets the highest-ranked unpaired team it
  has not met; when that leaves teams at the bottom who have all met, the choice is undone
  step by step (backtracking, the bye's too) until every team has an opponent. No rematch
  is ever made: if no pairing without one exists the director is told, and may pair the
  round by hand (``by_hand``: the console's "Pair by hand", a rematch allowed and named).
- In each match the higher-ranked team is the home team: North-South at the open room
  (table 2m - 1), East-West at the closed room (table 2m); the best-ranked match is
  match 1 at tables 1 and 2.

A round is paired when the director starts it (``session.start_round``), from every
result of the rounds before; they must all be in. A match's IMPs (the two tables, Law 78B,
``fieldscore.team_match``) become VPs on the WBF continuous scale (server/scoring/victorypoints.py).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select

from server.scoring import fieldscore as fs
from server.scoring import penalties as penalty_book
from server.scoring.standings import field, missing, public_field
from server.scoring.victorypoints import victory_points
from server.setup.movements import PHANTOM
from server.setup.session import Session, SessionError, current, participants_of
from server.storage import schema as s
from server.storage.db import Database

BYE_VP = 12.0
"""What a bye scores: 12 VPs, the common practice (a win by a little more than a board's
worth); neither the WBF nor the Laws fix it, so the club's regulation may differ."""
SEARCH_LIMIT = 200_000
"""The most partial pairings tried before the director is told no pairing was found: a
field where none exists could otherwise search for a long time."""


class SwissError(SessionError):
    """A round that cannot be paired or scored; the message is for the director."""


# -- the pairing rule (pure) -----------------------------------------------------------------

@dataclass(frozen=True)
class Pairing:
    """One round: its matches (home, away) in table order and the team with the bye."""

    matches: tuple[tuple[int, int], ...]
    bye: int | None


def pair(ranked: Sequence[int], met: Iterable[tuple[int, int]],
         byes: Iterable[int] = ()) -> Pairing:
    """The next round's matches for teams in ranking order (best first), none of them a
    rematch of ``met``; ``byes`` are the teams that already had one."""
    if len(set(ranked)) != len(ranked) or len(ranked) < 2:
        raise SwissError(f"a Swiss round pairs 2 or more different teams, not {list(ranked)}")
    played = {frozenset(match) for match in met}
    had_bye = set(byes)
    tries = [0]

    def match(rest: list[int]) -> list[tuple[int, int]] | None:
        if not rest:
            return []
        tries[0] += 1
        if tries[0] > SEARCH_LIMIT:
            raise SwissError("no pairing without a rematch was found; the director pairs "
                             "this round by hand or ends the Swiss")
        top = rest[0]
        for index in range(1, len(rest)):
            opponent = rest[index]
            if frozenset((top, opponent)) in played:
                continue
            others = match(rest[1:index] + rest[index + 1:])
            if others is not None:
                return [(top, opponent), *others]
        return None

    teams = list(ranked)
    if len(teams) % 2 == 0:
        candidates: list[int | None] = [None]
    else:
        bottom_up = teams[::-1]
        candidates = [*(t for t in bottom_up if t not in had_bye),
                      *(t for t in bottom_up if t in had_bye)]
    for bye in candidates:
        found = match([team for team in teams if team != bye])
        if found is not None:
            return Pairing(tuple(found), bye)
    raise SwissError("every pairing of this round repeats a match: the director pairs this "
                     "round by hand or ends the Swiss")


def by_hand(text: str, teams: Iterable[int]) -> Pairing:
    """The director's own pairing of a round, as typed: matches ``home-away`` (the home team
    first) separated by commas or new lines, and with an odd number of teams the bye as a
    team alone. Every team exactly once; a rematch is the director's call (``rematches``
    names them), which is what this is for when ``pair`` finds no pairing without one."""
    known = set(teams)
    matches: list[tuple[int, int]] = []
    alone: list[int] = []
    for entry in (part.strip() for part in text.replace("\n", ",").split(",")):
        if not entry:
            continue
        numbers = [piece.strip() for piece in entry.split("-")]
        if len(numbers) > 2 or not all(n.isdigit() for n in numbers):
            raise SwissError(f"{entry!r} is not a match (home-away, as 3-8) nor a team alone "
                             "(the bye)")
        if len(numbers) == 2:
            matches.append((int(numbers[0]), int(numbers[1])))
        else:
            alone.append(int(numbers[0]))
    named = [team for match in matches for team in match] + alone
    if unknown := sorted(set(named) - known):
        raise SwissError(f"no {_teams(unknown)} in this Swiss")
    if twice := sorted({team for team in named if named.count(team) > 1}):
        raise SwissError(f"{_teams(twice)} named more than once")
    if left := sorted(known - set(named)):
        raise SwissError(f"{_teams(left)}: no opponent nor the bye")
    if len(alone) != len(known) % 2:
        raise SwissError("only a Swiss of an odd number of teams has a bye, and one only")
    return Pairing(tuple(matches), alone[0] if alone else None)


def _teams(numbers: list[int]) -> str:
    return f"team{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"


def _paired_from(ranked: list[int], done: Mapping[int, Pairing]) -> Pairing:
    met = [match for pairing in done.values() for match in pairing.matches]
    byes = [pairing.bye for pairing in done.values() if pairing.bye is not None]
    return pair(ranked, met, byes)


# -- standings (pure) -------------------------------------------------------------------------

@dataclass(frozen=True)
class Match:
    round: int
    number: int           # 1, 2...: tables 2 * number - 1 and 2 * number
    home: int
    away: int             # PHANTOM: a bye
    boards: int = 0       # boards scored so far
    home_imps: float = 0.0  # each team's IMPs over the match (opposite, but for split scores)
    away_imps: float = 0.0
    home_vp: float = 0.0
    away_vp: float = 0.0

    @property
    def bye(self) -> bool:
        return self.away == PHANTOM

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "match": self.number, "home": self.home,
                "away": None if self.bye else self.away, "boards": self.boards,
                "home_imps": self.home_imps, "away_imps": self.away_imps,
                "home_vp": self.home_vp, "away_vp": None if self.bye else self.away_vp}


@dataclass(frozen=True)
class Line:
    """A team's standing: its VPs (penalties taken off), IMP difference, rank."""

    team: int
    matches: int
    imps: float
    vp: float
    penalty: float
    rank: int
    rank_label: str

    def to_json(self) -> dict[str, Any]:
        return {"team": self.team, "matches": self.matches, "imps": self.imps,
                "vp": self.vp, "penalty": self.penalty, "rank": self.rank,
                "rank_label": self.rank_label}


def scored_matches(pairings: Mapping[int, Pairing], scored: Iterable[fs.Scored],
                   boards_per_round: int) -> list[Match]:
    """Each paired match with its IMPs and VPs over the boards scored so far (a match not
    started yet has none and counts 10-10 nowhere: it is left out of the standings until
    a board of it is scored); the byes with ``BYE_VP``."""
    imps: dict[tuple[int, int], dict[int, dict[int, float]]] = defaultdict(
        lambda: defaultdict(dict))
    for item in scored:
        result = item.result
        round_ = result.round or 0
        key = (round_, min(result.ns, result.ew))
        # Both tables carry the board's IMPs for both teams (fieldscore.team_match).
        imps[key][result.board][result.ns] = item.ns
        imps[key][result.board][result.ew] = item.ew
    found: list[Match] = []
    for round_, pairing in sorted(pairings.items()):
        for number, (home, away) in enumerate(pairing.matches, 1):
            boards = imps.get((round_, min(home, away)), {})
            boards = {b: v for b, v in boards.items() if home in v and away in v}
            if not boards:
                found.append(Match(round_, number, home, away))
                continue
            home_imps = sum(v[home] for v in boards.values())
            away_imps = sum(v[away] for v in boards.values())
            home_vp = victory_points(home_imps, boards_per_round)[0]
            away_vp = victory_points(away_imps, boards_per_round)[0]
            found.append(Match(round_, number, home, away, len(boards), home_imps, away_imps,
                               home_vp, away_vp))
        if pairing.bye is not None:
            found.append(Match(round_, len(pairing.matches) + 1, pairing.bye, PHANTOM,
                               home_vp=BYE_VP))
    return found


def standings(teams: Iterable[int], matches: Iterable[Match],
              penalties: Mapping[int, float] | None = None) -> list[Line]:
    """Every team's VPs less its VP penalties (Laws 90, 91), ranked: VPs, then IMP
    difference, then team number; equal VPs share a rank ("3=")."""
    vp: dict[int, float] = {team: 0.0 for team in teams}
    imps: dict[int, float] = dict.fromkeys(vp, 0.0)
    played: dict[int, int] = dict.fromkeys(vp, 0)
    for match in matches:
        if match.bye:
            vp[match.home] += match.home_vp
            played[match.home] += 1
            continue
        if not match.boards:
            continue
        for team, own_vp, own_imps in ((match.home, match.home_vp, match.home_imps),
                                       (match.away, match.away_vp, match.away_imps)):
            vp[team] += own_vp
            imps[team] += own_imps
            played[team] += 1
    given = penalties or {}
    totals = {team: round(vp[team] - given.get(team, 0.0), 2) for team in vp}
    order = sorted(vp, key=lambda team: (-totals[team], -imps[team], team))
    lines: list[Line] = []
    for team in order:
        rank = 1 + sum(1 for other in vp if totals[other] > totals[team])
        tied = sum(1 for other in vp if totals[other] == totals[team]) > 1
        lines.append(Line(team, played[team], imps[team], totals[team],
                          round(given.get(team, 0.0), 2), rank, f"{rank}{'=' if tied else ''}"))
    return lines


# -- the session's Swiss (storage) -------------------------------------------------------------

def stored_pairings(db: Database, session: Session) -> dict[int, Pairing]:
    with db.read() as conn:
        rows = conn.execute(select(s.swiss_matches).where(
            s.swiss_matches.c.session_id == session.id).order_by(
            s.swiss_matches.c.round, s.swiss_matches.c.match)).all()
    matches: dict[int, list[tuple[int, int]]] = defaultdict(list)
    byes: dict[int, int] = {}
    for row in rows:
        if row.away == PHANTOM:
            byes[row.round] = row.home
        else:
            matches[row.round].append((row.home, row.away))
    return {number: Pairing(tuple(matches[number]), byes.get(number))
            for number in sorted(set(matches) | set(byes))}


@dataclass(frozen=True)
class Swiss:
    matches: list[Match]
    standings: list[Line]

    def to_json(self) -> dict[str, Any]:
        return {"matches": [m.to_json() for m in self.matches],
                "standings": [line.to_json() for line in self.standings]}


def swiss_of(db: Database, session: Session, *, public: bool, scored_field: Any = None) -> Swiss:
    """The matches and standings; ``public``: over released boards only (the live page).
    ``scored_field``: the session's ``standings.Field`` when the caller has it already
    (public or not, as ``public`` says)."""
    if not session.kind.paired:
        raise SwissError(f"a {session.movement} session is not a Swiss")
    teams = _teams_of(db, session)
    found = scored_field if scored_field is not None else (
        public_field(db, session) if public else field(db, session, public=False))
    scored = [item for items in found.scored.values() for item in items]
    matches = scored_matches(stored_pairings(db, session), scored, session.boards_per_round)
    vp_penalties = penalty_book.vp_deductions(penalty_book.given(db, session))
    return Swiss(matches, standings(teams, matches, vp_penalties))


def _teams_of(db: Database, session: Session) -> list[int]:
    """The Swiss's teams by number, the phantom left out."""
    return [team for team, row in participants_of(db, session).items() if not row.phantom]


def rematches(db: Database, session: Session, number: int) -> list[tuple[int, int]]:
    """Round ``number``'s matches that were played in an earlier round (paired by hand)."""
    done = stored_pairings(db, session)
    if number not in done:
        return []
    played = {frozenset(match) for before, pairing in done.items() if before < number
              for match in pairing.matches}
    return [match for match in done[number].matches if frozenset(match) in played]


def paired(db: Database, session: Session, number: int, *, by: str | None = None,
           clock: Callable[[], float] = time.time, hand: str | None = None) -> Session:
    """The session with round ``number`` paired: stored now if it was not, from the
    standings of every round before it (which must all be complete), or as the director
    typed it (``hand``, read by ``by_hand``)."""
    if not 1 <= number <= session.rounds:
        raise SwissError(f"round {number} is not between 1 and {session.rounds}")
    done = stored_pairings(db, session)
    if number in done and hand is not None:
        raise SwissError(f"round {number} is paired already")
    if number in done:
        return session
    if number != len(done) + 1:
        raise SwissError(f"round {len(done) + 1} is the next to pair, not round {number}")
    if number > 1:  # by hand too: no table is sent a round while it still plays the last
        late = [(r, t, b) for r, t, b in missing(db, session) if r < number]
        if late:
            where = ", ".join(f"table {t} board {b}" for _, t, b in late[:6])
            raise SwissError(f"round {number} is paired from every result before it; "
                             f"missing: {where}{' ...' if len(late) > 6 else ''}")
    if hand is not None:
        pairing = by_hand(hand, _teams_of(db, session))
    elif number > 1:
        lines = swiss_of(db, session, public=False).standings
        pairing = _paired_from([line.team for line in lines], done)
    else:
        pairing = _paired_from(_teams_of(db, session), done)
    rows = [{"session_id": session.id, "round": number, "match": index, "home": home,
             "away": away, "paired_at": clock(), "paired_by": by}
            for index, (home, away) in enumerate(pairing.matches, 1)]
    if pairing.bye is not None:
        rows.append({"session_id": session.id, "round": number,
                     "match": len(pairing.matches) + 1, "home": pairing.bye,
                     "away": PHANTOM, "paired_at": clock(), "paired_by": by})
    with db.write() as conn:
        if conn.execute(select(s.swiss_matches.c.round).where(
                s.swiss_matches.c.session_id == session.id,
                s.swiss_matches.c.round == number)).first() is None:
            conn.execute(insert(s.swiss_matches), rows)
    found = current(db, session.event)
    assert found is not None
    return found
