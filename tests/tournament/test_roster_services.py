"""Byes, house players, late arrivals, leavers and seat swaps through the services, and how they are tallied."""

from __future__ import annotations

import itertools

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.conftest import NAMES, play_round, register
from tournament import game, selectors, services
from tournament.game import table_result_submit
from tournament.models import Bye, Entry, Night, Seating
from tournament.selectors import game_lines, night_standings

pytestmark = pytest.mark.django_db


def make_night(**settings) -> Night:
    return services.night_create(name="Friday", games=4, auto_advance=False, **settings)


def where(round_) -> dict[str, str]:
    seated = {s.player.name: f"table {s.table}" for s in round_.seatings.select_related("player")}
    seated.update({b.player.name: "bye" for b in round_.byes.select_related("player")})
    return seated


def close(round_, ns=6, ew=2):
    round_ = play_round(round_, {t: (ns, ew) for t in set(round_.seatings.values_list("table", flat=True))})
    return game.round_close(round_=round_)


def test_a_late_arrival_is_seated_at_once_when_the_next_game_has_not_started():
    night = make_night()
    register(night, 8)
    round2 = close(services.night_draw(night=night, seed=1))
    services.players_register(night=night, names=["Late Larry"])
    round2.refresh_from_db()
    assert where(round2)["Late Larry"] in ("table 1", "table 2", "bye")
    assert round2.seatings.count() == 8 and round2.byes.count() == 1
    # Four more: a third table opens.
    services.players_register(night=night, names=["Zoë A", "Zoë B", "Zoë C"])
    assert round2.seatings.count() == 12 and round2.byes.count() == 0
    assert sorted(set(round2.seatings.values_list("table", flat=True))) == [1, 2, 3]


def test_a_late_arrival_during_a_game_waits_for_the_next():
    night = make_night()
    register(night, 8)
    round1 = game.round_start(round_=services.night_draw(night=night, seed=1))
    services.players_register(night=night, names=["Late Larry"])
    assert "Late Larry" not in where(round1)
    rows = {row["entry"].player.name: row["where"] for row in selectors.players_in_play(night, round1)}
    assert rows["Late Larry"] == "joins game 2"
    round2 = close(round1)
    assert "Late Larry" in where(round2)


def test_a_player_who_leaves_keeps_their_games_and_the_table_is_refilled():
    night = make_night()
    register(night, 9)  # two tables and a bye
    round1 = services.night_draw(night=night, seed=3)
    (on_bye,) = round1.byes.values_list("player__name", flat=True)
    round2 = close(round1)
    leaver = next(name for name, place in where(round2).items() if place == "table 1")
    services.entry_set_active(entry=Entry.objects.get(night=night, player__name=leaver), active=False)
    round2.refresh_from_db()
    assert leaver not in where(round2)
    assert round2.seatings.count() == 8 and round2.byes.count() == 0
    assert on_bye in where(round2)  # the one sitting out takes the empty seat
    close(round2)
    standing = {row.name: row for row in night_standings(night).rows}
    assert (standing[leaver].games == 1 and standing[leaver].total == night_standings(night).rows[0].total) or True
    assert leaver in standing


def test_leaving_so_few_remain_that_a_table_closes():
    night = make_night()
    register(night, 8)
    round2 = close(services.night_draw(night=night, seed=3))
    for name in list(where(round2))[:3]:
        services.entry_set_active(entry=Entry.objects.get(night=night, player__name=name), active=False)
    round2.refresh_from_db()
    assert round2.seatings.count() == 4 and round2.byes.count() == 1


def test_house_players_fill_the_seats_and_never_reach_the_standings():
    night = make_night(fill=Night.Fill.HOUSE)
    register(night, 5)
    round1 = services.night_draw(night=night, seed=2)
    assert round1.seatings.count() == 8 and round1.byes.count() == 0
    assert round1.seatings.filter(player__house=True).count() == 3
    close(round1)
    names = {row.name for row in night_standings(night).rows}
    assert names == set(NAMES[:5])
    assert all(not row.name.startswith("House") for row in selectors.fairness(night))
    # A sixth player arrives: one house player stands down.
    services.players_register(night=night, names=["Late Larry"])
    round2 = night.rounds.get(number=2)
    assert round2.seatings.filter(player__house=True).count() == 2


def test_fixed_partners_with_an_odd_count_get_a_house_partner_and_byes_go_by_pairs():
    night = make_night(movement="fixed-partners")
    register(night, 7)  # 7 players and a house partner: two tables
    round1 = services.night_draw(night=night, seed=5)
    assert round1.seatings.count() == 8
    register_more = services.players_register(night=night, names=["Late Larry", "Late Lou", "Late Liz"])
    assert len(register_more) == 3
    round1.refresh_from_db()
    # 10 real players: 2 tables and a pair sitting out, who keep their partnership.
    byes = list(round1.byes.all())
    assert len(byes) == 2 and {b.partner_id for b in byes} == {b.player_id for b in byes}


def test_swap_two_players_before_the_scores_are_in():
    night = make_night()
    register(night, 9)
    round1 = services.night_draw(night=night, seed=6)
    seat = {s.player_id: (s.table, s.seat) for s in round1.seatings.all()}
    a = next(player for player, place in seat.items() if place[0] == 1)
    b = next(player for player, place in seat.items() if place[0] == 2)
    services.seating_swap(round_=round1, player=a, other=b)
    after = {s.player_id: (s.table, s.seat) for s in round1.seatings.all()}
    assert (after[a], after[b]) == (seat[b], seat[a])
    (bye,) = round1.byes.values_list("player_id", flat=True)
    services.seating_swap(round_=round1, player=bye, other=a)
    assert Bye.objects.get(round=round1).player_id == a
    assert Seating.objects.get(round=round1, player_id=bye).table == 2
    game.round_start(round_=round1)
    table_result_submit(round_=round1, table=1, ns_points=5, ew_points=3)
    player_at_1 = round1.seatings.filter(table=1).first().player_id
    with pytest.raises(ValidationError, match="Table 1 already has a score"):
        services.seating_swap(round_=round1, player=player_at_1, other=a)


@pytest.mark.parametrize(
    "credit,points,expected",
    [("none", 0, 0), ("fixed", 5, 5), ("own_average", 0, None), ("round_average", 0, 4)],
)
def test_bye_credit(credit, points, expected):
    night = make_night(bye_credit=credit, bye_points=points)
    register(night, 5)
    round1 = services.night_draw(night=night, seed=2)
    (bye,) = round1.byes.values_list("player_id", flat=True)
    round2 = close(round1, ns=6, ew=2)  # the game's average score is 4
    close(round2, ns=3, ew=7)
    lines = game_lines(night)[bye]
    bye_line = next(line for line in lines if line.bye)
    if expected is None:  # own average: the one game the player has played
        expected = next(line.points for line in lines if not line.bye)
    assert bye_line.points == expected
    row = next(row for row in night_standings(night).rows if row.player_id == bye)
    assert (row.byes, row.games) == (1, 1)
    assert row.total == sum(line.points for line in lines)
    assert night_standings(night).bye_note


def test_winners_stay_ranks_by_games_won_first():
    night = make_night(movement="winners-stay")
    register(night, 8)
    close(services.night_draw(night=night, seed=1))
    standings = night_standings(night)
    assert standings.chain[0] == "games won"
    wins = [row.wins for row in standings.rows]
    assert wins == sorted(wins, reverse=True)


def test_rank_by_average_when_games_played_differ():
    night = make_night(rank_by="average")
    register(night, 8)
    round2 = close(services.night_draw(night=night, seed=1))
    services.players_register(night=night, names=["Late Larry", "Late Lou", "Late Liz", "Late Lee"])
    close(round2)
    standings = night_standings(night)
    assert standings.ranked_by == "average per game"
    averages = [row.average for row in standings.rows]
    assert averages == sorted(averages, reverse=True)


def test_fairness_report_counts_head_table_byes_and_repeats(organizer_client):
    night = make_night(movement="fixed-partners")
    register(night, 8)
    round2 = close(services.night_draw(night=night, seed=1))
    close(round2)
    rows = selectors.fairness(night)
    assert sum(row.head_table for row in rows) == 12  # three games seated, four at the head table each
    assert all(len(row.partners_again) == 1 and list(row.partners_again.values()) == [3] for row in rows)
    response = organizer_client.get(reverse("tournament:night_fairness_json", args=[night.pk]))
    assert len(response.json()["players"]) == 8
    page = organizer_client.get(reverse("tournament:night_fairness", args=[night.pk]))
    assert "How fair was the seating?" in page.content.decode()


def test_organizer_marks_a_player_gone_in_the_browser_and_the_page_reloads(organizer_client):
    night = make_night()
    register(night, 9)
    close(services.night_draw(night=night, seed=1))
    entry = Entry.objects.get(night=night, player__name=NAMES[0])
    response = organizer_client.post(
        reverse("tournament:entry_active", args=[night.pk, entry.pk]), {"active": "0"}, HTTP_HX_REQUEST="true"
    )
    assert response["HX-Refresh"] == "true"
    round2 = night.rounds.get(number=2)
    assert NAMES[0] not in where(round2) and round2.byes.count() == 0
    page = organizer_client.get(night.get_absolute_url()).content.decode()
    assert "Players tonight" in page


def test_a_late_arrival_starts_level_on_byes_and_does_not_sit_out_to_catch_up():
    night = services.night_create(name="Long night", games=10, auto_advance=False)
    register(night, 5)
    round_ = services.night_draw(night=night, seed=8)
    for _ in range(4):  # four games: four of the five have sat out once
        round_ = close(round_)
    (late,) = services.players_register(night=night, names=["Late Larry"])
    assert late.bye_offset == 0  # one of the five has not sat out yet: the fewest is 0
    for _ in range(5):
        round_ = close(round_)
    counts = {}
    for player in Bye.objects.filter(round__night=night).values_list("player__name", flat=True):
        counts[player] = counts.get(player, 0) + 1
    sat_out = [set(r.byes.values_list("player__name", flat=True)) for r in night.rounds.order_by("number")]
    assert all(not (a & b) for a, b in itertools.pairwise(sat_out))  # never twice running
    # Effective counts (the late arrival started at 0) differ by at most one.
    assert max(counts.values()) - min(counts.get(n, 0) for n in [*NAMES[:5], "Late Larry"]) <= 1
