"""The standings' totals, added up straight from a night's rows, equal the sum of the tally lines players see."""

from __future__ import annotations

import pytest

from tournament.models import Night
from tournament.rehearsal import simulate
from tournament.selectors import game_lines, night_standings, read_nights, season_totals
from tournament.selectors.seasons import _summable

pytestmark = pytest.mark.django_db


def check_standings_against_the_cards(night: Night) -> None:
    """Every standings row is what that player's tally card adds up to, line by line as the card shows them."""
    cards = game_lines(night)
    rows = night_standings(night).rows
    assert rows
    for row in rows:
        lines = cards.get(row.player_id, [])
        games = [line for line in lines if not line.bye]
        assert row.total == (lines[-1].running_total if lines else 0) == sum(line.tally for line in lines)
        assert row.games == len(games) and row.byes == len(lines) - len(games)
        assert row.wins == sum(line.won for line in games)
        assert row.conceded == sum(line.conceded for line in games)
        assert row.euchres == sum(line.extras.euchres for line in games)
        assert row.loners_made == sum(line.extras.loners_made for line in games)


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
def test_the_standings_are_the_tally_cards_added_up(seed, players, scoring, credit):
    # Late arrivals and early leavers give players several byes and different numbers of games.
    night = simulate(players=players, rounds=4, seed=seed, scoring=scoring, arrive={3: 2}, leave={2: 1})
    Night.objects.filter(pk=night.pk).update(bye_credit=credit, bye_points=3)
    night.refresh_from_db()
    assert read_nights([night])[night.pk].byes
    check_standings_against_the_cards(night)


def test_a_second_bye_averages_over_the_first_ones_credit_too():
    night = simulate(players=9, rounds=11, seed=2, hands=2)  # one sits out each game: some sit out twice
    Night.objects.filter(pk=night.pk).update(bye_credit="own_average")
    night.refresh_from_db()
    rows = read_nights([night])[night.pk]
    twice = [player for player in rows.players if sum(p == player for p, _ in rows.byes) > 1]
    assert twice
    check_standings_against_the_cards(night)
    for player in twice:
        lines = game_lines(night)[player]
        second = [index for index, line in enumerate(lines) if line.bye][1]
        earlier = lines[:second]  # in game order, the first bye among them
        # The second bye's credit is the player's average over every line before it, the first bye's included.
        assert lines[second].points == int(sum(line.tally for line in earlier) / len(earlier) + 0.5)


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
