"""Standings: players ordered by a tie-break chain. Pure Python, no Django.

The chain is an ordered list of metrics; a tie on one metric falls through to the next. Players still level after
the whole chain share the rank (shown as "=3"), so a prize tie is visible rather than settled by list order.

Head-to-head is the one link that is not a figure of each player alone: it compares the players still level at
that link by the games they played against each other, and applies only when every two of them met.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Protocol

from . import seeds


@dataclass(frozen=True)
class GameTally:
    """One player's line on the tally for one game: their team's score, the opponents' score, win or loss."""

    player: int
    round: int
    points: int  # what the game adds to the player's tally
    conceded: int
    won: bool
    loners_made: int = 0
    loners_tried: int = 0
    euchres: int = 0
    marches: int = 0
    bye: bool = False  # a game sat out; `points` is the night's bye credit


class Tally(Protocol):
    """What `add_up` reads from a tally line: a GameTally, or a reader's own line with the same fields."""

    @property
    def player(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def points(self) -> int: ...
    @property
    def conceded(self) -> int: ...
    @property
    def won(self) -> bool: ...
    @property
    def loners_made(self) -> int: ...
    @property
    def loners_tried(self) -> int: ...
    @property
    def euchres(self) -> int: ...
    @property
    def marches(self) -> int: ...
    @property
    def bye(self) -> bool: ...


@dataclass
class PlayerTotals:
    player: int
    total: int = 0
    wins: int = 0
    conceded: int = 0
    games: int = 0  # games played, byes not included
    byes: int = 0
    loners_made: int = 0
    loners_tried: int = 0
    euchres: int = 0
    marches: int = 0
    best_game: int = 0  # the best single game played (byes not counted)
    per_round: dict[int, int] = field(default_factory=dict)
    bye_rounds: set[int] = field(default_factory=set)  # the games sat out (their points are the bye's credit)

    def game_cell(self, number: int) -> str:
        """Game `number` as a sheet shows it: the points, "bye" (with a credit, if any) or "–" (not played)."""
        if number in self.bye_rounds:
            credit = self.per_round.get(number, 0)
            return f"bye {credit:+d}" if credit else "bye"
        return str(self.per_round[number]) if number in self.per_round else "–"

    @property
    def average(self) -> float:
        """Points per game played (a bye's credit counts in the points, the bye not in the games)."""
        return self.total / self.games if self.games else 0.0


@dataclass(frozen=True)
class Meeting:
    """One game as head-to-head sees it: the players of each side, each side's points, and the side that won."""

    sides: tuple[tuple[int, ...], tuple[int, ...]]
    points: tuple[int, int]
    winner: int  # 0 or 1, an index into `sides`


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    value: Callable[[PlayerTotals], float]
    higher_is_better: bool = True
    # Compared among the players level at this link, from the games they met in, rather than player by player.
    among: bool = False

    def sort_value(self, totals: PlayerTotals) -> float:
        value = self.value(totals)
        return -value if self.higher_is_better else value


TOTAL = Metric("total", "total points", lambda t: t.total)
WINS = Metric("wins", "games won", lambda t: t.wins)
CONCEDED = Metric("conceded", "fewest points conceded", lambda t: t.conceded, higher_is_better=False)
AVERAGE = Metric("average", "average per game", lambda t: t.average)
LONERS = Metric("loners", "loners made", lambda t: t.loners_made)
EUCHRES = Metric("euchres", "euchres made", lambda t: t.euchres)
HEAD_TO_HEAD = Metric("h2h", "head-to-head", lambda t: 0, among=True)
METRICS: dict[str, Metric] = {m.key: m for m in (TOTAL, WINS, CONCEDED, AVERAGE, LONERS, EUCHRES, HEAD_TO_HEAD)}
DEFAULT_CHAIN: tuple[Metric, ...] = (TOTAL, WINS, CONCEDED)
# Winners-stay nights crown the player with the most wins (the Tournaments paragraph of the Euchre text).
WINS_FIRST: tuple[Metric, ...] = (WINS, TOTAL, CONCEDED)
# When players have played different numbers of games (late arrivals, early leavers).
AVERAGE_FIRST: tuple[Metric, ...] = (AVERAGE, WINS, CONCEDED)


@dataclass(frozen=True)
class Standing:
    rank: int
    shared: bool  # level with another player after the whole chain
    totals: PlayerTotals
    separated_by: str | None  # the tie-break that put this player (or their shared group) below the one above

    @property
    def rank_label(self) -> str:
        return f"={self.rank}" if self.shared else str(self.rank)


def draw(seed: int) -> Metric:
    """The chain's last link when the organizer wants no shared ranks: a draw by the app, the same for a seed."""
    return Metric("draw", "a draw by the app", lambda t: random.Random(seeds.standings_draw(seed, t.player)).random())


def chain_from(keys: Sequence[str], *, draw_seed: int | None = None) -> tuple[Metric, ...]:
    """The organizer's ordered tie-break chain from metric keys (unknown keys are refused), with the draw last."""
    unknown = [key for key in keys if key not in METRICS]
    if unknown or not keys:
        raise ValueError(f"Unknown tie-breaks: {', '.join(unknown) or 'none given'}.")
    chain = tuple(METRICS[key] for key in dict.fromkeys(keys))
    return (*chain, draw(draw_seed)) if draw_seed is not None else chain


def add_up(tallies: Iterable[Tally], players: Iterable[int] = ()) -> dict[int, PlayerTotals]:
    """Sum each player's game tallies. Players with no games yet appear with zeros."""
    totals = {player: PlayerTotals(player) for player in players}
    for tally in tallies:
        row = totals.get(tally.player)
        if row is None:
            row = totals[tally.player] = PlayerTotals(tally.player)
        points = tally.points
        row.total += points
        row.per_round[tally.round] = points
        if tally.bye:
            row.byes += 1
            row.bye_rounds.add(tally.round)
            continue
        row.conceded += tally.conceded
        if tally.won:
            row.wins += 1
        if not row.games or points > row.best_game:
            row.best_game = points
        row.games += 1
        if tally.loners_tried or tally.euchres or tally.marches:  # a plain game adds nothing more
            row.loners_made += tally.loners_made
            row.loners_tried += tally.loners_tried
            row.euchres += tally.euchres
            row.marches += tally.marches
    return totals


def head_to_head(players: Collection[int], meetings: Iterable[Meeting]) -> dict[int, tuple[int, int]] | None:
    """Each of `players`' games won against the others, then points for minus points against in those games.

    A game counts when two of them sat at the same table as opponents. None when some two of them never met: then
    head-to-head does not apply and the tie falls through to the next link.
    """
    group = set(players)
    score = {player: [0, 0] for player in group}
    met: set[frozenset[int]] = set()
    for meeting in meetings:
        ours, theirs = ([p for p in side if p in group] for side in meeting.sides)
        if not ours or not theirs:
            continue
        for index, mine in enumerate((ours, theirs)):
            margin = meeting.points[index] - meeting.points[1 - index]
            for player in mine:
                score[player][0] += meeting.winner == index
                score[player][1] += margin
        met.update(frozenset((a, b)) for a in ours for b in theirs)
    if len(group) < 2 or len(met) < len(group) * (len(group) - 1) // 2:
        return None
    return {player: (won, margin) for player, (won, margin) in score.items()}


def rank(
    totals: Iterable[PlayerTotals], chain: Sequence[Metric] = DEFAULT_CHAIN, meetings: Iterable[Meeting] = ()
) -> list[Standing]:
    """Order players by the chain; ties after the last link share a rank. Stable by player id for display.

    Players level on a link go on to the next one together, so every tie is settled by the first link that
    separates it, head-to-head included (`meetings`: the games played, needed only when the chain has it).
    """
    by_player: dict[int, list[Meeting]] = {}
    if any(metric.among for metric in chain):
        for meeting in meetings:
            for side in meeting.sides:
                for player in side:
                    by_player.setdefault(player, []).append(meeting)
    blocks: list[tuple[list[PlayerTotals], int | None]] = []  # level players; the link that put them below

    def among_key(group: list[PlayerTotals]) -> Callable[[PlayerTotals], tuple[int, ...]]:
        seen = {id(m): m for row in group for m in by_player.get(row.player, ())}
        scores = head_to_head([row.player for row in group], seen.values())
        if scores is None:
            return lambda row: ()
        return lambda row: tuple(-value for value in scores[row.player])

    def split(group: list[PlayerTotals], depth: int, link: int | None) -> None:
        if depth == len(chain) or len(group) == 1:
            blocks.append((sorted(group, key=lambda row: row.player), link))
            return
        metric = chain[depth]
        key = among_key(group) if metric.among else metric.sort_value
        for index, (_, level) in enumerate(groupby(sorted(group, key=key), key=key)):
            split(list(level), depth + 1, link if index == 0 else depth)

    rows = list(totals)
    if rows:
        split(rows, 0, None)
    standings: list[Standing] = []
    for block, link in blocks:
        position = len(standings) + 1
        for index, row in enumerate(block):
            # Only a split below the chain's first link is worth saying: "(split on games won)".
            separated_by = chain[link].label if index == 0 and link else None
            standings.append(Standing(position, len(block) > 1, row, separated_by))
    return standings
