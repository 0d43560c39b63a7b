"""Prizes checked against the night's own players and its pot (#34, item 3): a category prize nobody tonight is in,
and prize money the pot cannot cover, are asked about before they are saved (a tick saves them anyway); the Money
page says plainly when the prizes are more than the pot (a refund lowered it) instead of a house keeping −$30.00
without a word. Through the pages, as the organizer sends them."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.conftest import register
from tests.tournament.test_night_form import new_night, sent
from tournament import services
from tournament.models import Entry, Night, Player

pytestmark = pytest.mark.django_db


def settings_sent(client, night: Night, **typed: str):
    """The night's Settings as shown, sent with `typed` over it."""
    url = reverse("tournament:night_settings", args=[night.pk])
    return client.post(url, sent(client.get(url).context["form"], **typed))


def prizes_error(answer) -> str:
    return " ".join(answer.context["form"].errors.get("prizes", []))


@pytest.fixture
def ladies_and_men(night):
    """Eight players, four ladies and four men, at $10 each; nobody has paid yet."""
    services.money_settings(night=night, currency="USD", pre=1000, door=1000, member=None)
    register(night, 8)
    for index, entry in enumerate(Entry.objects.filter(night=night).order_by("card")):
        category = "lady" if index % 2 else "man"  # the night's own list (an import), and the roster's
        Entry.objects.filter(pk=entry.pk).update(category=category)
        Player.objects.filter(pk=entry.player_id).update(category=category)
    night.refresh_from_db()
    return night


def pay(night: Night, count: int) -> list[Entry]:
    """The first `count` players pay their $10 in cash."""
    paid = list(Entry.objects.filter(night=night).order_by("card")[:count])
    for entry in paid:
        services.payment_take(night=night, entry=entry, method="cash")
    return paid


def test_a_category_prize_nobody_tonight_is_in_is_asked_about_beside_the_field_then_saved_when_ticked(
    organizer_client, ladies_and_men
):
    night = ladies_and_men
    answer = settings_sent(organizer_client, night, prizes="high, low, high:nobody 10%")
    assert answer.status_code == 200
    assert prizes_error(answer) == (
        "No player tonight has the category “nobody” (tonight's: lady, man): “high:nobody” would go to nobody. "
        "Save anyway? Tick “Save these prizes anyway”, or change them."
    )
    body = answer.content.decode()
    assert 'name="prizes_confirmed"' in body and "Save these prizes anyway" in body  # the tick, under the prizes
    night.refresh_from_db()
    assert (night.prizes, night.payouts) == ("high,second,third,low,loners", "")  # nothing saved
    # A category the players have, in any case, asks nothing.
    settings_sent(organizer_client, night, prizes="high, high:Lady 10%, low")
    night.refresh_from_db()
    assert night.prizes_text == "high, high:Lady 10%, low"
    # Asked, then ticked: the organizer meant it (players may still sign up as "nobody").
    answer = settings_sent(organizer_client, night, prizes="high, low, high:nobody 10%", prizes_confirmed="on")
    assert answer.status_code == 302
    night.refresh_from_db()
    assert night.prizes_text == "high, low, high:nobody 10%"


def test_a_category_prize_on_a_new_night_asks_nothing_its_players_are_not_there_yet(organizer_client):
    assert new_night(organizer_client, name="Ladies' night", prizes="high, high:lady $10").status_code == 302
    assert Night.objects.get().prizes_text == "high, high:lady $10"


def test_a_fixed_prize_the_pot_cannot_cover_is_asked_about_before_it_is_saved(organizer_client, ladies_and_men):
    night = ladies_and_men
    pay(night, 2)  # $20 in the pot
    answer = settings_sent(organizer_client, night, prizes="high $50, low")
    assert prizes_error(answer) == (
        "The pot holds $20.00; the prizes come to $50.00: $30.00 more than the pot, which the house pays (the house "
        "keeps −$30.00 of it). Save anyway? Tick “Save these prizes anyway”, or change them."
    )
    night.refresh_from_db()
    assert night.payouts == ""
    # Shares and amounts together: 100% of $20 and $5 more.
    answer = settings_sent(organizer_client, night, prizes="high 100%, low $5")
    assert "the prizes come to $25.00: $5.00 more than the pot" in prizes_error(answer)
    # What the pot covers is saved without a question.
    assert settings_sent(organizer_client, night, prizes="high $15, low 25%").status_code == 302
    night.refresh_from_db()
    assert night.prizes_text == "high $15, low 25%"
    answer = settings_sent(organizer_client, night, prizes="high $50, low", prizes_confirmed="on")
    assert answer.status_code == 302
    night.refresh_from_db()
    assert night.prizes_text == "high $50, low"


def test_before_the_door_takes_money_a_fixed_prize_is_a_promise_and_asks_nothing(organizer_client, ladies_and_men):
    assert settings_sent(organizer_client, ladies_and_men, prizes="high $50, low $10").status_code == 302
    ladies_and_men.refresh_from_db()
    assert ladies_and_men.prizes_text == "high $50, low $10"


def test_the_house_share_counts_the_pot_is_what_the_house_leaves(organizer_client, ladies_and_men):
    night = ladies_and_men
    services.money_settings(night=night, currency="USD", pre=1000, door=1000, member=None, house_share=50)
    pay(night, 4)  # $40 in, the house keeps $20: a pot of $20
    answer = settings_sent(organizer_client, night, prizes="high $30")
    assert prizes_error(answer).startswith("The pot holds $20.00; the prizes come to $30.00: $10.00 more")


def test_the_money_page_says_plainly_when_a_refund_leaves_the_prizes_more_than_the_pot(
    organizer_client, ladies_and_men
):
    night = ladies_and_men
    paid = pay(night, 4)  # $40 in the pot
    assert settings_sent(organizer_client, night, prizes="high $30, low").status_code == 302
    url = reverse("tournament:money", args=[night.pk])
    assert "The prizes are more than the pot." not in organizer_client.get(url).content.decode()
    for entry in paid[:2]:  # two refunds: $20 left
        refund = reverse("tournament:money_refund", args=[night.pk, entry.pk])
        organizer_client.post(
            refund, {f"r{entry.pk}-cents": "10", f"r{entry.pk}-method": "cash", f"r{entry.pk}-reason": "left early"}
        )
    body = organizer_client.get(url).content.decode()
    assert "The prizes are more than the pot." in body
    assert (
        "The pot holds $20.00; the prizes come to $30.00: $10.00 more than the pot, which the house pays (the house "
        "keeps −$10.00 of it)."
    ) in body


def test_the_money_page_says_nothing_of_a_pot_that_covers_the_prizes_or_before_the_door_opens(
    organizer_client, ladies_and_men
):
    night = services.night_update(night=ladies_and_men, prizes="high $30, low 10%")
    url = reverse("tournament:money", args=[night.pk])
    assert "The prizes are more than the pot." not in organizer_client.get(url).content.decode()  # nothing in yet
    pay(night, 4)
    assert "The prizes are more than the pot." not in organizer_client.get(url).content.decode()  # $40 covers $34


def test_money_settings_asks_as_the_night_form_does(ladies_and_men):
    """`simulate_night --payouts` and any caller of the service: money the pot cannot cover is asked about."""
    night = ladies_and_men
    pay(night, 2)
    with pytest.raises(ValidationError) as asked:
        services.money_settings(night=night, currency="USD", pre=1000, door=1000, member=None, payouts="high $50")
    assert asked.value.error_dict["payouts"][0].code == "confirm"
    night.refresh_from_db()
    assert night.payouts == ""
    services.money_settings(
        night=night, currency="USD", pre=1000, door=1000, member=None, payouts="high $50", confirmed=True
    )
    night.refresh_from_db()
    assert night.payouts == "high $50"


@pytest.mark.parametrize(
    ("payouts", "refusal"),
    [
        ("champion 10%", "“champion” is not one of the night's prizes (high, second, third, low, loners)"),
        ("high:nobody 10%", "“high:nobody” is not one of the night's prizes"),
        ("best 10%", "“best” is not a prize"),
    ],
)
def test_simulate_night_refuses_money_for_a_prize_the_night_does_not_have(payouts, refusal):
    with pytest.raises(CommandError, match=re.escape(refusal)):
        call_command("simulate_night", players=8, rounds=1, price="10", payouts=payouts)
    assert not Night.objects.filter(payouts__contains="10%").exists()


def test_after_the_draw_the_question_is_asked_and_the_tick_still_answers_it(organizer_client, ladies_and_men):
    night = ladies_and_men
    pay(night, 2)
    services.night_draw(night=night, seed=1)
    answer = settings_sent(organizer_client, night, prizes="high $50, low")
    assert "The pot holds $20.00" in prizes_error(answer)
    assert not answer.context["form"]["prizes_confirmed"].field.disabled
    assert settings_sent(organizer_client, night, prizes="high $50, low", prizes_confirmed="on").status_code == 302
    night.refresh_from_db()
    assert night.prizes_text == "high $50, low"
