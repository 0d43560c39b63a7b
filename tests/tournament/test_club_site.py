"""The club's public results at its short address (#38): only the nights its organizers opted in, only its own,
players off public lists as the public pages show them, in the same queries for 1 night or 20; and the night
page's switch."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Season
from tournament import backup, seasons, services
from tournament.models import Night, Player
from tournament.rehearsal import simulate
from tournament.selectors import UNLISTED, night_standings
from tournament.services import clubs

pytestmark = pytest.mark.django_db


@pytest.fixture
def maple():
    club = clubs.club_add(name="Maple Leaf Euchre", slug="maple")
    organizer = clubs.account_add(club=club, username="maple-org", password="pw-organizer-1", staff=True)
    return club, organizer


def _night(club, name: str, seed: int, *, public: bool = True) -> Night:
    night = simulate(players=8, rounds=2, seed=seed, name=name, club=club)
    Night.objects.filter(pk=night.pk).update(results_public=public)
    night.refresh_from_db()
    return night


def _page(client, slug: str, **query) -> str:
    response = client.get(f"/public/c/{slug}/", query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_club_page_shows_its_opted_in_nights_and_nothing_else(client, maple):
    club, _ = maple
    shown = _night(club, "Maple January Social", 1)
    _night(club, "Maple Private Practice", 2, public=False)
    other = clubs.club_add(name="Birch Club")
    _night(other, "Birch Open Night", 3)  # opted in, but another club's
    page = _page(client, "maple")
    assert "Maple Leaf Euchre" in page
    assert "Maple January Social" in page
    assert "Maple Private Practice" not in page and "Birch" not in page
    assert reverse("tournament:public_night", args=[shown.pk]) in page
    assert reverse("tournament:standings_pdf", args=[shown.pk]) in page
    # the night's prizes, as its own public page gives them
    standings = night_standings(shown)
    for row in standings.high:
        assert row.name in page
    assert "2 games played" in page and "8 players" in page
    # the public night page and the standings PDF the links lead to are open to anyone
    assert client.get(reverse("tournament:public_night", args=[shown.pk])).status_code == 200
    assert client.get(reverse("tournament:standings_pdf", args=[shown.pk])).status_code == 200


def test_a_player_off_public_lists_is_a_player_here_too(client, maple):
    club, _ = maple
    night = _night(club, "Maple February Social", 4)
    top = night_standings(night).high[0]
    Player.objects.filter(pk=top.player_id).update(unlisted=True)
    page = _page(client, "maple")
    assert top.name not in page
    assert f"High score: {UNLISTED}" in page or f": {UNLISTED}" in page


def test_seasons_are_listed_when_a_night_of_theirs_is_shown(client, maple):
    club, _ = maple
    shown = _night(club, "Maple March Social", 5)
    hidden = _night(club, "Maple Quiet Night", 6, public=False)
    with_one = seasons.season_create(name="Maple Winter League", owner_id=club.pk)
    seasons.season_nights_set(season=with_one, night_ids=[shown.pk, hidden.pk])
    without = seasons.season_create(name="Maple Hidden League", owner_id=club.pk)
    seasons.season_nights_set(season=without, night_ids=[hidden.pk])
    page = _page(client, "maple")
    assert "Maple Winter League" in page and "1 night here" in page
    assert reverse("scoring:season_public", args=[with_one.pk]) in page
    assert "Maple Hidden League" not in page
    assert Season.objects.filter(owner=club).count() == 2


def test_a_club_with_nothing_shown_says_so_and_a_wrong_address_is_the_friendly_not_found(client, maple):
    club, _ = maple
    _night(club, "Maple Private Practice", 2, public=False)
    assert "No nights are shown here yet" in _page(client, "maple")
    response = client.get("/public/c/no-such-club/")
    assert response.status_code == 404
    assert "There is no club at this address" in response.content.decode()
    # an address typed or printed in capitals finds the club
    assert "No nights are shown here yet" in client.get("/public/c/MAPLE/", follow=True).content.decode()


def test_the_page_reads_the_same_queries_for_one_night_or_twenty(client, maple):
    club, _ = maple
    _night(club, "Maple Night 1", 100)
    season = seasons.season_create(name="Maple League", owner_id=club.pk)
    seasons.season_nights_set(
        season=season, night_ids=list(Night.objects.filter(club=club).values_list("pk", flat=True))
    )
    with CaptureQueriesContext(connection) as one:
        _page(client, "maple")
    for seed in range(101, 120):
        _night(club, f"Maple Night {seed - 99}", seed)
    seasons.season_nights_set(
        season=season, night_ids=list(Night.objects.filter(club=club).values_list("pk", flat=True))
    )
    with CaptureQueriesContext(connection) as twenty:
        page = _page(client, "maple")
    assert page.count('class="club-night') == 20
    assert len(twenty) == len(one) <= 12, [q["sql"][:120] for q in twenty.captured_queries]


def test_the_organizer_switches_a_finished_night_on_and_off_and_no_result_changes(client, maple):
    club, organizer = maple
    night = _night(club, "Maple April Social", 7, public=False)
    assert night.status == Night.Status.FINISHED
    before = backup.night_backup_bytes(night)
    client.force_login(organizer)
    detail = client.get(night.get_absolute_url()).content.decode()
    assert "Show on the club's public results" in detail
    assert reverse("tournament:club_results", args=["maple"]) in detail
    url = reverse("tournament:night_results_public", args=[night.pk])
    assert client.get(url).status_code == 405
    response = client.post(url, {"public": "1"})
    assert response.status_code == 302
    assert Night.objects.get(pk=night.pk).results_public
    assert "Maple April Social" in _page(client, "maple")
    assert "Take it off the club's public results" in client.get(night.get_absolute_url()).content.decode()
    client.post(url, {"public": "0"})
    assert not Night.objects.get(pk=night.pk).results_public
    assert "Maple April Social" not in _page(client, "maple")
    assert backup.night_backup_bytes(Night.objects.get(pk=night.pk)) == before


def test_a_keeper_or_a_visitor_cannot_switch_it(client, maple):
    club, _ = maple
    night = _night(club, "Maple May Social", 8, public=False)
    keeper = services.keeper_add(night=night, username="maple-keeper", password="tally-card-77")
    url = reverse("tournament:night_results_public", args=[night.pk])
    client.post(url, {"public": "1"})  # a visitor: sent to log in
    client.force_login(keeper)
    assert client.post(url, {"public": "1"}).status_code in {302, 403}
    assert not Night.objects.get(pk=night.pk).results_public
    assert get_user_model().objects.get(username="maple-keeper").is_staff is False


def test_the_organizer_s_night_list_links_to_the_club_page(client, maple):
    _, organizer = maple
    client.force_login(organizer)
    page = client.get(reverse("tournament:night_list")).content.decode()
    assert reverse("tournament:club_results", args=["maple"]) in page


def test_a_year_at_a_time_the_latest_first_with_a_way_to_the_others(client, maple):
    club, _ = maple
    for name, seed, day in (("Maple New Year 2027", 11, "2027-01-08"), ("Maple Autumn 2026", 12, "2026-10-02")):
        night = _night(club, name, seed)
        Night.objects.filter(pk=night.pk).update(date=day)
    hidden = _night(club, "Maple Hidden 2025", 13, public=False)
    Night.objects.filter(pk=hidden.pk).update(date="2025-05-05")
    page = _page(client, "maple")
    assert "Maple New Year 2027" in page and "Maple Autumn 2026" not in page
    assert 'href="?year=2026"' in page and "?year=2025" not in page  # no year of hidden nights only
    older = _page(client, "maple", year="2026")
    assert "Maple Autumn 2026" in older and "Maple New Year 2027" not in older
    for odd in ("2025", "abcd", "99999999999999999999"):  # a year with nothing shown, or no year: the latest
        assert "Maple New Year 2027" in _page(client, "maple", year=odd)
