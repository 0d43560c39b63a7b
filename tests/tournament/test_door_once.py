"""The door's forms sent twice are stored once, and the door counts its walk-ins and check-ins (#34, items 2 and 5).

The public sign-up, the door's walk-in and the door's "I'm here" each carry a one-time key, drawn with the page, as
the score and money forms do: the same form sent again (a double tap, a retry on a slow network, two posts at the
same moment) gives back what the first stored. Before, the second answer said "… is already signed up", and the
player who tapped twice never saw their own page; an "I'm here" sent again after the organizer undid it checked
the player in again. Walk-ins and check-ins from one address are counted a minute at a time, as sign-ups are.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.at_once import twice_at_once
from tournament import services
from tournament.models import Entry, SignUp
from tournament.views.signups import CHECK_INS_PER_MINUTE, WALK_INS_PER_MINUTE


@pytest.fixture
def door_night(night):
    services.signup_settings(night=night, open=True, cap=None, checkin=True)
    for n in range(1, 5):
        services.signup_create(night=night, name=f"Player {n}")
    night.refresh_from_db()
    return night


def signup_key(client, night) -> str:
    return client.get(reverse("tournament:signup", args=[night.pk])).context["form"]["key"].value()


def walk_in_key(client, night, name: str) -> str:
    page = client.get(reverse("tournament:door", args=[night.pk]), {"q": name})
    assert "Sign up and check in" in page.content.decode()
    return page.context["key"]


def check_in_key(client, night, name: str) -> tuple[int, str]:
    """The entry and the one-time key of its "I'm here" button on the door's page."""
    page = client.get(reverse("tournament:door", args=[night.pk]), {"q": name}).content.decode()
    found = re.search(r'name="entry" value="(\d+)"><input type="hidden" name="key" value="([0-9a-f]+)"', page)
    assert found, page
    return int(found.group(1)), found.group(2)


@pytest.mark.django_db
def test_a_sign_up_sent_twice_is_stored_once_and_both_answers_lead_to_its_page(client, door_night):
    url = reverse("tournament:signup", args=[door_night.pk])
    sent = {"key": signup_key(client, door_night), "name": "Dora Twice", "contact": "555-0100"}
    first, again = client.post(url, sent), client.post(url, sent)
    made = SignUp.objects.get(night=door_night, name="Dora Twice")
    assert (first.status_code, again.status_code) == (302, 302)
    assert first.url == again.url == reverse("tournament:signup_page", args=[made.key])
    assert Entry.objects.filter(night=door_night, player__name="Dora Twice").count() == 1
    fresh = signup_key(client, door_night)
    assert fresh != sent["key"]  # the next form drawn is a new one
    refused = client.post(url, {"key": fresh, "name": "dora twice"}).content.decode()
    assert "Dora Twice is already signed up for this night." in refused


@pytest.mark.django_db
def test_a_walk_in_sent_twice_is_signed_up_and_checked_in_once(client, door_night):
    url = reverse("tournament:door", args=[door_night.pk])
    sent = {"key": walk_in_key(client, door_night, "Walk In Wanda"), "walk_in": "Walk In Wanda"}
    for _ in range(2):
        assert "Welcome, Walk In Wanda: you are checked in." in client.post(url, sent).content.decode()
    assert SignUp.objects.filter(night=door_night, name="Walk In Wanda").count() == 1
    wanda = Entry.objects.get(night=door_night, player__name="Walk In Wanda")
    services.entry_set_checked_in(entry=wanda, checked_in=False)  # the organizer: not here after all
    client.post(url, sent)  # the same form, once more
    wanda.refresh_from_db()
    assert not wanda.checked_in and SignUp.objects.filter(night=door_night, name="Walk In Wanda").count() == 1


@pytest.mark.django_db
def test_an_im_here_sent_again_after_the_organizer_undid_it_changes_nothing(client, organizer_client, door_night):
    url = reverse("tournament:door", args=[door_night.pk])
    entry_id, key = check_in_key(client, door_night, "Player 3")
    assert "Welcome, Player 3" in client.post(url, {"entry": entry_id, "key": key}).content.decode()
    undo = reverse("tournament:entry_check_in", args=[door_night.pk, entry_id])
    organizer_client.post(undo, {"checked_in": "0"}, HTTP_HX_REQUEST="true")
    assert not Entry.objects.get(pk=entry_id).checked_in
    Client().post(url, {"entry": entry_id, "key": key})  # the first tap's form, sent again
    assert not Entry.objects.get(pk=entry_id).checked_in
    entry_id, fresh = check_in_key(Client(), door_night, "Player 3")
    assert fresh != key
    Client().post(url, {"entry": entry_id, "key": fresh})  # a new tap on a page drawn since: here
    assert Entry.objects.get(pk=entry_id).checked_in


@pytest.mark.django_db
def test_each_im_here_button_is_a_form_of_its_own(client, door_night):
    """One key for the whole list would make a second name's tap look like the first sent again."""
    page = client.get(reverse("tournament:door", args=[door_night.pk]), {"q": "player"}).content.decode()
    keys = re.findall(r'name="entry" value="\d+"><input type="hidden" name="key" value="([0-9a-f]+)"', page)
    assert len(keys) == 4 and len(set(keys)) == 4


@pytest.mark.django_db
def test_a_sign_up_form_whose_key_is_not_ours_is_refused_above_the_form_and_nothing_is_stored(client, door_night):
    url = reverse("tournament:signup", args=[door_night.pk])
    answer = client.post(url, {"key": "k" * 5000, "name": "Long Key"}).content.decode()
    assert "This form is out of date: reload the page and send it again." in answer
    assert not SignUp.objects.filter(name="Long Key").exists()


# Threads on the test database: PostgreSQL's pass only (tests/at_once.py says why).
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_sign_up_and_a_walk_in_posted_twice_at_the_same_moment_are_stored_once(door_night):
    signup = reverse("tournament:signup", args=[door_night.pk])
    sent = {"key": signup_key(Client(), door_night), "name": "Both At Once"}
    answers = twice_at_once(lambda: Client().post(signup, sent))
    made = SignUp.objects.get(night=door_night, name="Both At Once")
    assert [answer.status_code for answer in answers] == [302, 302]
    assert {answer.url for answer in answers} == {reverse("tournament:signup_page", args=[made.key])}

    door = reverse("tournament:door", args=[door_night.pk])
    sent = {"key": walk_in_key(Client(), door_night, "Door Twice"), "walk_in": "Door Twice"}
    answers = twice_at_once(lambda: Client().post(door, sent).content.decode())
    assert all("Welcome, Door Twice: you are checked in." in answer for answer in answers)
    assert SignUp.objects.filter(night=door_night, name="Door Twice").count() == 1
    assert Entry.objects.filter(night=door_night, player__name="Door Twice", checked_in=True).count() == 1


@pytest.mark.django_db
def test_a_flood_of_walk_ins_from_one_address_is_turned_away_for_a_minute(client, door_night):
    url = reverse("tournament:door", args=[door_night.pk])
    for n in range(WALK_INS_PER_MINUTE):
        client.post(url, {"walk_in": f"Walker {n}"})
    answer = client.post(url, {"walk_in": "One Too Many"}).content.decode()
    assert "Many sign-ups at the door came from this network in the last minute" in answer
    assert 'value="One Too Many"' in answer  # the name kept in the form, to send again
    assert SignUp.objects.filter(name__startswith="Walker").count() == WALK_INS_PER_MINUTE
    assert not SignUp.objects.filter(name="One Too Many").exists()
    other = client.post(url, {"walk_in": "From Elsewhere"}, REMOTE_ADDR="10.0.0.9").content.decode()
    assert "Welcome, From Elsewhere" in other  # another phone's address has its own minute


@pytest.mark.django_db
def test_a_flood_of_check_ins_from_one_address_is_turned_away_for_a_minute(client, door_night):
    url = reverse("tournament:door", args=[door_night.pk])
    first = Entry.objects.get(night=door_night, player__name="Player 1")
    for _ in range(CHECK_INS_PER_MINUTE):
        client.post(url, {"entry": first.pk})
    last = Entry.objects.get(night=door_night, player__name="Player 2")
    answer = client.post(url, {"entry": last.pk}).content.decode()
    assert "Many check-ins came from this network in the last minute: wait a minute, then tap again." in answer
    assert not Entry.objects.get(pk=last.pk).checked_in
