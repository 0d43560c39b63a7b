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


def test_the_results_page_reads_on_a_phone_with_large_text_and_on_a_wide_screen(live_server, browser):
    name, url = _results_url(live_server.url)
    phone = browser.new_page(viewport=PHONE)
    phone.goto(url)
    assert phone.locator("h1").inner_text() == name
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    axe(phone, "results-390")
    phone.screenshot(path=str(ARTIFACTS / "results-390.png"), full_page=True)
    setting = larger_text(phone)
    phone.goto(url)
    assert phone.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 32  # the text really doubled
    # The page itself never runs past the phone's edge; the card's table scrolls in its own box if it must.
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert phone.evaluate(CUT, "h1, h2, .results-place, .prize") == []
    phone.screenshot(path=str(ARTIFACTS / "results-390-200-percent.png"))
    setting.detach()
    wide = browser.new_page(viewport=WIDE)
    wide.goto(url)
    assert wide.evaluate("document.documentElement.scrollWidth") <= WIDE["width"]
    axe(wide, "results-1920")
    wide.screenshot(path=str(ARTIFACTS / "results-1920.png"))


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

    phone = browser.new_page(viewport=PHONE)
    phone.goto(url)
    text = phone.locator("body").inner_text()
    assert club.name in text and "Advent Social" in text and "Shrove Tuesday Night" in text
    assert shy_name not in text and "A player" in text  # the prize is there, the name is not
    assert any(name in text for name in winners if name != shy_name)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    axe(phone, "club-390")
    setting = larger_text(phone)
    phone.goto(url)
    assert phone.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 32
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert phone.evaluate(CUT, "h1, h2") == []
    phone.screenshot(path=str(ARTIFACTS / "club-390-200-percent.png"), full_page=True)
    setting.detach()
    wide = browser.new_page(viewport=WIDE)
    wide.goto(url)
    assert wide.evaluate("document.documentElement.scrollWidth") <= WIDE["width"]
    axe(wide, "club-1920")
    wide.screenshot(path=str(ARTIFACTS / "club-1920.png"))
