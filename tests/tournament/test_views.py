"""The pages: who may see what, status codes, and which partial an htmx request gets."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import TableResult
from tests.conftest import play_round, register
from tournament import game, services
from tournament.models import Night

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def template_names(response):
    """The template (or template#partial) a view answered with."""
    return [response.template_name]


@pytest.mark.parametrize(
    "name,args",
    [
        ("tournament:night_list", []),
        ("tournament:night_create", []),
        ("tournament:night_detail", ["night"]),
        ("tournament:tally_cards_pdf", ["night"]),
    ],
)
def test_organizer_pages_need_a_login(client, night, name, args):
    url = reverse(name, args=[night.pk for _ in args])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_logged_in_non_organizer_is_refused(client, night, django_user_model):
    client.force_login(django_user_model.objects.create_user("player", password="pw"))
    assert client.get(reverse("tournament:night_detail", args=[night.pk])).status_code == 403
    assert client.post(reverse("tournament:night_draw", args=[night.pk])).status_code == 403


def test_public_page_and_standings_pdf_need_no_login(client, night):
    register(night, 4)
    services.night_draw(night=night, seed=1)
    response = client.get(reverse("tournament:public_night", args=[night.pk]))
    assert response.status_code == 200
    assert "Find your name" in response.content.decode()
    assert "Ann Kowalski" in response.content.decode()
    assert b"<form" not in response.content  # read-only: nothing to submit
    assert client.get(reverse("tournament:standings_pdf", args=[night.pk])).status_code == 200


def test_public_page_polls_with_a_partial(client, night):
    response = client.get(reverse("tournament:public_night", args=[night.pk]), **HTMX)
    assert template_names(response) == ["tournament/public_night.html#public_body"]
    assert response["Vary"].count("HX-Request") == 1


def test_create_night_with_defaults(organizer_client):
    response = organizer_client.post(
        reverse("tournament:night_create"),
        {
            "name": "Friday euchre",
            "date": "2026-12-04",
            "movement": "progressive",
            "fill": "byes",
            "bye_credit": "none",
            "bye_points": 0,
            "rank_by": "total",
            "games": 10,
            "hands_per_game": 8,
            "warning_minutes": 2,
            "auto_advance": "on",
            "break_minutes": 15,
            "confirm_results": "on",
            "prizes": "high,second,third,low,loners",
            "scoring": "standard",
            "tie_rule": "last_hand",
            "paper": "letter",
            "substitutes": "card",
        },
    )
    night = Night.objects.get()
    assert response.status_code == 302
    assert response["Location"] == night.get_absolute_url()
    assert (night.games, night.hands_per_game, night.created_by.username) == (10, 8, "organizer")


def test_create_night_refusal_is_shown_beside_the_field(organizer_client):
    response = organizer_client.post(reverse("tournament:night_create"), {"name": "", "games": "ten"})
    assert response.status_code == 200
    form = response.context["form"]
    assert "name" in form.errors and "games" in form.errors
    assert Night.objects.count() == 0


def test_register_players_by_htmx_returns_the_players_partial(organizer_client, night):
    url = reverse("tournament:player_paste", args=[night.pk])
    response = organizer_client.post(url, {"names": "Ann Kowalski\nBob Martin\n\n"}, **HTMX)
    assert response.status_code == 200
    assert template_names(response)[0] == "tournament/night_detail.html#players"
    assert night.entries.count() == 2
    again = organizer_client.post(
        reverse("tournament:player_add", args=[night.pk]), {"name": "ann kowalski", "checked_in": "on"}, **HTMX
    )
    assert again.context["add_form"].errors["name"] == ["Already registered for this night: Ann Kowalski."]
    assert "Already registered for this night: Ann Kowalski." in again.content.decode()
    assert night.entries.count() == 2


def test_check_in_toggle(organizer_client, night):
    (entry,) = services.players_register(night=night, names=["Ann Kowalski"])
    url = reverse("tournament:entry_check_in", args=[night.pk, entry.pk])
    organizer_client.post(url, {"checked_in": "0"}, **HTMX)
    entry.refresh_from_db()
    assert entry.checked_in is False


def test_draw_with_a_bad_head_count_says_why_beside_the_button(organizer_client, night):
    register(night, 3)
    response = organizer_client.post(reverse("tournament:night_draw", args=[night.pk]), **HTMX)
    assert template_names(response)[0] == "tournament/night_detail.html#players"
    assert "A game needs at least 4 players; 3 are here." in response.content.decode()
    night.refresh_from_db()
    assert night.status == "setup"


def test_draw_then_start_redirect_the_htmx_page(organizer_client, night):
    register(night, 8)
    response = organizer_client.post(reverse("tournament:night_draw", args=[night.pk]), **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == night.get_absolute_url()
    response = organizer_client.post(reverse("tournament:round_start", args=[night.pk, 1]), **HTMX)
    assert response["HX-Redirect"] == night.get_absolute_url()
    page = organizer_client.get(night.get_absolute_url()).content.decode()
    assert "Game 1 of 3 is being played" in page
    assert "Head table" in page and "Tail table" in page


def test_score_entry_returns_the_table_card_and_an_out_of_band_bar(organizer_client, night):
    register(night, 8)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    url = reverse("scoring:table_score", args=[night.pk, 1, 2])
    response = organizer_client.post(url, {"t2-ns_points": "3", "t2-ew_points": "5"}, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="table-2"' in body and 'id="round-bar"' in body and 'hx-swap-oob="true"' in body
    assert "1 of 2 tables in" in body
    assert TableResult.objects.get(round=round_, table=2).winner == "EW"


@pytest.mark.parametrize(
    "ns,message",
    [("-2", "Points cannot be negative."), ("six", "Enter a whole number of points."), ("", "Enter the points")],
)
def test_bad_score_gets_a_message_beside_the_field_and_saves_nothing(organizer_client, night, ns, message):
    register(night, 4)
    game.round_start(round_=services.night_draw(night=night, seed=1))
    url = reverse("scoring:table_score", args=[night.pk, 1, 1])
    response = organizer_client.post(url, {"t1-ns_points": ns, "t1-ew_points": "4"}, **HTMX)
    body = response.content.decode()
    assert message in body
    assert body.index(message) > body.index('name="t1-ns_points"')  # printed under the N-S field
    assert not TableResult.objects.exists()


def test_closing_with_tables_missing_names_them(organizer_client, night):
    register(night, 12)
    round_ = play_round(services.night_draw(night=night, seed=1), {2: (6, 2)})
    response = organizer_client.post(reverse("tournament:round_close", args=[night.pk, round_.number]), **HTMX)
    assert template_names(response)[0] == "tournament/night_detail.html#round"
    assert "Tables 1, 3 still to enter a score for game 1." in response.content.decode()


def test_a_whole_night_through_the_pages(organizer_client, night):
    register(night, 8)
    organizer_client.post(reverse("tournament:night_draw", args=[night.pk]))
    for number in range(1, night.games + 1):
        organizer_client.post(reverse("tournament:round_start", args=[night.pk, number]))
        for table in (1, 2):
            organizer_client.post(
                reverse("scoring:table_score", args=[night.pk, number, table]),
                {f"t{table}-ns_points": "6", f"t{table}-ew_points": "2"},
            )
        organizer_client.post(reverse("tournament:round_close", args=[night.pk, number]))
    night.refresh_from_db()
    assert night.status == "finished"
    page = organizer_client.get(night.get_absolute_url()).content.decode()
    assert "The night is over" in page and "High score:" in page and "Low score:" in page
    pdf = organizer_client.get(reverse("tournament:standings_pdf", args=[night.pk]))
    assert pdf["Content-Type"] == "application/pdf"


def test_a_refused_page_is_one_line_in_the_log_not_a_traceback(client, night, django_user_model):
    """A keeper opening an organizer's page is the app working as meant: the server's log says so in one line."""
    import io
    import logging

    from django.conf import settings
    from django.utils.module_loading import import_string

    wired = settings.LOGGING["handlers"]["console"]["filters"]
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    for name in wired:
        handler.addFilter(import_string(settings.LOGGING["filters"][name]["()"])())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        client.force_login(django_user_model.objects.create_user("player", password="pw"))
        assert client.get(reverse("tournament:night_detail", args=[night.pk])).status_code == 403
        assert client.get("/nights/999999/nope/").status_code == 404
    finally:
        logger.removeHandler(handler)
    logged = stream.getvalue()
    assert logged.count("Forbidden") == 1 and f"/nights/{night.pk}/" in logged
    assert "Traceback" not in logged and logged.count("\n") <= 2
