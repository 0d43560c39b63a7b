"""Figures that compare one seating schedule with another, table by table. Pure Python.

A schedule here is any night's seating, ours or a published design's: a list of rounds, each round a list of
tables in table-number order, each table a tuple of sides (a side: the players who partner there; a side of one
player plays alone, as at a table of three or in a published design's one-versus-one game). Players are any
hashable labels; a player not at any table sits out that round.

The figures (lower is better for each):

* partner_repeats: pairs who partner more than once;
* opponent_max: the most games two players are on opposite sides;
* opponent_uneven: pairs whose opponent count is not the average rounded down or up (over all pairs), so 0 means
  the opponents are as even as the counts allow;
* table_spread: over every player, the most visits to one table minus the fewest (every table counted);
* trios_twice: sets of three players who share a table more than once;
* stays: a player at the same table two rounds running (counted once for each such pair of rounds).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, fields

from .rotation import Chart

Side = tuple[Hashable, ...]
Schedule = Sequence[Sequence[Sequence[Side]]]


@dataclass(frozen=True)
class Figures:
    partner_repeats: int
    opponent_max: int
    opponent_uneven: int
    table_spread: int
    trios_twice: int
    stays: int

    def items(self) -> list[tuple[str, int]]:
        return [(field.name, getattr(self, field.name)) for field in fields(self)]


def figures(schedule: Schedule) -> Figures:
    """The figures of one schedule (see the module)."""
    players: set[Hashable] = set()
    partners: Counter = Counter()
    opponents: Counter = Counter()
    trios: Counter = Counter()
    visits: Counter = Counter()
    stays = 0
    tables = max((len(tables) for tables in schedule), default=0)
    last: dict[Hashable, int] = {}
    for round_ in schedule:
        here: dict[Hashable, int] = {}
        for number, sides in enumerate(round_):
            seated = [x for side in sides for x in side]
            for x in seated:
                players.add(x)
                here[x] = number
                visits[x, number] += 1
            for side in sides:
                for pair in itertools.combinations(sorted(side, key=repr), 2):
                    partners[pair] += 1
            for one, other in itertools.combinations(sides, 2):
                for a in one:
                    for b in other:
                        opponents[_key(a, b)] += 1
            for trio in itertools.combinations(sorted(seated, key=repr), 3):
                trios[trio] += 1
        stays += sum(1 for x, number in here.items() if last.get(x) == number)
        last = here
    pairs = [_key(a, b) for a, b in itertools.combinations(players, 2)]
    total = sum(opponents[pair] for pair in pairs)
    low = total // len(pairs) if pairs else 0
    high = -(-total // len(pairs)) if pairs else 0
    spread = 0
    for x in players:
        seen = [visits[x, number] for number in range(tables)]
        spread = max(spread, max(seen) - min(seen))
    return Figures(
        partner_repeats=sum(count > 1 for count in partners.values()),
        opponent_max=max((opponents[pair] for pair in pairs), default=0),
        opponent_uneven=sum(not low <= opponents[pair] <= high for pair in pairs),
        table_spread=spread,
        trios_twice=sum(count > 1 for count in trios.values()),
        stays=stays,
    )


def _key(a: Hashable, b: Hashable) -> tuple[Hashable, Hashable]:
    return (a, b) if repr(a) <= repr(b) else (b, a)


def chart_schedule(chart: Chart) -> list[list[tuple[Side, ...]]]:
    """A rotation chart as a schedule: N & S against E & W at a table of four, three sides of one at a table of
    three."""
    return [
        [
            tuple((x,) for x in table.players) if table.three else (table.pair("NS"), table.pair("EW"))
            for table in game.tables
        ]
        for game in chart.rounds
    ]


@dataclass(frozen=True)
class Published:
    """A published design read from text: its head count, where it was published, and its schedule."""

    players: int
    source: str
    schedule: list[list[tuple[Side, ...]]]


def read_designs(text: str) -> dict[int, Published]:
    """Designs written one round a line under a "design <players> <source>" line (`#` lines are comments): a word
    without ":" is a player sitting out, every other word one game in table order, its sides split by ":" and a
    side's players by "+"."""
    designs: dict[int, Published] = {}
    current: Published | None = None
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "design":
            current = Published(int(words[1]), words[2], [])
            designs[current.players] = current
            continue
        if current is None:
            raise ValueError(f"A round before any design line: {line!r}")
        current.schedule.append(
            [tuple(tuple(side.split("+")) for side in word.split(":")) for word in words if ":" in word]
        )
    return designs
