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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .standings import Standing

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
    value: str  # what won it, for the sheet: "61 points", "3 loners"

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


def _won(standing: Standing) -> str:
    wins = standing.totals.wins
    return f"{wins} game{'s' if wins != 1 else ''} won, {standing.totals.total} points"


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
) -> list[Award]:
    """The prize table. `ranked_by` is the first link of the night's chain: "wins" makes the champion the first
    place and the high score a prize of its own (the most points)."""
    unknown = [key for key in prizes if not valid_prize(key)]
    if unknown:
        raise ValueError(f"Unknown prizes: {', '.join(unknown)}.")
    categories = categories or {}
    taken: set[int] = set()
    results: list[Award] = []

    def free(group: list[Standing]) -> list[Standing]:
        return [s for s in group if not (one_each and s.totals.player in taken)]

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
                value = f"{winners[0].totals.total} points" if winners else ""
        elif key in (*PLACES, "champion"):
            groups = _groups(standings)
            place = 0 if key in ("champion", "high") else PLACES.index(key)
            if one_each:  # the best players without a prize yet
                winners = next((group for group in map(free, groups) if group), [])
            elif place < len(groups):  # the place's group, whatever else they won
                winners = groups[place]
            if not winners:
                value = ""
            elif key == "champion" or ranked_by == "wins":  # places by games won say so
                value = _won(winners[0])
            else:
                value = f"{winners[0].totals.total} points"
        elif key.startswith("high:"):  # the high score within a category: the first place, or the most points
            category = key[5:].casefold()
            groups = [
                [s for s in free(group) if categories.get(s.totals.player, "").casefold() == category]
                for group in _groups(standings)
            ]
            groups = [group for group in groups if group]
            most_points = ranked_by == "wins"
            winners = _best_on(groups, lambda s: s.totals.total) if most_points else next(iter(groups), [])
            value = f"{winners[0].totals.total} points" if winners else ""
        elif key in ("low", "low_all"):
            # "low": among the players who played the most games, so sitting out or arriving late never wins it
            most = max((s.totals.games for s in standings), default=0)
            for group in reversed(_groups(standings)):
                group = [s for s in free(group) if key == "low_all" or s.totals.games == most]
                if group:
                    winners = group
                    break
            value = f"{winners[0].totals.total} points" if winners else ""
        else:
            candidates = free(list(standings))
            best = max((_count(key, s) for s in candidates), default=0)
            if best > 0:
                winners = [s for s in candidates if _count(key, s) == best]
                value = f"{best} loner{'s' if best > 1 else ''}" if key == "loners" else f"{best} points in one game"
        ids = tuple(s.totals.player for s in winners)
        taken.update(ids)
        label = PRIZES.get(key) or f"High score, {key[5:]}"
        results.append(Award(key, label, ids, value))
    return results
