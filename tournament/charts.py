"""A rotation night's chart: kept on the night as JSON, read by the pages and the printed sheets.

The chart itself comes from `tournament.engine.rotation`; this module only stores it and puts names to numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .engine import rotation
from .engine.roster import table_sizes
from .engine.types import Table
from .models import Entry, Night


def to_json(chart: rotation.Chart) -> dict[str, Any]:
    return {
        "players": chart.players,
        "games": chart.games,
        "seed": chart.seed,
        "perfect": chart.perfect,
        "threes": chart.threes,
        "rounds": [
            {"tables": [list(table.players) for table in game.tables], "sit_out": list(game.sit_out)}
            for game in chart.rounds
        ],
    }


def from_json(data: dict[str, Any]) -> rotation.Chart:
    return rotation.Chart(
        players=data["players"],
        games=data["games"],
        seed=data["seed"],
        perfect=data["perfect"],
        rounds=tuple(
            rotation.ChartRound(
                number=index,
                tables=tuple(Table(number, *seats) for number, seats in enumerate(game["tables"], start=1)),
                sit_out=tuple(game["sit_out"]),
            )
            for index, game in enumerate(data["rounds"], start=1)
        ),
        threes=bool(data.get("threes", False)),
    )


def night_chart(night: Night) -> rotation.Chart | None:
    """The night's chart cut to the night's number of games (a chart built for more plays its first games)."""
    if not night.chart:
        return None
    chart = from_json(night.chart)
    if chart.games > night.games:
        chart = rotation.Chart(
            chart.players, night.games, chart.seed, chart.perfect, chart.rounds[: night.games], chart.threes
        )
    return chart


def fill_mismatch(night: Night) -> str | None:
    """Why the night's chart no longer fits the night's answer to "not a multiple of four" (sit-outs against tables
    of three, where the head count makes a difference), or None."""
    if not night.chart:
        return None
    threes = night.fill == Night.Fill.THREES
    if bool(night.chart.get("threes")) == threes or 3 not in table_sizes(night.chart["players"], True):
        return None
    built = "with tables of three" if night.chart.get("threes") else "with sit-outs"
    wanted = "tables of three" if threes else "no tables of three"
    return f"The chart was built {built} and the night now says {wanted}: build the chart again."


def holders(night: Night) -> dict[int, str]:
    """Chart number -> the name of the player holding it (numbers nobody took are absent)."""
    return dict(
        Entry.objects.filter(night=night, number__isnull=False, player__house=False).values_list("number", "name")
    )


@dataclass(frozen=True)
class PlanCard:
    """One player's printed night on a rotation chart: every game's table, seat, partner and opponents."""

    number: int
    name: str  # empty on a card printed before the names are known
    lines: tuple[rotation.PlanLine, ...]
    names: dict[int, str]  # the other numbers' names, where known

    def who(self, number: int) -> str:
        name = self.names.get(number, "")
        return f"{number} {short_name(name)}".strip()


def short_name(name: str) -> str:
    """ "Mary Smith" -> "Mary S.": enough to find a partner across the room, short enough for a card."""
    parts = name.split()
    if len(parts) < 2:
        return name
    return f"{parts[0]} {parts[-1][0]}."


def plan_cards(night: Night, *, numbers: list[int] | None = None) -> list[PlanCard]:
    chart = night_chart(night)
    if chart is None:
        return []
    names = holders(night)
    wanted = numbers if numbers is not None else list(range(1, chart.players + 1))
    return [
        PlanCard(number, names.get(number, ""), tuple(rotation.player_plan(chart, number)), names) for number in wanted
    ]


def fairness(night: Night) -> rotation.ChartFairness | None:
    chart = night_chart(night)
    return rotation.chart_fairness(chart) if chart else None
