"""Screens ride out a restart (#37): the room display keeps the last state with "Reconnecting…" while the laptop's
server is stopped, and shows the current state by itself once it is back (no reload), from the first poll answered;
a player's page and the organizer's night page say the same and catch up too.

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
from django.contrib.auth import get_user_model
get_user_model().objects.create_user("organizer", password="euchre-night-1", is_staff=True)
print(night.pk, night.entries.first().player_id)
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


# The seconds the "Reconnecting… (N s)" line counts, at least `arg`.
COUNTED = """(least) => {
    const found = /\\((\\d+) s\\)/.exec(document.querySelector("#reconnecting")?.textContent || "");
    return found !== null && Number(found[1]) >= least;
}"""


def test_the_room_display_says_reconnecting_and_catches_up_by_itself_when_the_server_is_back(tmp_path, browser):
    env = isolated_env(tmp_path, "headtable_restart")
    night, player = django_shell(env, SETUP).split()[-2:]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(env, port)
    try:
        room = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        room.goto(f"{base}/public/nights/{night}/display/")
        room.wait_for_selector(".room-headline:has-text('Game 1')")
        room.evaluate("window.sameDocument = true")  # gone with a reload
        # The other screens that follow the night by themselves: a player's phone and the organizer's night page.
        mine = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        mine.goto(f"{base}/public/nights/{night}/me/{player}/")
        organizer = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        organizer.goto(f"{base}/")
        organizer.fill("#id_username", "organizer")
        organizer.fill("#id_password", "euchre-night-1")
        organizer.click("button.primary")
        organizer.goto(f"{base}/nights/{night}/")
        for page in (mine, organizer):
            page.evaluate("window.sameDocument = true")
        others = {mine: "text=/BELL/", organizer: "text=the bell has rung"}  # what each says once the bell rang
        kill(server)

        line = room.wait_for_selector("#reconnecting", timeout=POLL)
        assert line.inner_text().startswith("Reconnecting… (")
        # it counts the time without (2 s or more: on a busy machine a second's tick can come late and skip one)
        room.wait_for_function(COUNTED, arg=2, timeout=POLL)
        assert "Game 1" in room.inner_text(".room-headline")  # the last state stays on the screen
        below = room.locator(".room-headline").bounding_box()
        assert below and below["y"] >= line.bounding_box()["y"] + line.bounding_box()["height"]  # not covered
        for page in others:
            page.wait_for_selector("#reconnecting:has-text('Reconnecting… (')", timeout=POLL)
        room.screenshot(path=str(ARTIFACTS / "restart-1-reconnecting.png"))
        axe(room, "room-reconnecting")

        django_shell(env, BELL.format(night=night))  # the game moves on while the server is down (the desk's laptop)
        with room.expect_response(lambda answer: answer.url.split("?")[0].endswith(f"/{night}/display/")) as first:
            server = start_server(env, port)
        # The first poll the server answers brings the current state (no 204 "nothing new" from before) ...
        assert first.value.status == 200 and "BELL" in first.value.text()
        room.wait_for_selector(".room-headline:has-text('BELL')", timeout=POLL)
        room.wait_for_selector("#reconnecting", state="detached", timeout=POLL)
        assert room.evaluate("window.sameDocument") is True  # ... swapped into the page, which was not reloaded
        room.screenshot(path=str(ARTIFACTS / "restart-2-back.png"))
        for page, bell in others.items():  # the same line while the server was down, gone by itself once it is back
            page.wait_for_selector("#reconnecting", state="detached", timeout=POLL)
            page.wait_for_selector(bell, timeout=POLL)
            assert page.evaluate("window.sameDocument") is True
    finally:
        if server.poll() is None:
            kill(server)
