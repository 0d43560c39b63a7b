"""Standings: players ordered by a tie-break chain. Pure Python, no Django.

The chain is an ordered list of metrics; a tie on one metric falls through to the next. Players still level after
the whole chain share the rank (shown as "=3"), so a prize tie is visible rather than settled by list order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field


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

    @property
    def average(self) -> float:
        """Points per game played (a bye's credit counts in the points, the bye not in the games)."""
        return self.total / self.games if self.games else 0.0


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    value: Callable[[PlayerTotals], float]
    higher_is_better: bool = True

    def sort_value(self, totals: PlayerTotals) -> float:
        value = self.value(totals)
        return -value if self.higher_is_better else value


TOTAL = Metric("total", "total points", lambda t: t.total)
WINS = Metric("wins", "games won", lambda t: t.wins)
CONCEDED = Metric("conceded", "fewest points conceded", lambda t: t.conceded, higher_is_better=False)
AVERAGE = Metric("average", "average per game", lambda t: t.average)
LONERS = Metric("loners", "loners made", lambda t: t.loners_made)
EUCHRES = Metric("euchres", "euchres made", lambda t: t.euchres)
METRICS: dict[str, Metric] = {m.key: m for m in (TOTAL, WINS, CONCEDED, AVERAGE, LONERS, EUCHRES)}
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
    return Metric("draw", "a draw by the app", lambda t: random.Random(seed * 1_000_003 + t.player).random())


def chain_from(keys: Sequence[str], *, draw_seed: int | None = None) -> tuple[Metric, ...]:
    """The organizer's ordered tie-break chain from metric keys (unknown keys are refused), with the draw last."""
    unknown = [key for key in keys if key not in METRICS]
    if unknown or not keys:
        raise ValueError(f"Unknown tie-breaks: {', '.join(unknown) or 'none given'}.")
    chain = tuple(METRICS[key] for key in dict.fromkeys(keys))
    return (*chain, draw(draw_seed)) if draw_seed is not None else chain


def add_up(tallies: Iterable[GameTally], players: Iterable[int] = ()) -> dict[int, PlayerTotals]:
    """Sum each player's game tallies. Players with no games yet appear with zeros."""
    totals = {player: PlayerTotals(player) for player in players}
    for tally in tallies:
        row = totals.setdefault(tally.player, PlayerTotals(tally.player))
        row.total += tally.points
        row.per_round[tally.round] = tally.points
        if tally.bye:
            row.byes += 1
            continue
        row.conceded += tally.conceded
        row.wins += int(tally.won)
        row.best_game = max(row.best_game, tally.points) if row.games else tally.points
        row.games += 1
        row.loners_made += tally.loners_made
        row.loners_tried += tally.loners_tried
        row.euchres += tally.euchres
        row.marches += tally.marches
    return totals


def rank(totals: Iterable[PlayerTotals], chain: Sequence[Metric] = DEFAULT_CHAIN) -> list[Standing]:
    """Order players by the chain; ties after the last metric share a rank. Stable by player id for display."""

    def key(row: PlayerTotals) -> tuple[float, ...]:
        return tuple(metric.sort_value(row) for metric in chain)

    rows = sorted(totals, key=lambda row: (key(row), row.player))
    keys = [key(row) for row in rows]
    standings: list[Standing] = []
    for index, row in enumerate(rows):
        level_above = index > 0 and keys[index - 1] == keys[index]
        level_below = index + 1 < len(rows) and keys[index + 1] == keys[index]
        position = standings[-1].rank if level_above else index + 1
        separated_by = None
        if index > 0 and not level_above:
            differing = next(i for i, (a, b) in enumerate(zip(keys[index - 1], keys[index], strict=True)) if a != b)
            if differing > 0:  # level on total points, split by a later link of the chain
                separated_by = chain[differing].label
        standings.append(Standing(position, level_above or level_below, row, separated_by))
    return standings
