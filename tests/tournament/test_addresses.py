"""Made-up numbers in an address are a page not found in words, never a server error."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

BIG = "9" * 25


@pytest.mark.parametrize(
    "path",
    [
        f"/public/nights/{BIG}/",
        "/public/nights/{night}/me/" + BIG + "/",
        f"/nights/{BIG}/",
        "/nights/{night}/games/" + BIG + "/tables/1/hands/",
        f"/public/seasons/{BIG}/",
        f"/public/seasons/1/players/{BIG}/",
        "/t/" + "x" * 300 + "/",
    ],
)
def test_a_made_up_number_is_not_found(organizer_client, night, path):
    response = organizer_client.get(path.format(night=night.pk))
    assert response.status_code == 404
    assert "Nothing here" in response.content.decode()


def test_a_paste_past_the_form_limit_says_so_and_saves_nothing(organizer_client, night):
    # 3 MB of names pasted into the box: past Django's 2.5 MB limit on a form, which it refuses unread (#22).
    names = "\n".join(f"Player {i:07d}" for i in range(200_000))
    response = organizer_client.post(reverse("tournament:player_paste", args=[night.pk]), {"names": names})
    body = response.content.decode()
    assert response.status_code == 400
    assert "The page sent more than the app takes at once (2.6 MB). Nothing was saved." in body
    assert night.entries.count() == 0


def test_a_form_of_too_many_fields_says_so(organizer_client, night):
    fields = {f"f{i}": "x" for i in range(1100)}
    response = organizer_client.post(reverse("tournament:player_paste", args=[night.pk]), fields)
    assert response.status_code == 400 and "(1,000 fields)" in response.content.decode()


def test_a_link_at_an_address_the_site_does_not_answer_to_says_so(client, night, settings):
    """A player's e-mailed link made with a host the hosted site does not list: the page says it was not opened and
    why, not that something was not sent."""
    settings.ALLOWED_HOSTS = ["results.example.org"]
    response = client.get(f"/public/nights/{night.pk}/", HTTP_HOST="laptop.local")
    body = response.content.decode()
    assert response.status_code == 400
    assert "That page could not be opened" in body and "not one this site answers to" in body
    assert "not sent" not in body.lower() and "Nothing was saved" not in body
    # a form posted from such an address is still told that it was not sent
    response = client.post(f"/public/nights/{night.pk}/signup/", {"name": "Ann"}, HTTP_HOST="laptop.local")
    assert response.status_code == 400 and "That was not sent" in response.content.decode()


@pytest.mark.parametrize(
    "path",
    [
        "/nights/{night}/games/1/tables/1/score/",
        "/nights/{night}/games/1/tables/1/desk/",
        "/nights/{night}/draw/",
    ],
)
def test_opening_an_address_a_form_sends_to_says_so_in_words(organizer_client, night, path):
    response = organizer_client.get(path.format(night=night.pk))
    body = response.content.decode()
    assert response.status_code == 405 and response["Allow"]
    assert "Not a page to open" in body and "Nothing was saved or changed." in body


def test_a_table_phone_opening_a_form_s_address_is_led_back_to_its_table(client, night):
    response = client.get("/t/some-token/hands/add/")
    assert response.status_code == 405
    assert 'href="/t/some-token/"' in response.content.decode()
