"""Stored full nights with byes: 4n + 2 and 4n + 3 players (issue #36, item 3).

`rotation_data.NIGHTS` holds full nights found by `python -m tournament.engine.rotation_search` (run by hand); these
tests read the stored nights only, nothing is searched here. Each must be a night the app can play (everyone seated
once a game at tables of four, byes within one of each other after every game and nobody out twice running, nobody
partnering anyone twice), `build_chart` must play it on a full night, and its figures must be the ones the README
gives: opponents at the bound four-handed tables allow, and beside Julian Wiseman's published designs (11, 14 and
18 players) no figure worse except the ones the README names with the reason.
"""

from __future__ import annotations

import math
import pathlib
from collections import Counter

import pytest

from tournament.engine import rotation, rotation_search
from tournament.engine.chart_figures import chart_schedule, figures, read_designs
from tournament.engine.rotation import build_chart, chart_fairness, full_night
from tournament.engine.rotation_data import NIGHTS, Night

DESIGNS = read_designs((pathlib.Path(__file__).parent / "data" / "wiseman_individual_pairs.txt").read_text())

# Figures worse than the published design's, each explained in the README ("Beside the published designs").
WORSE_THAN_PUBLISHED: dict[int, set[str]] = {}
# Head counts with no base round over Z_v that keeps byes even after every game (the README says why): annealed.
ANNEALED = (7, 10, 14, 22, 30)
DEVELOPED = [v for v in sorted(NIGHTS) if v not in ANNEALED]


def test_every_4n_plus_2_and_4n_plus_3_head_count_from_7_to_30_has_a_stored_night() -> None:
    assert sorted(NIGHTS) == [v for v in range(7, 31) if v % 4 in (2, 3)]


@pytest.mark.parametrize("v", sorted(NIGHTS))
def test_a_full_night_plays_the_stored_night_with_byes_even_after_every_game(v: int) -> None:
    chart = build_chart(v, seed=v)
    assert chart.games == full_night(v) == len(NIGHTS[v])
    byes: Counter = Counter()
    last: set[int] = set()
    for game in chart.rounds:
        seated = [x for table in game.tables for x in table.players]
        assert sorted(seated + list(game.sit_out)) == list(range(1, v + 1))
        assert len(game.tables) == v // 4 and not any(table.three for table in game.tables)
        assert not last & set(game.sit_out)
        last = set(game.sit_out)
        byes.update(game.sit_out)
        assert max(byes[x] for x in range(1, v + 1)) - min(byes[x] for x in range(1, v + 1)) <= 1
    assert {byes[x] for x in range(1, v + 1)} == {v % 4}  # everyone plays the same number of games
    fairness = chart_fairness(chart)
    assert fairness["partner_repeats"].value == 0 and fairness["sat_out_twice_running"].value == 0
    # The stored night itself, numbered by the seed: the same figures for every seed.
    assert figures(chart_schedule(chart)) == figures(chart_schedule(build_chart(v, seed=v + 1)))
    assert chart.rounds != build_chart(v, seed=v + 1).rounds


@pytest.mark.parametrize("v", DEVELOPED)
def test_developed_nights_are_at_the_bound_four_handed_tables_allow(v: int) -> None:
    """Each game v // 4 tables set four pairs against each other: the meetings over all pairs, rounded down and up,
    bound the most-met opponent, and a pair outside those two counts is one met unevenly. A night developed from
    a base round reaches both, with every player at every table equally often and no three players twice at one."""
    chart = build_chart(v, seed=0)
    pairs = v * (v - 1) // 2
    meetings = 4 * (v // 4) * chart.games
    ours = figures(chart_schedule(chart))
    assert ours.opponent_max == -(-meetings // pairs)
    assert ours.opponent_uneven == 0 and ours.table_spread == 0 and ours.trios_twice == 0
    assert chart_fairness(chart).ok  # every figure of the chart page at its ideal


@pytest.mark.parametrize("v", sorted(NIGHTS))
def test_a_stored_night_sets_opponents_more_evenly_than_the_chart_built_by_rule(
    v: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = figures(chart_schedule(build_chart(v, seed=0)))
    monkeypatch.setattr(rotation, "NIGHTS", {})
    built = [figures(chart_schedule(build_chart(v, seed=seed))) for seed in range(3)]
    assert all(
        (stored.opponent_max, stored.opponent_uneven) < (other.opponent_max, other.opponent_uneven) for other in built
    )


@pytest.mark.parametrize("v", sorted(v for v in DESIGNS if v in NIGHTS))
def test_no_figure_is_worse_than_the_published_designs_but_those_the_readme_explains(v: int) -> None:
    ours = figures(chart_schedule(build_chart(v, seed=3)))
    theirs = figures(DESIGNS[v].schedule)
    worse = {name for name, value in ours.items() if value > getattr(theirs, name)}
    assert worse == WORSE_THAN_PUBLISHED.get(v, set())


def _games(night: Night) -> list[tuple[tuple[int, ...], set[frozenset[frozenset[int]]]]]:
    """Each game's byes and its tables as sets of partnerships (the table numbers and seats left out)."""
    return [
        (out, {frozenset((frozenset((n, s)), frozenset((e, w)))) for n, e, s, w in tables}) for out, tables in night
    ]


@pytest.mark.parametrize("v", DEVELOPED)
def test_developed_nights_are_their_first_game_developed_over_z_v(v: int) -> None:
    """What the README says of them: every game is the first game with s * i added to every player (some step s
    through Z_v), table by table; only the table numbers may differ (annealed afterwards for fewer stays)."""
    night = NIGHTS[v]
    out, tables = night[0]
    developed = [rotation_search.develop(v, out, tables, step, 0) for step in range(1, v) if math.gcd(step, v) == 1]
    assert any(_games(other) == _games(night) for other in developed)
