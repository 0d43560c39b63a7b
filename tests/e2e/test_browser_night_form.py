"""A night set up in a minute (issue 33), in a real browser (Debian's Chromium): the new-night form fits a
1920×1080 screen without scrolling, a night is made by typing only its name, a refused prize is said beside the
field, and "More settings" opens by itself on its own refusal. Screenshots in test-artifacts/e2e/night-form-*.png."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
SCREEN = {"width": 1920, "height": 1080}


def logged_in(browser, live_server, viewport):
    page = browser.new_page(viewport=viewport)
    page.goto(f"{live_server.url}/accounts/login/?next=/nights/new/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", "euchre-night-1")
    page.click("button.primary")
    page.wait_for_selector("h1:has-text('New euchre night')")
    return page


def painted_inside(page, selector: str) -> bool:
    """Whether the element is painted inside the window, without scrolling."""
    return page.eval_on_selector(
        selector,
        "el => { const r = el.getBoundingClientRect();"
        " return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }",
    )


def test_the_new_night_form_fits_the_screen_and_a_name_is_all_it_needs(live_server, browser, django_user_model):
    from tournament.models import Night

    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    page = logged_in(browser, live_server, SCREEN)
    page.screenshot(path=str(ARTIFACTS / "night-form-1920.png"))
    assert page.evaluate("document.documentElement.scrollHeight") <= SCREEN["height"]  # nothing to scroll to
    for selector in ("#id_name", "#id_date", "#id_movement", "#id_games", "#id_price", "#id_currency", "#id_prizes"):
        assert painted_inside(page, selector), selector
    assert painted_inside(page, "button:has-text('Create the night')")
    assert page.eval_on_selector("details.more-settings", "el => el.open") is False
    assert page.input_value("#id_prizes") == "high, second, third, low, loners"

    page.click("summary:has-text('More settings')")  # everything else, under its headings
    page.wait_for_selector("legend:has-text('How a game ends')")
    page.screenshot(path=str(ARTIFACTS / "night-form-1920-more.png"), full_page=True)
    page.click("summary:has-text('More settings')")

    page.fill("#id_name", "Thursday euchre")
    page.click("button:has-text('Create the night')")
    page.wait_for_selector("h1:has-text('Thursday euchre')")
    night = Night.objects.get()
    assert (night.name, night.movement, night.games, night.hands_per_game) == ("Thursday euchre", "progressive", 10, 8)
    assert (night.prizes, night.payouts, night.price_pre, night.currency) == (
        "high,second,third,low,loners",
        "",
        0,
        "USD",
    )


def test_on_a_phone_a_refused_prize_is_said_beside_it_and_more_settings_opens_on_its_own_refusal(
    live_server, browser, django_user_model
):
    from tournament.models import Night

    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    page = logged_in(browser, live_server, PHONE)
    page.screenshot(path=str(ARTIFACTS / "night-form-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing runs off the side

    page.fill("#id_name", "Fundraiser")
    page.fill("#id_price", "20")
    page.fill("#id_prizes", "high 50%, best 30%")
    page.click("button:has-text('Create the night')")
    error = page.wait_for_selector(".field:has(#id_prizes) .error")
    assert error.text_content().startswith("Unknown prize 'best'")
    page.screenshot(path=str(ARTIFACTS / "night-form-390-prize-refused.png"))
    assert page.eval_on_selector("details.more-settings", "el => el.open") is False  # its settings are all fine
    assert page.input_value("#id_prizes") == "high 50%, best 30%"  # kept to mend

    page.fill("#id_prizes", "high 50%, low 30%, loners 20%")
    page.click("summary:has-text('More settings')")
    page.fill("#id_points_target", "100")
    page.click("summary:has-text('More settings')")  # closed again before it is sent
    page.click("button:has-text('Create the night')")
    error = page.wait_for_selector(".field:has(#id_points_target) .error")
    assert page.eval_on_selector("details.more-settings", "el => el.open") is True
    assert error.is_visible() and error.text_content() == "Type a number of points from 1 to 99, or 0 for no target."
    error.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "night-form-390-more-refused.png"))
    assert not Night.objects.exists()

    page.fill("#id_points_target", "")
    page.click("button:has-text('Create the night')")
    page.wait_for_selector("h1:has-text('Fundraiser')")
    night = Night.objects.get()
    page.goto(f"{live_server.url}/nights/{night.pk}/money/")
    prizes = page.locator("#prize-money")
    assert prizes.locator(".prizes-typed b").text_content() == "high 50%, low 30%, loners 20%"
    assert prizes.locator("dl.offered").inner_text().split("\n") == [
        "High score",
        "50% of the pot: $0.00",
        "Low score",
        "30% of the pot: $0.00",
        "Most loners",
        "20% of the pot: $0.00",
    ]
    assert "$20.00" in page.locator("#prices summary").text_content()
    page.screenshot(path=str(ARTIFACTS / "night-form-390-money.png"), full_page=True)
