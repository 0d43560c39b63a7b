"""Amounts read as the treasurer typed them (#34, part 1): on a euro night "12,50" is twelve euros fifty, never
€1,250.00, at every form that takes money (the prices, the night's entry price, a refund, a side pot's line); an
amount that could be read two ways is asked about beside its field, and nothing is stored."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import register
from tournament import services
from tournament.models import Entry, Night, Payment, PotLine

pytestmark = pytest.mark.django_db


@pytest.fixture
def euro_night(organizer_client):
    night = services.night_create(name="Soirée euchre", games=3)
    register(night, 8)
    response = organizer_client.post(
        reverse("tournament:money_settings", args=[night.pk]),
        {"currency": "EUR", "pre": "12,50", "door": "15", "member": "", "house_share": "0"},
    )
    assert response.status_code == 302
    return Night.objects.get(pk=night.pk)


def test_a_euro_nights_prices_are_read_with_the_decimal_comma(euro_night, organizer_client):
    assert (euro_night.currency, euro_night.price_pre, euro_night.price_door) == ("EUR", 1250, 1500)
    page = organizer_client.get(reverse("tournament:money", args=[euro_night.pk])).content.decode()
    assert 'value="12,50"' in page  # shown to be typed again the way it was typed


def test_a_refund_and_a_pot_line_typed_with_a_decimal_comma(euro_night, organizer_client):
    ann = Entry.objects.filter(night=euro_night).order_by("card").first()
    organizer_client.post(reverse("tournament:money_take", args=[euro_night.pk, ann.pk]), {"method": "cash"})
    refund = reverse("tournament:money_refund", args=[euro_night.pk, ann.pk])
    organizer_client.post(
        refund, {f"r{ann.pk}-cents": "2,50", f"r{ann.pk}-method": "cash", f"r{ann.pk}-reason": "left early"}
    )
    assert list(Payment.objects.filter(entry=ann).order_by("pk").values_list("cents", flat=True)) == [1250, -250]
    organizer_client.post(
        reverse("tournament:pot_add", args=[euro_night.pk]), {"pot": "50/50", "kind": "in", "cents": "1.250,00"}
    )
    assert list(PotLine.objects.filter(night=euro_night).values_list("cents", flat=True)) == [125000]


def test_an_amount_that_could_be_read_two_ways_is_asked_about_beside_its_field(euro_night, organizer_client):
    ann = Entry.objects.filter(night=euro_night).order_by("card").first()
    organizer_client.post(reverse("tournament:money_take", args=[euro_night.pk, ann.pk]), {"method": "cash"})
    refund = reverse("tournament:money_refund", args=[euro_night.pk, ann.pk])
    asked = organizer_client.post(
        refund, {f"r{ann.pk}-cents": "1,250", f"r{ann.pk}-method": "cash", f"r{ann.pk}-reason": "oops"}
    )
    assert "“1,250” could be 1.250,00 or 1,25" in asked.content.decode()
    assert list(Payment.objects.filter(entry=ann).values_list("cents", flat=True)) == [1250]  # nothing stored


def test_the_nights_own_form_reads_the_price_in_the_currency_typed_beside_it(organizer_client):
    from tests.tournament.test_night_form import new_night

    response = new_night(organizer_client, name="Kväll", games="4", price="150,50", currency="SEK")
    assert response.status_code == 302
    night = Night.objects.get(name="Kväll")
    assert (night.currency, night.price_pre) == ("SEK", 15050)


def test_a_refund_a_pot_line_and_a_payment_sent_twice_are_stored_once(euro_night, organizer_client):
    """#34 item 2: a double tap at the cash box. Each money form carries a one-time key (drawn with the page): the
    same form sent again gives back what the first stored."""
    ann = Entry.objects.filter(night=euro_night).order_by("card").first()
    page = organizer_client.get(reverse("tournament:money", args=[euro_night.pk]))
    row = next(row for row in page.context["door"].rows if row.entry.pk == ann.pk)
    take = reverse("tournament:money_take", args=[euro_night.pk, ann.pk])
    for _ in range(2):
        organizer_client.post(take, {"method": "cash", "key": row.take_key})
    assert list(Payment.objects.filter(entry=ann).values_list("cents", flat=True)) == [1250]
    refund_key = row.refund_form["key"].value()
    refund = reverse("tournament:money_refund", args=[euro_night.pk, ann.pk])
    sent = {
        f"r{ann.pk}-key": refund_key,
        f"r{ann.pk}-cents": "2,50",
        f"r{ann.pk}-method": "cash",
        f"r{ann.pk}-reason": "left early",
    }
    for _ in range(2):
        assert organizer_client.post(refund, sent).status_code == 302
    assert list(Payment.objects.filter(entry=ann).order_by("pk").values_list("cents", flat=True)) == [1250, -250]
    pot_key = page.context["pot_form"]["key"].value()
    for _ in range(2):
        organizer_client.post(
            reverse("tournament:pot_add", args=[euro_night.pk]),
            {"key": pot_key, "pot": "50/50", "kind": "in", "cents": "20"},
        )
    assert PotLine.objects.filter(night=euro_night).count() == 1
    fresh_key = organizer_client.get(reverse("tournament:money", args=[euro_night.pk])).context["pot_form"]["key"]
    assert fresh_key.value() != pot_key  # the next line drawn is a new one


def test_the_database_keeps_a_money_forms_key_once_a_night(euro_night):
    """Two posts racing past the service's first look both reach the insert: the database refuses the second
    (the service then gives back the first's line)."""
    from django.db import IntegrityError, transaction

    from tournament.services.nights import create_once

    ann = Entry.objects.filter(night=euro_night).order_by("card").first()
    first, made = create_once(Payment, key="k1", night=euro_night, entry=ann, cents=500, method="cash")
    again, made_again = create_once(Payment, key="k1", night=euro_night, entry=ann, cents=500, method="cash")
    assert (made, made_again, again.pk) == (True, False, first.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.create(key="k1", night=euro_night, entry=ann, cents=500, method="cash")
    assert Payment.objects.filter(night=euro_night, key="k1").count() == 1
