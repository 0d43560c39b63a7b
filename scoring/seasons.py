"""A season's table: each player's nights added up and ranked. Pure Python, no Django.

A season ranks players by one of three figures: the total of every night, the average per night played, or the
total of their best N nights (everything they played when they came fewer than N times). Players level on that
figure share the rank (shown as "=3").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

METHODS = {
    "total": "total points",
    "average": "average per night played",
    "best": "best nights",
}


@dataclass(frozen=True)
class NightScore:
    """One player's total for one night of the season."""

    night: int
    player: int
    total: int


@dataclass(frozen=True)
class SeasonRow:
    rank: int
    shared: bool
    player: int
    nights: int  # nights played
    total: int
    average: float  # points per night played
    best: int  # the total of the best N nights
    counted: frozenset[int]  # the nights that make up `best`
    score: float  # the figure the season ranks on

    @property
    def rank_label(self) -> str:
        return f"={self.rank}" if self.shared else str(self.rank)


def method_label(method: str, best_of: int | None, nights: int) -> str:
    """What the season ranks on, in words: "best 8 of 12 nights"."""
    if method == "best":
        return f"best {best_of} of {nights} night{'s' if nights != 1 else ''}"
    return METHODS[method]


def season_rank(
    scores: Iterable[NightScore], *, method: str, best_of: int | None = None, night_order: Sequence[int] = ()
) -> list[SeasonRow]:
    """Rank every player with a night score. `night_order` (the nights by date) settles which of two equal
    nights counts towards a best-N total: the earlier one."""
    if method not in METHODS:
        raise ValueError(f"Unknown season method {method!r}: use {', '.join(METHODS)}.")
    if method == "best" and (best_of is None or best_of < 1):
        raise ValueError("Say how many nights count: best N of the season, N at least 1.")
    position = {night: index for index, night in enumerate(night_order)}
    by_player: dict[int, dict[int, int]] = {}
    for score in scores:
        by_player.setdefault(score.player, {})[score.night] = score.total
    rows = []
    for player, nights in by_player.items():
        total = sum(nights.values())
        ordered = sorted(nights, key=lambda night: (-nights[night], position.get(night, len(position)), night))
        counted = frozenset(ordered[: best_of or len(ordered)])
        best = sum(nights[night] for night in counted)
        average = total / len(nights)
        figure: float = {"total": total, "average": average, "best": best}[method]
        rows.append(SeasonRow(0, False, player, len(nights), total, average, best, counted, figure))
    rows.sort(key=lambda row: (-row.score, row.player))
    ranked: list[SeasonRow] = []
    for index, row in enumerate(rows):
        level_above = index > 0 and rows[index - 1].score == row.score
        level_below = index + 1 < len(rows) and rows[index + 1].score == row.score
        rank = ranked[-1].rank if level_above else index + 1
        ranked.append(
            SeasonRow(
                rank,
                level_above or level_below,
                row.player,
                row.nights,
                row.total,
                row.average,
                row.best,
                row.counted,
                row.score,
            )
        )
    return ranked
