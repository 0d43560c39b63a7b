"""Each game's stored extras (loners, euchres, marches, personal bonus by seat) always match its hands.

Standings read them from TableResult.extras instead of scoring every hand again, so every writer of hands or rules
must keep them right: hands entered and taken back, a correction by totals, a change of rules, a restored backup.
"""

from __future__ import annotations

import random

import pytest

from scoring import rules
from scoring.models import TableResult, extras_of
from tournament import backup, game, services
from tournament.game import hand_record, hand_undo, table_result_submit
from tournament.models import Night
from tournament.rehearsal import simulate
from tournament.seasons import season_create
from tournament.selectors import game_lines, night_standings, season_standings
from tournament.services import night_rules_update
from tournament.simulation import random_hand

pytestmark = pytest.mark.django_db


def fresh(result: TableResult) -> dict[str, list[int]]:
    """The result's extras worked out now from its hands, under its night's rules."""
    ruleset = rules.Ruleset.from_dict(result.round.night.rules)
    return extras_of([hand.as_rules_hand() for hand in result.hands.order_by("number")], ruleset)


def assert_stored_match(night: Night) -> int:
    results = list(TableResult.objects.filter(round__night=night).select_related("round__night"))
    assert results
    for result in results:
        assert result.extras is not None, f"game {result.round.number} table {result.table}: nothing stored"
        assert result.extras == fresh(result), f"game {result.round.number} table {result.table}"
    return len(results)


@pytest.mark.parametrize(
    ("seed", "scoring"), [(1, "standard"), (2, "loner-bonus"), (3, "defend-alone-2"), (4, "bid-euchre")]
)
def test_stored_extras_follow_every_writer_of_a_played_night(seed, scoring):
    night = simulate(players=13, rounds=3, seed=seed, scoring=scoring, hands=6)  # 13: byes and a house player
    assert_stored_match(night)
    played = {row.player_id: row for row in night_standings(night).rows}

    # A correction after the game closed replaces its hands by totals: nothing is left but the team score. It is
    # made as while the night still runs (its first game closed): once the night is over its scores no longer change
    # (tests/tournament/test_finished_night.py).
    Night.objects.filter(pk=night.pk).update(status=Night.Status.PLAYING)
    result = TableResult.objects.filter(round__night=night).order_by("round__number", "table").first()
    table_result_submit(
        round_=result.round,
        table=result.table,
        ns_points=result.ns_points,
        ew_points=result.ew_points,
        last_hand_winner=result.winner,
        hands_played=result.hands_played,
        expected_version=result.version,
        reason="sheet checked after the night",
    )
    result.refresh_from_db()
    assert result.extras == {} and not result.hands.exists()
    assert_stored_match(night)

    # A change of rules rescores every hand, and with them the extras (a loner bonus now shows on tallies): made
    # while the night still runs too, since a finished night's rules no longer change.
    numbers = {**night.rules, "loner_bonus": 3, "euchre": 1}
    night_rules_update(night=night, preset=scoring, numbers=numbers, confirm=True)
    night.refresh_from_db()
    assert_stored_match(night)
    Night.objects.filter(pk=night.pk).update(status=Night.Status.FINISHED)
    night.refresh_from_db()

    # A restored backup carries no extras in its file: they are worked out again on the way in.
    raw = backup.night_backup_bytes(night)
    before = night_standings(night)
    Night.objects.filter(pk=night.pk).delete()
    restored = backup.night_restore(raw=raw)
    assert_stored_match(restored)
    assert night_standings(restored).rows == before.rows
    assert set(played) == {row.player_id for row in before.rows}


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_stored_extras_follow_hands_entered_and_taken_back(seed):
    rng = random.Random(seed)
    night = services.night_create(name="Undo night", games=2, hands_per_game=8, scoring="loner-bonus")
    services.players_register(night=night, names=[f"Player {n}" for n in range(12)])
    ruleset = rules.Ruleset.from_dict(night.rules)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=seed))
    tables = sorted(set(round_.seatings.values_list("table", flat=True)))
    for _ in range(40):
        table = rng.choice(tables)
        result = TableResult.objects.filter(round=round_, table=table).first()
        count = result.hands.count() if result else 0
        if count and (rng.random() < 0.3 or count >= 6):
            hand_undo(round_=round_, table=table)
        else:
            hand_record(round_=round_, table=table, hand=rules.Hand.of(random_hand(rng, "N", ruleset)))
        assert all(r.extras == fresh(r) for r in TableResult.objects.filter(round=round_).select_related("round"))
    assert TableResult.objects.filter(round=round_).exists()


def test_standings_from_stored_extras_equal_standings_from_the_hands():
    nights = [simulate(players=10, rounds=3, seed=seed, scoring="loner-bonus") for seed in (8, 9)]
    Night.objects.filter(pk=nights[0].pk).update(bye_credit="own_average")
    season = season_create(name="Both")
    season.nights.set(nights)
    stored = [(night_standings(night), game_lines(night)) for night in nights]
    table = season_standings(season)
    # As a night loaded from a fixture would be: no extras stored, so the readers score the hands themselves.
    TableResult.objects.update(extras=None)
    assert [(night_standings(night), game_lines(night)) for night in nights] == stored
    assert season_standings(season).rows == table.rows
    assert any(row.loners_made for standings, _ in stored for row in standings.rows)
