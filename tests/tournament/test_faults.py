"""Faults at the venue: the web server is killed mid-game and started again; the countdown and every stored
score survive, and the table's phone carries on."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import time
import urllib.parse
import urllib.request

import pytest

from tests.processes import django_shell, free_port, isolated_env, stop_server
from tests.processes import start_server as start

# The venue's own set-up (the run command, its server, SQLite on disk), which no second pass changes: the first pass
# only.
pytestmark = pytest.mark.venue

SETUP = """
from tournament import game, services
from tournament.services import table_links_ensure
night = services.night_create(name="Faults", games=3, minutes_per_game=30, confirm_results=False)
services.players_register(night=night, names=[f"Player {n}" for n in range(1, 9)])
game.round_start(round_=services.night_draw(night=night, seed=1))
links = table_links_ensure(night=night)
print(night.pk, links[1].token)  # table 2's: the head table's score would ring the bell and stop the countdown
"""


def gone(group: int) -> None:
    """Wait until no process of the server's group is left (its workers stop a moment after it)."""
    for _ in range(100):
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    raise AssertionError("the server's processes did not stop")


def test_a_server_killed_mid_game_comes_back_with_the_countdown_and_the_scores(tmp_path):
    env = isolated_env(tmp_path, "headtable_faults")
    night, token = django_shell(env, SETUP).split()[-2:]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    server = start(env, port)
    try:
        display = browser.open(f"{base}/public/nights/{night}/display/").read().decode()
        ends_at = re.search(r'data-ends-at="(\d+)"', display).group(1)
        page = browser.open(f"{base}/t/{token}/").read().decode()
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        key = re.search(r'name="key" value="([^"]+)"', page).group(1)
        form = {"csrfmiddlewaretoken": csrf, "key": key, "side": "NS", "ns_points": "6", "ew_points": "2", "game": "1"}
        saved = browser.open(f"{base}/t/{token}/score/", urllib.parse.urlencode(form).encode()).read().decode()
        assert "Saved." in saved
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # the laptop's server dies without warning, every process of it
        server.wait()
        gone(server.pid)
    server = start(env, port)
    try:
        display = browser.open(f"{base}/public/nights/{night}/display/").read().decode()
        assert re.search(r'data-ends-at="(\d+)"', display).group(1) == ends_at  # the same end: the clock survived
        assert "Scores in: 1 of 2 tables" in display
        page = browser.open(f"{base}/t/{token}/").read().decode()
        assert "Score in: N–S 6, E–W 2" in page
        # The phone sends the same form again after the outage: stored once.
        again = browser.open(f"{base}/t/{token}/score/", urllib.parse.urlencode(form).encode()).read().decode()
        assert "Score in: N–S 6, E–W 2" in again
    finally:
        stop_server(server)
    count = django_shell(env, "from scoring.models import Submission; print(Submission.objects.count())")
    assert count.split()[-1] == "1"
