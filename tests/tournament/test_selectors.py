"""Tallies and standings read from the database: each player's line per game and the night's order."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.rules import STANDARD
from tests.conftest import play_round, register
from tournament import game, services
from tournament.rehearsal import simulate
from tournament.selectors import game_lines, night_record, night_standings

pytestmark = pytest.mark.django_db


def test_each_player_tallies_their_team_score_and_win(night):
    register(night, 8)
    round1 = services.night_draw(night=night, seed=4)
    seat = {(s.table, s.seat): s.player_id for s in round1.seatings.all()}
    play_round(round1, {1: (6, 2), 2: (3, 3, "NS")})
    game.round_close(round_=round1)
    lines = game_lines(night)
    north1 = lines[seat[(1, "N")]][0]
    east1 = lines[seat[(1, "E")]][0]
    assert (north1.points, north1.conceded, north1.won, north1.running_total) == (6, 2, True, 6)
    assert (east1.points, east1.conceded, east1.won) == (2, 6, False)
    assert lines[seat[(2, "S")]][0].won is True  # tie decided on the last hand
    assert lines[seat[(2, "W")]][0].won is False
    assert north1.partner == night.entries.get(player_id=seat[(1, "S")]).player.name


def test_standings_rank_by_total_then_wins_and_name_high_and_low(night):
    register(night, 4)
    round_ = services.night_draw(night=night, seed=4)
    seat = {s.seat: s.player.name for s in round_.seatings.select_related("player")}
    # Game 1: N-S 6-2. Game 2 (partners split): whoever.
    round_ = game.round_close(round_=play_round(round_, {1: (6, 2)}))
    standings = night_standings(night)
    assert standings.rounds_closed == 1
    assert {row.name for row in standings.high} == {seat["N"], seat["S"]}
    assert {row.name for row in standings.low} == {seat["E"], seat["W"]}
    assert [row.rank_label for row in standings.rows] == ["=1", "=1", "=3", "=3"]


def test_open_games_do_not_count_yet(night):
    register(night, 4)
    play_round(services.night_draw(night=night, seed=4), {1: (6, 2)})
    assert night_standings(night).rounds_closed == 0
    assert all(row.total == 0 for row in night_standings(night).rows)


def test_standings_take_the_same_number_of_queries_for_any_night_size():
    counts = []
    for players in (8, 41):  # 41: byes too
        night = simulate(players=players, rounds=3, seed=2)
        with CaptureQueriesContext(connection) as queries:
            night_standings(night)
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 8


def test_night_record_matches_the_documented_shape():
    night = simulate(players=16, rounds=3, seed=7)
    record = night_record(night)
    assert record["night"].pop("rules") == STANDARD.as_dict()
    assert record["night"] == {
        "movement": "progressive",
        "fill": "byes",
        "rounds": 3,
        "hands_per_round": 8,
        "head_table_ends": True,
        "points_target": None,
        "minutes_per_game": None,
        "game_end": "Each game ends at the head table's 8th hand",
        "scoring": "standard",
        "seed": 7,
    }
    assert len(record["players"]) == 16
    assert [r["number"] for r in record["rounds"]] == [1, 2, 3]
    assert {r["ended_by"] for r in record["rounds"]} == {"head_table"}  # its hand 8 rang each game's bell
    assert record["rounds"][0]["ended"] == "the head table's hand 8"
    table = record["rounds"][0]["tables"][0]
    assert set(table) == {"table", "seats", "three", "hands", "score", "winner", "tie_break"}
    assert table["three"] is False
    assert len(table["hands"]) == 8
    assert table["score"]["NS"] == sum(hand["points"]["NS"] for hand in table["hands"])
    totals = {row["player"]: row["total"] for row in record["standings"]}
    for player in record["players"]:
        expected = 0
        for round_ in record["rounds"]:
            for table in round_["tables"]:
                for seat, pid in table["seats"].items():
                    if pid == player["id"]:
                        expected += table["score"]["NS" if seat in "NS" else "EW"]
        assert totals[player["id"]] == expected
