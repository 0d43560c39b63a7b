"""A player's own page is answered from the night's places read once per move and shared by every phone."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.seats import PARTNER_SEAT, SEAT_NAMES
from tests.conftest import play_round, register
from tournament import game, selectors, services
from tournament.models import Bye, Night, Round, Seating
from tournament.selectors import phones

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def ten_players() -> Night:
    """Ten players: two tables and two who sit out each game; games closed and started by hand."""
    night = services.night_create(name="Phones", games=3, auto_advance=False)
    register(night, 10)
    return night


def expected_place(round_: Round, player: int) -> tuple[int, str, str] | str | None:
    """Where the seating rows put `player` in `round_`: (table, seat name, partner), "bye", or None."""
    mine = Seating.objects.filter(round=round_, player_id=player).first()
    if mine is None:
        return "bye" if Bye.objects.filter(round=round_, player_id=player).exists() else None
    partner = Seating.objects.get(round=round_, table=mine.table, seat=PARTNER_SEAT[mine.seat]).player.name
    return (mine.table, SEAT_NAMES[mine.seat], partner)


def shown(finder) -> tuple[int, str, str] | str | None:
    if finder is None:
        return None
    return "bye" if finder.table == 0 else (finder.table, finder.seat_name, finder.partner)


def test_every_players_place_now_and_next_matches_the_seating_rows():
    night = ten_players()
    round_1 = game.round_start(round_=services.night_draw(night=night, seed=4))
    reading = phones.read_phone_room(night.pk)
    players = list(night.entries.values_list("player_id", flat=True))
    assert sorted(reading.places) == sorted(players)
    assert sum(shown(reading.places[p].now) == "bye" for p in players) == 2
    for player in players:
        assert shown(reading.places[player].now) == expected_place(round_1, player)
        assert reading.places[player].next is None
    # Game 1 closed by hand: game 2 is seated, not started. Everyone's place is "next game", none "now".
    play_round(round_1, {1: (7, 3), 2: (2, 8)})
    round_2 = game.round_close(round_=Round.objects.get(pk=round_1.pk))
    assert round_2.status == Round.Status.SEATED
    reading = phones.read_phone_room(night.pk)
    for player in players:
        assert reading.places[player].now is None
        assert shown(reading.places[player].next) == expected_place(round_2, player)
    night.refresh_from_db()
    assert reading.stamp == selectors.night_stamp(night.pk) == f"{night.moved_at.timestamp():.6f}"
    assert reading.cards == dict(night.entries.values_list("player_id", "card"))


def test_the_night_is_read_once_per_move_whatever_the_number_of_phones(django_assert_num_queries):
    night = ten_players()
    round_1 = game.round_start(round_=services.night_draw(night=night, seed=4))
    stamp = selectors.night_stamp(night.pk)
    first = phones.phone_room(night.pk, stamp)
    with django_assert_num_queries(0):
        assert phones.phone_room(night.pk, stamp) is first
    game.round_ring_bell(round_=round_1)  # a move: the stamp changes, and the next phone reads the night again
    moved = selectors.night_stamp(night.pk)
    assert moved != stamp
    again = phones.phone_room(night.pk, moved)
    assert again is not first and again.stamp == moved and again.room.round.status == Round.Status.BELL


def test_a_phones_redrawn_page_costs_its_stamp_and_nothing_more(client, django_assert_num_queries):
    night = ten_players()
    round_1 = game.round_start(round_=services.night_draw(night=night, seed=4))
    a, b = Seating.objects.filter(round=round_1, table=1, seat__in=["N", "E"]).values_list("player_id", flat=True)
    first = client.get(reverse("tournament:player_page", args=[night.pk, a]), {"since": "old"}, **HTMX)
    assert first.status_code == 200
    with django_assert_num_queries(1):
        page = client.get(reverse("tournament:player_page", args=[night.pk, b]), {"since": "old"}, **HTMX)
    assert page.status_code == 200
    seat = Seating.objects.get(round=round_1, player_id=b)
    assert f"Table {seat.table} · {SEAT_NAMES[seat.seat]}" in page.content.decode()
    stamp = selectors.night_stamp(night.pk)
    with django_assert_num_queries(1):
        assert (
            client.get(reverse("tournament:player_page", args=[night.pk, b]), {"since": stamp}, **HTMX).status_code
            == 204
        )


def test_a_phone_left_open_across_a_move_shows_the_new_seat():
    night = ten_players()
    round_1 = game.round_start(round_=services.night_draw(night=night, seed=4))
    player = Seating.objects.filter(round=round_1, table=2).values_list("player_id", flat=True).first()
    from django.test import Client

    phone = Client()
    url = reverse("tournament:player_page", args=[night.pk, player])
    before = phone.get(url).content.decode()
    assert "Next game" not in before
    stamp = selectors.night_stamp(night.pk)
    play_round(round_1, {1: (7, 3), 2: (2, 8)})
    round_2 = game.round_close(round_=Round.objects.get(pk=round_1.pk))
    answer = phone.get(url, {"since": stamp}, **HTMX)
    assert answer.status_code == 200
    where = expected_place(round_2, player)
    text = answer.content.decode()
    assert "Next game" in text
    assert (f"Table {where[0]} · {where[1]}" if where != "bye" else "You sit out the next game") in text
    assert f"since={selectors.night_stamp(night.pk)}" in text


def test_a_stranger_or_another_nights_player_is_sent_to_find_their_name(client):
    night = ten_players()
    services.night_draw(night=night, seed=4)
    other = services.night_create(name="Other night", games=3)
    services.players_register(night=other, names=["Zed Zimmer"])
    zed = other.entries.get().player_id
    answer = client.get(reverse("tournament:player_page", args=[night.pk, zed]))
    assert answer.status_code == 302 and answer.url.startswith(reverse("tournament:player_find", args=[night.pk]))
    # the finder says why they are there, and stops saying it once they search
    told = "That link is not one of tonight's players"
    assert told in client.get(answer.url).content.decode()
    assert told not in client.get(reverse("tournament:player_find", args=[night.pk])).content.decode()
    assert told not in client.get(answer.url + "&q=Zed").content.decode()
    assert client.get(reverse("tournament:player_page", args=[night.pk + other.pk + 50, zed])).status_code == 404


def test_only_the_last_few_nights_are_kept():
    nights = [services.night_create(name=f"Night {n}", games=3) for n in range(phones.NIGHTS_KEPT + 2)]
    for night in nights:
        phones.phone_room(night.pk, selectors.night_stamp(night.pk))
    assert sorted(phones._kept) == sorted(night.pk for night in nights[2:])


def test_one_nights_reading_keeps_no_other_night_waiting_and_is_made_once(monkeypatch):
    """At a bell shared by several clubs each night's phones wait only for their own night's reading, and the phones
    of one night asking at once share a single reading."""
    import threading
    from types import SimpleNamespace

    slow_night_reading = threading.Event()
    readings: list[int] = []

    def reading(night_id: int):
        readings.append(night_id)
        if night_id == 1:
            assert slow_night_reading.wait(10), "night 1's reading was never let go"
        return SimpleNamespace(stamp="s")

    monkeypatch.setattr(phones, "read_phone_room", reading)
    phones.forget()
    answers: list = []
    first = [threading.Thread(target=lambda: answers.append(phones.phone_room(1, "s"))) for _ in range(3)]
    for thread in first:
        thread.start()
    for _ in range(200):  # the first of night 1's phones is reading
        if readings:
            break
        threading.Event().wait(0.01)
    other = threading.Thread(target=lambda: answers.append(phones.phone_room(2, "s")))
    other.start()
    try:
        other.join(5)
        assert not other.is_alive() and readings.count(2) == 1  # night 2 was answered while night 1 was still read
    finally:
        slow_night_reading.set()
        for thread in [*first, other]:
            thread.join(5)
    assert readings.count(1) == 1 and len(answers) == 4  # three phones of night 1, one reading between them
    phones.forget()


# ---- the table phones: after a move every table's page is drawn from one reading of the night ---------------------


def _table_polls(night: Night, client, since: str) -> dict[int, str]:
    """Each table phone's poll of its page with the stamp `since`, as its page's htmx sends it."""
    from scoring.models import TableLink

    services.table_links_ensure(night=night)
    answers = {}
    for link in TableLink.objects.filter(night=night, active=True):
        answer = client.get(reverse("scoring:table_link", args=[link.token]), {"since": since}, **HTMX)
        assert answer.status_code == 200
        answers[link.table] = answer.content.decode()
    return answers


def _without_key(page: str) -> str:
    """A table page less the new entry's key, which every drawing makes afresh (a score sent twice is stored once)."""
    import re

    return re.sub(r'name="key" value="[^"]*"', 'name="key"', page)


def test_a_table_phone_polling_across_a_move_gets_the_page_a_fresh_reading_draws(client, monkeypatch):
    """Every table's phone, polling with its page's old stamp after game 1 closes and game 2 is seated, gets the
    page for game 2 with its own table's players, the same page as one read from the database on its own; and
    the night is read for the table phones once for the move, however many tables ask."""
    from scoring.models import TableLink
    from tournament.selectors import tables

    night = services.night_create(name="Tables", games=3, auto_advance=False)
    register(night, 16)
    round_1 = game.round_start(round_=services.night_draw(night=night, seed=7))
    services.table_links_ensure(night=night)
    old = {
        link.table: selectors.table_stamp(night.pk, round_1.pk, link.table)
        for link in TableLink.objects.filter(night=night)
    }
    play_round(round_1, {1: (7, 3), 2: (2, 8), 3: (6, 4), 4: (8, 0)})
    round_2 = game.round_close(round_=Round.objects.get(pk=round_1.pk))
    readings: list[int] = []
    reading = tables.read_table_room
    monkeypatch.setattr(tables, "read_table_room", lambda night_id: readings.append(night_id) or reading(night_id))
    polled = {}
    for link in TableLink.objects.filter(night=night):
        answer = client.get(reverse("scoring:table_link", args=[link.token]), {"since": old[link.table]}, **HTMX)
        assert answer.status_code == 200
        polled[link.table] = answer.content.decode()
    assert readings == [night.pk]  # four tables, one reading
    for table, page in polled.items():
        names = Seating.objects.filter(round=round_2, table=table).values_list("player__name", flat=True)
        assert len(names) == 4 and all(name in page for name in names), (table, list(names))
        others = Seating.objects.filter(round=round_2).exclude(table=table).values_list("player__name", flat=True)
        assert not any(f">{name}<" in page for name in others)
        assert f"since={selectors.table_stamp(night.pk, round_2.pk, table)}" in page
        # the same page a phone gets when its page is read on its own (a poll's answer only adds its twin poller)
        link = TableLink.objects.get(night=night, table=table, active=True)
        fresh = client.get(reverse("scoring:table_link", args=[link.token]), {"since": "0"}, **HTMX)
        phones.forget()
        tables._tables.forget()
        again = client.get(reverse("scoring:table_link", args=[link.token]), {"since": "0"}, **HTMX)
        assert _without_key(fresh.content.decode()) == _without_key(again.content.decode()) == _without_key(page)


def test_a_table_phone_after_a_substitution_shows_the_substitute_and_its_score_once_sent(client):
    """A move that changes who sits at a table (a substitute) is drawn on the table's phone at its next poll, and a
    score sent at that table is shown at the following poll: the shared reading is never older than the page's
    stamp."""
    from scoring.models import TableLink

    night = services.night_create(name="Tables", games=3, auto_advance=False)
    register(night, 8)
    round_1 = game.round_start(round_=services.night_draw(night=night, seed=3))
    services.table_links_ensure(night=night)
    link = TableLink.objects.get(night=night, table=1, active=True)
    url = reverse("scoring:table_link", args=[link.token])
    first = client.get(url, {"since": "0"}, **HTMX).content.decode()
    leaving = Seating.objects.filter(round=round_1, table=1).select_related("player").first().player
    assert leaving.name in first
    stamp = selectors.table_stamp(night.pk, round_1.pk, 1)
    services.entry_substitute(entry=night.entries.get(player=leaving), name="Zelda Newcomer")
    after = client.get(url, {"since": stamp}, **HTMX)
    assert after.status_code == 200 and "Zelda Newcomer" in after.content.decode()
    stamp = selectors.table_stamp(night.pk, round_1.pk, 1)
    assert client.get(url, {"since": stamp}, **HTMX).status_code == 204
    game.table_result_submit(round_=Round.objects.get(pk=round_1.pk), table=1, ns_points=6, ew_points=2)
    scored = client.get(url, {"since": stamp}, **HTMX)
    assert scored.status_code == 200
    assert "Score in: N–S 6, E–W 2" in scored.content.decode()
    assert f"since={selectors.table_stamp(night.pk, round_1.pk, 1)}" in scored.content.decode()
