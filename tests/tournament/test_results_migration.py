"""The migration that gives every roster player a results link: players already on the roster each get their own."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournament", "0043_draw_key")]
AFTER = [("tournament", "0046_results_links")]


@pytest.mark.django_db(transaction=True)
def test_players_on_the_roster_before_get_a_link_each():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("tournament", "Player")
    for number, name in enumerate(("Ann Lee", "Bob Ray", "Cy Oak")):
        old.objects.create(name=name, name_key=name.casefold(), club_number=str(number))
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("tournament", "Player")
    tokens = list(new.objects.values_list("results_token", flat=True))
    assert len(tokens) == 3 and len(set(tokens)) == 3 and all(len(token) >= 32 for token in tokens)
    assert not new.objects.filter(unlisted=True).exists()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # the test database as the other tests expect it
