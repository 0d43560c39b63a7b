"""Deleting a night (#33): a practice night goes after a plain "are you sure"; a night with results or money only
when the organizer types its name exactly; nobody else may; nothing of another night moves."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.urls import reverse

from tests.conftest import game_under_way, play_round, register
from tournament import services
from tournament.models import Entry, Night, Payment, Player, PrintJob

pytestmark = pytest.mark.django_db


def _delete(client, night, typed=None):
    data = {} if typed is None else {"typed_name": typed}
    return client.post(reverse("tournament:night_delete", args=[night.pk]), data)


def _scored(night):
    """Game 1 under way with table 1's score in."""
    round_ = game_under_way(night, 8)
    play_round(round_, {1: (10, 4)})
    return round_


def test_the_settings_page_has_the_danger_part_with_the_way_to_delete(organizer_client, night):
    page = organizer_client.get(reverse("tournament:night_settings", args=[night.pk])).content.decode()
    danger = page.split('id="danger"')[1]
    assert "Danger" in danger and reverse("tournament:night_delete", args=[night.pk]) in danger
    assert "Danger" not in organizer_client.get(reverse("tournament:night_create")).content.decode()


def test_a_night_with_nothing_in_it_is_asked_about_then_deleted_without_its_name(organizer_client, night):
    register(night, 5)
    page = organizer_client.get(reverse("tournament:night_delete", args=[night.pk])).content.decode()
    assert f"Delete “{night.name}”?" in page.replace("&#x27;", "'")
    assert "5 players (they stay on the club roster)" in page
    assert 'name="typed_name"' not in page  # nothing to guard: no name asked
    assert Night.objects.filter(pk=night.pk).exists()  # the page asked, and deleted nothing
    answer = _delete(organizer_client, night)
    assert answer.status_code == 302 and answer.url == reverse("tournament:night_list")
    assert not Night.objects.filter(pk=night.pk).exists() and not Entry.objects.filter(night_id=night.pk).exists()
    assert Player.objects.count() == 5  # the roster keeps them
    listed = organizer_client.get(answer.url).content.decode().replace("&#x27;", "'")
    assert f"“{night.name}” was deleted, with everything in it." in listed


def test_a_drawn_night_with_no_score_and_no_money_goes_after_the_plain_confirmation(organizer_client, night):
    game_under_way(night, 8)
    assert _delete(organizer_client, night).status_code == 302
    assert not Night.objects.filter(pk=night.pk).exists()


@pytest.mark.parametrize("what", ["money", "results", "pot", "draw"])
def test_a_night_with_money_or_results_asks_for_its_name_exactly(organizer_client, night, what):
    if what == "money":
        services.money_settings(night=night, currency="usd", pre=1000, door=1500, member=None)
        (ann, *_) = register(night, 4)
        services.payment_take(night=night, entry=ann, method="cash")
    elif what == "results":
        _scored(night)
    elif what == "pot":
        services.pot_line_add(night=night, pot="50/50", kind="in", cents=500)
    else:
        register(night, 4)
        services.draw_make(night=night, title="Door prize", count=1, pool_kind="players")
    page = organizer_client.get(reverse("tournament:night_delete", args=[night.pk])).content.decode()
    assert 'name="typed_name"' in page and "download" in page
    for typed in (None, night.name.upper(), night.name[:-1]):
        refused = _delete(organizer_client, night, typed).content.decode().replace("&#x27;", "'")
        field = refused.split('for="id_typed_name"')[1].split("<button")[0]  # the box and what is said under it
        assert f"type its name exactly, “{night.name}”" in field
        if typed:
            assert f"“{typed}” is not its name." in field
        assert Night.objects.filter(pk=night.pk).exists()
    answer = _delete(organizer_client, night, f"  {night.name} ")
    assert answer.status_code == 302 and not Night.objects.filter(pk=night.pk).exists()


def test_what_the_delete_page_lists_comes_from_the_night(organizer_client, night):
    from tournament.seasons import season_create, season_nights_add

    services.money_settings(night=night, currency="usd", pre=1000, door=1500, member=None)
    round_ = _scored(night)
    ann = Entry.objects.filter(night=night).order_by("card").first()
    services.payment_take(night=night, entry=ann, method="cash")
    season = season_create(name="Winter league")
    season_nights_add(season=season, night_ids=[night.pk])
    page = organizer_client.get(reverse("tournament:night_delete", args=[night.pk])).content.decode()
    assert f"the scores of {round_.number} game" in page
    assert "1 line of the door's money ($10.00 in the box)".replace("'", "&#x27;") in page
    assert "its games in the season “Winter league”" in page


def test_a_night_that_gained_money_since_the_page_was_drawn_is_refused_beside_the_box(organizer_client, night):
    """The page asked no name (nothing in it); a payment came in before the organizer pressed Delete."""
    (ann, *_) = register(night, 4)
    assert (
        'name="typed_name"'
        not in organizer_client.get(reverse("tournament:night_delete", args=[night.pk])).content.decode()
    )
    services.money_settings(night=night, currency="usd", pre=1000, door=1500, member=None)
    services.payment_take(night=night, entry=ann, method="card")
    refused = _delete(organizer_client, night).content.decode()
    assert 'name="typed_name"' in refused and "has results or money in it" in refused
    assert Payment.objects.filter(night=night).exists()


def test_deleting_a_night_leaves_every_other_night_as_it_was(organizer_client, night):
    other = services.night_create(name="Real night", games=3)
    services.money_settings(night=other, currency="usd", pre=1000, door=1500, member=None)
    (bob, *_) = register(other, 4)
    services.payment_take(night=other, entry=bob, method="cash")
    _scored(night)
    before = list(Entry.objects.filter(night=other).values_list("player_id", "card", "code"))
    _delete(organizer_client, night, night.name)
    assert not Night.objects.filter(pk=night.pk).exists()
    assert list(Entry.objects.filter(night=other).values_list("player_id", "card", "code")) == before
    assert Payment.objects.filter(night=other).count() == 1


def test_the_files_printed_for_the_night_go_with_it(organizer_client, night, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    register(night, 4)
    name = default_storage.save(f"print/tally-cards-{night.pk}-1.pdf", ContentFile(b"%PDF-1.4"))
    PrintJob.objects.create(night=night, kind="tally-cards", params={}, status=PrintJob.Status.DONE, file=name)
    assert default_storage.exists(name)
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        _delete(organizer_client, night)
    assert not PrintJob.objects.exists() and not default_storage.exists(name)


def test_the_service_refuses_without_the_name_and_says_which(night):
    _scored(night)
    with pytest.raises(ValidationError) as refused:
        services.night_delete(night=night)
    assert refused.value.message_dict == {
        "typed_name": [
            f"This night has results or money in it: to delete it with them, type its name exactly, “{night.name}”."
        ]
    }
    assert services.night_delete(night=night, typed_name=night.name) == night.name


def test_anyone_but_the_organizer_is_refused_and_nothing_is_deleted(client, night):
    page = reverse("tournament:night_delete", args=[night.pk])
    for answer in (client.get(page), _delete(client, night)):  # anonymous: sent to log in
        assert answer.status_code == 302 and reverse("login") in answer.url
    client.force_login(services.keeper_add(night=night, username="kate", password="keep-score-1"))
    assert client.get(page).status_code == 403
    assert _delete(client, night).status_code == 403
    assert Night.objects.filter(pk=night.pk).exists()
