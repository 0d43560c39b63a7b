"""The migration that makes clubs: everything of before moves into a first club, losing nothing (#38)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournament", "0046_results_links"), ("scoring", "0011_offline_action_keys")]
AFTER = [("tournament", "0047_clubs"), ("scoring", "0012_season_owner")]


@pytest.mark.django_db(transaction=True)
def test_the_nights_players_seasons_and_accounts_of_before_are_the_first_club_s():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    User = old.get_model("auth", "User")
    for name in ("org", "kate"):
        User.objects.create(username=name, password="!", is_staff=name == "org")
    for name in ("Ann Lee", "Bob Ray"):
        old.get_model("tournament", "Player").objects.create(name=name, name_key=name.casefold(), results_token=name)
    night = old.get_model("tournament", "Night").objects.create(name="Friday", date=dt.date(2026, 11, 6))
    old.get_model("scoring", "Season").objects.create(name="Winter").nights.add(night.pk)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    (club,) = new.get_model("tournament", "Club").objects.all()
    assert list(new.get_model("tournament", "Night").objects.values_list("name", "club")) == [("Friday", club.pk)]
    players = new.get_model("tournament", "Player").objects.order_by("name")
    assert list(players.values_list("name", "club")) == [("Ann Lee", club.pk), ("Bob Ray", club.pk)]
    season = new.get_model("scoring", "Season").objects.get()
    assert season.owner_id == club.pk and list(season.nights.values_list("name", flat=True)) == ["Friday"]
    members = new.get_model("tournament", "Membership").objects.order_by("user__username")
    assert list(members.values_list("user__username", "club")) == [("kate", club.pk), ("org", club.pk)]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # the test database as the other tests expect it
