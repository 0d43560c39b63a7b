"""On a winners-stay night the champion (most games won) and the high score (most points) are different prizes,
each to the right player: checked on 100 simulated nights of several sizes (#19)."""

from __future__ import annotations

import pytest

from tournament.models import WINNERS_STAY_PRIZES
from tournament.rehearsal import simulate
from tournament.selectors import night_standings

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_champion_and_high_score_go_to_the_right_players_on_100_winners_stay_nights():
    differ = {10: 0, None: 0}
    for seed in range(100):
        # Half the nights play to the movement's default target (10 points), half to the head table's 8 hands.
        target = None if seed % 2 else 0
        night = simulate(
            players=8 + 4 * (seed // 2 % 4),
            rounds=4,
            seed=seed,
            movement="winners-stay",
            entry="totals",
            target=target,
        )
        assert night.prizes == WINNERS_STAY_PRIZES  # the night's default prize table on this movement
        assert night.points_target == (10 if target is None else None)
        standings = night_standings(night)
        rows = {row.player_id: row for row in standings.rows}
        awards = {award.prize: award for award in standings.awards}
        champion, high = awards["Champion (most games won)"], awards["High score"]
        most_wins = max(row.wins for row in rows.values())
        assert {rows[p].wins for p in champion.player_ids} == {most_wins}
        assert all(rows[p].rank_label.lstrip("=") == "1" for p in champion.player_ids)  # the first place
        # One prize each (the default): the high score is the most points among those without a prize before it.
        before = {p for label in ("Champion (most games won)", "Second", "Third") for p in awards[label].player_ids}
        pool = [row for row in rows.values() if row.player_id not in before]
        assert {rows[p].total for p in high.player_ids} == {max(row.total for row in pool)}
        assert high.value == f"{max(row.total for row in pool)} points"
        differ[night.points_target] += max(row.total for row in rows.values()) > max(
            rows[p].total for p in champion.player_ids
        )
    # The case this is about, a champion without the most points, came up often in both kinds of night.
    assert differ[10] > 1 and differ[None] > 5


def test_a_winners_stay_night_ranks_by_games_won_whatever_order_the_organizer_gives():
    from tournament import services
    from tournament.selectors.standings import night_chain

    night = services.night_create(name="Reordered", movement="winners-stay", tie_chain="total,conceded,wins")
    assert [metric.key for metric in night_chain(night)] == ["wins", "total", "conceded"]
    progressive = services.night_create(name="As given", tie_chain="conceded,total")
    assert [metric.key for metric in night_chain(progressive)] == ["conceded", "total"]
    assert progressive.prizes == "high,second,third,low,loners"  # other movements keep the usual prizes
