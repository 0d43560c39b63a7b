"""The hand-entry page and the rules page, as a scorer and an organizer use them."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import rules
from scoring.models import Hand, TableResult
from scoring.rules import PRESETS
from tests.conftest import register
from tournament import game, services
from tournament.game import hand_record

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def playing(night):
    register(night, 8)
    return game.round_start(round_=services.night_draw(night=night, seed=9))


def url(name, round_, table=2):
    return reverse(f"scoring:{name}", args=[round_.night_id, round_.number, table])


def test_hand_entry_needs_an_organizer(client, playing):
    response = client.get(url("table_hands", playing))
    assert response.status_code == 302
    assert client.post(url("hand_add", playing), {"maker": "N", "tricks": "3"}).status_code == 302
    assert not Hand.objects.exists()


def test_a_plain_hand_takes_two_taps_and_shows_its_points_first(organizer_client, playing):
    page = organizer_client.get(url("table_hands", playing))
    assert page.template_name == "scoring/table_hands.html"
    body = page.content.decode()
    assert "Who called trump?" in body
    # Tap 1: the player who called (a link carrying the choice in the query string).
    link = re.search(r'hx-get="([^"]*maker=E[^"]*)"', body).group(1).replace("&amp;", "&")
    step = organizer_client.get(link, **HTMX)
    assert step.template_name == "scoring/table_hands.html#panel"
    shown = step.content.decode()
    assert "Tricks taken by E–W" in shown
    assert "E–W +1" in shown and "E–W +2" in shown and "N–S +2" in shown  # points before saving
    # Tap 2: the tricks, which saves the hand.
    saved = organizer_client.post(url("hand_add", playing), {"dealer": "N", "maker": "E", "tricks": "5"}, **HTMX)
    assert saved.template_name == "scoring/table_hands.html#panel"
    result = TableResult.objects.get(table=2)
    assert (result.ns_points, result.ew_points) == (0, 2)
    assert "Hand 2" in saved.content.decode() and "deals (E)" in saved.content.decode()


def test_a_loner_is_the_third_tap(organizer_client, playing):
    step = organizer_client.get(url("table_hands", playing) + "?maker=S", **HTMX).content.decode()
    alone = re.search(r'hx-get="([^"]*alone=1[^"]*)"', step).group(1).replace("&amp;", "&")
    assert "E–W +2" in step
    shown = organizer_client.get(alone, **HTMX).content.decode()
    assert "N–S +4" in shown  # a loner march, shown before saving
    organizer_client.post(url("hand_add", playing), {"maker": "S", "alone": "1", "tricks": "5"}, **HTMX)
    hand = Hand.objects.get()
    assert (hand.maker, hand.alone, hand.ns_points) == ("S", True, 4)


def test_refusals_are_shown_in_the_panel_and_save_nothing(organizer_client, playing):
    response = organizer_client.post(url("hand_add", playing), {"maker": "N"}, **HTMX)
    assert "Tap the number of tricks" in response.content.decode()
    response = organizer_client.post(url("hand_add", playing), {"maker": "N", "tricks": "7"}, **HTMX)
    assert "between 0 and 5" in response.content.decode()
    response = organizer_client.post(url("hand_add", playing), {"tricks": "3"}, **HTMX)
    assert "Tap who called trump first." in response.content.decode()
    assert not Hand.objects.exists()


def test_undo_and_game_over(organizer_client, playing):
    hand_record(round_=playing, table=2, hand=rules.Hand(dealer="N", makers="", maker="N", tricks=3))
    hand_record(round_=playing, table=2, hand=rules.Hand(dealer="N", makers="", maker="W", tricks=5))
    organizer_client.post(url("hand_undo", playing), **HTMX)
    assert Hand.objects.count() == 1
    response = organizer_client.post(url("table_finish", playing), **HTMX)
    assert "Game over: North–South won" in response.content.decode()
    assert TableResult.objects.get(table=2).status == "final"


def _on_preset(night, preset: str):
    """The night on a preset's rules, four players drawn, game 1 started."""
    night.rules = PRESETS[preset].as_dict()
    night.save()
    register(night, 4)
    return game.round_start(round_=services.night_draw(night=night, seed=1))


def test_bid_euchre_asks_for_the_bid_before_the_tricks(organizer_client, night):
    round_ = _on_preset(night, "bid-euchre")
    page = reverse("scoring:table_hands", args=[night.pk, 1, 1])
    before = organizer_client.get(page + "?maker=N", **HTMX).content.decode()
    assert "Tap the bid, then the tricks." in before and 'name="tricks"' not in before
    after = organizer_client.get(page + "?maker=N&bid=4", **HTMX).content.decode()
    assert "N–S +5, E–W +1" in after  # bid 4, five tricks: one a trick each way
    assert "N–S -6, E–W +3" in after  # bid 4, three tricks: set back six
    organizer_client.post(reverse("scoring:hand_add", args=[night.pk, 1, 1]), {"maker": "N", "bid": "4", "tricks": "5"})
    assert Hand.objects.get(result__round=round_).bid == 4


def test_rules_page_asks_before_rescoring(organizer_client, playing):
    hand_record(round_=playing, table=2, hand=rules.Hand(dealer="N", makers="", maker="N", tricks=0))
    rules_url = reverse("scoring:night_rules", args=[playing.night_id])
    numbers = {**PRESETS["progressive"].as_dict(), "bidding": "", "scoring": "progressive"}
    numbers = {key: value for key, value in numbers.items() if value is not False}
    response = organizer_client.post(rules_url, numbers)
    assert response.status_code == 200
    assert response.context["form"].errors["confirm"] == [
        "1 hand is already recorded: confirm to rescore them under the new rules."
    ]
    assert TableResult.objects.get(table=2).ew_points == 2
    response = organizer_client.post(rules_url, {**numbers, "confirm": "on"})
    assert response.status_code == 302
    assert TableResult.objects.get(table=2).ew_points == 4  # a euchre sweep on a progressive night
    playing.night.refresh_from_db()
    assert playing.night.scoring == "progressive"


def test_loading_a_preset_fills_the_form_without_saving(organizer_client, night):
    response = organizer_client.post(
        reverse("scoring:night_rules", args=[night.pk]), {"scoring": "hall-minus", "load_preset": "1"}
    )
    assert response.context["form"].initial["euchred_loner"] == -4
    night.refresh_from_db()
    assert night.scoring == "standard"


def test_after_the_bell_a_table_can_still_enter_the_hand_it_was_playing(organizer_client, playing):
    from tournament import game

    game.round_ring_bell(round_=playing)
    page = organizer_client.get(url("table_hands", playing)).content.decode()
    assert "The bell has rung" in page and "Who called trump?" in page


def test_midwest_pepper_offers_the_opponents_pass_beside_the_tricks(organizer_client, night):
    round_ = _on_preset(night, "midwest-pepper")
    page = reverse("scoring:table_hands", args=[night.pk, 1, 1])
    shown = organizer_client.get(page + "?maker=E&bid=5", **HTMX).content.decode()
    assert 'name="passed" value="1"' in shown and "Opponents pass:&nbsp;<small>E–W +5</small>" in shown
    organizer_client.post(
        reverse("scoring:hand_add", args=[night.pk, 1, 1]), {"maker": "E", "bid": "5", "passed": "1"}, **HTMX
    )
    hand = Hand.objects.get(result__round=round_)
    assert (hand.passed, hand.tricks, hand.ns_points, hand.ew_points) == (True, 0, 0, 5)
    listed = organizer_client.get(page, **HTMX).content.decode()
    assert "<td>passed</td>" in listed
    csv_text = organizer_client.get(reverse("tournament:hands_csv", args=[night.pk])).content.decode("utf-8-sig")
    assert "5 (opponents passed)" in csv_text


def test_bid_euchre_has_no_pass_button(organizer_client, night):
    _on_preset(night, "bid-euchre")
    shown = organizer_client.get(reverse("scoring:table_hands", args=[night.pk, 1, 1]) + "?maker=N&bid=4", **HTMX)
    assert 'name="passed"' not in shown.content.decode()


def test_a_pfeffer_table_counts_its_hickeys_beside_the_score(organizer_client, night):
    round_ = _on_preset(night, "pfeffer")
    hand_record(round_=round_, table=1, hand=rules.Hand(makers="NS", maker="N", bid=4, tricks=3))  # N–S set
    hand_record(round_=round_, table=1, hand=rules.Hand(makers="NS", maker="N", bid=4, tricks=6))  # E–W set
    hand_record(round_=round_, table=1, hand=rules.Hand(makers="EW", maker="E", pepper="big", alone=True, tricks=5))
    page = organizer_client.get(reverse("scoring:table_hands", args=[night.pk, 1, 1]), **HTMX).content.decode()
    assert page.count("Hickeys:") == 2
    assert re.search(r"Hickeys: 1</span>.*Hickeys: 3</span>", page, re.S)
