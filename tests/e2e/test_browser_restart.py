"""Screens ride out a restart (#37): the room display keeps the last state with "Reconnecting…" while the laptop's
server is stopped, and shows the current state by itself once it is back (no reload), from the first poll answered.

The server is the run command's (granian, several processes, SQLite on disk), killed without warning and started
again on the same port, as when the laptop is unplugged or restarted mid-game.
"""

from __future__ import annotations

import os
import signal

import pytest

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS
from tests.processes import django_shell, free_port, isolated_env, start_server
from tests.tournament.test_faults import gone

pytestmark = [pytest.mark.e2e, pytest.mark.venue]
POLL = 12_000  # ms: a few polls, on a slow machine

SETUP = """
from tournament import game, services
night = services.night_create(name="Restart night", games=2, minutes_per_game=30)
services.players_register(night=night, names=[f"Player {n}" for n in range(1, 9)])
game.round_start(round_=services.night_draw(night=night, seed=1))
print(night.pk)
"""

BELL = """
from tournament import game
from tournament.models import Round
game.round_ring_bell(round_=Round.objects.get(night_id={night}, number=1))
"""


def kill(server) -> None:
    os.killpg(server.pid, signal.SIGKILL)  # the laptop's server dies without warning, every process of it
    server.wait()
    gone(server.pid)


def test_the_room_display_says_reconnecting_and_catches_up_by_itself_when_the_server_is_back(tmp_path, browser):
    env = isolated_env(tmp_path, "headtable_restart")
    night = django_shell(env, SETUP).split()[-1]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(env, port)
    try:
        room = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        room.goto(f"{base}/public/nights/{night}/display/")
        room.wait_for_selector(".room-headline:has-text('Game 1')")
        room.evaluate("window.sameDocument = true")  # gone with a reload
        kill(server)

        line = room.wait_for_selector("#reconnecting", timeout=POLL)
        assert line.inner_text().startswith("Reconnecting… (")
        room.wait_for_selector("#reconnecting:has-text('(2 s)')", timeout=POLL)  # it counts the time without
        assert "Game 1" in room.inner_text(".room-headline")  # the last state stays on the screen
        room.screenshot(path=str(ARTIFACTS / "restart-1-reconnecting.png"))
        axe(room, "room-reconnecting")

        django_shell(env, BELL.format(night=night))  # the game moves on while the server is down (the desk's laptop)
        with room.expect_response(lambda answer: f"/public/nights/{night}/display/" in answer.url) as first:
            server = start_server(env, port)
        # The first poll the server answers brings the current state (no 204 "nothing new" from before) ...
        assert first.value.status == 200 and "BELL" in first.value.text()
        room.wait_for_selector(".room-headline:has-text('BELL')", timeout=POLL)
        room.wait_for_selector("#reconnecting", state="detached", timeout=POLL)
        assert room.evaluate("window.sameDocument") is True  # ... swapped into the page, which was not reloaded
        room.screenshot(path=str(ARTIFACTS / "restart-2-back.png"))
    finally:
        if server.poll() is None:
            kill(server)
