"""The standings' totals, added up straight from a night's rows, equal the sum of the tally lines players see."""

from __future__ import annotations

import pytest

from scoring import standings
from tournament.models import Night
from tournament.rehearsal import simulate
from tournament.selectors import night_standings, read_nights, season_totals
from tournament.selectors.seasons import _summable
from tournament.selectors.standings import _lines, _tallies

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("seed", "players", "scoring", "credit"),
    [
        (1, 10, "loner-bonus", "round_average"),
        (2, 11, "loner-bonus", "own_average"),
        (3, 13, "hall-minus", "fixed"),
        (4, 9, "bid-euchre", "none"),
        (5, 14, "standard", "own_average"),
    ],
)
def test_tallies_are_the_lines_added_up(seed, players, scoring, credit):
    # Late arrivals and early leavers give players several byes and different numbers of games.
    night = simulate(players=players, rounds=4, seed=seed, scoring=scoring, arrive={3: 2}, leave={2: 1})
    Night.objects.filter(pk=night.pk).update(bye_credit=credit, bye_points=3)
    night.refresh_from_db()
    rows = read_nights([night])[night.pk]
    assert rows.byes
    lines = _lines(rows)
    expected = standings.add_up((line for ls in lines.values() for line in ls), players=sorted(rows.players))
    assert _tallies(rows) == expected


def test_a_second_bye_averages_over_the_first_ones_credit_too():
    night = simulate(players=9, rounds=11, seed=2, hands=2)  # one sits out each game: some sit out twice
    Night.objects.filter(pk=night.pk).update(bye_credit="own_average")
    night.refresh_from_db()
    rows = read_nights([night])[night.pk]
    twice = [player for player in rows.players if sum(p == player for p, _ in rows.byes) > 1]
    assert twice
    lines = _lines(rows)
    assert _tallies(rows) == standings.add_up(line for ls in lines.values() for line in ls)


def test_season_totals_summed_by_the_database_equal_each_nights_standings():
    # Standard rules (summed by the database) beside a loner bonus and a game-average bye (read game by game),
    # with byes, a house player (13 players), late arrivals, early leavers and games entered as totals.
    plans = [
        dict(players=13, seed=11, credit="own_average"),
        dict(players=10, seed=12, credit="fixed", entry="games"),
        dict(players=11, seed=13, credit="none"),
        dict(players=10, seed=14, credit="own_average", scoring="loner-bonus"),
        dict(players=9, seed=15, credit="round_average"),
    ]
    nights = []
    for plan in plans:
        credit = plan.pop("credit")
        night = simulate(rounds=4, hands=4, arrive={3: 2}, leave={2: 1}, **plan)
        Night.objects.filter(pk=night.pk).update(bye_credit=credit, bye_points=4)
        night.refresh_from_db()
        nights.append(night)
    assert [_summable(night) for night in nights] == [True, True, True, False, False]
    totals, names = season_totals(nights)
    for night in nights:
        standings = night_standings(night)
        expected = {row.player_id: row.total for row in standings.rows if row.games or row.byes}
        assert totals[night.pk] == expected
        assert all(names[player] == row.name for row in standings.rows if (player := row.player_id) in expected)
