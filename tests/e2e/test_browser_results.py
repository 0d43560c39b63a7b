"""A player's results page in a real browser: read on a phone at 390×844 with the text at twice its size, and on a
wide screen, with axe-core's check on each. Screenshots in test-artifacts/e2e/results-*.png."""

from __future__ import annotations

import pytest

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_browser_access import CUT, PHONE, WIDE, larger_text

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _results_url(base: str) -> tuple[str, str]:
    """A finished night of twelve, and the link of a player who played every game: (their name, their link)."""
    from django.urls import reverse

    from tournament.models import Entry
    from tournament.rehearsal import simulate

    night = simulate(players=12, rounds=5, seed=3, name="St Mary's Euchre Night")
    entry = Entry.objects.select_related("player").filter(night=night, player__house=False).order_by("card").first()
    return entry.name, base + reverse("tournament:results", args=[entry.player.results_token])


def _reads_on_a_phone_and_a_wide_screen(browser, url: str, name: str, cut: str, check) -> None:
    """The page at `url` on a 390×844 phone (`check(page)` first), then with the browser's text at twice its size,
    then at 1920×1080: never wider than the screen, nothing in `cut` cut off, axe-core on each; screenshots named
    `name`-390, -390-200-percent and -1920."""
    phone = browser.new_page(viewport=PHONE)
    phone.goto(url)
    check(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    axe(phone, f"{name}-390")
    phone.screenshot(path=str(ARTIFACTS / f"{name}-390.png"), full_page=True)
    setting = larger_text(phone)
    phone.goto(url)
    assert phone.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 32  # the text really doubled
    # The page itself never runs past the phone's edge; a table scrolls in its own box if it must.
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert phone.evaluate(CUT, cut) == []
    phone.screenshot(path=str(ARTIFACTS / f"{name}-390-200-percent.png"), full_page=True)
    setting.detach()
    wide = browser.new_page(viewport=WIDE)
    wide.goto(url)
    assert wide.evaluate("document.documentElement.scrollWidth") <= WIDE["width"]
    axe(wide, f"{name}-1920")
    wide.screenshot(path=str(ARTIFACTS / f"{name}-1920.png"))


def test_the_results_page_reads_on_a_phone_with_large_text_and_on_a_wide_screen(live_server, browser):
    name, url = _results_url(live_server.url)

    def check(phone):
        assert phone.locator("h1").inner_text() == name

    cut = "h1, h2, .results-place, .prize, .results-card td, .results-card th, .results-nights td"  # every figure
    _reads_on_a_phone_and_a_wide_screen(browser, url, "results", cut, check)


def test_the_club_s_public_results_read_on_a_phone_with_large_text_and_on_a_wide_screen(live_server, browser):
    """The club's page at its short address (#38): its opted-in nights with their winners, read on a phone at twice
    the text size and on a wide screen, axe-core on each; a player off public lists is not named."""
    from tournament.models import Night, Player
    from tournament.rehearsal import simulate
    from tournament.selectors import night_standings
    from tournament.services import clubs

    club = clubs.club_add(name="Saint Brigid's Parish Euchre Club", slug="st-brigids")
    nights = [
        simulate(players=12, rounds=3, seed=seed, name=name, club=club)
        for seed, name in ((4, "Advent Social"), (5, "Shrove Tuesday Night"))
    ]
    Night.objects.filter(pk__in=[night.pk for night in nights]).update(results_public=True)
    winners = {row.name: row for night in nights for row in night_standings(night).high}
    shy_name, shy = next(iter(winners.items()))
    Player.objects.filter(pk=shy.player_id).update(unlisted=True)
    url = f"{live_server.url}/public/c/{club.slug}/"

    def check(phone):
        text = phone.locator("body").inner_text()
        assert club.name in text and "Advent Social" in text and "Shrove Tuesday Night" in text
        assert shy_name not in text and "A player" in text  # the prize is there, the name is not
        assert any(name in text for name in winners if name != shy_name)

    _reads_on_a_phone_and_a_wide_screen(browser, url, "club", "h1, h2", check)
