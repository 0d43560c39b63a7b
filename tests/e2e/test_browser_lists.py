"""What the organizer sees in the players' lists and the import (#33): each player with one number, their own (no
list ordinal beside it), and the CSV file button right under the words that name it. Screenshots in
test-artifacts/e2e/lists-*.png."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MARKER = "el => getComputedStyle(el).listStyleType"


def _log_in(page, base: str, night) -> None:
    page.goto(f"{base}/accounts/login/?next=/nights/{night.pk}/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", "euchre-night-1")
    page.click("button.primary")


@pytest.mark.parametrize("size", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_each_player_shows_one_number_and_the_file_button_sits_with_its_label(
    live_server, browser, django_user_model, size
):
    from tests.conftest import register
    from tournament import services

    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    night = services.night_create(name="Lists night")
    services.money_settings(night=night, currency="usd", pre=1000, door=1500, member=None)
    entries = register(night, 8)
    # A name of 80 letters with no space to break at: the lists wrap it, the page never wider than the screen.
    services.players_register(
        night=night, names=[("Wolfeschlegelsteinhausenbergerdorff" + "voralternwarengewissenhaft" * 2)[:80]]
    )
    page = browser.new_page(viewport=size)
    _log_in(page, live_server.url, night)
    wide = "() => document.documentElement.scrollWidth - window.innerWidth"
    assert page.evaluate(wide) <= 0

    item = page.locator("#entries li", has_text=entries[1].player.name)
    assert item.evaluate(MARKER) == "none"
    if size["width"] == 1280:
        # The public-lists button says where the player stands, and asks before leaving them off (a trial's
        # volunteer read "Public" as "make public" and hid a player with one tap).
        toggle = item.locator("form[action$='/unlisted/'] button")
        assert toggle.inner_text() == "✓ On public lists"
        page.once("dialog", lambda dialog: dialog.dismiss())
        toggle.click()
        page.wait_for_timeout(300)
        entries[1].player.refresh_from_db()
        assert not entries[1].player.unlisted
        page.once("dialog", lambda dialog: dialog.accept())
        toggle.click()
        page.wait_for_selector("#entries li form[action$='/unlisted/'] button:has-text('Not on public lists')")
        entries[1].player.refresh_from_db()
        assert entries[1].player.unlisted
        item = page.locator("#entries li", has_text=entries[1].player.name)
    assert item.locator(".name").inner_text().strip() == f"{entries[1].player.name} No. {entries[1].card}"

    label = page.locator("label[for=import-file]").bounding_box()
    button = page.locator("#import-file").bounding_box()
    assert label and button
    assert 0 <= button["y"] - (label["y"] + label["height"]) < 16  # just below its words
    assert abs(button["x"] - label["x"]) < 2  # in the same column, not a grid cell away
    page.screenshot(path=str(ARTIFACTS / f"lists-night-{size['width']}.png"), full_page=True)

    page.goto(f"{live_server.url}/nights/{night.pk}/money/")
    row = page.locator(f"#entry-{entries[1].pk}")
    assert row.evaluate(MARKER) == "none"
    assert row.locator(".who").inner_text().strip() == f"{entries[1].player.name} No. {entries[1].card}"
    page.screenshot(path=str(ARTIFACTS / f"lists-money-{size['width']}.png"), full_page=True)
    assert page.evaluate(wide) <= 0
