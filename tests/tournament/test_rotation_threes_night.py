"""A rotation night with tables of three in the app (issue #19): the chart has them at the tail so nobody sits
out, the games are played from it, a table of four short of a player plays three-handed, and the cards, the wall
chart, the chart page and the backup all say so."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.conftest import register
from tests.tournament.test_rotation_night import pdf_text, rotation_night, seats_by_game
from tournament import backup, charts, game, services
from tournament.engine.roster import table_sizes
from tournament.models import Bye, Night
from tournament.rehearsal import simulate
from tournament.sheets import printing

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("players", [13, 14, 15])
def test_a_rotation_night_of_13_14_or_15_plays_tables_of_three_and_nobody_sits_out(players: int):
    night = simulate(players=players, rounds=6, seed=5, movement="rotation", entry="totals", fill="threes")
    assert night.status == Night.Status.FINISHED
    assert not Bye.objects.filter(round__night=night).exists()
    games = seats_by_game(night)
    assert len(games) == 6
    turns: Counter = Counter()
    for tables in games.values():
        assert [len(seats) for _, seats in sorted(tables.items())] == table_sizes(players, True)
        turns.update(p for seats in tables.values() if "W" not in seats for p in seats.values())
    everyone = night.entries.values_list("player_id", flat=True)
    assert max(turns[p] for p in everyone) - min(turns[p] for p in everyone) <= 1


def _play(round_) -> None:
    round_ = game.round_start(round_=round_)
    for table, seats in seats_by_game(round_.night)[round_.number].items():
        if "W" in seats:
            game.table_result_submit(round_=round_, table=table, ns_points=10, ew_points=4)
        else:
            game.table_result_submit(round_=round_, table=table, seat_points={"N": 5, "E": 3, "S": 2})


def test_a_table_of_four_short_of_a_number_plays_three_handed_and_one_short_of_two_sits_out():
    """A 16-number chart (seed 1) and 14 players: numbers 15 and 16 are nobody's. In game 1 the chart has them at
    one table, whose other two sit out; in game 2 at two tables, which play three-handed."""
    night = rotation_night(games=4, fill=Night.Fill.THREES)
    services.night_chart_build(night=night, players=16, seed=1)
    register(night, 14)  # numbers 1 to 14 in arrival order
    first = services.night_draw(night=night, seed=1)
    night.refresh_from_db()
    chart = charts.night_chart(night)
    assert chart is not None and chart.threes
    holder = dict(night.entries.values_list("number", "player_id"))

    def short(game: int) -> dict[int, int]:
        return {
            t.number: sum(n not in holder for n in t.players)
            for t in chart.rounds[game - 1].tables
            if any(n not in holder for n in t.players)
        }

    assert list(short(1).values()) == [2] and sorted(short(2).values()) == [1, 1]
    (empty,) = short(1)
    seated = seats_by_game(night)[1]
    assert empty not in seated and all("W" in seats for seats in seated.values())
    left_out = [holder[n] for n in chart.rounds[0].tables[empty - 1].players if n in holder]
    assert sorted(Bye.objects.filter(round=first).values_list("player_id", flat=True)) == sorted(left_out)
    _play(first)
    second = game.round_close(round_=first)
    seated = seats_by_game(night)[2]
    for number in short(2):
        table = chart.rounds[1].tables[number - 1]
        assert "W" not in seated[number]
        assert sorted(seated[number].values()) == sorted(holder[n] for n in table.players if n in holder)
    assert not Bye.objects.filter(round=second).exists()
    _play(second)
    assert game.round_close(round_=second).number == 3


def test_a_chart_built_with_sit_outs_is_refused_at_the_draw_once_the_night_takes_tables_of_three(organizer_client):
    night = rotation_night(games=5)
    services.night_chart_build(night=night, players=13, seed=5)
    register(night, 13)
    services.night_update(night=night, fill=Night.Fill.THREES)
    why = "The chart was built with sit-outs and the night now says tables of three: build the chart again."
    assert why in organizer_client.get(reverse("tournament:chart", args=[night.pk])).content.decode()
    with pytest.raises(ValidationError) as refused:
        services.night_draw(night=night, seed=2)
    assert refused.value.message_dict["draw"] == [why]
    night.refresh_from_db()
    assert night.status == Night.Status.SETUP and not night.rounds.exists()
    services.night_chart_build(night=night, players=13, seed=5)  # built again, it has tables of three
    services.night_draw(night=night, seed=2)
    assert not Bye.objects.filter(round__night=night).exists()


def test_the_cards_the_wall_chart_and_the_chart_page_say_three_handed(organizer_client):
    night = rotation_night(games=6, fill=Night.Fill.THREES)
    services.night_chart_build(night=night, players=14, seed=4)
    night.refresh_from_db()
    pages, text = pdf_text(printing.sheet_bytes(night, "tally-cards", per_page=2, blank=0))
    assert pages == 7 and "three-handed" in text and "sits out" not in text
    _, wall = pdf_text(printing.sheet_bytes(night, "chart"))
    assert "three-handed" in wall and "Sit out" not in wall
    page = organizer_client.get(reverse("tournament:chart", args=[night.pk])).content.decode()
    assert "tables of three at the tail so nobody sits out" in page
    assert "Games at a table of three: most minus fewest" in page and "Byes: most minus fewest" not in page
    assert page.count("three-handed</span>") == 6 * 2  # two tables of three a game


def test_backup_carries_a_chart_with_tables_of_three():
    night = simulate(players=13, rounds=3, seed=2, movement="rotation", entry="totals", fill="threes")
    raw = backup.night_backup_bytes(night)
    assert json.loads(raw)["night"]["chart"]["threes"] is True
    night.delete()
    restored = backup.night_restore(raw=raw)
    assert charts.from_json(restored.chart).threes
    assert backup.night_backup_bytes(restored) == raw
