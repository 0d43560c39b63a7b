"""Who comes, in a real browser (Debian's Chromium): a phone signs up past the cap and waits, is taken in when
another withdraws, then checks in at the door; the organizer's page, open all along, shows the check-in within a
poll, without a reload. Every screen passes axe-core (tests/e2e/axe.py). Screenshots at phone size in
test-artifacts/e2e/door-*.png."""

from __future__ import annotations

import pytest

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
POLL = 12_000  # ms: a few polls (every 3 s), on a slow machine
PHONE = {"width": 390, "height": 844}


def test_a_phone_waits_is_taken_in_and_checks_in_while_the_organizers_page_follows(
    live_server, browser, django_user_model
):
    from tournament import services

    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    night = services.night_create(name="Door night")
    services.signup_settings(night=night, open=True, cap=4, checkin=True)
    for name in ("Ann Kowalski", "Bob Martin", "Carol Nguyen", "Dave Gagnon"):
        services.signup_create(night=night, name=name)
    base = live_server.url

    org = browser.new_page(viewport={"width": 1920, "height": 1080})
    org.goto(f"{base}/")
    org.fill("#id_username", "organizer")
    org.fill("#id_password", "euchre-night-1")
    org.click("button.primary")
    org.goto(f"{base}/nights/{night.pk}/")
    org.wait_for_selector("#players-count:has-text('0 checked in of 4')")
    axe(org, "night-sign-ups")

    phone = browser.new_page(viewport=PHONE)
    phone.goto(f"{base}/public/nights/{night.pk}/signup/")
    phone.wait_for_selector("text=The night is full (4 players)")
    axe(phone, "sign-up")
    phone.fill("input[name=name]", "Edna Becker")
    phone.click("button:has-text('Join the waitlist')")
    phone.wait_for_selector("text=Edna Becker: you are 1st on the waitlist.")
    phone.screenshot(path=str(ARTIFACTS / "door-waitlist.png"), full_page=True)
    axe(phone, "sign-up-waiting")
    mine = phone.url

    other = browser.new_page(viewport=PHONE)  # Bob cannot come: he withdraws from his own page
    from tournament.models import SignUp

    other.goto(f"{base}/public/signups/{SignUp.objects.get(name='Bob Martin').key}/")
    axe(other, "sign-up-page")
    other.check("input[name=sure]")
    other.click("button:has-text('Withdraw my sign-up')")
    other.wait_for_selector("text=Bob Martin: your sign-up is withdrawn.")
    phone.goto(mine)
    phone.wait_for_selector("text=You are in, Edna Becker.")
    phone.screenshot(path=str(ARTIFACTS / "door-taken-in.png"), full_page=True)
    org.wait_for_selector("#entries :text('Edna Becker')", timeout=POLL)  # the organizer's list, by its poll
    org.wait_for_selector("#signup-lists:not(:has-text('Bob Martin'))", timeout=POLL)

    phone.goto(f"{base}/public/nights/{night.pk}/door/")
    axe(phone, "door")
    phone.fill("#q", "edna")
    phone.click("button:has-text('Find me')")
    phone.wait_for_selector('button:has-text("Edna Becker: I\'m here")')
    axe(phone, "door-found")
    phone.click('button:has-text("Edna Becker: I\'m here")')
    phone.wait_for_selector("text=Welcome, Edna Becker: you are checked in.")
    phone.screenshot(path=str(ARTIFACTS / "door-checked-in.png"), full_page=True)
    axe(phone, "door-checked-in")
    org.wait_for_selector("#entries button:has-text('✓ Here (by phone)')", timeout=POLL)
    org.wait_for_selector("#players-count:has-text('1 checked in of 4')", timeout=POLL)
    org.screenshot(path=str(ARTIFACTS / "door-organizer.png"), full_page=True)
