"""Rotation charts beside Julian Wiseman's published individual-pairs designs (issue #36, the charts' part).

The designs are written out in `data/wiseman_individual_pairs.txt` with their pages. Issue text, essentials:
* 4n+1 perfect charts: a player's visits to one table spread 0 on a full night (each developed table numbered by
  its place in the base round).
* 16 players: no three players share a table twice, and as few same-table stays as the published 12- and
  16-player designs (16: never; 12: 10).
* For every head count with a published design, the chart's figures are no worse than the published ones on
  partners, opponents, table spread, trios and stays, or the README says why not and how close it gets.

The figures are counted from the charts themselves (`chart_figures`), the published ones from the written-out
schedules; the stored charts are used as they are, nothing is searched again here.
"""

from __future__ import annotations

import pathlib

import pytest

from tournament.engine.chart_figures import Figures, chart_schedule, figures, read_designs
from tournament.engine.rotation import build_chart, chart_fairness, full_night
from tournament.engine.whist_data import SEATING, WHIST
from tournament.engine.whist_search import check, develop, trios_twice

DESIGNS = read_designs((pathlib.Path(__file__).parent / "data" / "wiseman_individual_pairs.txt").read_text())


def test_the_written_out_designs_have_the_properties_their_pages_state() -> None:
    """A check on the transcription: each page's own statements, counted from the schedule written out here."""
    assert sorted(DESIGNS) == [5, 6, 9, 11, 12, 13, 14, 16, 18]
    for v, design in DESIGNS.items():
        seated = {x for round_ in design.schedule for sides in round_ for side in sides for x in side}
        assert len(seated) == v, v
        assert design.source.startswith(("http://", "https://")) and "jdawiseman.com" in design.source
    assert figures(DESIGNS[16].schedule) == Figures(0, 2, 0, 4, 0, 0)  # no trio twice, never the same venue
    assert figures(DESIGNS[13].schedule).stays == 10 * 3 + 3 * 2  # "10 players 3 times, and 3 players 2 times"
    assert figures(DESIGNS[13].schedule).table_spread == 0  # "Each player plays four times on each venue"
    assert figures(DESIGNS[11].schedule).stays == 9 * 2 + 2 * 1  # "9 players 2 times, and 2 players 1 time"
    assert figures(DESIGNS[12].schedule).stays == 10  # the figure the issue gives
    assert figures(DESIGNS[14].schedule).opponent_max == 3  # "between once and thrice"


def test_figures_count_what_they_say() -> None:
    """The same four twice at one table: every trio twice, four stays, both partnerships repeated, and the two pairs
    who partnered never opposed (8 opponent meetings over 6 pairs: 1 or 2 each is even)."""
    game = [(("a", "b"), ("c", "d"))]
    twice = figures([game, game])
    assert twice == Figures(
        partner_repeats=2, opponent_max=2, opponent_uneven=2, table_spread=0, trios_twice=4, stays=4
    )
    # The same two fours again, the tables swapped and a & d partners: no stays, still every trio twice.
    moved = figures(
        [[(("a", "b"), ("c", "d")), (("e", "f"), ("g", "h"))], [(("e", "f"), ("g", "h")), (("a", "c"), ("b", "d"))]]
    )
    assert moved.stays == 0 and moved.trios_twice == 8 and moved.partner_repeats == 2
    assert moved.table_spread == 0  # everyone once at each table
    # 16 opponent meetings over 28 pairs: 0 or 1 each is even; a & d, b & c and e, f against g, h met twice.
    assert moved.opponent_uneven == 6


@pytest.mark.parametrize("v", [5, 9, 12, 13, 16])
@pytest.mark.parametrize("seed", [0, 7])
def test_perfect_charts_are_no_worse_than_the_published_designs(v: int, seed: int) -> None:
    ours = figures(chart_schedule(build_chart(v, seed=seed)))
    theirs = figures(DESIGNS[v].schedule)
    worse = [(name, value, getattr(theirs, name)) for name, value in ours.items() if value > getattr(theirs, name)]
    assert not worse


def test_six_players_beat_the_published_design_on_every_figure() -> None:
    ours = figures(chart_schedule(build_chart(6, seed=1)))
    theirs = figures(DESIGNS[6].schedule)
    assert all(value <= getattr(theirs, name) for name, value in ours.items())


@pytest.mark.parametrize("v", [v for v in sorted(WHIST) if v % 4 == 1])
def test_full_4n_plus_1_nights_visit_every_table_equally_often(v: int) -> None:
    chart = build_chart(v, seed=v)
    assert chart.perfect
    assert chart_fairness(chart)["table_spread"].value == 0
    assert figures(chart_schedule(chart)).table_spread == 0


def test_sixteen_players_never_share_a_table_as_three_twice_and_never_stay() -> None:
    assert trios_twice(16, WHIST[16]) == 0
    ours = figures(chart_schedule(build_chart(16, seed=3)))
    assert ours.trios_twice == 0 and ours.stays == 0


@pytest.mark.parametrize("v", sorted(SEATING))
def test_stored_seatings_play_every_round_once_with_every_table(v: int) -> None:
    """A stored order and numbering is a reordering of the same whist tournament: still perfect, every round once,
    each round's tables a permutation of the base round's."""
    _, _, base = WHIST[v]
    check(v, WHIST[v])
    plan = SEATING[v]
    assert sorted(g for g, _ in plan) == list(range(len(develop(v, WHIST[v]))))
    assert all(sorted(tables) == list(range(len(base))) for _, tables in plan)
    assert len(plan) == full_night(v)
    chart = build_chart(v)
    assert chart.perfect and chart_fairness(chart)["partner_repeats"].value == 0
    assert chart_fairness(chart)["opponent_max"].value == 2


@pytest.mark.parametrize("v", [12, 13, 16])
def test_a_shorter_night_plays_the_first_games_of_the_full_chart(v: int) -> None:
    full = build_chart(v, seed=2)
    short = build_chart(v, 5, seed=2)
    assert short.rounds == full.rounds[:5]
