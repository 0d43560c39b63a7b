"""The night's prizes form reads a prize's amount as every money field does (#34, item 1's kin): "high 12,50" is
twelve and a half in the night's currency's way, and a prize named twice is refused for being named twice. Through
the new-night form and the night's Settings page, as the organizer sends them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament.models import Night

from .test_night_form import new_night, sent

pytestmark = pytest.mark.django_db


def field_error(body: str) -> str:
    return body[body.index('id="id_prizes"') : body.index("<details")]


@pytest.mark.parametrize(
    ("currency", "prizes", "payouts"),
    [
        ("EUR", "high 12,50, low 5", "high €12.50, low €5"),
        ("EUR", "high 1.250,00, second 7,5, low 10%", "high €1250, second €7.50, low 10%"),
        ("EUR", "high €12,50,low 5", "high €12.50, low €5"),
        ("USD", "high 12,50, low $1,250", "high $12.50, low $1250"),
        ("USD", "high 12.50, low 5", "high $12.50, low $5"),
    ],
)
def test_a_prize_amount_typed_the_local_way_is_read_as_the_money_fields_read_it(
    organizer_client, currency, prizes, payouts
):
    answer = new_night(organizer_client, name="Fundraiser", currency=currency, prizes=prizes)
    assert answer.status_code == 302, field_error(answer.content.decode())
    night = Night.objects.get()
    assert night.prizes_text == payouts


def test_the_settings_page_reads_a_decimal_comma_on_a_euro_night(organizer_client):
    new_night(organizer_client, name="Fundraiser", currency="EUR")
    night = Night.objects.get()
    url = reverse("tournament:night_settings", args=[night.pk])
    answer = organizer_client.post(url, sent(organizer_client.get(url).context["form"], prizes="high 12,50, low"))
    assert answer.status_code == 302
    night.refresh_from_db()
    assert night.prizes_text == "high €12.50, low"
    money = organizer_client.get(reverse("tournament:money", args=[night.pk])).content.decode()
    assert "€12.50" in money


@pytest.mark.parametrize(
    ("prizes", "refusal"),
    [
        ("high 12,50, high 5", "“high” is named twice: name each prize once, with its money."),
        ("high:lady 5, low, high:Lady", "“high:Lady” is named twice (as “high:lady”): name each prize once"),
    ],
)
def test_a_prize_named_twice_is_refused_for_being_named_twice(organizer_client, prizes, refusal):
    body = new_night(organizer_client, name="Refused", currency="EUR", prizes=prizes).content.decode()
    assert refusal in field_error(body)
    assert not Night.objects.exists()
