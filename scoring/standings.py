"""Standings: players ordered by a tie-break chain. Pure Python, no Django.

The chain is an ordered list of metrics; a tie on one metric falls through to the next. Players still level after
the whole chain share the rank (shown as "=3"), so a prize tie is visible rather than settled by list order.

Head-to-head is the one link that is not a figure of each player alone: it compares the players still level at
that link by the games they played against each other, and applies only when every two of them met.

Each metric has a key (what the organizer types), a name (what the standings' foot says) and an abbreviation (its
column's heading), as a debating tab's standings metrics do. The percentages and points per game are exact
fractions of the games played (byes and games not played count in neither part), so two players level on them are
level exactly; a player with no figure (no game played) ranks below every player with one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
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
    number: int | None = None  # the number on the player's tally card, for the chain's last link

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

    @property
    def points_for(self) -> int:
        """Points in the games played: the tally less what the byes credited."""
        return self.total - sum(self.per_round.get(number, 0) for number in self.bye_rounds)

    @property
    def win_share(self) -> Fraction | None:
        """Games won ÷ games played; None with no game played."""
        return Fraction(self.wins, self.games) if self.games else None

    @property
    def points_share(self) -> Fraction | None:
        """Points for ÷ (for + against) over the games played; None with no game played, or when the two add up to
        nothing or less (only rules that score below zero can do that)."""
        both = self.points_for + self.conceded
        return Fraction(self.points_for, both) if self.games and both > 0 else None

    @property
    def points_per_game(self) -> Fraction | None:
        """Points in the games played ÷ games played (a bye's credit in neither); None with no game played."""
        return Fraction(self.points_for, self.games) if self.games else None


@dataclass(frozen=True)
class Meeting:
    """One game as head-to-head sees it: the players of each side, each side's points, and the side that won."""

    sides: tuple[tuple[int, ...], tuple[int, ...]]
    points: tuple[int, int]
    winner: int  # 0 or 1, an index into `sides`


Figure = int | float | Fraction


def percent(share: Fraction | None) -> str:
    """A share as a person reads it: "71.4 %" (one decimal, halves up); "–" where there is none."""
    if share is None:
        return "–"
    tenths = math.floor(share * 1000 + Fraction(1, 2))
    return f"{tenths // 10}.{tenths % 10} %" if tenths >= 0 else f"-{-tenths // 10}.{-tenths % 10} %"


def _plain(value: Figure | None) -> str:
    if value is None:
        return "–"
    if isinstance(value, int):
        return str(value)
    return f"{float(value):.2f}"


@dataclass(frozen=True)
class Metric:
    key: str
    label: str  # its name, as the standings' foot says it
    value: Callable[[PlayerTotals], Figure | None]  # None: no figure (ranks below every player with one)
    higher_is_better: bool = True
    # Compared among the players level at this link, from the games they met in, rather than player by player.
    among: bool = False
    abbr: str = ""  # its column's heading
    shown: Callable[[Figure | None], str] = _plain  # the figure as a person reads it
    explained: str = ""  # what the figure counts, for the standings' foot (the shares of the games played)

    def sort_value(self, totals: PlayerTotals) -> tuple[bool, Figure]:
        value = self.value(totals)
        if value is None:
            return (True, 0)
        return (False, -value if self.higher_is_better else value)

    def figure(self, totals: PlayerTotals) -> str:
        """This player's figure on this link, as a person reads it ("71.4 %", "12", "–")."""
        return self.shown(self.value(totals))


def _share(value: Figure | None) -> str:
    return percent(value if isinstance(value, Fraction) else None)


TOTAL = Metric("total", "total points", lambda t: t.total, abbr="Total")
WINS = Metric("wins", "games won", lambda t: t.wins, abbr="Wins")
CONCEDED = Metric("conceded", "fewest points conceded", lambda t: t.conceded, higher_is_better=False, abbr="Agst")
AVERAGE = Metric("average", "average per game", lambda t: t.average, abbr="Avg")
LONERS = Metric("loners", "loners made", lambda t: t.loners_made, abbr="Loners")
EUCHRES = Metric("euchres", "euchres made", lambda t: t.euchres, abbr="Euch")
HEAD_TO_HEAD = Metric("h2h", "head-to-head", lambda t: 0, among=True)
# What clubs rank by when players play different numbers of games (byes, late arrivals, leavers): shares of the
# games played, then the player's number.
WIN_PERCENT = Metric(
    "win_pct",
    "win percentage",
    lambda t: t.win_share,
    abbr="Win %",
    shown=_share,
    explained="Win % is games won ÷ games played",
)
POINTS_PERCENT = Metric(
    "points_pct",
    "points percentage",
    lambda t: t.points_share,
    abbr="Pts %",
    shown=_share,
    explained="Pts % is points for ÷ (points for + against) in the games played",
)
POINTS_PER_GAME = Metric(
    "ppg",
    "points per game played",
    lambda t: t.points_per_game,
    abbr="PPG",
    explained="PPG is the points of the games played ÷ games played",
)
NUMBER = Metric("number", "player's number", lambda t: t.number, higher_is_better=False, abbr="No.")
METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        TOTAL,
        WINS,
        CONCEDED,
        AVERAGE,
        LONERS,
        EUCHRES,
        HEAD_TO_HEAD,
        WIN_PERCENT,
        POINTS_PERCENT,
        POINTS_PER_GAME,
        NUMBER,
    )
}
# Metrics the standings show as a column of their own when the chain has them (total, wins and loners always are).
# (A night ranked by average first shows its average as it always has.)
COLUMNS: frozenset[str] = frozenset({"win_pct", "points_pct", "ppg", "number"})
DEFAULT_CHAIN: tuple[Metric, ...] = (TOTAL, WINS, CONCEDED)
# Winners-stay nights crown the player with the most wins (the Tournaments paragraph of the Euchre text).
WINS_FIRST: tuple[Metric, ...] = (WINS, TOTAL, CONCEDED)
# When players have played different numbers of games (late arrivals, early leavers).
AVERAGE_FIRST: tuple[Metric, ...] = (AVERAGE, WINS, CONCEDED)
# "As clubs with byes rank": win percentage, then points percentage, then the player's number.
CLUB_CHAIN: tuple[Metric, ...] = (WIN_PERCENT, POINTS_PERCENT, NUMBER)


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


def _unknown(keys: Sequence[str]) -> list[str]:
    return [key for key in keys if key not in METRICS]


def chain_refusal(keys: Sequence[str]) -> str | None:
    """Why a tie-break chain as the organizer wrote it (its keys, in order) cannot be: its first unknown link, said
    beside the field; None when every link is known (an empty chain is the night's usual one: `night_chain`)."""
    unknown = _unknown(keys)
    return f"Unknown tie-break {unknown[0]!r}: use {', '.join(METRICS)}." if unknown else None


def chain_from(keys: Sequence[str], *, draw_seed: int | None = None) -> tuple[Metric, ...]:
    """The organizer's ordered tie-break chain from metric keys (unknown keys are refused), with the draw last."""
    unknown = _unknown(keys)
    if unknown or not keys:
        raise ValueError(f"Unknown tie-breaks: {', '.join(unknown) or 'none given'}.")
    chain = tuple(METRICS[key] for key in dict.fromkeys(keys))
    return (*chain, draw(draw_seed)) if draw_seed is not None else chain


def night_chain(
    keys: Sequence[str], *, wins_first: bool = False, rank_by: str = "total", draw_seed: int | None = None
) -> tuple[Metric, ...]:
    """A night's tie-break chain: the organizer's order (`keys`), or without one the usual chain for the night's
    movement and ranking (`rank_by`: "total", "average", "clubs"); the app's draw last when there is a `draw_seed`.

    A winners-stay night (`wins_first`) crowns the player with the most wins: games won come first whatever order
    the organizer gives the rest."""
    if keys and wins_first:
        keys = ["wins", *(key for key in keys if key != "wins")]
    if not keys:
        if wins_first:
            usual = WINS_FIRST
        elif rank_by == "average":
            usual = AVERAGE_FIRST
        elif rank_by == "clubs":
            usual = CLUB_CHAIN
        else:
            usual = DEFAULT_CHAIN
        keys = [metric.key for metric in usual]
    return chain_from(keys, draw_seed=draw_seed)


def add_up(
    tallies: Iterable[Tally], players: Iterable[int] = (), numbers: Mapping[int, int] | None = None
) -> dict[int, PlayerTotals]:
    """Sum each player's game tallies. Players with no games yet appear with zeros. `numbers`: each player's number
    (their tally card's), for the chain's last link."""
    numbers = numbers or {}
    totals = {player: PlayerTotals(player, number=numbers.get(player)) for player in players}
    for tally in tallies:
        row = totals.get(tally.player)
        if row is None:
            row = totals[tally.player] = PlayerTotals(tally.player, number=numbers.get(tally.player))
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


def _listed(row: PlayerTotals) -> tuple[bool, int, int]:
    """Where a player tied on every link is listed: by the number on their card, as the night knows it wherever its
    backup is restored; a player with no number after those with one, by id."""
    return (row.number is None, row.number or 0, row.player)


def rank(
    totals: Iterable[PlayerTotals], chain: Sequence[Metric] = DEFAULT_CHAIN, meetings: Iterable[Meeting] = ()
) -> list[Standing]:
    """Order players by the chain; ties after the last link share a rank, listed by their card's number (then by
    player id where a player has none): the same order on the laptop and on the club's site, where the ids differ.

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
            blocks.append((sorted(group, key=_listed), link))
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
