"""Every working screen is live: the keeper's desk, the table's phone and the organizer's night page each poll
with the stamp they were drawn from, get 204 while nothing moves, and the changed parts when something does."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from scoring.models import TableResult
from tests.conftest import code_at, register
from tournament import game
from tournament import services as night_services
from tournament.models import Round

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def playing(night):
    register(night, 12)  # three tables
    return game.round_start(round_=night_services.night_draw(night=night, seed=2))


@pytest.fixture
def keeper(playing):
    return night_services.keeper_add(night=playing.night, username="kate", password="keep-score-1")


def poll_url(page: str, poller: str) -> str:
    """The address the page's poller asks next, as the browser would read it."""
    match = re.search(rf'id="{poller}"[^>]*hx-get="([^"]+)"', page)
    assert match, f"no poller {poller} on the page"
    return unescape(match.group(1))


def test_the_desk_shows_a_table_coming_in_from_a_phone_within_one_poll(client, keeper, playing):
    client.force_login(keeper)
    desk = client.get(reverse("scoring:keeper_desk", args=[playing.night_id])).content.decode()
    assert "Waiting for tables 1, 2, 3." in desk
    poll = poll_url(desk, "desk-poll")
    assert client.get(poll, **HTMX).status_code == 204  # nothing moved: the cheap answer
    game.table_draft_submit(round_=playing, table=2, code=code_at(playing, 2, "N"), ns_points=6, ew_points=2)
    game.table_draft_confirm(round_=playing, table=2, draft_number=1, code=code_at(playing, 2, "E"))
    answer = client.get(poll, **HTMX)
    body = unescape(answer.content.decode())
    assert answer.status_code == 200
    assert "Waiting for tables 1, 3." in body
    assert re.search(r'<tr id="desk-2"[^>]*hx-swap-oob="true"', body) and "6–2 in" in body
    assert 'id="desk-poll"' in body and poll_url(body, "desk-poll") != poll  # the next poll starts from here
    assert client.get(poll_url(body, "desk-poll"), **HTMX).status_code == 204


def test_a_closed_game_on_the_desk_turns_into_its_correction_form_without_a_reload(client, keeper, playing):
    client.force_login(keeper)
    desk = client.get(reverse("scoring:keeper_desk", args=[playing.night_id])).content.decode()
    assert "Why the change" not in desk
    poll = poll_url(desk, "desk-poll")
    for table in (1, 2, 3):
        game.table_result_submit(round_=playing, table=table, ns_points=5, ew_points=3)
    game.round_close(round_=playing)
    body = unescape(client.get(poll, **HTMX).content.decode())
    assert "Game 1 is closed: each change needs a reason" in body
    assert body.count('name="t1-reason"') == 1 and body.count('name="t3-reason"') == 1
    assert "Open game 2's desk" in body


def link_for(round_, table):
    from scoring.models import TableLink

    night_services.table_links_ensure(night=round_.night)
    return TableLink.objects.get(night=round_.night, table=table, active=True)


def test_a_tables_phone_follows_the_game_start_bell_and_its_score_within_one_poll(client, night):
    register(night, 12)
    seated = night_services.night_draw(night=night, seed=2)
    link = link_for(seated, 2)
    page = unescape(client.get(reverse("scoring:table_link", args=[link.token])).content.decode())
    assert "Seated: take your seats. Waiting for the start of game 1." in page.replace("<b>", "").replace("</b>", "")
    poll = poll_url(page, "table-poll")
    assert client.get(poll, **HTMX).status_code == 204
    playing = game.round_start(round_=seated)
    body = unescape(client.get(poll, **HTMX).content.decode())
    assert "<b>Playing</b> game 1." in body and 'id="entry" class="hand-panel" hx-swap-oob="true"' in body
    poll = poll_url(body, "table-poll")
    # Another table's score does not wake this table's phones (the head table's would: it rings the bell).
    game.table_result_submit(round_=playing, table=3, ns_points=5, ew_points=3)
    assert client.get(poll, **HTMX).status_code == 204
    game.round_ring_bell(round_=playing)
    body = unescape(client.get(poll, **HTMX).content.decode())
    assert "<b>BELL</b> — finish the hand you are playing" in body
    poll = poll_url(body, "table-poll")
    game.table_draft_submit(round_=playing, table=2, code=code_at(playing, 2, "N"), ns_points=6, ew_points=2)
    body = unescape(client.get(poll, **HTMX).content.decode())
    assert "It counts once the other side confirms" in body  # the other phone at the table sees the draft
    poll = poll_url(body, "table-poll")
    game.table_draft_confirm(round_=playing, table=2, draft_number=1, code=code_at(playing, 2, "E"))
    body = unescape(client.get(poll, **HTMX).content.decode())
    assert "Score in: N–S 6, E–W 2" in body


def test_the_hand_page_of_a_second_phone_shows_the_hands_the_first_one_entered(client, playing):
    link = link_for(playing, 3)
    first, second = client, type(client)()
    page = unescape(second.get(reverse("scoring:link_hands", args=[link.token])).content.decode())
    poll = poll_url(page, "table-poll")
    assert second.get(poll, **HTMX).status_code == 204
    add = reverse("scoring:link_hand_add", args=[link.token])
    first.post(add, {"maker": "N", "tricks": "3", "game": "1"}, **HTMX)
    body = unescape(second.get(poll, **HTMX).content.decode())
    assert 'id="hand-panel" class="hand-panel" hx-swap-oob="true"' in body
    assert "Hand 2" in body and "↶ Undo hand 1" in body
    assert TableResult.objects.get(table=3).hands_played == 1


def test_two_phones_entering_the_same_hand_store_it_once(client, playing):
    link = link_for(playing, 2)
    add = reverse("scoring:link_hand_add", args=[link.token])
    first = client.post(add, {"maker": "N", "tricks": "3", "game": "1", "hand": "1"}, **HTMX).content.decode()
    assert "Saved." in first
    second = unescape(
        client.post(add, {"maker": "N", "tricks": "3", "game": "1", "hand": "1"}, **HTMX).content.decode()
    )
    assert "Hand 1 was already entered, from another phone or tab: check the hands below. Nothing was saved." in second
    assert TableResult.objects.get(table=2).hands_played == 1


def test_the_organizers_page_shows_a_table_coming_in_and_the_next_game_within_one_poll(organizer_client, playing):
    client = organizer_client
    page = unescape(client.get(reverse("tournament:night_detail", args=[playing.night_id])).content.decode())
    poll = poll_url(page, "round-poll")
    assert client.get(poll, **HTMX).status_code == 204
    game.table_result_submit(round_=playing, table=3, ns_points=5, ew_points=3)
    body = unescape(client.get(poll, **HTMX).content.decode())
    assert re.search(r'<article class="table-card done" id="table-3" hx-swap-oob="true"', body)
    assert re.search(r'<div id="round-bar" class="card bar" hx-swap-oob="true"', body)
    assert 'id="round" hx-swap-oob' not in body  # a score redraws the cards, not the whole game
    poll = poll_url(body, "round-poll")
    for table in (1, 2):
        game.table_result_submit(round_=playing, table=table, ns_points=5, ew_points=3)
    game.round_close(round_=playing)
    body = unescape(client.get(poll, **HTMX).content.decode())
    assert '<section id="round" hx-swap-oob="true">' in body and "Game 2 of 3 is seated" in body
    assert Round.objects.get(night=playing.night, number=2).status == "seated"


def test_an_organizers_button_from_a_page_drawn_before_the_game_moved_is_refused(organizer_client, playing):
    client = organizer_client
    page = client.get(reverse("tournament:night_detail", args=[playing.night_id])).content.decode()
    seen = re.search(r'name="seen" value="([^"]+)"', page).group(1)
    assert seen == "playing:" + str(playing.token)
    game.round_ring_bell(round_=playing)  # from another screen: the bell rings
    extend = reverse("tournament:round_extend", args=[playing.night_id, 1])
    answer = unescape(client.post(extend, {"minutes": "5", "seen": seen}, **HTMX).content.decode())
    assert "Game 1 changed since this page was drawn (it is bell rung now). Nothing was done" in answer
    playing.refresh_from_db()
    assert playing.status == "bell" and playing.ends_at is None
    fresh = re.search(r'name="seen" value="([^"]+)"', answer).group(1)  # the page as it now stands
    assert fresh == f"bell:{playing.token}"


def test_after_a_score_the_desk_and_the_night_page_redraw_only_the_table_that_changed(
    client, organizer_client, keeper, playing
):
    desk_client = type(client)()
    desk_client.force_login(keeper)
    desk = desk_client.get(reverse("scoring:keeper_desk", args=[playing.night_id])).content.decode()
    night_page = unescape(
        organizer_client.get(reverse("tournament:night_detail", args=[playing.night_id])).content.decode()
    )
    game.table_result_submit(round_=playing, table=2, ns_points=5, ew_points=3)
    body = unescape(desk_client.get(poll_url(desk, "desk-poll"), **HTMX).content.decode())
    assert re.findall(r'<tr id="desk-(\d+)"', body) == ["2"]
    body = unescape(organizer_client.get(poll_url(night_page, "round-poll"), **HTMX).content.decode())
    assert re.findall(r'<article class="table-card[^"]*" id="table-(\d+)"', body) == ["2"]


def test_a_score_landing_while_a_table_page_is_drawn_is_shown_by_the_next_poll(client, playing, monkeypatch):
    """Two phones at one table: the second's page has read the table's result when the first's score lands. That
    page does not show the score, so its poll must not answer "nothing new": the score comes with the next poll."""
    from tournament import selectors

    link = link_for(playing, 2)
    three_score = selectors.three_score  # called once the page has read the table's result and entries

    def a_score_lands_meanwhile(seats, result):
        if not TableResult.objects.filter(round=playing, table=2).exists():
            game.table_result_submit(round_=playing, table=2, ns_points=7, ew_points=1)
        return three_score(seats, result)

    monkeypatch.setattr(selectors, "three_score", a_score_lands_meanwhile)
    page = unescape(client.get(reverse("scoring:table_link", args=[link.token])).content.decode())
    monkeypatch.setattr(selectors, "three_score", three_score)
    assert TableResult.objects.filter(round=playing, table=2).exists()
    assert "Score in" not in page  # drawn from what was read before the score
    poll = client.get(poll_url(page, "table-poll"), **HTMX)
    assert poll.status_code == 200 and "Score in: N–S 7, E–W 1" in unescape(poll.content.decode())
    assert client.get(poll_url(unescape(poll.content.decode()), "table-poll"), **HTMX).status_code == 204
