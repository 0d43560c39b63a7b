"""The room display, a player's own page, polls that say "nothing new" cheaply, and the organizer's bell buttons."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import register
from tournament import game, services
from tournament.game import table_result_submit
from tournament.models import Night

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def timed(db):
    night = services.night_create(name="Timed", games=3, minutes_per_game=20, auto_advance=False)
    register(night, 9)
    game.round_start(round_=services.night_draw(night=night, seed=1))
    night.refresh_from_db()
    return night


def stamp(night: Night) -> str:
    night.refresh_from_db()
    return f"{night.moved_at.timestamp():.6f}"


@pytest.mark.parametrize("name", ["room_display", "public_night"])
def test_a_poll_with_an_unchanged_stamp_is_an_empty_204_from_one_query(client, timed, name):
    url = reverse(f"tournament:{name}", args=[timed.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, {"since": stamp(timed)}, **HTMX)
    assert response.status_code == 204 and response.content == b""
    assert len(queries) <= 3
    table_result_submit(round_=timed.rounds.get(), table=1, ns_points=6, ew_points=2)
    changed = client.get(url, {"since": "0"}, **HTMX)
    assert changed.status_code == 200
    body = changed.content.decode()
    assert ('id="room"' in body or 'id="public-body"' in body) and "<html" not in body  # the partial only


def test_the_room_display_shows_the_game_the_countdown_and_where_to_sit(client, timed):
    body = client.get(reverse("tournament:room_display", args=[timed.pk])).content.decode()
    assert "Game 1 of 3" in body and "data-ends-at=" in body and "data-server-now=" in body
    assert "Scores in: 0 of 2 tables" in body
    assert "sits out" in body  # nine players: one bye
    assert "Click once to turn the bell sound on" in body and "sounds/bell.wav" in body
    services_round = timed.rounds.get()
    from tournament import game

    game.round_ring_bell(round_=services_round)
    body = client.get(reverse("tournament:room_display", args=[timed.pk])).content.decode()
    assert "BELL — finish the hand you are playing" in body and 'data-room-state="bell"' in body


def test_between_games_the_display_shows_the_next_seating_and_the_standings(client, timed):
    round1 = timed.rounds.get()
    for table in (1, 2):
        table_result_submit(round_=round1, table=table, ns_points=6, ew_points=2)
    game.round_close(round_=round1)
    body = client.get(reverse("tournament:room_display", args=[timed.pk])).content.decode()
    assert "Where to sit for game 2" in body and "Standings after game 1" in body


def test_a_player_finds_their_table_by_name_or_number(client, timed):
    find = reverse("tournament:player_find", args=[timed.pk])
    entry = timed.entries.select_related("player").first()
    response = client.get(find, {"q": entry.player.name.split()[0].upper()})
    assert response.status_code in (200, 302)
    by_number = client.get(find, {"q": str(entry.card)})  # the number on the tally card
    assert by_number.status_code == 302
    page = client.get(by_number["Location"]).content.decode()
    assert entry.player.name in page and ("Table" in page or "sit out" in page)
    nobody = client.get(find, {"q": "Zebedee"}).content.decode()
    assert "Nobody tonight matches" in nobody


def test_the_organizers_bell_buttons(organizer_client, timed):
    args = [timed.pk, 1]
    organizer_client.post(reverse("tournament:round_pause", args=args), **HTMX)
    round_ = timed.rounds.get()
    assert round_.paused_left is not None
    organizer_client.post(reverse("tournament:round_extend", args=args), {"minutes": "5"}, **HTMX)
    organizer_client.post(reverse("tournament:round_resume", args=args), **HTMX)
    round_.refresh_from_db()
    assert round_.ends_at is not None and round_.paused_left is None
    response = organizer_client.post(reverse("tournament:round_extend", args=args), {"minutes": "x"}, **HTMX)
    assert "Add between 1 and 120 minutes." in response.content.decode()
    organizer_client.post(reverse("tournament:round_bell", args=args), **HTMX)
    again = organizer_client.post(reverse("tournament:round_bell", args=args), **HTMX)
    assert "The bell has already rung for game 1." in again.content.decode()
    assert list(round_.events.values_list("action", flat=True)) == [
        "seated",
        "start",
        "pause",
        "extend",
        "resume",
        "bell",
    ]


def test_bell_buttons_need_an_organizer(client, timed):
    response = client.post(reverse("tournament:round_bell", args=[timed.pk, 1]))
    assert response.status_code == 302
    assert timed.rounds.get().status == "playing"
