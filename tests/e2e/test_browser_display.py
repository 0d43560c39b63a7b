"""The room display as a hall reads it, in a real browser: 13, 40 and 400 players at 1920×1080 and 1280×720.

A seat line's type is at least 4.5% of the screen's height, the sound button covers nothing, nothing runs off the
screen, and the corner carries a QR code of "find your table"; axe-core checks each at 1080p (tests/e2e/axe.py).
Screenshots in test-artifacts/e2e/display-*.png.
"""

from __future__ import annotations

import random

import pytest

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SCREENS = {"1080p": {"width": 1920, "height": 1080}, "720p": {"width": 1280, "height": 720}}

# Every box drawn on the display, and whether it meets the sound button's box.
OVERLAPS = """() => {
  const button = document.querySelector('.sound-button').getBoundingClientRect();
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const parts = [...document.querySelectorAll('#room li, #room h1, #room h2, #room tr, #room .room-detail,'
    + ' #room .countdown, #room .room-foot span, #room .room-qr')];
  return parts.filter(el => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.bottom <= innerHeight && meets(box, button);
  }).map(el => el.textContent.trim().slice(0, 40));
}"""


# The display's parts (its head, the seats or standings, its foot) and the seat lines on screen, none over another.
APART = """() => {
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const boxes = [...document.querySelectorAll('#room .room-head, #room .room-stage > section:not([hidden]),'
    + ' #room .room-foot, #room .room-finder li')]
    .map(el => [el, el.getBoundingClientRect()])
    .filter(([el, box]) => box.width > 0 && box.bottom <= innerHeight && box.top >= 0);
  const clashes = [];
  boxes.forEach(([a, boxA], i) => boxes.slice(i + 1).forEach(([b, boxB]) => {
    if (!a.contains(b) && !b.contains(a) && meets(boxA, boxB)) clashes.push(a.className + ' / ' + b.className);
  }));
  return clashes;
}"""


def test_the_room_display_reads_from_the_back_of_the_hall(live_server, browser):
    from tests.conftest import NAMES
    from tournament import game, services
    from tournament.simulation import player_names

    nights = {}
    for players in (13, 40, 400):  # all made before any page opens (the pages poll while they are open)
        night = services.night_create(name=f"Display {players}", games=5)
        names = NAMES[:players] if players <= len(NAMES) else player_names(players, random.Random(2))
        services.players_register(night=night, names=names)
        game.round_start(round_=services.night_draw(night=night, seed=4))
        nights[players] = night.pk
    for label, size in SCREENS.items():
        page = browser.new_page(viewport=size)
        for players, pk in nights.items():
            page.goto(f"{live_server.url}/public/nights/{pk}/display/")
            page.wait_for_selector(".room-finder li")
            line = page.eval_on_selector(".room-finder li", "el => parseFloat(getComputedStyle(el).fontSize)")
            assert line >= 0.045 * size["height"] - 0.5, (label, players, line)
            countdown_or_headline = page.eval_on_selector(
                ".room-headline", "el => parseFloat(getComputedStyle(el).fontSize)"
            )
            assert countdown_or_headline >= 0.06 * size["height"] - 0.5
            assert page.evaluate(OVERLAPS) == [], (label, players)
            assert page.evaluate(APART) == [], (label, players)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
            assert page.locator(".room-qr").count() == 1
            assert "Find your table on your phone" in page.inner_text(".room-foot")
            page.screenshot(path=str(ARTIFACTS / f"display-{label}-{players}.png"))
            if label == "1080p":
                axe(page, f"room-display-{players}")
        page.close()


def test_a_busy_server_thins_the_displays_polls_and_a_quiet_one_does_not(live_server, browser, settings):
    """The room display polls every second; a server that says it is busy (X-Poll-After) gets no poll from it until
    that time has passed (static/js/live.js). Counted in the browser, over four seconds each."""
    from tournament import services

    night = services.night_create(name="Busy hall", games=3)
    url = f"{live_server.url}/public/nights/{night.pk}/display/"

    def polls_in_four_seconds() -> int:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        sent = []
        page.on("request", lambda request: sent.append(request.url) if "since=" in request.url else None)
        page.goto(url)
        page.wait_for_timeout(4000)
        page.close()
        return len(sent)

    settings.POLL_BUSY_REQUESTS = 1_000  # never busy
    assert polls_in_four_seconds() >= 3
    settings.POLL_BUSY_REQUESTS, settings.POLL_BACK_OFF_SECONDS = 1, 30  # every answer says: wait 30 s
    assert polls_in_four_seconds() == 1
