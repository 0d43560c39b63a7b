"""The prize table: who takes which prize, from the ranked standings. Pure Python, no Django.

"high:<category>" is the high score among the players of a category the organizer gives players (for example
high:lady and high:man): the category's first place, or on a night ranked by games won its most points.

Prizes are handed out in the organizer's order. The night's first place is the first group of the standings
(players level on the whole tie-break chain): on a night ranked by games won (winners-stay) that is the champion,
and "high" is then the high score, the most points, apart from it; on a night ranked by points (or by average)
"high" is the first place, and "champion" the most games won, apart from it. Either prize goes to the best placed
of the players level on its count. Second and third are the next groups in rank order; the low score goes to the
last group among those who played the most games ("low_all": among everyone); most loners and the high single
game to the best on that count (at least one). Level players share a prize and the sheet shows it as a tie. With
"one prize each", a player who has a prize is passed over for the later ones and the next in line gets them.

What a prize given by the ranking (a place, a category's first, the low score) says it was won with names that
ranking: its points alone on a night ranked by points, the games won on one ranked by games won, and otherwise the
figure it was ranked by first, as the standings show it ("win percentage 71.4 %, 61 points").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .standings import METRICS, Standing

PRIZES: dict[str, str] = {
    "champion": "Champion (most games won)",
    "high": "High score",
    "second": "Second",
    "third": "Third",
    "low": "Low score",
    "low_all": "Low score (byes and late arrivals too)",
    "loners": "Most loners",
    "high_game": "High single game",
}
PLACES = ("high", "second", "third")


@dataclass(frozen=True)
class Award:
    key: str
    label: str
    winners: tuple[int, ...]  # player ids; more than one is a tie
    value: str  # what won it, for the sheet: "61 points", "3 loners", "win percentage 71.4 %, 61 points"

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1


def _groups(standings: Sequence[Standing]) -> list[list[Standing]]:
    """Players level on the whole chain, in rank order."""
    groups: list[list[Standing]] = []
    for standing in standings:
        if groups and groups[-1][0].rank == standing.rank:
            groups[-1].append(standing)
        else:
            groups.append([standing])
    return groups


def _count(key: str, standing: Standing) -> int:
    return standing.totals.loners_made if key == "loners" else standing.totals.best_game


def _best_on(groups: list[list[Standing]], count) -> list[Standing]:
    """The best placed group among the players with the most of `count` (groups: in rank order, already free)."""
    most = max((count(s) for group in groups for s in group), default=None)
    return next(
        ([s for s in group if count(s) == most] for group in groups if any(count(s) == most for s in group)), []
    )


def _points(points: int) -> str:
    """A score as the sheets say it: "1 point", "61 points"."""
    return f"{points} point{'' if points == 1 else 's'}"


def _won(standing: Standing) -> str:
    wins = standing.totals.wins
    return f"{wins} game{'s' if wins != 1 else ''} won, {_points(standing.totals.total)}"


def _ranked(standing: Standing, ranked_by: str) -> str:
    """What a place won by the night's ranking says: its points, and first the figure it was ranked by where that is
    not the points ("win percentage 71.4 %, 61 points" on a night ranked by win %), as the standings show it."""
    if ranked_by == "wins":
        return _won(standing)
    points = _points(standing.totals.total)
    metric = METRICS.get(ranked_by)
    if metric is None or metric.key == "total" or metric.among:  # points, a draw, or head-to-head: no figure of its own
        return points
    return f"{metric.label} {metric.figure(standing.totals)}, {points}"


@dataclass(frozen=True)
class Eligible:
    """Who may take a prize, beyond one prize each: present at the end, there for every game (played or sat out by
    the draw: not a late arrival or an early leaver), at least so many games played, members only."""

    present: bool = False
    every_game: bool = False
    min_games: int = 0
    members: bool = False

    def words(self) -> str:
        parts = [
            "present at the end" if self.present else "",
            "there for every game" if self.every_game else "",
            f"at least {self.min_games} game{'s' if self.min_games != 1 else ''} played" if self.min_games else "",
            "members only" if self.members else "",
        ]
        return ", ".join(part for part in parts if part)


def parse_eligibility(text: str) -> dict[str, Eligible]:
    """The organizer's rules, e.g. "high: present, every game; loners: members; low: games 3": prize -> Eligible.
    Refused (ValueError, in words) where a prize or a condition is not one."""
    rules: dict[str, Eligible] = {}
    for part in (piece.strip() for piece in text.split(";")):
        if not part:
            continue
        key, colon, conditions = part.rpartition(":")  # "high:lady: present": the key keeps its own colon
        key = key.strip()
        if not colon or not valid_prize(key):
            raise ValueError(f"Write each prize and who may take it, like “high: present”, not “{part}”.")
        if key in rules:
            raise ValueError(f"“{key}” has its rule twice.")
        rule = Eligible()
        for condition in (word.strip().casefold() for word in conditions.split(",")):
            if condition == "present":
                rule = replace(rule, present=True)
            elif condition in ("every game", "all games"):
                rule = replace(rule, every_game=True)
            elif condition in ("members", "members only"):
                rule = replace(rule, members=True)
            elif condition.startswith("games ") and condition[6:].strip().isdecimal():
                rule = replace(rule, min_games=int(condition[6:]))
            else:
                raise ValueError(
                    f"“{condition}” is not a rule for a prize: use present, every game, games N or members."
                )
        rules[key] = rule
    return rules


@dataclass(frozen=True)
class Player:
    """What eligibility reads of a player beyond the standings: still here at the end, a member."""

    present: bool = True
    member: bool = False


def eligible(rule: Eligible, standing: Standing, player: Player, games_closed: int) -> bool:
    totals = standing.totals
    return not (
        (rule.present and not player.present)
        or (rule.every_game and totals.games + totals.byes < games_closed)
        or (rule.min_games and totals.games < rule.min_games)
        or (rule.members and not player.member)
    )


def label(key: str) -> str:
    """A prize as the sheets name it: "High score", "Most loners", "High score, lady"."""
    return PRIZES.get(key) or f"High score, {key[5:]}"


def valid_prize(key: str) -> bool:
    """A prize key: one of PRIZES, or "high:<category>" for the high score within a category of players."""
    return key in PRIZES or (key.startswith("high:") and len(key) > 5)


def award(
    standings: Sequence[Standing],
    prizes: Sequence[str],
    *,
    one_each: bool = True,
    categories: Mapping[int, str] | None = None,
    ranked_by: str = "total",
    rules: Mapping[str, Eligible] | None = None,
    players: Mapping[int, Player] | None = None,
    games_closed: int = 0,
    settled: Mapping[str, tuple[frozenset[int], int]] | None = None,
) -> list[Award]:
    """The prize table. `ranked_by` is the first link of the night's chain: "wins" makes the champion the first
    place and the high score a prize of its own (the most points). `rules` say who may take a prize (`players`:
    who is present, who is a member); a player it passes over stays in line for the later prizes. `settled`: a tie
    settled by a recorded draw, prize -> (the players level, the one drawn): where the prize's winners are exactly
    those players, the drawn one takes it alone and the others stay in line for later prizes."""
    unknown = [key for key in prizes if not valid_prize(key)]
    if unknown:
        raise ValueError(f"Unknown prizes: {', '.join(unknown)}.")
    categories = categories or {}
    taken: set[int] = set()
    results: list[Award] = []

    rules, players = rules or {}, players or {}

    def free(group: list[Standing]) -> list[Standing]:
        rule = rules.get(key)
        return [
            s
            for s in group
            if not (one_each and s.totals.player in taken)
            and (rule is None or eligible(rule, s, players.get(s.totals.player, Player()), games_closed))
        ]

    first = "champion" if ranked_by == "wins" else "high"  # the prize that is the night's first place
    for key in prizes:
        winners: list[Standing] = []
        value = ""
        if key in ("champion", "high") and key != first:  # a prize of its own, not a place
            groups = [group for group in map(free, _groups(standings)) if group]
            if key == "champion":
                winners = _best_on(groups, lambda s: s.totals.wins)
                value = _won(winners[0]) if winners else ""
            else:
                winners = _best_on(groups, lambda s: s.totals.total)
                value = _points(winners[0].totals.total) if winners else ""
        elif key in (*PLACES, "champion"):
            groups = _groups(standings)
            place = 0 if key in ("champion", "high") else PLACES.index(key)
            if one_each:  # the best players without a prize yet
                winners = next((group for group in map(free, groups) if group), [])
            else:  # the place's group, whatever else they won (among those who may take it)
                groups = [group for group in map(free, groups) if group]
                winners = groups[place] if place < len(groups) else []
            if not winners:
                value = ""
            elif key == "champion" or ranked_by == "wins":  # places by games won say so
                value = _won(winners[0])
            else:
                value = _ranked(winners[0], ranked_by)
        elif key.startswith("high:"):  # the high score within a category: the first place, or the most points
            category = key[5:].casefold()
            groups = [
                [s for s in free(group) if categories.get(s.totals.player, "").casefold() == category]
                for group in _groups(standings)
            ]
            groups = [group for group in groups if group]
            most_points = ranked_by == "wins"
            winners = _best_on(groups, lambda s: s.totals.total) if most_points else next(iter(groups), [])
            if winners:
                value = _points(winners[0].totals.total) if most_points else _ranked(winners[0], ranked_by)
        elif key in ("low", "low_all"):
            # "low": among the players who played the most games, so sitting out or arriving late never wins it
            most = max((s.totals.games for s in standings), default=0)
            for group in reversed(_groups(standings)):
                group = [s for s in free(group) if key == "low_all" or s.totals.games == most]
                if group:
                    winners = group
                    break
            value = _ranked(winners[0], ranked_by) if winners else ""
        else:
            candidates = free(list(standings))
            best = max((_count(key, s) for s in candidates), default=0)
            if best > 0:
                winners = [s for s in candidates if _count(key, s) == best]
                value = f"{best} loner{'s' if best > 1 else ''}" if key == "loners" else f"{_points(best)} in one game"
        ids = tuple(s.totals.player for s in winners)
        level, drawn = (settled or {}).get(key, (frozenset(), 0))
        if len(ids) > 1 and frozenset(ids) == level and drawn in level:
            ids, value = (drawn,), f"{value} (won the draw)"
        taken.update(ids)
        results.append(Award(key, label(key), ids, value))
    return results
