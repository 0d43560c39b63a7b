"""A form sent by htmx that the server refuses whole (an error page, not the form again) still says why on the page:
without it, htmx swaps nothing in and the organizer sees a button that did nothing."""

from __future__ import annotations

import pytest

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_paste_past_the_form_limit_says_why_above_the_box(live_server, browser, django_user_model):
    from tournament import services

    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    night = services.night_create(name="Paste night")
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/?next=/nights/{night.pk}/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", "euchre-night-1")
    page.click("button.primary")
    # 200,000 names (about 2.9 MB): past the 2.5 MB Django reads of one form.
    page.evaluate(
        "() => { document.querySelector('#id_names').value ="
        " Array.from({length: 200000}, (_, i) => 'Player ' + i).join('\\n'); }"
    )
    page.click("text=Add everyone")
    alert = page.wait_for_selector("form .answer-error")
    page.screenshot(path=str(ARTIFACTS / "refused-paste.png"))
    assert alert.text_content() == "The page sent more than the app takes at once (2.6 MB). Nothing was saved."
    assert night.entries.count() == 0
    axe(page, "night-refused-on-a-phone")


def test_a_button_sent_with_no_connection_says_so_not_too_many_requests(live_server, browser, django_user_model):
    from tournament import services

    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    night = services.night_create(name="Laptop down")
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/?next=/nights/{night.pk}/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", "euchre-night-1")
    page.click("button.primary")
    page.fill("#id_names", "Ann Lee")
    page.route("**/*", lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    page.click("text=Add everyone")
    alert = page.wait_for_selector("form .answer-error")
    assert alert.text_content() == "Not sent: no connection. Try again."
    assert night.entries.count() == 0


def test_the_refusal_pages_read_on_a_phone(live_server, browser, settings):
    """The pages a phone meets when something is not as it should be (#38 and the phones' trial), on a 390×844
    phone with axe-core: a table locked after five wrong codes, a form's address opened, a link at a host the site
    does not answer to."""
    from scoring.models import TableLink
    from tests.conftest import register
    from tournament import game, services
    from tournament.models import CodeMiss

    night = services.night_create(name="Refusals night")
    register(night, 8)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=2))
    services.table_links_ensure(night=night)
    link = TableLink.objects.get(night=night, table=1, active=True)
    CodeMiss.objects.bulk_create([CodeMiss(round=round_, table=1) for _ in range(CodeMiss.LIMIT)])
    page = browser.new_page(viewport={"width": 390, "height": 844})

    page.goto(f"{live_server.url}/t/{link.token}/")
    assert page.get_by_role("alert").first.inner_text() == CodeMiss.LOCKED
    page.screenshot(path=str(ARTIFACTS / "refused-locked-table.png"), full_page=True)
    axe(page, "refused-locked-table")

    page.goto(f"{live_server.url}/t/{link.token}/hands/add/")
    assert page.locator("h1").inner_text() == "Not a page to open"
    page.click("text=Back to your table's page")
    assert page.url.endswith(f"/t/{link.token}/")
    page.goto(f"{live_server.url}/t/{link.token}/hands/add/")
    page.screenshot(path=str(ARTIFACTS / "refused-405.png"))
    axe(page, "refused-405")

    settings.ALLOWED_HOSTS = ["results.example.org"]
    page.goto(f"{live_server.url}/public/nights/{night.pk}/")
    assert page.locator("h1").inner_text() == "That page could not be opened"
    page.screenshot(path=str(ARTIFACTS / "refused-host.png"))
    axe(page, "refused-host")


def test_a_phone_left_open_on_a_table_link_replaced_by_a_new_one_says_so_and_keeps_the_score(live_server, browser):
    """The organizer presses "New link" for a table whose phone is open (a card lost, a link shared too widely).
    The phone's page looked live for ever, and its Save said "the server had a problem". It now says on top that the
    link is no longer in use, in the server's words, within a poll, and its Save says the same and keeps the score."""
    from tests.conftest import game_under_way
    from tournament import services

    night = services.night_create(name="New link night", games=2, auto_advance=False, confirm_results=False)
    round_ = game_under_way(night, 8)
    from scoring.models import TableLink

    old = TableLink.objects.get(night=night, table=2, active=True)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_server.url}/t/{old.token}/")
    page.fill("input[name=ns_points]", "6")
    page.fill("input[name=ew_points]", "2")
    services.table_link_regenerate(night=night, table=2)
    line = page.wait_for_selector("#page-gone", timeout=12_000)
    assert "This table link is no longer in use: scan the code on the table's card again." in line.text_content()
    page.screenshot(path=str(ARTIFACTS / "refused-link-replaced.png"))
    page.click("form[data-keep] button.primary")
    page.wait_for_function(
        "() => document.querySelector('form[data-keep] .keep-status').textContent.includes('no longer in use')"
    )
    status = page.locator("form[data-keep] .keep-status").text_content()
    assert (
        status.startswith("Not saved: This table link is no longer in use") and "What you typed is kept here." in status
    )
    assert page.input_value("input[name=ns_points]") == "6"
    assert not round_.results.exists()
    axe(page, "table-link-replaced")
