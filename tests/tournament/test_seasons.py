"""Seasons: the services that make them, the season table read from the nights, and the pages.

The hand-made season below has three one-game nights; every player's night total is written beside it.
"""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Season
from tests.conftest import NAMES, play_round
from tournament import game
from tournament import seasons as services
from tournament import services as night_services
from tournament.models import Entry, Night, Player
from tournament.rehearsal import simulate
from tournament.selectors import night_standings, season_player, season_standings

pytestmark = pytest.mark.django_db

A, B, C, D, E, F, G, H = NAMES[:8]


def night_of(name: str, date: dt.date, games: list[dict], **settings) -> Night:
    """A finished night played exactly as written: each game is {table: ((N, E, S, W), ns, ew[, last hand])}."""
    players = list(dict.fromkeys(p for tables in games for seats, *_ in tables.values() for p in seats))
    night = night_services.night_create(name=name, date=date, games=len(games), auto_advance=False, **settings)
    night_services.players_register(night=night, names=players)
    ids = {entry.player.name: entry.player_id for entry in night.entries.select_related("player")}
    round_ = night_services.night_draw(night=night, seed=1)
    for tables in games:
        for table, (seats, *_) in tables.items():
            for seat, name in zip("NESW", seats, strict=True):
                there = round_.seatings.get(table=table, seat=seat).player_id
                if there != ids[name]:
                    night_services.seating_swap(round_=round_, player=ids[name], other=there)
        play_round(round_, {table: tuple(score) for table, (_, *score) in tables.items()})
        round_ = game.round_close(round_=round_)
    night.refresh_from_db()
    return night


@pytest.fixture
def three_nights():
    # Night 1: A 10, C 10, B 4, D 4.
    first = night_of("Week 1", dt.date(2027, 1, 5), [{1: ((A, B, C, D), 10, 4)}], venue="Parish hall")
    # Night 2: A 6, E 6, B 10, F 10, C 8, G 8, D 3, H 3.
    second = night_of("Week 2", dt.date(2027, 1, 12), [{1: ((A, B, E, F), 6, 10), 2: ((C, D, G, H), 8, 3)}])
    # Night 3: A, B, E, F 8 each (a tied game, N–S won the last hand).
    third = night_of("Week 3", dt.date(2027, 1, 19), [{1: ((A, E, B, F), 8, 8, "NS")}])
    return [first, second, third]


def season_with(nights, **settings) -> Season:
    season = services.season_create(name="Winter 2027", club="St Mary's", **settings)
    services.season_nights_set(season=season, night_ids=[night.pk for night in nights])
    return season


def table(standings) -> list[tuple]:
    return [(row.rank_label, row.name) for row in standings.rows]


# --- services ---------------------------------------------------------------------------------------------------------


def test_create_a_season_tidies_the_text(organizer):
    season = services.season_create(
        name="  Winter   2027 ", club=" St Mary's ", notes=" Prizes at the end \n", created_by=organizer
    )
    assert (season.name, season.club, season.notes, season.method, season.best_of) == (
        "Winter 2027",
        "St Mary's",
        "Prizes at the end",
        "total",
        None,
    )
    assert season.created_by == organizer
    assert season.nights.count() == 0


def test_a_season_needs_a_name():
    with pytest.raises(ValidationError) as refused:
        services.season_create(name="   ")
    assert list(refused.value.message_dict) == ["name"]


def test_best_nights_needs_how_many():
    with pytest.raises(ValidationError) as refused:
        services.season_create(name="Winter", method="best")
    assert refused.value.message_dict == {"best_of": ["Say how many nights count, for example 8 (of 12)."]}
    assert not Season.objects.exists()


def test_an_unknown_method_is_refused_on_its_field():
    with pytest.raises(ValidationError) as refused:
        services.season_create(name="Winter", method="median")
    assert list(refused.value.message_dict) == ["method"]


def test_a_number_of_nights_is_dropped_when_the_method_does_not_use_it():
    season = services.season_create(name="Winter", method="best", best_of=8)
    assert services.season_update(season=season, method="average", best_of=8).best_of is None


def test_update_changes_settings_and_refuses_unknown_ones():
    season = services.season_create(name="Winter")
    season = services.season_update(season=season, name="Winter league", method="best", best_of=2)
    season.refresh_from_db()
    assert (season.name, season.method, season.best_of) == ("Winter league", "best", 2)
    with pytest.raises(ValidationError):
        services.season_update(season=season, colour="blue")
    with pytest.raises(ValidationError) as refused:
        services.season_update(season=season, best_of=None)
    assert list(refused.value.message_dict) == ["best_of"]


def test_add_and_remove_nights(night):
    other = night_services.night_create(name="Another night")
    season = services.season_create(name="Winter")
    services.season_nights_add(season=season, night_ids=[night.pk, other.pk, night.pk])
    assert set(season.nights.all()) == {night, other}
    services.season_nights_add(season=season, night_ids=[night.pk])  # already in: stays once
    assert season.nights.count() == 2
    services.season_nights_remove(season=season, night_ids=[other.pk])
    assert list(season.nights.all()) == [night]
    assert Night.objects.filter(pk=other.pk).exists()  # the night itself is kept


def test_night_changes_refuse_what_is_not_there(night):
    season = services.season_create(name="Winter")
    with pytest.raises(ValidationError) as refused:
        services.season_nights_add(season=season, night_ids=[night.pk, 999_999])
    assert refused.value.message_dict == {"nights": ["No such night: 999999."]}
    assert season.nights.count() == 0  # all or nothing
    with pytest.raises(ValidationError) as refused:
        services.season_nights_add(season=season, night_ids=[])
    assert list(refused.value.message_dict) == ["nights"]
    with pytest.raises(ValidationError) as refused:
        services.season_nights_remove(season=season, night_ids=[night.pk])
    assert list(refused.value.message_dict) == ["nights"]


def test_set_nights_keeps_exactly_the_ticked_ones(night):
    other = night_services.night_create(name="Another night")
    season = season_with([night])
    services.season_nights_set(season=season, night_ids=[other.pk])
    assert list(season.nights.all()) == [other]
    services.season_nights_set(season=season, night_ids=[])
    assert season.nights.count() == 0


# --- the season table, by hand ---------------------------------------------------------------------------------------


def test_total_over_the_season_with_a_shared_rank(three_nights):
    standings = season_standings(season_with(three_nights))
    assert standings.ranked_on == "total points"
    assert [(r.rank_label, r.name, r.nights, r.total) for r in standings.rows] == [
        ("1", A, 3, 24),
        ("2", B, 3, 22),
        ("=3", C, 2, 18),
        ("=3", F, 2, 18),
        ("5", E, 2, 14),
        ("6", G, 1, 8),
        ("7", D, 2, 7),
        ("8", H, 1, 3),
    ]


def test_attendance_night_by_night(three_nights):
    standings = season_standings(season_with(three_nights))
    assert [night.name for night in standings.nights] == ["Week 1", "Week 2", "Week 3"]
    assert standings.nights[0].venue == "Parish hall"
    cells = {row.name: [cell.total for cell in row.cells] for row in standings.rows}
    assert cells == {
        A: [10, 6, 8],
        B: [4, 10, 8],
        C: [10, 8, None],
        D: [4, 3, None],
        E: [None, 6, 8],
        F: [None, 10, 8],
        G: [None, 8, None],
        H: [None, 3, None],
    }
    assert not any(cell.counted for row in standings.rows for cell in row.cells)  # only best-N marks nights


def test_average_per_night_played(three_nights):
    standings = season_standings(season_with(three_nights, method="average"))
    assert standings.ranked_on == "average per night played"
    assert [(r.rank_label, r.name, r.average) for r in standings.rows] == [
        ("=1", C, 9.0),
        ("=1", F, 9.0),
        ("=3", A, 8.0),
        ("=3", G, 8.0),
        ("5", B, 7.33),
        ("6", E, 7.0),
        ("7", D, 3.5),
        ("8", H, 3.0),
    ]


def test_best_two_of_three(three_nights):
    standings = season_standings(season_with(three_nights, method="best", best_of=2))
    assert standings.ranked_on == "best 2 of 3 nights"
    assert [(r.rank_label, r.name, r.best, r.total) for r in standings.rows] == [
        ("=1", A, 18, 24),  # 10 + 8, the 6 left out
        ("=1", B, 18, 22),  # 10 + 8, the 4 left out
        ("=1", C, 18, 18),
        ("=1", F, 18, 18),
        ("5", E, 14, 14),
        ("6", G, 8, 8),  # one night: everything played counts
        ("7", D, 7, 7),
        ("8", H, 3, 3),
    ]
    counted = {row.name: [cell.counted for cell in row.cells] for row in standings.rows}
    assert counted[A] == [True, False, True]
    assert counted[B] == [False, True, True]
    assert counted[G] == [False, True, False]


def test_an_unfinished_game_does_not_count_yet(three_nights):
    playing = night_services.night_create(name="Week 4", date=dt.date(2027, 1, 26), games=2, auto_advance=False)
    night_services.players_register(night=playing, names=[G, H, A, B])
    play_round(night_services.night_draw(night=playing, seed=1), {1: (10, 2)})  # scored, not closed
    standings = season_standings(season_with([*three_nights, playing]))
    assert len(standings.nights) == 4
    assert {row.name: row.nights for row in standings.rows}[G] == 1
    assert all(row.cells[3].total is None for row in standings.rows)


def test_a_season_with_no_nights():
    standings = season_standings(services.season_create(name="Empty"))
    assert standings.nights == [] and standings.rows == []


def test_each_night_counts_exactly_its_own_standings_total():
    # Byes with a credit, and the personal loner bonus, are where a second sum would drift.
    nights = [simulate(players=10, rounds=3, seed=seed, scoring="loner-bonus") for seed in (1, 2, 3)]
    Night.objects.filter(pk=nights[0].pk).update(bye_credit="round_average")
    Night.objects.filter(pk=nights[1].pk).update(bye_credit="own_average")
    Night.objects.filter(pk=nights[2].pk).update(bye_credit="fixed", bye_points=5)
    standings = season_standings(season_with(nights))
    by_player = {row.player_id: row for row in standings.rows}
    for index, night in enumerate(nights):
        night.refresh_from_db()
        for row in night_standings(night).rows:
            assert by_player[row.player_id].cells[index].total == row.total


def test_season_queries_do_not_grow_with_nights_or_players():
    counts = []
    for nights, players in ((1, 8), (3, 13)):
        season = season_with([simulate(players=players, rounds=2, seed=n) for n in range(nights)])
        with CaptureQueriesContext(connection) as queries:
            season_standings(season)
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 6


# --- a player's season ------------------------------------------------------------------------------------------------


def test_a_players_season_page(three_nights):
    season = season_with(three_nights, method="best", best_of=2)
    ann = Player.objects.get(name=A)
    mine = season_player(season, ann.pk)
    assert (mine.name, mine.line.rank_label, mine.season_players) == (A, "=1", 8)
    assert [(n.night.name, n.place, n.players, n.total, n.counted) for n in mine.nights] == [
        ("Week 1", "=1", 4, 10, True),
        ("Week 2", "=5", 8, 6, False),
        ("Week 3", "=1", 4, 8, True),
    ]
    assert [(g.night.name, g.number, g.table, g.partner, g.points, g.conceded, g.won) for g in mine.games] == [
        ("Week 1", 1, 1, C, 10, 4, True),
        ("Week 2", 1, 1, E, 6, 10, False),
        ("Week 3", 1, 1, B, 8, 8, True),
    ]
    assert mine.games[0].opponents == (B, D)
    assert mine.partners == sorted([(C, 1), (E, 1), (B, 1)])
    # Week 1: A and C share the high score; week 2: third place goes to the next group, A and E on 6 (one prize
    # each, so the high and second groups are passed over); week 3: all four level, so all share the high score.
    assert [(night.name, prize) for night, prize in mine.prizes] == [
        ("Week 1", "High score (10 points)"),
        ("Week 2", "Third (6 points)"),
        ("Week 3", "High score (8 points)"),
    ]
    assert mine.nights[1].prizes == ["Third (6 points)"]


def test_partners_are_counted_over_the_season():
    nights = [
        night_of("One", dt.date(2027, 2, 1), [{1: ((A, B, C, D), 10, 4)}]),
        night_of("Two", dt.date(2027, 2, 8), [{1: ((A, B, C, D), 10, 4)}]),
        night_of("Three", dt.date(2027, 2, 15), [{1: ((A, C, B, D), 10, 4)}]),
    ]
    mine = season_player(season_with(nights), Player.objects.get(name=A).pk)
    assert mine.partners == [(C, 2), (B, 1)]


def test_no_season_page_for_someone_who_never_played(three_nights):
    stranger = Player.objects.create(name="Nobody Here")
    assert season_player(season_with(three_nights), stranger.pk) is None


# --- pages -----------------------------------------------------------------------------------------------------------


@pytest.fixture
def helper_client():
    """Someone logged in who is not an organizer (a score keeper's account)."""
    helper = Client()
    helper.force_login(get_user_model().objects.create_user("keeper", password="pw"))
    return helper


def organizer_pages(season: Season) -> list[tuple[str, str]]:
    return [
        ("get", reverse("scoring:season_list")),
        ("get", reverse("scoring:season_create")),
        ("post", reverse("scoring:season_create")),
        ("get", reverse("scoring:season_edit", args=[season.pk])),
        ("post", reverse("scoring:season_edit", args=[season.pk])),
        ("post", reverse("scoring:season_nights", args=[season.pk])),
    ]


def test_organizer_pages_refuse_anyone_else(client, helper_client):
    season = services.season_create(name="Winter")
    for method, url in organizer_pages(season):
        response = getattr(client, method)(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
        assert getattr(helper_client, method)(url).status_code == 403, url
    assert Season.objects.count() == 1


def test_organizer_creates_a_season_and_ticks_its_nights(organizer_client, three_nights):
    response = organizer_client.post(reverse("scoring:season_create"), {"name": "Winter", "method": "total"})
    season = Season.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("scoring:season_edit", args=[season.pk])
    page = organizer_client.get(response["Location"])
    assert page.status_code == 200
    assert "Week 2" in page.content.decode()  # offered as a night to tick
    response = organizer_client.post(
        reverse("scoring:season_nights", args=[season.pk]), {"nights": [three_nights[0].pk, three_nights[2].pk]}
    )
    assert response.status_code == 302
    assert set(season.nights.all()) == {three_nights[0], three_nights[2]}
    listing = organizer_client.get(reverse("scoring:season_list")).content.decode()
    assert "Winter" in listing


def test_settings_refusal_shows_beside_the_field(organizer_client):
    season = services.season_create(name="Winter")
    response = organizer_client.post(
        reverse("scoring:season_edit", args=[season.pk]), {"name": "Winter", "method": "best"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors == {"best_of": ["Say how many nights count, for example 8 (of 12)."]}
    season.refresh_from_db()
    assert season.method == "total"


def test_public_page_needs_no_login_and_shows_display_names_only(client, three_nights):
    Player.objects.filter(name=A).update(club_number="M-4471", category="lady")
    Entry.objects.filter(player__name=A).update(club_number="M-4471", category="lady")  # as each night has them
    season = season_with(three_nights, method="best", best_of=2)
    response = client.get(reverse("scoring:season_public", args=[season.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    for name in (A, B, C, D, E, F, G, H):
        assert name in page or name.replace("'", "&#x27;") in page
    assert "M-4471" not in page and "lady" not in page
    assert "best 2 of 3 nights" in page
    assert "@media print" in page
    assert reverse("scoring:season_player", args=[season.pk, Player.objects.get(name=A).pk]) in page


def test_public_player_page(client, three_nights):
    season = season_with(three_nights)
    ann = Player.objects.get(name=A)
    response = client.get(reverse("scoring:season_player", args=[season.pk, ann.pk]))
    assert response.status_code == 200
    assert response.context["player"].name == A
    assert "High score" in response.content.decode()
    stranger = Player.objects.create(name="Nobody Here")
    assert client.get(reverse("scoring:season_player", args=[season.pk, stranger.pk])).status_code == 404


def test_season_csv(client, three_nights):
    season = season_with(three_nights, method="best", best_of=2)
    response = client.get(reverse("scoring:season_csv", args=[season.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv"
    assert 'filename="winter-2027-standings.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "rank",
        "player",
        "nights",
        "total",
        "average",
        "best 2",
        "2027-01-05 Week 1",
        "2027-01-12 Week 2",
        "2027-01-19 Week 3",
    ]
    assert rows[1] == [
        "T1",
        A,
        "3",
        "24",
        "8.00",
        "18",
        "10",
        "6",
        "8",
    ]  # tied for first: "=1" on the pages, "T1" in a spreadsheet
    assert rows[-1] == ["8", H, "1", "3", "3.00", "3", "", "3", ""]
    assert len(rows) == 9


# --- head-to-head on a real night ------------------------------------------------------------------------------------


def test_head_to_head_on_the_standings_page(organizer_client):
    # Both games tied and given to N–S on the last hand: everyone 17 points; all four met as opponents.
    games = [{1: ((A, C, B, D), 10, 10, "NS")}, {1: ((A, B, C, D), 7, 7, "NS")}]
    night = night_of("Head to head", dt.date(2027, 3, 1), games, tie_chain="total,h2h")
    standings = night_standings(night)
    assert standings.chain == ["total points", "head-to-head"]
    # games won against the others: A 2, B 1, C 1, D 0; margins all nothing
    assert [(row.rank_label, row.name, row.separated_by) for row in standings.rows] == [
        ("1", A, None),
        ("=2", C, "head-to-head"),  # C registered before B: level players go in roster order
        ("=2", B, None),
        ("4", D, "head-to-head"),
    ]
    page = organizer_client.get(night.get_absolute_url()).content.decode()
    assert "split on head-to-head" in page
