"""The club scope adds at most one query to any request (#38, "Scale, measured"): a keeper's score POST and the
polls of a night at the bell, counted with `config.middleware.ClubMiddleware` and with it taken out."""

from __future__ import annotations

import random

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import TableResult
from tournament import game, selectors, services
from tournament.services import clubs
from tournament.simulation import player_names

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
CLUB_CHECK = "config.middleware.ClubMiddleware"
WITHOUT_CLUB = [name for name in settings.MIDDLEWARE if name != CLUB_CHECK]


@pytest.fixture
def bell(db):
    """Two clubs; club A's night of 32 players (8 tables) at the bell of game 1, with a keeper of A's."""
    club = clubs.club_add(name="Alder Euchre Club")
    clubs.club_add(name="Birch Euchre Club")  # a second club: the server is a hosted one of several
    night = services.night_create(name="At the bell", games=3, club=club, confirm_results=False)
    services.players_register(night=night, names=player_names(32, random.Random(1)))
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    game.round_ring_bell(round_=round_)
    keeper = services.keeper_add(night=night, username="alder-scorer", password="tally-card-77")
    return night, round_, keeper


def _client(user, middleware):
    """A browser logged in as `user` to a server with these middleware (a client loads them at its first request)."""
    with override_settings(MIDDLEWARE=middleware):
        client = Client()
        client.force_login(user)
    return client


def _desk_post(client, night, round_, table: int, middleware=settings.MIDDLEWARE):
    url = reverse("scoring:desk_save", args=[night.pk, round_.number, table])
    fields = {"key": f"desk-{table}", "ns_points": "10", "ew_points": "4", "last_hand_winner": "NS"}
    with override_settings(MIDDLEWARE=middleware), CaptureQueriesContext(connection) as queries:
        response = client.post(url, {f"t{table}-{name}": value for name, value in fields.items()}, **HTMX)
    assert response.status_code == 200 and "form" in response.content.decode()
    return [query["sql"] for query in queries]


def _checks(queries: list[str], night, user) -> int:
    """How many of the queries are the club's check (`selectors.night_is_theirs`, the night through its club's
    members), told by its exact SQL."""
    with CaptureQueriesContext(connection) as check:
        assert selectors.night_is_theirs(user, night.pk)
    (sql,) = [query["sql"] for query in check]
    return queries.count(sql)


def test_a_keeper_s_score_post_costs_one_query_more_with_the_club_check(bell):
    night, round_, keeper = bell
    checked, unchecked = _client(keeper, settings.MIDDLEWARE), _client(keeper, WITHOUT_CLUB)
    _desk_post(checked, night, round_, 4)  # the first request of a process reads what later ones find cached
    _desk_post(unchecked, night, round_, 5, WITHOUT_CLUB)
    with_check = _desk_post(checked, night, round_, 2)  # not the head table (1), whose slip may ask for more
    without = _desk_post(unchecked, night, round_, 3, WITHOUT_CLUB)
    saved = TableResult.objects.filter(round=round_, table__in=[2, 3, 4, 5], status=TableResult.Status.FINAL)
    assert saved.count() == 4  # each post stored its score, so both counts are of the same work
    assert _checks(with_check, night, keeper) == 1 and _checks(without, night, keeper) == 0
    assert len(with_check) - len(without) <= 1, (len(with_check), len(without))


@pytest.mark.parametrize("since", ["unchanged", "changed"])
def test_the_keeper_s_desk_poll_costs_one_query_more_with_the_club_check(bell, since):
    night, round_, keeper = bell
    clients = {"with": _client(keeper, settings.MIDDLEWARE), "without": _client(keeper, WITHOUT_CLUB)}
    game.table_result_submit(round_=round_, table=3, ns_points=10, ew_points=4)
    stamp = selectors.night_stamp(night.pk, moved=False) if since == "unchanged" else "0"
    url = reverse("scoring:desk_live", args=[night.pk, round_.number])
    counts = {}
    middleware = {"with": settings.MIDDLEWARE, "without": WITHOUT_CLUB}
    for name in ("with", "without", "with", "without"):  # each counted the second time, its client warm
        with override_settings(MIDDLEWARE=middleware[name]), CaptureQueriesContext(connection) as queries:
            response = clients[name].get(url, {"since": stamp, "moved": selectors.night_stamp(night.pk)}, **HTMX)
        assert response.status_code == (204 if since == "unchanged" else 200)
        counts[name] = [query["sql"] for query in queries]
    assert _checks(counts["with"], night, keeper) == 1 and _checks(counts["without"], night, keeper) == 0
    assert len(counts["with"]) - len(counts["without"]) <= 1


def test_a_player_s_phone_poll_is_not_checked_at_all(bell):
    """A player's own page is public (for anyone at the night): the club check costs its poll nothing."""
    night, _round, _keeper = bell
    player = night.entries.values_list("player_id", flat=True).first()
    url = reverse("tournament:player_page", args=[night.pk, player])
    counts = {}
    middleware = {"with": settings.MIDDLEWARE, "without": WITHOUT_CLUB}
    clients = {name: Client() for name in middleware}
    for name in ("with", "without", "with", "without"):  # each counted the second time, its client warm
        with override_settings(MIDDLEWARE=middleware[name]), CaptureQueriesContext(connection) as queries:
            assert clients[name].get(url, {"since": "0"}, **HTMX).status_code == 200
        counts[name] = len(queries)
    assert counts["with"] == counts["without"]
