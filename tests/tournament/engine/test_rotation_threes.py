"""Rotation charts with tables of three (issue #19): nobody sits out, one to three tables of three at the tail.

What the night asks of such a chart, each checked from the chart itself:
* every game seats everyone exactly once, the tables of four first and the tables of three after them, in the
  sizes `roster.table_sizes` gives (13 = 4+3+3+3, 14 = 4+4+3+3, 15 = 4+4+4+3), and nobody sits out;
* the turns at a table of three go round: at every point of the night they differ by at most one, and nobody
  has two running unless more than half the room is three-handed each game (then the fewest possible);
* the players at the tables of four do not partner anyone twice;
* the plan and the fairness figures speak of tables of three: no partner there, the other two as opponents.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.engine.roster import table_sizes
from tournament.engine.rotation import Chart, ChartRound, build_chart, chart_fairness, full_night, player_plan
from tournament.engine.types import Table


def _turns_at_three(chart: Chart) -> list[Counter]:
    """After each game, how many games at a table of three each player has had."""
    turns = Counter({x: 0 for x in range(1, chart.players + 1)})
    after = []
    for game in chart.rounds:
        turns.update(p for table in game.tables if table.three for p in table.players)
        after.append(Counter(turns))
    return after


def _check(chart: Chart) -> None:
    v = chart.players
    sizes = table_sizes(v, True)
    for game in chart.rounds:
        assert [len(t.players) for t in game.tables] == sizes
        assert [t.number for t in game.tables] == list(range(1, len(sizes) + 1))
        assert game.sit_out == ()
        assert sorted(p for t in game.tables for p in t.players) == list(range(1, v + 1))
    for turns in _turns_at_three(chart):
        assert max(turns.values()) - min(turns.values()) <= 1
    each = 3 * sizes.count(3)
    running = sum(
        len({p for t in a.tables if t.three for p in t.players} & {p for t in b.tables if t.three for p in t.players})
        for a, b in itertools.pairwise(chart.rounds)
    )
    assert running == max(0, chart.games - 1) * max(0, 2 * each - v)


def _partner_repeats(chart: Chart) -> int:
    partners = Counter(
        frozenset(t.pair(side)) for game in chart.rounds for t in game.tables if not t.three for side in ("NS", "EW")
    )
    return sum(count > 1 for count in partners.values())


@pytest.mark.parametrize("players", [13, 14, 15])
@pytest.mark.parametrize("games", [8, None])
def test_thirteen_fourteen_and_fifteen_players_play_every_game_with_no_sit_outs(players: int, games: int | None):
    chart = build_chart(players, games, seed=7, threes=True)
    assert chart.threes and not chart.perfect
    assert chart.games == (games or full_night(players))
    _check(chart)
    assert _partner_repeats(chart) == 0


def test_thirteen_players_written_out_the_first_game_and_the_turns():
    """13 players: a table of four and three of three, so nine are three-handed each game and the four at table 1
    are the ones whose turn it is not. After 13 games everyone has had 9 games at a table of three."""
    chart = build_chart(13, 13, seed=1, threes=True)
    first = chart.rounds[0]
    assert [t.three for t in first.tables] == [False, True, True, True]
    assert _turns_at_three(chart)[-1] == dict.fromkeys(range(1, 14), 9)
    fours = [set(t.players) for game in chart.rounds for t in game.tables if not t.three]
    assert Counter(p for four in fours for p in four) == dict.fromkeys(range(1, 14), 4)


@given(st.integers(min_value=6, max_value=70), st.data())
def test_any_head_count_and_games_with_tables_of_three(players: int, data: st.DataObject) -> None:
    games = data.draw(st.integers(min_value=1, max_value=full_night(players)))
    chart = build_chart(players, games, seed=data.draw(st.integers(0, 1000)), threes=True)
    _check(chart)


@pytest.mark.parametrize("players", [8, 16, 5])
def test_a_head_count_that_makes_no_table_of_three_gives_the_usual_chart(players: int):
    """A multiple of four needs no table of three; five players cannot be seated so (a four and a sit-out)."""
    assert build_chart(players, 4, seed=3, threes=True).rounds == build_chart(players, 4, seed=3).rounds


def test_the_plan_at_a_table_of_three_has_no_partner_and_the_other_two_as_opponents():
    chart = build_chart(14, 6, seed=2, threes=True)
    for number in range(1, 15):
        for line, game in zip(player_plan(chart, number), chart.rounds, strict=True):
            table = game.tables[line.table - 1]
            assert table.seats[line.seat] == number and not line.sit_out
            assert line.three == table.three
            if table.three:
                assert line.partner is None and {number, *line.opponents} == set(table.players)


def test_fairness_figures_of_a_chart_with_tables_of_three_written_out():
    """Seven players, two games. Game 1: 1 & 3 v 2 & 4 at the four, 5 6 7 at the three. Game 2: 1 & 3 v 5 & 6
    at the four, 2 4 7 at the three.

    Turns at a table of three: 7 two, 2 4 5 6 one, 1 and 3 none: spread 2, where six turns over seven players
    could give a spread of 1. Twice running: 7 (none needed: three of seven is under half). Partnered twice: 1 & 3.
    Sharing a table twice: 1 and 3, 2 and 4, 5 and 6; each player met six others at most (three a game), so the
    least is ceil(6 / 6) = 1. Opponents twice: nobody (2 and 4, 5 and 6 partnered once and opposed once).
    """
    games = (
        ChartRound(1, (Table(1, 1, 2, 3, 4), Table.of_three(2, (5, 6, 7))), ()),
        ChartRound(2, (Table(1, 1, 5, 3, 6), Table.of_three(2, (2, 4, 7))), ()),
    )
    fairness = chart_fairness(Chart(7, 2, 0, False, games, threes=True))
    keys = [row.key for row in fairness.rows]
    assert keys == [
        "at_three",
        "three_twice_running",
        "partner_repeats",
        "max_meetings",
        "opponent_max",
        "table_spread",
    ]
    assert (fairness["at_three"].value, fairness["at_three"].ideal) == (2, 1)  # 7 twice, 1 and 3 never
    assert (fairness["three_twice_running"].value, fairness["three_twice_running"].ideal) == (1, 0)
    assert fairness["partner_repeats"].value == 1
    assert (fairness["max_meetings"].value, fairness["max_meetings"].ideal) == (2, 1)
    assert (fairness["opponent_max"].value, fairness["opponent_max"].ideal) == (1, 1)
    assert not fairness.ok


def test_never_partner_pairs_and_two_groups_are_kept_apart_at_the_fours():
    """Partner wishes on a chart with tables of three: a never-partner pair never partners, and under a two-group
    rule (seven and seven here) every partnership at a table of four is one of each group, the turns at the tables
    of three still even."""
    never = {frozenset((1, 2)), frozenset((3, 4))}
    chart = build_chart(14, 10, seed=4, apart=never, threes=True)
    _check(chart)
    partnerships = {
        frozenset(t.pair(side)) for g in chart.rounds for t in g.tables if not t.three for side in ("NS", "EW")
    }
    assert not never & partnerships
    groups = {n: "A" if n <= 7 else "B" for n in range(1, 15)}
    apart = {frozenset(pair) for pair in itertools.combinations(range(1, 8), 2)}
    apart |= {frozenset(pair) for pair in itertools.combinations(range(8, 15), 2)}
    chart = build_chart(14, 10, seed=4, apart=apart, groups=groups, threes=True)
    _check(chart)
    for game in chart.rounds:
        for table in game.tables:
            if not table.three:
                for side in ("NS", "EW"):
                    a, b = table.pair(side)
                    assert groups[a] != groups[b]
