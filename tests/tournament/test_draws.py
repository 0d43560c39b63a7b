"""Draws the room watches (#21): made from the players here or the tickets sold, recorded with their seed, shown on
the room display, replayed from the record to the same winners, and carried whole by the backup."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.at_once import twice_at_once
from tests.conftest import register
from tournament import backup, services
from tournament.engine.draws import pick
from tournament.models import Draw, Night, Player
from tournament.rehearsal import simulate
from tournament.selectors import draw_on_display, night_draws, night_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def here(night):
    """Twelve players registered, two of them not (or no longer) here."""
    register(night, 12)
    entries = list(night.entries.order_by("card"))
    services.entry_set_checked_in(entry=entries[0], checked_in=False)
    services.entry_set_active(entry=entries[1], active=False)
    return night


def test_a_door_prize_is_drawn_from_the_players_here_and_replays_from_its_record(here, organizer):
    draw = services.draw_make(night=here, title="  Door   prize ", count=3, pool_kind="players", by=organizer)
    cards = sorted(here.entries.values_list("card", flat=True))
    assert draw.title == "Door prize" and draw.pool == cards[2:]  # the two not here are not in it
    assert len(set(draw.winners)) == 3 and set(draw.winners) <= set(draw.pool)
    assert pick(draw.seed, draw.pool, 3) == draw.winners  # the record alone gives the winners
    view = night_draws(here)[0]
    names = dict(here.entries.values_list("card", "player__name"))
    assert view.replays and view.winners == [(card, names[card]) for card in draw.winners]
    assert view.pool_words == "10 players here"


def test_a_50_50_is_drawn_from_the_tickets_sold(here):
    draw = services.draw_make(night=here, title="50/50", count=1, pool_kind="tickets", tickets=250)
    assert draw.pool == list(range(1, 251)) and 1 <= draw.winners[0] <= 250
    view = night_draws(here)[0]
    assert view.winners == [(draw.winners[0], "")] and view.pool_words == "250 tickets"


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"title": " ", "count": 1, "pool_kind": "players"}, "title", "Say what the draw is for"),
        ({"title": "Door", "count": 11, "pool_kind": "players"}, "count", "Draw from 1 to 10"),
        ({"title": "50/50", "count": 1, "pool_kind": "tickets"}, "tickets", "how many tickets were sold"),
        ({"title": "50/50", "count": 1, "pool_kind": "raffle"}, "pool_kind", "the players here, the tickets sold or"),
        ({"title": "Tie", "count": 1, "pool_kind": "tie", "tied": [4]}, "prize", "Choose a prize that is tied"),
        ({"title": "Tie", "count": 2, "pool_kind": "tie", "tied": [4, 5]}, "count", "A tie's draw has one winner"),
    ],
)
def test_a_draw_that_cannot_be_made_says_why_and_records_nothing(here, fields, field, words):
    with pytest.raises(ValidationError) as refused:
        services.draw_make(night=here, **fields)
    assert words in " ".join(refused.value.message_dict[field])
    assert not Draw.objects.exists()


def test_the_room_display_shows_the_latest_draw_until_it_is_taken_off(client, here):
    display = reverse("tournament:room_display", args=[here.pk])
    first = services.draw_make(night=here, title="Door prize", count=1, pool_kind="players")
    second = services.draw_make(night=here, title="Basket raffle", count=2, pool_kind="tickets", tickets=90)
    page = client.get(display).content.decode()
    assert "Draw 2: Basket raffle" in page and "Door prize" not in page
    assert f'data-draw="{here.pk}-2-{second.seed}"' in page and 'id="draw-names"' in page
    assert all(f"Ticket {number}" in page for number in second.winners)
    assert draw_on_display(here).number == 2 and first.number == 1
    services.draw_hide(night=here)
    assert "room-draw" not in client.get(display).content.decode() and draw_on_display(here) is None


def test_the_money_page_makes_a_draw_and_shows_a_refusal_beside_the_field(organizer_client, here):
    make = reverse("tournament:draw_make", args=[here.pk])
    refused = organizer_client.post(make, {"title": "", "count": "1", "pool_kind": "players"})
    assert refused.status_code == 200 and "Say what the draw is for" in refused.content.decode()
    too_many = organizer_client.post(make, {"title": "Door", "count": "40", "pool_kind": "players"}).content.decode()
    assert "Draw from 1 to 10 (there are 10 to draw from), not 40." in too_many and 'value="Door"' in too_many
    assert not Draw.objects.exists()
    made = organizer_client.post(make, {"title": "Door prize", "count": "2", "pool_kind": "players"})
    assert made.status_code == 302 and made["Location"].endswith("#draws")
    page = organizer_client.get(reverse("tournament:money", args=[here.pk])).content.decode()
    draw = Draw.objects.get()
    assert f"seed {draw.seed}" in page and "replayed: the same winners ✓" in page


def test_draws_are_for_the_organizer(client, here):
    response = client.post(reverse("tournament:draw_make", args=[here.pk]), {"title": "x", "count": "1"})
    assert response.status_code == 302 and "login" in response["Location"] and not Draw.objects.exists()


def _signed(data):
    payload = {key: value for key, value in data.items() if key != "checksum"}
    data["checksum"] = hashlib.sha256(backup._canonical(payload)).hexdigest()
    return json.dumps(data).encode()


def test_draws_survive_a_backup_and_a_restore_and_a_forged_one_is_refused(here, organizer):
    services.draw_make(night=here, title="Door prize", count=2, pool_kind="players", by=organizer)
    services.draw_make(night=here, title="50/50", count=1, pool_kind="tickets", tickets=75)
    before = [(d.number, d.title, d.pool, d.seed, d.winners, d.on_display) for d in here.draws.all()]
    raw = backup.night_backup_bytes(here)
    data = json.loads(raw)
    forged = json.loads(raw)
    forged["draws"][0]["winners"] = sorted(forged["draws"][0]["winners"])[::-1]
    if forged["draws"][0]["winners"] == data["draws"][0]["winners"]:
        forged["draws"][0]["winners"] = forged["draws"][0]["winners"][::-1]
    ids = list(here.entries.values_list("player_id", flat=True))
    Night.objects.filter(pk=here.pk).delete()
    Player.objects.filter(pk__in=ids).delete()
    with pytest.raises(ValidationError, match="not what its seed and its pool give"):
        backup.night_restore(raw=_signed(forged))
    restored = backup.night_restore(raw=raw)
    after = [(d.number, d.title, d.pool, d.seed, d.winners, d.on_display) for d in restored.draws.all()]
    assert after == before and all(view.replays for view in night_draws(restored))
    assert restored.draws.get(number=1).by.username == organizer.username


def test_a_tie_for_a_prize_settled_by_a_draw_gives_the_prize_to_the_one_drawn(organizer_client):
    """Two players level for a prize share it until the organizer draws between them: the drawn one takes it alone,
    the standings say so, and with one prize each the other stays in line for the next prize."""
    for seed in range(1, 40):  # the first rehearsal with a prize tied
        night = simulate(players=12, rounds=2, seed=seed)
        if any(award.tie for award in night_standings(night).awards):
            break
    tied = next(a for a in night_standings(night).awards if a.tie)
    page = organizer_client.get(reverse("tournament:money", args=[night.pk])).content.decode()
    assert f'<option value="{tied.key}">{tied.prize}: ' in page
    made = organizer_client.post(
        reverse("tournament:draw_make", args=[night.pk]),
        {"title": f"Tie for {tied.prize}", "count": "1", "pool_kind": "tie", "prize": tied.key},
    )
    assert made.status_code == 302
    draw = Draw.objects.get(night=night)
    cards = dict(night.entries.values_list("card", "player_id"))
    assert sorted(cards[card] for card in draw.pool) == sorted(tied.player_ids) and draw.prize == tied.key
    after = {a.key: a for a in night_standings(night).awards}[tied.key]
    assert after.player_ids == (cards[draw.winners[0]],) and not after.tie and after.value.endswith("(won the draw)")
    assert pick(draw.seed, draw.pool, 1) == draw.winners
    display = organizer_client.get(reverse("tournament:room_display", args=[night.pk])).content.decode()
    assert f"From the {len(draw.pool)} players level" in display


def test_a_tie_draw_for_a_prize_that_is_not_tied_is_refused_beside_the_field(organizer_client, here):
    body = organizer_client.post(
        reverse("tournament:draw_make", args=[here.pk]), {"title": "Tie", "count": "1", "pool_kind": "tie", "prize": ""}
    ).content.decode()
    assert "Choose a prize that is tied: there is nobody to draw between." in body and not Draw.objects.exists()


def _draw_key(client, night) -> str:
    """The one-time key the Money page draws its draw form with."""
    return client.get(reverse("tournament:money", args=[night.pk])).context["draw_form"]["key"].value()


def test_a_draw_sent_twice_draws_once(organizer_client, here):
    """A double tap at the 50/50 (found by a treasurer's trial): the same form sent again is the same draw, never a
    second one with another winner."""
    make = reverse("tournament:draw_make", args=[here.pk])
    sent = {"key": _draw_key(organizer_client, here), "title": "50/50", "count": "1", "pool_kind": "tickets"}
    sent["tickets"] = "250"
    assert [organizer_client.post(make, sent).status_code for _ in range(2)] == [302, 302]
    assert Draw.objects.filter(night=here).count() == 1
    again = {**sent, "key": _draw_key(organizer_client, here)}  # from a new page: the pot was drawn
    assert "Already drawn: ticket " in organizer_client.post(make, again).content.decode()
    again["redraw"] = "on"  # the organizer asks to draw it again: a second draw
    assert organizer_client.post(make, again).status_code == 302
    assert Draw.objects.filter(night=here).count() == 2


# Threads on the test database: PostgreSQL's pass only (tests/at_once.py says why).
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_draw_posted_twice_at_the_same_moment_draws_once(organizer_client, here):
    from django.test import Client

    make = reverse("tournament:draw_make", args=[here.pk])
    sent = {"key": _draw_key(organizer_client, here), "title": "Door prize", "count": "1", "pool_kind": "players"}
    session = organizer_client.cookies

    def one() -> int:
        client = Client()
        client.cookies = session
        return client.post(make, sent).status_code

    assert twice_at_once(one) == [302, 302]
    (draw,) = Draw.objects.filter(night=here)
    assert draw.winners and draw.key == sent["key"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_50_50_drawn_from_four_tabs_at_the_same_moment_is_drawn_once(organizer_client, here):
    """Four tabs, four keys, "Draw now" at once (found by a treasurer's trial: four winners): one draw, and the
    other three told who won."""
    import threading

    from django.db import connection
    from django.test import Client

    make = reverse("tournament:draw_make", args=[here.pk])
    keys = [_draw_key(organizer_client, here) for _ in range(4)]
    session = organizer_client.cookies
    start, answers = threading.Barrier(4), []

    def one(key: str) -> None:
        try:
            client = Client()
            client.cookies = session
            start.wait()
            sent = {"key": key, "title": "50/50", "count": "1", "pool_kind": "tickets", "tickets": "250"}
            answer = client.post(make, sent)
            answers.append((answer.status_code, "Already drawn: ticket " in answer.content.decode()))
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [(200, True)] * 3 + [(302, False)]
    assert Draw.objects.filter(night=here).count() == 1
