"""The organizer's page says when the run command had to start the web server or the worker again (#22, item 3)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from headtable import RESTARTS, note_restart
from tournament import selectors

pytestmark = pytest.mark.django_db


def test_the_night_page_names_each_restart_of_the_last_hours(organizer_client, night, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    page = organizer_client.get(night.get_absolute_url()).content.decode()
    assert 'id="restarts"' not in page  # nothing restarted: nothing said
    old = (timezone.now() - dt.timedelta(hours=5)).isoformat(timespec="seconds")
    (tmp_path / RESTARTS).write_text(f"{old}\tworker\t-9\nhalf a line cut by a power c")
    note_restart(tmp_path, "worker", -9)
    note_restart(tmp_path, "web server", 1)
    found = selectors.recent_restarts()
    assert [restart.what for restart in found] == ["The web server", "The worker (the bell and the printing)"]
    page = organizer_client.get(night.get_absolute_url()).content.decode()
    assert "Kept running:</strong> The web server stopped at" in page
    assert page.count("was started again") == 2  # the restart of five hours ago is not shown


def test_hosted_there_is_no_run_command_and_nothing_to_say(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "absent"
    assert selectors.recent_restarts() == []
